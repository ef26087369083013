/* test_egdb_layout.c: the build's two layouts of working memory write the same files; the memory each needs and the automatic choice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/fixture.h"

#include "core/variant.h"
#include "egdb/egdb.h"

static int quick(void) { return getenv("OWARE_TEST_QUICK") != NULL; }

static void get_variant(const char *name, variant *v) {
  char err[256];
  assert_int_equal(variant_parse(name, v, err, sizeof err), 0);
}

static void test_memory(void **state) {
  (void)state;
  variant a, w;
  get_variant("abapa", &a);
  get_variant("awari", &w);
  const uint64_t c24 = 417225900; /* C(35, 11) */
  assert_int_equal(egdb_count(24, 12), c24);
  /* fast: exits, values, a state byte (each again for split but the exits) */
  assert_int_equal(egdb_build_memory(&a, 24, EGDB_LAYOUT_FAST), c24 * 5);
  assert_int_equal(egdb_build_memory(&w, 24, EGDB_LAYOUT_FAST), c24 * 9);
  assert_int_equal(egdb_build_memory(&a, 24, EGDB_LAYOUT_LEAN), c24 * 3);
  assert_int_equal(egdb_build_memory(&w, 24, EGDB_LAYOUT_LEAN), c24 * 5);
  const uint64_t gib = (uint64_t)1 << 30;
  assert_int_equal(egdb_layout_choose(&a, 24, 4 * gib), EGDB_LAYOUT_FAST); /* 2.09 GB <= 3.22 */
  assert_int_equal(egdb_layout_choose(&w, 24, 4 * gib), EGDB_LAYOUT_LEAN); /* 3.75 GB > 3.22 */
  assert_int_equal(egdb_layout_choose(&w, 24, 8 * gib), EGDB_LAYOUT_FAST);
  assert_int_equal(egdb_layout_choose(&a, 24, 2 * gib), EGDB_LAYOUT_LEAN);
  assert_int_equal(egdb_layout_choose(&a, 10, 0), EGDB_LAYOUT_LEAN);
  assert_true(egdb_memory_available() > 0);
}

/* Builds `name` to N seeds with each layout forced and compares the files. */
static void check_variant(const char *root, const char *name, int N) {
  variant v;
  char dir[2][256], err[512];
  const egdb_layout layout[2] = {EGDB_LAYOUT_FAST, EGDB_LAYOUT_LEAN};
  get_variant(name, &v);
  for (int k = 0; k < 2; k++) {
    snprintf(dir[k], sizeof dir[k], "%s/%s-%d", root, name, k);
    egdb_build_stats st;
    int rc = egdb_build_layout(&v, dir[k], N, 2, layout[k], NULL, NULL, &st, err, sizeof err);
    if (rc) fprintf(stderr, "build: %s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(st.built, N + 1);
    assert_int_equal(st.built_lean, layout[k] == EGDB_LAYOUT_LEAN ? N + 1 : 0);
    assert_int_equal(st.peak_bytes, egdb_build_memory(&v, N, layout[k]));
  }
  for (int n = 0; n <= N; n++) {
    char a[512], b[512];
    egdb_path(dir[0], name, n, a, sizeof a);
    egdb_path(dir[1], name, n, b, sizeof b);
    if (!fixture_same_file(a, b)) fprintf(stderr, "%s n = %d: the layouts' files differ\n", name, n);
    assert_true(fixture_same_file(a, b));
  }
}

static void test_layouts_identical(void **state) {
  (void)state;
  char root[] = "/tmp/oware-test-egdb-layout-XXXXXX", cmd[128];
  assert_non_null(mkdtemp(root));
  const int N = quick() ? 8 : 10;
  check_variant(root, "abapa", N);
  check_variant(root, "awari", N);
  check_variant(root, "grandslam-forbidden,lap=fill,feeding=none", quick() ? 6 : 8);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
}

/* The layout is an argument like the others: an unknown one is refused. */
static void test_bad_layout(void **state) {
  (void)state;
  variant v;
  char err[512];
  egdb_build_stats st;
  get_variant("abapa", &v);
  assert_int_equal(egdb_build_layout(&v, "/tmp", 2, 1, (egdb_layout)7, NULL, NULL, &st, err, sizeof err),
                   EGDB_EARG);
  assert_non_null(strstr(err, "layout"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_memory),
      cmocka_unit_test(test_bad_layout),
      cmocka_unit_test(test_layouts_identical),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
