/* mcts.h: the mcts player type, its aim on a clock, and how its specs stored before a default changed are written now. */
#ifndef OWARE_MCTS_H
#define OWARE_MCTS_H

#include "players/player.h"

extern const player_type player_mcts;

/* On a clock with budget=even, the aim of a move over its budget's: the early stop
 * (clock_enough) ends a typical move at about two thirds of its aim (at
 * 10+0.1 with the even budget, games ended with a median 5.7 s of some
 * 16.5 s unspent), so the aim is half as large again and the clock's time
 * is spent; never past the budget's hard limit. */
#define MCTS_AIM_STRETCH 1.5

/* A spec stored when mcts's playouts= default (10000) also capped a spec's
 * own movetime= (runs of store schemas up to 9), as it must be written now
 * to play the same: an mcts spec with movetime= and without playouts= gets
 * playouts=10000 after its options; any other spec is unchanged. Returns 1
 * with *out (malloc'ed) the new spec, 0 (*out NULL) when unchanged, -1 when
 * out of memory. */
int mcts_spec_playouts_by_default(const char *spec, char **out);

/* A spec stored when mcts's budget= default was front (runs of store
 * schemas up to 10), as it must be written now to play the same on a
 * clock: an mcts spec without budget= gets budget=front after its options;
 * any other spec is unchanged. Returns as mcts_spec_playouts_by_default. */
int mcts_spec_front_by_default(const char *spec, char **out);

#endif
