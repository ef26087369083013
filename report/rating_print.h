/* rating_print.h: ratings and match statistics as text (tables, LOS matrix, fastchess's match block), and a run's ratings at its end. */
#ifndef OWARE_RATING_PRINT_H
#define OWARE_RATING_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store/store.h"
#include "stats/elo_fit.h"
#include "stats/match_stats.h"
#include "stats/proportion.h"
#include "stats/sprt.h"

/* Prints the match block as fastchess does (Elo, nElo, LOS, draw ratio,
 * games, points, Ptnml(0-2)), and the SPRT line when sprt is not NULL:
 *   Results of A vs B:
 *   Elo: 12.34 +/- 5.67, nElo: 15.00 +/- 6.89
 *   LOS: 99.99 %, DrawRatio: 45.00 %, PairsRatio: 1.23
 *   Games: 1000, Wins: 300, Losses: 250, Draws: 450, Points: 525.0 (52.50 %)
 *   Ptnml(0-2): [10, 100, 200, 150, 40], WL/DD Ratio: 1.50
 *   LLR: 2.95 (-2.94, 2.94) [0.00, 5.00]  (normalized Elo) H1 accepted  */
void rating_match_print(FILE *out, const char *first, const char *second, const rating_match *m,
                        const rating_sprt *sprt);

/* x, or 0 when it rounds to zero at that many decimals: what an Elo is
 * printed from, so that a rating of -0.004 shows 0.0, never -0.0. */
double rating_print_zero(double x, int decimals);

/* Prints the table: rank, name, Elo, − and + of the interval, games,
 * score %, draw %, and a '*' after the Elo of a bounded estimate. */
void rating_print_table(FILE *out, const rating_result *r);
/* Prints the likelihood-of-superiority matrix (percent), in rank order. */
void rating_print_los(FILE *out, const rating_result *r);

/* All of it for one run (the end of a tournament): loads run_id's games,
 * fits them (pool mean 0, intervals from the covariance), prints the table
 * and the LOS matrix to out (with two players, also the match block of
 * rating_match_print, and the SPRT line when sprt is not NULL), and with
 * save set stores the ratings (scope "run N"). A run without games prints
 * a line that says so. Returns 0, or -1 with err. */
int rating_print_run(store *db, int64_t run_id, FILE *out, int save, const rating_sprt *sprt,
                     char *err, size_t errlen);

/* One row of store_end_scores as the tables show it: its games, the
 * score (W + D/2 out of games) with its 95% Wilson interval, and the same
 * for the games that ended on the player's own move (value NaN without
 * games). */
typedef struct rating_end_numbers {
  long long games, own;
  proportion_interval score, own_score;
} rating_end_numbers;
void rating_end_numbers_of(const store_end_score *x, rating_end_numbers *out);
/* The row of player name and end e among rows[0..n-1], or NULL. */
const store_end_score *rating_end_find(const store_end_score *rows, int n, const char *name,
                                       int e);

/* Prints each player's score by how its games ended (rows as
 * store_end_scores gives them, n of them; nothing when n is 0), players in
 * rank order and ends in the order of outcome_end: games, wins, draws,
 * losses, score with its 95% Wilson interval, and of those games the ones
 * that ended on the player's own move with its score there. */
void rating_print_ends(FILE *out, const rating_result *r, const store_end_score *rows, int n);

/* A blank line, then rating_print_run with the ratings stored: the block
 * that ends a tournament or a study. */
int rating_print_section(store *db, int64_t run_id, FILE *out, char *err, size_t errlen);

/* When the pool is not one group connected by results both ways
 * (rating_pool_groups), a line naming its groups: the players whose
 * estimates the fit can only bound, and a pool Ordo refuses. Nothing for
 * one group. */
void rating_print_groups(FILE *out, const rating_pool *p);

#endif
