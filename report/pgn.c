/* pgn.c: PGN records written from stored games; PGN and OGN files read back as games to rate or store. */
#include "report/pgn.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/match.h"
#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/variant.h"
#include "store/replay.h"
#include "core/hash.h"
#include "core/name.h"

/* ================================================================ writing */

/* A tag whose value has '"' and '\' escaped, as PGN asks. Names with a
 * quote are legal PGN, but Ordo reads a tag up to its first '"]'. */
static int put_tag(FILE *f, const char *name, const char *value) {
  if (fprintf(f, "[%s \"", name) < 0) return -1;
  for (const char *c = value && *value ? value : "?"; *c; c++) {
    if ((*c == '"' || *c == '\\') && fputc('\\', f) == EOF) return -1;
    if (fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f) == EOF) return -1;
  }
  return fputs("\"]\n", f) == EOF ? -1 : 0;
}

static const char *pgn_result(int winner) {
  return winner == BOARD_SOUTH ? "1-0" : winner == BOARD_NORTH ? "0-1" : winner == -1 ? "1/2-1/2"
                                                                                      : "*";
}

int pgn_write_stored(FILE *f, const store_run *r, const store_game *g, char *err,
                     size_t errlen) {
  variant v;
  game gm;
  move_record *rec;
  if (store_game_records(g, &rec, err, errlen) < 0) return -1;
  if (store_replay_game(r, g, &v, &gm, err, errlen)) return free(rec), -1;
  char round[48], date[16], vname[160], score[40], a[16], b[16], plies[16];
  snprintf(round, sizeof round, "%d.%d.%d", g->round + 1, g->series_no + 1, g->game_no + 1);
  snprintf(date, sizeof date, "%.4s.%.2s.%.2s", r->started, r->started + 5, r->started + 8);
  variant_format(&v, vname, sizeof vname);
  notation_format_half(g->score2[0], a, sizeof a);
  notation_format_half(g->score2[1], b, sizeof b);
  snprintf(score, sizeof score, "%s-%s", a, b);
  snprintf(plies, sizeof plies, "%d", gm.plies);
  const char *res = pgn_result(g->winner);
  int bad = put_tag(f, "Event", r->name) || put_tag(f, "Site", "oware-harness") ||
            put_tag(f, "Date", date) || put_tag(f, "Round", round) ||
            put_tag(f, "White", r->player_name[g->south_idx]) ||
            put_tag(f, "Black", r->player_name[g->north_idx]) || put_tag(f, "Result", res) ||
            put_tag(f, "Variant", vname) || put_tag(f, "StartPosition", g->opening) ||
            put_tag(f, "Termination", outcome_end_name(g->end)) || put_tag(f, "Score", score) ||
            put_tag(f, "PlyCount", plies) || fputc('\n', f) == EOF;
  /* Movetext: "1. F d 2. E e …", "1... d" when North starts, each move
   * followed by its record as a comment when the game has them ("1. F
   * {+0.35/12 0.10s}"), then the result token; lines under 80 characters,
   * the result counted. */
  int col = 0;
  for (int i = 0; !bad && i <= gm.plies; i++) {
    char tok[24 + MOVE_RECORD_COMMENT_MAX];
    int side = (gm.start.side + i) % 2, num = (gm.start.side + i) / 2 + 1, n;
    char letter = i < gm.plies ? notation_move_letter(&v, gm.moves[i]) : 0;
    if (i == gm.plies) n = snprintf(tok, sizeof tok, "%s", res);
    else if (side == BOARD_SOUTH) n = snprintf(tok, sizeof tok, "%d. %c", num, letter);
    else if (i == 0) n = snprintf(tok, sizeof tok, "%d... %c", num, letter);
    else n = snprintf(tok, sizeof tok, "%c", letter);
    if (rec && i < gm.plies) {
      tok[n++] = ' ';
      move_record_comment(&rec[i], tok + n, sizeof tok - (size_t)n);
      n = (int)strlen(tok);
    }
    if (col && col + 1 + n > 79) {
      bad |= fputc('\n', f) == EOF;
      col = 0;
    } else if (col) {
      bad |= fputc(' ', f) == EOF;
      col++;
    }
    bad |= fputs(tok, f) == EOF;
    col += n;
  }
  if (!bad) bad = fputs("\n\n", f) == EOF;
  game_free(&gm);
  free(rec);
  if (bad) error_set(err, errlen, "write error");
  return bad ? -1 : 0;
}

/* ================================================================ reading */

typedef struct reader {
  const char *p;
  int line;
} reader;

/* Skips blanks, ';' comments to the end of the line and '%' escape lines. */
static void skip_space(reader *r) {
  for (;;) {
    if (*r->p == '\n') {
      r->line++;
      r->p++;
      if (*r->p == '%')
        while (*r->p && *r->p != '\n') r->p++;
    } else if (isspace((unsigned char)*r->p)) {
      r->p++;
    } else if (*r->p == ';') {
      while (*r->p && *r->p != '\n') r->p++;
    } else {
      return;
    }
  }
}

#define MAX_TAGS 32
typedef struct tag {
  char name[32];
  char value[256];
} tag;

static const char *tag_get(const tag *t, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(t[i].name, name)) return t[i].value;
  return NULL;
}

/* Reads "[Name "value"]" at r->p (which is at '['). */
static int read_tag(reader *r, tag *t, int rec, char *err, size_t errlen) {
  int line = r->line;
  r->p++;
  while (*r->p == ' ' || *r->p == '\t') r->p++;
  size_t n = 0;
  while (isalnum((unsigned char)*r->p) || *r->p == '_') {
    if (n + 1 >= sizeof t->name) goto bad;
    t->name[n++] = *r->p++;
  }
  t->name[n] = 0;
  if (!n) goto bad;
  while (*r->p == ' ' || *r->p == '\t') r->p++;
  if (*r->p != '"') goto bad;
  r->p++;
  n = 0;
  while (*r->p && *r->p != '"' && *r->p != '\n') {
    if (*r->p == '\\' && (r->p[1] == '"' || r->p[1] == '\\')) r->p++;
    if (n + 1 >= sizeof t->value) {
      error_set(err, errlen, "record %d (line %d): the value of tag %s is longer than %zu characters",
           rec, line, t->name, sizeof t->value - 1);
      return -1;
    }
    t->value[n++] = *r->p++;
  }
  t->value[n] = 0;
  if (*r->p != '"') goto bad;
  r->p++;
  while (*r->p == ' ' || *r->p == '\t') r->p++;
  if (*r->p != ']') goto bad;
  r->p++;
  return 0;
bad:
  error_set(err, errlen, "record %d (line %d): a tag is not [Name \"value\"]", rec, line);
  return -1;
}

/* Copies src into dst[size]; returns -1 when it does not fit (cut then). */
static int copy(char *dst, size_t size, const char *src) {
  size_t n = strlen(src);
  int cut = n >= size;
  if (cut) n = size - 1;
  memcpy(dst, src, n);
  dst[n] = 0;
  return cut ? -1 : 0;
}

/* "12." "12..." "12" */
static int is_move_number(const char *t, size_t n) {
  size_t i = 0;
  while (i < n && isdigit((unsigned char)t[i])) i++;
  if (!i) return 0;
  while (i < n && t[i] == '.') i++;
  return i == n;
}

/* "23" or "23.5" into half seeds; -1 when it is not one. */
static int half_seeds(const char *t, size_t n) {
  int v = 0;
  size_t i = 0;
  while (i < n && isdigit((unsigned char)t[i]) && v < 100000) v = v * 10 + (t[i++] - '0');
  if (!i) return -1;
  v *= 2;
  if (i + 2 == n && t[i] == '.' && t[i + 1] == '5') return v + 1;
  return i == n ? v : -1;
}

/* A result: 1-0, 0-1, 1/2-1/2, *, or OGN's final seeds "25-23" (then the
 * scores go to score2). Returns 1 with *winner set, 0 when it is not one. */
static int parse_result(const char *t, size_t n, int *winner, int score2[2], int *has_score) {
  if (n == 3 && !memcmp(t, "1-0", 3)) return *winner = 0, 1;
  if (n == 3 && !memcmp(t, "0-1", 3)) return *winner = 1, 1;
  if (n == 7 && !memcmp(t, "1/2-1/2", 7)) return *winner = -1, 1;
  if (n == 1 && *t == '*') return *winner = PGN_NO_RESULT, 1;
  const char *dash = memchr(t, '-', n);
  if (!dash) return 0;
  int a = half_seeds(t, (size_t)(dash - t)), b = half_seeds(dash + 1, n - (size_t)(dash - t) - 1);
  if (a < 0 || b < 0) return 0;
  score2[0] = a;
  score2[1] = b;
  *has_score = 1;
  *winner = a > b ? 0 : b > a ? 1 : -1;
  return 1;
}

static const char *winner_words(int w) {
  return w == 0 ? "South wins" : w == 1 ? "North wins" : w == -1 ? "a draw" : "no result";
}

/* What one record has been read as, so far. */
typedef struct record {
  int rec, line;        /* its number and first line, for messages */
  tag tags[MAX_TAGS];
  int ntags;
  variant v;
  board start;
  int term, has_term, tscore2[2], has_tscore; /* the movetext's result */
  int winner, score2[2], has_score;           /* the record's */
} record;

/* The tags at r->p, up to a blank line or a tag already seen. */
static int read_tags(reader *r, record *c, char *err, size_t errlen) {
  while (*r->p == '[') {
    if (c->ntags == MAX_TAGS) {
      error_set(err, errlen, "record %d (line %d): more than %d tags", c->rec, c->line, MAX_TAGS);
      return -1;
    }
    /* A tag already seen starts the next record. */
    const char *q = r->p + 1;
    while (*q == ' ' || *q == '\t') q++;
    size_t qn = 0;
    while (isalnum((unsigned char)q[qn]) || q[qn] == '_') qn++;
    int seen = 0;
    for (int i = 0; i < c->ntags; i++)
      seen |= strlen(c->tags[i].name) == qn && !memcmp(c->tags[i].name, q, qn);
    if (seen) break;
    if (read_tag(r, &c->tags[c->ntags++], c->rec, err, errlen)) return -1;
    /* A blank line ends the tags. */
    int newlines = 0;
    for (const char *s = r->p; *s && isspace((unsigned char)*s); s++) newlines += *s == '\n';
    skip_space(r);
    if (newlines >= 2) break;
  }
  return 0;
}

/* Variant and start position, from the tags: they say what the letters mean. */
static int read_start(record *c, char *err, size_t errlen) {
  const char *vt = tag_get(c->tags, c->ntags, "Variant");
  char verr[ERROR_MAX];
  if (vt && variant_parse(vt, &c->v, verr, sizeof verr)) {
    error_set(err, errlen, "record %d (line %d): tag Variant: %s", c->rec, c->line, verr);
    return -1;
  }
  if (!vt) variant_default(&c->v);
  const char *pos = tag_get(c->tags, c->ntags, "StartPosition");
  const char *posname = "StartPosition";
  if (!pos) pos = tag_get(c->tags, c->ntags, "FEN"), posname = "FEN";
  if (pos && notation_parse_position(pos, &c->v, &c->start, verr, sizeof verr)) {
    error_set(err, errlen, "record %d (line %d): tag %s: %s", c->rec, c->line, posname, verr);
    return -1;
  }
  if (!pos) board_start(&c->start, &c->v);
  return 0;
}

/* Skips the {comment} or (variation) at r->p, with what it nests. */
static int skip_group(reader *r, int rec, char *err, size_t errlen) {
  char open = *r->p, close = open == '{' ? '}' : ')';
  int depth = 0, start_line = r->line;
  do {
    if (*r->p == open) depth++;
    else if (*r->p == close) depth--;
    else if (*r->p == '\n') r->line++;
    r->p++;
  } while (*r->p && depth > 0);
  if (depth > 0) {
    error_set(err, errlen, "record %d (line %d): '%c' is never closed", rec, start_line, open);
    return -1;
  }
  return 0;
}

/* "12.F": a move number glued to its move, taken off the token. */
static void strip_move_number(const char **t, size_t *len) {
  while (*len && isdigit((unsigned char)**t) && memchr(*t, '.', *len)) {
    const char *dot = memchr(*t, '.', *len);
    while (dot < *t + *len && *dot == '.') dot++;
    if (dot == *t + *len) break;
    *len -= (size_t)(dot - *t);
    *t = dot;
  }
}

/* The moves read so far: house letters, together. */
typedef struct move_list {
  char *s;
  size_t n, cap;
} move_list;

/* Adds the letters of the token t (len long) on line `line` as moves. */
static int add_moves(move_list *m, const record *c, const char *t, size_t len, int line, char *err,
                     size_t errlen) {
  for (size_t i = 0; i < len; i++) {
    if (notation_move_index(&c->v, t[i]) < 0) {
      error_set(err, errlen,
           "record %d (line %d): '%.*s' is not a move: '%c' is not a house letter (%c-%c, "
           "%c-%c)",
           c->rec, line, (int)len, t, t[i], 'A', 'A' + c->v.houses - 1, 'a', 'a' + c->v.houses - 1);
      return -1;
    }
    if (m->n + 2 > m->cap) {
      char *m2 = realloc(m->s, m->cap * 2);
      if (!m2) {
        error_set(err, errlen, "out of memory");
        return -1;
      }
      m->s = m2;
      m->cap *= 2;
    }
    m->s[m->n++] = t[i];
  }
  return 0;
}

/* Movetext, up to a result token (kept in c->term), the next tag or the end. */
static int read_movetext(reader *r, record *c, move_list *m, char *err, size_t errlen) {
  for (;;) {
    skip_space(r);
    const char *t = r->p;
    if (!*t || *t == '[') return 0;
    if (*t == '{' || *t == '(') {
      if (skip_group(r, c->rec, err, errlen)) return -1;
      continue;
    }
    while (*r->p && !isspace((unsigned char)*r->p) && !strchr("{}();[", *r->p)) r->p++;
    size_t len = (size_t)(r->p - t);
    if (!len) {
      error_set(err, errlen, "record %d (line %d): unexpected '%c'", c->rec, r->line, *t);
      return -1;
    }
    if (*t == '$' || is_move_number(t, len)) continue;
    if (parse_result(t, len, &c->term, c->tscore2, &c->has_tscore)) return c->has_term = 1, 0;
    strip_move_number(&t, &len);
    if (parse_result(t, len, &c->term, c->tscore2, &c->has_tscore)) return c->has_term = 1, 0;
    if (add_moves(m, c, t, len, r->line, err, errlen)) return -1;
  }
}

/* The players (White/Black or South/North), the event and the round. */
static int read_names(const record *c, pgn_game *out, char *err, size_t errlen) {
  const char *s = tag_get(c->tags, c->ntags, "White"), *nn = tag_get(c->tags, c->ntags, "Black");
  if (!s) s = tag_get(c->tags, c->ntags, "South");
  if (!nn) nn = tag_get(c->tags, c->ntags, "North");
  if (!s || !nn || !*s || !*nn) {
    error_set(err, errlen, "record %d (line %d): the %s player is not named (tag %s)", c->rec,
         c->line, !s || !*s ? "South" : "North", !s || !*s ? "White or South" : "Black or North");
    return -1;
  }
  char why[ERROR_MAX];
  if (name_check("player name", s, why, sizeof why) ||
      name_check("player name", nn, why, sizeof why)) {
    error_set(err, errlen, "record %d (line %d): %s", c->rec, c->line, why);
    return -1;
  }
  if (copy(out->south, sizeof out->south, s) || copy(out->north, sizeof out->north, nn)) {
    error_set(err, errlen, "record %d (line %d): a player's name is longer than %zu characters", c->rec,
         c->line, sizeof out->south - 1);
    return -1;
  }
  if (!strcmp(s, nn)) {
    /* A run's game is between two of its players (store/games.c): a
     * player cannot have both sides. */
    error_set(err, errlen, "record %d (line %d): '%s' plays both sides (South and North); a game "
              "is between two players", c->rec, c->line, s);
    return -1;
  }
  const char *ev = tag_get(c->tags, c->ntags, "Event"), *rd = tag_get(c->tags, c->ntags, "Round");
  copy(out->event, sizeof out->event, ev ? ev : "");
  copy(out->round, sizeof out->round, rd ? rd : "");
  return 0;
}

/* The result: the Result tag, else the movetext's result; the final seeds
 * of the Score tag, if any. */
static int read_result(record *c, char *err, size_t errlen) {
  c->winner = PGN_NO_RESULT;
  const char *res = tag_get(c->tags, c->ntags, "Result");
  if (res) {
    if (!parse_result(res, strlen(res), &c->winner, c->score2, &c->has_score)) {
      error_set(err, errlen,
           "record %d (line %d): tag Result is '%s'; expected 1-0, 0-1, 1/2-1/2, * or final "
           "seeds such as 25-23",
           c->rec, c->line, res);
      return -1;
    }
  } else if (c->has_term) {
    c->winner = c->term;
    if (c->has_tscore) memcpy(c->score2, c->tscore2, sizeof c->score2), c->has_score = 1;
  } else {
    error_set(err, errlen, "record %d (line %d): no result (a Result tag or 1-0, 0-1, 1/2-1/2, *)",
         c->rec, c->line);
    return -1;
  }
  if (c->has_term && c->term != c->winner) {
    error_set(err, errlen, "record %d (line %d): tag Result says %s, the movetext's result %s", c->rec,
         c->line, winner_words(c->winner), winner_words(c->term));
    return -1;
  }
  const char *sc = tag_get(c->tags, c->ntags, "Score");
  if (sc) {
    int w2;
    if (!parse_result(sc, strlen(sc), &w2, c->score2, &c->has_score) || !c->has_score) {
      error_set(err, errlen, "record %d (line %d): tag Score is '%s'; expected final seeds such as 25-23",
           c->rec, c->line, sc);
      return -1;
    }
  }
  return 0;
}

/* Replays the moves of out from c's start: the end, the winner and the
 * final seeds (unless the record gave them) go to out. */
/* Whether a Termination tag names an end of the rules (majority, no-move,
 * repetition, ply-limit), which the moves must then reach. */
static int stated_rules_end(const char *termination) {
  outcome_end e;
  return termination && !outcome_end_parse(termination, &e) && e <= OUTCOME_PLY_LIMIT;
}

static int replay(record *c, pgn_game *out, char *err, size_t errlen) {
  game gm;
  if (game_init(&gm, &c->v, &c->start)) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  for (int i = 0; i < out->plies; i++) {
    int rc = game_play(&gm, notation_move_index(&c->v, out->moves[i]));
    if (rc) {
      char legal[64];
      notation_format_legal(&c->v, gm.legal, legal, sizeof legal);
      if (rc == -2) error_set(err, errlen, "out of memory");
      else if (gm.end != BOARD_END_NONE)
        error_set(err, errlen, "record %d (line %d): move %d (%c) comes after the end of the game (%s)",
             c->rec, c->line, i + 1, out->moves[i], board_end_name(gm.end));
      else
        error_set(err, errlen, "record %d (line %d): move %d (%c) is not legal; legal moves: %s", c->rec,
             c->line, i + 1, out->moves[i], legal);
      game_free(&gm);
      return -1;
    }
  }
  const char *termination = tag_get(c->tags, c->ntags, "Termination");
  if (gm.end != BOARD_END_NONE) {
    if (c->winner != PGN_NO_RESULT && c->winner != gm.winner) {
      error_set(err, errlen, "record %d (line %d): the result says %s, but the moves end the game "
           "with %s", c->rec, c->line, winner_words(c->winner), winner_words(gm.winner));
      game_free(&gm);
      return -1;
    }
    if (!c->has_score) memcpy(c->score2, gm.score2, sizeof c->score2);
  } else if (stated_rules_end(termination) && c->winner != PGN_NO_RESULT) {
    /* The record says the rules ended the game, and its moves stop first: a
     * record cut short, not a game to store as ended. */
    error_set(err, errlen,
              "record %d (line %d): the moves stop after ply %d, before the end the record "
              "states (Termination %s)",
              c->rec, c->line, out->plies, termination);
    game_free(&gm);
    return -1;
  } else if (!c->has_score) {
    c->score2[0] = 2 * gm.pos.store[0];
    c->score2[1] = 2 * gm.pos.store[1];
  }
  copy(out->end, sizeof out->end,
       termination && *termination ? termination
       : gm.end != BOARD_END_NONE  ? board_end_name(gm.end)
                                   : "unknown");
  game_free(&gm);
  out->winner = c->winner;
  memcpy(out->score2, c->score2, sizeof c->score2);
  return 0;
}

/* Reads one record. Returns 1 for a record, 0 at the end, -1 on error. */
static int read_record(reader *r, int rec, pgn_game *out, char *err, size_t errlen) {
  record c = {.rec = rec, .term = PGN_NO_RESULT};
  memset(out, 0, sizeof *out);
  skip_space(r);
  if (!*r->p) return 0;
  out->line = c.line = r->line;
  if (read_tags(r, &c, err, errlen) || read_start(&c, err, errlen)) return -1;
  move_list m = {malloc(64), 0, 64};
  if (!m.s) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  if (read_movetext(r, &c, &m, err, errlen)) {
    free(m.s);
    return -1;
  }
  m.s[m.n] = 0;
  out->moves = m.s;
  out->plies = (int)m.n;
  if (read_names(&c, out, err, errlen)) goto fail;
  variant_format(&c.v, out->variant, sizeof out->variant);
  notation_format_position(&c.start, &c.v, NULL, out->opening, sizeof out->opening);
  if (read_result(&c, err, errlen) || replay(&c, out, err, errlen)) goto fail;
  return 1;
fail:
  free(out->moves);
  out->moves = NULL;
  return -1;
}

/* Round "r.s.g" (whole numbers from 1). */
static int parse_round(const char *t, int v[3]) {
  for (int k = 0; k < 3; k++) {
    if (!isdigit((unsigned char)*t)) return -1;
    long x = 0;
    while (isdigit((unsigned char)*t) && x < 100000000) x = x * 10 + (*t++ - '0');
    if (x < 1 || x >= 100000000) return -1;
    v[k] = (int)x;
    if (k < 2 && *t++ != '.') return -1;
  }
  return *t ? -1 : 0;
}

/* Puts games into series (see pgn.h). */
static int assign_series(pgn_file *f, char *err, size_t errlen) {
  typedef struct key {
    const char *event;
    int round, series; /* from Round; series -1: made from consecutive records */
    int id;
    const char *a, *b;  /* the series' two players */
    int used;           /* bit mask of game numbers seen, up to 63; more: no pairs */
  } key;
  key *keys = calloc((size_t)f->n + 1, sizeof *keys);
  if (!keys && f->n) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  int nkeys = 0, prev_key = -1;
  for (int i = 0; i < f->n; i++) {
    pgn_game *g = &f->games[i];
    int rv[3], k = -1;
    if (!parse_round(g->round, rv)) {
      for (int j = 0; j < nkeys; j++)
        if (keys[j].series == rv[1] && keys[j].round == rv[0] &&
            !strcmp(keys[j].event, g->event)) {
          k = j;
          break;
        }
      int same = k >= 0 && ((!strcmp(keys[k].a, g->south) && !strcmp(keys[k].b, g->north)) ||
                            (!strcmp(keys[k].a, g->north) && !strcmp(keys[k].b, g->south)));
      uint64_t bit = rv[2] <= 64 ? 1ULL << (rv[2] - 1) : 0;
      if (k >= 0 && (!same || !bit || (keys[k].used & bit))) {
        k = -1; /* not a game of that series after all: a series of its own */
      } else {
        if (k < 0) {
          k = nkeys++;
          keys[k] = (key){g->event, rv[0], rv[1], k, g->south, g->north, 0};
        }
        keys[k].used |= bit;
        g->series = keys[k].id;
        g->game_no = rv[2] - 1;
        g->round_no = rv[0] - 1;
        prev_key = -1;
        continue;
      }
    }
    /* No usable Round: the previous record's series when this one swaps
     * its players' colours and it has one game, else a series of its own. */
    if (prev_key >= 0 && keys[prev_key].used == 1 && !strcmp(keys[prev_key].a, g->north) &&
        !strcmp(keys[prev_key].b, g->south)) {
      keys[prev_key].used = 3;
      g->series = keys[prev_key].id;
      g->game_no = 1;
      g->round_no = 0;
      prev_key = -1;
      continue;
    }
    k = nkeys++;
    keys[k] = (key){g->event, 0, -1, k, g->south, g->north, 1};
    g->series = k;
    g->game_no = 0;
    g->round_no = 0;
    prev_key = k;
  }
  free(keys);
  return 0;
}

int pgn_file_read(const char *text, pgn_file *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  hash_fnv1a_hex(text, strlen(text), out->source_hash);
  if (!strncmp(text, "\xef\xbb\xbf", 3)) text += 3; /* a UTF-8 byte-order mark */
  reader r = {text, 1};
  int cap = 0;
  for (;;) {
    if (out->n == cap) {
      int nc = cap ? cap * 2 : 64;
      pgn_game *g = realloc(out->games, (size_t)nc * sizeof *g);
      if (!g) {
        error_set(err, errlen, "out of memory");
        goto fail;
      }
      out->games = g;
      cap = nc;
    }
    int rc = read_record(&r, out->n + 1, &out->games[out->n], err, errlen);
    if (rc < 0) goto fail;
    if (rc == 0) break;
    if (out->games[out->n].winner == PGN_NO_RESULT) out->no_result++;
    out->n++;
  }
  if (assign_series(out, err, errlen)) goto fail;
  return 0;
fail:
  pgn_file_free(out);
  return -1;
}

void pgn_file_free(pgn_file *f) {
  for (int i = 0; i < f->n; i++) free(f->games[i].moves);
  free(f->games);
  memset(f, 0, sizeof *f);
}

/* ============================================================ rating, store */

/* Indices of games with a result, sorted by (series, game_no): the order in
 * which the database gives a run's games. */
static const pgn_game *sort_base;
static int by_series(const void *x, const void *y) {
  const pgn_game *a = &sort_base[*(const int *)x], *b = &sort_base[*(const int *)y];
  if (a->series != b->series) return a->series < b->series ? -1 : 1;
  return (a->game_no > b->game_no) - (a->game_no < b->game_no);
}

static int *rated_order(const pgn_file *f, int *n) {
  int *idx = malloc(((size_t)f->n + 1) * sizeof *idx);
  if (!idx) return NULL;
  *n = 0;
  for (int i = 0; i < f->n; i++)
    if (f->games[i].winner != PGN_NO_RESULT) idx[(*n)++] = i;
  sort_base = f->games;
  qsort(idx, (size_t)*n, sizeof *idx, by_series);
  return idx;
}

/* The names of the rated games in the order they first appear in the file
 * (the run's player list). */
typedef struct names {
  const char **v;
  int n;
} names;

static int name_index(names *l, const char *s, int add) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->v[i], s)) return i;
  if (!add) return -1;
  l->v[l->n] = s;
  return l->n++;
}

static int file_names(const pgn_file *f, names *l) {
  l->n = 0;
  l->v = malloc((2 * (size_t)f->n + 1) * sizeof *l->v);
  if (!l->v) return -1;
  for (int i = 0; i < f->n; i++) {
    if (f->games[i].winner == PGN_NO_RESULT) continue;
    name_index(l, f->games[i].south, 1);
    name_index(l, f->games[i].north, 1);
  }
  return 0;
}

/* The row of (name, e) in rows[0..*n-1], added when new; NULL out of
 * memory. */
static store_end_score *end_score_row(store_end_score **rows, int *n, int *cap, const char *name,
                                      outcome_end e) {
  for (int i = 0; i < *n; i++)
    if ((*rows)[i].end == e && !strcmp((*rows)[i].name, name)) return &(*rows)[i];
  if (*n == *cap) {
    int c = *cap ? 2 * *cap : 16;
    store_end_score *r = realloc(*rows, (size_t)c * sizeof *r);
    if (!r) return NULL;
    *rows = r;
    *cap = c;
  }
  store_end_score *r = &(*rows)[(*n)++];
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", name);
  r->end = e;
  return r;
}

static int end_score_cmp(const void *a, const void *b) {
  const store_end_score *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (int)x->end - (int)y->end;
}

int pgn_file_end_scores(const pgn_file *f, store_end_score **rows, int *n) {
  int cap = 0;
  *rows = NULL;
  *n = 0;
  for (int k = 0; k < f->n; k++) {
    const pgn_game *g = &f->games[k];
    outcome_end e;
    if (g->winner == PGN_NO_RESULT || !strcmp(g->south, g->north)) continue;
    if (outcome_end_parse(g->end, &e)) e = OUTCOME_FORFEIT_ERROR; /* as pgn_file_store keeps it */
    /* The last ply's side: a South move is a capital letter. */
    int last = g->plies > 0 ? (g->moves[g->plies - 1] >= 'a') : -1;
    for (int side = 0; side < 2; side++) {
      store_end_score *r = end_score_row(rows, n, &cap, side ? g->north : g->south, e);
      if (!r) {
        free(*rows);
        *rows = NULL;
        *n = 0;
        return -1;
      }
      int res = g->winner < 0 ? 0 : g->winner == side ? 1 : -1, own = last == side;
      long long *count[3] = {&r->losses, &r->draws, &r->wins};
      long long *own_count[3] = {&r->own_losses, &r->own_draws, &r->own_wins};
      (*count[res + 1])++;
      if (own) (*own_count[res + 1])++;
    }
  }
  if (*n) qsort(*rows, (size_t)*n, sizeof **rows, end_score_cmp);
  return 0;
}

int pgn_file_pool(const pgn_file *f, rating_pool *p, char *err, size_t errlen) {
  int n, ret = -1;
  const char *why = "out of memory";
  int *idx = rated_order(f, &n);
  names l = {0};
  int *pid = NULL, *has = NULL;
  if (!idx || file_names(f, &l)) goto done;
  pid = malloc(((size_t)l.n + 1) * sizeof *pid);
  has = calloc((size_t)l.n + 1, sizeof *has);
  if (!pid || !has) goto done;
  /* Only players with a game against someone else, in list order. */
  for (int k = 0; k < n; k++) {
    const pgn_game *g = &f->games[idx[k]];
    if (strcmp(g->south, g->north))
      has[name_index(&l, g->south, 0)] = has[name_index(&l, g->north, 0)] = 1;
  }
  for (int i = 0; i < l.n; i++) {
    pid[i] = -1;
    if (has[i] && (pid[i] = rating_pool_player(p, l.v[i])) < 0) goto done;
  }
  /* Games, and pairs: games 2k and 2k+1 of one series, from the side of
   * the series' first player (its first game's South). */
  int prev_series = -1, prev_game = -1, prev_pts = 0, a = -1, b = -1, cur_series = -1;
  for (int k = 0; k < n; k++) {
    const pgn_game *g = &f->games[idx[k]];
    if (g->series != cur_series) {
      cur_series = g->series;
      a = pid[name_index(&l, g->south, 0)];
      b = pid[name_index(&l, g->north, 0)];
    }
    if (a < 0 || b < 0 || a == b) continue;
    int south_is_a = pid[name_index(&l, g->south, 0)] == a;
    int pts = g->winner < 0 ? 1 : (g->winner == 0) == south_is_a ? 2 : 0;
    if (rating_pool_add(p, a, b, pts == 2, pts == 1, pts == 0)) {
      why = "bad counts";
      goto done;
    }
    if (g->game_no % 2 == 1 && g->series == prev_series && g->game_no == prev_game + 1) {
      long long penta[5] = {0, 0, 0, 0, 0};
      penta[prev_pts + pts] = 1;
      if (rating_pool_add_pairs(p, a, b, penta, prev_pts + pts == 2 && pts != 1)) {
        why = "bad counts";
        goto done;
      }
    }
    prev_series = g->series;
    prev_game = g->game_no;
    prev_pts = pts;
  }
  ret = 0;
done:
  if (ret) error_set(err, errlen, "%s", why);
  free(idx);
  free(l.v);
  free(pid);
  free(has);
  return ret;
}

int pgn_file_store(const pgn_file *f, store *db, const char *name, const char *command,
                   int64_t *run_id, char *err, size_t errlen) {
  int n, ret = -1;
  int *idx = rated_order(f, &n);
  names l = {0};
  store_run run;
  store_run_init(&run);
  store_game *games = NULL;
  if (!idx || file_names(f, &l)) goto oom;
  if (n <= 0) {
    error_set(err, errlen, "no game with a result: nothing to import");
    goto done;
  }
  if (l.n > STORE_MAX_PLAYERS) {
    error_set(err, errlen, "the games have %d players; a run holds at most %d", l.n,
         STORE_MAX_PLAYERS);
    goto done;
  }
  run.kind = STORE_IMPORTED;
  if (store_run_set(&run.name, name) || store_run_set(&run.format, "imported") ||
      store_run_set(&run.openings, "imported") || store_run_set(&run.command, command) ||
      store_config_set_text(&run, PGN_SOURCE_KEY, f->source_hash))
    goto oom;
  for (int i = 0; i < l.n; i++)
    if (store_run_add_player(&run, l.v[i], "imported")) goto oom;
  int rounds = 0;
  for (int k = 0; k < n; k++) {
    const pgn_game *g = &f->games[idx[k]];
    int v;
    for (v = 0; v < run.nvariants; v++)
      if (!strcmp(run.variant[v], g->variant)) break;
    if (v == run.nvariants) {
      if (v == STORE_MAX_VARIANTS) {
        error_set(err, errlen, "the games are of more than %d variants; a run holds at most %d",
             STORE_MAX_VARIANTS, STORE_MAX_VARIANTS);
        goto done;
      }
      if (store_run_add_variant(&run, g->variant)) goto oom;
    }
    if (g->round_no + 1 > rounds) rounds = g->round_no + 1;
  }
  run.rounds = rounds;
  games = calloc((size_t)n + 1, sizeof *games);
  if (!games) goto oom;
  int a = -1, b = -1, cur = -1;
  for (int k = 0; k < n; k++) {
    const pgn_game *g = &f->games[idx[k]];
    store_game *s = &games[k];
    int si = name_index(&l, g->south, 0), ni = name_index(&l, g->north, 0);
    if (g->series != cur) cur = g->series, a = si, b = ni;
    s->series_no = g->series;
    s->game_no = g->game_no;
    for (s->variant_idx = 0; strcmp(run.variant[s->variant_idx], g->variant);) s->variant_idx++;
    s->round = g->round_no;
    s->a_idx = a;
    s->b_idx = b;
    s->south_idx = si;
    s->north_idx = ni;
    snprintf(s->opening, sizeof s->opening, "%s", g->opening);
    s->moves = g->moves;
    s->winner = g->winner;
    memcpy(s->score2, g->score2, sizeof s->score2);
    s->plies = g->plies;
    /* The rules' end, or the record's Termination when it names one of
     * ours; a result the moves do not reach is kept as an error end with
     * the record's words in the detail. */
    if (outcome_end_parse(g->end, &s->end)) {
      s->end = OUTCOME_FORFEIT_ERROR;
      snprintf(s->detail, sizeof s->detail, "imported: %s", g->end);
    }
    s->seed = 0;
    s->seconds = 0;
  }
  if (store_run_create(db, &run, err, errlen)) goto done;
  for (int k = 0; k < n; k++) games[k].run_id = run.id;
  *run_id = run.id;
  char e2[ERROR_MAX];
  if (n && store_games_insert(db, games, n, err, errlen)) {
    store_run_status(db, run.id, STORE_FAILED, e2, sizeof e2);
    goto done;
  }
  if (store_run_status(db, run.id, STORE_FINISHED, err, errlen)) goto done;
  ret = 0;
  goto done;
oom:
  error_set(err, errlen, "out of memory");
done:
  free(idx);
  free(l.v);
  store_run_free(&run);
  free(games);
  return ret;
}
