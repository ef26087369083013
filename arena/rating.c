/* rating.c: Bradley–Terry maximum likelihood Elo (GSL), match statistics, fishtest's GSPRT; formulas in docs/STATISTICS.md.
 *
 * Units: inside the fit a rating r is in natural log-odds (P(i beats j) =
 * F(r_i − r_j), F the logistic function); Elo = r · 400 / ln 10. GSL's
 * error handler is switched off (and restored) around every public entry
 * point that calls GSL, so a numerical failure is a return value here,
 * never an abort. */
#include "arena/rating.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_vector.h>

#define LN10 2.302585092994045684
#define ELO_PER_NAT (400.0 / LN10)          /* Elo of one unit of natural log-odds */
#define NELO_PER_T (800.0 / LN10)           /* normalized Elo per unit of t (fishtest) */
#define REGULARIZE 1e-3                     /* fishtest's stand-in for an empty category */
#define SCORE_CLAMP 1e-3                    /* fishtest's elo(): score kept in [1e-3, 1−1e-3] */
#define NEWTON_MAX 200
#define NEWTON_TOL 1e-10                    /* largest step, natural units */

static void errf(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  if (!err || !errlen) return;
  va_start(ap, fmt);
  int n = snprintf(err, errlen, "rating: ");
  if (n >= 0 && (size_t)n < errlen) vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
  va_end(ap);
}

/* 1.959964…: the 97.5% quantile of the standard normal law. */
static double z95(void) { return gsl_cdf_ugaussian_Pinv(0.975); }

/* fishtest's elo(): −400·log10(1/s − 1), s clamped into [1e-3, 1 − 1e-3]. */
static double elo_of_score(double s) {
  if (!(s >= SCORE_CLAMP)) s = SCORE_CLAMP; /* also catches NaN */
  if (s > 1 - SCORE_CLAMP) s = 1 - SCORE_CLAMP;
  return -400.0 * log10(1.0 / s - 1.0);
}

static double score_of_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* Φ(x), with the limits for infinite arguments. */
static double phi_cdf(double x) { return gsl_cdf_ugaussian_P(x); }

/* ================================================================ matches */

void rating_match_add_game(rating_match *m, int result) {
  if (result > 0) m->wins++;
  else if (result < 0) m->losses++;
  else m->draws++;
}

void rating_match_add_pair(rating_match *m, int first_game, int second_game) {
  rating_match_add_game(m, first_game);
  rating_match_add_game(m, second_game);
  int half = (first_game > 0 ? 2 : first_game == 0 ? 1 : 0) +
             (second_game > 0 ? 2 : second_game == 0 ? 1 : 0);
  m->penta[half]++;
  if (half == 2 && first_game != 0) m->pairs_wl++;
}

/* Mean and variance of a discrete law: values a, weights c (not normalized). */
static void moments(const double *a, const double *c, int k, double *mu, double *var) {
  double n = 0, s = 0, v = 0;
  for (int i = 0; i < k; i++) n += c[i];
  for (int i = 0; i < k; i++) s += c[i] * a[i];
  s /= n;
  for (int i = 0; i < k; i++) v += c[i] * (a[i] - s) * (a[i] - s);
  *mu = s;
  *var = v / n;
}

/* fastchess's statistics of one category set (trinomial k = 3, pentanomial
 * k = 5): score, Elo ± and nElo ± and LOS. `samples` games or pairs;
 * nelo_scale is 1 for games, sqrt(2) for pairs (σ per game = σ_pair·√2). */
static void category_stats(const long long *counts, int k, double *score, double *elo,
                           double *elo_err, double *nelo, double *nelo_err, double *los) {
  double a[5], c[5], n = 0;
  int zero = 0;
  for (int i = 0; i < k; i++) {
    a[i] = (double)i / (k - 1);
    c[i] = (double)counts[i];
    n += c[i];
    zero += counts[i] == 0;
  }
  double mu, var;
  moments(a, c, k, &mu, &var);
  /* Degenerate (one category only, or a score of 0 or 1): fishtest's
   * regularization, an empty category counts 1e-3. */
  if ((var <= 0 || mu <= 0 || mu >= 1) && zero) {
    for (int i = 0; i < k; i++)
      if (c[i] == 0) c[i] = REGULARIZE;
    moments(a, c, k, &mu, &var);
  }
  double z = z95(), sd = sqrt(var / n);
  double ub = mu + z * sd, lb = mu - z * sd;
  double sigma_game = k == 5 ? sqrt(2.0 * var) : sqrt(var);
  *score = mu;
  *elo = elo_of_score(mu);
  *elo_err = (elo_of_score(ub) - elo_of_score(lb)) / 2.0;
  if (sigma_game > 0) {
    *nelo = (mu - 0.5) / sigma_game * NELO_PER_T;
    *nelo_err = (ub - lb) / 2.0 / sigma_game * NELO_PER_T;
  } else {
    *nelo = *nelo_err = 0;
  }
  *los = sd > 0 ? phi_cdf((mu - 0.5) / sd) : (mu > 0.5 ? 1.0 : mu < 0.5 ? 0.0 : 0.5);
}

void rating_match_compute(const rating_match *m, rating_match_stats *s) {
  memset(s, 0, sizeof *s);
  s->games = m->wins + m->draws + m->losses;
  for (int k = 0; k < 5; k++) s->pairs += m->penta[k];
  s->points = (double)m->wins + 0.5 * (double)m->draws;
  s->score = 0.5;
  s->los = 0.5;
  if (s->games > 0) {
    long long wdl[3] = {m->losses, m->draws, m->wins};
    double score;
    s->score = s->points / (double)s->games;
    s->draw_ratio = (double)m->draws / (double)s->games;
    category_stats(wdl, 3, &score, &s->elo, &s->elo_err, &s->nelo, &s->nelo_err, &s->los);
  }
  if (s->pairs > 0) {
    double score;
    category_stats(m->penta, 5, &score, &s->penta_elo, &s->penta_err, &s->nelo, &s->nelo_err,
                   &s->los);
    long long dd = m->penta[2] - m->pairs_wl;
    s->wl_dd_ratio = dd > 0 ? (double)m->pairs_wl / (double)dd : 0;
    long long lost = m->penta[0] + m->penta[1];
    s->pairs_ratio = lost > 0 ? (double)(m->penta[3] + m->penta[4]) / (double)lost : 0;
  }
}

/* =================================================================== SPRT */

void rating_sprt_default(rating_sprt *s) {
  s->elo0 = 0;
  s->elo1 = 5;
  s->alpha = 0.05;
  s->beta = 0.05;
  s->model = RATING_MODEL_NORMALIZED;
}

int rating_sprt_check(const rating_sprt *s, char *err, size_t errlen) {
  if (!isfinite(s->elo0) || !isfinite(s->elo1) || fabs(s->elo0) > 500 || fabs(s->elo1) > 500) {
    errf(err, errlen, "SPRT: elo0 and elo1 must be numbers from -500 to 500");
    return -1;
  }
  if (!(s->elo0 < s->elo1)) {
    errf(err, errlen, "SPRT: elo0 (%g) must be less than elo1 (%g)", s->elo0, s->elo1);
    return -1;
  }
  if (!(s->alpha > 0 && s->alpha < 0.5)) {
    errf(err, errlen, "SPRT: alpha is %g; expected a number between 0 and 0.5", s->alpha);
    return -1;
  }
  if (!(s->beta > 0 && s->beta < 0.5)) {
    errf(err, errlen, "SPRT: beta is %g; expected a number between 0 and 0.5", s->beta);
    return -1;
  }
  if (s->model != RATING_MODEL_NORMALIZED && s->model != RATING_MODEL_LOGISTIC) {
    errf(err, errlen, "SPRT: unknown model");
    return -1;
  }
  return 0;
}

static int parse_double(const char *text, double *out) {
  char *end;
  if (!*text) return -1;
  double x = strtod(text, &end);
  if (*end || !isfinite(x)) return -1;
  *out = x;
  return 0;
}

int rating_sprt_parse(const char *text, rating_sprt *s, char *err, size_t errlen) {
  char buf[256];
  rating_sprt_default(s);
  if (!text || strlen(text) >= sizeof buf) {
    errf(err, errlen, "SPRT: expected elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=normalized|logistic]");
    return -1;
  }
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq) {
      errf(err, errlen, "SPRT: '%s' is not key=value (keys: elo0, elo1, alpha, beta, model)", tok);
      return -1;
    }
    *eq = 0;
    const char *key = tok, *val = eq + 1;
    double *dst = !strcmp(key, "elo0")    ? &s->elo0
                  : !strcmp(key, "elo1")  ? &s->elo1
                  : !strcmp(key, "alpha") ? &s->alpha
                  : !strcmp(key, "beta")  ? &s->beta
                                          : NULL;
    if (dst) {
      if (parse_double(val, dst)) {
        errf(err, errlen, "SPRT: %s is '%s'; expected a number", key, val);
        return -1;
      }
    } else if (!strcmp(key, "model")) {
      if (!strcmp(val, "normalized")) s->model = RATING_MODEL_NORMALIZED;
      else if (!strcmp(val, "logistic")) s->model = RATING_MODEL_LOGISTIC;
      else {
        errf(err, errlen, "SPRT: model is '%s'; expected normalized or logistic", val);
        return -1;
      }
    } else {
      errf(err, errlen, "SPRT: unknown key '%s' (keys: elo0, elo1, alpha, beta, model)", key);
      return -1;
    }
  }
  return rating_sprt_check(s, err, errlen);
}

double rating_sprt_lower(const rating_sprt *s) { return log(s->beta / (1 - s->alpha)); }
double rating_sprt_upper(const rating_sprt *s) { return log((1 - s->beta) / s->alpha); }

rating_decision rating_sprt_decide(const rating_sprt *s, double llr) {
  if (llr < rating_sprt_lower(s)) return RATING_ACCEPT_H0;
  if (llr > rating_sprt_upper(s)) return RATING_ACCEPT_H1;
  return RATING_CONTINUE;
}

const char *rating_decision_name(rating_decision d) {
  switch (d) {
  case RATING_ACCEPT_H0: return "H0 accepted";
  case RATING_ACCEPT_H1: return "H1 accepted";
  default: return "continue";
  }
}

/* The secular equation Σ p_i·a_i / (1 + x·a_i) = 0 (Van den Bergh,
 * "Comments on normalized Elo", eq. 1.3 / 4.9). */
typedef struct secular {
  const double *a, *p;
  int k;
} secular;

static double secular_f(double x, void *ctx) {
  const secular *s = ctx;
  double r = 0;
  for (int i = 0; i < s->k; i++) r += s->p[i] * s->a[i] / (1 + x * s->a[i]);
  return r;
}

/* The root x in (−1/max a, −1/min a), where the function falls from +∞ to
 * −∞; GSL's Brent solver. Needs min a < 0 < max a and every p > 0. */
static int secular_solve(const double *a, const double *p, int k, double *x) {
  double v = a[0], w = a[0];
  for (int i = 1; i < k; i++) {
    if (a[i] < v) v = a[i];
    if (a[i] > w) w = a[i];
  }
  if (!(v < 0 && w > 0)) return -1;
  secular s = {a, p, k};
  gsl_function f = {secular_f, &s};
  double lo = -1 / w, hi = -1 / v, width = hi - lo, eps = 1e-9 * width;
  /* Move in from the poles until the signs are right. */
  while (eps > 1e-300 && !(secular_f(lo + eps, &s) > 0 && secular_f(hi - eps, &s) < 0)) eps /= 16;
  double flo = secular_f(lo + eps, &s), fhi = secular_f(hi - eps, &s);
  if (!(flo > 0 && fhi < 0)) return -1;
  gsl_root_fsolver *solver = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
  if (!solver) return -1;
  int rc = -1;
  if (gsl_root_fsolver_set(solver, &f, lo + eps, hi - eps) == GSL_SUCCESS) {
    for (int it = 0; it < 500; it++) {
      if (gsl_root_fsolver_iterate(solver) != GSL_SUCCESS) break;
      double l = gsl_root_fsolver_x_lower(solver), u = gsl_root_fsolver_x_upper(solver);
      if (gsl_root_test_interval(l, u, 0, 1e-15) == GSL_SUCCESS || u - l < 1e-300) {
        *x = gsl_root_fsolver_root(solver);
        rc = 0;
        break;
      }
    }
  }
  gsl_root_fsolver_free(solver);
  return rc;
}

/* The distribution nearest (maximum likelihood) to the empirical phat whose
 * expectation is s: p_i = phat_i / (1 + x(a_i − s)) (Proposition 1.1 of Van
 * den Bergh's note on the multinomial MLE). */
static int mle_expected(const double *a, const double *phat, int k, double s, double *p) {
  double d[5], x;
  for (int i = 0; i < k; i++) d[i] = a[i] - s;
  if (secular_solve(d, phat, k, &x)) return -1;
  for (int i = 0; i < k; i++) p[i] = phat[i] / (1 + x * d[i]);
  return 0;
}

/* The same under the constraint (mu − ref)/sigma = t, by fixed-point
 * iteration from the uniform law (Van den Bergh, "Comments on normalized
 * Elo", section 4.1). */
static int mle_t_value(const double *a, const double *phat, int k, double ref, double t,
                       double *p) {
  double phi[5];
  for (int i = 0; i < k; i++) p[i] = 1.0 / k;
  for (int it = 0; it < 100; it++) {
    double mu, var, x;
    moments(a, p, k, &mu, &var);
    double sigma = sqrt(var);
    if (!(sigma > 0)) return -1;
    for (int i = 0; i < k; i++) {
      double z = (mu - a[i]) / sigma;
      phi[i] = a[i] - ref - t * sigma * (1 + z * z) / 2;
    }
    if (secular_solve(phi, phat, k, &x)) return -1;
    double diff = 0;
    for (int i = 0; i < k; i++) {
      double q = phat[i] / (1 + x * phi[i]);
      if (fabs(q - p[i]) > diff) diff = fabs(q - p[i]);
      p[i] = q;
    }
    if (diff < 1e-13) break;
  }
  return 0;
}

/* LLR of k categories (3: L, D, W; 5: the pairs) under the test s. */
static double sprt_llr(const rating_sprt *s, const long long *counts, int k) {
  double a[5], phat[5], c[5], n = 0, seen = 0;
  for (int i = 0; i < k; i++) {
    a[i] = (double)i / (k - 1);
    seen += (double)counts[i];
    c[i] = counts[i] > 0 ? (double)counts[i] : REGULARIZE;
    n += c[i];
  }
  if (seen <= 0) return 0;
  for (int i = 0; i < k; i++) phat[i] = c[i] / n;
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  double p0[5], p1[5], llr = 0;
  int ok;
  if (s->model == RATING_MODEL_LOGISTIC) {
    ok = !mle_expected(a, phat, k, score_of_elo(s->elo0), p0) &&
         !mle_expected(a, phat, k, score_of_elo(s->elo1), p1);
  } else {
    double scale = k == 5 ? sqrt(2.0) : 1.0;
    ok = !mle_t_value(a, phat, k, 0.5, s->elo0 / NELO_PER_T * scale, p0) &&
         !mle_t_value(a, phat, k, 0.5, s->elo1 / NELO_PER_T * scale, p1);
  }
  gsl_set_error_handler(old);
  if (ok) {
    for (int i = 0; i < k; i++) llr += phat[i] * (log(p1[i]) - log(p0[i]));
    llr *= n;
  }
  if (!ok || !isfinite(llr)) {
    /* Out of the MLE's reach: fishtest's closed-form approximations
     * (GSPRT_approximation.pdf; normalized_elo_practical.pdf §4.2). */
    double mu, var;
    moments(a, phat, k, &mu, &var);
    if (!(var > 0)) return 0;
    if (s->model == RATING_MODEL_LOGISTIC) {
      double s0 = score_of_elo(s->elo0), s1 = score_of_elo(s->elo1);
      llr = n * (s1 - s0) * (2 * mu - s0 - s1) / var / 2.0;
    } else {
      double sigma = k == 5 ? sqrt(2 * var) : sqrt(var), games = k == 5 ? 2 * n : n;
      double nt = (mu - 0.5) / sigma, t0 = s->elo0 / NELO_PER_T, t1 = s->elo1 / NELO_PER_T;
      llr = games / 2.0 * log((1 + (nt - t0) * (nt - t0)) / (1 + (nt - t1) * (nt - t1)));
    }
    if (!isfinite(llr)) llr = 0;
  }
  return llr;
}

double rating_sprt_llr_penta(const rating_sprt *s, const long long penta[5]) {
  return sprt_llr(s, penta, 5);
}

double rating_sprt_llr_wdl(const rating_sprt *s, long long wins, long long draws,
                           long long losses) {
  long long c[3] = {losses, draws, wins};
  return sprt_llr(s, c, 3);
}

rating_sprt_result rating_sprt_test(const rating_sprt *s, const rating_match *m, int use_wdl) {
  rating_sprt_result r;
  long long pairs = 0;
  for (int k = 0; k < 5; k++) pairs += m->penta[k];
  r.llr = use_wdl || pairs == 0 ? rating_sprt_llr_wdl(s, m->wins, m->draws, m->losses)
                                : rating_sprt_llr_penta(s, m->penta);
  r.lower = rating_sprt_lower(s);
  r.upper = rating_sprt_upper(s);
  r.decision = rating_sprt_decide(s, r.llr);
  return r;
}

void rating_match_print(FILE *out, const char *first, const char *second, const rating_match *m,
                        const rating_sprt *sprt) {
  rating_match_stats s;
  rating_match_compute(m, &s);
  int penta = s.pairs > 0;
  fprintf(out, "Results of %s vs %s:\n", first, second);
  fprintf(out, "Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f\n", penta ? s.penta_elo : s.elo,
          penta ? s.penta_err : s.elo_err, s.nelo, s.nelo_err);
  if (penta) fprintf(out, "Elo (trinomial): %.2f +/- %.2f\n", s.elo, s.elo_err);
  fprintf(out, "LOS: %.2f %%, DrawRatio: %.2f %%", s.los * 100.0,
          penta ? 100.0 * (double)m->penta[2] / (double)s.pairs : 100.0 * s.draw_ratio);
  if (penta) {
    if (m->penta[0] + m->penta[1] > 0) fprintf(out, ", PairsRatio: %.2f", s.pairs_ratio);
    else fprintf(out, ", PairsRatio: -");
  }
  fputc('\n', out);
  fprintf(out, "Games: %lld, Wins: %lld, Losses: %lld, Draws: %lld, Points: %.1f (%.2f %%)\n",
          s.games, m->wins, m->losses, m->draws, s.points, 100.0 * s.score);
  if (penta) {
    fprintf(out, "Ptnml(0-2): [%lld, %lld, %lld, %lld, %lld]", m->penta[0], m->penta[1],
            m->penta[2], m->penta[3], m->penta[4]);
    if (m->penta[2] - m->pairs_wl > 0) fprintf(out, ", WL/DD Ratio: %.2f\n", s.wl_dd_ratio);
    else fprintf(out, ", WL/DD Ratio: -\n");
  }
  if (sprt) {
    rating_sprt_result r = rating_sprt_test(sprt, m, 0);
    fprintf(out, "LLR: %.2f (%.2f, %.2f) [%.2f, %.2f] %s Elo, %s\n", r.llr, r.lower, r.upper,
            sprt->elo0, sprt->elo1, sprt->model == RATING_MODEL_NORMALIZED ? "normalized" : "logistic",
            rating_decision_name(r.decision));
  }
}

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

/* Collects run ids (store_runs_foreach gives them newest first). */
typedef struct id_list {
  int64_t *v;
  int n, cap, failed;
} id_list;

static int collect_id(void *ctx, const store_run *r) {
  id_list *l = ctx;
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    int64_t *v = realloc(l->v, (size_t)cap * sizeof *v);
    if (!v) {
      l->failed = 1;
      return 1;
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = r->id;
  return 0;
}

static int named_in(const store_pair_count *pc, int n, const char *name) {
  for (int k = 0; k < n; k++)
    if (!strcmp(pc[k].a, name) || !strcmp(pc[k].b, name)) return 1;
  return 0;
}

int rating_pool_load(rating_pool *p, store *db, const int64_t *runs, int nruns,
                     const char *vname, char *err, size_t errlen) {
  store_pair_count *pc = NULL;
  store_run *run = NULL;
  id_list all = {0};
  int n = 0, ret = -1;
  if (store_pair_counts(db, runs, nruns, vname, &pc, &n, err, errlen)) return -1;
  /* The players in the order of the runs' player lists (the first run
   * first), so that a run's player A comes before B; only those with games. */
  if (!nruns) {
    if (store_runs_foreach(db, collect_id, &all, err, errlen)) goto done;
    if (all.failed) goto oom;
    for (int i = 0; i < all.n / 2; i++) {
      int64_t t = all.v[i];
      all.v[i] = all.v[all.n - 1 - i];
      all.v[all.n - 1 - i] = t;
    }
    runs = all.v;
    nruns = all.n;
  }
  if (n && !(run = calloc(1, sizeof *run))) goto oom;
  for (int r = 0; n && r < nruns; r++) {
    if (store_run_load(db, runs[r], run, err, errlen)) goto done;
    for (int i = 0; i < run->nplayers; i++)
      if (named_in(pc, n, run->player_name[i]) && rating_pool_player(p, run->player_name[i]) < 0)
        goto oom;
    store_run_free(run);
  }
  for (int k = 0; k < n; k++) {
    int i = rating_pool_player(p, pc[k].a), j = rating_pool_player(p, pc[k].b);
    if (i < 0 || j < 0) goto oom;
    if (rating_pool_add(p, i, j, pc[k].wins, pc[k].draws, pc[k].losses) ||
        rating_pool_add_pairs(p, i, j, pc[k].penta, pc[k].pairs_wl)) {
      errf(err, errlen, "bad counts for %s vs %s", pc[k].a, pc[k].b);
      goto done;
    }
  }
  ret = 0;
  goto done;
oom:
  errf(err, errlen, "out of memory");
done:
  free(pc);
  store_run_free(run);
  free(run);
  free(all.v);
  return ret;
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

int rating_fit(const rating_pool *p, const rating_options *opt, rating_result *out, char *err,
               size_t errlen) {
  rating_options defaults = {NULL, 0, 0, 1, 0};
  if (!opt) opt = &defaults;
  memset(out, 0, sizeof *out);
  int n = p->n, anchor = -1, ret = -1;
  if (opt->bootstrap < 0 || opt->prior < 0 || !isfinite(opt->prior) || !isfinite(opt->anchor_elo)) {
    errf(err, errlen, "bad options (bootstrap %d, prior %g, anchor Elo %g)", opt->bootstrap,
         opt->prior, opt->anchor_elo);
    return -1;
  }
  if (opt->anchor && *opt->anchor) {
    for (int i = 0; i < n; i++)
      if (!strcmp(p->name[i], opt->anchor)) anchor = i;
    if (anchor < 0) {
      errf(err, errlen, "unknown anchor '%s': no such player in the games rated", opt->anchor);
      return -1;
    }
  }
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
    errf(err, errlen, "out of memory (%d players)", n);
    goto done;
  }
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
  fit_data f = {n, W, D, opt->prior > 0 ? opt->prior : RATING_PRIOR_DRAWS};
  fit_out o = {r, marked, 0, 0};
  if (fit_core(&f, &o, out->cov)) {
    errf(err, errlen, "the fit failed (the information matrix is not positive definite)");
    goto done;
  }
  out->iterations = o.iterations;
  out->regularized = o.regularized;
  /* To Elo, anchored; the covariance follows the anchor's translation. */
  double k2 = ELO_PER_NAT * ELO_PER_NAT;
  for (size_t q = 0; q < nn; q++) out->cov[q] *= k2;
  for (int i = 0; i < n; i++) r[i] *= ELO_PER_NAT;
  anchor_elo(r, n, anchor, opt->anchor_elo);
  if (anchor >= 0) {
    /* e' = e − e_a: C'_ij = C_ij − C_ia − C_aj + C_aa. */
    double *C = out->cov, *ca = malloc((size_t)n * sizeof *ca), caa = C[(size_t)anchor * n + anchor];
    if (!ca) {
      errf(err, errlen, "out of memory");
      goto done;
    }
    for (int i = 0; i < n; i++) ca[i] = C[(size_t)i * n + anchor];
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) C[(size_t)i * n + j] += caa - ca[i] - ca[j];
    for (int i = 0; i < n; i++) {
      C[(size_t)anchor * n + i] = C[(size_t)i * n + anchor] = 0;
      if (C[(size_t)i * n + i] < 0) C[(size_t)i * n + i] = 0;
    }
    free(ca);
  }
  double z = z95();
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
      else if (v > 1e-12) los = phi_cdf(d / sqrt(v));
      else los = fabs(d) < 1e-9 ? 0.5 : d > 0 ? 1.0 : 0.0;
      out->los[(size_t)i * n + j] = los;
    }
  if (opt->bootstrap > 0 && n > 1 && bootstrap(&f, opt, anchor, out)) {
    errf(err, errlen, "the bootstrap failed (out of memory)");
    goto done;
  }
  rank_key *keys = malloc((size_t)n * sizeof *keys);
  if (!keys) {
    errf(err, errlen, "out of memory");
    goto done;
  }
  for (int i = 0; i < n; i++) keys[i] = (rank_key){out->player[i].elo, out->player[i].name, i};
  qsort(keys, (size_t)n, sizeof *keys, by_rank);
  for (int k = 0; k < n; k++) {
    out->order[k] = keys[k].index;
    out->player[keys[k].index].rank = k + 1;
  }
  free(keys);
  ret = 0;
done:
  gsl_set_error_handler(old);
  free(W);
  free(D);
  free(r);
  free(marked);
  return ret;
}

/* ================================================================ output */

static int name_width(const rating_result *r, int lo, int hi) {
  int w = lo;
  for (int i = 0; i < r->n; i++) {
    int l = (int)strlen(r->player[i].name);
    if (l > w) w = l;
  }
  return w > hi ? hi : w;
}

void rating_print_table(FILE *out, const rating_result *r) {
  int w = name_width(r, 4, 40), bounded = 0;
  fprintf(out, "%4s  %-*s %8s %7s %7s %8s %7s %7s\n", "Rank", w, "Name", "Elo", "-", "+", "Games",
          "Score", "Draw");
  for (int k = 0; k < r->n; k++) {
    const rating_player *p = &r->player[r->order[k]];
    bounded |= p->bounded;
    fprintf(out, "%4d  %-*.*s %8.1f%c%7.1f %7.1f %8lld %6.1f%% %6.1f%%\n", p->rank, w, w, p->name,
            p->elo, p->bounded ? '*' : ' ', p->elo - p->lo, p->hi - p->elo, p->games,
            100.0 * p->score, 100.0 * p->draw_ratio);
  }
  fprintf(out, "%lld games; 95%% intervals from %s", r->games,
          r->bootstrap ? "the bootstrap" : "the covariance of the fit");
  if (r->bootstrap) fprintf(out, " (%d resamples)", r->bootstrap);
  fputs(".\n", out);
  if (bounded)
    fputs("* bounded estimate: only wins or only losses, or not connected to the rest of the pool\n"
          "  by wins both ways; held finite by virtual draws against the pool average\n"
          "  (docs/STATISTICS.md).\n",
          out);
}

void rating_print_los(FILE *out, const rating_result *r) {
  if (r->n < 2) return;
  int w = name_width(r, 4, 24);
  fprintf(out, "Likelihood of superiority (%%, row better than column):\n%4s  %-*s", "", w, "");
  for (int k = 0; k < r->n; k++) fprintf(out, " %5d", k + 1);
  fputc('\n', out);
  for (int a = 0; a < r->n; a++) {
    int i = r->order[a];
    fprintf(out, "%4d  %-*.*s", a + 1, w, w, r->player[i].name);
    for (int b = 0; b < r->n; b++) {
      int j = r->order[b];
      if (i == j) fprintf(out, " %5s", "-");
      else fprintf(out, " %5.1f", 100.0 * r->los[(size_t)i * r->n + j]);
    }
    fputc('\n', out);
  }
}

void rating_to_store(const rating_result *r, int64_t run_id, const char *scope,
                     store_rating *rows) {
  for (int k = 0; k < r->n; k++) {
    const rating_player *p = &r->player[r->order[k]];
    store_rating *s = &rows[k];
    memset(s, 0, sizeof *s);
    s->run_id = run_id;
    snprintf(s->scope, sizeof s->scope, "%s", scope ? scope : "");
    snprintf(s->player, sizeof s->player, "%s", p->name);
    s->elo = p->elo;
    s->lo = p->lo < p->hi ? p->lo : p->hi;
    s->hi = p->lo < p->hi ? p->hi : p->lo;
    s->games = p->games;
    s->score = p->score;
    s->draws = p->draw_ratio;
    s->games_total = r->games;
    s->bound = p->bounded;
  }
}

int rating_print_run(store *db, int64_t run_id, FILE *out, int save, const rating_sprt *sprt,
                     char *err, size_t errlen) {
  rating_pool pool;
  rating_result res;
  rating_pool_init(&pool);
  memset(&res, 0, sizeof res);
  int ret = -1;
  if (rating_pool_load(&pool, db, &run_id, 1, NULL, err, errlen)) goto done;
  if (pool.n == 0) {
    fprintf(out, "No games to rate in run %" PRId64 ".\n", run_id);
    ret = 0;
    goto done;
  }
  rating_options opt = {NULL, 0, 0, 1, 0};
  if (rating_fit(&pool, &opt, &res, err, errlen)) goto done;
  fprintf(out, "Ratings of run %" PRId64 " (Bradley-Terry maximum likelihood, Elo):\n", run_id);
  rating_print_table(out, &res);
  if (pool.n == 2) {
    /* The run's first player first (the one an SPRT tests). */
    store_run *run = calloc(1, sizeof *run);
    int a = res.order[0], b = res.order[1];
    if (run && !store_run_load(db, run_id, run, err, errlen) && run->nplayers > 0 &&
        !strcmp(run->player_name[0], pool.name[b])) {
      a = b;
      b = res.order[0];
    }
    store_run_free(run);
    free(run);
    rating_match m;
    rating_pool_match(&pool, a, b, &m);
    fputc('\n', out);
    rating_match_print(out, pool.name[a], pool.name[b], &m, sprt);
  } else {
    fputc('\n', out);
    rating_print_los(out, &res);
  }
  if (save) {
    store_rating *rows = calloc((size_t)res.n, sizeof *rows);
    char scope[64];
    snprintf(scope, sizeof scope, "run %" PRId64, run_id);
    if (!rows) {
      errf(err, errlen, "out of memory");
      goto done;
    }
    rating_to_store(&res, run_id, scope, rows);
    int rc = store_ratings_insert(db, rows, res.n, err, errlen);
    free(rows);
    if (rc) goto done;
  }
  ret = 0;
done:
  rating_result_free(&res);
  rating_pool_free(&pool);
  return ret;
}
