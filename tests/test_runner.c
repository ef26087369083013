/* test_runner.c: the runner's contract: schedule order, bounded look-ahead, decisions, stops, errors, threads; the worker pool on jobs given from outside; core/thread's team and parallel for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/runner.h"
#include "core/rng.h"
#include "core/thread.h"

/* A schedule of random players: job j has 1 + j % 3 games (or, for
 * "series" jobs, games until South has won twice, at most 6). */
typedef struct sched {
  variant v;
  int series;             /* jobs end on outcomes */
  const char *specs[3];
  long long njobs;
  /* What the sink saw. */
  long long *seen_job;
  int *seen_k;
  uint64_t *seen_digest;
  long long nseen, capseen;
  long long decide_at;    /* the sink decides at this delivered game (-1: never) */
  long long fail_at;      /* the sink fails at this game (-1: never) */
  atomic_int *stop_at_flag;
  long long stop_at;      /* sets *stop_at_flag at this game (-1: never) */
  long long flushes;
  long long progress_calls;
  atomic_llong jobs_delivered; /* whole jobs the sink has seen */
  atomic_llong ahead;          /* the most a job started beyond jobs_delivered */
} sched;

static const char *spec_of(void *ctx, int slot) { return ((sched *)ctx)->specs[slot]; }

static int next_game(void *ctx, long long job, int k, const runner_outcome *prev, runner_game *g) {
  sched *s = ctx;
  if (s->series) {
    int south_wins = 0;
    for (int i = 0; i < k; i++) south_wins += prev[i].winner == BOARD_SOUTH;
    if (south_wins >= 2 || k >= 6) return 0;
  } else if (k >= 1 + job % 3) {
    return 0;
  }
  if (k == 0) {
    long long d = job - atomic_load(&s->jobs_delivered), a = atomic_load(&s->ahead);
    while (d > a && !atomic_compare_exchange_weak(&s->ahead, &a, d)) {
    }
  }
  g->game_no = k;
  g->south = (int)((job + k) % 2);
  g->north = 1 - g->south;
  if (job % 5 == 4) g->north = g->south; /* one slot on both sides */
  g->variant_idx = 0;
  g->v = &s->v;
  board_random_opening(&g->start, &s->v, 2, rng_mix(99, (uint64_t)job));
  g->seed = rng_mix(rng_mix(7, (uint64_t)job), (uint64_t)k);
  return 1;
}

static uint64_t digest(const runner_result *r) {
  uint64_t h = rng_mix((uint64_t)r->job, (uint64_t)r->k);
  for (int i = 0; i < r->plies; i++) h = rng_mix(h, r->moves[i]);
  return rng_mix(h, (uint64_t)(r->mr.winner + 5));
}

static int on_game(void *ctx, const runner_result *r, char *err, size_t errlen) {
  sched *s = ctx;
  if (s->nseen == s->capseen) {
    s->capseen = s->capseen ? 2 * s->capseen : 64;
    s->seen_job = realloc(s->seen_job, (size_t)s->capseen * sizeof *s->seen_job);
    s->seen_k = realloc(s->seen_k, (size_t)s->capseen * sizeof *s->seen_k);
    s->seen_digest = realloc(s->seen_digest, (size_t)s->capseen * sizeof *s->seen_digest);
    assert_non_null(s->seen_job);
    assert_non_null(s->seen_k);
    assert_non_null(s->seen_digest);
  }
  s->seen_job[s->nseen] = r->job;
  s->seen_k[s->nseen] = r->k;
  s->seen_digest[s->nseen] = digest(r);
  long long at = s->nseen++;
  if (!s->series && r->k == r->job % 3) atomic_fetch_add(&s->jobs_delivered, 1);
  if (at == s->fail_at) {
    snprintf(err, errlen, "the sink failed at game %lld", at);
    return -1;
  }
  if (at == s->stop_at) atomic_store(s->stop_at_flag, 1);
  return at == s->decide_at ? 1 : 0;
}

static int on_flush(void *ctx, char *err, size_t errlen) {
  (void)err, (void)errlen;
  ((sched *)ctx)->flushes++;
  return 0;
}

static void on_progress(void *ctx, const runner_progress *p) {
  sched *s = ctx;
  assert_true(p->jobs_done <= p->njobs);
  s->progress_calls++;
}

static void sched_init(sched *s, long long njobs) {
  memset(s, 0, sizeof *s);
  char err[128];
  assert_int_equal(variant_parse("abapa", &s->v, err, sizeof err), 0);
  s->specs[0] = "random:seed=1";
  s->specs[1] = "greedy:seed=2";
  s->specs[2] = "random";
  s->njobs = njobs;
  s->decide_at = s->fail_at = s->stop_at = -1;
}

static void sched_free(sched *s) {
  free(s->seen_job);
  free(s->seen_k);
  free(s->seen_digest);
}

static int run(sched *s, int threads, int lookahead, atomic_int *stop, runner_stats *st,
               char *err, size_t errlen) {
  runner_schedule rs = {s->njobs, 3, s, spec_of, NULL, next_game, NULL, NULL};
  runner_sink k = {s, on_game, on_flush, on_progress};
  runner_config c = {threads, lookahead, stop, NULL};
  return runner_run(&rs, &k, &c, st, err, errlen);
}

/* Every game of every job arrives, job by job and game by game, and the
 * same games whatever the thread count and look-ahead. */
static void test_order_and_threads(void **state) {
  (void)state;
  sched ref;
  sched_init(&ref, 200);
  char err[256];
  runner_stats st;
  assert_int_equal(run(&ref, 1, 0, NULL, &st, err, sizeof err), 0);
  long long expect = 0;
  for (long long j = 0; j < 200; j++) expect += 1 + j % 3;
  assert_int_equal(ref.nseen, expect);
  assert_int_equal(st.games, expect);
  assert_int_equal(st.jobs_done, 200);
  assert_int_equal(ref.progress_calls, 200);
  assert_true(ref.flushes >= 1);
  for (long long i = 1; i < ref.nseen; i++) {
    int same_job = ref.seen_job[i] == ref.seen_job[i - 1];
    assert_true(same_job ? ref.seen_k[i] == ref.seen_k[i - 1] + 1
                         : ref.seen_job[i] == ref.seen_job[i - 1] + 1 && ref.seen_k[i] == 0);
  }
  int configs[][2] = {{2, 0}, {4, 1}, {3, 5}, {2, 200}};
  for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
    sched s;
    sched_init(&s, 200);
    assert_int_equal(run(&s, configs[c][0], configs[c][1], NULL, &st, err, sizeof err), 0);
    assert_int_equal(s.nseen, ref.nseen);
    assert_memory_equal(s.seen_digest, ref.seen_digest, (size_t)ref.nseen * sizeof *ref.seen_digest);
    sched_free(&s);
  }
  sched_free(&ref);
}

/* No job starts more than `lookahead` jobs beyond the oldest undelivered. */
static void test_lookahead(void **state) {
  (void)state;
  for (int la = 1; la <= 4; la += 3) {
    sched s;
    sched_init(&s, 300);
    char err[256];
    assert_int_equal(run(&s, 3, la, NULL, NULL, err, sizeof err), 0);
    /* The job being delivered has left the window but is not counted yet. */
    assert_true(atomic_load(&s.ahead) <= la);
    sched_free(&s);
  }
}

/* Jobs whose length depends on their outcomes (series). */
static void test_series_jobs(void **state) {
  (void)state;
  sched a, b;
  sched_init(&a, 60);
  sched_init(&b, 60);
  a.series = b.series = 1;
  char err[256];
  assert_int_equal(run(&a, 1, 0, NULL, NULL, err, sizeof err), 0);
  assert_int_equal(run(&b, 3, 2, NULL, NULL, err, sizeof err), 0);
  assert_int_equal(a.nseen, b.nseen);
  assert_memory_equal(a.seen_digest, b.seen_digest, (size_t)a.nseen * sizeof *a.seen_digest);
  assert_true(a.nseen > 60 * 2);
  sched_free(&a);
  sched_free(&b);
}

/* A decision ends the run at that game, whatever the threads. */
static void test_decided(void **state) {
  (void)state;
  for (int threads = 1; threads <= 3; threads++) {
    sched s;
    sched_init(&s, 500);
    s.decide_at = 37;
    char err[256];
    runner_stats st;
    assert_int_equal(run(&s, threads, 0, NULL, &st, err, sizeof err), 0);
    assert_true(st.decided);
    assert_int_equal(s.nseen, 38);
    assert_int_equal(st.games, 38);
    sched_free(&s);
  }
}

/* A stop delivers what is finished, in order: a prefix of the whole run's
 * games (series jobs, cut short between games, included). */
static void test_stop(void **state) {
  (void)state;
  for (int series = 0; series <= 1; series++) {
    sched ref;
    sched_init(&ref, 400);
    ref.series = series;
    char err[256];
    assert_int_equal(run(&ref, 1, 0, NULL, NULL, err, sizeof err), 0);
    atomic_int stop;
    atomic_init(&stop, 0);
    sched s;
    sched_init(&s, 400);
    s.series = series;
    s.stop_at_flag = &stop;
    s.stop_at = 10;
    runner_stats st;
    assert_int_equal(run(&s, 2, 0, &stop, &st, err, sizeof err), 1);
    assert_true(st.stopped);
    assert_true(s.nseen >= 11);
    assert_true(s.nseen < ref.nseen);
    assert_memory_equal(s.seen_digest, ref.seen_digest, (size_t)s.nseen * sizeof *s.seen_digest);
    sched_free(&s);
    sched_free(&ref);
  }
}

/* A sink error and a player that cannot be made are errors with a message. */
static void test_errors(void **state) {
  (void)state;
  sched s;
  sched_init(&s, 100);
  s.fail_at = 5;
  char err[256] = "";
  assert_int_equal(run(&s, 2, 0, NULL, NULL, err, sizeof err), -1);
  assert_non_null(strstr(err, "sink failed at game 5"));
  assert_int_equal(s.nseen, 6);
  sched_free(&s);

  sched_init(&s, 100);
  s.specs[1] = "nosuchtype:depth=3";
  err[0] = '\0';
  assert_int_equal(run(&s, 2, 0, NULL, NULL, err, sizeof err), -1);
  assert_non_null(strstr(err, "nosuchtype"));
  assert_int_equal(s.nseen, 0);
  sched_free(&s);
}

/* No jobs: nothing happens, successfully. */
static void test_empty(void **state) {
  (void)state;
  sched s;
  sched_init(&s, 0);
  char err[256];
  runner_stats st;
  assert_int_equal(run(&s, 2, 0, NULL, &st, err, sizeof err), 0);
  assert_int_equal(s.nseen, 0);
  assert_int_equal(st.jobs_done, 0);
  sched_free(&s);
}

/* The pool on jobs given from outside (an MPI serving rank's source): each
 * job given comes back once, with the games a run plays for it. */
static void test_given(void **state) {
  (void)state;
  sched ref;
  sched_init(&ref, 12);
  char err[256];
  assert_int_equal(run(&ref, 1, 0, NULL, NULL, err, sizeof err), 0);
  sched s;
  sched_init(&s, 12);
  runner_schedule rs = {s.njobs, 3, &s, spec_of, NULL, next_game, NULL, NULL};
  runner_pool_given *g = runner_pool_given_new();
  assert_non_null(g);
  runner_pool_source src = runner_pool_given_source(g);
  runner_pool *p = runner_pool_start(&rs, 2, &src, err, sizeof err);
  assert_non_null(p);
  const long long jobs[] = {7, 2, 11, 0, 5};
  runner_pool_lock(p);
  for (int i = 0; i < 5; i++) assert_int_equal(runner_pool_given_push(g, jobs[i]), 0);
  runner_pool_given_close(g);
  runner_pool_wake(p);
  runner_pool_done d[8];
  int got = 0, seen[12] = {0};
  while (got < 5) {
    int n = runner_pool_given_collect(g, d, 8);
    if (!n) runner_pool_wait(p, 0.05);
    for (int i = 0; i < n; i++, got++) {
      assert_false(d[i].failed);
      seen[d[i].r.job]++;
      for (int k = 0; k < d[i].r.n; k++) {
        long long at = 0;
        while (ref.seen_job[at] != d[i].r.job || ref.seen_k[at] != k) at++;
        assert_true(digest(&d[i].r.games[k]) == ref.seen_digest[at]);
      }
      assert_int_equal(d[i].r.n, 1 + d[i].r.job % 3);
      runner_job_result_free(&d[i].r);
    }
  }
  runner_pool_unlock(p);
  runner_pool_end(p);
  for (int i = 0; i < 5; i++) assert_int_equal(seen[jobs[i]], 1);
  runner_pool_given_free(g);
  sched_free(&s);
  sched_free(&ref);
}

static void count_run(void *ctx, int i) { atomic_fetch_add((atomic_int *)ctx, i); }

static int square(void *ctx, long long i, int worker) {
  (void)worker;
  ((long long *)ctx)[i] = i * i;
  return i == 900; /* stops the loop: later items may not run */
}

/* A team runs once per wake, parked between; the parallel for runs every
 * item once, and stops at the item that says so. */
static void test_team_and_parallel_for(void **state) {
  (void)state;
  atomic_int sum;
  atomic_init(&sum, 0);
  char err[128];
  thread_team *t = thread_team_start(3, count_run, &sum, err, sizeof err);
  assert_non_null(t);
  for (int r = 1; r <= 4; r++) {
    thread_team_wake(t);
    thread_team_wait(t);
    assert_int_equal(atomic_load(&sum), 6 * r);
  }
  thread_team_free(t);
  long long *sq = calloc(1000, sizeof *sq);
  assert_non_null(sq);
  assert_int_equal(thread_parallel_for(900, 3, square, sq), 0);
  for (long long i = 0; i < 900; i++) assert_true(sq[i] == i * i);
  assert_int_equal(thread_parallel_for(1000, 2, square, sq), 1);
  free(sq);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_order_and_threads), cmocka_unit_test(test_series_jobs),
      cmocka_unit_test(test_lookahead),
      cmocka_unit_test(test_decided),           cmocka_unit_test(test_stop),
      cmocka_unit_test(test_errors),            cmocka_unit_test(test_empty),
      cmocka_unit_test(test_given),             cmocka_unit_test(test_team_and_parallel_for),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
