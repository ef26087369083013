/* player_types.c: the table of the built-in player types by name (web/player_types.c is the browser build's shorter one). */
#include "players/player.h"

extern const player_type player_random, player_greedy, player_minimax, player_mcts,
    player_engine, player_plugin, player_perfect;

const player_type *const player_types[] = {&player_random, &player_greedy, &player_minimax,
                                           &player_mcts,   &player_engine, &player_plugin,
                                           &player_perfect, NULL};
