/* elo_fit.h: Elo of a pool of players by Bradley–Terry maximum likelihood (GSL), with intervals and LOS (docs/STATISTICS.md). */
#ifndef OWARE_ELO_FIT_H
#define OWARE_ELO_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "stats/match_stats.h"

#define RATING_NAME_MAX 128

/* Virtual draws against the pool's average that hold a bounded player's
 * estimate finite (rating_options.prior = 0 means this). */
#define RATING_PRIOR_DRAWS 1.0

/* ------------------------------------------------------- a pool of players */

/* Aggregated results of a pool of players, by name. Matrices are n×n,
 * row-major, from the row player's side; the pool keeps both directions. */
typedef struct rating_pool {
  int n, cap;
  char (*name)[RATING_NAME_MAX];
  long long *wins;   /* wins[i*cap+j]: games i won against j */
  long long *draws;  /* draws[i*cap+j] = draws[j*cap+i] */
  long long *penta;  /* penta[(i*cap+j)*6+k]: pairs in which i scored k/2 points against j
                        (k 0..4); [..+5]: of the k = 2 pairs, those of a win and a loss */
} rating_pool;

void rating_pool_init(rating_pool *p);
void rating_pool_free(rating_pool *p);
/* Index of the player named name, added (with no games) when new; -1 when
 * out of memory. Names are cut at RATING_NAME_MAX - 1 bytes. */
int rating_pool_player(rating_pool *p, const char *name);
/* Adds games of i against j (from i's side), i != j. -1 on bad indices or
 * negative counts. */
int rating_pool_add(rating_pool *p, int i, int j, long long wins, long long draws, long long losses);
/* Adds game pairs: penta[k] pairs in which i scored k/2 points against j,
 * wl of the penta[2] being a win and a loss. */
int rating_pool_add_pairs(rating_pool *p, int i, int j, const long long penta[5], long long wl);
/* The counts between i and j from i's side, for rating_match_compute. */
void rating_pool_match(const rating_pool *p, int i, int j, rating_match *m);
/* The pool's groups connected by results both ways: i reaches j when i
 * won or drew a game against j, and two players share a group when each
 * reaches the other through such results (the strongly connected
 * components; Ordo calls a pool of one group "well connected"). Fills
 * group[i] (numbered 0.. in the order of their first player) and returns
 * the number of groups, or -1 when out of memory. */
int rating_pool_groups(const rating_pool *p, int *group);

/* ------------------------------------------------------------ the fit */

typedef struct rating_options {
  const char *anchor;  /* name of the player whose Elo is anchor_elo; NULL or "": the pool's
                          mean is anchor_elo */
  double anchor_elo;
  int bootstrap;       /* resamples for percentile intervals; 0: intervals from the covariance */
  uint64_t seed;       /* of the bootstrap's generator */
  double prior;        /* virtual draws for a bounded player; 0: RATING_PRIOR_DRAWS */
} rating_options;

typedef struct rating_player {
  char name[RATING_NAME_MAX];
  double elo;              /* the estimate, anchored */
  double se;               /* its standard error (covariance; 0 for the anchor) */
  double lo, hi;           /* 95% interval: elo ± 1.959964·se, or bootstrap percentiles */
  long long games, wins, draws, losses;
  double score, draw_ratio; /* points / games, draws / games (0 without games) */
  int bounded;             /* only wins, only losses, no games, or not connected to the main
                              part of the pool: the estimate is held finite by the prior */
  int rank;                /* 1 = highest Elo */
} rating_player;

typedef struct rating_result {
  int n;
  rating_player *player; /* in pool order */
  int *order;            /* player indices by rank, highest Elo first */
  double *cov;           /* n×n covariance of the anchored Elo estimates (Elo²) */
  double *los;           /* n×n: los[i*n+j] = P(i is stronger than j); 0.5 on the diagonal */
  long long games;       /* games in the fit */
  int iterations;        /* Newton steps of the main fit */
  int regularized;       /* some player is bounded (the prior was used) */
  int bootstrap;         /* resamples behind lo/hi; 0: from the covariance */
} rating_result;

/* Fits the pool (maximum likelihood Bradley–Terry on the 400 scale, draws
 * as half points) and fills out (free it with rating_result_free, also after
 * an error). An unknown anchor name is an error that names it. A pool of
 * one player, without games, or degenerate in any way still gives finite
 * numbers. Works on the aggregated counts only: milliseconds for 50
 * players. GSL's error handler is off while it runs (restored after): not
 * to be called at the same time as other GSL code in another thread. */
int rating_fit(const rating_pool *p, const rating_options *opt, rating_result *out, char *err,
               size_t errlen);
void rating_result_free(rating_result *r);

#endif
