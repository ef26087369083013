/* net_loop_step.h: one step of a network generation (self-play, training, SPRT) as a run of its own in the loop's database: found again by its tag on a resume, or made, then played or trained to its end. */
#ifndef OWARE_NET_LOOP_STEP_H
#define OWARE_NET_LOOP_STEP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/match_stats.h"
#include "stats/sprt.h"
#include "store/store.h"
#include "tuner/net_loop.h"
#include "tuner/net_run.h"

/* Where a step belongs. */
typedef struct tuner_net_step {
  const tuner_net_loop_config *l;
  const tuner_net_config *c; /* the loop's training settings, its seed and threads */
  store *db;
  int64_t loop_id;
  int generation;            /* 1-based */
  atomic_int *stop;
  const tuner_observer *obs; /* the training's lines, each as TUNER_LOG (may be NULL) */
} tuner_net_step;

/* The run of step `what` ("self-play", "net", "sprt") of s's generation:
 * 1 with *id, 0 when there is none yet, -1 with err. */
int tuner_net_step_find(const tuner_net_step *s, const char *what, int64_t *id, char *err,
                        size_t errlen);

/* Self-play of best (minimax:eval=best): 0 done (*id its run), 1 stopped, -1 with err. */
int tuner_net_step_selfplay(const tuner_net_step *s, const char *best, int64_t *id, char *err,
                            size_t errlen);

/* The network trained on the games of runs ("ID,ID,...") into out: as
 * tuner_net_step_selfplay; *res as tuner_net_run's. */
int tuner_net_step_train(const tuner_net_step *s, const char *runs, const char *out, int64_t *id,
                         tuner_net_result *res, char *err, size_t errlen);

/* What the SPRT found, from the candidate's side. */
typedef struct tuner_net_sprt {
  rating_match m;
  rating_match_stats st;
  rating_sprt_result r;
  long long pairs;
} tuner_net_sprt;

/* The SPRT of cand against best, counted from the stored games: as
 * tuner_net_step_selfplay. */
int tuner_net_step_sprt(const tuner_net_step *s, const char *cand, const char *best, int64_t *id,
                        tuner_net_sprt *out, char *err, size_t errlen);

#endif
