/* test_calibrate.c: the calibration search (tuner/calibrate.c) on synthetic players whose Elo is a known function of the knob, with simulated game noise; its helpers and its checks of bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <math.h>

#include "core/rng.h"
#include "tuner/calibrate.h"

#define ERRLEN 1024

/* ---- A synthetic player ----
 * Its true Elo is truth(knob). A measurement with g games is the truth plus
 * normal noise of SE = scale / √g (scale 350 ≈ the Bradley–Terry SE of one
 * game at a 50% score, 347 Elo); asking for more pairs at a knob value
 * adds games and averages the new noise in, as the real evaluator does. */
typedef struct synth {
  double (*truth)(double k);
  double scale;
  int noisy;
  int nrefs; /* games = 2 · pairs · nrefs */
  rng r;
  int n;
  double knob[CALIBRATE_MAX_POINTS], mean[CALIBRATE_MAX_POINTS];
  long long games[CALIBRATE_MAX_POINTS];
  long long total_games;
} synth;

static double gauss(rng *r) {
  double u = rng_double(r), v = rng_double(r);
  if (u < 1e-300) u = 1e-300;
  return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

static int synth_eval(void *ctx, double knob, int pairs, calibrate_point *pt, char *err,
                      size_t errlen) {
  synth *s = ctx;
  (void)err, (void)errlen;
  int i = 0;
  while (i < s->n && s->knob[i] != knob) i++;
  if (i == s->n) {
    assert_true(s->n < CALIBRATE_MAX_POINTS);
    s->knob[i] = knob;
    s->mean[i] = 0;
    s->games[i] = 0;
    s->n++;
  }
  long long want = 2LL * pairs * s->nrefs;
  if (want > s->games[i]) {
    long long add = want - s->games[i];
    double x = s->truth(knob) + (s->noisy ? s->scale / sqrt((double)add) * gauss(&s->r) : 0);
    s->mean[i] = (s->mean[i] * (double)s->games[i] + x * (double)add) / (double)want;
    s->total_games += add;
    s->games[i] = want;
  }
  pt->knob = knob;
  pt->elo = s->mean[i];
  pt->se = s->scale / sqrt((double)s->games[i]);
  pt->games = s->games[i];
  pt->bounded = 0;
  return 0;
}

static void synth_init(synth *s, double (*truth)(double), int noisy, uint64_t seed) {
  memset(s, 0, sizeof *s);
  s->truth = truth;
  s->scale = 350;
  s->noisy = noisy;
  s->nrefs = 3;
  rng_seed(&s->r, seed);
}

static void config(calibrate_config *c, synth *s, double lo, double hi, int integer,
                   const char *levels) {
  memset(c, 0, sizeof *c);
  c->lo = lo;
  c->hi = hi;
  c->integer = integer;
  c->pairs = 10;
  c->max_pairs = 80;
  c->eval = synth_eval;
  c->ctx = s;
  char err[ERRLEN];
  if (calibrate_parse_levels(levels, c->level, &c->nlevels, err, sizeof err))
    fail_msg("levels: %s", err);
}

/* Depth-like: rises quickly, then flattens (265, 472, 633, 758, 856, 932, 992, 1038, …, 1139). */
static double depth_curve(double k) { return 1200 * (1 - exp(-k / 4)); }
/* Noise-like: falls linearly, 900 at 0 to 0 at 100. */
static double noise_curve(double x) { return 900 - 9 * x; }
/* Playouts-like: log-linear, 300 Elo per factor 10. */
static double playouts_curve(double k) { return 300 * log10(k); }
/* Coarse steps: 200 Elo per unit. */
static double step_curve(double k) { return 200 * k; }
static double flat_curve(double k) {
  (void)k;
  return 500;
}

/* The knob value whose true Elo is closest to the target. */
static double best_integer(double (*f)(double), double lo, double hi, double target) {
  double best = lo;
  for (double k = lo; k <= hi; k++)
    if (fabs(f(k) - target) < fabs(f(best) - target)) best = k;
  return best;
}

static void run_ok(const calibrate_config *c, calibrate_result *r) {
  char err[ERRLEN] = "";
  if (calibrate_run(c, r, err, sizeof err)) fail_msg("calibrate_run: %s", err);
}

/* Without noise the search lands on the best integer of each level. */
static void test_integer_exact(void **state) {
  (void)state;
  synth s;
  synth_init(&s, depth_curve, 0, 1);
  calibrate_config c;
  config(&c, &s, 1, 12, 1, "easy=300;medium=650;hard=950");
  calibrate_result *r = calloc(1, sizeof *r);
  run_ok(&c, r);
  assert_int_equal(r->direction, 1);
  assert_int_equal(r->nlevels, 3);
  assert_true(r->found[0].knob == 1); /* 265: 35 from 300 (472 is 172 away) */
  assert_true(r->found[1].knob == 3); /* 633 */
  assert_true(r->found[2].knob == 6); /* 932, against 992 for 7 */
  for (int i = 0; i < 3; i++) assert_int_equal(r->found[i].status, CALIBRATE_OK);
  /* The rule: SE ≤ spacing / 4 = 300 / 4. */
  assert_true(fabs(r->se_target - 75) < 1e-9);
  for (int i = 0; i < r->npoints; i++) assert_true(r->point[i].se <= r->se_target);
  assert_int_equal(r->capped, 0);
  assert_true(r->npoints <= 10);
  free(r);
}

/* With game noise: the best integer or a neighbour, within the tolerance. */
static void test_integer_noisy(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 5; seed++) {
    synth s;
    synth_init(&s, depth_curve, 1, seed);
    calibrate_config c;
    config(&c, &s, 1, 12, 1, "easy=300;medium=650;hard=950");
    calibrate_result *r = calloc(1, sizeof *r);
    run_ok(&c, r);
    assert_int_equal(r->direction, 1);
    for (int i = 0; i < 3; i++) {
      double t = c.level[i].target, best = best_integer(depth_curve, 1, 12, t);
      if (fabs(r->found[i].knob - best) > 1)
        fail_msg("seed %llu, %s: knob %g, best %g", (unsigned long long)seed,
                 c.level[i].name, r->found[i].knob, best);
      /* The true strength of the choice is within the tolerance band of the target. */
      assert_true(fabs(depth_curve(r->found[i].knob) - t) <= 2 * r->se_target + 50);
    }
    assert_int_equal(s.total_games, r->games);
    free(r);
  }
}

/* A real knob along which the strength falls: the direction is found, and
 * each level's value is where the curve crosses the target. */
static void test_real_falling(void **state) {
  (void)state;
  static const double want[3] = {800.0 / 9, 500.0 / 9, 200.0 / 9}; /* 100, 400, 700 */
  synth s;
  synth_init(&s, noise_curve, 0, 1);
  calibrate_config c;
  config(&c, &s, 0, 100, 0, "easy=100;medium=400;hard=700");
  calibrate_result *r = calloc(1, sizeof *r);
  run_ok(&c, r);
  assert_int_equal(r->direction, -1);
  for (int i = 0; i < 3; i++) {
    if (fabs(r->found[i].knob - want[i]) > 0.5)
      fail_msg("noiseless %s: %g, want %g", c.level[i].name, r->found[i].knob, want[i]);
    assert_int_equal(r->found[i].status, CALIBRATE_OK);
  }
  free(r);
  for (uint64_t seed = 1; seed <= 5; seed++) {
    synth_init(&s, noise_curve, 1, seed);
    config(&c, &s, 0, 100, 0, "easy=100;medium=400;hard=700");
    c.se_target = 20; /* 20 Elo = 2.2 knob units */
    r = calloc(1, sizeof *r);
    run_ok(&c, r);
    assert_int_equal(r->direction, -1);
    for (int i = 0; i < 3; i++)
      if (fabs(r->found[i].knob - want[i]) > 6)
        fail_msg("seed %llu, %s: %g, want %g", (unsigned long long)seed, c.level[i].name,
                 r->found[i].knob, want[i]);
    for (int i = 0; i < r->npoints; i++) assert_true(r->point[i].se <= 20);
    free(r);
  }
}

/* A knob over decades, searched in log scale. */
static void test_log_scale(void **state) {
  (void)state;
  static const double want[3] = {10, 100, 1000};
  for (uint64_t seed = 1; seed <= 3; seed++) {
    synth s;
    synth_init(&s, playouts_curve, 1, seed);
    calibrate_config c;
    config(&c, &s, 1, 10000, 1, "easy=300;medium=600;hard=900");
    c.log_scale = 1;
    calibrate_result *r = calloc(1, sizeof *r);
    run_ok(&c, r);
    assert_int_equal(r->direction, 1);
    for (int i = 0; i < 3; i++) {
      double ratio = r->found[i].knob / want[i];
      /* 75 Elo (the SE asked) is a factor 10^(75/300) = 1.78 */
      if (ratio < 1 / 1.8 || ratio > 1.8)
        fail_msg("seed %llu, %s: %g, want %g", (unsigned long long)seed, c.level[i].name,
                 r->found[i].knob, want[i]);
    }
    assert_true(r->npoints <= 20);
    free(r);
  }
}

/* Targets beyond the range: reported, with the closest end. */
static void test_unreachable(void **state) {
  (void)state;
  synth s;
  synth_init(&s, depth_curve, 0, 1);
  calibrate_config c;
  config(&c, &s, 1, 12, 1, "weak=-300;ok=650;strong=1500");
  calibrate_result *r = calloc(1, sizeof *r);
  run_ok(&c, r);
  assert_int_equal(r->found[0].status, CALIBRATE_UNREACHABLE);
  assert_true(r->found[0].knob == 1);
  assert_int_equal(r->found[1].status, CALIBRATE_OK);
  assert_int_equal(r->found[2].status, CALIBRATE_UNREACHABLE);
  assert_true(r->found[2].knob == 12);
  assert_true(fabs(r->found[2].point.elo - depth_curve(12)) < 1e-9);
  assert_string_equal(calibrate_status_name(CALIBRATE_UNREACHABLE), "unreachable");
  free(r);
  /* Just beyond an end but within the tolerance: that end, ok. */
  synth_init(&s, depth_curve, 0, 1);
  config(&c, &s, 1, 12, 1, "top=1170");
  r = calloc(1, sizeof *r);
  run_ok(&c, r);
  assert_int_equal(r->found[0].status, CALIBRATE_OK);
  assert_true(r->found[0].knob == 12);
  free(r);
}

/* Integer steps coarser than the tolerance. */
static void test_coarse(void **state) {
  (void)state;
  synth s;
  synth_init(&s, step_curve, 0, 1);
  calibrate_config c;
  config(&c, &s, 1, 5, 1, "middle=500");
  calibrate_result *r = calloc(1, sizeof *r);
  run_ok(&c, r);
  assert_int_equal(r->found[0].status, CALIBRATE_COARSE);
  assert_true(r->found[0].knob == 2 || r->found[0].knob == 3);
  free(r);
}

/* A knob without effect, and bad configurations: errors. */
static void test_errors(void **state) {
  (void)state;
  synth s;
  synth_init(&s, flat_curve, 0, 1);
  calibrate_config c;
  config(&c, &s, 1, 12, 1, "easy=300");
  calibrate_result *r = calloc(1, sizeof *r);
  char err[ERRLEN] = "";
  assert_int_equal(calibrate_run(&c, r, err, sizeof err), -1);
  assert_non_null(strstr(err, "no measurable effect"));
  synth_init(&s, depth_curve, 0, 1);
  config(&c, &s, 5, 5, 1, "easy=300");
  assert_int_equal(calibrate_run(&c, r, err, sizeof err), -1);
  assert_non_null(strstr(err, "LO < HI"));
  config(&c, &s, 0, 10, 0, "easy=300");
  c.log_scale = 1;
  assert_int_equal(calibrate_run(&c, r, err, sizeof err), -1);
  assert_non_null(strstr(err, "LO > 0"));
  config(&c, &s, 1, 10, 1, "easy=300");
  c.pairs = 0;
  assert_int_equal(calibrate_run(&c, r, err, sizeof err), -1);
  c.pairs = 10;
  c.nlevels = 0;
  assert_int_equal(calibrate_run(&c, r, err, sizeof err), -1);
  free(r);
}

static void test_levels(void **state) {
  (void)state;
  calibrate_level l[CALIBRATE_MAX_LEVELS];
  int n;
  char err[ERRLEN] = "";
  const char *good = "easy=200; medium=600 ;hard=1000.5";
  assert_int_equal(calibrate_parse_levels(good, l, &n, err, sizeof err), 0);
  assert_int_equal(n, 3);
  assert_string_equal(l[1].name, "medium");
  assert_true(l[2].target == 1000.5);
  assert_int_equal(calibrate_parse_levels("a=-100", l, &n, err, sizeof err), 0);
  assert_true(l[0].target == -100);
  static const char *const bad[] = {"",        "easy",         "easy=",      "easy=abc",
                                    "=200",    "e asy=200",    "a=1;a=2",    "a=1;b=1",
                                    "a=1e9",   "easy=200;;x"};
  static const char *const why[] = {"none given",  "NAME=ELO",     "not an Elo", "not an Elo",
                                    "name",        "letters",      "twice",      "same target",
                                    "not an Elo",  "NAME=ELO"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    err[0] = 0;
    if (calibrate_parse_levels(bad[i], l, &n, err, sizeof err) != -1)
      fail_msg("'%s' was accepted", bad[i]);
    if (!strstr(err, why[i])) fail_msg("'%s': message '%s' lacks '%s'", bad[i], err, why[i]);
  }
}

static void test_knob_checks(void **state) {
  (void)state;
  char err[ERRLEN] = "";
  int integer = -1;
  assert_int_equal(calibrate_check_knob("minimax", "depth", 1, 8, &integer, err, sizeof err), 0);
  assert_int_equal(integer, 1);
  assert_int_equal(
      calibrate_check_knob("minimax:depth=3", "noise", 0, 50, &integer, err, sizeof err), 0);
  assert_int_equal(integer, 0);
  assert_int_equal(calibrate_check_knob("mcts", "playouts", 1, 5000, &integer, err, sizeof err), 0);
  struct {
    const char *base, *knob;
    double lo, hi;
    const char *why;
  } bad[] = {
      {"random", "depth", 1, 8, "has no option 'depth'"},
      {"minimax", "seed", 1, 8, "option 'seed' of 'minimax' is every player's, not a strength"},
      {"minimax", "weights", 1, 8, "not a number"},
      {"minimax", "depth", 0, 10, "outside the range"},
      {"minimax", "noise", 0, 500, "outside the range"},
      {"minimax", "depth", 1.5, 4, "whole numbers"},
      {"minimax:depth=3", "depth", 1, 8, "sets 'depth' already"},
      {"nosuchplayer", "depth", 1, 8, "base spec"},
      {"minimax", "depth", 8, 1, "LO must be below HI"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    err[0] = 0;
    if (calibrate_check_knob(bad[i].base, bad[i].knob, bad[i].lo, bad[i].hi, &integer, err,
                             sizeof err) != -1)
      fail_msg("%s / %s accepted", bad[i].base, bad[i].knob);
    if (!strstr(err, bad[i].why))
      fail_msg("%s / %s: '%s' lacks '%s'", bad[i].base, bad[i].knob, err, bad[i].why);
  }
  /* The random player's message lists what it has instead (nothing numeric but seed). */
  calibrate_check_knob("minimax", "depthh", 1, 8, &integer, err, sizeof err);
  assert_non_null(strstr(err, "depth"));
  assert_non_null(strstr(err, "noise"));
}

static void test_specs(void **state) {
  (void)state;
  char buf[CALIBRATE_SPEC_MAX], err[ERRLEN] = "";
  calibrate_spec(buf, sizeof buf, "minimax", "depth", 4.4, 1);
  assert_string_equal(buf, "minimax:depth=4");
  calibrate_spec(buf, sizeof buf, "minimax:depth=4", "noise", 12.5, 0);
  assert_string_equal(buf, "minimax:depth=4,noise=12.5");
  double elo;
  assert_int_equal(calibrate_parse_anchor("random=0", buf, sizeof buf, &elo, err, sizeof err), 0);
  assert_string_equal(buf, "random");
  assert_true(elo == 0);
  const char *a = "greedy:seed=3=-150.5";
  assert_int_equal(calibrate_parse_anchor(a, buf, sizeof buf, &elo, err, sizeof err), 0);
  assert_string_equal(buf, "greedy:seed=3");
  assert_true(elo == -150.5);
  assert_int_equal(calibrate_parse_anchor("random", buf, sizeof buf, &elo, err, sizeof err), -1);
  assert_non_null(strstr(err, "SPEC=ELO"));
  assert_int_equal(calibrate_parse_anchor("random=x", buf, sizeof buf, &elo, err, sizeof err), -1);
  assert_non_null(strstr(err, "not an Elo"));
}

/* The Elo against fixed opponents: 75% against 0 is 400·log10(3) = 190.85, SE
 * 1/((ln 10/400)·√(100·0.75·0.25)) = 40.12. */
static void test_fixed_elo(void **state) {
  (void)state;
  double elo[2] = {0, 0}, pts[2] = {75, 0}, se;
  long long games[2] = {100, 0};
  int bounded;
  double x = calibrate_fixed_elo(elo, pts, games, 2, &se, &bounded);
  assert_true(fabs(x - 190.849) < 0.01);
  assert_true(fabs(se - 40.117) < 0.01);
  assert_int_equal(bounded, 0);
  double e2[2] = {-100, 100}, p2[2] = {10, 10};
  long long g2[2] = {20, 20};
  x = calibrate_fixed_elo(e2, p2, g2, 2, &se, &bounded);
  assert_true(fabs(x) < 0.01);
  double p3[2] = {20, 20}; /* only wins: a bound, finite */
  x = calibrate_fixed_elo(e2, p3, g2, 2, &se, &bounded);
  assert_int_equal(bounded, 1);
  assert_true(isfinite(x) && x > 100 && x < 2000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_integer_exact), cmocka_unit_test(test_integer_noisy),
      cmocka_unit_test(test_real_falling),  cmocka_unit_test(test_log_scale),
      cmocka_unit_test(test_unreachable),   cmocka_unit_test(test_coarse),
      cmocka_unit_test(test_errors),        cmocka_unit_test(test_levels),
      cmocka_unit_test(test_knob_checks),   cmocka_unit_test(test_specs),
      cmocka_unit_test(test_fixed_elo),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
