/* db_games.h: the finished games of one variant in a database, replayed from their openings, for the fits that learn from real games. */
#ifndef OWARE_DB_GAMES_H
#define OWARE_DB_GAMES_H

#include <stddef.h>

#include "store/store.h"
#include "core/board.h"
#include "core/variant.h"

/* One game: its start, its moves (house indices), its winner (BOARD_SOUTH,
 * BOARD_NORTH or GAME_DRAW) and its number among the games read. Returns
 * 0 to go on, or -1 when memory runs out. */
typedef int (*tuner_db_game_fn)(void *ctx, const board *start, const int *moves, int plies,
                                int winner, long long number);

/* Calls fn for every game of variant v in every run of the database at
 * path, in run and schedule order; forfeited games (their outcome says
 * nothing about their positions) and games of other variants are skipped.
 * *games and *runs: what was read. 0, or -1 with err naming the database
 * (cannot be opened, a stored opening or move that does not parse, out of
 * memory). */
int tuner_db_games(const char *path, const variant *v, tuner_db_game_fn fn, void *ctx,
                   long long *games, long long *runs, char *err, size_t errlen);

/* tuner_db_games over the runs listed in only ("ID,ID,...": a network
 * generation's self-play runs, tuner/net_loop.h); NULL or "": every run. A
 * list that does not parse, or names a run the database lacks, is an error
 * naming it. */
int tuner_db_games_of(const char *path, const char *only, const variant *v, tuner_db_game_fn fn,
                      void *ctx, long long *games, long long *runs, char *err, size_t errlen);

#endif
