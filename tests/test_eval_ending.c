/* test_eval_ending.c: the endings table: the default, the file format and its errors, the correction by seed count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "players/eval_ending.h"

static void parse_bad(const char *text, const char *want) {
  eval_ending e;
  char err[512] = "";
  assert_int_equal(eval_ending_parse(text, &e, err, sizeof err), -1);
  if (!strstr(err, want)) fail_msg("error '%s' does not say '%s'", err, want);
}

/* The default covers 1..20 seeds without a gap, the store's slot is 0. */
static void test_default(void **state) {
  (void)state;
  eval_ending e;
  eval_ending_default(&e);
  assert_true(e.n >= 1);
  assert_int_equal(e.lo[0], 1);
  assert_int_equal(e.hi[e.n - 1], 20);
  for (int n = 1; n <= 20; n++) assert_true(e.at[n] >= 0);
  assert_int_equal(e.at[0], -1);
  assert_int_equal(e.at[21], -1);
  for (int r = 0; r < e.n; r++) assert_int_equal(e.w[r][EVAL_STORE], 0);
}

/* The correction is the tempo plus the weights of the seed count's range,
 * nothing outside the ranges, and the store never counts. */
static void test_value(void **state) {
  (void)state;
  eval_ending e;
  char err[256];
  assert_int_equal(eval_ending_parse("2 3 -7 1 2 3 4 5 6 7 8 9\n5 5 11 0 0 0 0 0 0 0 0 -1\n", &e,
                                     err, sizeof err),
                   0);
  int f[EVAL_N];
  for (int i = 0; i < EVAL_N; i++) f[i] = i + 1; /* the store's feature 1 */
  int want = -7;
  for (int i = 1; i < EVAL_N; i++) want += i * (i + 1);
  assert_int_equal(eval_ending_value(&e, 2, f), want);
  assert_int_equal(eval_ending_value(&e, 3, f), want);
  assert_int_equal(eval_ending_value(&e, 5, f), 11 - EVAL_N);
  assert_int_equal(eval_ending_value(&e, 1, f), 0);
  assert_int_equal(eval_ending_value(&e, 4, f), 0);
  assert_int_equal(eval_ending_value(&e, 6, f), 0);
  assert_int_equal(eval_ending_value(&e, -1, f), 0);
  assert_int_equal(eval_ending_value(&e, 100000, f), 0);
}

/* What eval_ending_write writes reads back the same. */
static void test_round_trip(void **state) {
  (void)state;
  eval_ending e, back;
  eval_ending_default(&e);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_int_equal(eval_ending_write(f, &e, "a comment\nof two lines"), 0);
  fclose(f);
  assert_non_null(strstr(buf, "# a comment\n# of two lines\n"));
  char err[256];
  assert_int_equal(eval_ending_parse(buf, &back, err, sizeof err), 0);
  free(buf);
  assert_int_equal(back.n, e.n);
  assert_memory_equal(back.lo, e.lo, sizeof e.lo);
  assert_memory_equal(back.hi, e.hi, sizeof e.hi);
  assert_memory_equal(back.tempo, e.tempo, sizeof e.tempo);
  assert_memory_equal(back.w, e.w, sizeof e.w);
  assert_memory_equal(back.at, e.at, sizeof e.at);
}

/* Bad files are refused with the line and what is wrong. */
static void test_errors(void **state) {
  (void)state;
  parse_bad("", "no range");
  parse_bad("# only a comment\n\n", "no range");
  parse_bad("1 4 0 1 2 3\n", "line 1: 6 columns, not 12");
  parse_bad("1 4 0 1 2 3 4 5 6 7 8 9 10\n", "line 1: more than 12 columns");
  parse_bad("\n1 4 0 1 2 x 4 5 6 7 8 9\n", "line 2: column 6, 'x', is not a whole number");
  parse_bad("1 4 0 1 2 3.5 4 5 6 7 8 9\n", "'3.5', is not a whole number");
  parse_bad("1 4 0 1 2 3 4 5 6 7 8 9999999\n", "'9999999', is not a whole number");
  parse_bad("0 4 0 1 2 3 4 5 6 7 8 9\n", "line 1: range 0..4: seeds on the board go from 1");
  parse_bad("5 4 0 1 2 3 4 5 6 7 8 9\n", "range 5..4");
  parse_bad("1 999 0 1 2 3 4 5 6 7 8 9\n", "range 1..999");
  parse_bad("1 4 0 1 2 3 4 5 6 7 8 9\n4 6 0 1 2 3 4 5 6 7 8 9\n",
            "line 2: range 4..6: ranges go in increasing order without overlapping");
  char big[2048];
  memset(big, '1', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  parse_bad(big, "line 1: longer than");
}

/* A file that is not there, or cut short, is refused with its name. */
static void test_load(void **state) {
  (void)state;
  eval_ending e;
  char err[512], path[] = "/tmp/oware-ending-XXXXXX";
  assert_int_equal(eval_ending_load("/nonexistent/endings.txt", &e, err, sizeof err), -1);
  assert_non_null(strstr(err, "endings: cannot open '/nonexistent/endings.txt'"));
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs("1 4 0 1 2 3 4 5 6 7 8 9", f); /* no end of line: cut short */
  fclose(f);
  assert_int_equal(eval_ending_load(path, &e, err, sizeof err), -1);
  assert_non_null(strstr(err, "looks truncated"));
  f = fopen(path, "w");
  fputs("1 4 0 1 2 3 4 5 6 7 8 9\n", f);
  fclose(f);
  assert_int_equal(eval_ending_load(path, &e, err, sizeof err), 0);
  assert_int_equal(e.n, 1);
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_default), cmocka_unit_test(test_value),
      cmocka_unit_test(test_round_trip), cmocka_unit_test(test_errors),
      cmocka_unit_test(test_load),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
