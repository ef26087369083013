/* test_study.c: the variant study (report/study.c) on a fixture database of hand-written games whose numbers are worked out by hand below. */
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
#include <unistd.h>

#include "store/store.h"
#include "report/study_report.h"
#include "core/board.h"
#include "core/notation.h"
#include "core/variant.h"
#include "tests/fixture.h"

#define ERRLEN 2048
#define EPS 1e-4

static char tmpdir[64];

/* ---- The fixture ----
 *
 * Players alpha, beta, gamma; variants abapa (v0), grandslam-forbidden (v1),
 * grandslam-all (v2). Every game starts from a hand-made position (the
 * stored opening) and is short enough to follow by hand (checked with
 * `oware replay`):
 *
 * v0 abapa
 *  G1 0-0-0-0-0-1-1-5-5-5-0-0-24-7-S  F    F takes a's 2: 26 > 24, South wins by majority.
 *     1 position, 1 legal move (F), no grand slam (2 of North's 17).
 *  G2 1-5-5-5-0-0-0-0-0-0-0-1-7-24-N  f    the mirror: North wins by majority.
 *  G3 0-0-0-0-0-1-1-0-0-0-0-0-22-24-S F    F is a grand slam (a's 2 are all of North's
 *     seeds): abapa takes nothing; North must feed and cannot: no-move, North keeps its
 *     2: 22-26, North wins. 1 legal move, a grand slam available and played.
 *  G4 0-0-0-0-0-1-1-0-1-0-0-0-22-23-S F    F takes 2 of North's 3 (no grand slam): 24;
 *     North must feed and cannot: no-move, 24-24, a draw. 1 legal move.
 *  G5 0-0-0-0-1-0-1-0-0-0-1-0-23-22-S EeF  E (the only move), e (of a, e), F takes a's 2:
 *     25, South wins by majority. 3 positions with 1, 2, 1 legal moves.
 *  => 5 games: South 2 wins, 1 draw, North 2 wins; majority 3, no-move 2; lengths
 *     1 1 1 1 3; 7 positions, 8 legal moves, 1 real choice, 1 grand slam available
 *     and played, in 1 game.
 * v1 grandslam-forbidden
 *  G6 0-0-0-0-0-1-1-0-0-0-0-0-22-24-S F    F is the only move and a grand slam: allowed
 *     as it is forced, it captures: 24-24 by majority, a draw. Available and played.
 *  G7 3-0-0-0-0-1-1-0-0-0-0-0-22-21-S A    F would be a grand slam: the rule leaves only
 *     A (1 legal move) but F counts as available; then North forfeits (timeout):
 *     South wins. Not played.
 *  G8 as G5: South wins by majority in 3 plies.
 *  => 3 games: South 2 wins, 1 draw; majority 2, forfeit 1; lengths 1 1 3; 5
 *     positions, 6 legal moves, 1 choice; available 2 (in 2 games), played 1.
 * v2 grandslam-all
 *  G9 3-0-0-0-0-1-1-0-0-0-0-0-22-21-S F    the grand slam takes a's 2: 24; North has no
 *     move: no-move, South keeps its 3: 27-21. 2 legal moves, available and played.
 *  G10 same opening, no move: South forfeits at once (timeout), North wins. 0 plies.
 *  => 2 games: 1 South win, 1 North win; no-move 1, forfeit 1; lengths 1 0;
 *     1 position, 2 legal moves, 1 choice, 1 available and played. */

typedef struct fixture_game {
  int variant, south, north;
  const char *opening, *moves, *end;
  int winner, s2, n2;
} fixture_game;

static const fixture_game fixture[] = {
    {0, 0, 1, "0-0-0-0-0-1-1-5-5-5-0-0-24-7-S", "F", "majority", 0, 52, 14},
    {0, 2, 0, "1-5-5-5-0-0-0-0-0-0-0-1-7-24-N", "f", "majority", 1, 14, 52},
    {0, 1, 2, "0-0-0-0-0-1-1-0-0-0-0-0-22-24-S", "F", "no-move", 1, 44, 52},
    {0, 0, 2, "0-0-0-0-0-1-1-0-1-0-0-0-22-23-S", "F", "no-move", -1, 48, 48},
    {0, 1, 0, "0-0-0-0-1-0-1-0-0-0-1-0-23-22-S", "EeF", "majority", 0, 50, 44},
    {1, 0, 1, "0-0-0-0-0-1-1-0-0-0-0-0-22-24-S", "F", "majority", -1, 48, 48},
    {1, 1, 0, "3-0-0-0-0-1-1-0-0-0-0-0-22-21-S", "A", "forfeit-timeout", 0, 44, 42},
    {1, 1, 0, "0-0-0-0-1-0-1-0-0-0-1-0-23-22-S", "EeF", "majority", 0, 50, 44},
    {2, 0, 1, "3-0-0-0-0-1-1-0-0-0-0-0-22-21-S", "F", "no-move", 0, 54, 42},
    {2, 1, 0, "3-0-0-0-0-1-1-0-0-0-0-0-22-21-S", "", "forfeit-timeout", 1, 44, 42},
};
#define NFIXTURE (int)(sizeof fixture / sizeof fixture[0])

static int64_t make_run(store *s, const char *name, const char *const *variants, int nv) {
  store_run *r = calloc(1, sizeof *r);
  assert_non_null(r);
  store_run_set(&r->name, name);
  r->kind = STORE_ROUND_ROBIN;
  store_run_set(&r->format, "games:2");
  store_run_set(&r->openings, "random:2");
  store_run_set(&r->command, "test_study");
  r->rounds = 1;
  r->threads = 1;
  r->seed = 1;
  static const char *const names[] = {"alpha", "beta", "gamma"};
  for (int i = 0; i < 3; i++) {
    char spec[64];
    snprintf(spec, sizeof spec, "random:name=%s", names[i]);
    assert_int_equal(store_run_add_player(r, names[i], spec), 0);
  }
  for (int i = 0; i < nv; i++) assert_int_equal(store_run_add_variant(r, variants[i]), 0);
  char err[ERRLEN] = "";
  if (store_run_create(s, r, err, sizeof err)) fail_msg("store_run_create: %s", err);
  int64_t id = r->id;
  store_run_free(r);
  free(r);
  return id;
}

static void to_store(store_game *g, int64_t run, int series, const fixture_game *f) {
  memset(g, 0, sizeof *g);
  g->run_id = run;
  g->series_no = series;
  g->game_no = 0;
  g->variant_idx = f->variant;
  g->a_idx = f->south < f->north ? f->south : f->north;
  g->b_idx = f->south < f->north ? f->north : f->south;
  g->south_idx = f->south;
  g->north_idx = f->north;
  snprintf(g->opening, sizeof g->opening, "%s", f->opening);
  g->moves = f->moves;
  g->winner = f->winner;
  g->score2[0] = f->s2;
  g->score2[1] = f->n2;
  g->plies = (int)strlen(f->moves);
  assert_int_equal(outcome_end_parse(f->end, &g->end), 0);
  g->seed = 7;
}

static store *open_db(const char *name) {
  char path[256], err[ERRLEN] = "";
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  store *s = NULL;
  if (store_open(path, 1, &s, err, sizeof err)) fail_msg("store_open: %s", err);
  return s;
}

static const char *const gs_variants[] = {"abapa", "grandslam-forbidden", "grandslam-all"};

static int64_t fixture_run(store *s) {
  int64_t run = make_run(s, "fixture", gs_variants, 3);
  store_game g[NFIXTURE];
  for (int i = 0; i < NFIXTURE; i++) to_store(&g[i], run, i, &fixture[i]);
  char err[ERRLEN] = "";
  if (store_games_insert(s, g, NFIXTURE, err, sizeof err)) fail_msg("insert: %s", err);
  return run;
}

static void near(double got, double want, double eps, const char *what) {
  if (!(fabs(got - want) <= eps)) fail_msg("%s: got %.6f, want %.6f", what, got, want);
}

static void near_iv(const study_interval *x, double v, double lo, double hi, const char *what) {
  char w[128];
  snprintf(w, sizeof w, "%s (value)", what);
  near(x->value, v, EPS, w);
  snprintf(w, sizeof w, "%s (lo)", what);
  near(x->lo, lo, EPS, w);
  snprintf(w, sizeof w, "%s (hi)", what);
  near(x->hi, hi, EPS, w);
}

/* ---- The fixture study ---- */

static void test_fixture_metrics(void **state) {
  (void)state;
  store *s = open_db("fixture.db");
  int64_t run = fixture_run(s);
  study *st = NULL;
  char err[ERRLEN] = "";
  study_options so = {1000, 1, 0};
  if (study_compute(s, run, &so, &st, err, sizeof err)) fail_msg("study_compute: %s", err);
  assert_int_equal(st->games, 10);
  assert_int_equal(st->nvariants, 3);
  const study_variant *v0 = &st->variant[0], *v1 = &st->variant[1], *v2 = &st->variant[2];
  assert_string_equal(v0->name, "abapa");
  /* Outcomes. */
  assert_int_equal(v0->games, 5);
  assert_int_equal(v0->south_wins, 2);
  assert_int_equal(v0->draws, 1);
  assert_int_equal(v0->north_wins, 2);
  near_iv(&v0->south_win, 0.4, 0.117621, 0.769276, "v0 south");
  near_iv(&v0->north_win, 0.4, 0.117621, 0.769276, "v0 north");
  near_iv(&v0->draw, 0.2, 0.036224, 0.624465, "v0 draws");
  /* Wilson 4/5 = 1 − Wilson 1/5 */
  near_iv(&v0->decisive, 0.8, 0.375535, 0.963776, "v0 decisive");
  near_iv(&v0->south_score, 0.5, 0.170424, 0.829576, "v0 score"); /* Wilson 2.5/5 */
  near_iv(&v0->balance, 1.0, 0.216014, 1.0, "v0 balance");
  assert_int_equal(v1->games, 3);
  assert_int_equal(v1->south_wins, 2);
  assert_int_equal(v1->draws, 1);
  assert_int_equal(v1->north_wins, 0);
  near_iv(&v1->south_win, 2.0 / 3, 0.207660, 0.938508, "v1 south");
  near_iv(&v1->north_win, 0.0, 0.0, 0.561497, "v1 north");
  near_iv(&v1->balance, 1.0 / 3, 0.0, 0.866768, "v1 balance");
  assert_int_equal(v2->games, 2);
  assert_int_equal(v2->south_wins, 1);
  assert_int_equal(v2->north_wins, 1);
  /* Lengths. v0: 1 1 1 1 3: mean 1.4, sd sqrt(3.2/4) = 0.894427, t(0.975, 4) = 2.776445:
   * 1.4 ± 2.776445·0.894427/√5 = [0.289422, 2.510578]; median and quartiles 1. */
  near_iv(&v0->length, 1.4, 0.289422, 2.510578, "v0 length");
  near(v0->length_sd, 0.894427, EPS, "v0 sd");
  near(v0->length_median, 1, EPS, "v0 median");
  near(v0->length_q1, 1, EPS, "v0 q1");
  near(v0->length_q3, 1, EPS, "v0 q3");
  assert_int_equal(v0->length_min, 1);
  assert_int_equal(v0->length_max, 3);
  /* v1: 1 1 3: mean 5/3, sd 1.154701, t(0.975, 2) = 4.302653: [−1.201768, 4.535102];
   * quartiles at 0.5 and 1.5 of the sorted positions: 1 and 2. */
  near_iv(&v1->length, 5.0 / 3, -1.201768, 4.535102, "v1 length");
  near(v1->length_q3, 2, EPS, "v1 q3");
  /* v2: 1 0: mean 0.5, sd 0.707107, t(0.975, 1) = 12.706205: [−5.853102, 6.853102]. */
  near_iv(&v2->length, 0.5, -5.853102, 6.853102, "v2 length");
  near(v2->length_median, 0.5, EPS, "v2 median");
  near(v2->length_q1, 0.25, EPS, "v2 q1");
  /* End reasons. */
  assert_int_equal(v0->ends[STUDY_END_MAJORITY], 3);
  assert_int_equal(v0->ends[STUDY_END_NO_MOVE], 2);
  assert_int_equal(v0->ends[STUDY_END_REPETITION], 0);
  assert_int_equal(v0->ends[STUDY_END_PLY_LIMIT], 0);
  assert_int_equal(v0->ends[STUDY_END_FORFEIT], 0);
  near_iv(&v0->end_share[STUDY_END_NO_MOVE], 0.4, 0.117621, 0.769276, "v0 no-move share");
  assert_int_equal(v1->ends[STUDY_END_MAJORITY], 2);
  assert_int_equal(v1->ends[STUDY_END_FORFEIT], 1);
  assert_int_equal(v2->ends[STUDY_END_NO_MOVE], 1);
  assert_int_equal(v2->ends[STUDY_END_FORFEIT], 1);
  /* Replay: positions, legal moves, choices, grand slams. */
  assert_int_equal(v0->positions, 7);
  assert_int_equal(v0->legal_sum, 8);
  assert_int_equal(v0->choice, 1);
  assert_int_equal(v0->gs_available, 1);
  assert_int_equal(v0->gs_played, 1);
  assert_int_equal(v0->gs_games, 1);
  near(v0->branching.value, 8.0 / 7, 1e-12, "v0 branching");
  near(v0->choice_share.value, 1.0 / 7, 1e-12, "v0 choice");
  near(v0->gs_available_share.value, 1.0 / 7, 1e-12, "v0 gs available");
  near(v0->gs_played_share.value, 1.0, 1e-12, "v0 gs played");
  near(v0->gs_played_positions.value, 1.0 / 7, 1e-12, "v0 gs played per position");
  assert_int_equal(v1->positions, 5);
  assert_int_equal(v1->legal_sum, 6);
  assert_int_equal(v1->choice, 1);
  assert_int_equal(v1->gs_available, 2); /* G7's F counts although the rule removes it */
  assert_int_equal(v1->gs_played, 1);
  assert_int_equal(v1->gs_games, 2);
  near(v1->gs_played_share.value, 0.5, 1e-12, "v1 gs played");
  assert_int_equal(v2->positions, 1);
  assert_int_equal(v2->legal_sum, 2);
  assert_int_equal(v2->choice, 1);
  assert_int_equal(v2->gs_available, 1);
  assert_int_equal(v2->gs_played, 1);
  /* Bootstrap intervals hold the estimate and stay inside the possible range: v0's games
   * have 1/1 legal moves per position except G5 (4/3), so the ratio lies in [1, 4/3]. */
  assert_true(v0->branching.lo <= v0->branching.value && v0->branching.value <= v0->branching.hi);
  assert_true(v0->branching.lo >= 1.0 - 1e-12 && v0->branching.hi <= 4.0 / 3 + 1e-12);
  assert_true(v0->branching.lo < v0->branching.hi);
  near(v2->branching.lo, 2.0, 1e-12, "v2 branching lo"); /* one game with positions */
  near(v2->branching.hi, 2.0, 1e-12, "v2 branching hi");
  /* Tests: South's score 2.5/5 against 2.5/3: pooled 5/8, se = sqrt(0.625·0.375·(1/5 + 1/3))
   * = 0.353553, z = (0.5 − 0.833333)/0.353553 = −0.942809, p = 0.345779. */
  assert_int_equal(st->ntests, 3);
  assert_int_equal(st->score_test[0].a, 0);
  assert_int_equal(st->score_test[0].b, 1);
  near(st->score_test[0].z, -0.942809, 1e-5, "z score 0-1");
  near(st->score_test[0].p, 0.345779, 1e-5, "p score 0-1");
  near(st->score_test[1].z, 0.0, 1e-12, "z score 0-2"); /* 0.5 and 0.5 */
  near(st->score_test[2].z, 0.796819, 1e-5, "z score 1-2"); /* 2.5/3 against 1/2 */
  near(st->score_test[2].p, 0.425556, 1e-5, "p score 1-2");
  near(st->score_test[0].p_holm, 1.0, 1e-12, "holm");
  /* Draws 1/5 against 1/3: pooled 0.25, z = −0.133333/0.316228 = −0.421637. */
  near(st->draw_test[0].z, -0.421637, 1e-5, "z draws 0-1");
  near(st->draw_test[0].p, 0.673290, 1e-5, "p draws 0-1");
  /* Elo per variant: under v2 alpha beat beta twice (gamma did not play): alpha first;
   * under v1 beta scored 2.5 of 3 against alpha: beta first. The order changes. */
  assert_true(v2->rated);
  assert_int_equal(v2->rank[0], 1);
  assert_int_equal(v2->rank[1], 2);
  assert_int_equal(v2->rank[2], 0);
  assert_true(v1->rated);
  assert_int_equal(v1->rank[1], 1);
  int found = 0;
  for (int k = 0; k < st->nswaps; k++)
    if (st->swaps[k].i + st->swaps[k].j == 1 && st->swaps[k].va == 1 && st->swaps[k].vb == 2)
      found = 1; /* alpha and beta, under grandslam-forbidden and grandslam-all */
  assert_true(found);
  /* The ratings go to the store, one fit per variant. */
  if (study_store_ratings(s, st, err, sizeof err)) fail_msg("store ratings: %s", err);
  /* The printed table has the numbers. */
  char path[256];
  snprintf(path, sizeof path, "%s/print.txt", tmpdir);
  FILE *f = fopen(path, "w+");
  assert_non_null(f);
  study_print(f, st);
  rewind(f);
  char text[32768];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  assert_non_null(strstr(text, "40.0% [11.8, 76.9]"));
  assert_non_null(strstr(text, "1.4 [0.3, 2.5]"));
  assert_non_null(strstr(text, "grandslam-forbidden"));
  assert_non_null(strstr(text, "The order changes"));
  study_free(st);
  store_close(s);
}

static void test_fixture_report(void **state) {
  (void)state;
  store *s = open_db("report.db");
  int64_t run = fixture_run(s);
  study *st = NULL;
  char err[ERRLEN] = "", dir[256];
  if (study_compute(s, run, NULL, &st, err, sizeof err)) fail_msg("study_compute: %s", err);
  snprintf(dir, sizeof dir, "%s/report", tmpdir);
  study_charts_result res;
  int rc = study_charts(st, dir, NULL, &res, NULL, err, sizeof err);
  assert_true(rc >= 0);
  for (int c = 0; c < STUDY_NCHARTS; c++) {
    char dat[512];
    snprintf(dat, sizeof dat, "%s/%s.dat", dir, study_chart_names[c]);
    assert_int_equal(access(dat, R_OK), 0);
    if (!res.gnuplot_missing) {
      char png[512];
      snprintf(png, sizeof png, "%s/%s.png", dir, study_chart_names[c]);
      if (!res.made[c]) fail_msg("chart %s: %s", study_chart_names[c], res.note[c]);
      assert_int_equal(access(png, R_OK), 0);
    }
  }
  if (study_report(st, dir, &res, err, sizeof err)) fail_msg("study_report: %s", err);
  char html[512];
  snprintf(html, sizeof html, "%s/variants.html", dir);
  FILE *f = fopen(html, "r");
  assert_non_null(f);
  char text[65536];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  assert_non_null(strstr(text, "<table>"));
  assert_non_null(strstr(text, "grandslam-all"));
  assert_null(strstr(text, "http://"));
  assert_null(strstr(text, "https://"));
  study_free(st);
  store_close(s);
}

/* A stored game that does not replay is an error that names it. */
static void test_bad_games(void **state) {
  (void)state;
  store *s = open_db("bad.db");
  char err[ERRLEN] = "";
  study *st = NULL;
  /* An illegal move: under abapa A is empty in G1's opening. */
  int64_t run = make_run(s, "illegal", gs_variants, 1);
  fixture_game bad = fixture[0];
  bad.moves = "A";
  store_game g;
  to_store(&g, run, 0, &bad);
  if (store_games_insert(s, &g, 1, err, sizeof err)) fail_msg("insert: %s", err);
  assert_int_equal(study_compute(s, run, NULL, &st, err, sizeof err), -1);
  assert_null(st);
  assert_non_null(strstr(err, "series 0 game 0"));
  assert_non_null(strstr(err, "not legal"));
  /* An end that the rules do not give: G3 stored as a majority. */
  run = make_run(s, "wrong end", gs_variants, 1);
  bad = fixture[2];
  bad.end = "majority";
  to_store(&g, run, 0, &bad);
  if (store_games_insert(s, &g, 1, err, sizeof err)) fail_msg("insert: %s", err);
  assert_int_equal(study_compute(s, run, NULL, &st, err, sizeof err), -1);
  assert_non_null(strstr(err, "does not replay as stored"));
  /* Moves stored after the end. */
  run = make_run(s, "after the end", gs_variants, 1);
  bad = fixture[0];
  bad.moves = "Fa";
  to_store(&g, run, 0, &bad);
  if (store_games_insert(s, &g, 1, err, sizeof err)) fail_msg("insert: %s", err);
  assert_int_equal(study_compute(s, run, NULL, &st, err, sizeof err), -1);
  assert_non_null(strstr(err, "not legal"));
  /* No such run. */
  assert_int_equal(study_compute(s, 999, NULL, &st, err, sizeof err), -1);
  store_close(s);
}

/* The shared openings: the same file for the same arguments, every line a
 * position that is playable under every variant. */
static void test_openings(void **state) {
  (void)state;
  variant v[4];
  char err[ERRLEN] = "";
  for (int i = 0; i < 4; i++) {
    static const char *const names[] = {"abapa", "grandslam-forbidden", "grandslam-all",
                                        "grandslam-win"};
    assert_int_equal(variant_parse(names[i], &v[i], err, sizeof err), 0);
  }
  char a[256], b[256];
  snprintf(a, sizeof a, "%s/open-a.txt", tmpdir);
  snprintf(b, sizeof b, "%s/open-b.txt", tmpdir);
  assert_int_equal(study_write_openings(a, v, 4, 6, 50, 9, err, sizeof err), 0);
  assert_int_equal(study_write_openings(b, v, 4, 6, 50, 9, err, sizeof err), 0);
  FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
  assert_non_null(fa);
  assert_non_null(fb);
  char la[256], lb[256];
  int lines = 0, distinct = 0;
  char first[256] = "";
  while (fgets(la, sizeof la, fa)) {
    assert_non_null(fgets(lb, sizeof lb, fb));
    assert_string_equal(la, lb);
    if (la[0] == '#') continue;
    la[strcspn(la, "\n")] = 0;
    if (!lines) snprintf(first, sizeof first, "%s", la);
    else distinct |= strcmp(first, la) != 0;
    lines++;
    for (int i = 0; i < 4; i++) {
      board bd;
      if (notation_parse_position(la, &v[i], &bd, err, sizeof err)) fail_msg("%s: %s", la, err);
      uint32_t legal;
      assert_int_equal(board_status(&bd, &v[i], &legal), BOARD_END_NONE);
    }
  }
  assert_int_equal(lines, 50);
  assert_true(distinct);
  fclose(fa);
  fclose(fb);
  /* Variants with other seeds cannot share openings. */
  variant w[2] = {v[0], v[0]};
  assert_int_equal(variant_parse("abapa,seeds=5", &w[1], err, sizeof err), 0);
  assert_int_equal(study_write_openings(a, w, 2, 2, 5, 1, err, sizeof err), -1);
  assert_non_null(strstr(err, "same houses and seeds"));
}

static int setup(void **state) {
  (void)state;
  return fixture_mkdtemp(tmpdir, sizeof tmpdir, "study");
}

static int teardown(void **state) {
  (void)state;
  return fixture_remove(tmpdir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fixture_metrics), cmocka_unit_test(test_fixture_report),
      cmocka_unit_test(test_bad_games),       cmocka_unit_test(test_openings),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
