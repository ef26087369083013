/* test_smp.c: minimax's threads=N (lazy SMP): legal moves, proven scores as one thread's, limits, stop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tests/fixture.h"

#include "core/clock.h"
#include "core/notation.h"
#include "core/rng.h"
#include "core/thread.h"
#include "players/player.h"

#define WIN_BOUND (PLAYER_WIN - 1000)

static const int thread_counts[] = {2, 4};

static player *make(const char *spec) {
  char err[512];
  player *p = player_create(spec, err, sizeof err);
  if (!p) fail_msg("player_create(%s): %s", spec, err);
  return p;
}

static variant abapa(void) {
  variant v;
  variant_default(&v);
  return v;
}

/* p's move and info from b, a new game. */
static void search_from(player *p, const variant *v, const board *b, const player_limits *lim,
                        int *m, player_info *info) {
  char err[256];
  game g;
  assert_int_equal(game_init(&g, v, b), 0);
  assert_int_equal(player_new_game(p, v, 0, err, sizeof err), 0);
  if (player_choose(p, &g, lim, m, info, err, sizeof err) != PLAYER_OK) fail_msg("%s", err);
  if (!(g.legal >> *m & 1)) fail_msg("move %d is not legal", *m);
  game_free(&g);
}

/* Middle games and the start: legal moves, the depth asked, a score of the
 * size one thread finds (not a proven result where one thread has none). */
static void test_legal_and_sensible(void **state) {
  (void)state;
  variant v = abapa();
  player *one = make("minimax:depth=10");
  for (int k = 0; k < 6; k++) {
    board b;
    if (k == 0) board_start(&b, &v);
    else board_random_opening(&b, &v, 6 + 4 * k, 100 + (uint64_t)k);
    int m1, m;
    player_info i1, info;
    search_from(one, &v, &b, NULL, &m1, &i1);
    for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
      char spec[64];
      snprintf(spec, sizeof spec, "minimax:depth=10,threads=%d", thread_counts[t]);
      player *p = make(spec);
      search_from(p, &v, &b, NULL, &m, &info);
      printf("position %d: 1 thread %c %d (%lld nodes), %d threads %c %d (%lld nodes)\n", k,
             notation_move_letter(&v, m1), i1.score, i1.nodes, thread_counts[t],
             notation_move_letter(&v, m), info.score, info.nodes);
      /* A proven result ends the deepening early. */
      if (info.score > -WIN_BOUND && info.score < WIN_BOUND) assert_int_equal(info.depth, 10);
      else assert_true(info.depth >= 1 && info.depth <= 10);
      assert_true(info.nodes > 0);
      assert_true(info.pvlen >= 1 && info.pv[0] == m);
      if (i1.score > -WIN_BOUND && i1.score < WIN_BOUND) {
        assert_true(info.score > -WIN_BOUND && info.score < WIN_BOUND);
        assert_true(abs(info.score - i1.score) <= 600); /* six seeds */
      }
      player_free(p);
    }
  }
  player_free(one);
}

/* A win one thread proves at its depth is proven by more threads with the
 * same score (the same distance), and the move played wins. */
static void test_forced_wins(void **state) {
  (void)state;
  variant v = abapa();
  board b;
  char err[256];
  /* By hand: F takes a's two seeds for 26. */
  assert_int_equal(
      notation_parse_position("1-0-0-0-0-1-1-0-0-0-1-0-24-20-S", &v, &b, err, sizeof err), 0);
  for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
    char spec[64];
    snprintf(spec, sizeof spec, "minimax:depth=6,lmr=0,rfp=0,iir=0,threads=%d", thread_counts[t]);
    player *p = make(spec);
    int m;
    player_info info;
    search_from(p, &v, &b, NULL, &m, &info);
    assert_int_equal(m, 5);
    assert_int_equal(info.score, PLAYER_WIN - 1);
    player_free(p);
  }
  /* Positions with few seeds where one thread (no reductions: exact at its
   * depth) proves a win in 3 or 5. */
  player *one = make("minimax:depth=5,lmr=0,rfp=0,iir=0");
  player *many[2] = {make("minimax:depth=5,lmr=0,rfp=0,iir=0,threads=2"),
                     make("minimax:depth=5,lmr=0,rfp=0,iir=0,threads=4")};
  rng r;
  rng_seed(&r, 77);
  int found = 0;
  for (int tries = 0; tries < 20000 && found < 12; tries++) {
    if (fixture_random_ending(&r, &v, &b)) continue;
    int m1, m;
    player_info i1, info;
    search_from(one, &v, &b, NULL, &m1, &i1);
    if (i1.score < WIN_BOUND || PLAYER_WIN - i1.score < 3) continue;
    for (int k = 0; k < 2; k++) {
      search_from(many[k], &v, &b, NULL, &m, &info);
      assert_int_equal(info.score, i1.score);
      /* The move wins as fast: one thread proves it from the child. */
      game g;
      assert_int_equal(game_init(&g, &v, &b), 0);
      assert_int_equal(game_play(&g, m), 0);
      player_limits lim = {.depth = 4};
      int reply;
      player_info ic;
      assert_int_equal(player_new_game(one, &v, 0, err, sizeof err), 0);
      if (g.end == BOARD_END_NONE) {
        assert_int_equal(player_choose(one, &g, &lim, &reply, &ic, err, sizeof err), PLAYER_OK);
        assert_int_equal(ic.score, -(i1.score + 1));
      }
      game_free(&g);
    }
    found++;
  }
  assert_true(found >= 10);
  player_free(one);
  player_free(many[0]);
  player_free(many[1]);
}

/* A node limit counts every thread's nodes: the search stops within 256 a
 * thread past it; movetime is kept. */
static void test_limits(void **state) {
  (void)state;
  variant v = abapa();
  board b;
  board_start(&b, &v);
  const long long limits[] = {1000, 54321, 300000};
  for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
    int n = thread_counts[t];
    for (int i = 0; i < 3; i++) {
      char spec[64];
      snprintf(spec, sizeof spec, "minimax:nodes=%lld,threads=%d", limits[i], n);
      player *p = make(spec);
      int m;
      player_info info;
      search_from(p, &v, &b, NULL, &m, &info);
      printf("threads %d nodes=%lld: %lld nodes, depth %d\n", n, limits[i], info.nodes,
             info.depth);
      assert_true(info.nodes >= limits[i]);
      assert_true(info.nodes <= limits[i] + 256LL * n);
      player_free(p);
    }
    char spec[64];
    snprintf(spec, sizeof spec, "minimax:movetime=100,threads=%d", n);
    player *p = make(spec);
    int m;
    player_info info;
    double t0 = clock_now();
    search_from(p, &v, &b, NULL, &m, &info);
    double s = clock_now() - t0;
    printf("threads %d movetime=100: %.3f s, depth %d\n", n, s, info.depth);
    assert_true(s >= 0.09 && s < 1.0);
    /* Some iterations done: under a sanitizer on a loaded machine 4 threads
     * on 2 cores reached depth 3 (and 4 where idle). */
    assert_true(info.depth >= 2);
    player_free(p);
  }
}

typedef struct infinite_run {
  player *p;
  game *g;
  int move;
  player_status st;
  player_info info;
} infinite_run;

static void *run_infinite(void *arg) {
  infinite_run *r = arg;
  char err[256];
  player_limits lim = {.infinite = 1};
  r->st = player_choose(r->p, r->g, &lim, &r->move, &r->info, err, sizeof err);
  return NULL;
}

/* An infinite search (analysis) on every thread ends at the stop flag. */
static void test_stop(void **state) {
  (void)state;
  variant v = abapa();
  for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
    char spec[64], err[256];
    snprintf(spec, sizeof spec, "minimax:threads=%d", thread_counts[t]);
    game g;
    assert_int_equal(game_init(&g, &v, NULL), 0);
    infinite_run r = {.p = make(spec), .g = &g, .move = -1};
    assert_int_equal(player_new_game(r.p, &v, 0, err, sizeof err), 0);
    thread *th = thread_start(run_infinite, &r, err, sizeof err);
    if (!th) fail_msg("%s", err);
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    double t0 = clock_now();
    atomic_store(&r.p->stop, 1);
    thread_join(th);
    double s = clock_now() - t0;
    printf("threads %d: stopped %.3f s after the flag, depth %d, %lld nodes\n",
           thread_counts[t], s, r.info.depth, r.info.nodes);
    assert_int_equal(r.st, PLAYER_OK);
    assert_true(g.legal >> r.move & 1);
    assert_true(s < 0.5);
    assert_true(r.info.nodes > 0);
    player_free(r.p);
    game_free(&g);
  }
}

/* The option's range, and threads without a table to share. */
static void test_errors(void **state) {
  (void)state;
  char err[512];
  const char *bad[] = {"minimax:threads=0", "minimax:threads=65", "minimax:threads=2,hash=0"};
  const char *why[] = {"threads", "threads", "needs a hash table"};
  for (int i = 0; i < 3; i++) {
    player *p = player_create(bad[i], err, sizeof err);
    if (p) {
      player_free(p);
      fail_msg("'%s' was accepted", bad[i]);
    }
    if (!strstr(err, why[i])) fail_msg("'%s': message '%s' lacks '%s'", bad[i], err, why[i]);
  }
  player *p = make("minimax:threads=1,hash=0");
  player_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_legal_and_sensible), cmocka_unit_test(test_forced_wins),
      cmocka_unit_test(test_limits),             cmocka_unit_test(test_stop),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
