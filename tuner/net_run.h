/* net_run.h: `oware tune net` as the library runs it: its settings in one table, the run described for the store, the epochs each stored as a tuning row, the resume. */
#ifndef OWARE_NET_RUN_H
#define OWARE_NET_RUN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "store/settings.h"
#include "store/store.h"
#include "tuner/tuning.h"

/* What a network's training is given: its settings (tuner_net_settings:
 * the options of `oware tune net`, kept in run_config under the same
 * names) and the threads (the run's column). */
typedef struct tuner_net_config {
  const char *from_db, *runs, *variant, *egdb, *search, *out, *name;
  long long hidden1, hidden2, epochs, batch, patience, positions, seed;
  double lr, valid, egdb_weight, search_weight, scale;
  int quiet;
  long long threads;
} tuner_net_config;

extern const settings_key tuner_net_settings[];

/* Describes a new run (kind net) of c in run for store_run_create. 0, or
 * -1 with err (a bad variant, out of memory). */
int tuner_net_describe(const tuner_net_config *c, const char *command, store_run *run, char *err,
                       size_t errlen);

/* The configuration of a stored run of kind net (texts point into run). */
int tuner_net_load(const store_run *run, tuner_net_config *c, char *err, size_t errlen);

/* The network file of run_id: c->out, else results/net-RUN.net; the
 * training state beside it is the same path with ".state". */
void tuner_net_out(const tuner_net_config *c, int64_t run_id, char *buf, size_t len);

/* What a training ends with. */
typedef struct tuner_net_result {
  int epochs, best_epoch;  /* done; the one whose weights are written */
  double best_loss;        /* its validation loss */
  int complete;            /* early stopping or the last epoch reached (else stopped) */
  long long positions, valid_positions, games;
} tuner_net_result;

/* Trains (or goes on training) the network of run_id: the positions read
 * and labelled (tuner/net_data.h), the epochs after the stored ones, each
 * stored in the tuning table (kind "net", iteration = epoch − 1, weights
 * "train LOSS valid LOSS") after the training state is written; stops at
 * early stopping, at the last epoch or when *stop is set; writes the best
 * epoch's network to the out file (also when stopped). 0, or -1 with err. */
int tuner_net_run(const tuner_net_config *c, store *db, int64_t run_id, const tuner_observer *obs,
                  atomic_int *stop, tuner_net_result *res, char *err, size_t errlen);

#endif
