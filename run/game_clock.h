/* game_clock.h: the two sides' clocks of a game with time controls (tc=): time left, increments, periods, the flag past the margin. */
#ifndef OWARE_GAME_CLOCK_H
#define OWARE_GAME_CLOCK_H

#include "core/time_control.h"
#include "players/player.h"

/* One side's clock. */
typedef struct game_clock {
  time_control tc; /* no clock when its base is 0 */
  int margin_ms;   /* how far past its time a move may come */
  long long left_ms; /* time left: below 0 after a move within the margin */
  int moves;       /* moves this side has played */
} game_clock;

/* Starts a side's clock under tc (which may set no clock) with its margin. */
void game_clock_start(game_clock *c, const time_control *tc, int margin_ms);

/* Whether c runs (its time control sets a clock). */
int game_clock_on(const game_clock *c);

/* The moves of c's side until its next period (moves/base controls), 0
 * when its period is the rest of the game. */
int game_clock_to_go(const game_clock *c);

/* Charges a move of ms to c. Returns 0, or 1 when the move came past the
 * time left plus the margin (the flag fell: that side loses on time; the
 * clock is then left as it was). Otherwise the move is taken off, the
 * increment added, and at the end of a period its base added again. */
int game_clock_spend(game_clock *c, long long ms);

/* Fills the clock fields of lim (clock, time_ms, opp_time_ms, inc_ms,
 * opp_inc_ms, movestogo) for the move of side `mover` from both sides'
 * clocks; lim->clock stays 0 when the mover's clock does not run. */
void game_clock_limits(const game_clock clk[2], int mover, player_limits *lim);

#endif
