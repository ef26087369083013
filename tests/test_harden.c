/* test_harden.c: issue 12: a stop flag ends a game in progress, the uci server's time arithmetic, the engine's line reader, atomic output files, mkdir -p, store row checks. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/thread.h"
#include "run/match.h"
#include "store/store.h"
#include "core/outfile.h"
#include "core/path.h"
#include "players/engine.h"
#include "players/uci.h"

static void parse(const char *text, variant *v) {
  char err[256];
  if (variant_parse(text, v, err, sizeof err)) fail_msg("%s: %s", text, err);
}

/* ---- 1: a game in progress stops when asked ---- */

static atomic_int stop_flag;

static void *stop_later(void *arg) {
  (void)arg;
  const struct timespec t = {0, 30 * 1000000};
  nanosleep(&t, NULL);
  atomic_store(&stop_flag, 1);
  return NULL;
}

static void test_match_stops(void **state) {
  (void)state;
  /* The cycling game, bounded only by a far ply limit. */
  variant v;
  parse("houses=3,seeds=1,repetition=0,max_plies=1000000", &v);
  char err[256];
  player *s = player_create("greedy", err, sizeof err), *n = player_create("greedy:seed=2", err, sizeof err);
  assert_non_null(s);
  assert_non_null(n);
  game g;
  outcome r;
  atomic_store(&stop_flag, 0);
  char terr[128];
  thread *th = thread_start(stop_later, NULL, terr, sizeof terr);
  assert_non_null(th);
  int rc = match_play_stoppable(s, n, &v, NULL, 1, &stop_flag, &g, &r, err, sizeof err);
  thread_join(th);
  assert_int_equal(rc, 1);
  assert_true(r.plies < 1000000);
  assert_int_equal(g.end, BOARD_END_NONE); /* unfinished: nothing to record */
  game_free(&g);
  /* A flag already set: no move is played. */
  rc = match_play_stoppable(s, n, &v, NULL, 1, &stop_flag, &g, &r, err, sizeof err);
  assert_int_equal(rc, 1);
  assert_int_equal(r.plies, 0);
  game_free(&g);
  /* No flag: match_play as before. */
  parse("abapa", &v);
  assert_int_equal(match_play_stoppable(s, n, &v, NULL, 1, NULL, &g, &r, err, sizeof err), 0);
  assert_int_not_equal(g.end, BOARD_END_NONE);
  game_free(&g);
  player_free(s);
  player_free(n);
}

static int count_played(void *ctx, long long k, int a, const game *g, const outcome *r) {
  (void)k, (void)a, (void)g, (void)r;
  ++*(int *)ctx;
  return 0;
}

/* `oware match`'s loop stops too: the game in progress is abandoned, not counted. */
static void test_match_games_stop(void **state) {
  (void)state;
  variant v;
  parse("houses=3,seeds=1,repetition=0,max_plies=1000000", &v);
  char err[256];
  player *pl[2] = {player_create("greedy", err, sizeof err), player_create("greedy:seed=2", err, sizeof err)};
  assert_non_null(pl[0]);
  assert_non_null(pl[1]);
  match_totals t;
  int called = 0;
  atomic_store(&stop_flag, 0);
  char terr[128];
  thread *th = thread_start(stop_later, NULL, terr, sizeof terr);
  assert_non_null(th);
  int rc = match_games(pl, &v, 3, 1, NULL, &stop_flag, count_played, &called, &t, err, sizeof err);
  thread_join(th);
  assert_int_equal(rc, 1);
  assert_int_equal(t.games, 0);
  assert_int_equal(called, 0);
  /* Not set: every game played. */
  atomic_store(&stop_flag, 0);
  parse("abapa", &v);
  assert_int_equal(match_games(pl, &v, 2, 1, NULL, &stop_flag, count_played, &called, &t, err, sizeof err), 0);
  assert_int_equal(t.games, 2);
  assert_int_equal(called, 2);
  player_free(pl[0]);
  player_free(pl[1]);
}

/* ---- 9: uci time arithmetic saturates ---- */

static void test_uci_huge_times(void **state) {
  (void)state;
  char *buf = NULL, err[256];
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  assert_non_null(out);
  uci_server *s = uci_server_new("random", out, err, sizeof err);
  assert_non_null(s);
  static const char *const lines[] = {
      "position startpos",
      "go wtime 1000 movestogo 9223372036854775807",
      "go wtime 9223372036854775807 winc 9223372036854775807",
      "go btime 9223372036854775807 binc 9223372036854775807 movestogo 9223372036854775806",
      "position startpos moves F",
      "go btime 5 binc 9223372036854775807",
      "isready"};
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
    char line[200];
    snprintf(line, sizeof line, "%s", lines[i]);
    assert_int_equal(uci_server_line(s, line), 0);
  }
  assert_int_equal(uci_server_free(s), 0);
  fclose(out);
  int moves = 0;
  for (const char *p = buf; (p = strstr(p, "bestmove ")); p++) moves++;
  assert_int_equal(moves, 4);
  assert_non_null(strstr(buf, "readyok"));
  free(buf);
}

/* ---- 14: the engine's lines: NUL bytes, names, moves ---- */

static void test_engine_lines(void **state) {
  (void)state;
  variant v;
  parse("abapa", &v);
  engine_line el;
  char l1[] = "id name \0evil";
  assert_int_equal(engine_read_line(&v, l1, sizeof l1 - 1, &el), ENGINE_SAYS_ID_NAME);
  assert_string_equal(el.text, "?evil");
  char l2[] = "bestmove F\r";
  assert_int_equal(engine_read_line(&v, l2, strlen(l2), &el), ENGINE_SAYS_BESTMOVE);
  assert_int_equal(el.move, 5);
  char l3[] = "bestmove F\0x";
  engine_read_line(&v, l3, sizeof l3 - 1, &el);
  assert_int_equal(el.move, ENGINE_MOVE_BAD);
  char l4[] = "bestmove 0000";
  engine_read_line(&v, l4, strlen(l4), &el);
  assert_int_equal(el.move, ENGINE_MOVE_NONE);
  char l5[] = "  info depth 4 score mate 2 pv FdE";
  assert_int_equal(engine_read_line(&v, l5, strlen(l5), &el), ENGINE_SAYS_INFO);
  assert_true(el.info_any);
  assert_int_equal(el.info.depth, 4);
  assert_int_equal(el.info.pvlen, 3);
  char l6[] = "option name Variant type string default awari";
  assert_int_equal(engine_read_line(&v, l6, strlen(l6), &el), ENGINE_SAYS_VARIANT);
  assert_string_equal(el.text, "awari");
  char l7[] = "hello";
  assert_int_equal(engine_read_line(&v, l7, strlen(l7), &el), ENGINE_SAYS_GARBAGE);
}

/* ---- 13: files written whole or not at all ---- */

static char dir[256];

static void test_outfile(void **state) {
  (void)state;
  char path[300], err[512], text[64] = "";
  snprintf(path, sizeof path, "%s/out.txt", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs("old\n", f);
  fclose(f);
  outfile o;
  /* Abandoned: the old file stays, no temporary file is left. */
  assert_int_equal(outfile_open(&o, path, err, sizeof err), 0);
  fputs("half", o.f);
  outfile_abort(&o);
  f = fopen(path, "r");
  assert_non_null(fgets(text, sizeof text, f));
  fclose(f);
  assert_string_equal(text, "old\n");
  /* Committed: the new content. */
  assert_int_equal(outfile_open(&o, path, err, sizeof err), 0);
  fputs("new\n", o.f);
  assert_int_equal(outfile_commit(&o, err, sizeof err), 0);
  f = fopen(path, "r");
  assert_non_null(fgets(text, sizeof text, f));
  fclose(f);
  assert_string_equal(text, "new\n");
  /* Only out.txt is in the folder. */
  char cmd[600];
  snprintf(cmd, sizeof cmd, "test \"$(ls '%s' | wc -l)\" = 1", dir);
  assert_int_equal(system(cmd), 0);
  /* Paths that cannot be written are named with the reason. */
  char missing[300];
  snprintf(missing, sizeof missing, "%s/missing/x.txt", dir);
  assert_int_equal(outfile_check(missing, err, sizeof err), -1);
  assert_non_null(strstr(err, missing));
  assert_non_null(strstr(err, "No such file or directory"));
  assert_int_equal(outfile_check(dir, err, sizeof err), -1);
  assert_non_null(strstr(err, "it is a folder"));
  assert_int_equal(outfile_check("", err, sizeof err), -1);
  /* A full device: the commit reports it (and /dev/full is not replaced). */
  assert_int_equal(outfile_open(&o, "/dev/full", err, sizeof err), 0);
  for (int i = 0; i < 10000; i++) fputs("0123456789", o.f);
  assert_int_equal(outfile_commit(&o, err, sizeof err), -1);
  assert_non_null(strstr(err, "/dev/full"));
  struct stat st;
  assert_int_equal(stat("/dev/full", &st), 0);
  assert_true(S_ISCHR(st.st_mode));
  unlink(path);
}

/* mkdir -p (core/path.h): every missing folder made, an existing one
 * accepted, a file in the way named. */
static void test_mkdirs(void **state) {
  (void)state;
  char deep[600], err[512], file[300];
  snprintf(deep, sizeof deep, "%s/m1/m2/m3/", dir);
  assert_int_equal(path_mkdirs(deep, err, sizeof err), 0);
  assert_int_equal(path_mkdirs(deep, err, sizeof err), 0); /* there already */
  snprintf(file, sizeof file, "%s/p1/p2/x.db", dir);
  assert_int_equal(path_mkdirs_parent(file, err, sizeof err), 0);
  snprintf(file, sizeof file, "%s/p1/p2", dir);
  struct stat st;
  assert_true(stat(file, &st) == 0 && S_ISDIR(st.st_mode));
  assert_int_equal(path_mkdirs_parent("x.db", err, sizeof err), 0); /* the current folder */
  assert_int_equal(path_mkdirs("", err, sizeof err), 0);
  snprintf(file, sizeof file, "%s/m1/plain", dir);
  FILE *f = fopen(file, "w");
  assert_non_null(f);
  fclose(f);
  assert_int_equal(path_mkdirs(file, err, sizeof err), -1);
  assert_non_null(strstr(err, "is not a folder"));
  snprintf(deep, sizeof deep, "%s/sub", file);
  assert_int_equal(path_mkdirs(deep, err, sizeof err), -1);
  assert_non_null(strstr(err, "cannot create folder"));
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -r '%s/m1' '%s/p1'", dir, dir);
  assert_int_equal(system(cmd), 0);
}

/* ---- 6: store rows checked as they are read ---- */

static int count_game(void *ctx, const store_game *g) {
  (void)g;
  (*(int *)ctx)++;
  return 0;
}

static void test_store_rows(void **state) {
  (void)state;
  char path[300], err[512], sql[1400];
  snprintf(path, sizeof path, "%s/rows.db", dir);
  store *s;
  assert_int_equal(store_open(path, 1, &s, err, sizeof err), 0);
  store_run r;
  store_run_init(&r);
  assert_int_equal(store_run_set(&r.name, "rows"), 0);
  r.kind = STORE_ROUND_ROBIN;
  assert_int_equal(store_run_set(&r.format, "games:2"), 0);
  assert_int_equal(store_run_set(&r.openings, "random:2"), 0);
  assert_int_equal(store_run_set(&r.command, "test"), 0);
  r.rounds = r.threads = 1;
  assert_int_equal(store_run_add_player(&r, "a", "random"), 0);
  assert_int_equal(store_run_add_player(&r, "b", "greedy"), 0);
  assert_int_equal(store_run_add_variant(&r, "abapa"), 0);
  assert_int_equal(store_run_create(s, &r, err, sizeof err), 0);
  store_game g;
  memset(&g, 0, sizeof g);
  g.run_id = r.id;
  g.b_idx = g.north_idx = 1;
  snprintf(g.opening, sizeof g.opening, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  g.moves = "FdE";
  g.plies = 3;
  g.score2[0] = g.score2[1] = 48;
  g.winner = -1;
  g.end = OUTCOME_REPETITION;
  assert_int_equal(store_games_insert(s, &g, 1, err, sizeof err), 0);
  int n = 0;
  assert_int_equal(store_games_foreach(s, r.id, count_game, &n, err, sizeof err), 0);
  assert_int_equal(n, 1);
  store_run_free(&r);
  store_close(s);
  static const struct {
    const char *set, *message;
  } cases[] = {
      {"variant_idx = 40", "run 1 game 0 (series 0): variant_idx 40 out of range 0..0"},
      {"south_idx = 5000", "south_idx 5000 out of range 0..1"},
      {"north_idx = -1", "north_idx -1 out of range 0..1"},
      {"series_no = -3", "series_no -3 is negative"},
      {"winner = 7", "winner 7 is not -1, 0 or 1"},
      {"moves = 'Fd?', plies = 3", "move 3 is '?'"},
      {"plies = 9", "plies 9 but 3 move letters"},
      {"opening = '4-4'", "opening '4-4'"},
      {"end_reason = 'bored'", "unknown end reason 'bored'"},
      {"score_south = 99", "scores 99-24 out of range 0..48"},
      /* Found by the store fuzzer: a score beyond int converted before any check. */
      {"score_south = -1722090000", "score_south -1.72209e+09 is not a score"},
      {"score_north = 1e300", "score_north 1e+300 is not a score"},
      {"score_north = 3.25", "score_north 3.25 is not a score"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char bad[320];
    snprintf(bad, sizeof bad, "%s/bad.db", dir);
    snprintf(sql, sizeof sql, "cp '%s' '%s' && sqlite3 '%s' \"PRAGMA ignore_check_constraints=ON; UPDATE games SET %s\"", path, bad,
             bad, cases[i].set);
    assert_int_equal(system(sql), 0);
    assert_int_equal(store_open_readonly(bad, &s, err, sizeof err), 0);
    n = 0;
    err[0] = '\0';
    assert_int_equal(store_games_foreach(s, 1, count_game, &n, err, sizeof err), -1);
    if (!strstr(err, cases[i].message))
      fail_msg("UPDATE games SET %s: '%s' does not say '%s'", cases[i].set, err, cases[i].message);
    assert_int_equal(n, 0);
    store_close(s);
    unlink(bad);
  }
  unlink(path);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/oware-test-harden-XXXXXX");
  if (!mkdtemp(dir)) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_match_stops),  cmocka_unit_test(test_match_games_stop),
      cmocka_unit_test(test_uci_huge_times),
      cmocka_unit_test(test_engine_lines), cmocka_unit_test(test_outfile),
      cmocka_unit_test(test_mkdirs),
      cmocka_unit_test(test_store_rows),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir); /* the databases' -wal and -shm too */
  if (system(cmd)) rc = rc ? rc : 1;
  return rc;
}
