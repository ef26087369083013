/* test_rating.c: ratings (fit, intervals, coverage, degenerate pools), match statistics, SPRT, the store's schema 2, `oware rate` and `oware sprt`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "arena/rating.h"
#include "arena/store.h"
#include "core/rng.h"

#define ERRLEN 1024

static char tmpdir[64];

static void path_in_tmp(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%s", tmpdir, name);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define assert_close(x, y, tol)                                                                    \
  do {                                                                                             \
    double x_ = (x), y_ = (y);                                                                     \
    if (!(fabs(x_ - y_) <= (tol)))                                                                 \
      fail_msg("%s = %.10g, expected %.10g (±%g)", #x, x_, y_, (double)(tol));                     \
  } while (0)

static void assert_finite_result(const rating_result *r) {
  for (int i = 0; i < r->n; i++) {
    const rating_player *p = &r->player[i];
    if (!isfinite(p->elo) || !isfinite(p->se) || !isfinite(p->lo) || !isfinite(p->hi) ||
        !isfinite(p->score) || !isfinite(p->draw_ratio))
      fail_msg("player %s: elo %g se %g [%g, %g]", p->name, p->elo, p->se, p->lo, p->hi);
    assert_true(p->lo <= p->elo + 1e-9 || r->bootstrap);
    assert_true(p->hi >= p->elo - 1e-9 || r->bootstrap);
    assert_true(p->rank >= 1 && p->rank <= r->n);
    for (int j = 0; j < r->n; j++) {
      double l = r->los[(size_t)i * r->n + j];
      assert_true(isfinite(l) && l >= 0 && l <= 1);
      assert_true(isfinite(r->cov[(size_t)i * r->n + j]));
    }
  }
}

static int pool_named(rating_pool *p, const char *name) {
  int i = rating_pool_player(p, name);
  assert_true(i >= 0);
  return i;
}

static void fit_ok(const rating_pool *p, const rating_options *opt, rating_result *r) {
  char err[ERRLEN] = "";
  if (rating_fit(p, opt, r, err, sizeof err)) fail_msg("rating_fit: %s", err);
  assert_finite_result(r);
}

/* ---------------------------------------------------------- two players */

/* The fitted difference is −400·log10(1/s − 1) for the score s. */
static void test_two_players_score(void **state) {
  (void)state;
  static const long long cases[][3] = {
      {100, 0, 900}, {200, 100, 700}, {300, 400, 300}, {450, 300, 250},
      {700, 100, 200}, {850, 100, 50}, {1, 0, 1}, {3, 4, 1}, {9990, 0, 10},
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    long long w = cases[c][0], d = cases[c][1], l = cases[c][2];
    double s = ((double)w + 0.5 * (double)d) / (double)(w + d + l);
    double expect = -400.0 * log10(1.0 / s - 1.0);
    rating_pool p;
    rating_pool_init(&p);
    int a = pool_named(&p, "a"), b = pool_named(&p, "b");
    assert_int_equal(rating_pool_add(&p, a, b, w, d, l), 0);
    rating_result r;
    fit_ok(&p, NULL, &r);
    assert_false(r.regularized);
    assert_close(r.player[a].elo - r.player[b].elo, expect, 1e-6);
    assert_close(r.player[a].elo + r.player[b].elo, 0, 1e-6); /* pool mean 0 */
    assert_int_equal(r.games, w + d + l);
    /* The interval of the difference is the trinomial one (delta method):
     * se(diff) = σ / (√N · F(1−F)) in natural units. */
    double n = (double)(w + d + l), F = s;
    double var = ((double)w * (1 - s) * (1 - s) + (double)d * (0.5 - s) * (0.5 - s) +
                  (double)l * s * s) / n;
    double se = sqrt(var / n) / (F * (1 - F)) * 400.0 / log(10.0);
    double sd = sqrt(r.cov[0] + r.cov[3] - 2 * r.cov[1]);
    assert_close(sd, se, 1e-6 * se + 1e-9);
    /* Anchored: b at 1500 gives a at 1500 + difference, and b's se 0. */
    rating_result q;
    rating_options opt = {"b", 1500, 0, 1, 0};
    fit_ok(&p, &opt, &q);
    assert_close(q.player[b].elo, 1500, 1e-9);
    assert_close(q.player[a].elo, 1500 + expect, 1e-6);
    assert_close(q.player[b].se, 0, 1e-12);
    assert_close(q.player[a].se, se, 1e-6 * se + 1e-9);
    rating_result_free(&q);
    rating_result_free(&r);
    rating_pool_free(&p);
  }
}

/* ------------------------------------------------------ simulated pools */

#define NSIM 6
static const double true_elo[NSIM] = {-180, -70, -10, 30, 95, 135}; /* mean 0 */

/* One game from the model: expected score F(Δ), draws 4δF(1−F). */
static int sim_game(rng *g, double diff, double delta) {
  double F = 1.0 / (1.0 + pow(10.0, -diff / 400.0));
  double D = delta * 4 * F * (1 - F), W = F - D / 2;
  double u = rng_double(g);
  return u < W ? 1 : u < W + D ? 0 : -1;
}

/* A round robin of NSIM players, games per pair, into p. */
static void sim_pool(rating_pool *p, rng *g, int games, double delta) {
  static const char *const names[NSIM] = {"p0", "p1", "p2", "p3", "p4", "p5"};
  rating_pool_init(p);
  for (int i = 0; i < NSIM; i++) pool_named(p, names[i]);
  for (int i = 0; i < NSIM; i++)
    for (int j = i + 1; j < NSIM; j++) {
      long long c[3] = {0, 0, 0};
      for (int k = 0; k < games; k++) c[1 - sim_game(g, true_elo[i] - true_elo[j], delta)]++;
      assert_int_equal(rating_pool_add(p, i, j, c[0], c[1], c[2]), 0);
    }
}

/* Over many simulated pools, each true rating lies in its 95% interval
 * about 95% of the time, and the estimates are centred on the truth. */
static void test_coverage(void **state) {
  (void)state;
  enum { REPEATS = 200 };
  rng g;
  rng_seed(&g, 20240611);
  int inside = 0, inside_anchor = 0, total = 0, total_anchor = 0;
  double sum[NSIM] = {0}, sumse[NSIM] = {0};
  for (int rep = 0; rep < REPEATS; rep++) {
    rating_pool p;
    sim_pool(&p, &g, 150, rep % 2 ? 0.6 : 0.2); /* 2250 games, draw-rich or not */
    rating_result r, q;
    fit_ok(&p, NULL, &r);
    assert_false(r.regularized);
    for (int i = 0; i < NSIM; i++) {
      inside += r.player[i].lo <= true_elo[i] && true_elo[i] <= r.player[i].hi;
      total++;
      sum[i] += r.player[i].elo;
      sumse[i] += r.player[i].se;
    }
    /* Anchored at p2's true rating: the others' intervals must cover. */
    rating_options opt = {"p2", true_elo[2], 0, 1, 0};
    fit_ok(&p, &opt, &q);
    for (int i = 0; i < NSIM; i++) {
      if (i == 2) continue;
      inside_anchor += q.player[i].lo <= true_elo[i] && true_elo[i] <= q.player[i].hi;
      total_anchor++;
    }
    rating_result_free(&q);
    rating_result_free(&r);
    rating_pool_free(&p);
  }
  double cov = (double)inside / total, cova = (double)inside_anchor / total_anchor;
  printf("  coverage of the 95%% intervals: %.3f (%d of %d), anchored %.3f (%d of %d)\n", cov,
         inside, total, cova, inside_anchor, total_anchor);
  assert_true(cov >= 0.92 && cov <= 0.98);
  assert_true(cova >= 0.92 && cova <= 0.98);
  for (int i = 0; i < NSIM; i++) {
    double mean = sum[i] / REPEATS, se = sumse[i] / REPEATS;
    printf("  player %d: true %6.1f, mean estimate %7.2f, mean se %5.2f\n", i, true_elo[i], mean,
           se);
    /* The mean of REPEATS estimates is within 4 standard errors of it. */
    assert_true(fabs(mean - true_elo[i]) < 4 * se / sqrt((double)REPEATS));
  }
}

/* The bootstrap's percentile intervals cover about as often. */
static void test_bootstrap_coverage(void **state) {
  (void)state;
  enum { REPEATS = 60 };
  rng g;
  rng_seed(&g, 77);
  int inside = 0, total = 0;
  double t0 = now_s();
  for (int rep = 0; rep < REPEATS; rep++) {
    rating_pool p;
    sim_pool(&p, &g, 150, 0.4);
    rating_result r, c;
    rating_options opt = {NULL, 0, 300, (uint64_t)rep + 1, 0};
    fit_ok(&p, &opt, &r);
    fit_ok(&p, NULL, &c);
    assert_int_equal(r.bootstrap, 300);
    for (int i = 0; i < NSIM; i++) {
      inside += r.player[i].lo <= true_elo[i] && true_elo[i] <= r.player[i].hi;
      total++;
      /* Same point estimate; interval of about the covariance's width. */
      assert_close(r.player[i].elo, c.player[i].elo, 1e-9);
      double wb = r.player[i].hi - r.player[i].lo, wc = c.player[i].hi - c.player[i].lo;
      assert_true(wb > 0.7 * wc && wb < 1.4 * wc);
    }
    rating_result_free(&r);
    rating_result_free(&c);
    rating_pool_free(&p);
  }
  double cov = (double)inside / total;
  printf("  bootstrap coverage: %.3f (%d of %d), %.2f s\n", cov, inside, total, now_s() - t0);
  assert_true(cov >= 0.90 && cov <= 0.99);
}

/* The same seed gives the same bootstrap; another seed another one. */
static void test_bootstrap_reproducible(void **state) {
  (void)state;
  rng g;
  rng_seed(&g, 5);
  rating_pool p;
  sim_pool(&p, &g, 40, 0.3);
  rating_result a, b, c;
  rating_options o1 = {"p0", 1000, 200, 42, 0}, o2 = {"p0", 1000, 200, 43, 0};
  fit_ok(&p, &o1, &a);
  fit_ok(&p, &o1, &b);
  fit_ok(&p, &o2, &c);
  int differs = 0;
  for (int i = 0; i < NSIM; i++) {
    assert_true(a.player[i].lo == b.player[i].lo && a.player[i].hi == b.player[i].hi);
    differs |= a.player[i].lo != c.player[i].lo;
  }
  assert_true(differs);
  /* The anchor has no spread. */
  assert_close(a.player[0].lo, 1000, 1e-9);
  assert_close(a.player[0].hi, 1000, 1e-9);
  rating_result_free(&a);
  rating_result_free(&b);
  rating_result_free(&c);
  rating_pool_free(&p);
}

/* LOS from the covariance of the difference, ranks, and the anchor error. */
static void test_los_and_ranks(void **state) {
  (void)state;
  rating_pool p;
  rating_pool_init(&p);
  int a = pool_named(&p, "a"), b = pool_named(&p, "b"), c = pool_named(&p, "c");
  rating_pool_add(&p, a, b, 60, 20, 20);
  rating_pool_add(&p, b, c, 50, 30, 20);
  rating_pool_add(&p, a, c, 70, 20, 10);
  rating_result r;
  fit_ok(&p, NULL, &r);
  assert_int_equal(r.order[0], a);
  assert_int_equal(r.order[1], b);
  assert_int_equal(r.order[2], c);
  assert_int_equal(r.player[a].rank, 1);
  assert_int_equal(r.player[c].rank, 3);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double d = r.player[i].elo - r.player[j].elo;
      double v = r.cov[i * 3 + i] + r.cov[j * 3 + j] - 2 * r.cov[i * 3 + j];
      double expect = i == j ? 0.5 : 0.5 * erfc(-d / sqrt(v) / sqrt(2.0));
      assert_close(r.los[i * 3 + j], expect, 1e-9);
      if (i != j) assert_close(r.los[i * 3 + j] + r.los[j * 3 + i], 1, 1e-9);
    }
  assert_true(r.los[a * 3 + c] > 0.999);
  /* The gradient is zero at the fit: expected points = actual points. */
  for (int i = 0; i < 3; i++) {
    double expect = 0;
    for (int j = 0; j < 3; j++) {
      if (i == j) continue;
      rating_match m;
      rating_pool_match(&p, i, j, &m);
      double n = (double)(m.wins + m.draws + m.losses);
      expect += n / (1 + pow(10, -(r.player[i].elo - r.player[j].elo) / 400));
    }
    assert_close(expect, r.player[i].score * (double)r.player[i].games, 1e-6);
  }
  char err[ERRLEN] = "";
  rating_result q;
  rating_options opt = {"zed", 0, 0, 1, 0};
  assert_int_equal(rating_fit(&p, &opt, &q, err, sizeof err), -1);
  printf("  %s\n", err);
  assert_non_null(strstr(err, "zed"));
  rating_result_free(&q);
  rating_result_free(&r);
  rating_pool_free(&p);
}

/* ------------------------------------------------------------ degenerate */

static void test_degenerate(void **state) {
  (void)state;
  rating_result r;
  rating_pool p;
  /* No player at all. */
  rating_pool_init(&p);
  fit_ok(&p, NULL, &r);
  assert_int_equal(r.n, 0);
  rating_print_table(stdout, &r);
  rating_result_free(&r);
  /* One player, no games; anchored too. */
  pool_named(&p, "solo");
  rating_options anchor_solo = {"solo", 1200, 100, 1, 0};
  fit_ok(&p, &anchor_solo, &r);
  assert_int_equal(r.n, 1);
  assert_close(r.player[0].elo, 1200, 0);
  assert_true(r.player[0].bounded);
  rating_result_free(&r);
  /* Three players, no games: all at the mean, bounded, wide intervals. */
  pool_named(&p, "x");
  pool_named(&p, "y");
  rating_options boot = {NULL, 0, 50, 3, 0};
  fit_ok(&p, &boot, &r);
  for (int i = 0; i < 3; i++) {
    assert_close(r.player[i].elo, 0, 1e-9);
    assert_true(r.player[i].bounded);
    assert_int_equal(r.player[i].games, 0);
  }
  rating_result_free(&r);
  fit_ok(&p, NULL, &r);
  assert_true(r.player[0].hi - r.player[0].lo > 500);
  rating_result_free(&r);
  rating_pool_free(&p);

  /* All draws: equal, not bounded, LOS one half. */
  rating_pool_init(&p);
  int d1 = pool_named(&p, "d1"), d2 = pool_named(&p, "d2");
  rating_pool_add(&p, d1, d2, 0, 10, 0);
  fit_ok(&p, NULL, &r);
  assert_false(r.regularized);
  assert_close(r.player[d1].elo, 0, 1e-9);
  assert_close(r.player[d2].elo, 0, 1e-9);
  assert_close(r.los[d1 * 2 + d2], 0.5, 1e-12);
  rating_result_free(&r);
  rating_pool_free(&p);

  /* Two players, all wins: both bounded, finite, the winner above. */
  rating_pool_init(&p);
  int w = pool_named(&p, "w"), l = pool_named(&p, "l");
  rating_pool_add(&p, w, l, 10, 0, 0);
  fit_ok(&p, NULL, &r);
  assert_true(r.regularized && r.player[w].bounded && r.player[l].bounded);
  assert_true(r.player[w].elo > 200 && r.player[w].elo < 1000);
  assert_close(r.player[w].elo, -r.player[l].elo, 1e-9);
  printf("  10-0: %+.1f [%+.1f, %+.1f]\n", r.player[w].elo, r.player[w].lo, r.player[w].hi);
  rating_print_table(stdout, &r);
  rating_result_free(&r);
  rating_pool_free(&p);

  /* A player with all wins in a pool that is otherwise sound. */
  rating_pool_init(&p);
  int A = pool_named(&p, "A"), B = pool_named(&p, "B"), C = pool_named(&p, "C");
  rating_pool_add(&p, A, B, 20, 0, 0);
  rating_pool_add(&p, A, C, 20, 0, 0);
  rating_pool_add(&p, B, C, 12, 5, 8);
  rating_options boot2 = {NULL, 0, 100, 9, 0};
  fit_ok(&p, &boot2, &r);
  assert_true(r.player[A].bounded);
  assert_false(r.player[B].bounded || r.player[C].bounded);
  assert_int_equal(r.order[0], A);
  assert_true(r.player[B].elo > r.player[C].elo);
  rating_print_table(stdout, &r);
  rating_result_free(&r);
  rating_pool_free(&p);

  /* A disconnected pool: two pairs that never met. */
  rating_pool_init(&p);
  int a1 = pool_named(&p, "a1"), a2 = pool_named(&p, "a2");
  int b1 = pool_named(&p, "b1"), b2 = pool_named(&p, "b2");
  rating_pool_add(&p, a1, a2, 30, 10, 10);
  rating_pool_add(&p, b1, b2, 5, 10, 35);
  fit_ok(&p, NULL, &r);
  assert_true(r.regularized);
  for (int i = 0; i < 4; i++) assert_true(r.player[i].bounded);
  assert_true(r.player[a1].elo > r.player[a2].elo && r.player[b2].elo > r.player[b1].elo);
  rating_print_los(stdout, &r);
  rating_result_free(&r);
  rating_pool_free(&p);

  /* Bad input to the pool. */
  rating_pool_init(&p);
  int x = pool_named(&p, "x");
  assert_int_equal(rating_pool_add(&p, x, x, 1, 0, 0), -1);
  assert_int_equal(rating_pool_add(&p, x, 7, 1, 0, 0), -1);
  assert_int_equal(rating_pool_add(&p, x, pool_named(&p, "y"), -1, 0, 0), -1);
  rating_pool_free(&p);
}

/* Random pools and counts, extreme ones included: always finite. */
static void test_fuzz(void **state) {
  (void)state;
  rng g;
  rng_seed(&g, 99);
  static const long long scale[] = {0, 1, 3, 10, 1000, 1000000, 1000000000};
  for (int rep = 0; rep < 400; rep++) {
    rating_pool p;
    rating_pool_init(&p);
    int n = 1 + (int)rng_below(&g, 8);
    char name[16];
    for (int i = 0; i < n; i++) {
      snprintf(name, sizeof name, "f%d", i);
      pool_named(&p, name);
    }
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        if (rng_below(&g, 3) == 0) continue;
        long long c[3];
        for (int k = 0; k < 3; k++) c[k] = rng_below(&g, 2) ? (long long)rng_below(&g, (uint32_t)scale[rng_below(&g, 7)] + 1) : 0;
        assert_int_equal(rating_pool_add(&p, i, j, c[0], c[1], c[2]), 0);
      }
    rating_result r;
    rating_options opt = {rng_below(&g, 2) ? "f0" : NULL, 1500, rep % 10 == 0 ? 50 : 0, (uint64_t)rep, 0};
    fit_ok(&p, &opt, &r);
    rating_result_free(&r);
    rating_pool_free(&p);
    rating_match m = {0};
    m.wins = rng_below(&g, 2) ? (long long)rng_below(&g, 1000000) : 0;
    m.draws = rng_below(&g, 2) ? (long long)rng_below(&g, 1000000) : 0;
    m.losses = rng_below(&g, 2) ? (long long)rng_below(&g, 1000000) : 0;
    for (int k = 0; k < 5; k++) m.penta[k] = rng_below(&g, 2) ? (long long)rng_below(&g, 100000) : 0;
    m.pairs_wl = m.penta[2] / 2;
    rating_match_stats st;
    rating_match_compute(&m, &st);
    double v[] = {st.score, st.elo, st.elo_err, st.penta_elo, st.penta_err, st.nelo, st.nelo_err, st.los};
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) assert_true(isfinite(v[k]));
    rating_sprt sp = {-(double)rng_below(&g, 20), 1 + (double)rng_below(&g, 20), 0.05, 0.05,
                      rep % 2 ? RATING_MODEL_LOGISTIC : RATING_MODEL_NORMALIZED};
    assert_true(isfinite(rating_sprt_test(&sp, &m, 0).llr));
    assert_true(isfinite(rating_sprt_test(&sp, &m, 1).llr));
  }
}

/* A pool that grows past its first allocation keeps its counts. */
static void test_pool_growth(void **state) {
  (void)state;
  rating_pool p;
  rating_pool_init(&p);
  char name[32];
  for (int i = 0; i < 100; i++) {
    snprintf(name, sizeof name, "n%d", i);
    int k = pool_named(&p, name);
    assert_int_equal(k, i);
    if (i) {
      assert_int_equal(rating_pool_add(&p, i - 1, i, 3, 1, 2), 0);
      long long pen[5] = {1, 0, 2, 0, 1};
      assert_int_equal(rating_pool_add_pairs(&p, i - 1, i, pen, 1), 0);
    }
  }
  assert_int_equal(pool_named(&p, "n7"), 7);
  rating_match m;
  rating_pool_match(&p, 8, 7, &m);
  assert_true(m.wins == 2 && m.draws == 1 && m.losses == 3);
  assert_true(m.penta[0] == 1 && m.penta[2] == 2 && m.penta[4] == 1 && m.pairs_wl == 1);
  rating_result r;
  fit_ok(&p, NULL, &r);
  assert_false(r.regularized);
  rating_result_free(&r);
  rating_pool_free(&p);
}

/* ------------------------------------------------------ match statistics */

/* Expected numbers from an independent Python script (docs/STATISTICS.md,
 * "Checking the numbers"), written from fastchess's and fishtest's
 * definitions: score, Elo ± (95%), nElo ±, LOS. */
static void test_match_stats(void **state) {
  (void)state;
  rating_match m = {30, 50, 20, {0}, 0};
  rating_match_stats s;
  rating_match_compute(&m, &s);
  assert_int_equal(s.games, 100);
  assert_close(s.score, 0.55, 1e-12);
  assert_close(s.elo, 34.86007028756008, 1e-9);
  assert_close(s.elo_err, 48.470228059870166, 1e-9);
  assert_close(s.nelo, 49.6336550746574, 1e-9);
  assert_close(s.nelo_err, 68.09612345718843, 1e-9);
  assert_close(s.los, 0.9234362744901654, 1e-9);
  assert_close(s.draw_ratio, 0.5, 1e-12);

  rating_match m2 = {120, 300, 80, {0}, 0};
  rating_match_compute(&m2, &s);
  assert_close(s.elo, 27.85437125655782, 1e-9);
  assert_close(s.elo_err, 19.24890026940166, 1e-9);
  assert_close(s.nelo, 44.303367723747364, 1e-9);
  assert_close(s.los, 0.9978231602572802, 1e-9);

  /* Pentanomial: LL, LD, WL+DD, WD, WW = 5, 30, 50, 40, 10. W/D/L chosen
   * to match (two games per pair). */
  rating_match m3 = {0, 0, 0, {5, 30, 50, 40, 10}, 20};
  m3.wins = 2 * 10 + 40 + 20;
  m3.losses = 2 * 5 + 30 + 20;
  m3.draws = 30 + 2 * 30 + 40;
  rating_match_compute(&m3, &s);
  assert_int_equal(s.pairs, 135);
  assert_int_equal(s.games, 270);
  assert_close(s.penta_elo, 25.783195690767446, 1e-9);
  assert_close(s.penta_err, 28.649188919223455, 1e-9);
  assert_close(s.nelo, 37.519516567629296, 1e-9);
  assert_close(s.nelo_err, 41.44198099573201, 1e-9);
  assert_close(s.los, 0.9620059821631692, 1e-9);
  assert_close(s.wl_dd_ratio, 20.0 / 30.0, 1e-12);
  assert_close(s.pairs_ratio, 50.0 / 35.0, 1e-12);

  rating_match m4 = {0, 0, 0, {10789, 19328, 33806, 19402, 10543}, 0};
  rating_match_compute(&m4, &s);
  assert_close(s.penta_elo, -0.7735773359165423, 1e-9);
  assert_close(s.penta_err, 1.2775798957280218, 1e-9);
  assert_close(s.nelo, -0.9516290044726001, 1e-9);
  assert_close(s.nelo_err, 1.5716238441118717, 1e-9);
  assert_close(s.los, 0.11765885803277504, 1e-9);

  /* add_game / add_pair. */
  rating_match a = {0};
  rating_match_add_pair(&a, 1, -1);
  rating_match_add_pair(&a, 0, 0);
  rating_match_add_pair(&a, 1, 0);
  rating_match_add_pair(&a, -1, -1);
  rating_match_add_game(&a, 1);
  assert_true(a.wins == 3 && a.draws == 3 && a.losses == 3);
  assert_true(a.penta[0] == 1 && a.penta[1] == 0 && a.penta[2] == 2 && a.penta[3] == 1 &&
              a.penta[4] == 0 && a.pairs_wl == 1);

  /* Degenerate counts: finite numbers. */
  rating_match d[] = {{0}, {10, 0, 0, {0, 0, 0, 0, 5}, 0}, {0, 10, 0, {0, 0, 5, 0, 0}, 0},
                      {0, 0, 7, {0}, 0}};
  for (size_t i = 0; i < sizeof d / sizeof *d; i++) {
    rating_match_compute(&d[i], &s);
    double v[] = {s.score, s.elo, s.elo_err, s.penta_elo, s.penta_err, s.nelo, s.nelo_err, s.los,
                  s.wl_dd_ratio, s.pairs_ratio};
    for (size_t k = 0; k < sizeof v / sizeof *v; k++) assert_true(isfinite(v[k]));
  }
  rating_match_compute(&d[1], &s);
  assert_true(s.elo > 1000 && s.los == 1.0);
  rating_match_compute(&d[2], &s);
  assert_close(s.elo, 0, 1e-9);
  assert_close(s.los, 0.5, 1e-12);
  rating_sprt sp;
  rating_sprt_default(&sp);
  rating_match_print(stdout, "new", "old", &m3, &sp);
  rating_match_print(stdout, "new", "old", &d[1], &sp);
  rating_match_print(stdout, "new", "old", &d[0], NULL);
}

/* ------------------------------------------------------------------ SPRT */

static void test_sprt_values(void **state) {
  (void)state;
  rating_sprt s;
  rating_sprt_default(&s);
  assert_close(rating_sprt_lower(&s), -2.9444389791664403, 1e-12);
  assert_close(rating_sprt_upper(&s), 2.9444389791664403, 1e-12);
  s.alpha = 0.05;
  s.beta = 0.1;
  assert_close(rating_sprt_lower(&s), -2.251291798606495, 1e-12);
  assert_close(rating_sprt_upper(&s), 2.8903717578961645, 1e-12);

  static const struct {
    long long c[5];
    int k;
    double e0, e1;
    rating_model model;
    double llr;
  } cases[] = {
      {{10789, 19328, 33806, 19402, 10543}, 5, -3, 1, RATING_MODEL_LOGISTIC, 2.131067811785043},
      {{10789, 19328, 33806, 19402, 10543}, 5, -3, 1, RATING_MODEL_NORMALIZED, 0.300869785504058},
      {{39, 2226, 31451, 2412, 40}, 5, 0.2, 0.9, RATING_MODEL_LOGISTIC, 2.1625425800500317},
      {{39, 2226, 31451, 2412, 40}, 5, 0.764, 3.439, RATING_MODEL_NORMALIZED, 2.1629408695852606},
      {{5, 30, 50, 40, 10}, 5, 0, 5, RATING_MODEL_NORMALIZED, 0.38768073149388904},
      {{5, 30, 50, 40, 10}, 5, 0, 5, RATING_MODEL_LOGISTIC, 0.5428167324570622},
      {{0, 3, 10, 0, 2}, 5, 0, 5, RATING_MODEL_NORMALIZED, 0.021770916156423268},
      {{0, 0, 0, 0, 7}, 5, 0, 5, RATING_MODEL_LOGISTIC, 0.10004160399868497},
      /* W, D, L */
      {{65388, 56553, 65804}, 3, -3, 1, RATING_MODEL_LOGISTIC, 2.049042617981811},
      {{65388, 56553, 65804}, 3, -3, 1, RATING_MODEL_NORMALIZED, 0.49171177626811247},
      {{120, 300, 80}, 3, 0, 10, RATING_MODEL_LOGISTIC, 2.368775004409393},
      {{120, 300, 80}, 3, 0, 10, RATING_MODEL_NORMALIZED, 1.6144540153699105},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    rating_sprt t = {cases[i].e0, cases[i].e1, 0.05, 0.05, cases[i].model};
    double llr = cases[i].k == 5
                     ? rating_sprt_llr_penta(&t, cases[i].c)
                     : rating_sprt_llr_wdl(&t, cases[i].c[0], cases[i].c[1], cases[i].c[2]);
    if (!(fabs(llr - cases[i].llr) < 1e-6 * fmax(1, fabs(cases[i].llr))))
      fail_msg("case %zu: LLR %.12f, expected %.12f", i, llr, cases[i].llr);
  }
  /* Decisions. */
  rating_sprt_default(&s);
  assert_int_equal(rating_sprt_decide(&s, 0), RATING_CONTINUE);
  assert_int_equal(rating_sprt_decide(&s, 3), RATING_ACCEPT_H1);
  assert_int_equal(rating_sprt_decide(&s, -3), RATING_ACCEPT_H0);
  assert_string_equal(rating_decision_name(RATING_ACCEPT_H1), "H1 accepted");
  /* No games: LLR 0; one category only: finite. */
  long long zero[5] = {0};
  assert_close(rating_sprt_llr_penta(&s, zero), 0, 0);
  assert_close(rating_sprt_llr_wdl(&s, 0, 0, 0), 0, 0);
  for (int k = 0; k < 5; k++) {
    long long one[5] = {0};
    one[k] = 1000;
    for (int model = 0; model < 2; model++) {
      s.model = model ? RATING_MODEL_LOGISTIC : RATING_MODEL_NORMALIZED;
      assert_true(isfinite(rating_sprt_llr_penta(&s, one)));
    }
  }
  assert_true(isfinite(rating_sprt_llr_wdl(&s, 0, 1000, 0)));
  /* rating_sprt_test takes the pairs when there are any. */
  rating_match m = {120, 300, 80, {0}, 0};
  rating_sprt t = {0, 10, 0.05, 0.05, RATING_MODEL_LOGISTIC};
  rating_sprt_result r = rating_sprt_test(&t, &m, 0);
  assert_close(r.llr, 2.368775004409393, 1e-6);
  assert_int_equal(r.decision, RATING_CONTINUE);
  m.penta[0] = 5, m.penta[1] = 30, m.penta[2] = 50, m.penta[3] = 40, m.penta[4] = 10;
  t.elo1 = 5;
  r = rating_sprt_test(&t, &m, 0);
  assert_close(r.llr, 0.5428167324570622, 1e-6);
  r = rating_sprt_test(&t, &m, 1);
  assert_true(fabs(r.llr - 0.5428167324570622) > 1e-3);
}

static void test_sprt_parse(void **state) {
  (void)state;
  rating_sprt s;
  char err[ERRLEN];
  assert_int_equal(rating_sprt_parse("elo0=0,elo1=5", &s, err, sizeof err), 0);
  assert_true(s.elo0 == 0 && s.elo1 == 5 && s.alpha == 0.05 && s.beta == 0.05 &&
              s.model == RATING_MODEL_NORMALIZED);
  assert_int_equal(rating_sprt_parse("model=logistic,beta=0.1,elo1=2.5,elo0=-1.5,alpha=0.01", &s,
                                     err, sizeof err),
                   0);
  assert_true(s.elo0 == -1.5 && s.elo1 == 2.5 && s.alpha == 0.01 && s.beta == 0.1 &&
              s.model == RATING_MODEL_LOGISTIC);
  static const char *const bad[][2] = {
      {"elo0=5,elo1=0", "less than"},   {"elo0=0,elo1=5,alpha=0.7", "alpha"},
      {"elo0=0,elo1=5,beta=0", "beta"}, {"elo0=0,elo1=x", "elo1"},
      {"elo0=0,elo1=5,model=bayes", "model"}, {"elo0=0,elo1=5,gamma=1", "gamma"},
      {"elo0", "key=value"},           {"elo0=0,elo1=1e9", "-500"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    err[0] = 0;
    assert_int_equal(rating_sprt_parse(bad[i][0], &s, err, sizeof err), -1);
    if (!strstr(err, bad[i][1])) fail_msg("'%s': message '%s' lacks '%s'", bad[i][0], err, bad[i][1]);
  }
}

/* ---------------------------------------------------------------- store */

static store *open_ok(const char *path) {
  store *s = NULL;
  char err[ERRLEN] = "";
  if (store_open(path, 1, &s, err, sizeof err)) fail_msg("store_open(%s): %s", path, err);
  return s;
}

static int64_t make_run(store *s, int nplayers, const char *const *names, const char *variant2) {
  store_run *r = calloc(1, sizeof *r);
  assert_non_null(r);
  store_run_set(&r->name, "t");
  r->kind = STORE_ROUND_ROBIN;
  store_run_set(&r->format, "games:2");
  store_run_set(&r->openings, "random:2");
  r->rounds = 1;
  r->threads = 1;
  r->seed = 1;
  for (int i = 0; i < nplayers; i++) store_run_add_player(r, names[i], "random");
  store_run_add_variant(r, "abapa");
  if (variant2) store_run_add_variant(r, variant2);
  char err[ERRLEN] = "";
  if (store_run_create(s, r, err, sizeof err)) fail_msg("store_run_create: %s", err);
  int64_t id = r->id;
  store_run_free(r);
  free(r);
  return id;
}

/* A game of series `series` (players a, b) where a scored `a_result`
 * (+1, 0, −1); a is South in even games. */
static void make_game(store_game *g, int64_t run, int series, int game_no, int a, int b,
                      int a_result, int variant_idx) {
  memset(g, 0, sizeof *g);
  g->run_id = run;
  g->series_no = series;
  g->game_no = game_no;
  g->variant_idx = variant_idx;
  g->a_idx = a;
  g->b_idx = b;
  int a_south = game_no % 2 == 0;
  g->south_idx = a_south ? a : b;
  g->north_idx = a_south ? b : a;
  snprintf(g->opening, sizeof g->opening, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  g->moves = "";
  g->winner = a_result == 0 ? -1 : (a_result > 0) == a_south ? 0 : 1;
  g->score2[0] = g->score2[1] = 48;
  g->end = MATCH_MAJORITY;
  g->seed = 7;
}

static void insert_ok(store *s, const store_game *g, int n) {
  char err[ERRLEN] = "";
  if (store_games_insert(s, g, n, err, sizeof err)) fail_msg("store_games_insert: %s", err);
}

static int collect_rating(void *ctx, const store_rating *r) {
  store_rating *v = ctx;
  int k = 0;
  while (v[k].player[0]) k++;
  v[k] = *r;
  return 0;
}

/* Ratings round trip; batches; filtering by run. */
static void test_store_ratings(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "ratings.db");
  store *s = open_ok(path);
  static const char *const names[] = {"alpha", "beta"};
  int64_t run = make_run(s, 2, names, NULL);
  store_rating rows[3];
  memset(rows, 0, sizeof rows);
  for (int i = 0; i < 2; i++) {
    rows[i].run_id = run;
    snprintf(rows[i].scope, sizeof rows[i].scope, "run %lld", (long long)run);
    snprintf(rows[i].player, sizeof rows[i].player, "%s", names[i]);
    rows[i].elo = i ? -12.5 : 12.5;
    rows[i].lo = rows[i].elo - 20;
    rows[i].hi = rows[i].elo + 21;
    rows[i].games = 40;
    rows[i].score = i ? 0.45 : 0.55;
    rows[i].draws = 0.25;
    rows[i].games_total = 40;
    rows[i].bound = i;
  }
  assert_int_equal(store_ratings_insert(s, rows, 2, err, sizeof err), 0);
  assert_int_equal(rows[0].batch, 1);
  assert_int_equal(rows[1].batch, 1);
  assert_true(strlen(rows[0].created) == 20);
  rows[2] = rows[0];
  rows[2].run_id = 0; /* pooled */
  snprintf(rows[2].scope, sizeof rows[2].scope, "all runs");
  assert_int_equal(store_ratings_insert(s, &rows[2], 1, err, sizeof err), 0);
  assert_int_equal(rows[2].batch, 2);
  /* A NaN is refused (NOT NULL), and nothing of the batch is kept. */
  store_rating badrow[2] = {rows[0], rows[1]};
  badrow[1].elo = NAN;
  assert_int_equal(store_ratings_insert(s, badrow, 2, err, sizeof err), -1);
  printf("  NaN: %s\n", err);
  store_close(s);

  s = open_ok(path);
  store_rating got[8];
  memset(got, 0, sizeof got);
  assert_int_equal(store_ratings_foreach(s, 0, collect_rating, got, err, sizeof err), 0);
  assert_string_equal(got[0].player, "alpha");
  assert_string_equal(got[1].player, "beta");
  assert_string_equal(got[2].scope, "all runs");
  assert_int_equal(got[2].run_id, 0);
  assert_true(got[3].player[0] == 0);
  assert_true(got[1].elo == -12.5 && got[1].lo == -32.5 && got[1].hi == 8.5 &&
              got[1].games == 40 && got[1].score == 0.45 && got[1].draws == 0.25 &&
              got[1].games_total == 40 && got[1].bound == 1 && got[1].batch == 1 &&
              got[1].run_id == run);
  assert_string_equal(got[1].created, rows[1].created);
  memset(got, 0, sizeof got);
  assert_int_equal(store_ratings_foreach(s, run, collect_rating, got, err, sizeof err), 0);
  assert_true(got[1].player[0] && !got[2].player[0]);
  /* Deleting the run deletes its ratings (not the pooled one). */
  store_close(s);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db, "PRAGMA foreign_keys=ON; DELETE FROM runs", NULL, NULL, NULL),
                   SQLITE_OK);
  sqlite3_stmt *st;
  assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM ratings", -1, &st, NULL),
                   SQLITE_OK);
  assert_int_equal(sqlite3_step(st), SQLITE_ROW);
  assert_int_equal(sqlite3_column_int(st, 0), 1);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

/* The schema of version 1, as store.c created it before version 2. */
static const char v1_schema[] =
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL,"
    " format TEXT NOT NULL, openings TEXT NOT NULL,"
    " rounds INTEGER NOT NULL CHECK (rounds >= 0), threads INTEGER NOT NULL CHECK (threads >= 0),"
    " seed TEXT NOT NULL CHECK (seed <> '' AND seed NOT GLOB '*[^0-9]*'), command TEXT NOT NULL,"
    " status TEXT NOT NULL, started TEXT NOT NULL, finished TEXT);"
    "CREATE TABLE players (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " idx INTEGER NOT NULL CHECK (idx >= 0), name TEXT NOT NULL, spec TEXT NOT NULL,"
    " PRIMARY KEY (run_id, idx)) WITHOUT ROWID;"
    "CREATE TABLE variants (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " idx INTEGER NOT NULL CHECK (idx >= 0), name TEXT NOT NULL, PRIMARY KEY (run_id, idx))"
    " WITHOUT ROWID;"
    "CREATE TABLE series (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " series_no INTEGER NOT NULL CHECK (series_no >= 0), variant_idx INTEGER NOT NULL,"
    " round INTEGER NOT NULL, a_idx INTEGER NOT NULL, b_idx INTEGER NOT NULL,"
    " games INTEGER NOT NULL CHECK (games >= 0), wins_a INTEGER NOT NULL CHECK (wins_a >= 0),"
    " wins_b INTEGER NOT NULL CHECK (wins_b >= 0), draws INTEGER NOT NULL CHECK (draws >= 0),"
    " winner INTEGER NOT NULL CHECK (winner BETWEEN -1 AND 1), PRIMARY KEY (run_id, series_no),"
    " FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx),"
    " FOREIGN KEY (run_id, a_idx) REFERENCES players(run_id, idx),"
    " FOREIGN KEY (run_id, b_idx) REFERENCES players(run_id, idx),"
    " CHECK (wins_a + wins_b + draws = games)) WITHOUT ROWID;"
    "CREATE TABLE games (id INTEGER PRIMARY KEY,"
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " series_no INTEGER NOT NULL CHECK (series_no >= 0), game_no INTEGER NOT NULL CHECK (game_no >= 0),"
    " variant_idx INTEGER NOT NULL, round INTEGER NOT NULL, a_idx INTEGER NOT NULL,"
    " b_idx INTEGER NOT NULL, south_idx INTEGER NOT NULL, north_idx INTEGER NOT NULL,"
    " opening TEXT NOT NULL, moves TEXT NOT NULL,"
    " winner INTEGER NOT NULL CHECK (winner BETWEEN -1 AND 1), score_south REAL NOT NULL,"
    " score_north REAL NOT NULL, plies INTEGER NOT NULL CHECK (plies >= 0),"
    " end_reason TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '', seed TEXT NOT NULL,"
    " seconds REAL NOT NULL, UNIQUE (run_id, series_no, game_no),"
    " FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx),"
    " FOREIGN KEY (run_id, south_idx) REFERENCES players(run_id, idx),"
    " FOREIGN KEY (run_id, north_idx) REFERENCES players(run_id, idx),"
    " CHECK ((south_idx = a_idx AND north_idx = b_idx) OR"
    " (south_idx = b_idx AND north_idx = a_idx)));"
    "PRAGMA application_id = 1331118418; PRAGMA user_version = 1;"
    "INSERT INTO runs VALUES (1, 'old', 'round-robin', 'games:2', 'random:2', 1, 1, '5', 'x',"
    " 'finished', '2025-01-01T00:00:00Z', '2025-01-01T00:01:00Z');"
    "INSERT INTO players VALUES (1, 0, 'p', 'random'), (1, 1, 'q', 'greedy');"
    "INSERT INTO variants VALUES (1, 0, 'abapa');"
    "INSERT INTO games (run_id, series_no, game_no, variant_idx, round, a_idx, b_idx, south_idx,"
    " north_idx, opening, moves, winner, score_south, score_north, plies, end_reason, seed,"
    " seconds) VALUES (1, 0, 0, 0, 0, 0, 1, 0, 1, 'o', 'Aa', 0, 30, 18, 2, 'majority', '1', 0.5),"
    " (1, 0, 1, 0, 0, 0, 1, 1, 0, 'o', 'Bb', -1, 24, 24, 2, 'repetition', '2', 0.5);";

static long long sql_int(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
    fail_msg("%s: %s", sql, sqlite3_errmsg(db));
  assert_int_equal(sqlite3_step(st), SQLITE_ROW);
  long long v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return v;
}

static void make_v1(const char *path, const char *extra) {
  unlink(path);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  char *msg = NULL;
  if (sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, &msg) != SQLITE_OK ||
      sqlite3_exec(db, v1_schema, NULL, NULL, &msg) != SQLITE_OK ||
      (extra && sqlite3_exec(db, extra, NULL, NULL, &msg) != SQLITE_OK))
    fail_msg("v1 database: %s", msg);
  sqlite3_close(db);
}

/* A version 1 file is upgraded in place, in one transaction. */
static void test_migration(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "v1.db");
  make_v1(path, NULL);
  store *s = open_ok(path);
  store_run run;
  assert_int_equal(store_run_load(s, 1, &run, err, sizeof err), 0);
  assert_string_equal(run.player_name[1], "q");
  store_run_free(&run);
  assert_int_equal(store_games_count(s, 1), 2);
  /* The old games rate; the ratings store. */
  rating_pool p;
  rating_pool_init(&p);
  int64_t one = 1;
  assert_int_equal(rating_pool_load(&p, s, &one, 1, NULL, err, sizeof err), 0);
  assert_int_equal(p.n, 2);
  rating_match m;
  rating_pool_match(&p, 0, 1, &m);
  assert_true(m.wins == 1 && m.draws == 1 && m.losses == 0 && m.penta[3] == 1);
  rating_pool_free(&p);
  assert_int_equal(rating_print_run(s, 1, stdout, 1, NULL, err, sizeof err), 0);
  store_close(s);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sql_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM ratings"), 2);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'ratings_by_run'"),
                   1);
  sqlite3_close(db);

  /* An upgrade that fails (a table of that name is in the way) changes
   * nothing: still version 1, the intruder intact. */
  make_v1(path, "CREATE TABLE ratings (x); INSERT INTO ratings VALUES (42);");
  store *bad = (store *)1;
  assert_int_equal(store_open(path, 0, &bad, err, sizeof err), -1);
  printf("  failed upgrade: %s\n", err);
  assert_non_null(strstr(err, "ratings"));
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sql_int(db, "PRAGMA user_version"), 1);
  assert_int_equal(sql_int(db, "SELECT x FROM ratings"), 42);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'ratings_by_run'"),
                   0);
  sqlite3_close(db);
}

/* store_pair_counts: W/D/L and pairs per pair of names, pooled over runs,
 * by variant; unknown runs. */
static void test_pair_counts(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "pairs.db");
  store *s = open_ok(path);
  static const char *const n1[] = {"zeta", "alpha", "mid"};
  static const char *const n2[] = {"alpha", "zeta"};
  int64_t r1 = make_run(s, 3, n1, "awari"), r2 = make_run(s, 2, n2, NULL);
  store_game g[16];
  /* Run 1, series 0: zeta (0) vs alpha (1): pairs WL, WD; a lone game 4 (W). */
  make_game(&g[0], r1, 0, 0, 0, 1, 1, 0);
  make_game(&g[1], r1, 0, 1, 0, 1, -1, 0);
  make_game(&g[2], r1, 0, 2, 0, 1, 1, 0);
  make_game(&g[3], r1, 0, 3, 0, 1, 0, 0);
  make_game(&g[4], r1, 0, 4, 0, 1, 1, 0);
  /* Run 1, series 1: alpha (1) vs mid (2), variant awari: DD, LL. */
  make_game(&g[5], r1, 1, 0, 1, 2, 0, 1);
  make_game(&g[6], r1, 1, 1, 1, 2, 0, 1);
  make_game(&g[7], r1, 1, 2, 1, 2, -1, 1);
  make_game(&g[8], r1, 1, 3, 1, 2, -1, 1);
  /* Run 2: alpha (0) vs zeta (1): pair LD. */
  make_game(&g[9], r2, 0, 0, 0, 1, -1, 0);
  make_game(&g[10], r2, 0, 1, 0, 1, 0, 0);
  insert_ok(s, g, 11);
  store_pair_count *pc;
  int n;
  int64_t both[2] = {r1, r2};
  assert_int_equal(store_pair_counts(s, both, 2, NULL, &pc, &n, err, sizeof err), 0);
  assert_int_equal(n, 2);
  /* alpha–mid: alpha 2 draws 2 losses; pairs DD and LL. */
  assert_string_equal(pc[0].a, "alpha");
  assert_string_equal(pc[0].b, "mid");
  assert_true(pc[0].wins == 0 && pc[0].draws == 2 && pc[0].losses == 2);
  assert_true(pc[0].penta[0] == 1 && pc[0].penta[2] == 1 && pc[0].pairs_wl == 0);
  /* alpha–zeta: run 1 from zeta's side W L W D W (alpha: 1 W, 1 D, 3 L),
   * run 2 alpha L D. Pairs (alpha's side): LW → 1 (WL), LD, LD. */
  assert_string_equal(pc[1].a, "alpha");
  assert_string_equal(pc[1].b, "zeta");
  assert_true(pc[1].wins == 1 && pc[1].draws == 2 && pc[1].losses == 4);
  assert_true(pc[1].penta[0] == 0 && pc[1].penta[1] == 2 && pc[1].penta[2] == 1 &&
              pc[1].penta[3] == 0 && pc[1].penta[4] == 0 && pc[1].pairs_wl == 1);
  free(pc);
  /* Every run (nruns 0) is the same here; the variant filter. */
  assert_int_equal(store_pair_counts(s, NULL, 0, "awari", &pc, &n, err, sizeof err), 0);
  assert_int_equal(n, 1);
  assert_string_equal(pc[0].b, "mid");
  free(pc);
  assert_int_equal(store_pair_counts(s, &r2, 1, "awari", &pc, &n, err, sizeof err), 0);
  assert_int_equal(n, 0);
  assert_null(pc);
  int64_t bad[2] = {r1, 99};
  assert_int_equal(store_pair_counts(s, bad, 2, NULL, &pc, &n, err, sizeof err), -1);
  assert_non_null(strstr(err, "no run 99"));
  /* The pool of both runs. */
  rating_pool p;
  rating_pool_init(&p);
  assert_int_equal(rating_pool_load(&p, s, both, 2, NULL, err, sizeof err), 0);
  assert_int_equal(p.n, 3);
  /* In the order of the first run's players, not of the names. */
  assert_string_equal(p.name[0], "zeta");
  assert_string_equal(p.name[1], "alpha");
  assert_string_equal(p.name[2], "mid");
  rating_result r;
  fit_ok(&p, NULL, &r);
  rating_print_table(stdout, &r);
  rating_result_free(&r);
  rating_pool_free(&p);
  store_close(s);
}

/* ------------------------------------------------------------------ CLI */

/* Runs the oware binary with args; returns the exit code, output in out. */
static int run_oware(const char *args, char *out, size_t outlen) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", OWARE_BIN, args);
  FILE *f = popen(cmd, "r");
  assert_non_null(f);
  size_t n = fread(out, 1, outlen - 1, f);
  out[n] = 0;
  int st = pclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_cli(void **state) {
  (void)state;
  char path[256], args[1024], err[ERRLEN] = "";
  static char out[65536];
  path_in_tmp(path, sizeof path, "cli.db");
  store *s = open_ok(path);
  static const char *const names[] = {"strong", "middle", "weak"};
  int64_t run = make_run(s, 3, names, NULL);
  rng g;
  rng_seed(&g, 11);
  store_game games[600];
  int k = 0;
  for (int a = 0; a < 3; a++)
    for (int b = a + 1; b < 3; b++)
      for (int i = 0; i < 200; i++)
        make_game(&games[k++], run, a * 3 + b, i, a, b, sim_game(&g, 150.0 * (b - a), 0.3), 0);
  insert_ok(s, games, k);
  store_close(s);
  (void)err;

  snprintf(args, sizeof args, "rate --db '%s'", path);
  assert_int_equal(run_oware(args, out, sizeof out), 0);
  printf("%s", out);
  assert_non_null(strstr(out, "strong"));
  assert_non_null(strstr(out, "Likelihood of superiority"));
  assert_true(strstr(out, "strong") < strstr(out, "middle") &&
              strstr(out, "middle") < strstr(out, "weak"));
  snprintf(args, sizeof args, "rate --db '%s' --run %lld --anchor weak=1000 --bootstrap 200 --seed 3",
           path, (long long)run);
  assert_int_equal(run_oware(args, out, sizeof out), 0);
  assert_non_null(strstr(out, "1000.0"));
  assert_non_null(strstr(out, "bootstrap"));
  snprintf(args, sizeof args, "rate --db '%s' --all --variant abapa", path);
  assert_int_equal(run_oware(args, out, sizeof out), 0);
  snprintf(args, sizeof args, "rate --db '%s' --all --variant awari", path);
  assert_int_equal(run_oware(args, out, sizeof out), 0);
  assert_non_null(strstr(out, "No games"));
  /* Stored: three fits of three players (the empty one stores nothing). */
  s = open_ok(path);
  store_rating got[16];
  memset(got, 0, sizeof got);
  assert_int_equal(store_ratings_foreach(s, 0, collect_rating, got, err, sizeof err), 0);
  assert_true(got[8].player[0] && !got[9].player[0]);
  assert_int_equal(got[0].run_id, run);
  assert_int_equal(got[6].run_id, 0);
  assert_string_equal(got[3].player, "strong");
  assert_close(got[5].elo, 1000, 0.01);
  store_close(s);
  /* Bad input: exit 2 with a message naming it. */
  static const char *const bad[][2] = {
      {"--run 99", "no run 99"},          {"--anchor nobody=0", "nobody"},
      {"--anchor weak", "NAME=ELO"},      {"--anchor weak=x", "Elo"},
      {"--bootstrap -1", "--bootstrap"},  {"--run 1 --all", "--all"},
      {"--variant nonsense=3", ""},       {"--frob", "--frob"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    snprintf(args, sizeof args, "rate --db '%s' %s", path, bad[i][0]);
    int rc = run_oware(args, out, sizeof out);
    if (rc != 2 || !strstr(out, bad[i][1]))
      fail_msg("oware %s: exit %d, '%s' (expected 2 and '%s')", args, rc, out, bad[i][1]);
  }
  snprintf(args, sizeof args, "rate --db '%s/missing.db'", tmpdir);
  assert_int_equal(run_oware(args, out, sizeof out), 2);

  /* oware sprt. */
  assert_int_equal(run_oware("sprt --elo0 -3 --elo1 1 --model logistic --penta "
                             "10789,19328,33806,19402,10543",
                             out, sizeof out),
                   0);
  printf("%s", out);
  assert_non_null(strstr(out, "LLR 2.1311\n"));
  assert_non_null(strstr(out, "bounds -2.9444 2.9444\n"));
  assert_non_null(strstr(out, "decision continue\n"));
  assert_int_equal(run_oware("sprt --elo0 0 --elo1 10 --wdl 120,300,80 --model normalized", out,
                             sizeof out),
                   0);
  assert_non_null(strstr(out, "LLR 1.6145\n"));
  assert_int_equal(run_oware("sprt --elo0 0 --elo1 5 --alpha 0.05 --beta 0.05 --penta 0,0,0,0,400",
                             out, sizeof out),
                   0);
  assert_non_null(strstr(out, "H1 accepted"));
  static const char *const sbad[][2] = {
      {"--elo0 0 --elo1 5 --penta 1,2,3,4", "--penta"},
      {"--elo0 0 --elo1 5 --penta 1,2,3,4,x", "--penta"},
      {"--elo0 0 --elo1 5 --wdl 1,-2,3", "--wdl"},
      {"--elo0 0 --elo1 5", "--penta"},
      {"--elo0 0 --elo1 5 --wdl 1,2,3 --penta 1,2,3,4,5", "either"},
      {"--elo0 5 --elo1 0 --wdl 1,2,3", "less than"},
      {"--elo0 0 --elo1 5 --model bayes --wdl 1,2,3", "--model"},
      {"--elo1 5 --wdl 1,2,3", "--elo0"},
      {"--elo0 0 --elo1 5 --alpha 2 --wdl 1,2,3", "alpha"},
  };
  for (size_t i = 0; i < sizeof sbad / sizeof *sbad; i++) {
    snprintf(args, sizeof args, "sprt %s", sbad[i][0]);
    int rc = run_oware(args, out, sizeof out);
    if (rc != 2 || !strstr(out, sbad[i][1]))
      fail_msg("oware %s: exit %d, '%s' (expected 2 and '%s')", args, rc, out, sbad[i][1]);
  }
}

/* ------------------------------------------------------------ performance */

/* 1,000,000 games of 50 players: aggregate in SQL and fit. Only with
 * OWARE_RATING_BENCH=1 in the environment (it takes a while to write). */
static void test_bench_million(void **state) {
  (void)state;
  if (!getenv("OWARE_RATING_BENCH")) {
    printf("  (skipped: set OWARE_RATING_BENCH=1 to rate 1,000,000 games of 50 players)\n");
    return;
  }
  enum { NP = 50, TOTAL = 1000000, BATCH = 20000 };
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "million.db");
  store *s = open_ok(path);
  static char names[NP][16];
  const char *np[NP];
  for (int i = 0; i < NP; i++) {
    snprintf(names[i], sizeof names[i], "player%02d", i);
    np[i] = names[i];
  }
  int64_t run = make_run(s, NP, np, NULL);
  store_game *g = malloc(BATCH * sizeof *g);
  assert_non_null(g);
  rng r;
  rng_seed(&r, 1);
  int pairs = NP * (NP - 1) / 2, per = TOTAL / pairs + 1, k = 0, done = 0, series = 0;
  double t0 = now_s();
  for (int a = 0; a < NP && done < TOTAL; a++)
    for (int b = a + 1; b < NP && done < TOTAL; b++, series++)
      for (int i = 0; i < per && done < TOTAL; i++, done++) {
        make_game(&g[k++], run, series, i, a, b, sim_game(&r, 10.0 * (b - a), 0.3), 0);
        if (k == BATCH) {
          insert_ok(s, g, k);
          k = 0;
        }
      }
  if (k) insert_ok(s, g, k);
  free(g);
  double t1 = now_s();
  rating_pool p;
  rating_pool_init(&p);
  assert_int_equal(rating_pool_load(&p, s, &run, 1, NULL, err, sizeof err), 0);
  double t2 = now_s();
  rating_result res;
  fit_ok(&p, NULL, &res);
  double t3 = now_s();
  rating_result b;
  rating_options opt = {NULL, 0, 1000, 1, 0};
  fit_ok(&p, &opt, &b);
  double t4 = now_s();
  printf("  %d games written in %.1f s; aggregated in %.2f s; fitted in %.3f s (%d Newton steps);"
         " 1000 bootstrap fits in %.2f s\n",
         done, t1 - t0, t2 - t1, t3 - t2, res.iterations, t4 - t3);
  assert_int_equal(res.games, TOTAL);
  assert_true(t2 - t1 < 30 && t3 - t2 < 5);
  rating_result_free(&b);
  rating_result_free(&res);
  rating_pool_free(&p);
  store_close(s);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/test_rating.XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_two_players_score),  cmocka_unit_test(test_coverage),
      cmocka_unit_test(test_bootstrap_coverage), cmocka_unit_test(test_bootstrap_reproducible),
      cmocka_unit_test(test_los_and_ranks),      cmocka_unit_test(test_degenerate),
      cmocka_unit_test(test_fuzz),               cmocka_unit_test(test_pool_growth),
      cmocka_unit_test(test_match_stats),
      cmocka_unit_test(test_sprt_values),        cmocka_unit_test(test_sprt_parse),
      cmocka_unit_test(test_store_ratings),      cmocka_unit_test(test_migration),
      cmocka_unit_test(test_pair_counts),        cmocka_unit_test(test_cli),
      cmocka_unit_test(test_bench_million),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  char cmd[192];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  return failed;
}
