/* replay.h: a stored game played again from its opening under its run's variant, every index and move checked (a database is input). */
#ifndef OWARE_STORE_REPLAY_H
#define OWARE_STORE_REPLAY_H

#include <stddef.h>

#include "core/game.h"
#include "core/variant.h"
#include "store/store.h"

/* Replays game g of run r: its variant parsed into *v, the game from its
 * opening through every stored move into *gm (game_init'ed here; free it
 * with game_free). A player or variant index outside the run, an opening
 * or a variant that does not parse, a move that is not legal, or a result
 * the replay contradicts (a game the rules ended with another end, winner or
 * scores; an adjudicated or forfeited one the rules ended before) is an
 * error naming the game. 0, or -1 with err (nothing to free). */
int store_replay_game(const store_run *r, const store_game *g, variant *v, game *gm, char *err,
                      size_t errlen);

#endif
