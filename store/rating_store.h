/* rating_store.h: a rating pool from the games of a store's runs, and fitted ratings as store rows. */
#ifndef OWARE_RATING_STORE_H
#define OWARE_RATING_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "stats/elo_fit.h"

/* Adds the games of the given runs (nruns 0: every run) to the pool, only
 * those of variant `variant` (canonical string) unless it is NULL, with
 * players matched by name across runs (store_pair_counts). New players are
 * added in the order of the runs' player lists (runs in the order given;
 * every run: oldest first), those without games left out: after loading
 * one run into an empty pool, index 0 is the run's first player (A, the one
 * an SPRT tests). An unknown run is an error ("store: no run N"). */
int rating_pool_load(rating_pool *p, store *db, const int64_t *runs, int nruns,
                     const char *variant, char *err, size_t errlen);
/* Fills rows[0 .. r->n-1] in rank order for store_ratings_insert. */
void rating_to_store(const rating_result *r, int64_t run_id, const char *scope, store_rating *rows);

#endif
