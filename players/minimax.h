/* minimax.h: the minimax player type and what the tuner may change in it. */
#ifndef OWARE_MINIMAX_H
#define OWARE_MINIMAX_H

#include "players/eval.h"
#include "players/player.h"

extern const player_type player_minimax;

/* Replaces the evaluation weights of a minimax player. Returns -1 when p is
 * not a minimax player. */
int minimax_set_weights(player *p, const eval_weights *w);

#endif
