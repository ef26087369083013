/* net_train.h: a network trained on labelled positions: mini-batches, Adam, the dense layers by BLAS, validation and early stopping, its state kept for a resume. */
#ifndef OWARE_NET_TRAIN_H
#define OWARE_NET_TRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "players/eval_net.h"
#include "tuner/net_data.h"

/* How a network is trained. */
typedef struct tuner_net_train_config {
  int houses, seeds;  /* the family (players/eval_net.h) */
  int n1, n2;         /* hidden layers (n2 = 0: one) */
  int batch;          /* positions a step */
  double lr;          /* Adam's step size */
  double K;           /* the sigmoid's scale in centiseeds (net_data.h) */
  int patience;       /* epochs without a better validation loss before stopping */
  uint64_t seed;      /* the first weights and each epoch's order */
  int threads;        /* threads for a step's parts (the result does not depend on it) */
} tuner_net_train_config;

typedef struct tuner_net_trainer tuner_net_trainer;

/* A trainer at epoch 0 with seeded first weights. NULL with err. */
tuner_net_trainer *tuner_net_trainer_new(const tuner_net_train_config *c, char *err,
                                         size_t errlen);
void tuner_net_trainer_free(tuner_net_trainer *t);

/* One epoch over train (in an order drawn from the seed and the epoch),
 * then the loss (mean squared error of the win probability) of the whole
 * train and valid sets. Returns 1 when the run is over (no better
 * validation loss for `patience` epochs), else 0. */
int tuner_net_trainer_epoch(tuner_net_trainer *t, const tuner_net_set *train,
                            const tuner_net_set *valid, double *train_loss, double *valid_loss);

/* Epochs done; the best validation loss and its epoch (1-based; 0: none). */
int tuner_net_trainer_epochs(const tuner_net_trainer *t);
double tuner_net_trainer_best(const tuner_net_trainer *t, int *epoch);

/* The loss of a set under the current weights. */
double tuner_net_trainer_loss(const tuner_net_trainer *t, const tuner_net_set *set);

/* The weights of the best epoch (the current ones before any epoch) as a
 * network (allocated into out). 0, or -1 with err. */
int tuner_net_trainer_network(const tuner_net_trainer *t, eval_net *out, char *err, size_t errlen);

/* The whole state (weights, Adam's moments, the best so far, the epoch)
 * written whole to path, and read back into a trainer of the same
 * configuration: training on gives the same network as without the stop.
 * 0, or -1 with err (a file of another configuration is refused). */
int tuner_net_trainer_save(const tuner_net_trainer *t, const char *path, char *err, size_t errlen);
int tuner_net_trainer_load(tuner_net_trainer *t, const char *path, char *err, size_t errlen);

#endif
