/* time_budget.c: a move's share of a game clock, and its scaling by the position's difficulty. */
#include "players/time_budget.h"

#include <limits.h>

/* Of what is left, what each move keeps back for the answer's way out
 * (the pipe of an engine, the harness's own bookkeeping): at most this
 * many ms, and at most a tenth of the time left. */
#define TIME_BUDGET_RESERVE_MS 30.0

int time_budget_applies(const player_limits *lim) {
  return lim && lim->clock && !lim->depth && !lim->nodes && !lim->playouts && !lim->movetime_ms &&
         !lim->infinite;
}

static int seeds_on_board(const game *g) {
  int on_board = 0;
  for (int k = 0; k < g->v.pits; k++) on_board += g->pos.pit[k];
  return on_board;
}

/* The moves this side still expects to play in its period. */
static double moves_expected(const player_limits *lim, const game *g) {
  if (lim->movestogo > 0) return lim->movestogo + 1.0;
  double parts = 10 + seeds_on_board(g) / 2;
  return parts < 12 ? 12 : parts;
}

/* The time a move may count on: what is left less the reserve, at least 1. */
static double time_available(const player_limits *lim) {
  double left = (double)lim->time_ms;
  double reserve = left / 10 < TIME_BUDGET_RESERVE_MS ? left / 10 : TIME_BUDGET_RESERVE_MS;
  return left - reserve < 1 ? 1 : left - reserve;
}

/* The budget of an aim over the time available: hard at most `stretch`
 * times the aim and half of what is left, never under 1 ms. */
static time_budget budget_of(double soft, double avail, double stretch) {
  double hard = stretch * soft < avail / 2 ? stretch * soft : avail / 2;
  if (hard < 1) hard = 1;
  if (soft > hard) soft = hard;
  return (time_budget){soft, hard};
}

time_budget time_budget_of(const player_limits *lim, const game *g) {
  double avail = time_available(lim);
  return budget_of(avail / moves_expected(lim, g) + 0.75 * (double)lim->inc_ms, avail, 4);
}

time_budget time_budget_even_of(const player_limits *lim, const game *g) {
  double avail = time_available(lim);
  double moves = lim->movestogo > 0 ? lim->movestogo + 1.0 : 8 + 1.2 * seeds_on_board(g);
  return budget_of(avail / moves + (double)lim->inc_ms, avail, 2.5);
}

double time_budget_scaled(const time_budget *b, int changes, int drop) {
  double f = 1.0 + 0.5 * (changes < 2 ? changes : 2);
  if (drop > 50) f *= 1.5;
  else if (drop > 20) f *= 1.2;
  if (f > 2.5) f = 2.5;
  double t = b->soft_ms * f;
  return t < b->hard_ms ? t : b->hard_ms;
}

int time_budget_hard_ms(const time_budget *b) {
  return b->hard_ms < 1 ? 1 : b->hard_ms >= (double)INT_MAX ? INT_MAX : (int)b->hard_ms;
}
