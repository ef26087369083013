/* interp.c: piecewise-linear interpolation along a monotone curve, both ways. */
#include "core/interp.h"

#include <math.h>

/* The point a fraction f of the way from xa to xb, in x or in log x. */
static double between(double xa, double xb, int log_x, double f) {
  if (log_x) return exp(log(xa) + f * (log(xb) - log(xa)));
  return xa + f * (xb - xa);
}

double interp_y(const double *x, const double *y, int n, int log_x, double at) {
  if (at <= x[0]) return y[0];
  if (at >= x[n - 1]) return y[n - 1];
  int i = 0;
  while (at > x[i + 1]) i++;
  double f = log_x ? (log(at) - log(x[i])) / (log(x[i + 1]) - log(x[i]))
                   : (at - x[i]) / (x[i + 1] - x[i]);
  return y[i] + f * (y[i + 1] - y[i]);
}

double interp_x(const double *x, const double *y, int n, int log_x, double y0) {
  double s = y[n - 1] >= y[0] ? 1.0 : -1.0; /* s·y is non-decreasing */
  if (s * y0 <= s * y[0]) {
    int j = 0; /* a flat start at y0: its middle */
    while (j + 1 < n && y[j + 1] == y0) j++;
    return y[0] == y0 ? between(x[0], x[j], log_x, 0.5) : x[0];
  }
  if (s * y0 >= s * y[n - 1]) {
    int j = n - 1;
    while (j > 0 && y[j - 1] == y0) j--;
    return y[n - 1] == y0 ? between(x[j], x[n - 1], log_x, 0.5) : x[n - 1];
  }
  int i = 0;
  while (s * y[i + 1] < s * y0) i++;
  if (y[i + 1] == y0) { /* y0 is reached at a point: the middle of its stretch */
    int j = i + 1;
    while (j + 1 < n && y[j + 1] == y0) j++;
    return between(x[i + 1], x[j], log_x, 0.5);
  }
  return between(x[i], x[i + 1], log_x, (y0 - y[i]) / (y[i + 1] - y[i]));
}
