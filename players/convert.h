/* convert.h: turning a won endgame into a win: the move that forces the tables' lower bound soonest, so that play cannot go round in circles. */
#ifndef OWARE_CONVERT_H
#define OWARE_CONVERT_H

#include "core/board.h"
#include "egdb/egdb.h"

/*
 * The lower bound of the tables is a least fixed point: a mover whose
 * position is worth at least k (lower >= k) can force, in a finite number
 * of moves, a capture or an end that keeps k, whatever the opponent does.
 * A move merely of value k need not make progress (two moves of value k
 * can lead round a cycle, and the game then ends by repetition). This
 * search finds the rank: the fewest own moves in which the mover forces a
 * capture or an end of value k, the opponent's captures counting as
 * progress too (they cannot lower the mover's bound), by iterative
 * deepening over the moves that keep k, with a memory of the depths
 * already refuted. Moves along minimal ranks never repeat a position.
 */

/* When b (covered by db) is won by its lower bound with the stores
 * counted: 0 and *move, the move that forces that bound in the fewest own
 * moves without a line on which the game's positions since the last
 * capture (hist[nhist], b's last) would end it by v's repetition rule,
 * searching at most `budget` positions. -1 when b is not covered, not won
 * so, or no such move was found within the budget. */
int convert_move(const egdb *db, const variant *v, const board *b, const uint64_t *hist,
                 int nhist, long budget, int *move);

#endif
