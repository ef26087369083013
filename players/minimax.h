/* minimax.h: the minimax player type (its parameters are set through player_set_param). */
#ifndef OWARE_MINIMAX_H
#define OWARE_MINIMAX_H

#include "players/eval.h"
#include "players/player.h"

extern const player_type player_minimax;

#endif
