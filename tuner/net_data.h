/* net_data.h: the positions a network is trained on: from the games of databases, labelled by the game's result and the endgame tables. */
#ifndef OWARE_NET_DATA_H
#define OWARE_NET_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/variant.h"
#include "players/eval_net.h"

/* One position as the trainer reads it: the network's inputs (players/
 * eval_net.h), the mover's store minus the opponent's (the output's
 * offset), and the target: the probability of a win (a draw a half) that
 * the prediction sigmoid(100·(y + store)/K) should reach. */
typedef struct tuner_net_sample {
  uint16_t active[EVAL_NET_MAX_ACTIVE];
  uint8_t nactive;
  int8_t store;
  float plain[EVAL_NET_PLAIN];
  float target;
} tuner_net_sample;

typedef struct tuner_net_set {
  tuner_net_sample *s;
  size_t n, cap;
} tuner_net_set;

/* Adds b (its inputs and store difference) with target. 0, or -1 (memory). */
int tuner_net_set_add(tuner_net_set *set, const board *b, const variant *v, double target);
void tuner_net_set_free(tuner_net_set *set);

/* sigmoid(cs / K): a score in centiseeds as a probability of a win. */
double tuner_net_prob(double cs, double K);

/* How positions are read and labelled. */
typedef struct tuner_net_data_config {
  const char *from_db; /* databases, comma-separated */
  const char *runs;    /* "ID,ID,...": only these runs' games; NULL: every run's */
  variant v;           /* the games of this variant only */
  const char *egdb;    /* the tables: off, auto or a folder (players/tablebase.h) */
  const char *search;  /* a player's spec whose search scores label the positions, or NULL */
  double search_weight; /* the search score's share of the label (the result has the rest) */
  int threads;         /* threads for the searches (the labels do not depend on it) */
  double egdb_weight;  /* the tables' share of the label where they give an exact value */
  double K;            /* the sigmoid's scale in centiseeds */
  double valid_share;  /* games held out for validation (chosen by the seed) */
  long long positions; /* at most this many positions in the training set (the rest dropped by the seed) */
  uint64_t seed;
} tuner_net_data_config;

/* What was read. */
typedef struct tuner_net_data_counts {
  long long games, runs, positions, exact, bounded; /* exact / bounded: labelled by the tables */
  long long searched; /* labelled by a search */
} tuner_net_data_counts;

/* Every position before the end of every game of c->v in the databases,
 * labelled: the base is the game's result from the mover's side (1, 0.5,
 * 0), or with a search, (1 - s)·result + s·prob(score) with s =
 * search_weight and score the search's (each position searched alone, from
 * a new game seeded by its number, on c->threads workers: the same labels
 * on any number); where the tables give an exact final difference d (half
 * seeds), the label is (1 - w)·base + w·prob(50·d) with w = egdb_weight;
 * where they only bound it (a cycle-sensitive position), the base kept
 * within prob of the bounds (w > 0). A game goes whole to the validation
 * set or to the training set. 0, or -1 with err naming the database or
 * what failed. */
int tuner_net_collect(const tuner_net_data_config *c, tuner_net_set *train, tuner_net_set *valid,
                      tuner_net_data_counts *counts, char *err, size_t errlen);

#endif
