/* test_interp.c: the piecewise-linear curve of core/interp, both ways, in x and in log x. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/interp.h"

static void near(double got, double want) {
  if (fabs(got - want) > 1e-9) fail_msg("got %.12g, want %.12g", got, want);
}

static void test_linear(void **state) {
  (void)state;
  const double x[] = {0, 10, 20}, y[] = {-100, 0, 300};
  near(interp_y(x, y, 3, 0, 5), -50);
  near(interp_y(x, y, 3, 0, 15), 150);
  near(interp_y(x, y, 3, 0, -1), -100); /* flat beyond the ends */
  near(interp_y(x, y, 3, 0, 99), 300);
  near(interp_x(x, y, 3, 0, -50), 5);
  near(interp_x(x, y, 3, 0, 0), 10);
  near(interp_x(x, y, 3, 0, 150), 15);
  near(interp_x(x, y, 3, 0, -500), 0); /* beyond: the closer end */
  near(interp_x(x, y, 3, 0, 500), 20);
  /* One point. */
  near(interp_y(x, y, 1, 0, 7), -100);
  near(interp_x(x, y, 1, 0, 7), 0);
}

static void test_log(void **state) {
  (void)state;
  const double x[] = {6, 24, 78, 164}, y[] = {-200, 100, 400, 700};
  /* Halfway in log between 6 and 24 is 12. */
  near(interp_y(x, y, 4, 1, 12), -50);
  near(interp_x(x, y, 4, 1, -50), 12);
  for (double e = -200; e <= 700; e += 37.5) near(interp_y(x, y, 4, 1, interp_x(x, y, 4, 1, e)), e);
}

static void test_flat_and_falling(void **state) {
  (void)state;
  const double x[] = {0, 1, 2, 3, 4}, y[] = {0, 10, 10, 10, 20};
  near(interp_x(x, y, 5, 0, 10), 2); /* the middle of the flat stretch */
  near(interp_x(x, y, 5, 0, 15), 3.5);
  const double f[] = {50, 40, 40, 0, -10}; /* falling: noise, say */
  near(interp_x(x, f, 5, 0, 45), 0.5);
  near(interp_x(x, f, 5, 0, 40), 1.5);
  near(interp_x(x, f, 5, 0, 20), 2.5);
  near(interp_x(x, f, 5, 0, 99), 0);
  near(interp_x(x, f, 5, 0, -99), 4);
  const double s[] = {7, 7, 9}; /* a flat start at the value asked */
  near(interp_x(x, s, 3, 0, 7), 0.5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_linear),
      cmocka_unit_test(test_log),
      cmocka_unit_test(test_flat_and_falling),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
