/* elo_fit.c: Bradley–Terry maximum likelihood Elo of a pool of players (GSL), with covariance or bootstrap intervals and LOS (docs/STATISTICS.md).
 *
 * Units: inside the fit a rating r is in natural log-odds (P(i beats j) =
 * F(r_i − r_j), F the logistic function); Elo = r · 400 / ln 10. GSL's
 * error handler is switched off (and restored) around every call into GSL,
 * so a numerical failure is a return value here, never an abort. */
#include "stats/elo_fit.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_vector.h>

#include "stats/stats_common.h"

#define NEWTON_MAX 200
#define NEWTON_TOL 1e-10                    /* largest step, natural units */

/* ================================================================== pools */

void rating_pool_init(rating_pool *p) { memset(p, 0, sizeof *p); }

void rating_pool_free(rating_pool *p) {
  free(p->name);
  free(p->wins);
  free(p->draws);
  free(p->penta);
  memset(p, 0, sizeof *p);
}

/* Grows the matrices to cap players, keeping the counts. */
static int pool_grow(rating_pool *p, int cap) {
  size_t c = (size_t)cap;
  char(*name)[RATING_NAME_MAX] = calloc(c, sizeof *name);
  long long *w = calloc(c * c, sizeof *w), *d = calloc(c * c, sizeof *d);
  long long *pe = calloc(c * c * 6, sizeof *pe);
  if (!name || !w || !d || !pe) {
    free(name);
    free(w);
    free(d);
    free(pe);
    return -1;
  }
  for (int i = 0; i < p->n; i++) {
    memcpy(name[i], p->name[i], RATING_NAME_MAX);
    for (int j = 0; j < p->n; j++) {
      size_t o = (size_t)i * (size_t)p->cap + (size_t)j, q = (size_t)i * c + (size_t)j;
      w[q] = p->wins[o];
      d[q] = p->draws[o];
      memcpy(&pe[q * 6], &p->penta[o * 6], 6 * sizeof *pe);
    }
  }
  free(p->name);
  free(p->wins);
  free(p->draws);
  free(p->penta);
  p->name = name;
  p->wins = w;
  p->draws = d;
  p->penta = pe;
  p->cap = cap;
  return 0;
}

int rating_pool_player(rating_pool *p, const char *name) {
  for (int i = 0; i < p->n; i++)
    if (!strncmp(p->name[i], name, RATING_NAME_MAX - 1)) return i;
  if (p->n == p->cap && pool_grow(p, p->cap ? 2 * p->cap : 16)) return -1;
  snprintf(p->name[p->n], RATING_NAME_MAX, "%s", name);
  return p->n++;
}

int rating_pool_add(rating_pool *p, int i, int j, long long wins, long long draws,
                    long long losses) {
  if (i < 0 || j < 0 || i >= p->n || j >= p->n || i == j || wins < 0 || draws < 0 || losses < 0)
    return -1;
  size_t c = (size_t)p->cap, ij = (size_t)i * c + (size_t)j, ji = (size_t)j * c + (size_t)i;
  p->wins[ij] += wins;
  p->wins[ji] += losses;
  p->draws[ij] += draws;
  p->draws[ji] += draws;
  return 0;
}

int rating_pool_add_pairs(rating_pool *p, int i, int j, const long long penta[5], long long wl) {
  if (i < 0 || j < 0 || i >= p->n || j >= p->n || i == j || wl < 0 || wl > penta[2]) return -1;
  for (int k = 0; k < 5; k++)
    if (penta[k] < 0) return -1;
  size_t c = (size_t)p->cap, ij = ((size_t)i * c + (size_t)j) * 6, ji = ((size_t)j * c + (size_t)i) * 6;
  for (int k = 0; k < 5; k++) {
    p->penta[ij + (size_t)k] += penta[k];
    p->penta[ji + (size_t)(4 - k)] += penta[k];
  }
  p->penta[ij + 5] += wl;
  p->penta[ji + 5] += wl;
  return 0;
}

void rating_pool_match(const rating_pool *p, int i, int j, rating_match *m) {
  memset(m, 0, sizeof *m);
  if (i < 0 || j < 0 || i >= p->n || j >= p->n || i == j) return;
  size_t c = (size_t)p->cap, ij = (size_t)i * c + (size_t)j, ji = (size_t)j * c + (size_t)i;
  m->wins = p->wins[ij];
  m->losses = p->wins[ji];
  m->draws = p->draws[ij];
  memcpy(m->penta, &p->penta[ij * 6], 5 * sizeof *m->penta);
  m->pairs_wl = p->penta[ij * 6 + 5];
}

/* Whether i won or drew a game against j. */
static int scored(const rating_pool *p, int i, int j) {
  size_t ij = (size_t)i * (size_t)p->cap + (size_t)j;
  return p->wins[ij] > 0 || p->draws[ij] > 0;
}

/* Marks in seen every player that i reaches (depth first, on stack). */
static void reach(const rating_pool *p, int i, unsigned char *seen, int *stack, int forward) {
  int top = 0;
  seen[i] = 1;
  stack[top++] = i;
  while (top) {
    int a = stack[--top];
    for (int b = 0; b < p->n; b++)
      if (!seen[b] && b != a && (forward ? scored(p, a, b) : scored(p, b, a))) {
        seen[b] = 1;
        stack[top++] = b;
      }
  }
}

int rating_pool_groups(const rating_pool *p, int *group) {
  int n = p->n, ngroups = 0;
  unsigned char *fwd = malloc((size_t)n + 1), *back = malloc((size_t)n + 1);
  int *stack = malloc(((size_t)n + 1) * sizeof *stack);
  if (!fwd || !back || !stack) {
    free(fwd), free(back), free(stack);
    return -1;
  }
  for (int i = 0; i < n; i++) group[i] = -1;
  for (int i = 0; i < n; i++) {
    if (group[i] >= 0) continue;
    memset(fwd, 0, (size_t)n);
    memset(back, 0, (size_t)n);
    reach(p, i, fwd, stack, 1);
    reach(p, i, back, stack, 0);
    for (int j = 0; j < n; j++)
      if (fwd[j] && back[j]) group[j] = ngroups;
    ngroups++;
  }
  free(fwd), free(back), free(stack);
  return ngroups;
}

/* ==================================================================== fit */

/* log F(x) = −log(1 + e^−x), without overflow. */
static double log_logistic(double x) {
  return x >= 0 ? -log1p(exp(-x)) : x - log1p(exp(x));
}

static double logistic(double x) {
  if (x >= 0) return 1.0 / (1.0 + exp(-x));
  double e = exp(x);
  return e / (1.0 + e);
}

/* One fit on dense counts: W[i*n+j] wins of i over j, D[i*n+j] draws. */
typedef struct fit_data {
  int n;
  const double *W, *D;
  double prior;
} fit_data;

typedef struct fit_out {
  double *r;    /* n: natural units, sum 0 */
  int *marked;  /* n: held by the prior */
  int regularized, iterations;
} fit_out;

/* Marks the players whose maximum likelihood estimate is not finite: the
 * comparison graph (an edge i → j when i scored against j) is strongly
 * connected exactly when the MLE exists (Zermelo 1929; Ford 1957). Every
 * strongly connected component but the largest is marked (all of them when
 * the largest is not unique). Returns whether anything was marked. */
static int mark_unbounded(const fit_data *f, int *marked, int *work) {
  int n = f->n;
  int *comp = work, *order = work + n, *stack = work + 2 * n, *it = work + 3 * n;
  char *seen = (char *)(work + 4 * n);
  memset(seen, 0, (size_t)n);
#define EDGE(i, j) ((i) != (j) && f->W[(size_t)(i) * n + (j)] + f->D[(size_t)(i) * n + (j)] > 0)
  /* Kosaraju: finishing order on the graph, then components on its reverse. */
  int no = 0;
  for (int s = 0; s < n; s++) {
    if (seen[s]) continue;
    int sp = 0;
    stack[sp] = s;
    it[sp++] = 0;
    seen[s] = 1;
    while (sp) {
      int v = stack[sp - 1];
      if (it[sp - 1] < n) {
        int u = it[sp - 1]++;
        if (!seen[u] && EDGE(v, u)) {
          seen[u] = 1;
          stack[sp] = u;
          it[sp++] = 0;
        }
      } else {
        order[no++] = v;
        sp--;
      }
    }
  }
  for (int i = 0; i < n; i++) comp[i] = -1;
  int nc = 0;
  for (int k = n - 1; k >= 0; k--) {
    int s = order[k];
    if (comp[s] >= 0) continue;
    int sp = 0;
    stack[sp++] = s;
    comp[s] = nc;
    while (sp) {
      int v = stack[--sp];
      for (int u = 0; u < n; u++)
        if (comp[u] < 0 && EDGE(u, v)) {
          comp[u] = nc;
          stack[sp++] = u;
        }
    }
    nc++;
  }
#undef EDGE
  if (nc <= 1) {
    memset(marked, 0, (size_t)n * sizeof *marked);
    return 0;
  }
  int *size = it; /* reuse: component sizes */
  memset(size, 0, (size_t)nc * sizeof *size);
  for (int i = 0; i < n; i++) size[comp[i]]++;
  int best = 0, ties = 0;
  for (int c = 1; c < nc; c++)
    if (size[c] > size[best]) best = c;
  for (int c = 0; c < nc; c++) ties += size[c] == size[best];
  for (int i = 0; i < n; i++) marked[i] = ties > 1 || comp[i] != best;
  return 1;
}

/* The penalized log-likelihood at r (sum 0). */
static double loglik(const fit_data *f, const int *marked, const double *r) {
  int n = f->n;
  double l = 0;
  for (int i = 0; i < n; i++) {
    for (int j = i + 1; j < n; j++) {
      size_t ij = (size_t)i * n + j, ji = (size_t)j * n + i;
      double sij = f->W[ij] + 0.5 * f->D[ij], sji = f->W[ji] + 0.5 * f->D[ij];
      if (sij > 0) l += sij * log_logistic(r[i] - r[j]);
      if (sji > 0) l += sji * log_logistic(r[j] - r[i]);
    }
    if (marked[i]) l += f->prior * 0.5 * (log_logistic(r[i]) + log_logistic(-r[i]));
  }
  return l;
}

/* The information matrix M (minus the Hessian, projected on sum-zero
 * vectors) plus 11ᵀ/n, into A; and the projected gradient into g. */
static void info_and_gradient(const fit_data *f, const int *marked, const double *r, gsl_matrix *A,
                              gsl_vector *g) {
  int n = f->n;
  double inv = 1.0 / n;
  gsl_matrix_set_all(A, inv);
  gsl_vector_set_zero(g);
  for (int i = 0; i < n; i++) {
    for (int j = i + 1; j < n; j++) {
      size_t ij = (size_t)i * n + j, ji = (size_t)j * n + i;
      double nij = f->W[ij] + f->W[ji] + f->D[ij];
      if (nij <= 0) continue;
      double F = logistic(r[i] - r[j]), h = nij * F * (1 - F);
      double sij = f->W[ij] + 0.5 * f->D[ij];
      double gi = sij - nij * F;
      g->data[i] += gi;
      g->data[j] -= gi;
      *gsl_matrix_ptr(A, i, i) += h;
      *gsl_matrix_ptr(A, j, j) += h;
      *gsl_matrix_ptr(A, i, j) -= h;
      *gsl_matrix_ptr(A, j, i) -= h;
    }
  }
  /* The prior: `prior` virtual draws of each marked player against the
   * pool's average m = mean(r) (= 0 here), each ½·log F(r_k − m) +
   * ½·log F(m − r_k); gradient and curvature projected by P = I − 11ᵀ/n. */
  double gmean = 0;
  for (int k = 0; k < n; k++) {
    if (!marked[k]) continue;
    double F = logistic(r[k]), h = f->prior * F * (1 - F);
    double gk = f->prior * (0.5 - F);
    g->data[k] += gk;
    gmean += gk * inv;
    /* h · (e_k − 1/n)(e_k − 1/n)ᵀ */
    for (int i = 0; i < n; i++) {
      double vi = (i == k) - inv;
      for (int j = 0; j < n; j++) *gsl_matrix_ptr(A, i, j) += h * vi * ((j == k) - inv);
    }
  }
  for (int i = 0; i < n; i++) g->data[i] -= gmean;
}

/* Cholesky factorization of A in place. Should rounding (ratings far
 * apart, curvature that underflows) leave A not quite positive definite,
 * retries once with a ridge of 1e-9 on the diagonal. */
static int cholesky(gsl_matrix *A, gsl_matrix *copy) {
  gsl_matrix_memcpy(copy, A);
  if (gsl_linalg_cholesky_decomp1(A) == GSL_SUCCESS) return 0;
  gsl_matrix_memcpy(A, copy);
  for (size_t i = 0; i < A->size1; i++) *gsl_matrix_ptr(A, i, i) += 1e-9;
  return gsl_linalg_cholesky_decomp1(A) == GSL_SUCCESS ? 0 : -1;
}

/* Fits r by Newton–Raphson with step halving (the penalized likelihood is
 * concave). With cov not NULL, also the covariance of r (natural units):
 * the sandwich M⁺ J M⁺ for a pure MLE, M⁺ when the prior was used.
 * Returns 0, or -1 (out of memory, or a matrix GSL could not factor). */
static int fit_core(const fit_data *f, fit_out *o, double *cov) {
  int n = f->n, ret = -1;
  memset(o->r, 0, (size_t)n * sizeof *o->r);
  o->iterations = 0;
  o->regularized = 0;
  if (n <= 1) {
    if (n == 1) o->marked[0] = 1;
    if (cov && n == 1) cov[0] = 0;
    return 0;
  }
  int *work = malloc((size_t)n * 5 * sizeof *work);
  double *trial = malloc((size_t)n * sizeof *trial);
  gsl_matrix *A = gsl_matrix_alloc((size_t)n, (size_t)n);
  gsl_vector *g = gsl_vector_alloc((size_t)n), *delta = gsl_vector_alloc((size_t)n);
  gsl_matrix *Minv = NULL, *J = NULL, *T = NULL, *copy = gsl_matrix_alloc((size_t)n, (size_t)n);
  if (!work || !trial || !A || !g || !delta || !copy) goto done;
  o->regularized = mark_unbounded(f, o->marked, work);
  double l = loglik(f, o->marked, o->r);
  for (int it = 0; it < NEWTON_MAX; it++) {
    info_and_gradient(f, o->marked, o->r, A, g);
    if (cholesky(A, copy) || gsl_linalg_cholesky_solve(A, g, delta) != GSL_SUCCESS) goto done;
    double step = 1.0, lt = l, maxd = 0;
    for (int i = 0; i < n; i++)
      if (fabs(delta->data[i]) > maxd) maxd = fabs(delta->data[i]);
    /* No step beyond 10 natural units (~1700 Elo) at once. */
    if (maxd > 10) step = 10 / maxd;
    for (; step > 1e-12; step /= 2) {
      for (int i = 0; i < n; i++) trial[i] = o->r[i] + step * delta->data[i];
      lt = loglik(f, o->marked, trial);
      if (lt >= l - 1e-12 * fabs(l)) break;
    }
    if (step <= 1e-12) break; /* no progress possible: at the optimum to precision */
    memcpy(o->r, trial, (size_t)n * sizeof *trial);
    l = lt;
    o->iterations = it + 1;
    if (maxd * step < NEWTON_TOL) break;
  }
  /* Exactly sum 0. */
  double mean = 0;
  for (int i = 0; i < n; i++) mean += o->r[i] / n;
  for (int i = 0; i < n; i++) o->r[i] -= mean;
  if (cov) {
    Minv = gsl_matrix_alloc((size_t)n, (size_t)n);
    if (!Minv) goto done;
    info_and_gradient(f, o->marked, o->r, Minv, g);
    if (cholesky(Minv, copy) || gsl_linalg_cholesky_invert(Minv) != GSL_SUCCESS) goto done;
    /* (M + 11ᵀ/n)⁻¹ − 11ᵀ/n is the pseudo-inverse M⁺. */
    gsl_matrix_add_constant(Minv, -1.0 / n);
    gsl_matrix_view C = gsl_matrix_view_array(cov, (size_t)n, (size_t)n);
    if (o->regularized) {
      gsl_matrix_memcpy(&C.matrix, Minv);
    } else {
      J = gsl_matrix_calloc((size_t)n, (size_t)n);
      T = gsl_matrix_alloc((size_t)n, (size_t)n);
      if (!J || !T) goto done;
      for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
          size_t ij = (size_t)i * n + j, ji = (size_t)j * n + i;
          double F = logistic(o->r[i] - o->r[j]);
          /* Σ over the games of (score − F)²: the observed variance. */
          double q = f->W[ij] * (1 - F) * (1 - F) + f->D[ij] * (0.5 - F) * (0.5 - F) +
                     f->W[ji] * F * F;
          if (q <= 0) continue;
          *gsl_matrix_ptr(J, i, i) += q;
          *gsl_matrix_ptr(J, j, j) += q;
          *gsl_matrix_ptr(J, i, j) -= q;
          *gsl_matrix_ptr(J, j, i) -= q;
        }
      gsl_blas_dsymm(CblasLeft, CblasUpper, 1.0, Minv, J, 0.0, T);
      gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, T, Minv, 0.0, &C.matrix);
    }
    /* Symmetric to the last bit, and no negative variance from rounding. */
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        double v = 0.5 * (cov[(size_t)i * n + j] + cov[(size_t)j * n + i]);
        cov[(size_t)i * n + j] = cov[(size_t)j * n + i] = v;
      }
      if (cov[(size_t)i * n + i] < 0) cov[(size_t)i * n + i] = 0;
    }
  }
  ret = 0;
done:
  free(work);
  free(trial);
  gsl_matrix_free(A);
  gsl_vector_free(g);
  gsl_vector_free(delta);
  gsl_matrix_free(Minv);
  gsl_matrix_free(J);
  gsl_matrix_free(T);
  gsl_matrix_free(copy);
  return ret;
}

void rating_result_free(rating_result *r) {
  free(r->player);
  free(r->order);
  free(r->cov);
  free(r->los);
  memset(r, 0, sizeof *r);
}

/* Anchors Elo values e (n) in place: e_anchor = value, or mean = value. */
static void anchor_elo(double *e, int n, int anchor, double value) {
  double shift;
  if (anchor >= 0) {
    shift = value - e[anchor];
  } else {
    double mean = 0;
    for (int i = 0; i < n; i++) mean += e[i];
    shift = value - (n ? mean / n : 0);
  }
  for (int i = 0; i < n; i++) e[i] += shift;
}

/* Rank order: Elo descending, then name (no global state: qsort on keys). */
typedef struct rank_key {
  double elo;
  const char *name;
  int index;
} rank_key;

static int by_rank(const void *x, const void *y) {
  const rank_key *a = x, *b = y;
  if (a->elo != b->elo) return a->elo > b->elo ? -1 : 1;
  int c = strcmp(a->name, b->name);
  return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* The bootstrap: resamples each pair's W/D/L counts (multinomial with the
 * observed frequencies), refits, and takes the 2.5% and 97.5% points of
 * each player's anchored Elo. */
static int bootstrap(const fit_data *f, const rating_options *opt,
                     int anchor, rating_result *out) {
  int n = f->n, B = opt->bootstrap, ret = -1;
  size_t nn = (size_t)n * (size_t)n;
  double *W = malloc(nn * sizeof *W), *D = malloc(nn * sizeof *D);
  double *elo = malloc((size_t)B * (size_t)n * sizeof *elo), *col = malloc((size_t)B * sizeof *col);
  double *r = malloc((size_t)n * sizeof *r);
  int *marked = malloc((size_t)n * sizeof *marked);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!W || !D || !elo || !col || !r || !marked || !rng) goto done;
  uint64_t seed = opt->seed;
  gsl_rng_set(rng, (unsigned long)((seed ^ (seed >> 32)) & 0xffffffffu));
  fit_data fb = {n, W, D, f->prior};
  fit_out ob = {r, marked, 0, 0};
  for (int b = 0; b < B; b++) {
    memset(W, 0, nn * sizeof *W);
    memset(D, 0, nn * sizeof *D);
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        size_t ij = (size_t)i * n + j, ji = (size_t)j * n + i;
        double prob[3] = {f->W[ij], f->D[ij], f->W[ji]};
        double tot = prob[0] + prob[1] + prob[2];
        if (tot <= 0) continue;
        if (tot > 4e9) { /* beyond unsigned int: its spread is nil anyway */
          W[ij] = prob[0];
          D[ij] = D[ji] = prob[1];
          W[ji] = prob[2];
          continue;
        }
        unsigned int got[3];
        gsl_ran_multinomial(rng, 3, (unsigned int)tot, prob, got);
        W[ij] = got[0];
        D[ij] = D[ji] = got[1];
        W[ji] = got[2];
      }
    if (fit_core(&fb, &ob, NULL)) goto done;
    for (int i = 0; i < n; i++) r[i] *= ELO_PER_NAT;
    anchor_elo(r, n, anchor, opt->anchor_elo);
    for (int i = 0; i < n; i++) elo[(size_t)b * n + i] = r[i];
  }
  for (int i = 0; i < n; i++) {
    /* A bounded player's resamples repeat its one-sided record: they say
     * nothing of its uncertainty, so it keeps the covariance interval. */
    if (out->player[i].bounded) continue;
    for (int b = 0; b < B; b++) col[b] = elo[(size_t)b * n + i];
    gsl_sort(col, 1, (size_t)B);
    out->player[i].lo = gsl_stats_quantile_from_sorted_data(col, 1, (size_t)B, 0.025);
    out->player[i].hi = gsl_stats_quantile_from_sorted_data(col, 1, (size_t)B, 0.975);
  }
  out->bootstrap = B;
  ret = 0;
done:
  free(W);
  free(D);
  free(elo);
  free(col);
  free(r);
  free(marked);
  if (rng) gsl_rng_free(rng);
  return ret;
}

/* Checks the options and finds the anchor's index (-1: the mean). */
static int check_options(const rating_pool *p, const rating_options *opt, int *anchor, char *err,
                         size_t errlen) {
  if (opt->bootstrap < 0 || opt->prior < 0 || !isfinite(opt->prior) || !isfinite(opt->anchor_elo)) {
    error_set(err, errlen, "rating: bad options (bootstrap %d, prior %g, anchor Elo %g)", opt->bootstrap,
         opt->prior, opt->anchor_elo);
    return -1;
  }
  if (opt->anchor && *opt->anchor) {
    for (int i = 0; i < p->n; i++)
      if (!strcmp(p->name[i], opt->anchor)) *anchor = i;
    if (*anchor < 0) {
      error_set(err, errlen, "rating: unknown anchor '%s': no such player in the games rated", opt->anchor);
      return -1;
    }
  }
  return 0;
}

/* The pool's counts into W and D (n×n, row-major) and each player's games,
 * wins, draws, losses, score and draw ratio into out. */
static void count_games(const rating_pool *p, rating_result *out, double *W, double *D) {
  int n = p->n;
  for (int i = 0; i < n; i++) {
    rating_player *pl = &out->player[i];
    snprintf(pl->name, sizeof pl->name, "%s", p->name[i]);
    for (int j = 0; j < n; j++) {
      size_t pij = (size_t)i * (size_t)p->cap + (size_t)j, pji = (size_t)j * (size_t)p->cap + (size_t)i;
      W[(size_t)i * n + j] = i == j ? 0 : (double)p->wins[pij];
      D[(size_t)i * n + j] = i == j ? 0 : (double)p->draws[pij];
      if (i == j) continue;
      pl->wins += p->wins[pij];
      pl->losses += p->wins[pji];
      pl->draws += p->draws[pij];
    }
    pl->games = pl->wins + pl->draws + pl->losses;
    out->games += pl->games;
    if (pl->games) {
      pl->score = ((double)pl->wins + 0.5 * (double)pl->draws) / (double)pl->games;
      pl->draw_ratio = (double)pl->draws / (double)pl->games;
    }
  }
  out->games /= 2;
}

/* The covariance C (n×n) of Elo anchored at player `anchor`:
 * e' = e − e_a: C'_ij = C_ij − C_ia − C_aj + C_aa. -1 when out of memory. */
static int anchor_cov(double *C, int n, int anchor) {
  double *ca = malloc((size_t)n * sizeof *ca), caa = C[(size_t)anchor * n + anchor];
  if (!ca) return -1;
  for (int i = 0; i < n; i++) ca[i] = C[(size_t)i * n + anchor];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) C[(size_t)i * n + j] += caa - ca[i] - ca[j];
  for (int i = 0; i < n; i++) {
    C[(size_t)anchor * n + i] = C[(size_t)i * n + anchor] = 0;
    if (C[(size_t)i * n + i] < 0) C[(size_t)i * n + i] = 0;
  }
  free(ca);
  return 0;
}

/* Each player's Elo (r), standard error, 95% interval and bound mark
 * (marked), then the likelihood of superiority of every pair. */
static void set_estimates(rating_result *out, const double *r, const int *marked) {
  int n = out->n;
  double z = stats_z95();
  for (int i = 0; i < n; i++) {
    rating_player *pl = &out->player[i];
    pl->elo = r[i];
    pl->se = sqrt(out->cov[(size_t)i * n + i]);
    pl->lo = pl->elo - z * pl->se;
    pl->hi = pl->elo + z * pl->se;
    pl->bounded = marked[i];
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double d = out->player[i].elo - out->player[j].elo;
      double v = out->cov[(size_t)i * n + i] + out->cov[(size_t)j * n + j] -
                 2 * out->cov[(size_t)i * n + j];
      double los;
      if (i == j) los = 0.5;
      else if (v > 1e-12) los = stats_phi(d / sqrt(v));
      else los = fabs(d) < 1e-9 ? 0.5 : d > 0 ? 1.0 : 0.0;
      out->los[(size_t)i * n + j] = los;
    }
}

/* The order by rank and each player's rank. -1 when out of memory. */
static int rank_players(rating_result *out) {
  int n = out->n;
  rank_key *keys = malloc((size_t)n * sizeof *keys);
  if (!keys) return -1;
  for (int i = 0; i < n; i++) keys[i] = (rank_key){out->player[i].elo, out->player[i].name, i};
  qsort(keys, (size_t)n, sizeof *keys, by_rank);
  for (int k = 0; k < n; k++) {
    out->order[k] = keys[k].index;
    out->player[keys[k].index].rank = k + 1;
  }
  free(keys);
  return 0;
}

int rating_fit(const rating_pool *p, const rating_options *opt, rating_result *out, char *err,
               size_t errlen) {
  rating_options defaults = {NULL, 0, 0, 1, 0};
  if (!opt) opt = &defaults;
  memset(out, 0, sizeof *out);
  int n = p->n, anchor = -1, ret = -1;
  if (check_options(p, opt, &anchor, err, errlen)) return -1;
  if (n <= 0) return 0;
  out->n = n;
  size_t nn = (size_t)n * (size_t)n;
  out->player = calloc((size_t)n, sizeof *out->player);
  out->order = malloc((size_t)n * sizeof *out->order);
  out->cov = calloc(nn, sizeof *out->cov);
  out->los = malloc(nn * sizeof *out->los);
  double *W = malloc(nn * sizeof *W), *D = malloc(nn * sizeof *D);
  double *r = malloc((size_t)n * sizeof *r);
  int *marked = calloc((size_t)n, sizeof *marked);
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  if (!out->player || !out->order || !out->cov || !out->los || !W || !D || !r || !marked) {
    error_set(err, errlen, "rating: out of memory (%d players)", n);
    goto done;
  }
  count_games(p, out, W, D);
  fit_data f = {n, W, D, opt->prior > 0 ? opt->prior : RATING_PRIOR_DRAWS};
  fit_out o = {r, marked, 0, 0};
  if (fit_core(&f, &o, out->cov)) {
    error_set(err, errlen, "rating: the fit failed (the information matrix is not positive definite)");
    goto done;
  }
  out->iterations = o.iterations;
  out->regularized = o.regularized;
  /* To Elo, anchored; the covariance follows the anchor's translation. */
  double k2 = ELO_PER_NAT * ELO_PER_NAT;
  for (size_t q = 0; q < nn; q++) out->cov[q] *= k2;
  for (int i = 0; i < n; i++) r[i] *= ELO_PER_NAT;
  anchor_elo(r, n, anchor, opt->anchor_elo);
  if (anchor >= 0 && anchor_cov(out->cov, n, anchor)) {
    error_set(err, errlen, "rating: out of memory");
    goto done;
  }
  set_estimates(out, r, marked);
  if (opt->bootstrap > 0 && n > 1 && bootstrap(&f, opt, anchor, out)) {
    error_set(err, errlen, "rating: the bootstrap failed (out of memory)");
    goto done;
  }
  if (rank_players(out)) {
    error_set(err, errlen, "rating: out of memory");
    goto done;
  }
  ret = 0;
done:
  gsl_set_error_handler(old);
  free(W);
  free(D);
  free(r);
  free(marked);
  return ret;
}
