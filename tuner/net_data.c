/* net_data.c: the training positions of a network from databases, labelled by results and the endgame tables. */
#include "tuner/net_data.h"

#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "core/rng.h"
#include "players/tablebase.h"
#include "tuner/db_games.h"
#include "tuner/net_search.h"

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

/* A position as read, before its label. */
typedef struct net_raw {
  board b;
  float result;   /* 1, 0.5, 0 for the mover */
  float score;    /* the search's, centiseeds (with a search) */
  int8_t tables;  /* 0: not covered, 1: exact, 2: bounded */
  int8_t valid;   /* in the validation set */
  int16_t lo2, hi2; /* the tables' final difference, half seeds */
} net_raw;

typedef struct collector {
  const tuner_net_data_config *c;
  tablebase tb;
  net_raw *r;
  size_t n, cap;
} collector;

static int add_game(void *ctx, const board *start, const int *moves, int plies, int winner,
                    long long number) {
  collector *k = ctx;
  const variant *v = &k->c->v;
  uint64_t h = rng_mix(k->c->seed ^ 0x76616c6964ULL, (uint64_t)number);
  const int8_t valid = (double)(h >> 11) * 0x1.0p-53 < k->c->valid_share;
  board b = *start;
  for (int i = 0; i <= plies; i++) {
    uint32_t legal;
    if (board_status(&b, v, &legal) != BOARD_END_NONE || !legal) break;
    if (k->n == k->cap) {
      size_t cap = k->cap ? 2 * k->cap : 4096;
      net_raw *r = realloc(k->r, cap * sizeof *r);
      if (!r) return -1;
      k->r = r, k->cap = cap;
    }
    net_raw *x = &k->r[k->n++];
    memset(x, 0, sizeof *x);
    x->b = b, x->valid = valid;
    x->result = winner == GAME_DRAW ? 0.5f : winner == b.side ? 1.0f : 0.0f;
    int lo2, hi2;
    if (k->c->egdb_weight > 0 && tablebase_bounds(&k->tb, &b, v, &lo2, &hi2))
      x->tables = lo2 == hi2 ? 1 : 2, x->lo2 = (int16_t)lo2, x->hi2 = (int16_t)hi2;
    if (i == plies) break;
    board_play(&b, v, moves[i]);
  }
  return 0;
}

/* ---- Search scores ---- */

/* Every position's search score (tuner/net_search.h: through the runner). */
static int search_all(const tuner_net_data_config *c, net_raw *r, size_t n, char *err,
                      size_t errlen) {
  board *b = malloc(n * sizeof *b);
  float *score = malloc(n * sizeof *score);
  int rc = b && score ? 0 : (error_set(err, errlen, "out of memory"), -1);
  for (size_t i = 0; i < n && !rc; i++) b[i] = r[i].b;
  if (!rc) rc = tuner_net_search(c->search, &c->v, c->seed, b, n, c->threads, score, err, errlen);
  for (size_t i = 0; i < n && !rc; i++) r[i].score = score[i];
  free(b);
  free(score);
  return rc;
}

/* ---- Labels ---- */

static double label(const tuner_net_data_config *c, const net_raw *x) {
  double base = x->result;
  if (c->search)
    base = (1 - c->search_weight) * base + c->search_weight * tuner_net_prob(x->score, c->K);
  if (x->tables == 1)
    return (1 - c->egdb_weight) * base + c->egdb_weight * tuner_net_prob(50.0 * x->lo2, c->K);
  if (x->tables == 2) {
    double lo = tuner_net_prob(50.0 * x->lo2, c->K), hi = tuner_net_prob(50.0 * x->hi2, c->K);
    return base < lo ? lo : base > hi ? hi : base;
  }
  return base;
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

/* The games of every database into k (the tables open). */
static int read_games(const tuner_net_data_config *c, collector *k, tuner_net_data_counts *counts,
                      char *err, size_t errlen) {
  char e[ERROR_MAX];
  for (const char *p = c->from_db; *p;) {
    size_t l = strcspn(p, ",");
    char path[PATH_MAX];
    if (l >= sizeof path)
      return error_set(err, errlen, "--from-db: a path is %zu bytes, longer than the %zu that fit", l,
                       sizeof path - 1),
             -1;
    memcpy(path, p, l);
    path[l] = '\0';
    p += l + (p[l] == ',');
    long long games, runs;
    if (tuner_db_games_of(path, c->runs, &c->v, add_game, k, &games, &runs, e, sizeof e))
      return error_set(err, errlen, "--from-db %s", e), -1;
    counts->games += games, counts->runs += runs;
  }
  return 0;
}

int tuner_net_collect(const tuner_net_data_config *c, tuner_net_set *train, tuner_net_set *valid,
                      tuner_net_data_counts *counts, char *err, size_t errlen) {
  collector k = {c, {0}, NULL, 0, 0};
  memset(counts, 0, sizeof *counts);
  char e[ERROR_MAX];
  if (tablebase_init(&k.tb, c->egdb_weight > 0 ? c->egdb : "off", e, sizeof e) ||
      tablebase_new_game(&k.tb, &c->v, e, sizeof e)) {
    tablebase_free(&k.tb);
    return error_set(err, errlen, "--egdb %s: %s", c->egdb, e), -1;
  }
  int rc = read_games(c, &k, counts, err, errlen);
  tablebase_free(&k.tb);
  if (!rc && c->search && k.n) rc = search_all(c, k.r, k.n, err, errlen);
  for (size_t i = 0; i < k.n && !rc; i++) {
    const net_raw *x = &k.r[i];
    counts->positions++;
    counts->exact += x->tables == 1, counts->bounded += x->tables == 2;
    counts->searched += c->search != NULL;
    if (tuner_net_set_add(x->valid ? valid : train, &x->b, &c->v, label(c, x))) {
      error_set(err, errlen, "out of memory");
      rc = -1;
    }
  }
  free(k.r);
  if (!rc && (!train->n || !valid->n)) {
    error_set(err, errlen, "--from-db %s: %lld positions in %lld games: too few for a training "
              "and a validation set", c->from_db, counts->positions, counts->games);
    rc = -1;
  }
  if (!rc) subsample(train, (size_t)c->positions, rng_mix(c->seed, 1));
  return rc;
}
