/* level_curve.c: a player at any Elo between calibrated levels, its knob interpolated between the two nearest. */
#include "players/level_curve.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/interp.h"
#include "players/player.h"

#define CURVE_POINTS 256
#define CURVE_ITEMS 64

/* A spec cut into its options (name= and seed= left out). */
typedef struct split_spec {
  char *text; /* owned: the keys and values, NUL-terminated */
  size_t type_len;
  int n;
  const char *key[CURVE_ITEMS], *value[CURVE_ITEMS];
  size_t start[CURVE_ITEMS], end[CURVE_ITEMS]; /* the item's place in the spec */
} split_spec;

static int split(const char *spec, split_spec *s, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  const char *colon = strchr(spec, ':');
  s->type_len = colon ? (size_t)(colon - spec) : strlen(spec);
  if (!colon) return 0;
  if (!(s->text = malloc(2 * strlen(spec) + 2))) return error_set(err, errlen, "out of memory"), -1;
  char *w = s->text;
  for (const char *p = colon + 1; *p;) {
    size_t start = (size_t)(p - spec);
    if (player_spec_item(spec, &p, w, err, errlen)) return -1;
    char *eq = strchr(w, '=');
    if (!eq) return error_set(err, errlen, "'%s' is not key=value", w), -1;
    *eq = '\0';
    if (strcmp(w, "name") && strcmp(w, "seed")) {
      if (s->n == CURVE_ITEMS) return error_set(err, errlen, "more than %d options", CURVE_ITEMS), -1;
      s->key[s->n] = w, s->value[s->n] = eq + 1;
      s->start[s->n] = start, s->end[s->n] = (size_t)(p - spec);
      s->n++;
    }
    w = eq + 1 + strlen(eq + 1) + 1;
    if (*p == ',') p++;
  }
  return 0;
}

static int number(const char *s, double *x, int *whole) {
  char *end;
  errno = 0;
  *x = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(*x)) return -1;
  long long i = strtoll(s, &end, 10);
  *whole = !*end && (double)i == *x;
  return 0;
}

/* The points as a curve: knob values (sorted), their Elos, and where each
 * came from. */
typedef struct curve {
  split_spec sp[CURVE_POINTS];
  int n, knob;          /* the knob's index among the items */
  int log_x, whole;
  double x[CURVE_POINTS], y[CURVE_POINTS];
  int from[CURVE_POINTS]; /* the point each (x, y) is */
} curve;

static void curve_free(curve *c) {
  for (int i = 0; i < c->n; i++) free(c->sp[i].text);
}

/* The option in which every spec differs from the first: -1 with err when
 * the specs are of other types, other options, or differ in more than one. */
static int find_knob(const level_curve_points *pts, curve *c, char *err, size_t errlen) {
  const split_spec *b = &c->sp[0];
  int knob = -1;
  for (int i = 1; i < pts->n; i++) {
    const split_spec *s = &c->sp[i];
    if (s->type_len != b->type_len || strncmp(pts->spec[i], pts->spec[0], b->type_len) ||
        s->n != b->n)
      return error_set(err, errlen, "levels %s and %s are not the same player with other values",
                       pts->name[0], pts->name[i]), -1;
    for (int k = 0; k < b->n; k++) {
      if (strcmp(s->key[k], b->key[k]))
        return error_set(err, errlen, "levels %s and %s have other options ('%s', '%s')",
                         pts->name[0], pts->name[i], b->key[k], s->key[k]), -1;
      if (!strcmp(s->value[k], b->value[k]) || k == knob) continue;
      if (knob >= 0)
        return error_set(err, errlen, "the levels differ in more than one option (%s and %s)",
                         b->key[knob], b->key[k]), -1;
      knob = k;
    }
  }
  if (knob < 0) return error_set(err, errlen, "the levels' specs do not differ"), -1;
  return knob;
}

/* The curve of pts: the knob, its values sorted with their Elos. 0, or -1. */
static int curve_make(const level_curve_points *pts, curve *c, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  if (pts->n < 2) return error_set(err, errlen, "fewer than two levels with a measured Elo"), -1;
  if (pts->n > CURVE_POINTS) return error_set(err, errlen, "more than %d levels", CURVE_POINTS), -1;
  for (; c->n < pts->n; c->n++) {
    char e[ERROR_MAX];
    if (split(pts->spec[c->n], &c->sp[c->n], e, sizeof e)) {
      c->n++;
      return error_set(err, errlen, "level %s: %s", pts->name[c->n - 1], e), -1;
    }
  }
  if ((c->knob = find_knob(pts, c, err, errlen)) < 0) return -1;
  const char *key = c->sp[0].key[c->knob];
  c->log_x = c->whole = 1;
  for (int i = 0; i < pts->n; i++) {
    int whole, j = i;
    double v;
    if (number(c->sp[i].value[c->knob], &v, &whole))
      return error_set(err, errlen, "level %s: %s=%s is not a number", pts->name[i], key,
                       c->sp[i].value[c->knob]), -1;
    c->log_x &= v > 0;
    c->whole &= whole;
    for (; j > 0 && c->x[j - 1] > v; j--) c->x[j] = c->x[j - 1], c->y[j] = c->y[j - 1], c->from[j] = c->from[j - 1];
    c->x[j] = v, c->y[j] = pts->elo[i], c->from[j] = i;
  }
  for (int i = 1; i < pts->n; i++) {
    if (c->x[i] == c->x[i - 1])
      return error_set(err, errlen, "levels %s and %s have the same %s", pts->name[c->from[i - 1]],
                       pts->name[c->from[i]], key), -1;
    if ((c->y[i] - c->y[i - 1]) * (c->y[pts->n - 1] - c->y[0]) <= 0)
      return error_set(err, errlen, "the levels' Elos do not rise or fall with %s (%s, %s)", key,
                       pts->name[c->from[i - 1]], pts->name[c->from[i]]), -1;
  }
  return 0;
}

int level_curve_range(const level_curve_points *pts, double *lo, double *hi, char *err,
                      size_t errlen) {
  curve *c = malloc(sizeof *c);
  if (!c) return error_set(err, errlen, "out of memory"), -1;
  int rc = curve_make(pts, c, err, errlen);
  if (!rc) {
    *lo = fmin(c->y[0], c->y[c->n - 1]);
    *hi = fmax(c->y[0], c->y[c->n - 1]);
  }
  curve_free(c);
  free(c);
  return rc;
}

int level_curve_spec(const level_curve_points *pts, double elo, char *out, size_t len, char *err,
                     size_t errlen) {
  curve *c = malloc(sizeof *c);
  if (!c) return error_set(err, errlen, "out of memory"), -1;
  int rc = -1;
  if (curve_make(pts, c, err, errlen)) goto done;
  double lo = fmin(c->y[0], c->y[c->n - 1]), hi = fmax(c->y[0], c->y[c->n - 1]);
  if (!(elo >= lo && elo <= hi)) {
    error_set(err, errlen, "Elo %g is outside the levels' range [%.0f, %.0f]", elo, ceil(lo), floor(hi));
    goto done;
  }
  double k = interp_x(c->x, c->y, c->n, c->log_x, elo);
  /* The spec of the level below (in Elo) with the knob's value replaced. */
  int below = 0;
  for (int i = 0; i < c->n; i++)
    if (c->y[i] <= elo && (c->y[below] > elo || c->y[i] > c->y[below])) below = i;
  const char *spec = pts->spec[c->from[below]];
  const split_spec *s = &c->sp[c->from[below]];
  char value[64];
  if (c->whole) snprintf(value, sizeof value, "%lld", llround(k));
  else snprintf(value, sizeof value, "%.6g", k);
  int w = snprintf(out, len, "%.*s%s=%s%s", (int)s->start[c->knob], spec, s->key[c->knob], value,
                   spec + s->end[c->knob]);
  if (w < 0 || (size_t)w >= len) error_set(err, errlen, "the spec is too long");
  else rc = 0;
done:
  curve_free(c);
  free(c);
  return rc;
}
