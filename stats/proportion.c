/* proportion.c: Wilson intervals, the pooled two-proportion z-test, Holm's correction and the balance interval. */
#include "stats/proportion.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#define Z95 1.959963984540054 /* the 97.5% quantile of the normal law */

void proportion_wilson(double k, long long n, proportion_interval *out) {
  if (n <= 0) {
    out->value = NAN, out->lo = 0, out->hi = 1;
    return;
  }
  double nn = (double)n, p = k / nn, z2n = Z95 * Z95 / nn;
  double centre = (p + z2n / 2) / (1 + z2n);
  double half = Z95 * sqrt(fmax(0.0, p * (1 - p)) / nn + z2n / (4 * nn)) / (1 + z2n);
  out->value = p;
  out->lo = fmax(0.0, centre - half);
  out->hi = fmin(1.0, centre + half);
  if (out->lo > p) out->lo = p; /* rounding at p = 0 or 1 */
  if (out->hi < p) out->hi = p;
}

double proportion_ztest(double k1, long long n1, double k2, long long n2, double *z) {
  *z = 0;
  if (n1 <= 0 || n2 <= 0) return 1.0;
  double p1 = k1 / (double)n1, p2 = k2 / (double)n2;
  double p = (k1 + k2) / (double)(n1 + n2);
  double var = p * (1 - p) * (1.0 / (double)n1 + 1.0 / (double)n2);
  if (!(var > 0)) return 1.0;
  *z = (p1 - p2) / sqrt(var);
  return fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(*z)));
}

void proportion_holm(const double *p, double *adj, int n) {
  if (n <= 0) return;
  int *idx = malloc((size_t)n * sizeof *idx);
  double *in = malloc((size_t)n * sizeof *in);
  if (!idx || !in) { /* no memory: Bonferroni, which Holm never exceeds */
    for (int i = 0; i < n; i++) adj[i] = fmin(1.0, p[i] * n);
    free(idx);
    free(in);
    return;
  }
  for (int i = 0; i < n; i++) idx[i] = i, in[i] = p[i];
  for (int i = 1; i < n; i++) /* insertion sort by p: n is small */
    for (int j = i; j > 0 && in[idx[j]] < in[idx[j - 1]]; j--) {
      int t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
  double run = 0;
  for (int r = 0; r < n; r++) {
    double a = fmin(1.0, (double)(n - r) * in[idx[r]]);
    if (a > run) run = a;
    adj[idx[r]] = run;
  }
  free(idx);
  free(in);
}

void proportion_balance(long long south_wins, long long north_wins, long long n, proportion_interval *out) {
  if (n <= 0) {
    out->value = NAN, out->lo = 0, out->hi = 1;
    return;
  }
  double ws = (double)south_wins / (double)n, wn = (double)north_wins / (double)n, d = ws - wn;
  double se = sqrt(fmax(0.0, ws + wn - d * d) / (double)n);
  double dlo = d - Z95 * se, dhi = d + Z95 * se;
  double far = fmax(fabs(dlo), fabs(dhi)), near = fmin(fabs(dlo), fabs(dhi));
  out->value = 1 - fabs(d);
  out->lo = fmax(0.0, 1 - far);
  out->hi = dlo <= 0 && dhi >= 0 ? 1.0 : 1 - near;
}
