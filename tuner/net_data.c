/* net_data.c: the training positions of a network from databases, labelled by results and the endgame tables. */
#include "tuner/net_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "core/rng.h"
#include "players/tablebase.h"
#include "tuner/db_games.h"

int tuner_net_set_add(tuner_net_set *set, const board *b, const variant *v, double target) {
  if (set->n == set->cap) {
    size_t cap = set->cap ? 2 * set->cap : 4096;
    tuner_net_sample *s = realloc(set->s, cap * sizeof *s);
    if (!s) return -1;
    set->s = s, set->cap = cap;
  }
  eval_net_input in;
  eval_net_encode(b, v, &in);
  tuner_net_sample *x = &set->s[set->n++];
  memset(x, 0, sizeof *x);
  x->nactive = (uint8_t)in.nactive;
  for (int a = 0; a < in.nactive; a++) x->active[a] = (uint16_t)in.active[a];
  memcpy(x->plain, in.plain, sizeof x->plain);
  x->store = (int8_t)(b->store[b->side] - b->store[1 - b->side]);
  x->target = (float)target;
  return 0;
}

void tuner_net_set_free(tuner_net_set *set) {
  free(set->s);
  memset(set, 0, sizeof *set);
}

double tuner_net_prob(double cs, double K) { return 1 / (1 + exp(-cs / K)); }

typedef struct collector {
  const tuner_net_data_config *c;
  tablebase tb;
  tuner_net_set *train, *valid;
  tuner_net_data_counts *counts;
} collector;

/* The label of b, whose game ended with result (1, 0.5, 0 for the mover). */
static double label(collector *k, const board *b, double result) {
  const tuner_net_data_config *c = k->c;
  int lo2, hi2;
  if (c->egdb_weight <= 0 || !tablebase_bounds(&k->tb, b, &c->v, &lo2, &hi2)) return result;
  if (lo2 == hi2) {
    k->counts->exact++;
    return (1 - c->egdb_weight) * result + c->egdb_weight * tuner_net_prob(50.0 * lo2, c->K);
  }
  k->counts->bounded++;
  double lo = tuner_net_prob(50.0 * lo2, c->K), hi = tuner_net_prob(50.0 * hi2, c->K);
  return result < lo ? lo : result > hi ? hi : result;
}

static int add_game(void *ctx, const board *start, const int *moves, int plies, int winner,
                    long long number) {
  collector *k = ctx;
  const variant *v = &k->c->v;
  uint64_t h = rng_mix(k->c->seed ^ 0x76616c6964ULL, (uint64_t)number);
  tuner_net_set *set =
      (double)(h >> 11) * 0x1.0p-53 < k->c->valid_share ? k->valid : k->train;
  board b = *start;
  for (int i = 0; i <= plies; i++) {
    uint32_t legal;
    if (board_status(&b, v, &legal) != BOARD_END_NONE || !legal) break;
    double result = winner == GAME_DRAW ? 0.5 : winner == b.side ? 1 : 0;
    if (tuner_net_set_add(set, &b, v, label(k, &b, result))) return -1;
    k->counts->positions++;
    if (i == plies) break;
    board_play(&b, v, moves[i]);
  }
  return 0;
}

/* Keeps at most max samples of set, chosen by the seed. */
static void subsample(tuner_net_set *set, size_t max, uint64_t seed) {
  if (set->n <= max) return;
  rng r;
  rng_seed(&r, seed);
  for (size_t i = 0; i < max; i++) { /* the first max of a seeded shuffle */
    size_t j = i + (size_t)(rng_next(&r) % (set->n - i));
    tuner_net_sample t = set->s[i];
    set->s[i] = set->s[j], set->s[j] = t;
  }
  set->n = max;
}

int tuner_net_collect(const tuner_net_data_config *c, tuner_net_set *train, tuner_net_set *valid,
                      tuner_net_data_counts *counts, char *err, size_t errlen) {
  collector k = {c, {0}, train, valid, counts};
  memset(counts, 0, sizeof *counts);
  char e[1024];
  if (tablebase_init(&k.tb, c->egdb_weight > 0 ? c->egdb : "off", e, sizeof e) ||
      tablebase_new_game(&k.tb, &c->v, e, sizeof e)) {
    tablebase_free(&k.tb);
    return error_set(err, errlen, "--egdb %s: %s", c->egdb, e), -1;
  }
  int rc = 0;
  for (const char *p = c->from_db; *p && !rc;) {
    size_t l = strcspn(p, ",");
    char path[1024];
    snprintf(path, sizeof path, "%.*s", (int)(l < sizeof path - 1 ? l : sizeof path - 1), p);
    p += l + (p[l] == ',');
    long long games, runs;
    if (tuner_db_games(path, &c->v, add_game, &k, &games, &runs, e, sizeof e)) {
      error_set(err, errlen, "--from-db %s", e);
      rc = -1;
    }
    counts->games += games, counts->runs += runs;
  }
  tablebase_free(&k.tb);
  if (!rc && (!train->n || !valid->n)) {
    error_set(err, errlen, "--from-db %s: %lld positions in %lld games: too few for a training "
              "and a validation set", c->from_db, counts->positions, counts->games);
    rc = -1;
  }
  if (!rc) subsample(train, (size_t)c->positions, rng_mix(c->seed, 1));
  return rc;
}
