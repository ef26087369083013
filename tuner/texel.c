/* texel.c: position collection from games, the sigmoid scale K, and the weight fit (GSL minimisers). */
#include "tuner/texel.h"
#include "core/array.h"
#include "core/error.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <gsl/gsl_multimin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/runner.h"
#include "core/game.h"
#include "core/rng.h"
#include "players/eval.h"
#include "players/player.h"

void texel_free(texel_set *set) {
  free(set->s);
  set->s = NULL;
  set->n = set->cap = 0;
}

static int push(texel_set *set, const board *b, const variant *v, float y) {
  if (array_reserve(&set->s, sizeof *set->s, set->n, &set->cap, 4096)) return -1;
  int f[EVAL_N];
  eval_compute(b, v, f);
  texel_sample *s = &set->s[set->n++];
  for (int i = 0; i < EVAL_N; i++) s->f[i] = (int16_t)f[i];
  s->y = y;
  return 0;
}

int texel_add_game(texel_set *set, const variant *v, const board *start, const int *moves,
                   int plies, int winner, int skip, double keep, uint64_t seed) {
  rng r;
  rng_seed(&r, seed);
  board b = *start;
  int added = 0;
  for (int i = 0; i <= plies; i++) {
    uint32_t legal;
    if (i >= skip && board_status(&b, v, &legal) == BOARD_END_NONE &&
        eval_best_capture(&b, v, b.side) == 0 && rng_double(&r) < keep) {
      float y = winner == GAME_DRAW ? 0.5f : winner == b.side ? 1.0f : 0.0f;
      if (push(set, &b, v, y)) return -1;
      added++;
    }
    if (i < plies) board_play(&b, v, moves[i]);
  }
  return added;
}

/* ---- Self-play, played by the runner ---- */

typedef struct selfplay {
  const char *spec;
  const eval_weights *w;
  const variant *v;
  int opening_plies;
  double keep;
  uint64_t seed;
  texel_set *set;
  int *moves; /* a game's moves as ints, for texel_add_game */
  int moves_cap;
  void (*progress)(void *ctx, long long done, long long total);
  void *progress_ctx;
  long long games;
} selfplay;

static const char *sp_spec(void *ctx, int slot) {
  (void)slot;
  return ((selfplay *)ctx)->spec;
}

static int sp_prepare(void *ctx, int slot, player *p, char *err, size_t errlen) {
  (void)slot;
  selfplay *sp = ctx;
  player_param wp[EVAL_N];
  if (!sp->w) return 0;
  eval_params(sp->w, wp);
  char perr[ERROR_MAX];
  if (player_set_params(p, wp, EVAL_N, perr, sizeof perr)) {
    error_set(err, errlen, "texel: %s (the weights need a player with an evaluation, e.g. minimax)",
             perr);
    return -1;
  }
  return 0;
}

/* Job k is self-play game k: a random opening (diversity for the fit) and
 * the game seed, both from the seed and k. */
static int sp_next(void *ctx, long long k, int i, const runner_outcome *prev, runner_game *g) {
  (void)prev;
  selfplay *sp = ctx;
  if (i > 0) return 0;
  uint64_t gs = rng_mix(sp->seed, (uint64_t)k);
  board_random_opening(&g->start, sp->v, sp->opening_plies, gs);
  g->game_no = 0;
  g->south = g->north = 0;
  g->variant_idx = 0;
  g->v = sp->v;
  g->seed = gs;
  return 1;
}

/* Positions in game order: the same set whatever the thread count. */
static int sp_game(void *ctx, const runner_result *r, char *err, size_t errlen) {
  selfplay *sp = ctx;
  if (r->plies > sp->moves_cap) {
    int *nm = realloc(sp->moves, (size_t)r->plies * sizeof *nm);
    if (!nm) {
      error_set(err, errlen, "out of memory");
      return -1;
    }
    sp->moves = nm;
    sp->moves_cap = r->plies;
  }
  for (int i = 0; i < r->plies; i++) sp->moves[i] = r->moves[i];
  if (texel_add_game(sp->set, sp->v, &r->game.start, sp->moves, r->plies, r->mr.winner, 0,
                     sp->keep, rng_mix(sp->seed ^ 0x7465786c, (uint64_t)r->job)) < 0) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  return 0;
}

static int sp_pack(void *ctx, pack_buf *out, char *err, size_t errlen);

static void sp_progress(void *ctx, const runner_progress *p) {
  const selfplay *sp = ctx;
  sp->progress(sp->progress_ctx, p->games, sp->games);
}

int texel_selfplay(texel_set *set, const char *spec, const eval_weights *w, const variant *v,
                   int games, int threads, int opening_plies, double keep, uint64_t seed,
                   void (*progress)(void *ctx, long long done, long long total),
                   void *progress_ctx, char *err, size_t errlen) {
  selfplay sp = {spec, w,    v,        opening_plies, keep,         seed,
                 set,  NULL, 0,        progress,      progress_ctx, games};
  runner_schedule s = {games > 0 ? games : 0, 1, &sp, sp_spec, sp_prepare, sp_next,
                       texel_schedule_kind.name, sp_pack};
  runner_sink k = {&sp, sp_game, NULL, progress ? sp_progress : NULL};
  runner_config c = {threads < 1 ? 1 : threads, 0, NULL, NULL};
  int rc = runner_run(&s, &k, &c, NULL, err, errlen);
  free(sp.moves);
  return rc ? -1 : 0;
}

/* ---- The fit ---- */

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

double texel_mse(const texel_set *set, const double *w, double K) {
  double sum = 0;
  for (size_t k = 0; k < set->n; k++) {
    const texel_sample *s = &set->s[k];
    double e = 0;
    for (int i = 0; i < EVAL_N; i++) e += w[i] * s->f[i];
    double d = s->y - sigmoid(K * e);
    sum += d * d;
  }
  return set->n ? sum / (double)set->n : 0;
}

typedef struct kctx {
  const texel_set *set;
  const double *w;
} kctx;

static double k_err(double logk, void *p) {
  kctx *c = p;
  return texel_mse(c->set, c->w, exp(logk));
}

int texel_fit_k(const texel_set *set, const double *w, double *K, char *err, size_t errlen) {
  if (!set->n) {
    error_set(err, errlen, "texel: no positions");
    return -1;
  }
  /* K is searched on a log scale between 1e-6 and 1 (per centiseed). */
  kctx c = {set, w};
  gsl_function F = {k_err, &c};
  double lo = log(1e-6), hi = log(1.0), best = lo, bestv = k_err(lo, &c);
  for (double x = lo; x <= hi; x += 0.25) { /* a bracket for Brent */
    double fx = k_err(x, &c);
    if (fx < bestv) bestv = fx, best = x;
  }
  if (best <= lo + 1e-9 || best >= hi - 0.25) {
    *K = exp(best);
    return 0; /* at the edge of the range: no interior minimum to refine */
  }
  gsl_set_error_handler_off();
  gsl_min_fminimizer *m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
  if (!m) {
    error_set(err, errlen, "texel: out of memory");
    return -1;
  }
  if (gsl_min_fminimizer_set(m, &F, best, best - 0.25, best + 0.25) != GSL_SUCCESS) {
    gsl_min_fminimizer_free(m);
    *K = exp(best);
    return 0;
  }
  for (int it = 0; it < 100; it++) {
    if (gsl_min_fminimizer_iterate(m) != GSL_SUCCESS) break;
    double a = gsl_min_fminimizer_x_lower(m), b = gsl_min_fminimizer_x_upper(m);
    if (gsl_min_test_interval(a, b, 1e-6, 0) == GSL_SUCCESS) break;
  }
  *K = exp(gsl_min_fminimizer_x_minimum(m));
  gsl_min_fminimizer_free(m);
  return 0;
}

typedef struct wctx {
  const texel_set *set;
  double K;
  double *w; /* full vector; the tuned entries come from x */
  const int *idx;
  int n;
} wctx;

static void unpack(wctx *c, const gsl_vector *x) {
  for (int j = 0; j < c->n; j++) c->w[c->idx[j]] = gsl_vector_get(x, (size_t)j);
}

/* Error and its exact gradient: the evaluation is linear in the weights. */
static void w_fdf(const gsl_vector *x, void *p, double *f, gsl_vector *g) {
  wctx *c = p;
  unpack(c, x);
  double sum = 0, grad[EVAL_N] = {0};
  for (size_t k = 0; k < c->set->n; k++) {
    const texel_sample *s = &c->set->s[k];
    double e = 0;
    for (int i = 0; i < EVAL_N; i++) e += c->w[i] * s->f[i];
    double sg = sigmoid(c->K * e), d = s->y - sg;
    sum += d * d;
    double common = -2 * d * sg * (1 - sg) * c->K;
    for (int j = 0; j < c->n; j++) grad[j] += common * s->f[c->idx[j]];
  }
  double n = (double)c->set->n;
  if (f) *f = sum / n;
  if (g)
    for (int j = 0; j < c->n; j++) gsl_vector_set(g, (size_t)j, grad[j] / n);
}

static double w_f(const gsl_vector *x, void *p) {
  double f;
  w_fdf(x, p, &f, NULL);
  return f;
}

static void w_df(const gsl_vector *x, void *p, gsl_vector *g) { w_fdf(x, p, NULL, g); }

int texel_fit(const texel_set *set, double K, double *w, const int *tune, int max_iter,
              texel_step_fn step, void *ctx, double *mse_out, char *err, size_t errlen) {
  int idx[EVAL_N], n = 0;
  for (int i = 0; i < EVAL_N; i++)
    if (tune[i]) idx[n++] = i;
  if (!n || !set->n) {
    error_set(err, errlen, "texel: %s", n ? "no positions" : "no weights to tune");
    return -1;
  }
  wctx c = {set, K, w, idx, n};
  gsl_multimin_function_fdf F = {w_f, w_df, w_fdf, (size_t)n, &c};
  gsl_vector *x = gsl_vector_alloc((size_t)n);
  gsl_multimin_fdfminimizer *m =
      gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, (size_t)n);
  if (!x || !m) {
    if (x) gsl_vector_free(x);
    if (m) gsl_multimin_fdfminimizer_free(m);
    error_set(err, errlen, "texel: out of memory");
    return -1;
  }
  gsl_set_error_handler_off();
  for (int j = 0; j < n; j++) gsl_vector_set(x, (size_t)j, w[idx[j]]);
  /* First step: a tenth of the weights' size; line-search tolerance 0.1. */
  double norm = 0;
  for (int j = 0; j < n; j++) norm += w[idx[j]] * w[idx[j]];
  gsl_multimin_fdfminimizer_set(m, &F, x, 0.1 * (sqrt(norm) > 1 ? sqrt(norm) : 1), 0.1);
  for (int it = 1; it <= max_iter; it++) {
    int st = gsl_multimin_fdfminimizer_iterate(m);
    unpack(&c, m->x);
    if (step) step(ctx, it, m->f, w);
    if (st != GSL_SUCCESS) break; /* no further progress possible */
    if (gsl_multimin_test_gradient(m->gradient, 1e-9) == GSL_SUCCESS) break;
  }
  unpack(&c, m->x);
  if (mse_out) *mse_out = m->f;
  gsl_multimin_fdfminimizer_free(m);
  gsl_vector_free(x);
  return 0;
}

/* ---- Self-play in another process (run/runner_mpi.c) ---- */

/* What sp_next and sp_prepare read: the spec, the weights, the variant
 * (canonical string), the opening plies, the seed. */
static int sp_pack(void *ctx, pack_buf *out, char *err, size_t errlen) {
  const selfplay *sp = ctx;
  char vs[256];
  variant_format(sp->v, vs, sizeof vs);
  pack_str(out, sp->spec);
  pack_u64(out, sp->w ? EVAL_N : 0);
  for (int i = 0; sp->w && i < EVAL_N; i++) pack_f64(out, sp->w->w[i]);
  pack_str(out, vs);
  pack_i64(out, sp->opening_plies);
  pack_u64(out, sp->seed);
  return pack_finish(out, err, errlen);
}

typedef struct remote_selfplay {
  selfplay sp;
  variant v;
  eval_weights w;
  char *spec;
} remote_selfplay;

static void sp_release(runner_schedule *s) {
  remote_selfplay *r = s->ctx;
  if (!r) return;
  free(r->spec);
  free(r);
  s->ctx = NULL;
}

static int sp_unpack(pack_reader *in, runner_schedule *s, char *err, size_t errlen) {
  remote_selfplay *r = runner_schedule_ctx(s, sizeof *r, err, errlen);
  if (!r) return -1;
  r->spec = pack_get_strdup(in);
  uint64_t n = pack_get_u64(in);
  if (n && n != EVAL_N) in->failed = 1;
  for (uint64_t i = 0; i < n && !in->failed; i++) r->w.w[i] = pack_get_f64(in);
  char vs[256];
  pack_get_str(in, vs, sizeof vs);
  r->sp.opening_plies = (int)pack_get_int(in, 0, 1000);
  r->sp.seed = pack_get_u64(in);
  if (in->failed) {
    error_set(err, errlen, "texel: a schedule that does not read back (another oware version?)");
    sp_release(s);
    return -1;
  }
  if (variant_parse(vs, &r->v, err, errlen)) {
    sp_release(s);
    return -1;
  }
  r->sp.spec = r->spec;
  r->sp.w = n ? &r->w : NULL;
  r->sp.v = &r->v;
  *s = (runner_schedule){0, 1, r, sp_spec, sp_prepare, sp_next, texel_schedule_kind.name, sp_pack};
  return 0;
}

const runner_kind texel_schedule_kind = {"texel-selfplay", sp_unpack, sp_release};
