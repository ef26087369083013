/* notation.c: position strings, move letters, OGN reading and writing. */
#include "core/notation.h"
#include "core/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>


char notation_move_letter(const variant *v, int m) {
  return m < v->houses ? (char)('A' + m) : (char)('a' + m - v->houses);
}

int notation_move_index(const variant *v, char c) {
  if (c >= 'A' && c < 'A' + v->houses) return c - 'A';
  if (c >= 'a' && c < 'a' + v->houses) return v->houses + (c - 'a');
  return -1;
}

void notation_format_half(int score2, char *buf, size_t len) {
  if (score2 % 2) snprintf(buf, len, "%d.5", score2 / 2);
  else snprintf(buf, len, "%d", score2 / 2);
}

void notation_format_position(const board *b, const variant *v, const int *score2, char *buf,
                              size_t len) {
  size_t n = 0;
  for (int p = 0; p < v->pits && n < len; p++)
    n += (size_t)snprintf(buf + n, len - n, "%d-", b->pit[p]);
  char s0[16], s1[16];
  notation_format_half(score2 ? score2[0] : 2 * b->store[0], s0, sizeof s0);
  notation_format_half(score2 ? score2[1] : 2 * b->store[1], s1, sizeof s1);
  if (n < len) snprintf(buf + n, len - n, "%s-%s-%c", s0, s1, b->side ? 'N' : 'S');
}

/* A whole non-negative number of at most 3 digits in [s, s+len). */
static int read_count(const char *s, size_t len, int *out) {
  if (len == 0 || len > 3) return -1;
  int x = 0;
  for (size_t i = 0; i < len; i++) {
    if (!isdigit((unsigned char)s[i])) return -1;
    x = x * 10 + (s[i] - '0');
  }
  *out = x;
  return 0;
}

int notation_parse_position(const char *text, const variant *v, board *b, char *err,
                            size_t errlen) {
  const int fields = v->pits + 3;
  const char *f[VARIANT_MAX_PITS + 3];
  size_t flen[VARIANT_MAX_PITS + 3];
  int n = 0;
  const char *p = text;
  for (;;) {
    /* A '-' that starts a field is a minus sign ("4--1-…"), not a separator. */
    const char *d = strchr(*p == '-' ? p + 1 : p, '-');
    size_t l = d ? (size_t)(d - p) : strlen(p);
    if (n < fields) f[n] = p, flen[n] = l;
    n++;
    if (!d) break;
    p = d + 1;
  }
  if (n != fields) {
    board start;
    char example[NOTATION_POSITION_MAX];
    board_start(&start, v);
    notation_format_position(&start, v, NULL, example, sizeof example);
    error_set(err, errlen, "position: %d fields, expected %d (%d houses, 2 stores, side to move) for %d houses "
        "a side, as in %s (the start)",
        n, fields, v->pits, v->houses, example);
    return -1;
  }
  int pits[VARIANT_MAX_PITS], stores[2], total = 0;
  for (int i = 0; i < v->pits + 2; i++) {
    int x;
    int *dst = i < v->pits ? &pits[i] : &stores[i - v->pits];
    if (read_count(f[i], flen[i], &x) || x > v->total) {
      char what[32];
      if (i < v->pits)
        snprintf(what, sizeof what, "house %c", notation_move_letter(v, i));
      else
        snprintf(what, sizeof what, "%s store", i == v->pits ? "South's" : "North's");
      if (flen[i] == 0)
        error_set(err, errlen, "position: field %d (%s) is empty (a negative count?)", i + 1, what);
      else
        error_set(err, errlen, "position: field %d (%s) is '%.*s', not a seed count from 0 to %d", i + 1, what,
            (int)flen[i], f[i], v->total);
      return -1;
    }
    *dst = x;
    total += x;
  }
  const char *side = f[fields - 1];
  size_t sl = flen[fields - 1];
  if (sl != 1 || (side[0] != 'S' && side[0] != 'N')) {
    error_set(err, errlen, "position: field %d (side to move) is '%.*s', expected S or N", fields, (int)sl, side);
    return -1;
  }
  if (total != v->total) {
    error_set(err, errlen, "position: the seeds add up to %d, but the variant has %d (%d houses x %d seeds x 2)",
        total, v->total, v->houses, v->seeds);
    return -1;
  }
  board_set(b, v, pits, stores, side[0] == 'N');
  return 0;
}

int notation_parse_moves(const char *text, const variant *v, int *moves, int max, char *err,
                         size_t errlen) {
  int n = 0;
  for (const char *p = text; *p; p++) {
    if (isspace((unsigned char)*p)) continue;
    int m = notation_move_index(v, *p);
    if (m < 0) {
      error_set(err, errlen, "moves: '%c' (character %d) is not a house letter; with %d houses a side they are "
          "%c-%c for South and %c-%c for North",
          *p, (int)(p - text) + 1, v->houses, 'A', 'A' + v->houses - 1, 'a',
          'a' + v->houses - 1);
      return -1;
    }
    if (n == max) {
      error_set(err, errlen, "moves: more than %d moves", max);
      return -1;
    }
    moves[n++] = m;
  }
  return n;
}

void notation_format_legal(const variant *v, uint32_t legal, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  if (!legal) {
    snprintf(buf, len, "-");
    return;
  }
  for (int m = 0; m < v->pits; m++)
    if (legal >> m & 1 && n + 2 < len) {
      if (n) buf[n++] = ' ';
      buf[n++] = notation_move_letter(v, m);
      buf[n] = '\0';
    }
}

/* ---- OGN ---- */

void notation_ogn_free(notation_ogn *o) {
  free(o->moves);
  o->moves = NULL;
  o->nmoves = 0;
}

const char *notation_ogn_tag(const notation_ogn *o, const char *name) {
  for (int i = 0; i < o->ntags; i++)
    if (!strcmp(o->tags[i].name, name)) return o->tags[i].value;
  return NULL;
}

/* The line (from tag_line[]) of the tag notation_ogn_tag finds for `name`. */
static int tag_line_of(const notation_ogn *o, const int *tag_line, const char *name) {
  for (int i = 0; i < o->ntags; i++)
    if (!strcmp(o->tags[i].name, name)) return tag_line[i];
  return 0;
}

/* Parses one tag line "[Name "value"]" (without the newline). */
static int read_tag(const char *s, size_t len, notation_tag *t, int line, char *err,
                    size_t errlen) {
  size_t i = 1, k = 0;
  while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_')) {
    if (k + 1 >= sizeof t->name) goto bad;
    t->name[k++] = s[i++];
  }
  t->name[k] = '\0';
  if (k == 0) goto bad;
  while (i < len && s[i] == ' ') i++;
  if (i >= len || s[i] != '"') goto bad;
  i++;
  k = 0;
  while (i < len && s[i] != '"') {
    if (s[i] == '\\' && i + 1 < len) i++;
    if (k + 1 >= sizeof t->value) {
      error_set(err, errlen, "OGN line %d: the value of tag %s is longer than %zu characters", line, t->name,
          sizeof t->value - 1);
      return -1;
    }
    t->value[k++] = s[i++];
  }
  t->value[k] = '\0';
  if (i >= len) goto bad;
  i++;
  while (i < len && s[i] == ' ') i++;
  if (i >= len || s[i] != ']') goto bad;
  i++;
  while (i < len && isspace((unsigned char)s[i])) i++;
  if (i != len) goto bad;
  return 0;
bad:
  error_set(err, errlen, "OGN line %d: malformed tag line '%.*s'; expected [Name \"value\"]", line,
      (int)(len > 60 ? 60 : len), s);
  return -1;
}

/* Length of the score at the start of [s, s+len): digits, optionally '.' and
 * more digits ("23.5"); 0 when there is none. */
static size_t score_len(const char *s, size_t len) {
  size_t i = 0;
  while (i < len && isdigit((unsigned char)s[i])) i++;
  if (i == 0 || i == len || s[i] != '.') return i;
  size_t j = i + 1;
  while (j < len && isdigit((unsigned char)s[j])) j++;
  return j > i + 1 ? j : 0;
}

/* A result token of movetext: "*", S-N scores, halves allowed, or the
 * winner of a game the rules did not end written as PGN does (1-0 and 0-1
 * have the scores' shape; 1/2-1/2, a draw). */
static int is_result(const char *s, size_t len) {
  if (len == 1 && s[0] == '*') return 1;
  if (len == 7 && !memcmp(s, "1/2-1/2", 7)) return 1;
  size_t a = score_len(s, len);
  if (a == 0 || a >= len || s[a] != '-') return 0;
  size_t b = score_len(s + a + 1, len - a - 1);
  return b > 0 && a + 1 + b == len;
}

/* A move number token: digits followed by one or more dots. */
static int is_move_number(const char *s, size_t len) {
  size_t i = 0;
  while (i < len && isdigit((unsigned char)s[i])) i++;
  if (i == 0 || i == len) return 0;
  while (i < len && s[i] == '.') i++;
  return i == len;
}

/* Where reading an OGN record is: the text, its line, and the room for moves. */
typedef struct ogn_reader {
  const char *p;
  int line, cap;
  int tag_line[NOTATION_TAG_MAX]; /* the line of each tag */
} ogn_reader;

/* The tag lines at r->p, one tag a line. */
static int ogn_read_tags(ogn_reader *r, notation_ogn *out, char *err, size_t errlen) {
  while (*r->p == '[') {
    const char *eol = strchr(r->p, '\n');
    size_t len = eol ? (size_t)(eol - r->p) : strlen(r->p);
    if (len && r->p[len - 1] == '\r') len--;
    if (out->ntags == NOTATION_TAG_MAX) {
      error_set(err, errlen, "OGN line %d: more than %d tags", r->line, NOTATION_TAG_MAX);
      return -1;
    }
    if (read_tag(r->p, len, &out->tags[out->ntags], r->line, err, errlen)) return -1;
    r->tag_line[out->ntags++] = r->line;
    r->p = eol ? eol + 1 : r->p + len;
    r->line++;
  }
  return 0;
}

/* The variant and start position of the tags, and their Result checked. */
static int ogn_check_tags(const ogn_reader *r, notation_ogn *out, char *err, size_t errlen) {
  const char *vt = notation_ogn_tag(out, "Variant");
  if (vt) {
    char verr[ERROR_MAX];
    if (variant_parse(vt, &out->v, verr, sizeof verr)) {
      error_set(err, errlen, "OGN line %d: tag Variant: %s", tag_line_of(out, r->tag_line, "Variant"), verr);
      return -1;
    }
  }
  const char *fen = notation_ogn_tag(out, "FEN");
  if (fen) {
    char perr[ERROR_MAX];
    if (notation_parse_position(fen, &out->v, &out->start, perr, sizeof perr)) {
      error_set(err, errlen, "OGN line %d: tag FEN: %s", tag_line_of(out, r->tag_line, "FEN"), perr);
      return -1;
    }
  } else {
    board_start(&out->start, &out->v);
  }
  const char *res = notation_ogn_tag(out, "Result");
  if (res && !is_result(res, strlen(res))) {
    error_set(err, errlen, "OGN line %d: tag Result is '%s'; expected scores such as 25-20 or 23.5-24.5, "
        "1-0, 0-1, 1/2-1/2 or *",
        tag_line_of(out, r->tag_line, "Result"), res);
    return -1;
  }
  return 0;
}

/* Skips the {comment} at r->p. */
static int ogn_skip_comment(ogn_reader *r, char *err, size_t errlen) {
  int start = r->line;
  while (*r->p && *r->p != '}') {
    if (*r->p == '\n') r->line++;
    r->p++;
  }
  if (!*r->p) {
    error_set(err, errlen, "OGN line %d: comment opened with '{' is never closed", start);
    return -1;
  }
  r->p++;
  return 0;
}

/* Adds the house letters of the token t (len long) to out's moves. */
static int ogn_add_moves(ogn_reader *r, notation_ogn *out, const char *t, size_t len, char *err,
                         size_t errlen) {
  for (size_t i = 0; i < len; i++) {
    int m = notation_move_index(&out->v, t[i]);
    if (m < 0) {
      error_set(err, errlen, "OGN line %d: '%.*s' is not a move: '%c' is not a house letter (%c-%c, %c-%c)",
          r->line, (int)len, t, t[i], 'A', 'A' + out->v.houses - 1, 'a',
          'a' + out->v.houses - 1);
      return -1;
    }
    if (out->nmoves == r->cap) {
      int *nm = realloc(out->moves, (size_t)r->cap * 2 * sizeof *nm);
      if (!nm) {
        error_set(err, errlen, "OGN: out of memory");
        return -1;
      }
      out->moves = nm;
      r->cap *= 2;
    }
    out->moves[out->nmoves++] = m;
  }
  return 0;
}

/* Movetext: up to a blank line after some text, a tag line, or the end. */
static int ogn_read_movetext(ogn_reader *r, notation_ogn *out, char *err, size_t errlen) {
  int seen_text = 0;
  while (*r->p) {
    if (*r->p == '\n') {
      r->line++;
      r->p++;
      /* A blank line or a new tag line ends the movetext. */
      const char *q = r->p;
      while (*q == ' ' || *q == '\t' || *q == '\r') q++;
      if (seen_text && (*q == '\n' || *q == '\0')) break;
      if (*q == '[') break;
      continue;
    }
    if (isspace((unsigned char)*r->p)) {
      r->p++;
      continue;
    }
    seen_text = 1;
    if (*r->p == '{') {
      if (ogn_skip_comment(r, err, errlen)) return -1;
      continue;
    }
    const char *t = r->p;
    while (*r->p && !isspace((unsigned char)*r->p) && *r->p != '{') r->p++;
    size_t len = (size_t)(r->p - t);
    if (is_move_number(t, len) || is_result(t, len)) continue;
    if (ogn_add_moves(r, out, t, len, err, errlen)) return -1;
  }
  return 0;
}

int notation_ogn_read(const char *text, size_t *used, notation_ogn *out, char *err,
                      size_t errlen) {
  memset(out, 0, sizeof *out);
  variant_default(&out->v);
  ogn_reader r = {.p = text, .line = 1, .cap = 64};
  /* Skip blank space before the record. */
  while (*r.p && isspace((unsigned char)*r.p)) {
    if (*r.p == '\n') r.line++;
    r.p++;
  }
  if (!*r.p) {
    *used = (size_t)(r.p - text);
    return 0;
  }
  if (ogn_read_tags(&r, out, err, errlen) || ogn_check_tags(&r, out, err, errlen)) return -1;
  out->moves = malloc((size_t)r.cap * sizeof *out->moves);
  if (!out->moves) {
    error_set(err, errlen, "OGN: out of memory");
    return -1;
  }
  if (ogn_read_movetext(&r, out, err, errlen)) {
    notation_ogn_free(out);
    return -1;
  }
  *used = (size_t)(r.p - text);
  return 1;
}

int notation_ogn_play(const notation_ogn *o, game *g, char *err, size_t errlen) {
  if (game_init(g, &o->v, &o->start)) {
    error_set(err, errlen, "OGN: out of memory");
    return -1;
  }
  for (int i = 0; i < o->nmoves; i++) {
    int r = game_play(g, o->moves[i]);
    if (r == -2) {
      error_set(err, errlen, "OGN: out of memory");
      game_free(g);
      return -1;
    }
    if (r) {
      char legal[64];
      notation_format_legal(&g->v, g->legal, legal, sizeof legal);
      if (g->end != BOARD_END_NONE)
        error_set(err, errlen, "move %d (%c) comes after the end of the game (%s)", i + 1,
            notation_move_letter(&g->v, o->moves[i]), board_end_name(g->end));
      else
        error_set(err, errlen, "move %d (%c) is illegal; legal moves: %s", i + 1,
            notation_move_letter(&g->v, o->moves[i]), legal);
      game_free(g);
      return -1;
    }
  }
  return 0;
}

static int put_tag(FILE *f, const char *name, const char *value) {
  if (fprintf(f, "[%s \"", name) < 0) return -1;
  for (const char *c = value ? value : "?"; *c; c++) {
    if ((*c == '"' || *c == '\\') && fputc('\\', f) == EOF) return -1;
    if (fputc(*c, f) == EOF) return -1;
  }
  return fputs("\"]\n", f) == EOF ? -1 : 0;
}

/* The Result of a game won by `winner` as PGN writes it: 1-0, 0-1, 1/2-1/2. */
static const char *winner_result(int winner) {
  return winner == BOARD_SOUTH ? "1-0" : winner == BOARD_NORTH ? "0-1" : "1/2-1/2";
}

int notation_ogn_write(FILE *f, const game *g, const notation_meta *meta) {
  static const notation_meta none;
  if (!meta) meta = &none;
  char vname[160], result[40], score[40] = "", fen[NOTATION_POSITION_MAX];
  variant_format(&g->v, vname, sizeof vname);
  const outcome *e = meta->ended;
  const int *score2 = e ? e->score2 : g->score2;
  if (e || g->end != BOARD_END_NONE) {
    char a[16], b[16];
    notation_format_half(score2[0], a, sizeof a);
    notation_format_half(score2[1], b, sizeof b);
    snprintf(result, sizeof result, "%s-%s", a, b);
  } else {
    snprintf(result, sizeof result, "*");
  }
  /* The seeds need not say who won a game the rules did not end. */
  if (e && (outcome_is_forfeit(e->end) || outcome_is_adjudicated(e->end))) {
    snprintf(score, sizeof score, "%s", result);
    snprintf(result, sizeof result, "%s", winner_result(e->winner));
  }
  board st;
  board_start(&st, &g->v);
  int custom = memcmp(st.pit, g->start.pit, sizeof st.pit) || st.side != g->start.side ||
               st.store[0] != g->start.store[0] || st.store[1] != g->start.store[1];
  if (put_tag(f, "Variant", vname) || put_tag(f, "Event", meta->event) ||
      put_tag(f, "Site", meta->site) || put_tag(f, "Date", meta->date) ||
      put_tag(f, "Round", meta->round) || put_tag(f, "South", meta->south) ||
      put_tag(f, "North", meta->north) || put_tag(f, "Result", result))
    return -1;
  const char *term = e ? outcome_end_name(e->end)
                     : g->end != BOARD_END_NONE ? board_end_name(g->end)
                                                : NULL;
  if (term && put_tag(f, "Termination", term)) return -1;
  if (score[0] && put_tag(f, "Score", score)) return -1;
  if (custom) {
    notation_format_position(&g->start, &g->v, NULL, fen, sizeof fen);
    if (put_tag(f, "FEN", fen)) return -1;
  }
  if (fputc('\n', f) == EOF) return -1;
  int col = 0;
  for (int i = 0; i < g->plies; i++) {
    char tok[MOVE_RECORD_COMMENT_MAX + 4];
    tok[0] = notation_move_letter(&g->v, g->moves[i]);
    tok[1] = '\0';
    if (meta->records) {
      tok[1] = ' ';
      move_record_comment(&meta->records[i], tok + 2, sizeof tok - 2);
    }
    int n = (int)strlen(tok);
    if (col && col + n >= 79) {
      if (fputc('\n', f) == EOF) return -1;
      col = 0;
    } else if (col) {
      if (fputc(' ', f) == EOF) return -1;
      col++;
    }
    if (fputs(tok, f) == EOF) return -1;
    col += n;
  }
  if (fprintf(f, "%s%s\n\n", col ? " " : "", result) < 0) return -1;
  return 0;
}
