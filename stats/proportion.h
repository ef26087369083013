/* proportion.h: proportions and their comparison: Wilson intervals, the pooled two-proportion z-test, Holm's correction, the balance of two win rates (docs/VARIANTS.md). */
#ifndef OWARE_PROPORTION_H
#define OWARE_PROPORTION_H

/* An estimate and its 95% interval. value is NaN when it does not apply
 * (no games, or e.g. the share of grand slams played where none was ever
 * available). */
typedef struct proportion_interval {
  double value, lo, hi;
} proportion_interval;

/* Wilson 95% interval of k successes (may be fractional) out of n. n = 0:
 * value NaN, interval [0, 1]. */
void proportion_wilson(double k, long long n, proportion_interval *out);

/* Pooled two-proportion z-test of k1/n1 against k2/n2; returns the
 * two-sided p-value (2·Q(|z|), GSL) and sets *z (0 and p = 1 when the
 * pooled variance is 0 or a sample is empty). */
double proportion_ztest(double k1, long long n1, double k2, long long n2, double *z);

/* Holm's step-down adjustment of n p-values into adj (may alias p). */
void proportion_holm(const double *p, double *adj, int n);

/* 1 − |wS − wN| from South's and North's win counts out of n, with the
 * normal interval of the difference d = wS − wN (Var d = (wS + wN − d²) / n)
 * mapped through 1 − |d|. n = 0: value NaN, interval [0, 1]. */
void proportion_balance(long long south_wins, long long north_wins, long long n,
                        proportion_interval *out);

#endif
