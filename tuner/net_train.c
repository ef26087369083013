/* net_train.c: mini-batch training of a network (Adam; the dense layers by GSL's CBLAS), its loss, its state file. */
#include "tuner/net_train.h"

#include <gsl/gsl_cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/outfile.h"
#include "core/rng.h"
#include "core/thread.h"

/* A step's batch is cut into this many parts, whatever the threads: each
 * part's gradient is summed in part order, so that the result is the same
 * on any number of threads. */
#define NET_PARTS 4
#define NET_STATE_MAGIC "oware-net-state 1\n"

/* What one part of a batch needs: its rows' activations and gradients. */
typedef struct net_part {
  double *a1, *a2, *y, *dy, *d1, *d2; /* rows × n1, rows × n2, rows, rows, rows × n1, rows × n2 */
  double *g;                          /* its gradient (nweights) */
} net_part;

struct tuner_net_trainer {
  tuner_net_train_config c;
  eval_net shape;       /* the sizes and offsets (its floats unused) */
  size_t nw;            /* weights */
  size_t o_w1, o_b1, o_w2, o_b2, o_w3, o_b3;
  double *p, *m, *v, *best; /* weights, Adam's moments, the best epoch's weights */
  double best_loss;
  int epoch, best_epoch, bad;
  long long step;
  net_part part[NET_PARTS];
  size_t *order;  /* the epoch's order of the training set */
  size_t norder;
  /* the step in progress, for the parts */
  const tuner_net_set *set;
  const size_t *rows;
  int nrows;
};

static double *dalloc(size_t n) { return calloc(n ? n : 1, sizeof(double)); }

static int alloc_parts(tuner_net_trainer *t) {
  const size_t rows = (size_t)(t->c.batch + NET_PARTS - 1) / NET_PARTS;
  const size_t n1 = (size_t)t->c.n1, n2 = (size_t)(t->c.n2 ? t->c.n2 : 1);
  for (int i = 0; i < NET_PARTS; i++) {
    net_part *q = &t->part[i];
    q->a1 = dalloc(rows * n1), q->a2 = dalloc(rows * n2), q->y = dalloc(rows);
    q->dy = dalloc(rows), q->d1 = dalloc(rows * n1), q->d2 = dalloc(rows * n2);
    q->g = dalloc(t->nw);
    if (!q->a1 || !q->a2 || !q->y || !q->dy || !q->d1 || !q->d2 || !q->g) return -1;
  }
  return 0;
}

/* Seeded first weights: uniform, He's scale for the fan-in (the first
 * layer's fan-in is its active inputs); biases 0. */
static void init_weights(tuner_net_trainer *t) {
  rng r;
  rng_seed(&r, rng_mix(t->c.seed, 0x696e6974ULL));
  const eval_net *s = &t->shape;
  const size_t n1 = (size_t)s->n1, n2 = (size_t)s->n2;
  struct { size_t off, len; double fan; } part[3] = {
      {t->o_w1, (size_t)s->nin * n1, 2.0 * s->houses + EVAL_NET_PLAIN},
      {t->o_w2, n1 * n2, (double)n1},
      {t->o_w3, n2 ? n2 : n1, (double)(n2 ? n2 : n1)}};
  for (int k = 0; k < 3; k++) {
    double a = sqrt(6.0 / part[k].fan) * (k == 2 ? 0.1 : 1);
    for (size_t i = 0; i < part[k].len; i++)
      t->p[part[k].off + i] = a * (2 * ((double)(rng_next(&r) >> 11) * 0x1.0p-53) - 1);
  }
  memcpy(t->best, t->p, t->nw * sizeof *t->p);
}

tuner_net_trainer *tuner_net_trainer_new(const tuner_net_train_config *c, char *err,
                                         size_t errlen) {
  if (c->batch < NET_PARTS || c->lr <= 0 || c->K <= 0 || c->patience < 1)
    return error_set(err, errlen, "network training: batch >= %d, lr > 0, K > 0 and patience >= 1 "
                     "are needed", NET_PARTS),
           NULL;
  tuner_net_trainer *t = calloc(1, sizeof *t);
  if (!t) return error_set(err, errlen, "out of memory"), NULL;
  t->c = *c;
  if (eval_net_alloc(&t->shape, c->houses, c->seeds, c->n1, c->n2, err, errlen)) {
    free(t);
    return NULL;
  }
  const eval_net *s = &t->shape;
  t->nw = s->nweights;
  t->o_w1 = (size_t)(s->w1 - s->mem), t->o_b1 = (size_t)(s->b1 - s->mem);
  t->o_w2 = (size_t)(s->w2 - s->mem), t->o_b2 = (size_t)(s->b2 - s->mem);
  t->o_w3 = (size_t)(s->w3 - s->mem), t->o_b3 = (size_t)(s->b3 - s->mem);
  t->p = dalloc(t->nw), t->m = dalloc(t->nw), t->v = dalloc(t->nw), t->best = dalloc(t->nw);
  if (!t->p || !t->m || !t->v || !t->best || alloc_parts(t)) {
    tuner_net_trainer_free(t);
    return error_set(err, errlen, "out of memory"), NULL;
  }
  t->best_loss = INFINITY;
  init_weights(t);
  return t;
}

void tuner_net_trainer_free(tuner_net_trainer *t) {
  if (!t) return;
  for (int i = 0; i < NET_PARTS; i++) {
    net_part *q = &t->part[i];
    free(q->a1), free(q->a2), free(q->y), free(q->dy), free(q->d1), free(q->d2), free(q->g);
  }
  free(t->p), free(t->m), free(t->v), free(t->best), free(t->order);
  eval_net_free(&t->shape);
  free(t);
}

/* The forward pass of n samples (set->s[rows[i]]) into q: a1 and a2 after
 * their ReLU, y the outputs. */
static void forward(const tuner_net_trainer *t, const double *p, const tuner_net_set *set,
                    const size_t *rows, int n, net_part *q) {
  const int n1 = t->c.n1, n2 = t->c.n2, onehot = t->shape.nin - EVAL_NET_PLAIN;
  const double *w1 = p + t->o_w1, *b1 = p + t->o_b1;
  for (int r = 0; r < n; r++) {
    const tuner_net_sample *x = &set->s[rows[r]];
    double *a = q->a1 + (size_t)r * (size_t)n1;
    memcpy(a, b1, (size_t)n1 * sizeof *a);
    for (int k = 0; k < x->nactive; k++) {
      const double *col = w1 + (size_t)x->active[k] * (size_t)n1;
      for (int j = 0; j < n1; j++) a[j] += col[j];
    }
    for (int k = 0; k < EVAL_NET_PLAIN; k++) {
      const double *col = w1 + (size_t)(onehot + k) * (size_t)n1;
      for (int j = 0; j < n1; j++) a[j] += x->plain[k] * col[j];
    }
    for (int j = 0; j < n1; j++) a[j] = a[j] > 0 ? a[j] : 0;
  }
  const double *last = q->a1;
  int nl = n1;
  if (n2) {
    const double *b2 = p + t->o_b2;
    for (int r = 0; r < n; r++) memcpy(q->a2 + (size_t)r * (size_t)n2, b2, (size_t)n2 * sizeof(double));
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n2, n1, 1.0, q->a1, n1, p + t->o_w2,
                n1, 1.0, q->a2, n2);
    for (size_t i = 0; i < (size_t)n * (size_t)n2; i++) q->a2[i] = q->a2[i] > 0 ? q->a2[i] : 0;
    last = q->a2, nl = n2;
  }
  for (int r = 0; r < n; r++) q->y[r] = p[t->o_b3];
  cblas_dgemv(CblasRowMajor, CblasNoTrans, n, nl, 1.0, last, nl, p + t->o_w3, 1, 1.0, q->y, 1);
}

static inline double predict(const tuner_net_trainer *t, double y, const tuner_net_sample *x) {
  return tuner_net_prob(100 * (y + x->store), t->c.K);
}

/* The gradient of part i of the step's batch into its g (the batch's mean loss). */
static int part_gradient(void *ctx, long long i, int worker) {
  (void)worker;
  tuner_net_trainer *t = ctx;
  net_part *q = &t->part[i];
  const int per = (t->nrows + NET_PARTS - 1) / NET_PARTS, r0 = (int)i * per;
  const int n = r0 >= t->nrows ? 0 : (t->nrows - r0 < per ? t->nrows - r0 : per);
  memset(q->g, 0, t->nw * sizeof *q->g);
  if (!n) return 0;
  const size_t *rows = t->rows + r0;
  forward(t, t->p, t->set, rows, n, q);
  const int n1 = t->c.n1, n2 = t->c.n2, nl = n2 ? n2 : n1, onehot = t->shape.nin - EVAL_NET_PLAIN;
  for (int r = 0; r < n; r++) {
    const tuner_net_sample *x = &t->set->s[rows[r]];
    double pr = predict(t, q->y[r], x);
    q->dy[r] = 2 * (pr - x->target) * pr * (1 - pr) * 100 / t->c.K / t->nrows;
  }
  double *g = q->g;
  const double *last = n2 ? q->a2 : q->a1;
  double *dlast = n2 ? q->d2 : q->d1;
  cblas_dgemv(CblasRowMajor, CblasTrans, n, nl, 1.0, last, nl, q->dy, 1, 0.0, g + t->o_w3, 1);
  for (int r = 0; r < n; r++) g[t->o_b3] += q->dy[r];
  /* d(last) = dy ⊗ w3, through the ReLU */
  memset(dlast, 0, (size_t)n * (size_t)nl * sizeof *dlast);
  cblas_dger(CblasRowMajor, n, nl, 1.0, q->dy, 1, t->p + t->o_w3, 1, dlast, nl);
  for (size_t k = 0; k < (size_t)n * (size_t)nl; k++) dlast[k] = last[k] > 0 ? dlast[k] : 0;
  if (n2) {
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, n2, n1, n, 1.0, q->d2, n2, q->a1, n1, 0.0,
                g + t->o_w2, n1);
    for (int r = 0; r < n; r++)
      for (int k = 0; k < n2; k++) g[t->o_b2 + (size_t)k] += q->d2[(size_t)r * (size_t)n2 + (size_t)k];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n1, n2, 1.0, q->d2, n2, t->p + t->o_w2,
                n1, 0.0, q->d1, n1);
    for (size_t k = 0; k < (size_t)n * (size_t)n1; k++) q->d1[k] = q->a1[k] > 0 ? q->d1[k] : 0;
  }
  for (int r = 0; r < n; r++) { /* the first layer: the columns of the active inputs */
    const tuner_net_sample *x = &t->set->s[rows[r]];
    const double *d = q->d1 + (size_t)r * (size_t)n1;
    for (int j = 0; j < n1; j++) g[t->o_b1 + (size_t)j] += d[j];
    for (int k = 0; k < x->nactive; k++) {
      double *col = g + t->o_w1 + (size_t)x->active[k] * (size_t)n1;
      for (int j = 0; j < n1; j++) col[j] += d[j];
    }
    for (int k = 0; k < EVAL_NET_PLAIN; k++) {
      double *col = g + t->o_w1 + (size_t)(onehot + k) * (size_t)n1;
      for (int j = 0; j < n1; j++) col[j] += x->plain[k] * d[j];
    }
  }
  return 0;
}

/* Adam on the parts' gradients, summed in part order. */
static void adam(tuner_net_trainer *t) {
  const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  t->step++;
  const double c1 = 1 - pow(b1, (double)t->step), c2 = 1 - pow(b2, (double)t->step);
  for (size_t i = 0; i < t->nw; i++) {
    double g = 0;
    for (int k = 0; k < NET_PARTS; k++) g += t->part[k].g[i];
    t->m[i] = b1 * t->m[i] + (1 - b1) * g;
    t->v[i] = b2 * t->v[i] + (1 - b2) * g * g;
    t->p[i] -= t->c.lr * (t->m[i] / c1) / (sqrt(t->v[i] / c2) + eps);
  }
}

/* The epoch's order: a shuffle drawn from the seed and the epoch. */
static int shuffle(tuner_net_trainer *t, size_t n) {
  if (t->norder != n) {
    free(t->order);
    if (!(t->order = malloc((n ? n : 1) * sizeof *t->order))) return t->norder = 0, -1;
    t->norder = n;
  }
  for (size_t i = 0; i < n; i++) t->order[i] = i;
  rng r;
  rng_seed(&r, rng_mix(t->c.seed, 0x65706f6368ULL + (uint64_t)t->epoch));
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)(rng_next(&r) % i), x = t->order[i - 1];
    t->order[i - 1] = t->order[j], t->order[j] = x;
  }
  return 0;
}

static double loss_of(const tuner_net_trainer *t, const double *p, const tuner_net_set *set) {
  size_t rows[256];
  net_part q = t->part[0];
  const int per = (t->c.batch + NET_PARTS - 1) / NET_PARTS;
  const int chunk = per < 256 ? per : 256;
  double sum = 0;
  for (size_t i = 0; i < set->n; i += (size_t)chunk) {
    int n = set->n - i < (size_t)chunk ? (int)(set->n - i) : chunk;
    for (int r = 0; r < n; r++) rows[r] = i + (size_t)r;
    forward(t, p, set, rows, n, &q);
    for (int r = 0; r < n; r++) {
      double d = predict(t, q.y[r], &set->s[rows[r]]) - set->s[rows[r]].target;
      sum += d * d;
    }
  }
  return set->n ? sum / (double)set->n : 0;
}

double tuner_net_trainer_loss(const tuner_net_trainer *t, const tuner_net_set *set) {
  return loss_of(t, t->p, set);
}

int tuner_net_trainer_epoch(tuner_net_trainer *t, const tuner_net_set *train,
                            const tuner_net_set *valid, double *train_loss, double *valid_loss) {
  if (shuffle(t, train->n)) return -1;
  t->set = train;
  for (size_t i = 0; i < train->n; i += (size_t)t->c.batch) {
    t->rows = t->order + i;
    t->nrows = train->n - i < (size_t)t->c.batch ? (int)(train->n - i) : t->c.batch;
    thread_parallel_for(NET_PARTS, t->c.threads, part_gradient, t);
    adam(t);
  }
  t->epoch++;
  *train_loss = loss_of(t, t->p, train);
  *valid_loss = loss_of(t, t->p, valid);
  if (*valid_loss < t->best_loss) {
    t->best_loss = *valid_loss, t->best_epoch = t->epoch, t->bad = 0;
    memcpy(t->best, t->p, t->nw * sizeof *t->p);
  } else {
    t->bad++;
  }
  return t->bad >= t->c.patience;
}

int tuner_net_trainer_epochs(const tuner_net_trainer *t) { return t->epoch; }

double tuner_net_trainer_best(const tuner_net_trainer *t, int *epoch) {
  *epoch = t->best_epoch;
  return t->best_loss;
}

int tuner_net_trainer_network(const tuner_net_trainer *t, eval_net *out, char *err, size_t errlen) {
  if (eval_net_alloc(out, t->c.houses, t->c.seeds, t->c.n1, t->c.n2, err, errlen)) return -1;
  const double *w = t->best_epoch ? t->best : t->p;
  for (size_t i = 0; i < t->nw; i++) out->mem[i] = (float)w[i];
  eval_net_ready(out);
  return 0;
}

/* ---- The state file ---- */

/* The header: the configuration a state belongs to, then where it stands. */
typedef struct net_state_head {
  int houses, seeds, n1, n2, batch, patience;
  double lr, K;
  uint64_t seed;
  int epoch, best_epoch, bad, pad;
  long long step;
  double best_loss;
} net_state_head;

static void head_of(const tuner_net_trainer *t, net_state_head *h) {
  memset(h, 0, sizeof *h);
  h->houses = t->c.houses, h->seeds = t->c.seeds, h->n1 = t->c.n1, h->n2 = t->c.n2;
  h->batch = t->c.batch, h->patience = t->c.patience, h->lr = t->c.lr, h->K = t->c.K;
  h->seed = t->c.seed;
  h->epoch = t->epoch, h->best_epoch = t->best_epoch, h->bad = t->bad, h->step = t->step;
  h->best_loss = t->best_loss;
}

int tuner_net_trainer_save(const tuner_net_trainer *t, const char *path, char *err, size_t errlen) {
  outfile o;
  if (outfile_open(&o, path, err, errlen)) return -1;
  net_state_head h;
  head_of(t, &h);
  fputs(NET_STATE_MAGIC, o.f);
  fwrite(&h, sizeof h, 1, o.f);
  const double *arr[4] = {t->p, t->m, t->v, t->best};
  for (int k = 0; k < 4; k++) fwrite(arr[k], sizeof(double), t->nw, o.f);
  return outfile_commit(&o, err, errlen);
}

int tuner_net_trainer_load(tuner_net_trainer *t, const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) return error_set(err, errlen, "cannot open the training state '%s'", path), -1;
  char magic[sizeof NET_STATE_MAGIC] = "";
  net_state_head h, want;
  head_of(t, &want);
  int ok = fread(magic, 1, strlen(NET_STATE_MAGIC), f) == strlen(NET_STATE_MAGIC) &&
           !strcmp(magic, NET_STATE_MAGIC) && fread(&h, sizeof h, 1, f) == 1;
  if (ok && (h.houses != want.houses || h.seeds != want.seeds || h.n1 != want.n1 ||
             h.n2 != want.n2 || h.batch != want.batch || h.patience != want.patience ||
             h.lr != want.lr || h.K != want.K || h.seed != want.seed)) {
    fclose(f);
    return error_set(err, errlen, "the training state '%s' is of another configuration", path), -1;
  }
  double *arr[4] = {t->p, t->m, t->v, t->best};
  for (int k = 0; k < 4 && ok; k++) ok = fread(arr[k], sizeof(double), t->nw, f) == t->nw;
  ok = ok && fgetc(f) == EOF;
  fclose(f);
  if (!ok) return error_set(err, errlen, "the training state '%s' is not one or is cut short", path), -1;
  t->epoch = h.epoch, t->best_epoch = h.best_epoch, t->bad = h.bad, t->step = h.step;
  t->best_loss = h.best_loss;
  return 0;
}
