/* mcts.h: the mcts player type, and how its specs stored before a default changed are written now. */
#ifndef OWARE_MCTS_H
#define OWARE_MCTS_H

#include "players/player.h"

extern const player_type player_mcts;

/* A spec stored when mcts's playouts= default (10000) also capped a spec's
 * own movetime= (runs of store schemas up to 9), as it must be written now
 * to play the same: an mcts spec with movetime= and without playouts= gets
 * playouts=10000 after its options; any other spec is unchanged. Returns 1
 * with *out (malloc'ed) the new spec, 0 (*out NULL) when unchanged, -1 when
 * out of memory. */
int mcts_spec_playouts_by_default(const char *spec, char **out);

#endif
