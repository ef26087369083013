/* rating_scale.h: the Elo scale of stored fits: the anchor a fit's scope records, and stored fits of a run refitted on another scale. */
#ifndef OWARE_RATING_SCALE_H
#define OWARE_RATING_SCALE_H

#include <stddef.h>

#include "store/store.h"
#include "stats/elo_fit.h"

/* A fit's Elo scale: player `anchor` at `elo`, or (anchor "") the pool's
 * mean at `elo`. */
typedef struct rating_scale {
  char anchor[RATING_NAME_MAX];
  double elo;
} rating_scale;

/* Appends the scale's clause to a fit's scope (what `oware rate --anchor
 * NAME=ELO` stores): "; anchor NAME = ELO", nothing for the mean. The
 * clause is the scope's last. */
void rating_scale_append(char *scope, size_t len, const rating_scale *s);
/* The scale a stored fit's scope records: its anchor clause, else the mean
 * at 0 (every fit stored without an anchor, and those stored before the
 * clause existed). */
void rating_scale_of_scope(const char *scope, rating_scale *s);
/* The length of scope without its anchor clause (what was rated). */
size_t rating_scale_scope_length(const char *scope);
/* Whether two scales are the same. */
int rating_scale_same(const rating_scale *a, const rating_scale *b);
/* "greedy = 0", or "the field's mean" (mean 0), or "the field's mean = 50". */
void rating_scale_describe(const rating_scale *s, char *buf, size_t len);

/* Puts every stored fit of run `run` in rows[0 .. *n-1] (whole fits, by
 * batch, as store_ratings_foreach reads them) on scale s: a fit whose
 * scope records another scale is fitted again on s from the same games
 * (the run's first games_total, of the scope's variant), players and
 * bootstrap; its elo, lo, hi and bound are replaced. A fit that cannot be
 * put on s (its anchor is not one of its players, or the run has fewer
 * games now) is left out: *n shrinks. *refitted (may be NULL) counts the
 * fits fitted again. 0, or -1 with err (store, memory). */
int rating_scale_apply(store *db, const store_run *run, const rating_scale *s,
                       store_rating *rows, int *n, int *refitted, char *err, size_t errlen);

#endif
