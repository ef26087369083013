/* time_budget.h: a move's share of a game clock (tc=), for the players that search: the time it should take and the most it may take. */
#ifndef OWARE_TIME_BUDGET_H
#define OWARE_TIME_BUDGET_H

#include "core/game.h"
#include "players/player.h"

/* What a move may spend of its side's clock, in ms from the moment the
 * search starts. */
typedef struct time_budget {
  double soft_ms; /* the aim: a search stops at an iteration's end past it (scaled by difficulty) */
  double hard_ms; /* never past it: always inside the clock */
} time_budget;

/* A budget's hard limit as a search's whole ms: at least 1, at most
 * INT_MAX (a clock of years gives more than an int holds). */
int time_budget_hard_ms(const time_budget *b);

/* Whether lim hands a clock to the player (lim->clock, and no per-move
 * limit set beside it). A player whose spec sets a per-move limit of its
 * own (movetime=, depth=, ...) searches by that instead: the clock then
 * only judges its time (a per-move split under the same clock). */
int time_budget_applies(const player_limits *lim);

/* The budget of the move in g under the clock of lim: the time left
 * (less a reserve for the answer's way back) over the moves expected (the
 * moves to go of a repeating control plus one, else a guess from the
 * seeds still on the board: about 34 at the start, never fewer than 12),
 * plus three quarters of the increment; the hard limit at most 4 times
 * that and never more than half of what is left. */
time_budget time_budget_of(const player_limits *lim, const game *g);

/* The budget of a move in g for a player that spends its aim on every move
 * (mcts: unlike minimax, it has no iteration to stop at and its endings
 * are not solved in a few ms): the time left (less the reserve) over the
 * moves the game still lasts at its median (the moves to go of a repeating
 * control plus one, else 8 + 1.2 x the seeds on the board: 65 at the start,
 * 42 at 28 seeds, 10 at 2), plus the whole increment; the hard limit 2.5
 * times that (the most time_budget_scaled asks) and never more than half of
 * what is left. A game of median length spends its clock evenly, where
 * time_budget_of front-loads it for a player whose late moves cost little. */
time_budget time_budget_even_of(const player_limits *lim, const game *g);

/* The soft aim scaled by how hard the position looks: 1 when the best move
 * and its score held over the last iterations, up to 2.5 when the best move
 * changed (changes: in the last few iterations) or the score dropped
 * (drop: centiseeds lost since the previous iteration); never past hard. */
double time_budget_scaled(const time_budget *b, int changes, int drop);

#endif
