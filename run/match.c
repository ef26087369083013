/* match.c: plays one game between two players (a player's failure is its loss), or a plain sequence of them. */
#include "run/match.h"
#include "core/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/array.h"
#include "core/clock.h"
#include "core/rng.h"
#include "run/adjudicate.h"
#include "run/game_clock.h"

static outcome_end forfeit_of(player_status s) {
  switch (s) {
  case PLAYER_TIMEOUT: return OUTCOME_FORFEIT_TIMEOUT;
  case PLAYER_ILLEGAL: return OUTCOME_FORFEIT_ILLEGAL;
  case PLAYER_CRASH: return OUTCOME_FORFEIT_CRASH;
  case PLAYER_PROTOCOL: return OUTCOME_FORFEIT_PROTOCOL;
  default: return OUTCOME_FORFEIT_ERROR;
  }
}

static void forfeit(outcome *r, const game *g, int loser, player_status s,
                    const char *why) {
  r->end = forfeit_of(s);
  r->winner = 1 - loser;
  r->score2[0] = 2 * g->pos.store[0];
  r->score2[1] = 2 * g->pos.store[1];
  snprintf(r->detail, sizeof r->detail, "%s", why);
}

int match_play(player *south, player *north, const variant *v, const board *start,
               uint64_t game_seed, game *g, outcome *r, char *err, size_t errlen) {
  return match_play_stoppable(south, north, v, start, game_seed, NULL, g, r, err, errlen);
}

int match_play_stoppable(player *south, player *north, const variant *v, const board *start,
                         uint64_t game_seed, const atomic_int *stop, game *g, outcome *r,
                         char *err, size_t errlen) {
  return match_play_recorded(south, north, v, start, game_seed, stop, NULL, g, r, NULL, err, errlen);
}

/* The forfeit of a move that came past its clock. */
static void forfeit_time(outcome *r, const game *g, int loser, const player *p, long long ms,
                         const game_clock *c) {
  char why[200];
  snprintf(why, sizeof why, "%s took %lld ms with %lld ms left on its clock (margin %d ms)", p->name, ms,
           c->left_ms, c->margin_ms);
  forfeit(r, g, loser, PLAYER_OK, why);
  r->end = OUTCOME_FORFEIT_TIME;
}

/* Appends one move's record to *rec (n of them, room for *cap). 0, or -1. */
static int record_move(move_record **rec, int n, size_t *cap, long long ms, const player_info *info) {
  if (array_reserve(rec, sizeof **rec, (size_t)n, cap, 64)) return -1;
  (*rec)[n] = (move_record){ms, info->score, info->depth};
  return 0;
}

int match_play_recorded(player *south, player *north, const variant *v, const board *start,
                        uint64_t game_seed, const atomic_int *stop, const struct adjudicator *adj,
                        game *g, outcome *r, move_record **records, char *err, size_t errlen) {
  player *side[2] = {south, north};
  adjudicate_game watch;
  adjudicate_start(adj, v, &watch);
  double t0 = clock_now();
  game_clock clk[2];
  move_record *rec = NULL;
  size_t cap = 0;
  memset(r, 0, sizeof *r);
  if (records) *records = NULL;
  if (game_init(g, v, start)) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  char why[256];
  for (int s = 0; s < 2; s++) {
    game_clock_start(&clk[s], &side[s]->config.tc, side[s]->config.tc_margin_ms);
    if (player_new_game(side[s], v, game_seed, why, sizeof why)) {
      forfeit(r, g, s, PLAYER_ERROR, why);
      goto done;
    }
  }
  while (g->end == BOARD_END_NONE) {
    if (stop && atomic_load(stop)) {
      r->plies = g->plies;
      r->seconds = clock_now() - t0;
      snprintf(r->detail, sizeof r->detail, "stopped after %d plies", g->plies);
      free(rec);
      return 1;
    }
    if (adjudicate_position(&watch, &g->pos, v, r)) goto done;
    int mover = g->pos.side, m;
    player_limits lim = {0};
    game_clock_limits(clk, mover, &lim);
    player_info info;
    double tm = clock_now();
    player_status st = player_choose(side[mover], g, lim.clock ? &lim : NULL, &m, &info, why, sizeof why);
    long long ms = llround((clock_now() - tm) * 1000.0);
    if (game_clock_spend(&clk[mover], ms)) {
      forfeit_time(r, g, mover, side[mover], ms, &clk[mover]);
      goto done;
    }
    if (st != PLAYER_OK) {
      forfeit(r, g, mover, st, why);
      goto done;
    }
    if (record_move(&rec, g->plies, &cap, ms, &info) || game_play(g, m) == -2) {
      error_set(err, errlen, "out of memory");
      game_free(g);
      free(rec);
      return -1;
    }
    if (g->end == BOARD_END_NONE && adjudicate_move(&watch, g->plies, mover, &info, &g->pos, r))
      goto done;
  }
  r->end = (outcome_end)g->end;
  r->winner = g->winner;
  r->score2[0] = g->score2[0];
  r->score2[1] = g->score2[1];
done:
  r->plies = g->plies;
  r->seconds = clock_now() - t0;
  if (records) *records = rec;
  else free(rec);
  return 0;
}

int match_games(player *const pl[2], const variant *v, long long games, uint64_t seed,
                const struct adjudicator *adj, const atomic_int *stop, match_game_fn fn,
                void *ctx, match_totals *t, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  for (long long k = 0; k < games; k++) {
    if (stop && atomic_load(stop)) return 1;
    int a = (int)(k % 2); /* index of the player who is South */
    game g;
    outcome r;
    int rc = match_play_recorded(pl[a], pl[1 - a], v, NULL, rng_mix(seed, (uint64_t)k), stop, adj,
                                 &g, &r, NULL, err, errlen);
    if (rc < 0) return -1;
    if (rc > 0) { /* stopped: the game is abandoned, not a result */
      game_free(&g);
      return 1;
    }
    int winner_idx = r.winner == GAME_DRAW ? -1 : r.winner == BOARD_SOUTH ? a : 1 - a;
    if (winner_idx < 0) t->draws++;
    else t->wins[winner_idx]++;
    t->games++;
    int halt = fn ? fn(ctx, k, a, &g, &r) : 0;
    game_free(&g);
    if (halt) return 1;
  }
  return 0;
}
