/* test_egdb.c: endgame databases against a plain solver on the reference rules; table equations; files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/fixture.h"

#include "core/board.h"
#include "core/rng.h"
#include "egdb/egdb.h"
#include "tests/reference/ref_egdb.h"

static int quick(void) { return getenv("OWARE_TEST_QUICK") != NULL; }

static char tmpdir[64];

static void make_tmpdir(void) {
  if (tmpdir[0]) return;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/oware-test-egdb-XXXXXX");
  assert_non_null(mkdtemp(tmpdir));
}

static void cleanup(void) {
  char cmd[128];
  if (!tmpdir[0]) return;
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
}

static void get_variant(const char *name, variant *v) {
  char err[256];
  assert_int_equal(variant_parse(name, v, err, sizeof err), 0);
}

static void to_ref(const variant *v, ref_variant *r) {
  memset(r, 0, sizeof *r);
  r->houses = v->houses;
  r->seeds = v->seeds;
  r->lap_fill = v->lap == VARIANT_LAP_FILL;
  r->grand_slam = v->grand_slam == VARIANT_GS_NOTHING     ? REF_GS_NOTHING
                  : v->grand_slam == VARIANT_GS_FORBIDDEN ? REF_GS_FORBIDDEN
                  : v->grand_slam == VARIANT_GS_ALL       ? REF_GS_ALL
                                                          : REF_GS_WIN;
  r->feed_must = v->feeding == VARIANT_FEED_MUST;
  r->repetition = v->repetition;
  r->cycle_split = v->cycle == VARIANT_CYCLE_SPLIT;
  r->max_plies = v->max_plies;
}

/* Builds v up to n in dir/sub (kept between tests) and opens it. */
static egdb *build_open(const char *name, const char *sub, int n, int threads) {
  variant v;
  char dir[256], err[512];
  make_tmpdir();
  get_variant(name, &v);
  snprintf(dir, sizeof dir, "%s/%s", tmpdir, sub);
  egdb_build_stats st;
  int rc = egdb_build(&v, dir, n, threads, NULL, NULL, &st, err, sizeof err);
  if (rc) fprintf(stderr, "build: %s\n", err);
  assert_int_equal(rc, 0);
  egdb *db;
  rc = egdb_open(dir, &v, n, EGDB_VERIFY, &db, err, sizeof err);
  if (rc) fprintf(stderr, "open: %s\n", err);
  assert_int_equal(rc, 0);
  assert_int_equal(egdb_max_seeds(db), n);
  return db;
}

/* ---- The index ---- */

static void test_index(void **state) {
  (void)state;
  for (int pits = 6; pits <= 12; pits += 6)
    for (int n = 0; n <= 7; n++) {
      uint64_t count = egdb_count(n, pits);
      uint64_t expect = 1; /* C(n + pits - 1, pits - 1) */
      for (int i = 1; i < pits; i++) expect = expect * (uint64_t)(n + i) / (uint64_t)i;
      assert_int_equal(count, expect);
      for (uint64_t i = 0; i < count; i++) {
        uint8_t a[VARIANT_MAX_PITS];
        egdb_unrank(i, pits, n, a);
        int s = 0;
        for (int k = 0; k < pits; k++) s += a[k];
        assert_int_equal(s, n);
        assert_int_equal(egdb_rank(a, pits, n), i);
      }
    }
  uint64_t upto24 = 0; /* the figure: every position with at most 24 seeds */
  for (int n = 0; n <= 24; n++) upto24 += egdb_count(n, 12);
  assert_int_equal(upto24, 1251677700ULL);
  assert_int_equal(egdb_count(24, 12), 417225900ULL);
}

/* ---- Every position up to N against the reference solver ---- */

typedef struct ref_levels {
  ref_egdb_set s[EGDB_MAX_SEEDS + 1];
  int pits;
} ref_levels;

static int exit_from_ref(void *ctx, const int *house, int n2, ref_egdb_value *out) {
  ref_levels *L = ctx;
  long i = ref_egdb_find(&L->s[n2], ref_egdb_pack(house, L->pits));
  if (i < 0) return -1;
  *out = L->s[n2].val[i];
  return 0;
}

/* Compares the solved reference set s with the database. */
static void compare_set(const egdb *db, const variant *v, const ref_egdb_set *s, long *cycles) {
  const int P = v->pits;
  for (long i = 0; i < s->count; i++) {
    int h[REF_MAX_PITS];
    uint8_t a[VARIANT_MAX_PITS];
    ref_egdb_unpack(s->key[i], P, h);
    for (int k = 0; k < P; k++) a[k] = (uint8_t)h[k];
    uint64_t r = egdb_rank(a, P, s->n);
    int lo = egdb_table(db, s->n, 0)[r], up = egdb_table(db, s->n, 1)[r];
    const ref_egdb_value *x = &s->val[i];
    if (lo != x->lo || up != x->up ||
        (egdb_split(db) && egdb_table(db, s->n, 2)[r] != x->sp2)) {
      char buf[128];
      size_t m = 0;
      for (int k = 0; k < P; k++) m += (size_t)snprintf(buf + m, sizeof buf - m, "%d ", h[k]);
      fail_msg("n=%d position %s: egdb lo %d up %d sp2 %d, reference lo %d up %d sp2 %d", s->n,
               buf, lo, up, egdb_split(db) ? egdb_table(db, s->n, 2)[r] : -1, x->lo, x->up,
               x->sp2);
    }
    if (x->lo != x->up) ++*cycles;
  }
}

static void all_positions(const char *name) {
  const int N = quick() ? 6 : 8;
  variant v;
  ref_variant rv;
  get_variant(name, &v);
  to_ref(&v, &rv);
  egdb *db = build_open(name, name, N, 2);
  ref_levels L;
  memset(&L, 0, sizeof L);
  L.pits = v.pits;
  long cycles = 0, total = 0;
  for (int n = 0; n <= N; n++) {
    assert_int_equal(ref_egdb_all(&rv, n, &L.s[n]), 0);
    assert_int_equal(L.s[n].count, (long)egdb_count(n, v.pits));
    assert_int_equal(ref_egdb_solve(&rv, &L.s[n], exit_from_ref, &L), 0);
    compare_set(db, &v, &L.s[n], &cycles);
    total += L.s[n].count;
  }
  printf("%s: all %ld positions up to %d seeds agree (%ld cycle-sensitive)\n", name, total, N,
         cycles);
  for (int n = 0; n <= N; n++) ref_egdb_free(&L.s[n]);
  egdb_close(db);
}

static void test_all_abapa(void **state) { (void)state; all_positions("abapa"); }
static void test_all_forbidden(void **state) { (void)state; all_positions("grandslam-forbidden"); }
static void test_all_all(void **state) { (void)state; all_positions("grandslam-all"); }
static void test_all_awari(void **state) { (void)state; all_positions("awari"); }

/* ---- Random positions at larger n: the reference solves what a position
 * reaches without capturing, captures scored by the (checked) database ---- */

typedef struct db_ctx {
  const egdb *db;
  const variant *v;
} db_ctx;

static int exit_from_db(void *ctx, const int *house, int n2, ref_egdb_value *out) {
  db_ctx *c = ctx;
  board b;
  memset(&b, 0, sizeof b);
  for (int k = 0; k < c->v->pits; k++) b.pit[k] = (uint8_t)house[k];
  egdb_value x;
  if (egdb_probe(c->db, &b, &x) || x.n != n2) return -1;
  out->lo = x.lower;
  out->up = x.upper;
  out->sp2 = x.split2;
  return 0;
}

static void random_positions(const char *name) {
  const int N = quick() ? 9 : 12, want = quick() ? 2 : 8;
  variant v;
  ref_variant rv;
  get_variant(name, &v);
  to_ref(&v, &rv);
  egdb *db = build_open(name, name, N, 2);
  db_ctx ctx = {db, &v};
  rng r;
  rng_seed(&r, 2024);
  int solved = 0;
  long positions = 0, cycles = 0;
  for (int attempt = 0; solved < want && attempt < 2000; attempt++) {
    int n = 9 + (int)rng_below(&r, (uint32_t)(N - 8)), h[REF_MAX_PITS] = {0};
    for (int s = 0; s < n; s++) h[rng_below(&r, (uint32_t)v.pits)]++;
    ref_egdb_set s;
    if (ref_egdb_closure(&rv, h, 100000, &s)) continue; /* reaches too much: another one */
    assert_int_equal(ref_egdb_solve(&rv, &s, exit_from_db, &ctx), 0);
    compare_set(db, &v, &s, &cycles);
    positions += s.count;
    ref_egdb_free(&s);
    solved++;
  }
  assert_int_equal(solved, want);
  printf("%s: %d random positions with 9..%d seeds, %ld positions they reach, agree (%ld "
         "cycle-sensitive)\n", name, solved, N, positions, cycles);
  egdb_close(db);
}

static void test_random_abapa(void **state) { (void)state; random_positions("abapa"); }
static void test_random_awari(void **state) { (void)state; random_positions("awari"); }

/* ---- Every table satisfies its equations ---- */

static void consistent(const char *name) {
  const int N = quick() ? 8 : 12;
  variant v;
  get_variant(name, &v);
  egdb *db = build_open(name, name, N, 2);
  const int P = v.pits, H = v.houses;
  for (int n = 0; n <= N; n++) {
    uint64_t count = egdb_count(n, P);
    for (uint64_t i = 0; i < count; i++) {
      board b;
      memset(&b, 0, sizeof b);
      egdb_unrank(i, P, n, b.pit);
      egdb_value x, mv[VARIANT_MAX_PITS];
      uint32_t legal;
      assert_int_equal(egdb_probe(db, &b, &x), 0);
      assert_int_equal(egdb_probe_moves(db, &b, &legal, mv), 0);
      int lo = -1, up = -1, sp = -1;
      if (!legal) {
        int own = 0;
        for (int k = 0; k < H; k++) own += b.pit[k];
        lo = up = own, sp = 2 * own;
      }
      for (uint32_t m = legal; m; m &= m - 1) {
        const egdb_value *y = &mv[__builtin_ctz(m)];
        if (y->lower > lo) lo = y->lower;
        if (y->upper > up) up = y->upper;
        if (y->split2 > sp) sp = y->split2;
      }
      if (x.lower != lo || x.upper != up || (egdb_split(db) && x.split2 != sp))
        fail_msg("%s n=%d index %llu: lower %d upper %d split2 %d, best move %d %d %d", name, n,
                 (unsigned long long)i, x.lower, x.upper, x.split2, lo, up, sp);
      assert_true(x.lower <= x.upper);
      if (egdb_split(db)) assert_true(2 * x.lower <= x.split2 && x.split2 <= 2 * x.upper);
    }
  }
  egdb_close(db);
}

static void test_consistent_abapa(void **state) { (void)state; consistent("abapa"); }
static void test_consistent_all(void **state) { (void)state; consistent("grandslam-all"); }
static void test_consistent_awari(void **state) { (void)state; consistent("awari"); }
/* Laps that fill the emptied house and no feeding rule: the build finds
 * predecessors by un-sowing, which these change. */
static void test_consistent_fill(void **state) {
  (void)state;
  consistent("grandslam-forbidden,lap=fill,feeding=none");
}

/* ---- Files ---- */

static void test_threads_identical(void **state) {
  (void)state;
  const int N = quick() ? 8 : 11;
  const char *names[] = {"abapa", "awari"};
  for (int k = 0; k < 2; k++) {
    egdb_close(build_open(names[k], "t1", N, 1));
    egdb_close(build_open(names[k], "t2", N, 2));
    egdb_close(build_open(names[k], "t3", N, 3));
    for (int n = 0; n <= N; n++) {
      char a[256], b[256], c[256], d[256];
      snprintf(d, sizeof d, "%s/t1", tmpdir);
      egdb_path(d, names[k], n, a, sizeof a);
      snprintf(d, sizeof d, "%s/t2", tmpdir);
      egdb_path(d, names[k], n, b, sizeof b);
      snprintf(d, sizeof d, "%s/t3", tmpdir);
      egdb_path(d, names[k], n, c, sizeof c);
      assert_true(fixture_same_file(a, b));
      assert_true(fixture_same_file(a, c));
    }
  }
}

static void patch(const char *path, long at, int truncate_to) {
  if (truncate_to >= 0) {
    assert_int_equal(truncate(path, truncate_to), 0);
    return;
  }
  FILE *f = fopen(path, "r+b");
  assert_non_null(f);
  assert_int_equal(fseek(f, at, SEEK_SET), 0);
  int c = fgetc(f);
  assert_int_equal(fseek(f, at, SEEK_SET), 0);
  fputc(c ^ 0x40, f);
  fclose(f);
}

static void expect_open_error(const variant *v, const char *dir, int code, const char *words) {
  egdb *db = NULL;
  char err[1024];
  int rc = egdb_open(dir, v, -1, EGDB_VERIFY, &db, err, sizeof err);
  assert_int_equal(rc, code);
  assert_null(db);
  if (!strstr(err, words)) fail_msg("error '%s' does not say '%s'", err, words);
}

static void test_corrupt(void **state) {
  (void)state;
  variant v;
  char dir[256], path[512], err[512];
  get_variant("abapa", &v);
  egdb_close(build_open("abapa", "bad", 6, 1));
  snprintf(dir, sizeof dir, "%s/bad", tmpdir);
  egdb_path(dir, "abapa", 5, path, sizeof path);
  /* Opened (and so verified) once in this process, then damaged in place:
   * the next open without EGDB_VERIFY reads it again and finds it. */
  egdb *db;
  assert_int_equal(egdb_open(dir, &v, -1, 0, &db, err, sizeof err), 0);
  egdb_close(db);
  patch(path, EGDB_HEADER_SIZE + 100, -1);
  assert_int_equal(egdb_open(dir, &v, -1, 0, &db, err, sizeof err), EGDB_ECORRUPT);
  assert_null(db);
  if (!strstr(err, "n05.egdb: checksum mismatch")) fail_msg("error '%s'", err);
  expect_open_error(&v, dir, EGDB_ECORRUPT, "checksum");
  /* Only the header is checked with EGDB_HEADER_ONLY. */
  assert_int_equal(egdb_open(dir, &v, -1, EGDB_HEADER_ONLY, &db, err, sizeof err), 0);
  egdb_close(db);
  /* A resumed build finds the corrupt table and builds it again. */
  egdb_build_stats st;
  assert_int_equal(egdb_build(&v, dir, 6, 1, NULL, NULL, &st, err, sizeof err), 0);
  assert_int_equal(st.resumed, 6);
  assert_int_equal(st.built, 1);
  assert_int_equal(egdb_open(dir, &v, -1, EGDB_VERIFY, &db, err, sizeof err), 0);
  egdb_close(db);
  /* Truncated. */
  patch(path, 0, 1000);
  expect_open_error(&v, dir, EGDB_ECORRUPT, "truncated");
  patch(path, 0, 20);
  expect_open_error(&v, dir, EGDB_ECORRUPT, "truncated");
  /* Foreign. */
  assert_int_equal(egdb_build(&v, dir, 6, 1, NULL, NULL, &st, err, sizeof err), 0);
  patch(path, 2, -1);
  expect_open_error(&v, dir, EGDB_ECORRUPT, "magic");
  /* Another variant's table under this name. */
  char other[512];
  egdb_path(dir, "abapa", 4, other, sizeof other);
  assert_int_equal(egdb_build(&v, dir, 6, 1, NULL, NULL, &st, err, sizeof err), 0);
  patch(other, 40, -1); /* the variant field: 'a' -> '!' */
  expect_open_error(&v, dir, EGDB_ECORRUPT, "variant");
  /* A killed build leaves a missing table: the build resumes there. */
  assert_int_equal(egdb_build(&v, dir, 6, 1, NULL, NULL, &st, err, sizeof err), 0);
  remove(path);
  egdb_path(dir, "abapa", 6, path, sizeof path);
  remove(path);
  assert_int_equal(egdb_build(&v, dir, 6, 1, NULL, NULL, &st, err, sizeof err), 0);
  assert_int_equal(st.resumed, 5);
  assert_int_equal(st.built, 2);
  /* Nothing there. */
  snprintf(dir, sizeof dir, "%s/none", tmpdir);
  expect_open_error(&v, dir, EGDB_EIO, "no endgame tables");
}

/* A table's path: DIR/KEY/nNN.egdb; an empty folder is the current one,
 * never the root's /KEY. */
static void test_path(void **state) {
  (void)state;
  char p[256];
  egdb_path("eg", "abapa", 3, p, sizeof p);
  assert_string_equal(p, "eg/abapa/n03.egdb");
  egdb_path("", "abapa", 12, p, sizeof p);
  assert_string_equal(p, "./abapa/n12.egdb");
}

static void test_unsupported(void **state) {
  (void)state;
  variant v;
  char err[512];
  make_tmpdir();
  get_variant("grandslam-win", &v);
  egdb_build_stats st;
  assert_int_equal(egdb_build(&v, tmpdir, 4, 1, NULL, NULL, &st, err, sizeof err),
                   EGDB_EUNSUPPORTED);
  assert_non_null(strstr(err, "not supported"));
  egdb *db;
  assert_int_equal(egdb_open(tmpdir, &v, -1, 0, &db, err, sizeof err), EGDB_EUNSUPPORTED);
  get_variant("abapa", &v);
  assert_int_equal(egdb_build(&v, tmpdir, 40, 1, NULL, NULL, &st, err, sizeof err), EGDB_EARG);
  assert_int_equal(egdb_build(&v, tmpdir, 4, 0, NULL, NULL, &st, err, sizeof err), EGDB_EARG);
  /* Variants that differ only in repetition share the tables. */
  char a[128], b[128];
  variant w;
  get_variant("auale", &w);
  egdb_variant_key(&v, a, sizeof a, err, sizeof err);
  egdb_variant_key(&w, b, sizeof b, err, sizeof err);
  assert_string_equal(a, b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_index),
      cmocka_unit_test(test_path),
      cmocka_unit_test(test_unsupported),
      cmocka_unit_test(test_all_abapa),
      cmocka_unit_test(test_all_forbidden),
      cmocka_unit_test(test_all_all),
      cmocka_unit_test(test_all_awari),
      cmocka_unit_test(test_random_abapa),
      cmocka_unit_test(test_random_awari),
      cmocka_unit_test(test_consistent_abapa),
      cmocka_unit_test(test_consistent_all),
      cmocka_unit_test(test_consistent_awari),
      cmocka_unit_test(test_consistent_fill),
      cmocka_unit_test(test_threads_identical),
      cmocka_unit_test(test_corrupt),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  cleanup();
  return rc;
}
