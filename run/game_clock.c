/* game_clock.c: the sides' clocks of a game with time controls. */
#include "run/game_clock.h"

void game_clock_start(game_clock *c, const time_control *tc, int margin_ms) {
  c->tc = *tc;
  c->margin_ms = margin_ms;
  c->left_ms = tc->base_ms;
  c->moves = 0;
}

int game_clock_on(const game_clock *c) { return time_control_on(&c->tc); }

int game_clock_to_go(const game_clock *c) {
  return c->tc.moves > 0 ? c->tc.moves - c->moves % c->tc.moves : 0;
}

int game_clock_spend(game_clock *c, long long ms) {
  if (!game_clock_on(c)) return 0;
  if (ms > c->left_ms + c->margin_ms) return 1;
  c->left_ms += c->tc.inc_ms - ms;
  c->moves++;
  if (c->tc.moves > 0 && c->moves % c->tc.moves == 0) c->left_ms += c->tc.base_ms;
  return 0;
}

void game_clock_limits(const game_clock clk[2], int mover, player_limits *lim) {
  const game_clock *own = &clk[mover], *opp = &clk[1 - mover];
  if (!game_clock_on(own)) return;
  lim->clock = 1;
  lim->time_ms = own->left_ms;
  lim->inc_ms = own->tc.inc_ms;
  lim->movestogo = game_clock_to_go(own);
  lim->opp_time_ms = game_clock_on(opp) ? opp->left_ms : own->left_ms;
  lim->opp_inc_ms = game_clock_on(opp) ? opp->tc.inc_ms : own->tc.inc_ms;
}
