/* fight.h: choosing among the moves the tables decide when none wins: fight on when lost, leave the opponent ways to go wrong when drawn. */
#ifndef OWARE_FIGHT_H
#define OWARE_FIGHT_H

#include <stdint.h>

#include "core/game.h"
#include "players/tablebase.h"

/*
 * Where the tables (or the rules) decide every move and none wins, a search
 * has nothing to tell the moves apart: each scores its table result. An
 * opponent whose tables stop lower can still go wrong, so the choice is
 * made for it:
 *  - lost (every move loses): the moves after which the opponent has the
 *    fewest replies that keep its win (the others are its chances to go
 *    wrong);
 *  - drawn (the best moves draw): those moves, after which the opponent
 *    has the most replies that lose.
 * A move that ends the game (by the rules, or by repetition with the
 * game's positions since the last capture) counts by how it ends, and
 * among moves of its result it comes last: it leaves no way to go wrong. The
 * replies are judged by the tables alone (their repetitions are not
 * counted). Among the moves kept, the caller's search with the tables off
 * decides: the loss seen latest, or the position that looks best.
 */

/* The root moves to search at g's position: 0 when a move is not decided
 * (by the tables, open for g's variant, or by an end) or one wins; else the
 * mask (bit = house) of the moves chosen as above, never empty. *lost is
 * set to 1 when every move loses, 0 when the best draw. */
uint32_t fight_moves(const tablebase *tb, const game *g, int *lost);

#endif
