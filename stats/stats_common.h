/* stats_common.h: what the statistics files share (units, the normal law, Elo from a score); internal to stats/. */
#ifndef OWARE_STATS_COMMON_H
#define OWARE_STATS_COMMON_H

#include <math.h>
#include <stddef.h>

#include <gsl/gsl_cdf.h>

#include "core/error.h" /* error_set: messages into the caller's buffer; stats/ prints nothing */

#define LN10 2.302585092994045684
#define ELO_PER_NAT (400.0 / LN10)          /* Elo of one unit of natural log-odds */
#define NELO_PER_T (800.0 / LN10)           /* normalized Elo per unit of t (fishtest) */
#define REGULARIZE 1e-3                     /* fishtest's stand-in for an empty category */
#define SCORE_CLAMP 1e-3                    /* fishtest's elo(): score kept in [1e-3, 1−1e-3] */

/* 1.959964…: the 97.5% quantile of the standard normal law. */
static inline double stats_z95(void) { return gsl_cdf_ugaussian_Pinv(0.975); }

/* fishtest's elo(): −400·log10(1/s − 1), s clamped into [1e-3, 1 − 1e-3]. */
static inline double stats_elo_of_score(double s) {
  if (!(s >= SCORE_CLAMP)) s = SCORE_CLAMP; /* also catches NaN */
  if (s > 1 - SCORE_CLAMP) s = 1 - SCORE_CLAMP;
  return -400.0 * log10(1.0 / s - 1.0);
}

static inline double stats_score_of_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* Φ(x), with the limits for infinite arguments. */
static inline double stats_phi(double x) { return gsl_cdf_ugaussian_P(x); }

/* Mean and variance of a discrete law: values a, weights c (not normalized). */
static inline void stats_moments(const double *a, const double *c, int k, double *mu,
                                 double *var) {
  double n = 0, s = 0, v = 0;
  for (int i = 0; i < k; i++) n += c[i];
  for (int i = 0; i < k; i++) s += c[i] * a[i];
  s /= n;
  for (int i = 0; i < k; i++) v += c[i] * (a[i] - s) * (a[i] - s);
  *mu = s;
  *var = v / n;
}

#endif
