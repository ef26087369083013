/* calibrate.c: difficulty calibration: a monotone search on one player knob for target Elos, and its evaluator on real games. */
#include "tuner/calibrate.h"
#include "core/error.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/pairs.h"
#include "players/player.h"

#define LN10 2.302585092994045684
#define DEFAULT_TOLERANCE 50.0
#define DEFAULT_MAX_EVALS 64
#define MIN_SE_TARGET 5.0

const char *calibrate_status_name(calibrate_status s) {
  switch (s) {
  case CALIBRATE_OK: return "ok";
  case CALIBRATE_COARSE: return "coarse";
  case CALIBRATE_UNREACHABLE: return "unreachable";
  }
  return "?";
}

/* ================================================================ levels */

int calibrate_parse_levels(const char *text, calibrate_level *out, int *n, char *err,
                           size_t errlen) {
  *n = 0;
  const char *p = text;
  while (*p) {
    const char *end = strchr(p, ';');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char item[256];
    if (len >= sizeof item) {
      error_set(err, errlen, "levels: '%.40s…' is too long", p);
      return -1;
    }
    memcpy(item, p, len);
    item[len] = 0;
    p = end ? end + 1 : p + len;
    char *s = item;
    while (isspace((unsigned char)*s)) s++;
    size_t l = strlen(s);
    while (l && isspace((unsigned char)s[l - 1])) s[--l] = 0;
    if (!l) continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      error_set(err, errlen, "levels: '%s' is not NAME=ELO", s);
      return -1;
    }
    *eq = 0;
    const char *name = s, *val = eq + 1;
    if (!*name || strlen(name) >= sizeof out->name) {
      error_set(err, errlen, "levels: '%s=%s': a level needs a name of 1 to %zu characters", name, val,
          sizeof out->name - 1);
      return -1;
    }
    for (const char *c = name; *c; c++)
      if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_') {
        error_set(err, errlen, "levels: name '%s': letters, digits, '-' and '_' only", name);
        return -1;
      }
    char *e;
    errno = 0;
    double target = strtod(val, &e);
    if (errno || e == val || *e || !isfinite(target) || fabs(target) > 1e5) {
      error_set(err, errlen, "levels: '%s=%s': the target is not an Elo number", name, val);
      return -1;
    }
    if (*n == CALIBRATE_MAX_LEVELS) {
      error_set(err, errlen, "levels: more than %d levels", CALIBRATE_MAX_LEVELS);
      return -1;
    }
    for (int i = 0; i < *n; i++) {
      if (!strcmp(out[i].name, name)) {
        error_set(err, errlen, "levels: '%s' is named twice", name);
        return -1;
      }
      if (out[i].target == target) {
        error_set(err, errlen, "levels: '%s' and '%s' have the same target %g", out[i].name, name, target);
        return -1;
      }
    }
    size_t nl = strlen(name);
    if (nl >= sizeof out[*n].name) {
      error_set(err, errlen, "levels: the name '%.20s...' is longer than %zu characters", name,
          sizeof out[*n].name - 1);
      return -1;
    }
    memcpy(out[*n].name, name, nl + 1);
    out[*n].target = target;
    (*n)++;
  }
  if (!*n) {
    error_set(err, errlen, "levels: none given (expected 'easy=E1;medium=E2;hard=E3')");
    return -1;
  }
  return 0;
}

/* ================================================================ the search */

typedef struct search {
  const calibrate_config *c;
  calibrate_result *r;
  int pairs[CALIBRATE_MAX_POINTS]; /* pairs per reference asked of each point */
  int evals;
  double tol, se_target;
} search;

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

static double normalise(const calibrate_config *c, double k) {
  if (c->integer) k = round(k);
  return clampd(k, c->lo, c->hi);
}

static int find_point(const calibrate_result *r, double k) {
  for (int i = 0; i < r->npoints; i++)
    if (fabs(r->point[i].knob - k) <= 1e-9 * fmax(1.0, fabs(k))) return i;
  return -1;
}

/* Pool-adjacent-violators: the non-decreasing fit of direction·elo,
 * weights 1/SE². */
static void fit(calibrate_result *r) {
  int n = r->npoints;
  double val[CALIBRATE_MAX_POINTS], wt[CALIBRATE_MAX_POINTS];
  int len[CALIBRATE_MAX_POINTS], blocks = 0;
  for (int i = 0; i < n; i++) {
    double se = fmax(r->point[i].se, 1.0);
    val[blocks] = r->direction * r->point[i].elo;
    wt[blocks] = 1.0 / (se * se);
    len[blocks] = 1;
    blocks++;
    while (blocks > 1 && val[blocks - 2] > val[blocks - 1]) {
      double w = wt[blocks - 2] + wt[blocks - 1];
      val[blocks - 2] = (val[blocks - 2] * wt[blocks - 2] + val[blocks - 1] * wt[blocks - 1]) / w;
      wt[blocks - 2] = w;
      len[blocks - 2] += len[blocks - 1];
      blocks--;
    }
  }
  int i = 0;
  for (int b = 0; b < blocks; b++)
    for (int k = 0; k < len[b]; k++) r->fitted[i++] = r->direction * val[b];
}

/* Measures knob value k (already normalised) to the precision asked;
 * returns its index, or -1 with err. */
static int measure(search *s, double k, char *err, size_t errlen) {
  const calibrate_config *c = s->c;
  calibrate_result *r = s->r;
  int i = find_point(r, k);
  int pairs = c->pairs;
  long long before = 0;
  if (i >= 0) {
    if (r->point[i].se <= s->se_target || s->pairs[i] >= c->max_pairs) return i;
    pairs = s->pairs[i] * 2 > c->max_pairs ? c->max_pairs : s->pairs[i] * 2;
    before = r->point[i].games;
  } else if (r->npoints == CALIBRATE_MAX_POINTS) {
    error_set(err, errlen, "more than %d knob values measured", CALIBRATE_MAX_POINTS);
    return -1;
  }
  calibrate_point pt;
  for (;;) {
    memset(&pt, 0, sizeof pt);
    if (c->eval(c->ctx, k, pairs, &pt, err, errlen)) return -1;
    pt.knob = k;
    if (!isfinite(pt.elo) || !(pt.se >= 0)) {
      error_set(err, errlen, "the evaluation of %g gave no finite Elo", k);
      return -1;
    }
    if (pt.se <= s->se_target || pairs >= c->max_pairs) break;
    pairs = pairs * 2 > c->max_pairs ? c->max_pairs : pairs * 2;
  }
  s->evals++;
  r->games += pt.games - before;
  if (i < 0) {
    i = 0;
    while (i < r->npoints && r->point[i].knob < k) i++;
    memmove(&r->point[i + 1], &r->point[i], (size_t)(r->npoints - i) * sizeof r->point[0]);
    memmove(&s->pairs[i + 1], &s->pairs[i], (size_t)(r->npoints - i) * sizeof s->pairs[0]);
    r->npoints++;
  }
  r->point[i] = pt;
  s->pairs[i] = pairs;
  if (c->progress) c->progress(c->progress_ctx, "measure", &pt);
  return i;
}

/* Where the fit crosses target between points a and b, as a fraction of
 * the bracket (in knob, or log-knob, units), clamped into [lo, hi]. */
static double crossing(const search *s, int a, int b, double target, double flo, double fhi) {
  const calibrate_result *r = s->r;
  double ya = r->fitted[a], yb = r->fitted[b];
  double f = yb != ya ? (target - ya) / (yb - ya) : 0.5;
  f = clampd(f, flo, fhi);
  double ka = r->point[a].knob, kb = r->point[b].knob;
  if (s->c->log_scale) return exp(log(ka) + f * (log(kb) - log(ka)));
  return ka + f * (kb - ka);
}

static int met(const search *s, const calibrate_point *p, double target) {
  return fabs(p->elo - target) <= fmax(2 * p->se, s->r->tolerance);
}

static int find_level(search *s, int li, char *err, size_t errlen) {
  const calibrate_config *c = s->c;
  calibrate_result *r = s->r;
  calibrate_found *f = &r->found[li];
  double target = c->level[li].target;
  f->level = c->level[li];
  int chosen = -1, beyond = 0;
  for (int guard = 0;; guard++) {
    fit(r);
    /* Points below the target in the direction of strength form a prefix. */
    int a = -1;
    while (a + 1 < r->npoints && r->direction * r->fitted[a + 1] < r->direction * target) a++;
    int b = a + 1;
    if (a < 0 || b >= r->npoints) {
      chosen = a < 0 ? 0 : r->npoints - 1;
      beyond = 1;
      break;
    }
    double ka = r->point[a].knob, kb = r->point[b].knob;
    int narrow = c->integer ? kb - ka <= 1 : kb - ka <= s->tol;
    int flat = fabs(r->fitted[b] - r->fitted[a]) <= s->se_target;
    if (narrow && c->integer) {
      chosen = fabs(r->fitted[a] - target) <= fabs(r->fitted[b] - target) ? a : b;
      break;
    }
    if (narrow || flat || s->evals >= c->max_evals || guard >= 1000) {
      double k = normalise(c, crossing(s, a, b, target, 0.0, 1.0));
      int i = measure(s, k, err, errlen);
      if (i < 0) return -1;
      fit(r);
      chosen = i;
      break;
    }
    double k = normalise(c, crossing(s, a, b, target, 0.25, 0.75));
    if (c->integer) { /* strictly inside the bracket */
      if (k <= ka) k = ka + 1;
      if (k >= kb) k = kb - 1;
    }
    if (measure(s, k, err, errlen) < 0) return -1;
  }
  /* The chosen point, measured to the precision asked. */
  double k = r->point[chosen].knob;
  if (measure(s, k, err, errlen) < 0) return -1;
  fit(r);
  chosen = find_point(r, k);
  f->knob = k;
  f->point = r->point[chosen];
  f->fitted = r->fitted[chosen];
  if (met(s, &f->point, target)) f->status = CALIBRATE_OK;
  else if (beyond) f->status = CALIBRATE_UNREACHABLE;
  else f->status = CALIBRATE_COARSE;
  if (c->progress) c->progress(c->progress_ctx, c->level[li].name, &f->point);
  return 0;
}

int calibrate_run(const calibrate_config *c, calibrate_result *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  if (!c->eval) {
    error_set(err, errlen, "no evaluation function");
    return -1;
  }
  if (!(c->lo < c->hi) || !isfinite(c->lo) || !isfinite(c->hi)) {
    error_set(err, errlen, "the range needs LO < HI (got %g:%g)", c->lo, c->hi);
    return -1;
  }
  if (c->integer && c->hi - c->lo < 1) {
    error_set(err, errlen, "an integer knob needs a range of at least two values");
    return -1;
  }
  if (c->log_scale && !(c->lo > 0)) {
    error_set(err, errlen, "a log-scale search needs LO > 0 (got %g)", c->lo);
    return -1;
  }
  if (c->nlevels < 1 || c->nlevels > CALIBRATE_MAX_LEVELS) {
    error_set(err, errlen, "between 1 and %d levels", CALIBRATE_MAX_LEVELS);
    return -1;
  }
  if (c->pairs < 1 || c->max_pairs < c->pairs) {
    error_set(err, errlen, "game pairs per measurement: at least 1, and the cap not below it");
    return -1;
  }
  search s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.r = r;
  r->searching = -1;
  r->tolerance = c->tolerance > 0 ? c->tolerance : DEFAULT_TOLERANCE;
  if (c->se_target > 0) {
    s.se_target = c->se_target;
  } else if (c->nlevels == 1) {
    s.se_target = r->tolerance / 2;
  } else {
    double gap = INFINITY;
    for (int i = 0; i < c->nlevels; i++)
      for (int j = i + 1; j < c->nlevels; j++)
        gap = fmin(gap, fabs(c->level[i].target - c->level[j].target));
    s.se_target = gap / 4;
  }
  if (s.se_target < MIN_SE_TARGET) s.se_target = MIN_SE_TARGET;
  r->se_target = s.se_target;
  s.tol = c->tol > 0 ? c->tol : (c->hi - c->lo) / 1000;
  struct calibrate_config cc = *c;
  if (cc.max_evals <= 0) cc.max_evals = DEFAULT_MAX_EVALS;
  s.c = &cc;
  int lo = measure(&s, normalise(&cc, cc.lo), err, errlen);
  if (lo < 0) return -1;
  int hi = measure(&s, normalise(&cc, cc.hi), err, errlen);
  if (hi < 0) return -1;
  lo = 0, hi = r->npoints - 1;
  double d = r->point[hi].elo - r->point[lo].elo;
  double sed = sqrt(r->point[hi].se * r->point[hi].se + r->point[lo].se * r->point[lo].se);
  if (fabs(d) <= 2 * sed) {
    error_set(err, errlen, "the knob has no measurable effect over %g:%g: Elo %.0f ± %.0f at %g and %.0f ± %.0f "
        "at %g (the difference is within twice its standard error)",
        cc.lo, cc.hi, r->point[lo].elo, r->point[lo].se, r->point[lo].knob, r->point[hi].elo,
        r->point[hi].se, r->point[hi].knob);
    return -1;
  }
  r->direction = d > 0 ? 1 : -1;
  /* The levels, easiest target first (the brackets of one help the next). */
  int order[CALIBRATE_MAX_LEVELS];
  for (int i = 0; i < cc.nlevels; i++) order[i] = i;
  for (int i = 1; i < cc.nlevels; i++)
    for (int j = i; j > 0 && cc.level[order[j]].target < cc.level[order[j - 1]].target; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  r->nlevels = cc.nlevels;
  for (int i = 0; i < cc.nlevels; i++) {
    r->searching = order[i];
    if (find_level(&s, order[i], err, errlen)) return -1;
  }
  r->searching = -1;
  fit(r);
  for (int i = 0; i < r->npoints; i++) r->capped += r->point[i].se > s.se_target;
  return 0;
}

/* ================================================================ the evaluator */

static double expected(double x, double opp) { return 1.0 / (1.0 + pow(10.0, (opp - x) / 400.0)); }

double calibrate_fixed_elo(const double *elo, const double *points, const long long *games, int n,
                           double *se, int *bounded) {
  double S = 0, N = 0, mean = 0, lo = INFINITY, hi = -INFINITY;
  int m = 0;
  for (int j = 0; j < n; j++) {
    if (games[j] <= 0) continue;
    S += points[j];
    N += (double)games[j];
    mean += elo[j];
    lo = fmin(lo, elo[j]);
    hi = fmax(hi, elo[j]);
    m++;
  }
  *bounded = 0;
  if (!m) {
    *bounded = 1;
    *se = 1000;
    return n ? elo[0] : 0;
  }
  mean /= m;
  double vpts = 0, vgames = 0; /* a virtual draw against the mean for an all-or-nothing record */
  if (S <= 0 || S >= N) {
    *bounded = 1;
    vpts = 0.5, vgames = 1;
  }
  double a = lo - 4000, b = hi + 4000;
  for (int it = 0; it < 200 && b - a > 1e-7; it++) {
    double x = (a + b) / 2, f = vgames * expected(x, mean) - vpts;
    for (int j = 0; j < n; j++)
      if (games[j] > 0) f += (double)games[j] * expected(x, elo[j]) - points[j];
    if (f > 0) b = x;
    else a = x;
  }
  double x = (a + b) / 2, info = 0, k = LN10 / 400.0;
  for (int j = 0; j < n; j++)
    if (games[j] > 0) {
      double p = expected(x, elo[j]);
      info += (double)games[j] * p * (1 - p);
    }
  if (vgames > 0) {
    double p = expected(x, mean);
    info += p * (1 - p);
  }
  info *= k * k;
  *se = info > 0 ? 1.0 / sqrt(info) : 1000;
  return x;
}

int calibrate_parse_anchor(const char *text, char *spec, size_t speclen, double *elo, char *err,
                           size_t errlen) {
  const char *eq = strrchr(text, '=');
  if (!eq || eq == text) {
    error_set(err, errlen, "anchor '%s' is not SPEC=ELO (e.g. random=0)", text);
    return -1;
  }
  char *end;
  errno = 0;
  *elo = strtod(eq + 1, &end);
  if (errno || end == eq + 1 || *end || !isfinite(*elo)) {
    error_set(err, errlen, "anchor '%s': '%s' is not an Elo number", text, eq + 1);
    return -1;
  }
  if ((size_t)(eq - text) >= speclen) {
    error_set(err, errlen, "anchor spec is too long");
    return -1;
  }
  snprintf(spec, speclen, "%.*s", (int)(eq - text), text);
  return 0;
}

int calibrate_check_knob(const char *base, const char *knob, double lo, double hi, int *integer,
                         char *err, size_t errlen) {
  player_config cfg;
  char perr[ERROR_MAX];
  if (player_parse_spec(base, &cfg, perr, sizeof perr)) {
    error_set(err, errlen, "base spec '%s': %s", base, perr);
    return -1;
  }
  const player_type *t = cfg.type;
  const player_option *o = NULL;
  for (int i = 0; t->options && t->options[i].name; i++)
    if (!strcmp(t->options[i].name, knob)) o = &t->options[i];
  int rc = -1;
  if (!o) {
    size_t n = 0;
    char list[512] = "";
    for (int i = 0; t->options && t->options[i].name; i++)
      if ((t->options[i].type == PLAYER_OPT_INT || t->options[i].type == PLAYER_OPT_REAL) &&
          strcmp(t->options[i].name, "seed") && n < sizeof list)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", t->options[i].name);
    if (!strcmp(knob, "seed") || !strcmp(knob, "name") || !strcmp(knob, "tc"))
      error_set(err, errlen, "option '%s' of '%s' is every player's, not a strength: it cannot be a knob%s%s",
                knob, t->name, n ? "; its numeric options: " : "", list);
    else
      error_set(err, errlen, "player type '%s' has no option '%s'%s%s", t->name, knob,
                n ? "; its numeric options: " : "", list);
  } else if (o->type != PLAYER_OPT_INT && o->type != PLAYER_OPT_REAL) {
    error_set(err, errlen, "option '%s' of '%s' is not a number (int or real): it cannot be a knob", knob, t->name);
  } else if (!(lo < hi)) {
    error_set(err, errlen, "range %g:%g: LO must be below HI", lo, hi);
  } else if (lo < o->lo || hi > o->hi) {
    error_set(err, errlen, "range %g:%g is outside the range of %s's option '%s' [%g, %g]", lo, hi, t->name, knob,
        o->lo, o->hi);
  } else if (o->type == PLAYER_OPT_INT && (lo != floor(lo) || hi != floor(hi))) {
    error_set(err, errlen, "option '%s' of '%s' is an integer: the range needs whole numbers (got %g:%g)", knob,
        t->name, lo, hi);
  } else if (player_config_isset(&cfg, knob)) {
    error_set(err, errlen, "the base spec '%s' sets '%s' already: leave it to the calibration", base, knob);
  } else {
    *integer = o->type == PLAYER_OPT_INT;
    rc = 0;
  }
  player_config_free(&cfg);
  return rc;
}

void calibrate_spec(char *buf, size_t len, const char *base, const char *knob, double value,
                    int integer) {
  const char *sep = strchr(base, ':') ? "," : ":";
  if (integer) snprintf(buf, len, "%s%s%s=%lld", base, sep, knob, (long long)llround(value));
  else snprintf(buf, len, "%s%s%s=%.6g", base, sep, knob, value);
}

void calibrate_say(calibrate_progress_fn progress, void *ctx, const char *fmt, ...) {
  if (!progress) return;
  char msg[ERROR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  progress(ctx, msg, NULL);
}

static void on_pairs(void *ctx, long long done, long long total) {
  (void)total;
  const calibrate_play *pl = ctx;
  pl->played(pl->played_ctx, pl->games + done);
}

static int play_pairs(calibrate_play *pl, const char *a, const char *b, int first, int pairs,
                      pairs_result *res, char *err, size_t errlen) {
  pairs_job job;
  memset(&job, 0, sizeof job);
  if (pl->played) {
    job.progress = on_pairs;
    job.progress_ctx = pl;
  }
  job.spec_a = a;
  job.spec_b = b;
  job.v = pl->v;
  job.pairs = pairs;
  job.first_pair = first;
  job.threads = pl->threads;
  job.opening_plies = pl->opening_plies;
  job.seed = pl->seed;
  const calibrate_journal *jn = pl->journal;
  int known = jn ? jn->recall(jn->ctx, pl->steps, &job, res, err, errlen) : 0;
  if (known < 0) return -1;
  if (!known) {
    if (pairs_play(&job, pl->stop, res, err, errlen)) return -1;
    if (pl->stop && atomic_load(pl->stop)) {
      error_set(err, errlen, "interrupted");
      return -1;
    }
    if (jn && jn->record(jn->ctx, pl->steps, &job, res, err, errlen)) return -1;
  }
  pl->steps++;
  pl->games += res->wins + res->draws + res->losses;
  if (known && pl->played) pl->played(pl->played_ctx, pl->games);
  return 0;
}

int calibrate_round_robin(calibrate_play *pl, const char *const *specs, const char *const *names,
                          int n, int pairs, int anchor, double anchor_elo, rating_result *out,
                          char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  rating_pool pool;
  rating_pool_init(&pool);
  int rc = -1;
  for (int i = 0; i < n; i++)
    if (rating_pool_player(&pool, names[i]) != i) {
      error_set(err, errlen, "two players named '%s' (or out of memory)", names[i]);
      goto out;
    }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      pairs_result res;
      if (play_pairs(pl, specs[i], specs[j], 0, pairs, &res, err, errlen)) goto out;
      if (rating_pool_add(&pool, i, j, res.wins, res.draws, res.losses) ||
          rating_pool_add_pairs(&pool, i, j, res.penta, res.penta_wl)) {
        error_set(err, errlen, "bad counts");
        goto out;
      }
      calibrate_say(pl->progress, pl->progress_ctx, "  %s vs %s: +%lld =%lld -%lld", names[i], names[j], res.wins, res.draws,
          res.losses);
    }
  rating_options ro;
  memset(&ro, 0, sizeof ro);
  ro.anchor = names[anchor];
  ro.anchor_elo = anchor_elo;
  if (rating_fit(&pool, &ro, out, err, errlen)) goto out;
  rc = 0;
out:
  rating_pool_free(&pool);
  return rc;
}

int calibrate_arena_setup(calibrate_arena *a, const char *anchor_spec, double anchor_elo,
                          const char *const *pool, int npool, int ladder, double lo, double hi,
                          int log_scale, int pairs, char *err, size_t errlen) {
  a->nrefs = 0;
  a->ncand = 0;
  const int max = CALIBRATE_MAX_REFS;
  char spec[CALIBRATE_SPEC_MAX];
  for (int k = -1; k < npool + ladder; k++) {
    if (k < 0) snprintf(spec, sizeof spec, "%s", anchor_spec);
    else if (k < npool) snprintf(spec, sizeof spec, "%s", pool[k]);
    else {
      int r = k - npool;
      double f = ladder == 1 ? 0.5 : (double)r / (ladder - 1);
      double v = log_scale && lo > 0 ? exp(log(lo) + f * (log(hi) - log(lo))) : lo + f * (hi - lo);
      calibrate_spec(spec, sizeof spec, a->base, a->knob, v, a->integer);
    }
    int dup = 0;
    for (int i = 0; i < a->nrefs; i++) dup |= !strcmp(a->ref_spec[i], spec);
    if (dup) continue;
    if (a->nrefs == max) {
      error_set(err, errlen, "more than %d reference players", max);
      return -1;
    }
    snprintf(a->ref_spec[a->nrefs], sizeof a->ref_spec[0], "%s", spec);
    if (strlen(spec) < sizeof a->ref_name[0]) memcpy(a->ref_name[a->nrefs], spec, strlen(spec) + 1);
    else snprintf(a->ref_name[a->nrefs], sizeof a->ref_name[0], "reference %d", a->nrefs + 1);
    a->nrefs++;
  }
  if (a->nrefs == 1) {
    a->ref_elo[0] = a->ref_lo[0] = a->ref_hi[0] = anchor_elo;
    return 0;
  }
  const char *specs[CALIBRATE_MAX_REFS], *names[CALIBRATE_MAX_REFS];
  for (int i = 0; i < a->nrefs; i++) specs[i] = a->ref_spec[i], names[i] = a->ref_name[i];
  rating_result res;
  if (calibrate_round_robin(&a->play, specs, names, a->nrefs, pairs, 0, anchor_elo, &res, err,
                            errlen)) {
    rating_result_free(&res);
    return -1;
  }
  for (int i = 0; i < a->nrefs; i++) {
    a->ref_elo[i] = res.player[i].elo;
    a->ref_lo[i] = res.player[i].lo;
    a->ref_hi[i] = res.player[i].hi;
    a->ref_bounded[i] = res.player[i].bounded;
  }
  rating_result_free(&res);
  return 0;
}

static double cand_elo(const calibrate_arena *a, const struct calibrate_cand *c, double *se,
                       int *bounded, long long *games) {
  double pts[CALIBRATE_MAX_REFS];
  long long g[CALIBRATE_MAX_REFS];
  *games = 0;
  for (int j = 0; j < a->nrefs; j++) {
    g[j] = c->wins[j] + c->draws[j] + c->losses[j];
    pts[j] = (double)c->wins[j] + 0.5 * (double)c->draws[j];
    *games += g[j];
  }
  return calibrate_fixed_elo(a->ref_elo, pts, g, a->nrefs, se, bounded);
}

int calibrate_arena_eval(void *ctx, double knob, int pairs, calibrate_point *pt, char *err,
                         size_t errlen) {
  calibrate_arena *a = ctx;
  if (a->integer) knob = round(knob);
  struct calibrate_cand *c = NULL;
  for (int i = 0; i < a->ncand; i++)
    if (fabs(a->cand[i].knob - knob) <= 1e-9 * fmax(1.0, fabs(knob))) c = &a->cand[i];
  if (!c) {
    if (a->ncand == CALIBRATE_MAX_POINTS) {
      error_set(err, errlen, "more than %d knob values", CALIBRATE_MAX_POINTS);
      return -1;
    }
    c = &a->cand[a->ncand++];
    memset(c, 0, sizeof *c);
    c->knob = knob;
  }
  char spec[CALIBRATE_SPEC_MAX];
  calibrate_spec(spec, sizeof spec, a->base, a->knob, knob, a->integer);
  /* Which references to play: all at first; when adding games, those the
   * candidate is expected to score 2%..98% against (the others tell
   * little), or at least the closest one. */
  int fresh = 1;
  for (int j = 0; j < a->nrefs; j++) fresh &= c->pairs[j] == 0;
  int play[CALIBRATE_MAX_REFS];
  if (fresh) {
    for (int j = 0; j < a->nrefs; j++) play[j] = 1;
  } else {
    double se;
    int bounded, best = 0;
    long long games;
    double x = cand_elo(a, c, &se, &bounded, &games), bestv = -1;
    for (int j = 0; j < a->nrefs; j++) {
      double p = expected(x, a->ref_elo[j]);
      play[j] = p >= 0.02 && p <= 0.98;
      if (p * (1 - p) > bestv) bestv = p * (1 - p), best = j;
    }
    play[best] = 1;
  }
  for (int j = 0; j < a->nrefs; j++) {
    if (!play[j] || c->pairs[j] >= pairs) continue;
    pairs_result res;
    if (play_pairs(&a->play, spec, a->ref_spec[j], c->pairs[j], pairs - c->pairs[j], &res, err,
                   errlen))
      return -1;
    c->wins[j] += res.wins;
    c->draws[j] += res.draws;
    c->losses[j] += res.losses;
    c->pairs[j] = pairs;
  }
  memset(pt, 0, sizeof *pt);
  pt->knob = knob;
  pt->elo = cand_elo(a, c, &pt->se, &pt->bounded, &pt->games);
  return 0;
}
