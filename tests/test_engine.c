/* test_engine.c: the engine player over pipes: games against `oware uci`, misbehaving fake engines, restarts, no zombies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/thread.h"
#include "run/match.h"
#include "core/clock.h"
#include "core/game.h"
#include "core/notation.h"
#include "players/player.h"

#define FAKE OWARE_TEST_DATA "/engines/fake_engine.sh"
/* Short waits, so that the hanging cases end quickly. */
#define FAST "timeout=500,margin=300,grace=200"

/* No child is left: neither running nor a zombie. */
static void assert_no_children(void) {
  errno = 0;
  pid_t r = waitpid(-1, NULL, WNOHANG);
  if (r != -1 || errno != ECHILD) fail_msg("a child process is left (waitpid gave %d)", (int)r);
}

static int teardown(void **state) {
  (void)state;
  assert_no_children();
  return 0;
}

static player *make(const char *spec) {
  char err[512];
  player *p = player_create(spec, err, sizeof err);
  if (!p) fail_msg("player_create(%s): %s", spec, err);
  return p;
}

/* The spec of a fake engine in `mode` (see fake_engine.sh). */
static void fake_spec(char *buf, size_t len, const char *mode, const char *extra) {
  snprintf(buf, len, "engine:cmd=sh,arg=%s,arg=%s," FAST "%s%s", FAKE, mode, *extra ? "," : "",
           extra);
}

static void parse_variant(const char *text, variant *v) {
  char err[256];
  if (variant_parse(text, v, err, sizeof err)) fail_msg("variant %s: %s", text, err);
}

static int infos;
static int last_depth;
static void count_info(void *ctx, const player_info *in) {
  (void)ctx;
  infos++;
  last_depth = in->depth;
}

/* Plays one game; returns its result (the game is freed). */
static outcome play(player *south, player *north, const variant *v, uint64_t seed) {
  game g;
  outcome r;
  char err[256];
  if (match_play(south, north, v, NULL, seed, &g, &r, err, sizeof err))
    fail_msg("match_play: %s", err);
  game_free(&g);
  return r;
}

/* (a) `oware uci --player minimax` over pipes plays whole games against
 * random and greedy, under several variants, with no forfeit. */
static void test_real_games(void **state) {
  (void)state;
  player *eng = make("engine:cmd=" OWARE_BIN ",arg=uci,arg=--player,arg=minimax,option=hash=1,"
                     "depth=3,name=eng");
  eng->on_info = count_info;
  infos = 0;
  const char *opponents[] = {"random", "greedy"};
  const char *variants[] = {"abapa", "auale,houses=5", "grandslam-forbidden", "abapa"};
  uint64_t seed = 1;
  for (int o = 0; o < 2; o++) {
    player *opp = make(opponents[o]);
    for (int k = 0; k < 4; k++) {
      variant v;
      parse_variant(variants[k], &v);
      for (int colour = 0; colour < 2; colour++) {
        outcome r = colour ? play(opp, eng, &v, seed++) : play(eng, opp, &v, seed++);
        if (r.end >= OUTCOME_FORFEIT_TIMEOUT)
          fail_msg("%s vs %s under %s: %s: %s", eng->name, opp->name, variants[k],
                   outcome_end_name(r.end), r.detail);
        assert_true(r.plies > 0);
      }
    }
    /* From a position that is not the start: sent as `position fen`. */
    variant v;
    variant_default(&v);
    board b;
    char err[256];
    assert_int_equal(
        notation_parse_position("6-6-6-5-0-1-6-6-6-0-0-6-0-0-N", &v, &b, err, sizeof err), 0);
    for (int colour = 0; colour < 2; colour++) {
      game g;
      outcome r;
      assert_int_equal(match_play(colour ? opp : eng, colour ? eng : opp, &v, &b, seed++, &g, &r,
                                  err, sizeof err),
                       0);
      if (r.end >= OUTCOME_FORFEIT_TIMEOUT) fail_msg("from a fen: %s", r.detail);
      game_free(&g);
    }
    player_free(opp);
  }
  assert_true(infos > 0);
  player_free(eng);
}

/* The limits of a move replace the spec's, and info lines reach on_info. */
static void test_limits_and_info(void **state) {
  (void)state;
  player *eng = make("engine:cmd=" OWARE_BIN ",arg=uci,arg=--player,arg=minimax:depth=1");
  eng->on_info = count_info;
  variant v;
  variant_default(&v);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  player_limits lim = {0};
  lim.depth = 4;
  player_info info;
  char err[256];
  int m;
  infos = 0;
  assert_int_equal(player_choose(eng, &g, &lim, &m, &info, err, sizeof err), PLAYER_OK);
  assert_true(g.legal >> m & 1);
  assert_int_equal(infos, 4);
  assert_int_equal(last_depth, 4);
  assert_int_equal(info.depth, 4);
  assert_true(info.pvlen >= 1);
  assert_int_equal(info.pv[0], m);
  game_free(&g);

  /* A win in one ply (F captures a's 2 seeds: 25) comes as mate 1. */
  board b;
  assert_int_equal(notation_parse_position("0-0-0-0-0-1-1-4-0-0-0-0-23-19-S", &v, &b, err,
                                           sizeof err),
                   0);
  assert_int_equal(game_init(&g, &v, &b), 0);
  lim.depth = 3;
  assert_int_equal(player_choose(eng, &g, &lim, &m, &info, err, sizeof err), PLAYER_OK);
  assert_int_equal(m, notation_move_index(&v, 'F'));
  assert_int_equal(info.score, PLAYER_WIN - 1);
  game_free(&g);
  player_free(eng);
}

static void *stop_later(void *arg) {
  player *p = arg;
  struct timespec t = {0, 300 * 1000000L};
  nanosleep(&t, NULL);
  atomic_store(&p->stop, 1);
  return NULL;
}

/* go infinite, ended by player->stop from another thread. */
static void test_infinite_stop(void **state) {
  (void)state;
  player *eng = make("engine:cmd=" OWARE_BIN ",arg=uci,arg=--player,arg=minimax:hash=1");
  variant v;
  variant_default(&v);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  player_limits lim = {0};
  lim.infinite = 1;
  char terr[128];
  thread *t = thread_start(stop_later, eng, terr, sizeof terr);
  assert_non_null(t);
  char err[256];
  int m;
  double t0 = clock_now();
  assert_int_equal(player_choose(eng, &g, &lim, &m, NULL, err, sizeof err), PLAYER_OK);
  double s = clock_now() - t0;
  thread_join(t);
  assert_true(s >= 0.25 && s < 5.0);
  assert_true(g.legal >> m & 1);
  game_free(&g);
  player_free(eng);
}

/* A forfeit of the fake as South in its first or second move. */
static outcome fake_game(const char *mode, const char *extra, double *seconds) {
  char spec[1024];
  fake_spec(spec, sizeof spec, mode, extra);
  player *f = make(spec), *r = make("random");
  variant v;
  variant_default(&v);
  double t0 = clock_now();
  outcome res = play(f, r, &v, 7);
  if (seconds) *seconds = clock_now() - t0;
  player_free(f);
  player_free(r);
  return res;
}

static void assert_forfeit(const outcome *r, outcome_end end, const char *words) {
  print_message("  %s: %s\n", outcome_end_name(r->end), r->detail);
  if (r->end != end)
    fail_msg("expected %s, got %s: %s", outcome_end_name(end), outcome_end_name(r->end), r->detail);
  assert_int_equal(r->winner, BOARD_NORTH);
  if (!strstr(r->detail, words)) fail_msg("'%s' is not in the message: %s", words, r->detail);
}

static void test_garbage(void **state) {
  (void)state;
  double s;
  outcome r = fake_game("garbage", "movetime=100", &s);
  assert_forfeit(&r, OUTCOME_FORFEIT_PROTOCOL, "thinking hard");
  assert_true(strstr(r.detail, "no bestmove") != NULL);
  assert_true(s < 3.0); /* 100 + 300 ms, then 200 ms for stop */
}

/* Endless output: the deadline holds; the engine and its child (yes) are killed. */
static void test_flood(void **state) {
  (void)state;
  double s;
  outcome r = fake_game("flood", "movetime=100", &s);
  assert_forfeit(&r, OUTCOME_FORFEIT_PROTOCOL, "flood of garbage");
  assert_true(s < 3.0);
}

static void test_bad_bestmove(void **state) {
  (void)state;
  outcome r = fake_game("badbest", "", NULL);
  assert_forfeit(&r, OUTCOME_FORFEIT_PROTOCOL, "bestmove xyz");
}

static void test_illegal(void **state) {
  (void)state;
  outcome r = fake_game("illegal", "", NULL);
  assert_forfeit(&r, OUTCOME_FORFEIT_ILLEGAL, "bestmove a");
  assert_int_equal(r.plies, 0);
}

static void test_hang_at_go(void **state) {
  (void)state;
  double s;
  outcome r = fake_game("hanggo", "movetime=200", &s);
  assert_forfeit(&r, OUTCOME_FORFEIT_TIMEOUT, "no bestmove within 500 ms");
  assert_true(strstr(r.detail, "killed") != NULL);
  /* 500 ms, 200 ms for stop; the destroy: 200 ms of grace. */
  assert_true(s < 3.0);
}

static void test_long_line(void **state) {
  (void)state;
  char spec[1024];
  fake_spec(spec, sizeof spec, "longline", "");
  player *f = make(spec);
  f->on_info = count_info;
  infos = 0;
  variant v;
  variant_default(&v);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  char err[256];
  int m;
  player_info info;
  assert_int_equal(player_choose(f, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
  assert_int_equal(m, notation_move_index(&v, 'F'));
  assert_int_equal(infos, 1);
  assert_int_equal(info.depth, 1);
  assert_int_equal(info.score, 5);
  assert_int_equal(info.pvlen, 3);
  game_free(&g);
  player_free(f);
}

/* Failures of the handshake: player_create fails, within the timeout. */
static void test_hang_after_uciok(void **state) {
  (void)state;
  char spec[1024], err[512];
  fake_spec(spec, sizeof spec, "hang", "");
  double t0 = clock_now();
  player *p = player_create(spec, err, sizeof err);
  assert_null(p);
  print_message("  %s\n", err);
  assert_true(clock_now() - t0 < 2.0);
  if (!strstr(err, "readyok") || !strstr(err, "500 ms")) fail_msg("message: %s", err);
}

static void test_silent(void **state) {
  (void)state;
  char spec[1024], err[512];
  fake_spec(spec, sizeof spec, "silent", "");
  double t0 = clock_now();
  player *p = player_create(spec, err, sizeof err);
  assert_null(p);
  print_message("  %s\n", err);
  assert_true(clock_now() - t0 < 2.0);
  if (!strstr(err, "'uciok'")) fail_msg("message: %s", err);
}

static void test_missing_program(void **state) {
  (void)state;
  char err[512];
  player *p = player_create("engine:cmd=/nonexistent/engine", err, sizeof err);
  assert_null(p);
  if (!strstr(err, "cannot start")) fail_msg("message: %s", err);
  p = player_create("engine:depth=3", err, sizeof err);
  assert_null(p);
  if (!strstr(err, "cmd=")) fail_msg("message: %s", err);
  p = player_create("engine:cmd=sh,option=novalue", err, sizeof err);
  assert_null(p);
  if (!strstr(err, "Name=Value")) fail_msg("message: %s", err);
}

/* A variant other than abapa needs a Variant option. */
static void test_no_variant_option(void **state) {
  (void)state;
  char spec[1024], err[512];
  fake_spec(spec, sizeof spec, "illegal", "");
  player *f = make(spec), *r = make("random");
  variant v;
  parse_variant("auale", &v);
  assert_int_equal(player_new_game(f, &v, 1, err, sizeof err), -1);
  if (!strstr(err, "Variant") || !strstr(err, "auale")) fail_msg("message: %s", err);
  outcome res = play(f, r, &v, 3);
  assert_forfeit(&res, OUTCOME_FORFEIT_ERROR, "Variant");
  player_free(f);
  player_free(r);
}

/* A crash in the middle of a game, then a restart at the next new_game. */
static void test_crash_and_restart(void **state) {
  (void)state;
  char dir[] = "/tmp/oware-engine-XXXXXX", count[256], extra[300], err[512];
  assert_non_null(mkdtemp(dir));
  snprintf(count, sizeof count, "%s/count", dir);
  snprintf(extra, sizeof extra, "arg=%s", count);
  outcome r = fake_game("dieat", extra, NULL);
  /* It played F (go 1), then died at go 2 (ply 2). */
  assert_forfeit(&r, OUTCOME_FORFEIT_CRASH, "exited with status 3");
  assert_int_equal(r.plies, 2);

  char spec[1024];
  fake_spec(spec, sizeof spec, "dieat", extra);
  player *f = make(spec);
  variant v;
  variant_default(&v);
  game g;
  int m;
  for (int round = 0; round < 2; round++) {
    /* go 3 (5): plays; go 4 (6): dies; the next new_game restarts it. */
    assert_int_equal(player_new_game(f, &v, 1, err, sizeof err), 0);
    assert_int_equal(game_init(&g, &v, NULL), 0);
    assert_int_equal(player_choose(f, &g, NULL, &m, NULL, err, sizeof err), PLAYER_OK);
    assert_int_equal(m, notation_move_index(&v, 'F'));
    assert_int_equal(player_choose(f, &g, NULL, &m, NULL, err, sizeof err), PLAYER_CRASH);
    /* Still dead until the next game. */
    assert_int_equal(player_choose(f, &g, NULL, &m, NULL, err, sizeof err), PLAYER_CRASH);
    if (!strstr(err, "not running")) fail_msg("message: %s", err);
    game_free(&g);
  }
  player_free(f);
  remove(count);
  rmdir(dir);
}

/* An engine that exits after its move: the next write meets a closed pipe
 * (EPIPE, no SIGPIPE), a crash. Then a well-behaved engine killed from
 * outside also restarts. */
static void test_closed_pipe(void **state) {
  (void)state;
  char spec[1024], err[512];
  fake_spec(spec, sizeof spec, "quitafter", "");
  player *f = make(spec);
  variant v;
  variant_default(&v);
  game g;
  int m;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  assert_int_equal(player_choose(f, &g, NULL, &m, NULL, err, sizeof err), PLAYER_OK);
  struct timespec t = {0, 200 * 1000000L};
  nanosleep(&t, NULL);
  assert_int_equal(player_choose(f, &g, NULL, &m, NULL, err, sizeof err), PLAYER_CRASH);
  print_message("  %s\n", err);
  if (!strstr(err, "exited with status 0")) fail_msg("message: %s", err);
  assert_int_equal(player_new_game(f, &v, 1, err, sizeof err), 0);
  assert_int_equal(player_choose(f, &g, NULL, &m, NULL, err, sizeof err), PLAYER_OK);
  player_free(f);

  /* oware uci, killed by a signal between two moves. */
  player *e = make("engine:cmd=" OWARE_BIN ",arg=uci,arg=--player,arg=random," FAST);
  assert_int_equal(player_choose(e, &g, NULL, &m, NULL, err, sizeof err), PLAYER_OK);
  /* Our only child is the engine: find it through /proc. */
  pid_t child = 0;
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
  FILE *cf = fopen(path, "r");
  int c = 0;
  if (cf) {
    if (fscanf(cf, "%d", &c) == 1) child = c;
    fclose(cf);
  }
  if (child <= 0) print_message("  (no /proc/PID/task/TID/children: kill test skipped)\n");
  if (child > 0) {
    kill(child, SIGKILL);
    nanosleep(&t, NULL);
    assert_int_equal(player_choose(e, &g, NULL, &m, NULL, err, sizeof err), PLAYER_CRASH);
    print_message("  %s\n", err);
    if (!strstr(err, "signal 9")) fail_msg("message: %s", err);
    assert_int_equal(player_new_game(e, &v, 2, err, sizeof err), 0);
    assert_int_equal(player_choose(e, &g, NULL, &m, NULL, err, sizeof err), PLAYER_OK);
    /* Killed between two games: the next new_game notices and restarts. */
    cf = fopen(path, "r");
    assert_non_null(cf);
    assert_int_equal(fscanf(cf, "%d", &c), 1);
    fclose(cf);
    kill(c, SIGKILL);
    nanosleep(&t, NULL);
    assert_int_equal(player_new_game(e, &v, 3, err, sizeof err), 0);
    assert_int_equal(player_choose(e, &g, NULL, &m, NULL, err, sizeof err), PLAYER_OK);
  }
  player_free(e);
  game_free(&g);
}

/* destroy: an engine that ignores quit and its closed input is killed
 * after the grace time. */
static void test_destroy_kills(void **state) {
  (void)state;
  char spec[1024];
  fake_spec(spec, sizeof spec, "hanggo", "");
  player *f = make(spec);
  double t0 = clock_now();
  player_free(f);
  double s = clock_now() - t0;
  assert_true(s >= 0.15 && s < 1.5);
}

/* Each thread owns an engine player and plays games with it. */
static void *thread_games(void *arg) {
  int *ok = arg;
  char err[256];
  player *e = player_create("engine:cmd=" OWARE_BIN ",arg=uci,arg=--player,arg=minimax,"
                            "option=hash=1,depth=2",
                            err, sizeof err);
  player *r = player_create("greedy", err, sizeof err);
  variant v;
  variant_default(&v);
  *ok = e && r;
  for (int k = 0; *ok && k < 2; k++) {
    game g;
    outcome res;
    if (match_play(k ? r : e, k ? e : r, &v, NULL, (uint64_t)k, &g, &res, err, sizeof err)) {
      *ok = 0;
      break;
    }
    game_free(&g);
    if (res.end >= OUTCOME_FORFEIT_TIMEOUT) *ok = 0;
  }
  player_free(e);
  player_free(r);
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  enum { N = 4 };
  thread *t[N];
  char terr[128];
  int ok[N];
  for (int i = 0; i < N; i++) assert_non_null(t[i] = thread_start(thread_games, &ok[i], terr, sizeof terr));
  for (int i = 0; i < N; i++) {
    thread_join(t[i]);
    assert_true(ok[i]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_real_games, teardown),
      cmocka_unit_test_teardown(test_limits_and_info, teardown),
      cmocka_unit_test_teardown(test_infinite_stop, teardown),
      cmocka_unit_test_teardown(test_garbage, teardown),
      cmocka_unit_test_teardown(test_flood, teardown),
      cmocka_unit_test_teardown(test_bad_bestmove, teardown),
      cmocka_unit_test_teardown(test_illegal, teardown),
      cmocka_unit_test_teardown(test_hang_at_go, teardown),
      cmocka_unit_test_teardown(test_long_line, teardown),
      cmocka_unit_test_teardown(test_hang_after_uciok, teardown),
      cmocka_unit_test_teardown(test_silent, teardown),
      cmocka_unit_test_teardown(test_missing_program, teardown),
      cmocka_unit_test_teardown(test_no_variant_option, teardown),
      cmocka_unit_test_teardown(test_crash_and_restart, teardown),
      cmocka_unit_test_teardown(test_closed_pipe, teardown),
      cmocka_unit_test_teardown(test_destroy_kills, teardown),
      cmocka_unit_test_teardown(test_threads, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
