/* oware.c: the embeddable library (include/oware.h) over core/ and players/. */
#include "include/oware.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/board.h"
#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/variant.h"
#include "players/player.h"

struct oware_game {
  game g;
  unsigned long long serial; /* tells players a game from another */
};

struct oware_player {
  player *p;
  unsigned long long serial; /* of the game it last moved in */
  int plies;                 /* that game's plies then */
};

const char *oware_version(void) { return OWARE_VERSION; }

oware_game *oware_game_new(const char *variant_text, const char *position, char *err,
                           size_t errlen) {
  static _Atomic unsigned long long serials;
  variant v;
  board start;
  char e[256];
  if (variant_parse(variant_text ? variant_text : "abapa", &v, e, sizeof e)) {
    error_set(err, errlen, "variant: %s", e);
    return NULL;
  }
  if (position && notation_parse_position(position, &v, &start, e, sizeof e)) {
    error_set(err, errlen, "position: %s", e);
    return NULL;
  }
  oware_game *g = calloc(1, sizeof *g);
  if (!g || game_init(&g->g, &v, position ? &start : NULL)) {
    free(g);
    error_set(err, errlen, "out of memory");
    return NULL;
  }
  g->serial = ++serials;
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
  char e[512];
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

int oware_player_move(oware_player *p, const oware_game *g, char *m, char *err, size_t errlen) {
  char e[512];
  if (g->g.end != BOARD_END_NONE) {
    error_set(err, errlen, "the game is over (%s)", board_end_name(g->g.end));
    return -1;
  }
  if (p->serial != g->serial || g->g.plies < p->plies) {
    if (player_new_game(p->p, &g->g.v, g->serial, e, sizeof e)) {
      error_set(err, errlen, "%s: %s", p->p->name, e);
      return -1;
    }
    p->serial = g->serial;
  }
  p->plies = g->g.plies;
  int move;
  player_status st = player_choose(p->p, &g->g, NULL, &move, NULL, e, sizeof e);
  if (st != PLAYER_OK) {
    error_set(err, errlen, "%s: %s: %s", p->p->name, player_status_name(st), e);
    return -1;
  }
  *m = notation_move_letter(&g->g.v, move);
  return 0;
}
