/* runner.c: the one game runner: hands out a schedule's jobs to workers, delivers their games to the sink in schedule order. */
#include "run/runner.h"
#include "core/error.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/game.h"
#include "core/thread.h"

/* ---- A worker's players ---- */

typedef struct cached {
  int slot, copy; /* copy 1: the second instance, when a slot plays both sides */
  player *p;
} cached;

struct runner_players {
  const runner_schedule *s;
  cached *c;
  int n, cap;
};

runner_players *runner_players_new(const runner_schedule *s) {
  runner_players *p = calloc(1, sizeof *p);
  if (p) p->s = s;
  return p;
}

void runner_players_free(runner_players *p) {
  if (!p) return;
  for (int i = 0; i < p->n; i++) player_free(p->c[i].p);
  free(p->c);
  free(p);
}

static player *get_player(runner_players *pl, int slot, int copy, char *err, size_t errlen) {
  for (int i = 0; i < pl->n; i++)
    if (pl->c[i].slot == slot && pl->c[i].copy == copy) return pl->c[i].p;
  if (slot < 0 || slot >= pl->s->nslots) {
    error_set(err, errlen, "the schedule names player slot %d of %d", slot, pl->s->nslots);
    return NULL;
  }
  if (pl->n == pl->cap) {
    int ncap = pl->cap ? 2 * pl->cap : 8;
    cached *nc = realloc(pl->c, (size_t)ncap * sizeof *nc);
    if (!nc) {
      error_set(err, errlen, "out of memory");
      return NULL;
    }
    pl->c = nc;
    pl->cap = ncap;
  }
  const char *spec = pl->s->slot_spec(pl->s->ctx, slot);
  char perr[512];
  player *p = player_create(spec, perr, sizeof perr);
  if (!p) {
    error_set(err, errlen, "player %s: %s", spec, perr);
    return NULL;
  }
  if (pl->s->slot_prepare && pl->s->slot_prepare(pl->s->ctx, slot, p, perr, sizeof perr)) {
    error_set(err, errlen, "player %s: %s", spec, perr);
    player_free(p);
    return NULL;
  }
  pl->c[pl->n++] = (cached){slot, copy, p};
  return p;
}

/* Frees the players that run a process and are not in the game about to
 * start (slot south, and slot north's instance `north_copy`), before that
 * game's players are made: a worker holds at most the two of its game. */
static void drop_idle_external(runner_players *pl, int south, int north, int north_copy) {
  for (int i = 0; i < pl->n;) {
    const cached *c = &pl->c[i];
    int in_game = (c->slot == south && c->copy == 0) || (c->slot == north && c->copy == north_copy);
    if (c->p->type->external && !in_game) {
      player_free(c->p);
      pl->c[i] = pl->c[--pl->n];
    } else {
      i++;
    }
  }
}

/* ---- One job ---- */

void runner_job_result_free(runner_job_result *r) {
  if (!r) return;
  for (int i = 0; i < r->n; i++) free(r->games[i].moves);
  free(r->games);
  r->games = NULL;
  r->n = r->cap = 0;
}

int runner_play_job(const runner_schedule *s, runner_players *pl, long long job,
                    atomic_int *stop, runner_job_result *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  out->job = job;
  runner_outcome *prev = NULL;
  int rc = 0;
  for (int k = 0;; k++) {
    if (stop && atomic_load(stop)) {
      runner_game g;
      memset(&g, 0, sizeof g);
      if (s->next_game(s->ctx, job, k, prev, &g)) {
        out->partial = 1;
        rc = 1;
      }
      break;
    }
    runner_game g;
    memset(&g, 0, sizeof g);
    if (!s->next_game(s->ctx, job, k, prev, &g)) break;
    drop_idle_external(pl, g.south, g.north, g.north == g.south);
    player *south = get_player(pl, g.south, 0, err, errlen);
    player *north = south ? get_player(pl, g.north, g.north == g.south, err, errlen) : NULL;
    if (!north) {
      rc = -1;
      break;
    }
    if (out->n == out->cap) {
      int ncap = out->cap ? 2 * out->cap : 2;
      runner_result *ng = realloc(out->games, (size_t)ncap * sizeof *ng);
      runner_outcome *np = realloc(prev, (size_t)ncap * sizeof *np);
      if (ng) out->games = ng;
      if (np) prev = np;
      if (!ng || !np) {
        error_set(err, errlen, "out of memory");
        rc = -1;
        break;
      }
      out->cap = ncap;
    }
    runner_result *r = &out->games[out->n];
    memset(r, 0, sizeof *r);
    r->job = job;
    r->k = k;
    r->game = g;
    game gm;
    int mrc = match_play_stoppable(south, north, g.v, &g.start, g.seed, stop, &gm, &r->mr, err,
                                   errlen);
    if (mrc < 0) {
      rc = -1;
      break;
    }
    if (mrc == 1) { /* stopped in the middle of the game: it is not a finished one */
      game_free(&gm);
      out->partial = 1;
      rc = 1;
      break;
    }
    r->plies = gm.plies;
    r->moves = malloc((size_t)gm.plies + 1);
    if (!r->moves) {
      game_free(&gm);
      error_set(err, errlen, "out of memory");
      rc = -1;
      break;
    }
    if (gm.plies) memcpy(r->moves, gm.moves, (size_t)gm.plies);
    game_free(&gm);
    out->n++;
    prev[k] = (runner_outcome){g.south, g.north, r->mr.winner};
  }
  free(prev);
  if (rc < 0) runner_job_result_free(out);
  return rc;
}

/* ---- The run ---- */

struct runner_run_state {
  const runner_schedule *s;
  pthread_mutex_t mu;
  pthread_cond_t to_main, to_workers;
  long long next_job;   /* the next job to hand out */
  long long oldest;     /* the oldest job not delivered */
  long long outstanding; /* handed out, not yet put back */
  int lookahead;
  runner_job_result *ring; /* job j's games wait at ring[j % lookahead] */
  unsigned char *ready;
  int threads;          /* config.threads */
  int ending;           /* no more jobs: decided, stopped or failed */
  atomic_int abandon;   /* workers drop the job they play */
  int failed;
  char error[512];
};

long long runner_take_job(runner_run_state *st) {
  pthread_mutex_lock(&st->mu);
  while (!st->ending && st->next_job < st->s->njobs && st->next_job >= st->oldest + st->lookahead)
    pthread_cond_wait(&st->to_workers, &st->mu);
  long long j = -1;
  if (!st->ending && st->next_job < st->s->njobs) {
    j = st->next_job++;
    st->outstanding++;
  }
  pthread_mutex_unlock(&st->mu);
  return j;
}

long long runner_try_take_job(runner_run_state *st) {
  pthread_mutex_lock(&st->mu);
  long long j = -1;
  if (!st->ending && st->next_job < st->s->njobs) {
    if (st->next_job >= st->oldest + st->lookahead) {
      j = -2;
    } else {
      j = st->next_job++;
      st->outstanding++;
    }
  }
  pthread_mutex_unlock(&st->mu);
  return j;
}

int runner_abandoning(runner_run_state *st) { return atomic_load(&st->abandon); }

int runner_run_threads(const runner_run_state *st) { return st->threads; }

static void fail_locked(runner_run_state *st, const char *err) {
  if (!st->failed) error_set(st->error, sizeof st->error, "%s", err);
  st->failed = 1;
  st->ending = 1;
  atomic_store(&st->abandon, 1);
  pthread_cond_broadcast(&st->to_workers);
}

void runner_fail(runner_run_state *st, const char *err) {
  pthread_mutex_lock(&st->mu);
  fail_locked(st, err);
  pthread_cond_signal(&st->to_main);
  pthread_mutex_unlock(&st->mu);
}

static const runner_backend *default_backend;

void runner_set_default_backend(const runner_backend *b) { default_backend = b; }

void runner_put_result(runner_run_state *st, runner_job_result *r, const char *err) {
  pthread_mutex_lock(&st->mu);
  st->outstanding--;
  if (r) {
    int slot = (int)(r->job % st->lookahead);
    st->ring[slot] = *r;
    st->ready[slot] = 1;
    memset(r, 0, sizeof *r);
  } else if (err) {
    fail_locked(st, err);
  }
  pthread_cond_signal(&st->to_main);
  pthread_mutex_unlock(&st->mu);
}

static void *local_worker(void *arg) {
  runner_run_state *st = arg;
  runner_players *pl = runner_players_new(st->s);
  char err[512];
  for (;;) {
    long long j = runner_take_job(st);
    if (j < 0) break;
    runner_job_result r;
    int rc = pl ? runner_play_job(st->s, pl, j, &st->abandon, &r, err, sizeof err) : -1;
    if (!pl) error_set(err, sizeof err, "out of memory");
    if (rc >= 0) {
      runner_put_result(st, &r, NULL);
    } else {
      runner_put_result(st, NULL, err);
      break;
    }
  }
  runner_players_free(pl);
  return NULL;
}

/* Waits on to_main for at most 50 ms: a signal handler can set *stop but
 * cannot wake a condition variable. */
static void wait_main(runner_run_state *st) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_nsec += 50 * 1000 * 1000;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  pthread_cond_timedwait(&st->to_main, &st->mu, &ts);
}

int runner_run(const runner_schedule *s, const runner_sink *k, const runner_config *c,
               runner_stats *out, char *err, size_t errlen) {
  runner_stats stats;
  memset(&stats, 0, sizeof stats);
  double t0 = clock_now();
  int threads = c->threads > 0 ? c->threads : 0, remote = 0;
  const runner_backend *backend = c->backend ? c->backend : default_backend;
  if (backend && backend->plan) {
    remote = -1;
    backend->plan(backend->ctx, s, threads, &threads, &remote);
    if (!remote) backend = NULL;
    if (remote < 0) remote = 0;
  }
  if (!threads && !backend) threads = 1;
  if (threads > s->njobs) threads = (int)s->njobs;
  runner_run_state st;
  memset(&st, 0, sizeof st);
  st.s = s;
  st.threads = c->threads > 0 ? c->threads : 1;
  st.lookahead = c->lookahead > 0 ? c->lookahead
                                  : 8 * (threads + remote > 0 ? threads + remote : 1);
  if (c->lookahead <= 0 && st.lookahead < 16) st.lookahead = 16;
  atomic_init(&st.abandon, 0);
  st.ring = calloc((size_t)st.lookahead, sizeof *st.ring);
  st.ready = calloc((size_t)st.lookahead, 1);
  thread **workers = calloc((size_t)(threads > 0 ? threads : 1), sizeof *workers);
  if (!st.ring || !st.ready || !workers) {
    free(st.ring);
    free(st.ready);
    free(workers);
    error_set(err, errlen, "out of memory");
    return -1;
  }
  pthread_mutex_init(&st.mu, NULL);
  pthread_cond_init(&st.to_main, NULL);
  pthread_cond_init(&st.to_workers, NULL);

  int started = 0, backend_started = 0;
  char serr[512] = "";
  for (; started < threads; started++) {
    workers[started] = thread_start(local_worker, &st, serr, sizeof serr);
    if (!workers[started]) break;
  }
  if (started < threads) {
    pthread_mutex_lock(&st.mu);
    st.failed = st.ending = 1;
    error_set(st.error, sizeof st.error, "%s", serr);
    pthread_mutex_unlock(&st.mu);
  } else if (backend) {
    if (backend->start(backend->ctx, &st, s, serr, sizeof serr)) {
      pthread_mutex_lock(&st.mu);
      st.failed = st.ending = 1;
      error_set(st.error, sizeof st.error, "%s", serr);
      pthread_mutex_unlock(&st.mu);
    } else {
      backend_started = 1;
    }
  }

  /* Deliver in order; flush before each wait. After a job cut short by a
   * stop nothing more is delivered (what is delivered stays a prefix). */
  int sink_failed = 0, flushed = 1, cut = 0;
  pthread_mutex_lock(&st.mu);
  for (;;) {
    int slot = (int)(st.oldest % st.lookahead);
    if (st.oldest < s->njobs && st.ready[slot] && !stats.decided && !sink_failed && !cut) {
      runner_job_result jr = st.ring[slot];
      memset(&st.ring[slot], 0, sizeof st.ring[slot]);
      st.ready[slot] = 0;
      st.oldest++;
      pthread_cond_broadcast(&st.to_workers);
      pthread_mutex_unlock(&st.mu);
      for (int i = 0; i < jr.n && !stats.decided && !sink_failed; i++) {
        int rc = k->game(k->ctx, &jr.games[i], err, errlen);
        stats.games++;
        flushed = 0;
        if (rc < 0) sink_failed = 1;
        if (rc > 0) stats.decided = 1;
      }
      cut = jr.partial;
      runner_job_result_free(&jr);
      if (!sink_failed && !cut) stats.jobs_done++;
      if (k->progress && !sink_failed) {
        runner_progress p = {stats.jobs_done, s->njobs, stats.games, clock_now() - t0};
        k->progress(k->ctx, &p);
      }
      pthread_mutex_lock(&st.mu);
      if (stats.decided || sink_failed) {
        st.ending = 1;
        atomic_store(&st.abandon, 1);
        pthread_cond_broadcast(&st.to_workers);
      }
      continue;
    }
    if (c->stop && atomic_load(c->stop) && !st.ending) {
      st.ending = 1;
      stats.stopped = 1;
      atomic_store(&st.abandon, 1);
      pthread_cond_broadcast(&st.to_workers);
    }
    int all_delivered = st.oldest >= s->njobs;
    if (all_delivered || ((st.ending || st.failed) && st.outstanding == 0) ||
        (!st.ending && st.next_job >= s->njobs && st.outstanding == 0 && !st.ready[slot]))
      break;
    if (!flushed && k->flush) {
      pthread_mutex_unlock(&st.mu);
      if (k->flush(k->ctx, err, errlen) < 0) sink_failed = 1;
      flushed = 1;
      pthread_mutex_lock(&st.mu);
      if (sink_failed) {
        st.ending = 1;
        atomic_store(&st.abandon, 1);
        pthread_cond_broadcast(&st.to_workers);
      }
      continue;
    }
    wait_main(&st);
  }
  st.ending = 1;
  pthread_cond_broadcast(&st.to_workers);
  pthread_mutex_unlock(&st.mu);
  for (int i = 0; i < started; i++) thread_join(workers[i]);
  if (backend_started && backend->finish) backend->finish(backend->ctx);
  if (!flushed && k->flush && !sink_failed && k->flush(k->ctx, err, errlen) < 0) sink_failed = 1;

  int rc = 0;
  if (sink_failed) {
    rc = -1;
  } else if (st.failed) {
    error_set(err, errlen, "%s", st.error);
    rc = -1;
  } else if (!stats.decided && (st.oldest < s->njobs || cut)) {
    stats.stopped = 1;
    rc = 1;
  }
  for (int i = 0; i < st.lookahead; i++) runner_job_result_free(&st.ring[i]);
  free(st.ring);
  free(st.ready);
  free(workers);
  pthread_mutex_destroy(&st.mu);
  pthread_cond_destroy(&st.to_main);
  pthread_cond_destroy(&st.to_workers);
  stats.seconds = clock_now() - t0;
  if (out) *out = stats;
  return rc;
}
