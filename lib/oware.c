/* oware.c: the embeddable library (include/oware.h) over core/ and players/. */
#include "include/oware.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/variant.h"
#include "players/level.h"
#include "players/player.h"

struct oware_game {
  game g;
  unsigned long long serial; /* tells players a game from another */
  unsigned long long undos;  /* take-backs so far: a player is told of a new game after one */
};

struct oware_player {
  player *p;
  unsigned long long serial; /* of the game it last moved in */
  unsigned long long undos;  /* that game's take-backs then */
  int plies;                 /* that game's plies then */
};

struct oware_levels {
  level_file f;
};

static unsigned long long next_serial(void) {
  static _Atomic unsigned long long serials;
  return ++serials;
}

const char *oware_version(void) { return OWARE_VERSION; }

oware_game *oware_game_new(const char *variant_text, const char *position, char *err,
                           size_t errlen) {
  variant v;
  board start;
  char e[ERROR_MAX];
  if (variant_parse(variant_text ? variant_text : "abapa", &v, e, sizeof e)) {
    error_set(err, errlen, "%s", e);
    return NULL;
  }
  if (position && notation_parse_position(position, &v, &start, e, sizeof e)) {
    error_set(err, errlen, "%s", e);
    return NULL;
  }
  oware_game *g = calloc(1, sizeof *g);
  if (!g || game_init(&g->g, &v, position ? &start : NULL)) {
    free(g);
    error_set(err, errlen, "out of memory");
    return NULL;
  }
  g->serial = next_serial();
  return g;
}

void oware_game_free(oware_game *g) {
  if (!g) return;
  game_free(&g->g);
  free(g);
}

int oware_game_play(oware_game *g, char m, char *err, size_t errlen) {
  char legal[64];
  notation_format_legal(&g->g.v, g->g.legal, legal, sizeof legal);
  if (g->g.end != BOARD_END_NONE) {
    error_set(err, errlen, "the game is over (%s)", board_end_name(g->g.end));
    return -1;
  }
  int i = notation_move_index(&g->g.v, m);
  if (i < 0) {
    error_set(err, errlen, "'%c' is not a house; legal moves: %s", m, legal);
    return -1;
  }
  int rc = game_play(&g->g, i);
  if (rc == -2) error_set(err, errlen, "out of memory");
  else if (rc) error_set(err, errlen, "%c is not legal; legal moves: %s", m, legal);
  return rc ? -1 : 0;
}

int oware_game_legal(const oware_game *g, char *buf, size_t len) {
  int n = 0;
  for (int i = 0; i < g->g.v.pits; i++)
    if (g->g.legal >> i & 1) {
      if ((size_t)n + 1 < len) buf[n] = notation_move_letter(&g->g.v, i);
      n++;
    }
  if (len) buf[(size_t)n < len ? (size_t)n : len - 1] = 0;
  return n;
}

int oware_game_side(const oware_game *g) { return g->g.pos.side; }

int oware_game_over(const oware_game *g) { return g->g.end != BOARD_END_NONE; }

int oware_game_result(const oware_game *g, double score[2], const char **reason) {
  int over = g->g.end != BOARD_END_NONE;
  if (score) {
    score[0] = over ? g->g.score2[0] / 2.0 : g->g.pos.store[0];
    score[1] = over ? g->g.score2[1] / 2.0 : g->g.pos.store[1];
  }
  if (reason) *reason = board_end_name(g->g.end);
  if (!over) return -2;
  return g->g.winner == GAME_DRAW ? -1 : g->g.winner;
}

void oware_game_position(const oware_game *g, char *buf, size_t len) {
  board b;
  game_shown_position(&g->g, &b);
  notation_format_position(&b, &g->g.v, g->g.end != BOARD_END_NONE ? g->g.score2 : NULL, buf,
                           len);
}

int oware_game_moves(const oware_game *g, char *buf, size_t len) {
  size_t n = 0;
  for (int i = 0; i < g->g.plies && n + 1 < len; i++)
    buf[n++] = notation_move_letter(&g->g.v, g->g.moves[i]);
  if (len) buf[n] = 0;
  return g->g.plies;
}

void oware_game_variant(const oware_game *g, char *buf, size_t len) {
  variant_format(&g->g.v, buf, len);
}

oware_player *oware_player_new(const char *spec, char *err, size_t errlen) {
  oware_player *p = calloc(1, sizeof *p);
  char e[ERROR_MAX];
  if (!p) {
    error_set(err, errlen, "out of memory");
    return NULL;
  }
  if (!(p->p = player_create(spec, e, sizeof e))) {
    error_set(err, errlen, "%s", e);
    free(p);
    return NULL;
  }
  return p;
}

void oware_player_free(oware_player *p) {
  if (!p) return;
  player_free(p->p);
  free(p);
}

const char *oware_player_name(const oware_player *p) { return p->p->name; }

/* Asks p for its move in g under lim (NULL: its own limits), with what it
 * found into *info (may be NULL); *move gets the house. */
static int ask(oware_player *p, const oware_game *g, const player_limits *lim, player_info *info,
               int *move, char *err, size_t errlen) {
  char e[ERROR_MAX];
  if (g->g.end != BOARD_END_NONE) {
    error_set(err, errlen, "the game is over (%s)", board_end_name(g->g.end));
    return -1;
  }
  if (p->serial != g->serial || p->undos != g->undos || g->g.plies < p->plies) {
    if (player_new_game(p->p, &g->g.v, g->serial, e, sizeof e)) {
      error_set(err, errlen, "%s: %s", p->p->name, e);
      return -1;
    }
    p->serial = g->serial;
    p->undos = g->undos;
  }
  p->plies = g->g.plies;
  player_status st = player_choose(p->p, &g->g, lim, move, info, e, sizeof e);
  if (st != PLAYER_OK) {
    error_set(err, errlen, "%s: %s: %s", p->p->name, player_status_name(st), e);
    return -1;
  }
  return 0;
}

int oware_player_move(oware_player *p, const oware_game *g, char *m, char *err, size_t errlen) {
  int move;
  if (ask(p, g, NULL, NULL, &move, err, errlen)) return -1;
  *m = notation_move_letter(&g->g.v, move);
  return 0;
}

/* Takes g's first plies moves again into out, a new game from g's start.
 * 0, or -1 (out of memory; out is then freed). */
static int replay(game *out, const game *g, int plies) {
  if (game_init(out, &g->v, &g->start)) return -1;
  for (int i = 0; i < plies; i++)
    if (game_play(out, g->moves[i])) {
      game_free(out);
      return -1;
    }
  return 0;
}

int oware_game_undo(oware_game *g, char *err, size_t errlen) {
  if (!g) {
    error_set(err, errlen, "no game (NULL)");
    return -1;
  }
  if (g->g.plies == 0) {
    error_set(err, errlen, "nothing to take back: the game is at its start");
    return -1;
  }
  game back;
  if (replay(&back, &g->g, g->g.plies - 1)) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  game_free(&g->g);
  g->g = back;
  g->undos++;
  return 0;
}

oware_game *oware_game_copy(const oware_game *g, char *err, size_t errlen) {
  if (!g) {
    error_set(err, errlen, "no game (NULL)");
    return NULL;
  }
  oware_game *c = calloc(1, sizeof *c);
  if (!c || replay(&c->g, &g->g, g->g.plies)) {
    free(c);
    error_set(err, errlen, "out of memory");
    return NULL;
  }
  c->serial = next_serial();
  return c;
}

/* 1 with a message when the limit called name is negative. */
static int negative(const char *name, long long value, char *err, size_t errlen) {
  if (value >= 0) return 0;
  error_set(err, errlen, "%s must be 0 (the player's own) or more, not %lld", name, value);
  return 1;
}

/* The limits of one move from the calls' plain numbers; -1 with a message
 * when one is negative or a handle is NULL. */
static int make_limits(const oware_player *p, const oware_game *g, int movetime_ms,
                       long long nodes, int depth, player_limits *lim, char *err, size_t errlen) {
  if (!p || !g) {
    error_set(err, errlen, "no %s (NULL)", p ? "game" : "player");
    return -1;
  }
  if (negative("movetime_ms", movetime_ms, err, errlen) || negative("nodes", nodes, err, errlen) ||
      negative("depth", depth, err, errlen))
    return -1;
  *lim = (player_limits){.depth = depth, .nodes = nodes, .playouts = nodes,
                         .movetime_ms = movetime_ms};
  return 0;
}

int oware_player_move_limit(oware_player *p, const oware_game *g, int movetime_ms, long long nodes,
                            int depth, char *m, char *err, size_t errlen) {
  oware_analysis a;
  if (oware_player_analyse(p, g, movetime_ms, nodes, depth, &a, err, errlen)) return -1;
  *m = a.move;
  return 0;
}

/* n > 0 when score is a win seen n plies ahead, -n a loss, else 0 (also
 * for a result the endgame tables prove, whose distance they do not give). */
static int end_in(int score) {
  if (score > PLAYER_WIN - PLAYER_TABLE_PLIES) return PLAYER_WIN - score;
  if (score < -(PLAYER_WIN - PLAYER_TABLE_PLIES)) return -(PLAYER_WIN + score);
  return 0;
}

int oware_player_analyse(oware_player *p, const oware_game *g, int movetime_ms, long long nodes,
                         int depth, oware_analysis *a, char *err, size_t errlen) {
  player_limits lim;
  player_info info;
  int move;
  if (make_limits(p, g, movetime_ms, nodes, depth, &lim, err, errlen) ||
      ask(p, g, &lim, &info, &move, err, errlen))
    return -1;
  *a = (oware_analysis){.move = notation_move_letter(&g->g.v, move), .score = info.score,
                        .end_in = end_in(info.score), .depth = info.depth,
                        .seldepth = info.seldepth, .nodes = info.nodes, .seconds = info.seconds};
  int n = info.pvlen < OWARE_PV_MAX ? info.pvlen : OWARE_PV_MAX;
  for (int i = 0; i < n; i++) a->pv[i] = notation_move_letter(&g->g.v, info.pv[i]);
  a->pv[n] = 0;
  return 0;
}

oware_levels *oware_levels_open(const char *path, char *err, size_t errlen) {
  char def[4096], e[ERROR_MAX];
  if (!path) {
    if (level_default_path(def, sizeof def, e, sizeof e)) {
      error_set(err, errlen, "levels: %s", e);
      return NULL;
    }
    path = def;
  }
  oware_levels *l = calloc(1, sizeof *l);
  if (!l) {
    error_set(err, errlen, "out of memory");
    return NULL;
  }
  if (level_load(path, &l->f, e, sizeof e)) {
    error_set(err, errlen, "levels: %s", e);
    free(l);
    return NULL;
  }
  return l;
}

void oware_levels_free(oware_levels *l) {
  if (!l) return;
  level_file_free(&l->f);
  free(l);
}

const char *oware_levels_path(const oware_levels *l) { return l ? l->f.path : NULL; }

int oware_levels_count(const oware_levels *l) { return l ? l->f.n : 0; }

int oware_levels_get(const oware_levels *l, int i, oware_level *out, char *err, size_t errlen) {
  if (!l) {
    error_set(err, errlen, "no levels (NULL)");
    return -1;
  }
  if (i < 0 || i >= l->f.n) {
    error_set(err, errlen, "no level %d: %s has %d (0 to %d)", i, l->f.path, l->f.n, l->f.n - 1);
    return -1;
  }
  const level_entry *e = &l->f.entry[i];
  int measured = e->columns >= 5;
  *out = (oware_level){.name = e->name, .spec = e->spec, .elo = measured ? e->elo : NAN,
                       .lo = measured ? e->lo : NAN, .hi = measured ? e->hi : NAN,
                       .target = e->columns >= 6 ? e->target : NAN};
  return 0;
}

int oware_levels_find(const oware_levels *l, const char *name, char *err, size_t errlen) {
  if (!l || !name) {
    error_set(err, errlen, "no %s (NULL)", l ? "level name" : "levels");
    return -1;
  }
  const level_entry *e = level_find(&l->f, name);
  if (e) return (int)(e - l->f.entry);
  error_set(err, errlen, "no level '%s' in %s; its levels:", name, l->f.path);
  for (int i = 0; i < l->f.n; i++) error_append(err, errlen, " %s", l->f.entry[i].name);
  return -1;
}

int oware_levels_elo_range(const oware_levels *l, double *lo, double *hi, char *err,
                           size_t errlen) {
  if (!l) {
    error_set(err, errlen, "no levels (NULL)");
    return -1;
  }
  return level_elo_range(&l->f, lo, hi, err, errlen);
}
