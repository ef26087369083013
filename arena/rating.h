/* rating.h: Elo with confidence intervals (Bradley–Terry maximum likelihood, GSL), match statistics, SPRT (docs/STATISTICS.md). */
#ifndef OWARE_RATING_H
#define OWARE_RATING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena/store.h"

#define RATING_NAME_MAX 128

/* Virtual draws against the pool's average that hold a bounded player's
 * estimate finite (rating_options.prior = 0 means this). */
#define RATING_PRIOR_DRAWS 1.0

/* ------------------------------------------------------ two-player counts */

/* Results between a first and a second player, from the first one's side. */
typedef struct rating_match {
  long long wins, draws, losses; /* games */
  long long penta[5];            /* game pairs (same opening, colours swapped) by the first
                                    player's points in the pair: 0, ½, 1, 1½, 2 =
                                    LL, LD, WL+DD, WD, WW */
  long long pairs_wl;            /* of penta[2], the pairs of a win and a loss (the rest are
                                    two draws) */
} rating_match;

/* result: +1 the first player won, 0 draw, -1 lost. add_pair adds both games
 * of a pair to the W/D/L counts and the pair to the pentanomial counts. */
void rating_match_add_game(rating_match *m, int result);
void rating_match_add_pair(rating_match *m, int first_game, int second_game);

/* What fastchess prints for a match. Every value is finite; with no games
 * they are 0 (score 0.5, LOS 0.5). Elo errors are 95% half-widths. */
typedef struct rating_match_stats {
  long long games, pairs;
  double points, score, draw_ratio; /* points of the first player; score = points / games */
  double elo, elo_err;              /* trinomial (W/D/L), logistic Elo */
  double penta_elo, penta_err;      /* pentanomial (game pairs), logistic Elo; 0 when no pairs */
  double nelo, nelo_err;            /* normalized Elo: from the pairs when there are any, else
                                       from the games */
  double los;                       /* likelihood of superiority, 0..1 (from the pairs when
                                       there are any) */
  double wl_dd_ratio;               /* pairs_wl / (penta[2] - pairs_wl), 0 when no DD pair */
  double pairs_ratio;               /* (WD + WW) / (LL + LD), 0 when no pair was lost */
} rating_match_stats;

void rating_match_compute(const rating_match *m, rating_match_stats *s);

/* ------------------------------------------------------------------- SPRT */

typedef enum rating_model { RATING_MODEL_NORMALIZED, RATING_MODEL_LOGISTIC } rating_model;

/* A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1. */
typedef struct rating_sprt {
  double elo0, elo1;   /* in the model's units (logistic Elo or normalized Elo) */
  double alpha, beta;  /* error rates, in (0, 0.5) */
  rating_model model;
} rating_sprt;

typedef enum rating_decision {
  RATING_CONTINUE = 0,
  RATING_ACCEPT_H0 = 1, /* LLR <= lower bound */
  RATING_ACCEPT_H1 = 2  /* LLR >= upper bound */
} rating_decision;

typedef struct rating_sprt_result {
  double llr, lower, upper;
  rating_decision decision;
} rating_sprt_result;

/* elo0 0, elo1 5, alpha 0.05, beta 0.05, normalized. */
void rating_sprt_default(rating_sprt *s);
/* Parses "elo0=0,elo1=5[,alpha=0.05][,beta=0.05][,model=normalized|logistic]"
 * (keys in any order; missing ones keep rating_sprt_default's values) and
 * checks it (rating_sprt_check). -1 with a message naming the bad part. */
int rating_sprt_parse(const char *text, rating_sprt *s, char *err, size_t errlen);
/* elo0 < elo1, both finite; alpha and beta in (0, 0.5). */
int rating_sprt_check(const rating_sprt *s, char *err, size_t errlen);

/* fishtest's generalized log-likelihood ratio from the five pair counts
 * (LL, LD, WL+DD, WD, WW) or from W/D/L game counts (docs/STATISTICS.md);
 * finite for any counts, 0 with none. */
double rating_sprt_llr_penta(const rating_sprt *s, const long long penta[5]);
double rating_sprt_llr_wdl(const rating_sprt *s, long long wins, long long draws, long long losses);
double rating_sprt_lower(const rating_sprt *s); /* ln(β/(1−α)) */
double rating_sprt_upper(const rating_sprt *s); /* ln((1−β)/α) */
rating_decision rating_sprt_decide(const rating_sprt *s, double llr);
/* "continue", "H0 accepted", "H1 accepted". */
const char *rating_decision_name(rating_decision d);
/* All of it at once: LLR from m's pairs (or from its W/D/L when use_wdl is
 * set), the bounds and the decision. */
rating_sprt_result rating_sprt_test(const rating_sprt *s, const rating_match *m, int use_wdl);

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
/* Adds the games of the given runs (nruns 0: every run) to the pool, only
 * those of variant `variant` (canonical string) unless it is NULL, with
 * players matched by name across runs (store_pair_counts). New players are
 * added in the order of the runs' player lists (runs in the order given;
 * every run: oldest first), those without games left out: after loading
 * one run into an empty pool, index 0 is the run's first player (A, the one
 * an SPRT tests). An unknown run is an error ("store: no run N"). */
int rating_pool_load(rating_pool *p, store *db, const int64_t *runs, int nruns,
                     const char *variant, char *err, size_t errlen);

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

/* Prints the table: rank, name, Elo, − and + of the interval, games,
 * score %, draw %, and a '*' after the Elo of a bounded estimate. */
void rating_print_table(FILE *out, const rating_result *r);
/* Prints the likelihood-of-superiority matrix (percent), in rank order. */
void rating_print_los(FILE *out, const rating_result *r);
/* Fills rows[0 .. r->n-1] in rank order for store_ratings_insert. */
void rating_to_store(const rating_result *r, int64_t run_id, const char *scope, store_rating *rows);

/* All of it for one run (the end of a tournament): loads run_id's games,
 * fits them (pool mean 0, intervals from the covariance), prints the table
 * and the LOS matrix to out (with two players, also the match block of
 * rating_match_print, and the SPRT line when sprt is not NULL), and with
 * save set stores the ratings (scope "run N"). A run without games prints
 * a line that says so. Returns 0, or -1 with err. */
int rating_print_run(store *db, int64_t run_id, FILE *out, int save, const rating_sprt *sprt,
                     char *err, size_t errlen);

#endif
