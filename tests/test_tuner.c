/* test_tuner.c: SPSA gains and convergence on a synthetic objective; Texel recovering known weights. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/rng.h"
#include "tuner/spsa.h"
#include "tuner/texel.h"

/* The gain sequences against the formulas, computed here independently. */
static void test_spsa_gains(void **state) {
  (void)state;
  spsa_config c;
  spsa_defaults(&c, 1000, 5);
  assert_true(c.alpha == 0.602 && c.gamma == 0.101 && c.A == 100);
  spsa_add_feature(&c, EVAL_THREAT, -40);
  spsa_param *p = &c.p[0];
  assert_true(p->lo == eval_features[EVAL_THREAT].lo && p->hi == eval_features[EVAL_THREAT].hi);
  assert_true(fabs(p->c_end - (p->hi - p->lo) / 20) < 1e-12 && p->r_end == 0.002);
  /* c_k = c_end * N^g / (k+1)^g: c_{N-1} = c_end; a_{N-1} = r_end c_end^2. */
  assert_true(fabs(spsa_c(&c, 0, 999) - p->c_end) < 1e-9);
  assert_true(fabs(spsa_a(&c, 0, 999) - 0.002 * p->c_end * p->c_end) < 1e-9);
  double c0 = p->c_end * pow(1000, 0.101);
  assert_true(fabs(spsa_c(&c, 0, 0) - c0) < 1e-9);
  assert_true(fabs(spsa_c(&c, 0, 9) - c0 / pow(10, 0.101)) < 1e-9);
  double a = 0.002 * p->c_end * p->c_end * pow(1100, 0.602);
  assert_true(fabs(spsa_a(&c, 0, 0) - a / pow(101, 0.602)) < 1e-9);
  assert_true(fabs(spsa_a(&c, 0, 49) - a / pow(150, 0.602)) < 1e-9);
  /* Perturbations are +-1, balanced, and fixed by (seed, k). */
  int d1[EVAL_N], d2[EVAL_N], plus = 0, n = 0;
  spsa_config m;
  spsa_defaults(&m, 10, 77);
  for (int i = 0; i < EVAL_N; i++) spsa_add_feature(&m, i, eval_features[i].def);
  for (int k = 0; k < 500; k++) {
    spsa_delta(&m, k, d1);
    spsa_delta(&m, k, d2);
    for (int i = 0; i < m.nparams; i++) {
      assert_true(d1[i] == 1 || d1[i] == -1);
      assert_int_equal(d1[i], d2[i]);
      plus += d1[i] == 1;
      n++;
    }
  }
  assert_true(plus > n * 45 / 100 && plus < n * 55 / 100);
  /* Points and updates stay within the bounds. */
  double th[EVAL_N], pl[EVAL_N], mi[EVAL_N];
  for (int i = 0; i < m.nparams; i++) th[i] = m.p[i].hi;
  spsa_delta(&m, 0, d1);
  spsa_points(&m, 0, th, d1, pl, mi);
  spsa_update(&m, 0, th, d1, 1e9);
  for (int i = 0; i < m.nparams; i++) {
    assert_true(pl[i] <= m.p[i].hi && mi[i] >= m.p[i].lo && th[i] <= m.p[i].hi && th[i] >= m.p[i].lo);
  }
}

/* SPSA on a noisy quadratic: each "game" is won by the plus side with
 * probability logistic(f(plus) - f(minus)), f = -sum ((x - opt) / scale)^2. */
static void test_spsa_quadratic(void **state) {
  (void)state;
  const double opt[3] = {30, -10, 70}, scale[3] = {20, 20, 20};
  spsa_config c;
  spsa_defaults(&c, 3000, 11);
  c.nparams = 3;
  for (int i = 0; i < 3; i++) {
    spsa_param *p = &c.p[i];
    snprintf(p->name, sizeof p->name, "x%d", i);
    p->feature = -1;
    p->start = 0;
    p->lo = -100;
    p->hi = 100;
    p->c_end = 10;
    p->r_end = 0.02;
  }
  double theta[3] = {0, 0, 0}, plus[3], minus[3];
  int delta[3];
  rng r;
  rng_seed(&r, 123);
  for (int k = 0; k < c.iterations; k++) {
    spsa_delta(&c, k, delta);
    spsa_points(&c, k, theta, delta, plus, minus);
    double fp = 0, fm = 0;
    for (int i = 0; i < 3; i++) {
      fp -= pow((plus[i] - opt[i]) / scale[i], 2);
      fm -= pow((minus[i] - opt[i]) / scale[i], 2);
    }
    double pw = 1 / (1 + exp(-(fp - fm)));
    int result = 0;
    for (int g = 0; g < 16; g++) result += rng_double(&r) < pw ? 1 : -1;
    spsa_update(&c, k, theta, delta, result);
  }
  for (int i = 0; i < 3; i++) {
    printf("spsa quadratic: x%d = %.2f (optimum %.0f)\n", i, theta[i], opt[i]);
    assert_true(fabs(theta[i] - opt[i]) < 8);
  }
}

/* Texel: outcomes drawn from a known logistic model of the features are
 * fitted back to the weights that made them. */
static void test_texel_recovers(void **state) {
  (void)state;
  variant v;
  variant_default(&v);
  const double K = 0.01;
  /* Known weights (the first hand-set ones; kroo and kroo_seeds are close
   * to collinear on random positions, so their sizes are kept modest). */
  _Static_assert(EVAL_N == 10, "the known weights below list every feature");
  const double truth[EVAL_N] = {100, 5, -20, -5, 40, 2, 10, 60, -40, 3};
  texel_set set = {0};
  rng r;
  rng_seed(&r, 9);
  for (int k = 0; k < 60000; k++) {
    int pits[VARIANT_MAX_PITS] = {0}, stores[2] = {0, 0};
    for (int t = 0; t < v.total; t++) {
      int q = (int)rng_below(&r, (uint32_t)v.pits + 2);
      if (q < v.pits) pits[q]++;
      else stores[q - v.pits]++;
    }
    if (stores[0] > v.half || stores[1] > v.half) continue;
    board b;
    board_set(&b, &v, pits, stores, (int)rng_below(&r, 2));
    int f[EVAL_N];
    eval_compute(&b, &v, f);
    double e = 0;
    for (int i = 0; i < EVAL_N; i++) e += truth[i] * f[i];
    double p = 1 / (1 + exp(-K * e));
    /* A win with probability p, else a loss. */
    float y = rng_double(&r) < p ? 1.0f : 0.0f;
    if (set.n == set.cap) {
      set.cap = set.cap ? 2 * set.cap : 4096;
      set.s = realloc(set.s, set.cap * sizeof *set.s);
      assert_non_null(set.s);
    }
    for (int i = 0; i < EVAL_N; i++) set.s[set.n].f[i] = (int16_t)f[i];
    set.s[set.n++].y = y;
  }
  char err[256];
  double Kfit;
  assert_int_equal(texel_fit_k(&set, truth, &Kfit, err, sizeof err), 0);
  printf("texel: K fitted %.5f (true %.5f) on %zu positions\n", Kfit, K, set.n);
  assert_true(fabs(Kfit - K) / K < 0.1);
  /* From all weights equal, K fixed at the true value. */
  double w[EVAL_N];
  int tune[EVAL_N];
  for (int i = 0; i < EVAL_N; i++) w[i] = 50, tune[i] = 1;
  double mse0 = texel_mse(&set, w, K), mse;
  assert_int_equal(texel_fit(&set, K, w, tune, 500, NULL, NULL, &mse, err, sizeof err), 0);
  printf("texel: error %.5f -> %.5f (at the truth %.5f)\n", mse0, mse, texel_mse(&set, truth, K));
  assert_true(mse < mse0);
  assert_true(mse <= texel_mse(&set, truth, K) + 1e-4);
  for (int i = 0; i < EVAL_N; i++) {
    printf("  %-11s fitted %8.2f true %8.2f\n", eval_features[i].name, w[i], truth[i]);
    /* Within 25% of the true weight, or 6 centiseeds for the small ones. */
    assert_true(fabs(w[i] - truth[i]) <= fmax(6, 0.25 * fabs(truth[i])));
  }
  texel_free(&set);
}

/* Quiet positions of a game: none where a capture is on, none once over. */
/* A progress hook that counts its calls and keeps the last report. */
static void count_games(void *ctx, long long done, long long total) {
  long long *seen = ctx;
  assert_true(done >= seen[1] && done <= total);
  seen[0]++;
  seen[1] = done;
  seen[2] = total;
}

static void test_texel_positions(void **state) {
  (void)state;
  variant v;
  variant_default(&v);
  texel_set set = {0};
  char err[256];
  eval_weights w;
  eval_default(&w);
  assert_int_equal(texel_selfplay(&set, "greedy", &w, &v, 20, 2, 4, 1.0, 3, NULL, NULL, err, sizeof err), -1);
  assert_non_null(strstr(err, "minimax"));
  texel_free(&set);
  long long seen[3] = {0, 0, 0}; /* calls, last done, last total */
  assert_int_equal(texel_selfplay(&set, "minimax:depth=2,hash=1", NULL, &v, 40, 2, 4, 1.0, 3,
                                  count_games, seen, err, sizeof err),
                   0);
  /* The progress hook saw every game, of 40. */
  assert_true(seen[0] >= 1);
  assert_int_equal(seen[1], 40);
  assert_int_equal(seen[2], 40);
  size_t n1 = set.n;
  assert_true(n1 > 400);
  for (size_t k = 0; k < set.n; k++) {
    assert_int_equal(set.s[k].f[EVAL_CAPTURE], 0);
    assert_true(set.s[k].y == 0 || set.s[k].y == 0.5f || set.s[k].y == 1);
  }
  /* The same set with one thread. */
  texel_set one = {0};
  assert_int_equal(texel_selfplay(&one, "minimax:depth=2,hash=1", NULL, &v, 40, 1, 4, 1.0, 3, NULL, NULL, err,
                                  sizeof err),
                   0);
  assert_int_equal(one.n, n1);
  assert_memory_equal(one.s, set.s, n1 * sizeof *set.s);
  texel_free(&set);
  texel_free(&one);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spsa_gains),
      cmocka_unit_test(test_spsa_quadratic),
      cmocka_unit_test(test_texel_recovers),
      cmocka_unit_test(test_texel_positions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
