/* validate.h: the validation of tuned weights: game pairs against the start weights, a fixed number or until an SPRT decides. */
#ifndef OWARE_VALIDATE_H
#define OWARE_VALIDATE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/match_stats.h"
#include "stats/sprt.h"
#include "store/store.h"
#include "core/variant.h"
#include "players/eval.h"
#include "tuner/tuning.h"

typedef struct tuner_validate_config {
  const char *spec;            /* the minimax player, both sides */
  variant v;
  const eval_weights *tuned;   /* the first player's weights */
  const eval_weights *start;   /* the second's */
  int pairs;                   /* game pairs, or the cap when sprt is set */
  const char *sprt;            /* NULL, or "elo0=0,elo1=10[,...]" (rating_sprt_parse): pairs
                                  until it decides */
  int threads;
  int opening_plies;
  uint64_t seed;               /* of the run: the validation's openings and seeds derive from it */
} tuner_validate_config;

typedef struct tuner_validation {
  rating_match m;              /* tuned against start */
  rating_match_stats st;
  int has_sprt;
  rating_sprt sprt;            /* when has_sprt */
  rating_sprt_result sr;       /* its state at the end */
} tuner_validation;

/* Plays the validation (with an SPRT, the test read after every pair, in
 * pair order, so that it stops at the same pair whatever the threads),
 * reports what it does through obs, and when db is not NULL stores its row in run_id's tuning table (iteration -1, kind
 * "validation": the tuned weights, W/D/L, the pentanomial Elo gain and its
 * 95% interval, games_so_far plus its games). *stop (may be NULL) ends it
 * early with the pairs finished. 0, or -1 with err. */
int tuner_validate(const tuner_validate_config *c, store *db, int64_t run_id,
                   long long games_so_far, const tuner_observer *obs, atomic_int *stop,
                   tuner_validation *out, char *err, size_t errlen);

#endif
