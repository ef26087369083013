/* play.c: a game between a person and a player: moves by letter, undo, hints, the board as text, the game saved as OGN. */
#include "cli/play.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "core/notation.h"

struct play_session {
  player *opponent, *hint;
  game g;
  board start;
  int human;
  uint64_t seed;
  char human_name[PLAYER_NAME_MAX];
};

int play_new(const play_config *c, play_session **out, char *err, size_t errlen) {
  *out = NULL;
  if (c->human != BOARD_SOUTH && c->human != BOARD_NORTH) {
    error_set(err, errlen, "the person's side must be South (0) or North (1)");
    return -1;
  }
  play_session *s = calloc(1, sizeof *s);
  if (!s) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  char e[512];
  s->human = c->human;
  s->seed = c->seed;
  snprintf(s->human_name, sizeof s->human_name, "%s", c->human_name ? c->human_name : "you");
  if (c->start) s->start = *c->start;
  else board_start(&s->start, &c->v);
  if (!(s->opponent = player_create(c->opponent, e, sizeof e))) {
    error_set(err, errlen, "opponent: %s", e);
    goto fail;
  }
  if (!(s->hint = player_create(c->hint ? c->hint : PLAY_DEFAULT_HINT, e, sizeof e))) {
    error_set(err, errlen, "hint player: %s", e);
    goto fail;
  }
  if (player_new_game(s->opponent, &c->v, c->seed, e, sizeof e)) {
    error_set(err, errlen, "opponent: %s", e);
    goto fail;
  }
  if (player_new_game(s->hint, &c->v, c->seed, e, sizeof e)) {
    error_set(err, errlen, "hint player: %s", e);
    goto fail;
  }
  if (game_init(&s->g, &c->v, &s->start)) {
    error_set(err, errlen, "out of memory");
    goto fail;
  }
  *out = s;
  return 0;
fail:
  if (s->opponent) player_free(s->opponent);
  if (s->hint) player_free(s->hint);
  free(s);
  return -1;
}

void play_free(play_session *s) {
  if (!s) return;
  player_free(s->opponent);
  player_free(s->hint);
  game_free(&s->g);
  free(s);
}

const game *play_game(const play_session *s) { return &s->g; }
int play_human(const play_session *s) { return s->human; }
const char *play_opponent_name(const play_session *s) { return s->opponent->name; }

int play_move(play_session *s, char letter, char *err, size_t errlen) {
  const variant *v = &s->g.v;
  char legal[64];
  notation_format_legal(v, s->g.legal, legal, sizeof legal);
  if (s->g.end != BOARD_END_NONE) {
    error_set(err, errlen, "the game is over (%s)", board_end_name(s->g.end));
    return -1;
  }
  if (s->g.pos.side != s->human) {
    error_set(err, errlen, "it is not your turn");
    return -1;
  }
  int k = toupper((unsigned char)letter) - 'A';
  if (k < 0 || k >= v->houses) {
    error_set(err, errlen, "'%c' is not one of your houses (%c-%c); legal moves: %s", letter,
         s->human ? 'a' : 'A', (s->human ? 'a' : 'A') + v->houses - 1, legal);
    return -1;
  }
  int m = s->human * v->houses + k;
  if (!(s->g.legal >> m & 1)) {
    error_set(err, errlen, "%c is not legal here%s; legal moves: %s", notation_move_letter(v, m),
         s->g.pos.pit[m] ? "" : " (the house is empty)", legal);
    return -1;
  }
  if (game_play(&s->g, m)) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

/* p's move in s's game (not played); -1 with err naming p when it fails. */
static int ask(player *p, play_session *s, int *move, player_info *info, char *err,
               size_t errlen) {
  char e[512];
  player_status st = player_choose(p, &s->g, NULL, move, info, e, sizeof e);
  if (st == PLAYER_OK) return 0;
  error_set(err, errlen, "%s: %s: %s", p->name, player_status_name(st), e);
  return -1;
}

int play_reply(play_session *s, int *move, char *err, size_t errlen) {
  if (s->g.end != BOARD_END_NONE || s->g.pos.side == s->human) {
    error_set(err, errlen, "it is not the opponent's turn");
    return -1;
  }
  if (ask(s->opponent, s, move, NULL, err, errlen)) return -1;
  if (game_play(&s->g, *move)) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

/* The game replayed up to `plies`. */
static int replay_to(play_session *s, int plies) {
  game g;
  if (game_init(&g, &s->g.v, &s->start)) return -1;
  for (int i = 0; i < plies; i++)
    if (game_play(&g, s->g.moves[i])) {
      game_free(&g);
      return -1;
    }
  game_free(&s->g);
  s->g = g;
  return 0;
}

int play_undo(play_session *s) {
  /* The person's last move: the last ply played from a position where the
   * person was to move. */
  int side = s->start.side, last = -1;
  for (int i = 0; i < s->g.plies; i++, side ^= 1)
    if (side == s->human) last = i;
  if (last < 0) return 0;
  int undone = s->g.plies - last;
  if (replay_to(s, last)) return 0;
  return undone;
}

int play_hint(play_session *s, int *move, player_info *info, char *err, size_t errlen) {
  if (s->g.end != BOARD_END_NONE) {
    error_set(err, errlen, "the game is over");
    return -1;
  }
  return ask(s->hint, s, move, info, err, errlen);
}

/* ----------------------------------------------------------------- drawing */

typedef struct out {
  char *buf;
  size_t len, used;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...) {
  if (o->used + 1 >= o->len) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
  va_end(ap);
  if (n > 0) o->used = o->used + (size_t)n < o->len ? o->used + (size_t)n : o->len - 1;
}

/* One house: "  4 ", "[ 4]" for the last move's house, " *4 " when captured. */
static void house(out *o, int count, int last, int captured) {
  if (last) put(o, "[%2d]", count);
  else put(o, " %c%2d", captured ? '*' : ' ', count);
}

void play_draw(const play_session *s, char *buf, size_t len) {
  out o = {buf, len, 0};
  if (len) buf[0] = 0;
  const game *g = &s->g;
  const variant *v = &g->v;
  int H = v->houses, last = -1, captured[VARIANT_MAX_PITS] = {0}, took = 0;
  board now, before;
  game_shown_position(g, &now);
  if (g->plies) {
    /* The position before the last move, for its captures. */
    game t;
    if (!game_init(&t, v, &s->start)) {
      for (int i = 0; i + 1 < g->plies; i++) game_play(&t, g->moves[i]);
      before = t.pos;
      game_free(&t);
      last = g->moves[g->plies - 1];
      int mover = before.side;
      took = g->pos.store[mover] - before.store[mover];
      /* Sowing only adds: an opponent house that held seeds (or got some)
       * and is empty now was captured. */
      int reached[VARIANT_MAX_PITS] = {0};
      for (int n = before.pit[last], i = last; n > 0;) {
        i = (i + 1) % v->pits;
        if (i == last && v->lap == VARIANT_LAP_SKIP) continue;
        reached[i] = 1;
        n--;
      }
      for (int i = 0; i < v->pits; i++)
        captured[i] = took > 0 && i / H != mover && (before.pit[i] || reached[i]) &&
                      !g->pos.pit[i];
    }
  }
  const char *north = s->human == BOARD_NORTH ? s->human_name : s->opponent->name;
  const char *south = s->human == BOARD_SOUTH ? s->human_name : s->opponent->name;
  put(&o, "        ");
  for (int k = H - 1; k >= 0; k--) put(&o, "  %c ", 'a' + k);
  put(&o, "   North: %s\n", north);
  put(&o, "       +");
  for (int k = 0; k < H; k++) put(&o, "----");
  put(&o, "+\n");
  put(&o, "       |");
  for (int k = H - 1; k >= 0; k--) house(&o, now.pit[H + k], H + k == last, captured[H + k]);
  put(&o, "|\n");
  put(&o, "  %3d  |", now.store[BOARD_NORTH]);
  for (int k = 0; k < H; k++) put(&o, "    ");
  put(&o, "|  %-3d\n", now.store[BOARD_SOUTH]);
  put(&o, "       |");
  for (int k = 0; k < H; k++) house(&o, now.pit[k], k == last, captured[k]);
  put(&o, "|\n");
  put(&o, "       +");
  for (int k = 0; k < H; k++) put(&o, "----");
  put(&o, "+\n");
  put(&o, "        ");
  for (int k = 0; k < H; k++) put(&o, "  %c ", 'A' + k);
  put(&o, "   South: %s\n", south);
  put(&o, "Stores: South %d, North %d.", now.store[BOARD_SOUTH], now.store[BOARD_NORTH]);
  if (last >= 0) {
    put(&o, " Last move: %c by %s", notation_move_letter(v, last),
        last / H == BOARD_SOUTH ? south : north);
    if (took > 0) {
      put(&o, ", capturing %d (", took);
      int first = 1;
      for (int i = 0; i < v->pits; i++)
        if (captured[i]) {
          put(&o, "%s%c", first ? "" : " ", notation_move_letter(v, i));
          first = 0;
        }
      put(&o, ")");
    }
    put(&o, ".");
  }
  put(&o, "\n");
  if (g->end != BOARD_END_NONE) {
    char a[16], b[16];
    notation_format_half(g->score2[0], a, sizeof a);
    notation_format_half(g->score2[1], b, sizeof b);
    put(&o, "Game over (%s): South %s, North %s: %s.\n", board_end_name(g->end), a, b,
        g->winner == GAME_DRAW ? "a draw"
        : g->winner == s->human ? "you win"
                                : "you lose");
  } else {
    char legal[64];
    notation_format_legal(v, g->legal, legal, sizeof legal);
    put(&o, "%s to move (%s); legal: %s.\n", g->pos.side == BOARD_SOUTH ? "South" : "North",
        g->pos.side == s->human ? "you" : s->opponent->name, legal);
  }
}

/* ------------------------------------------------------------------ saving */

int play_save(const play_session *s, const char *path, char *err, size_t errlen) {
  size_t n = strlen(path);
  char *tmp = malloc(n + 16);
  if (!tmp) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  snprintf(tmp, n + 16, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    error_set(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    free(tmp);
    return -1;
  }
  FILE *f = fdopen(fd, "w");
  if (!f) {
    error_set(err, errlen, "cannot write '%s': %s", path, strerror(errno));
    close(fd);
    unlink(tmp);
    free(tmp);
    return -1;
  }
  char date[16] = "????.??.??", round[8] = "1";
  time_t t = time(NULL);
  struct tm tm;
  if (gmtime_r(&t, &tm)) strftime(date, sizeof date, "%Y.%m.%d", &tm);
  notation_meta meta = {"oware play", "oware-harness", date, round,
                        s->human == BOARD_SOUTH ? s->human_name : s->opponent->name,
                        s->human == BOARD_NORTH ? s->human_name : s->opponent->name,
                        NULL, NULL};
  int bad = notation_ogn_write(f, &s->g, &meta) != 0;
  bad |= fflush(f) != 0;
  bad |= fsync(fileno(f)) != 0;
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, path)) {
    error_set(err, errlen, "cannot write '%s': %s", path, strerror(errno ? errno : EIO));
    unlink(tmp);
    free(tmp);
    return -1;
  }
  free(tmp);
  return 0;
}
