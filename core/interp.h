/* interp.h: piecewise-linear interpolation along a monotone curve given by its points, in x or in log x, both ways. */
#ifndef OWARE_INTERP_H
#define OWARE_INTERP_H

/* The curve through (x[i], y[i]), i < n, x strictly increasing (n >= 1),
 * straight between neighbouring points in x or, with log_x (every x > 0),
 * in log x. Beyond the ends it is flat: the end's y. */
double interp_y(const double *x, const double *y, int n, int log_x, double at);

/* The x at which the same curve reaches y0, for y monotone (non-decreasing
 * or non-increasing): inside the segment that holds y0 (the middle of a flat
 * stretch at y0), or the end whose y is the closer when y0 is beyond them. */
double interp_x(const double *x, const double *y, int n, int log_x, double y0);

#endif
