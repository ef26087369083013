/* net_loop.h: the loop of generations of a network (`oware tune net --generations G`): self-play of the best, the next network trained on every generation's games, an SPRT against the best, kept only when H1 is accepted; each step a stored run, resumed where it stood. */
#ifndef OWARE_NET_LOOP_H
#define OWARE_NET_LOOP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "store/settings.h"
#include "store/store.h"
#include "tuner/net_run.h"
#include "tuner/tuning.h"

/* The loop's own settings (tuner_net_loop_settings, kept in run_config
 * beside the training's, tuner_net_settings). */
typedef struct tuner_net_loop_config {
  long long generations; /* G > 0: a loop */
  long long games;       /* self-play games a generation */
  long long max_pairs;   /* the SPRT's cap: undecided after it, the candidate is not kept */
  long long plies;       /* random plies of each opening */
  double noise;          /* the self-play players' noise (minimax's noise=) */
  const char *player;    /* the base spec: eval=, name= (and noise= in self-play) are added */
  const char *start;     /* the first best network: net (built in) or a file */
  const char *sprt;      /* the SPRT of a candidate against the best */
} tuner_net_loop_config;

extern const settings_key tuner_net_loop_settings[];

/* Whether a stored run of kind net is a loop (has the setting generations). */
int tuner_net_loop_is(const store_run *run);

/* Describes a new loop for store_run_create: the training's settings (c;
 * c->from_db is the loop's own database, where its games are stored), the
 * loop's (l), its name and format. The start network and the SPRT are
 * checked. 0, or -1 with err naming what is wrong. */
int tuner_net_loop_describe(const tuner_net_loop_config *l, const tuner_net_config *c,
                            const char *command, store_run *run, char *err, size_t errlen);

/* The two configurations of a stored loop (texts point into run). */
int tuner_net_loop_load(const store_run *run, tuner_net_loop_config *l, tuner_net_config *c,
                        char *err, size_t errlen);

/* How a loop ended. */
typedef struct tuner_net_loop_result {
  int generations, kept; /* stored, and of them kept */
  int complete;          /* all G stored (else stopped) */
  double elo;            /* the kept candidates' Elo, summed */
  char best[1100];       /* the best network: "net" or a file */
  char out[1024];        /* where it was written (when complete) */
} tuner_net_loop_result;

/* Runs what is left of the loop run_id. Generation g: (1) a round robin of
 * the best against itself (l->games games, with noise) through the runner;
 * (2) a network trained (tuner_net_run, a run of kind net) on the
 * self-play games of generations 1..g, written to OUT-genG.net (OUT the
 * loop's --out without .net); (3) an SPRT of it against the best (a round
 * robin with --sprt, at most l->max_pairs pairs); (4) a tuning row (kind
 * "generation", iteration g − 1: the candidate's Elo and W/D/L, the runs,
 * kept or not), after which the candidate is the best if H1 was accepted.
 * Each step's run is tagged (setting net-loop = "LOOP/G/STEP") and found
 * again by a resume, which goes on with it; seeds come from c->seed and g.
 * After the last generation the best is written to the loop's --out. *stop
 * ends it between games or epochs (1 returned). 0, 1, or -1 with err. */
int tuner_net_loop_run(const tuner_net_loop_config *l, const tuner_net_config *c, store *db,
                       int64_t run_id, const tuner_observer *obs, atomic_int *stop,
                       tuner_net_loop_result *res, char *err, size_t errlen);

#endif
