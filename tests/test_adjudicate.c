/* test_adjudicate.c: run/adjudicate.c: the rules parsed (every bad spec named), the draw and resign counters fed score sequences, the tables' ending on hand-checked and random positions (exact values, results decided by a bound, cycle-sensitive ones left to the rules). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/game.h"
#include "core/notation.h"
#include "run/adjudicate.h"
#include "tests/fixture.h"

static char tmpdir[64], egdir[128];

static int setup(void **state) {
  (void)state;
  if (fixture_mkdtemp(tmpdir, sizeof tmpdir, "adjudicate")) return -1;
  snprintf(egdir, sizeof egdir, "%s/eg", tmpdir);
  return fixture_egdb("abapa", egdir, 8, 1) || fixture_egdb("awari", egdir, 8, 1) ? -1 : 0;
}

static int teardown(void **state) {
  (void)state;
  return fixture_remove(tmpdir);
}

/* ---- The rules as text ---- */

static void parses_to(const char *text, const char *canonical) {
  adjudicate_rules r;
  char err[512], buf[ADJUDICATE_TEXT_MAX + 64];
  if (adjudicate_parse(text, &r, err, sizeof err)) fail_msg("'%s': %s", text, err);
  assert_int_equal(adjudicate_format(&r, buf, sizeof buf), 0);
  assert_string_equal(buf, canonical);
  adjudicate_rules again;
  assert_int_equal(adjudicate_parse(buf, &again, err, sizeof err), 0);
  assert_memory_equal(&r, &again, sizeof r);
}

static void test_parse_good(void **state) {
  (void)state;
  parses_to("egdb", "egdb=auto");
  parses_to("egdb=/some/folder", "egdb=/some/folder");
  parses_to("draw=40,20,8", "draw=40,20,8");
  parses_to("resign=500,4", "resign=500,4");
  parses_to("maxplies=300", "maxplies=300");
  parses_to("maxplies=1;egdb", "egdb=auto;maxplies=1");
  parses_to(" resign=500,4 ; draw=0,0,1;egdb ;", "egdb=auto;draw=0,0,1;resign=500,4");
  parses_to("egdb=auto@0badcafe:8:0123456789abcdef", "egdb=auto@0badcafe:8:0123456789abcdef");
  adjudicate_rules r;
  char err[256];
  assert_int_equal(adjudicate_parse("draw=40,20,8;resign=500,4", &r, err, sizeof err), 0);
  assert_int_equal(r.egdb, 0);
  assert_int_equal(r.draw_plies, 40);
  assert_int_equal(r.draw_score, 20);
  assert_int_equal(r.draw_moves, 8);
  assert_int_equal(r.resign_score, 500);
  assert_int_equal(r.resign_moves, 4);
}

static void fails_with(const char *text, const char *words) {
  adjudicate_rules r;
  char err[512] = "";
  if (!adjudicate_parse(text, &r, err, sizeof err)) fail_msg("'%s' was taken", text);
  if (!strstr(err, words)) fail_msg("'%s': the error '%s' does not say '%s'", text, err, words);
  if (!strstr(err, "--adjudicate")) fail_msg("'%s': the error '%s' does not name the option", text, err);
}

static void test_parse_bad(void **state) {
  (void)state;
  fails_with("", "names no rule");
  fails_with(" ; ;", "names no rule");
  fails_with("tables", "'tables' is not a rule; expected egdb[=DIR], draw=PLIES,SCORE,MOVES");
  fails_with("draw", "'draw' is not a rule");
  fails_with("resign", "'resign' is not a rule");
  fails_with("egdb=", "egdb= names no tables");
  fails_with("draw=40,20", "draw=40,20: expected draw=PLIES,SCORE,MOVES");
  fails_with("draw=40,20,8,1", "draw=40,20,8,1: expected draw=PLIES,SCORE,MOVES");
  fails_with("draw=a,b,c", "draw=a,b,c: expected");
  fails_with("draw=40,20,8x", "draw=40,20,8x: expected");
  fails_with("draw=-1,20,8", "whole numbers: 0..100000, 0..1000000, 1..10000");
  fails_with("draw=40,20,0", "draw=40,20,0");
  fails_with("resign=500", "resign=500: expected resign=SCORE,MOVES");
  fails_with("resign=500,0", "resign=500,0: expected resign=SCORE,MOVES (whole numbers: 0..1000000, 1..10000)");
  fails_with("resign=-5,3", "resign=-5,3");
  fails_with("egdb;egdb=/x", "the egdb rule is given twice");
  fails_with("draw=1,2,3;draw=1,2,3", "the draw rule is given twice");
  fails_with("resign=1,2;egdb;resign=3,4", "the resign rule is given twice");
  fails_with("maxplies", "'maxplies' is not a rule");
  fails_with("maxplies=0", "maxplies=0: expected maxplies=PLIES (whole numbers: 1..100000)");
  fails_with("maxplies=2,3", "maxplies=2,3: expected maxplies=PLIES");
  fails_with("maxplies=4;maxplies=5", "the maxplies rule is given twice");
}

/* ---- The score rules ---- */

/* A watch on rules text without tables. */
static adjudicator *watch(const char *text, adjudicate_game *gs) {
  adjudicate_rules r;
  adjudicator *a;
  char err[256];
  variant v;
  variant_default(&v);
  assert_int_equal(adjudicate_parse(text, &r, err, sizeof err), 0);
  assert_int_equal(adjudicate_open(&r, &v, 1, &a, err, sizeof err), 0);
  adjudicate_start(a, &v, gs);
  return a;
}

/* Feeds the moves "S:score" or "N:-" (no score), plies counted from 1:
 * returns the ply (1-based) at which a rule ends the game, 0 when none
 * does; r gets the outcome. */
static int feed(adjudicate_game *gs, const char *const *moves, int n, outcome *r) {
  board b;
  variant v;
  variant_default(&v);
  board_start(&b, &v);
  for (int i = 0; i < n; i++) {
    player_info info;
    memset(&info, 0, sizeof info);
    int mover = moves[i][0] == 'S' ? BOARD_SOUTH : BOARD_NORTH;
    if (strcmp(moves[i] + 2, "-")) info.scored = 1, info.score = atoi(moves[i] + 2);
    memset(r, 0, sizeof *r);
    if (adjudicate_move(gs, i + 1, mover, &info, &b, r)) return i + 1;
  }
  return 0;
}

#define N_OF(a) ((int)(sizeof(a) / sizeof *(a)))

static void test_draw_rule(void **state) {
  (void)state;
  adjudicate_game gs;
  outcome r;
  /* Both within +-20 for 2 moves each (4 plies in a row) after ply 4: the
   * 30 at ply 3 breaks the run, which then starts again at ply 4. */
  adjudicator *a = watch("draw=4,20,2", &gs);
  const char *const m1[] = {"S:10", "N:-5", "S:30", "N:0", "S:0", "N:20", "S:-20", "N:0"};
  assert_int_equal(feed(&gs, m1, N_OF(m1), &r), 7);
  assert_int_equal(r.end, OUTCOME_ADJUDICATED_DRAW);
  assert_int_equal(r.winner, GAME_DRAW);
  assert_int_equal(r.score2[0], 0);
  assert_int_equal(r.score2[1], 0);
  assert_non_null(strstr(r.detail, "within +-20 for 2 moves"));
  adjudicate_close(a);
  /* Not before ply 10, however long the run. */
  a = watch("draw=10,20,1", &gs);
  const char *const m2[] = {"S:0", "N:0", "S:0", "N:0", "S:0", "N:0",
                            "S:0", "N:0", "S:0", "N:0", "S:0", "N:0"};
  assert_int_equal(feed(&gs, m2, N_OF(m2), &r), 10);
  adjudicate_close(a);
  /* A side that reports no score never lets it trigger. */
  a = watch("draw=0,20,1", &gs);
  const char *const m3[] = {"S:0", "N:-", "S:0", "N:-", "S:0", "N:-", "S:0", "N:-"};
  assert_int_equal(feed(&gs, m3, N_OF(m3), &r), 0);
  adjudicate_close(a);
  /* A won score (a proven win) is no draw. */
  a = watch("draw=0,20,1", &gs);
  const char *const m4[] = {"S:999990", "N:-999991", "S:999992", "N:-999993"};
  assert_int_equal(feed(&gs, m4, N_OF(m4), &r), 0);
  adjudicate_close(a);
}

static void test_resign_rule(void **state) {
  (void)state;
  adjudicate_game gs;
  outcome r;
  /* South at or below -300 for 3 of its moves in a row: North's scores do
   * not count for South. */
  adjudicator *a = watch("resign=300,3", &gs);
  const char *const m1[] = {"S:-300", "N:300", "S:-400", "N:-900", "S:-500", "N:0"};
  assert_int_equal(feed(&gs, m1, N_OF(m1), &r), 5);
  assert_int_equal(r.end, OUTCOME_ADJUDICATED_RESIGN);
  assert_int_equal(r.winner, BOARD_NORTH);
  assert_non_null(strstr(r.detail, "South's score at or below -300 for 3 moves"));
  adjudicate_close(a);
  /* -299 breaks the run; a move without a score breaks it too. */
  a = watch("resign=300,3", &gs);
  const char *const m2[] = {"N:-300", "S:0", "N:-300", "S:0", "N:-299", "S:0", "N:-300", "S:0",
                            "N:-300", "S:0", "N:-",    "S:0", "N:-999995", "S:0", "N:-300",
                            "S:0", "N:-300"};
  assert_int_equal(feed(&gs, m2, N_OF(m2), &r), 17);
  assert_int_equal(r.winner, BOARD_SOUTH);
  assert_non_null(strstr(r.detail, "North's score"));
  adjudicate_close(a);
  /* Players without scores never resign. */
  a = watch("resign=0,1", &gs);
  const char *const m3[] = {"S:-", "N:-", "S:-", "N:-"};
  assert_int_equal(feed(&gs, m3, N_OF(m3), &r), 0);
  adjudicate_close(a);
  /* The draw rule is looked at first, then the resign rule. */
  a = watch("draw=0,500,1;resign=100,1", &gs);
  const char *const m4[] = {"S:-200", "N:-200"};
  assert_int_equal(feed(&gs, m4, N_OF(m4), &r), 1);
  assert_int_equal(r.end, OUTCOME_ADJUDICATED_RESIGN);
  adjudicate_close(a);
}

/* maxplies=N: a draw once N plies are played, scores or none; after the
 * score rules. */
static void test_maxplies_rule(void **state) {
  (void)state;
  adjudicate_game gs;
  outcome r;
  adjudicator *a = watch("maxplies=3", &gs);
  const char *const m1[] = {"S:-", "N:900", "S:-999990", "N:0", "S:0"};
  assert_int_equal(feed(&gs, m1, N_OF(m1), &r), 3);
  assert_int_equal(r.end, OUTCOME_ADJUDICATED_DRAW);
  assert_int_equal(r.winner, GAME_DRAW);
  assert_non_null(strstr(r.detail, "3 plies played (maxplies)"));
  adjudicate_close(a);
  a = watch("maxplies=1", &gs);
  assert_int_equal(feed(&gs, m1, 1, &r), 1);
  adjudicate_close(a);
  a = watch("resign=100,1;maxplies=3", &gs);
  assert_int_equal(feed(&gs, m1, N_OF(m1), &r), 3);
  assert_int_equal(r.end, OUTCOME_ADJUDICATED_RESIGN);
  adjudicate_close(a);
}

static void test_no_rules(void **state) {
  (void)state;
  adjudicate_game gs;
  outcome r;
  variant v;
  variant_default(&v);
  adjudicate_start(NULL, &v, &gs);
  const char *const m[] = {"S:-900000", "N:0", "S:-900000", "N:0"};
  assert_int_equal(feed(&gs, m, N_OF(m), &r), 0);
  board b;
  board_start(&b, &v);
  assert_int_equal(adjudicate_position(&gs, &b, &v, &r), 0);
}

/* ---- The tables ---- */

static adjudicator *open_tables(const char *variant_text, variant *v) {
  char text[256], err[1024];
  adjudicate_rules r;
  adjudicator *a;
  snprintf(text, sizeof text, "egdb=%s", egdir);
  assert_int_equal(variant_parse(variant_text, v, err, sizeof err), 0);
  assert_int_equal(adjudicate_parse(text, &r, err, sizeof err), 0);
  if (adjudicate_open(&r, v, 1, &a, err, sizeof err)) fail_msg("%s", err);
  return a;
}

/* Hand-checked in test_analyse.c: South to move in 0-0-0-0-1-1-1-0-0-0-0-0-22-23-S
 * draws 24-24 with E; after F instead, North keeps all three seeds: 22-26. */
static void test_tables_hand(void **state) {
  (void)state;
  variant v;
  adjudicator *a = open_tables("abapa", &v);
  adjudicate_game gs;
  adjudicate_start(a, &v, &gs);
  board b;
  outcome r;
  char err[256];
  assert_int_equal(notation_parse_position("0-0-0-0-1-1-1-0-0-0-0-0-22-23-S", &v, &b, err, sizeof err), 0);
  memset(&r, 0, sizeof r);
  assert_int_equal(adjudicate_position(&gs, &b, &v, &r), 1);
  assert_int_equal(r.end, OUTCOME_ADJUDICATED_EGDB);
  assert_int_equal(r.winner, GAME_DRAW);
  assert_int_equal(r.score2[0], 48);
  assert_int_equal(r.score2[1], 48);
  assert_int_equal(notation_parse_position("0-0-0-0-1-0-2-0-0-0-0-0-22-23-N", &v, &b, err, sizeof err), 0);
  memset(&r, 0, sizeof r);
  assert_int_equal(adjudicate_position(&gs, &b, &v, &r), 1);
  assert_int_equal(r.winner, BOARD_NORTH);
  assert_int_equal(r.score2[0], 44);
  assert_int_equal(r.score2[1], 52);
  /* Beyond the tables (9 seeds and more): nothing. */
  assert_int_equal(notation_parse_position("2-0-0-0-1-1-1-0-0-2-2-0-19-20-S", &v, &b, err, sizeof err), 0);
  assert_int_equal(adjudicate_position(&gs, &b, &v, &r), 0);
  /* Another variant's game finds no tables of its own here. */
  variant other;
  assert_int_equal(variant_parse("grandslam-all", &other, err, sizeof err), 0);
  adjudicate_start(a, &other, &gs);
  assert_null(gs.tb);
  adjudicate_close(a);
}

/* On random endings: an exact value (or the split one under cycle=split)
 * ends the game with the stores plus that value; a cycle-sensitive one
 * whose result is the same whatever the cycle rule ends it with the bound
 * that decides it; any other does not; seeds are conserved; every kind is
 * met. */
static void random_endings(const char *variant_text) {
  variant v;
  adjudicator *a = open_tables(variant_text, &v);
  adjudicate_game gs;
  adjudicate_start(a, &v, &gs);
  assert_non_null(gs.tb);
  rng g;
  rng_seed(&g, 7);
  int kinds[3] = {0, 0, 0}; /* exact, decided by a bound, left to the rules */
  for (int k = 0; k < 4000; k++) {
    board b;
    if (fixture_random_ending(&g, &v, &b)) continue;
    if (v.total - b.store[0] - b.store[1] > 8) continue;
    egdb_value x;
    assert_int_equal(egdb_probe(gs.tb->db, &b, &x), 0);
    const int split = v.cycle == VARIANT_CYCLE_SPLIT, me = b.store[b.side], you = b.store[1 - b.side];
    /* In whole seeds, the mover's final margin with the least and the most it can get. */
    const int lo = me + x.lower - you - (x.n - x.lower), hi = me + x.upper - you - (x.n - x.upper);
    int kind = split || x.lower == x.upper ? 0 : lo > 0 || hi < 0 ? 1 : 2;
    outcome r;
    memset(&r, 0, sizeof r);
    assert_int_equal(adjudicate_position(&gs, &b, &v, &r), kind < 2);
    kinds[kind]++;
    if (kind == 2) continue;
    int mine2 = split ? x.split2 : 2 * (kind == 0 || lo > 0 ? x.lower : x.upper);
    assert_int_equal(r.score2[b.side], 2 * me + mine2);
    assert_int_equal(r.score2[0] + r.score2[1], 2 * v.total);
    int w = r.score2[0] > v.total ? BOARD_SOUTH : r.score2[1] > v.total ? BOARD_NORTH : GAME_DRAW;
    assert_int_equal(r.winner, w);
    if (kind == 1) {
      assert_int_equal(r.winner, lo > 0 ? b.side : 1 - b.side);
      assert_non_null(strstr(r.detail, "whatever the cycle rule"));
    }
  }
  assert_true(kinds[0] > 100);
  if (!(v.cycle == VARIANT_CYCLE_SPLIT)) assert_true(kinds[1] > 0 && kinds[2] > 0);
  adjudicate_close(a);
}

static void test_tables_random(void **state) {
  (void)state;
  random_endings("abapa");
  random_endings("awari");
}

static void test_tables_errors(void **state) {
  (void)state;
  variant v;
  variant_default(&v);
  adjudicate_rules r;
  adjudicator *a;
  char err[1024], text[256];
  snprintf(text, sizeof text, "egdb=%s/none", tmpdir);
  assert_int_equal(adjudicate_parse(text, &r, err, sizeof err), 0);
  assert_int_equal(adjudicate_open(&r, &v, 1, &a, err, sizeof err), -1);
  assert_null(a);
  assert_non_null(strstr(err, "--adjudicate egdb"));
  /* A variant without tables in the folder: no variant of the run has some. */
  snprintf(text, sizeof text, "egdb=%s", egdir);
  variant gs_all;
  assert_int_equal(variant_parse("grandslam-all", &gs_all, err, sizeof err), 0);
  assert_int_equal(adjudicate_parse(text, &r, err, sizeof err), 0);
  assert_int_equal(adjudicate_open(&r, &gs_all, 1, &a, err, sizeof err), -1);
  assert_non_null(strstr(err, "--adjudicate egdb"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_good),    cmocka_unit_test(test_parse_bad),
      cmocka_unit_test(test_draw_rule),     cmocka_unit_test(test_resign_rule),
      cmocka_unit_test(test_maxplies_rule),
      cmocka_unit_test(test_no_rules),      cmocka_unit_test(test_tables_hand),
      cmocka_unit_test(test_tables_random), cmocka_unit_test(test_tables_errors),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
