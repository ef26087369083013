/* fight.h: choosing among the moves the tables decide when none wins: fight on when lost, leave the opponent ways to go wrong when drawn. */
#ifndef OWARE_FIGHT_H
#define OWARE_FIGHT_H

#include <stdint.h>

#include "core/game.h"
#include "players/tablebase.h"

/*
 * A position the tables decide as a loss or a draw (whatever the
 * repetition rule) gives a search nothing to tell its moves apart: every
 * move scores the same table result. An opponent whose tables stop lower
 * can still go wrong, so the choice is made for it:
 *  - lost: the moves after which the opponent has the fewest replies that
 *    keep its win (the others are its chances to go wrong);
 *  - drawn: the moves that keep the draw and after which the opponent has
 *    the most replies that lose.
 * A move that ends the game (by the rules, or by repetition with the
 * game's positions since the last capture) counts by how it ends. The
 * replies are judged by the tables alone (their repetitions are not
 * counted). Among the moves kept, the caller's search with the tables off
 * decides: the loss seen latest, or the position that looks best.
 */

/* The root moves to search at g's position: 0 when the tables (tb, open
 * for g's variant) do not decide it as a loss or a draw for the side to
 * move, or do not decide every move, or a move ends the game better by
 * repetition (the search sees that); else the mask (bit = house) of the
 * moves chosen as above, never empty. *lost is set to 1 for a lost
 * position, 0 for a drawn one. */
uint32_t fight_moves(const tablebase *tb, const game *g, int *lost);

#endif
