/* rating_checks.h: checks shared by the rating tests (test_stats.c, test_rating.c); include after cmocka.h. */
#ifndef OWARE_TESTS_RATING_CHECKS_H
#define OWARE_TESTS_RATING_CHECKS_H

#include <math.h>

#include "stats/elo_fit.h"

#ifndef ERRLEN
#define ERRLEN 1024
#endif

#define assert_close(x, y, tol)                                                                    \
  do {                                                                                             \
    double x_ = (x), y_ = (y);                                                                     \
    if (!(fabs(x_ - y_) <= (tol)))                                                                 \
      fail_msg("%s = %.10g, expected %.10g (±%g)", #x, x_, y_, (double)(tol));                     \
  } while (0)

static inline void assert_finite_result(const rating_result *r) {
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

static inline int pool_named(rating_pool *p, const char *name) {
  int i = rating_pool_player(p, name);
  assert_true(i >= 0);
  return i;
}

static inline void fit_ok(const rating_pool *p, const rating_options *opt, rating_result *r) {
  char err[ERRLEN] = "";
  if (rating_fit(p, opt, r, err, sizeof err)) fail_msg("rating_fit: %s", err);
  assert_finite_result(r);
}

#endif
