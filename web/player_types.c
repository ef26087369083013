/* player_types.c (web): the player types of the WebAssembly build, those that make sense in a browser: no engine (a process), plug-in (a shared object) or perfect (the endgame database). */
#include "players/player.h"

extern const player_type player_random, player_greedy, player_minimax, player_mcts;

const player_type *const player_types[] = {&player_random, &player_greedy, &player_minimax,
                                           &player_mcts, NULL};
