/* test_lib.c: the library of include/oware.h through the shared object only: take-back, copies, positions under any variant, moves under a limit, analysis, the levels, and their errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <oware.h>

static char err[1024];

/* err must hold want. */
static void err_has(const char *want) {
  if (!strstr(err, want)) fprintf(stderr, "got '%s', want '%s'\n", err, want);
  assert_non_null(strstr(err, want));
}

static oware_game *game_ok(const char *variant, const char *position) {
  oware_game *g = oware_game_new(variant, position, err, sizeof err);
  if (!g) fprintf(stderr, "%s\n", err);
  assert_non_null(g);
  return g;
}

static oware_player *player_ok(const char *spec) {
  oware_player *p = oware_player_new(spec, err, sizeof err);
  if (!p) fprintf(stderr, "%s\n", err);
  assert_non_null(p);
  return p;
}

static void play_ok(oware_game *g, const char *moves) {
  for (const char *m = moves; *m; m++) {
    int rc = oware_game_play(g, *m, err, sizeof err);
    if (rc) fprintf(stderr, "%c: %s\n", *m, err);
    assert_int_equal(rc, 0);
  }
}

static void position_is(const oware_game *g, const char *want) {
  char pos[256];
  oware_game_position(g, pos, sizeof pos);
  assert_string_equal(pos, want);
}

static void test_version(void **state) {
  (void)state;
  assert_int_equal(OWARE_API_VERSION, 2);
  assert_non_null(oware_version());
}

/* Take-back: each undo restores the position and the moves before the last
 * one, back to the start; at the start it is an error. */
static void test_undo(void **state) {
  (void)state;
  oware_game *g = game_ok("abapa", NULL);
  char pos[4][256], moves[64];
  const char *line = "FdE";
  for (int i = 0; i < 3; i++) {
    oware_game_position(g, pos[i], sizeof pos[i]);
    play_ok(g, (char[]){line[i], 0});
  }
  oware_game_position(g, pos[3], sizeof pos[3]);
  for (int i = 2; i >= 0; i--) {
    assert_int_equal(oware_game_undo(g, err, sizeof err), 0);
    position_is(g, pos[i]);
    assert_int_equal(oware_game_moves(g, moves, sizeof moves), i);
    assert_memory_equal(moves, line, (size_t)i);
    assert_int_equal(oware_game_side(g), i % 2);
  }
  strcpy(err, "");
  assert_int_equal(oware_game_undo(g, err, sizeof err), -1);
  err_has("nothing to take back: the game is at its start");
  play_ok(g, "FdE");
  position_is(g, pos[3]);
  assert_int_equal(oware_game_undo(NULL, err, sizeof err), -1);
  err_has("no game");
  assert_int_equal(oware_game_undo(NULL, NULL, 0), -1);
  oware_game_free(g);
}

/* Plays a whole game of two players; returns it. */
static oware_game *whole_game(const char *variant, const char *south, const char *north) {
  oware_game *g = game_ok(variant, NULL);
  oware_player *p[2] = {player_ok(south), player_ok(north)};
  while (!oware_game_over(g)) {
    char m;
    assert_int_equal(oware_player_move(p[oware_game_side(g)], g, &m, err, sizeof err), 0);
    play_ok(g, (char[]){m, 0});
  }
  oware_player_free(p[0]);
  oware_player_free(p[1]);
  return g;
}

/* Undo out of an ended game plays on from before its last move. */
static void test_undo_end(void **state) {
  (void)state;
  oware_game *g = whole_game("abapa", "greedy", "random:seed=3");
  char moves[4096], last;
  int n = oware_game_moves(g, moves, sizeof moves);
  last = moves[n - 1];
  assert_int_equal(oware_game_undo(g, err, sizeof err), 0);
  assert_int_equal(oware_game_over(g), 0);
  assert_int_equal(oware_game_result(g, NULL, NULL), -2);
  play_ok(g, (char[]){last, 0});
  assert_int_equal(oware_game_over(g), 1);
  oware_game_free(g);
}

/* What one game shows: its position, moves, result and end reason. */
static void summary(const oware_game *g, char *buf, size_t len) {
  char pos[256], moves[4096];
  double score[2];
  const char *reason;
  int w = oware_game_result(g, score, &reason);
  oware_game_position(g, pos, sizeof pos);
  oware_game_moves(g, moves, sizeof moves);
  snprintf(buf, len, "%s %s %d %g-%g %s", pos, moves, w, score[0], score[1], reason);
}

/* A copy at any ply, played on with the original's moves, ends as the
 * original did; the original is untouched by the copy's moves. The game
 * below ends by repetition (its 4 seeds go round), which the copy must
 * see from the history it was given. */
static void test_copy(void **state) {
  (void)state;
  const char *variant = "abapa", *start = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S";
  oware_game *g = game_ok(variant, start);
  char moves[4096], a[8192], b[8192];
  while (!oware_game_over(g)) {
    char legal[16];
    oware_game_legal(g, legal, sizeof legal);
    play_ok(g, (char[]){legal[0], 0});
  }
  const char *reason;
  oware_game_result(g, NULL, &reason);
  assert_string_equal(reason, "repetition");
  int n = oware_game_moves(g, moves, sizeof moves);
  summary(g, a, sizeof a);
  for (int k = 0; k <= n; k++) {
    oware_game *at = game_ok(variant, start);
    for (int i = 0; i < k; i++) play_ok(at, (char[]){moves[i], 0});
    oware_game *c = oware_game_copy(at, err, sizeof err);
    assert_non_null(c);
    for (int i = k; i < n; i++) play_ok(c, (char[]){moves[i], 0});
    summary(c, b, sizeof b);
    assert_string_equal(a, b);
    assert_int_equal(oware_game_moves(at, moves + n + 1, sizeof moves - (size_t)n - 1), k);
    oware_game_free(c);
    oware_game_free(at);
  }
  assert_null(oware_game_copy(NULL, err, sizeof err));
  err_has("no game");
  oware_game_free(g);
}

/* Positions under any variant; a bad position is an error naming what is
 * wrong. */
static void test_position(void **state) {
  (void)state;
  const char *awari = "1-0-0-0-0-2-3-0-0-0-0-1-20-21-N";
  oware_game *g = game_ok("awari", awari);
  char v[256], legal[16];
  oware_game_variant(g, v, sizeof v);
  assert_non_null(strstr(v, "awari"));
  position_is(g, awari);
  assert_int_equal(oware_game_side(g), 1);
  assert_int_equal(oware_game_legal(g, legal, sizeof legal), 2);
  assert_string_equal(legal, "af");
  oware_game_free(g);
  g = game_ok("abapa,seeds=5", "5-5-5-5-5-5-5-5-5-5-5-5-0-0-S");
  oware_game_free(g);
  struct {
    const char *variant, *position, *want;
  } bad[] = {
      {"abapa", "4-4-4-4-4-4-4-4-4-4-4-0-S", "13 fields, expected 15"},
      {"abapa", "4-4-4-4-4-4-4-4-4-4-4-x-0-0-S", "field 12 (house f) is 'x', not a seed count"},
      {"abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-W", "field 15 (side to move) is 'W', expected S or N"},
      {"abapa", "4-4-4-4-4-4-4-4-4-4-4-5-0-0-S", "the seeds add up to 49, but the variant has 48"},
      {"abapa,seeds=5", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "but the variant has 60"},
      {"nosuch", NULL, "variant: unknown variant 'nosuch'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    strcpy(err, "");
    assert_null(oware_game_new(bad[i].variant, bad[i].position, err, sizeof err));
    err_has(bad[i].want);
    assert_null(strstr(err, "position: position:"));
    assert_null(strstr(err, "variant: variant:"));
  }
}

/* A limit given per call: depth and nodes bound the search; 0 is the
 * player's own. */
static void test_move_limit(void **state) {
  (void)state;
  oware_game *g = game_ok(NULL, NULL);
  oware_player *p = player_ok("minimax:depth=5,egdb=off");
  oware_analysis a;
  assert_int_equal(oware_player_analyse(p, g, 0, 0, 0, &a, err, sizeof err), 0);
  assert_int_equal(a.depth, 5);
  assert_int_equal(oware_player_analyse(p, g, 0, 0, 2, &a, err, sizeof err), 0);
  assert_int_equal(a.depth, 2);
  assert_int_equal(oware_player_analyse(p, g, 0, 0, 9, &a, err, sizeof err), 0);
  assert_int_equal(a.depth, 9);
  char m, legal[16];
  oware_game_legal(g, legal, sizeof legal);
  assert_int_equal(oware_player_move_limit(p, g, 0, 0, 3, &m, err, sizeof err), 0);
  assert_non_null(strchr(legal, m));
  assert_int_equal(oware_player_move_limit(p, g, 50, 0, 0, &m, err, sizeof err), 0);
  assert_non_null(strchr(legal, m));
  oware_player_free(p);
  p = player_ok("mcts:playouts=50000,egdb=off");
  assert_int_equal(oware_player_analyse(p, g, 0, 300, 0, &a, err, sizeof err), 0);
  assert_int_equal(a.nodes, 300);
  assert_non_null(strchr(legal, a.move));
  /* Errors: a NULL handle, a negative limit, a game over. */
  assert_int_equal(oware_player_move_limit(NULL, g, 0, 0, 0, &m, err, sizeof err), -1);
  err_has("no player");
  assert_int_equal(oware_player_move_limit(p, NULL, 0, 0, 0, &m, err, sizeof err), -1);
  err_has("no game");
  assert_int_equal(oware_player_analyse(p, g, -1, 0, 0, &a, err, sizeof err), -1);
  err_has("movetime_ms must be 0 (the player's own) or more, not -1");
  assert_int_equal(oware_player_analyse(p, g, 0, -5, 0, &a, err, sizeof err), -1);
  err_has("nodes must be 0");
  assert_int_equal(oware_player_move_limit(p, g, 0, 0, -2, &m, err, sizeof err), -1);
  err_has("depth must be 0");
  oware_game_free(g);
  g = whole_game(NULL, "greedy", "greedy");
  assert_int_equal(oware_player_move_limit(p, g, 0, 10, 0, &m, err, sizeof err), -1);
  err_has("the game is over");
  oware_player_free(p);
  oware_game_free(g);
}

/* Analysis: the move heads the principal variation, which is legal line of
 * play; a won end seen ahead is reported as end_in. */
static void test_analyse(void **state) {
  (void)state;
  oware_game *g = game_ok(NULL, NULL);
  play_ok(g, "FdE");
  oware_player *p = player_ok("minimax:depth=6,egdb=off");
  oware_analysis a;
  assert_int_equal(oware_player_analyse(p, g, 0, 0, 0, &a, err, sizeof err), 0);
  assert_int_equal(a.depth, 6);
  assert_true(a.nodes > 0);
  assert_true(a.seconds >= 0);
  assert_int_equal(a.end_in, 0);
  assert_true(strlen(a.pv) >= 1);
  assert_int_equal(a.pv[0], a.move);
  oware_game *c = oware_game_copy(g, err, sizeof err);
  play_ok(c, a.pv);
  oware_game_free(c);
  oware_player_free(p);
  oware_game_free(g);
  /* South's only move captures 2 and wins with 25. */
  g = game_ok(NULL, "0-0-0-0-0-1-1-0-0-0-0-1-23-22-S");
  p = player_ok("minimax:depth=4,egdb=off");
  assert_int_equal(oware_player_analyse(p, g, 0, 0, 0, &a, err, sizeof err), 0);
  assert_int_equal(a.move, 'F');
  assert_int_equal(a.end_in, 1);
  assert_int_equal(a.score, 1000000 - 1);
  assert_string_equal(a.pv, "F");
  oware_player_free(p);
  p = player_ok("random");
  assert_int_equal(oware_player_analyse(p, g, 0, 0, 0, &a, err, sizeof err), 0);
  assert_int_equal(a.move, 'F');
  assert_string_equal(a.pv, "");
  assert_int_equal(a.depth, 0);
  oware_player_free(p);
  oware_game_free(g);
}

/* A win the endgame tables prove is no game end seen: its score is in the
 * tables' band, its end_in 0 (it was 201: "a win in 201 plies"). The tables
 * to 8 seeds are built by the oware binary ($OWARE_BIN). */
static void test_analyse_tables(void **state) {
  (void)state;
  const char *bin = getenv("OWARE_BIN");
  if (!bin) skip();
  char dir[] = "/tmp/test_lib_eg_XXXXXX", cmd[512], spec[128];
  assert_non_null(mkdtemp(dir));
  snprintf(cmd, sizeof cmd, "'%s' egdb build --seeds 8 --dir '%s' --quiet >/dev/null", bin, dir);
  assert_int_equal(system(cmd), 0);
  snprintf(spec, sizeof spec, "minimax:depth=8,egdb=%s", dir);
  oware_game *g = game_ok(NULL, "2-0-3-2-0-0-0-1-0-0-0-0-20-20-S");
  oware_player *p = player_ok(spec);
  oware_analysis a;
  assert_int_equal(oware_player_analyse(p, g, 0, 0, 0, &a, err, sizeof err), 0);
  assert_true(a.score >= 1000000 - 1000 && a.score <= 1000000 - 201);
  assert_int_equal(a.end_in, 0);
  oware_player_free(p);
  oware_game_free(g);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* A player asked again after a take-back is told of a new game: minimax
 * starts again with an empty hash table, so the same search counts the same
 * nodes (with the table of the first search it would count fewer). */
static void test_undo_player(void **state) {
  (void)state;
  oware_game *g = game_ok(NULL, NULL);
  oware_player *p = player_ok("minimax:depth=7,egdb=off");
  oware_analysis a, b;
  play_ok(g, "F");
  assert_int_equal(oware_player_analyse(p, g, 0, 0, 0, &a, err, sizeof err), 0);
  assert_int_equal(oware_game_undo(g, err, sizeof err), 0);
  play_ok(g, "F");
  assert_int_equal(oware_player_analyse(p, g, 0, 0, 0, &b, err, sizeof err), 0);
  assert_int_equal(a.nodes, b.nodes);
  assert_int_equal(a.move, b.move);
  oware_player_free(p);
  oware_game_free(g);
}

/* Writes text to a temporary file; its path into path. */
static void temp_file(const char *text, char *path) {
  strcpy(path, "/tmp/test_lib_XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
}

/* The shipped levels: names, specs and calibrated Elo, in the file's order. */
static void test_levels(void **state) {
  (void)state;
  oware_levels *l = oware_levels_open(NULL, err, sizeof err);
  if (!l) fprintf(stderr, "%s\n", err);
  assert_non_null(l);
  assert_non_null(strstr(oware_levels_path(l), "levels.txt"));
  assert_int_equal(oware_levels_count(l), 4);
  const char *names[] = {"easy", "medium", "hard", "expert"};
  double last = -INFINITY;
  for (int i = 0; i < 4; i++) {
    oware_level v;
    assert_int_equal(oware_levels_get(l, i, &v, err, sizeof err), 0);
    assert_string_equal(v.name, names[i]);
    assert_int_equal(oware_levels_find(l, names[i], err, sizeof err), i);
    assert_true(v.elo > last && v.lo < v.elo && v.elo < v.hi);
    assert_true(fabs(v.elo - v.target) <= 40);
    last = v.elo;
    oware_player *p = player_ok(v.spec);
    oware_player_free(p);
  }
  double lo, hi;
  assert_int_equal(oware_levels_elo_range(l, &lo, &hi, err, sizeof err), 0);
  oware_level easy, expert;
  oware_levels_get(l, 0, &easy, err, sizeof err);
  oware_levels_get(l, 3, &expert, err, sizeof err);
  assert_true(lo == easy.elo && hi == expert.elo);
  char spec[64];
  snprintf(spec, sizeof spec, "level:elo=%d", (int)ceil(lo) + 10);
  oware_player_free(player_ok(spec));
  /* Errors: an unknown level, an index out of range, NULL handles. */
  assert_int_equal(oware_levels_find(l, "impossible", err, sizeof err), -1);
  err_has("no level 'impossible' in ");
  err_has("its levels: easy medium hard expert");
  assert_null(oware_player_new("level:impossible", err, sizeof err));
  err_has("impossible");
  assert_int_equal(oware_levels_get(l, 4, &easy, err, sizeof err), -1);
  err_has("no level 4");
  assert_int_equal(oware_levels_get(NULL, 0, &easy, err, sizeof err), -1);
  err_has("no levels");
  assert_int_equal(oware_levels_find(NULL, "easy", err, sizeof err), -1);
  assert_int_equal(oware_levels_elo_range(NULL, &lo, &hi, err, sizeof err), -1);
  oware_levels_free(l);
  assert_null(oware_levels_path(NULL));
  assert_int_equal(oware_levels_count(NULL), 0);
  oware_levels_free(NULL);
}

/* A file of one's own: uncalibrated levels read NAN and give no Elo range;
 * a missing or malformed file is an error naming it. */
static void test_levels_file(void **state) {
  (void)state;
  char path[64];
  temp_file("mine greedy\nother random 10 0 20\n", path);
  oware_levels *l = oware_levels_open(path, err, sizeof err);
  assert_non_null(l);
  assert_string_equal(oware_levels_path(l), path);
  assert_int_equal(oware_levels_count(l), 2);
  oware_level v;
  assert_int_equal(oware_levels_get(l, 0, &v, err, sizeof err), 0);
  assert_string_equal(v.spec, "greedy");
  assert_true(isnan(v.elo) && isnan(v.lo) && isnan(v.hi) && isnan(v.target));
  assert_int_equal(oware_levels_get(l, 1, &v, err, sizeof err), 0);
  assert_true(v.elo == 10 && v.lo == 0 && v.hi == 20 && isnan(v.target));
  double lo, hi;
  assert_int_equal(oware_levels_elo_range(l, &lo, &hi, err, sizeof err), -1);
  err_has("no level at any Elo");
  oware_levels_free(l);
  unlink(path);
  assert_null(oware_levels_open(path, err, sizeof err));
  err_has(path);
  temp_file("mine\n", path);
  assert_null(oware_levels_open(path, err, sizeof err));
  err_has(path);
  err_has(":1:");
  unlink(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_version),     cmocka_unit_test(test_undo),
      cmocka_unit_test(test_undo_end),    cmocka_unit_test(test_copy),
      cmocka_unit_test(test_position),    cmocka_unit_test(test_move_limit),
      cmocka_unit_test(test_analyse),     cmocka_unit_test(test_analyse_tables),
      cmocka_unit_test(test_undo_player),
      cmocka_unit_test(test_levels),      cmocka_unit_test(test_levels_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
