/* sprt.c: fishtest's generalized SPRT on W/D/L or pair counts, and the parsing of its settings (docs/STATISTICS.md). */
#include "stats/sprt.h"
#include "core/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "stats/stats_common.h"

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
    error_set(err, errlen, "rating: SPRT: elo0 and elo1 must be numbers from -500 to 500");
    return -1;
  }
  if (!(s->elo0 < s->elo1)) {
    error_set(err, errlen, "rating: SPRT: elo0 (%g) must be less than elo1 (%g)", s->elo0, s->elo1);
    return -1;
  }
  if (!(s->alpha > 0 && s->alpha < 0.5)) {
    error_set(err, errlen, "rating: SPRT: alpha is %g; expected a number between 0 and 0.5", s->alpha);
    return -1;
  }
  if (!(s->beta > 0 && s->beta < 0.5)) {
    error_set(err, errlen, "rating: SPRT: beta is %g; expected a number between 0 and 0.5", s->beta);
    return -1;
  }
  if (s->model != RATING_MODEL_NORMALIZED && s->model != RATING_MODEL_LOGISTIC) {
    error_set(err, errlen, "rating: SPRT: unknown model");
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

#define SPRT_FORM "elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=normalized|logistic]"

/* The keys of the settings, in the order of their bit in parse_item's seen. */
static const char *const sprt_keys[] = {"elo0", "elo1", "alpha", "beta", "model"};
enum { SPRT_NKEYS = sizeof sprt_keys / sizeof *sprt_keys };

/* One item "key=value" into s; *seen has a bit for each key given so far
 * (each key once). */
static int parse_item(char *item, rating_sprt *s, unsigned *seen, char *err, size_t errlen) {
  char *eq = strchr(item, '=');
  if (!eq) {
    error_set(err, errlen, "rating: SPRT: '%s' is not key=value (keys: elo0, elo1, alpha, beta, model)", item);
    return -1;
  }
  *eq = 0;
  const char *key = item, *val = eq + 1;
  int k = 0;
  while (k < SPRT_NKEYS && strcmp(key, sprt_keys[k])) k++;
  if (k == SPRT_NKEYS) {
    error_set(err, errlen, "rating: SPRT: unknown key '%s' (keys: elo0, elo1, alpha, beta, model)", key);
    return -1;
  }
  if (*seen & 1u << k) {
    error_set(err, errlen, "rating: SPRT: %s is given twice", key);
    return -1;
  }
  *seen |= 1u << k;
  if (!strcmp(key, "model")) {
    if (!strcmp(val, "normalized")) s->model = RATING_MODEL_NORMALIZED;
    else if (!strcmp(val, "logistic")) s->model = RATING_MODEL_LOGISTIC;
    else {
      error_set(err, errlen, "rating: SPRT: model is '%s'; expected normalized or logistic", val);
      return -1;
    }
    return 0;
  }
  double *dst[] = {&s->elo0, &s->elo1, &s->alpha, &s->beta};
  if (parse_double(val, dst[k])) {
    error_set(err, errlen, "rating: SPRT: %s is '%s'; expected a number", key, val);
    return -1;
  }
  return 0;
}

static int sprt_parse(const char *text, int required, rating_sprt *s, char *err, size_t errlen);

int rating_sprt_parse(const char *text, rating_sprt *s, char *err, size_t errlen) {
  return sprt_parse(text, 1, s, err, errlen);
}

int rating_sprt_parse_stored(const char *text, rating_sprt *s, char *err, size_t errlen) {
  return sprt_parse(text, 0, s, err, errlen);
}

/* required: elo0 and elo1 must be given (a new run's --sprt); 0: a stored
 * run's text, from before they were required, keeps the defaults. */
static int sprt_parse(const char *text, int required, rating_sprt *s, char *err, size_t errlen) {
  char buf[256];
  rating_sprt_default(s);
  if (!text || !*text) {
    error_set(err, errlen, "rating: SPRT: no settings; expected " SPRT_FORM);
    return -1;
  }
  if (strlen(text) >= sizeof buf) {
    error_set(err, errlen,
              "rating: SPRT: the settings are longer than %zu characters; expected " SPRT_FORM,
              sizeof buf - 1);
    return -1;
  }
  snprintf(buf, sizeof buf, "%s", text);
  unsigned seen = 0;
  for (char *item = buf;;) {
    char *comma = strchr(item, ',');
    if (comma) *comma = 0;
    if (!*item) {
      error_set(err, errlen, "rating: SPRT: '%s' has an empty item; expected " SPRT_FORM, text);
      return -1;
    }
    if (parse_item(item, s, &seen, err, errlen)) return -1;
    if (!comma) break;
    item = comma + 1;
  }
  for (int k = 0; k < 2 && required; k++)
    if (!(seen & 1u << k)) {
      error_set(err, errlen, "rating: SPRT: '%s' gives no %s; expected " SPRT_FORM, text,
                sprt_keys[k]);
      return -1;
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
 * iteration from the law `start` (Van den Bergh, "Comments on normalized
 * Elo", section 4.1). 0 when it converged to a law that meets the
 * constraint; -1 when a step has no root or it did not converge. */
static int mle_t_from(const double *a, const double *phat, int k, double ref, double t,
                      const double *start, double *p) {
  double phi[5], diff = 1;
  for (int i = 0; i < k; i++) p[i] = start[i];
  for (int it = 0; it < 200 && diff >= 1e-13; it++) {
    double mu, var, x;
    stats_moments(a, p, k, &mu, &var);
    double sigma = sqrt(var);
    if (!(sigma > 0)) return -1;
    for (int i = 0; i < k; i++) {
      double z = (mu - a[i]) / sigma;
      phi[i] = a[i] - ref - t * sigma * (1 + z * z) / 2;
    }
    if (secular_solve(phi, phat, k, &x)) return -1;
    diff = 0;
    for (int i = 0; i < k; i++) {
      double q = phat[i] / (1 + x * phi[i]);
      if (fabs(q - p[i]) > diff) diff = fabs(q - p[i]);
      p[i] = q;
    }
  }
  double mu, var;
  stats_moments(a, p, k, &mu, &var);
  return diff < 1e-9 && var > 0 && fabs((mu - ref) / sqrt(var) - t) < 1e-6 ? 0 : -1;
}

/* From the uniform law (the note's start). Where a hypothesis is far out
 * (above some 230 nElo a pair, 340 a game) every phi is negative there and
 * the first step has no root: then from the empirical law, and failing
 * that by continuation, t reached in steps from 0, each step started from
 * the law of the one before. */
static int mle_t_value(const double *a, const double *phat, int k, double ref, double t,
                       double *p) {
  double u[5], q[5];
  for (int i = 0; i < k; i++) u[i] = 1.0 / k;
  if (!mle_t_from(a, phat, k, ref, t, u, p) || !mle_t_from(a, phat, k, ref, t, phat, p)) return 0;
  enum { STEPS = 64 };
  if (mle_t_from(a, phat, k, ref, 0, u, q)) return -1;
  for (int step = 1; step <= STEPS; step++) {
    if (mle_t_from(a, phat, k, ref, t * step / STEPS, q, p)) return -1;
    for (int i = 0; i < k; i++) q[i] = p[i];
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
    ok = !mle_expected(a, phat, k, stats_score_of_elo(s->elo0), p0) &&
         !mle_expected(a, phat, k, stats_score_of_elo(s->elo1), p1);
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
    stats_moments(a, phat, k, &mu, &var);
    if (!(var > 0)) return 0;
    if (s->model == RATING_MODEL_LOGISTIC) {
      double s0 = stats_score_of_elo(s->elo0), s1 = stats_score_of_elo(s->elo1);
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
