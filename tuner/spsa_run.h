/* spsa_run.h: an SPSA tuning run: its iterations of game pairs, each stored in the tuning table, resumed from the stored ones. */
#ifndef OWARE_SPSA_RUN_H
#define OWARE_SPSA_RUN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "core/variant.h"
#include "players/eval.h"
#include "tuner/tuning.h"

typedef struct tuner_spsa_config {
  const char *spec;        /* the minimax player whose weights are tuned */
  variant v;
  eval_weights start;      /* the weights of iteration 0 (tuner_weights_setup) */
  int tuned[EVAL_N];       /* which of them are tuned */
  int iterations;          /* N */
  int pairs;               /* game pairs an iteration */
  int threads;
  int opening_plies;       /* random plies of a pair's opening */
  uint64_t seed;           /* the perturbations, openings and game seeds */
  double c_end, r_end;     /* > 0: for every weight; else from each weight's range */
} tuner_spsa_config;

/* Runs the iterations of run_id (a run of db) that are not stored yet:
 * iteration k plays c->pairs game pairs of theta + c_k·D against
 * theta − c_k·D (pair numbers k·pairs …, so openings and seeds come from
 * the seed and k), updates theta, and stores its row (kind "spsa": the
 * weights after it, each weight's c_k, W/D/L of the plus side, W − L, the
 * run's games) before the next one starts. A run with stored iterations
 * continues from the last one, with the games it would have played
 * without a stop. *stop (may be NULL) is read between iterations: the
 * iteration in progress is finished and stored. obs->iteration is called
 * after each. *out: the weights after the last stored iteration, the
 * run's games, complete when all N are stored. 0, or -1 with err (a player
 * that cannot be made, the database). */
int tuner_spsa_run(const tuner_spsa_config *c, store *db, int64_t run_id,
                   const tuner_observer *obs, atomic_int *stop, tuner_result *out, char *err,
                   size_t errlen);

#endif
