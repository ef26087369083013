/* level_curve.h: a player at any Elo between calibrated levels: the one option in which the levels' specs differ (the knob), interpolated between the two nearest levels. */
#ifndef OWARE_LEVEL_CURVE_H
#define OWARE_LEVEL_CURVE_H

#include <stddef.h>

/* The calibration points: n levels' specs and measured Elos (n <= 256). */
typedef struct level_curve_points {
  const char *const *spec;
  const double *elo;
  const char *const *name; /* the levels' names, for messages */
  int n;
} level_curve_points;

/* The range of Elo the points span. 0, or -1 with err (see level_curve_spec). */
int level_curve_range(const level_curve_points *pts, double *lo, double *hi, char *err,
                      size_t errlen);

/* The spec of a player at Elo `elo`: the specs must be of one player type
 * with the same options (name= and seed= aside) and differ in the value of
 * one numeric option, the knob, whose values rise or fall with the Elo.
 * The knob is interpolated between the two levels whose Elos enclose elo:
 * in log(knob) when every value is positive (as `oware calibrate --log`
 * searches playouts, nodes, depth), else linearly; rounded when every
 * value is a whole number. The spec is that of the level below with the
 * knob's value replaced. 0, or -1 with err: fewer than two points, specs
 * that do not differ in exactly one numeric option, Elos not monotone in
 * the knob, elo outside the range, a spec longer than len. */
int level_curve_spec(const level_curve_points *pts, double elo, char *out, size_t len, char *err,
                     size_t errlen);

#endif
