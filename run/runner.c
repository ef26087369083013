/* runner.c: the one game runner: its worker pool takes a schedule's jobs (or the jobs an MPI rank is given), the run delivers their games to the sink in schedule order. */
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

typedef struct runner_players runner_players;

typedef struct cached {
  int slot, copy; /* copy 1: the second instance, when a slot plays both sides */
  player *p;
} cached;

struct runner_players {
  const runner_schedule *s;
  cached *c;
  int n, cap;
};

static runner_players *runner_players_new(const runner_schedule *s) {
  runner_players *p = calloc(1, sizeof *p);
  if (p) p->s = s;
  return p;
}

static void runner_players_free(runner_players *p) {
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
  char perr[ERROR_MAX];
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
  for (int i = 0; i < r->n; i++) {
    free(r->games[i].moves);
    free(r->games[i].records);
  }
  free(r->games);
  r->games = NULL;
  r->n = r->cap = 0;
}

/* Plays job `job` with a worker's players into *out (which it resets).
 * *stop (may be NULL) ends it, before the next move of a game in progress
 * (that game is dropped): it returns 1 with the games finished so far and
 * out->partial set. 0 when the job is whole; -1 with err (out is then
 * empty). */
static int runner_play_job(const runner_schedule *s, runner_players *pl, long long job,
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
    int mrc = match_play_recorded(south, north, g.v, &g.start, g.seed, stop, g.adjudicator, &gm,
                                  &r->mr, &r->records, err, errlen);
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
      free(r->records);
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

/* ---- The worker pool ---- */

struct runner_pool {
  const runner_schedule *s;
  runner_pool_source src;
  pthread_mutex_t mu;
  pthread_cond_t to_owner, to_workers;
  int ending;          /* runner_pool_end: no job is taken any more */
  int starved;
  atomic_int abandon;  /* the workers drop the job they play */
  int nworkers;
  thread **workers;
};

/* Under the lock: hands a job back to the source, wakes the owner. */
static void pool_put_locked(runner_pool *p, long long job, runner_job_result *r, const char *err) {
  p->src.put(p->src.ctx, job, r, err);
  if (!r && err) { /* a failure: the run stops, what is in progress is handed back at once */
    atomic_store(&p->abandon, 1);
    pthread_cond_broadcast(&p->to_workers);
  }
  pthread_cond_signal(&p->to_owner);
}

/* Under the lock: the next job for a worker, or -1 when it is to end.
 * short_job: the worker's last job took under 20 ms (a wait then counts as
 * starved). */
static long long pool_next(runner_pool *p, int *short_job) {
  for (;;) {
    long long j = p->ending ? -1 : p->src.take(p->src.ctx);
    if (j != -2) return j;
    p->starved += *short_job;
    *short_job = 0;
    pthread_cond_wait(&p->to_workers, &p->mu);
  }
}

static void *pool_worker(void *arg) {
  runner_pool *p = arg;
  runner_players *pl = runner_players_new(p->s);
  char err[ERROR_MAX];
  int short_job = 0;
  pthread_mutex_lock(&p->mu);
  for (long long j; (j = pool_next(p, &short_job)) >= 0;) {
    pthread_mutex_unlock(&p->mu);
    double t0 = clock_now();
    runner_job_result r;
    int rc = pl ? runner_play_job(p->s, pl, j, &p->abandon, &r, err, sizeof err) : -1;
    if (!pl) error_set(err, sizeof err, "out of memory");
    short_job = clock_now() - t0 < 0.02;
    pthread_mutex_lock(&p->mu);
    pool_put_locked(p, j, rc >= 0 ? &r : NULL, err);
  }
  pthread_mutex_unlock(&p->mu);
  runner_players_free(pl);
  return NULL;
}

runner_pool *runner_pool_start(const runner_schedule *s, int threads, const runner_pool_source *src,
                               char *err, size_t errlen) {
  runner_pool *p = calloc(1, sizeof *p);
  thread **w = calloc((size_t)(threads > 0 ? threads : 1), sizeof *w);
  if (!p || !w) {
    free(p);
    free(w);
    error_set(err, errlen, "out of memory");
    return NULL;
  }
  p->s = s;
  p->src = *src;
  p->workers = w;
  atomic_init(&p->abandon, 0);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->to_owner, NULL);
  pthread_cond_init(&p->to_workers, NULL);
  for (; p->nworkers < threads; p->nworkers++) {
    if (!(w[p->nworkers] = thread_start(pool_worker, p, err, errlen))) {
      runner_pool_end(p);
      return NULL;
    }
  }
  return p;
}

void runner_pool_end(runner_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->ending = 1;
  pthread_cond_broadcast(&p->to_workers);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nworkers; i++) thread_join(p->workers[i]);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->to_owner);
  pthread_cond_destroy(&p->to_workers);
  free(p->workers);
  free(p);
}

void runner_pool_lock(runner_pool *p) { pthread_mutex_lock(&p->mu); }
void runner_pool_unlock(runner_pool *p) { pthread_mutex_unlock(&p->mu); }
void runner_pool_wake(runner_pool *p) { pthread_cond_broadcast(&p->to_workers); }

void runner_pool_wait(runner_pool *p, double seconds) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  long ns = (long)(seconds * 1e9);
  ts.tv_sec += ns / 1000000000L;
  ts.tv_nsec += ns % 1000000000L;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  pthread_cond_timedwait(&p->to_owner, &p->mu, &ts);
}

void runner_pool_put(runner_pool *p, long long job, runner_job_result *r, const char *err) {
  pthread_mutex_lock(&p->mu);
  pool_put_locked(p, job, r, err);
  pthread_mutex_unlock(&p->mu);
}

void runner_pool_abandon(runner_pool *p) { atomic_store(&p->abandon, 1); }
int runner_pool_abandoning(runner_pool *p) { return atomic_load(&p->abandon); }

int runner_pool_starved(runner_pool *p) {
  pthread_mutex_lock(&p->mu);
  int n = p->starved;
  pthread_mutex_unlock(&p->mu);
  return n;
}

/* ---- Jobs given from outside ---- */

struct runner_pool_given {
  long long *jobs;        /* a ring: the given jobs not taken yet */
  long long head, len;
  runner_pool_done *done; /* played, not collected */
  long long ndone;
  long long held;         /* given and not collected */
  long long cap;          /* room in jobs and in done */
  int closed;
};

runner_pool_given *runner_pool_given_new(void) { return calloc(1, sizeof(runner_pool_given)); }

void runner_pool_given_free(runner_pool_given *g) {
  if (!g) return;
  for (long long i = 0; i < g->ndone; i++) runner_job_result_free(&g->done[i].r);
  free(g->done);
  free(g->jobs);
  free(g);
}

/* Doubles the room (jobs and done): 0, or -1 out of memory. */
static int given_grow(runner_pool_given *g) {
  long long ncap = g->cap ? 2 * g->cap : 64;
  long long *nj = malloc((size_t)ncap * sizeof *nj);
  runner_pool_done *nd = realloc(g->done, (size_t)ncap * sizeof *nd);
  if (nd) g->done = nd;
  if (!nj || !nd) {
    free(nj);
    return -1;
  }
  for (long long k = 0; k < g->len; k++) nj[k] = g->jobs[(g->head + k) % g->cap];
  free(g->jobs);
  g->jobs = nj;
  g->head = 0;
  g->cap = ncap;
  return 0;
}

int runner_pool_given_push(runner_pool_given *g, long long job) {
  if (g->held == g->cap && given_grow(g)) return -1;
  g->jobs[(g->head + g->len++) % g->cap] = job;
  g->held++;
  return 0;
}

void runner_pool_given_close(runner_pool_given *g) { g->closed = 1; }

int runner_pool_given_collect(runner_pool_given *g, runner_pool_done *out, int room) {
  int n = g->ndone < room ? (int)g->ndone : room;
  if (n <= 0) return 0; /* nothing done yet (g->done may still be NULL) */
  memcpy(out, g->done, (size_t)n * sizeof *out);
  memmove(g->done, g->done + n, (size_t)(g->ndone - n) * sizeof *g->done);
  g->ndone -= n;
  g->held -= n;
  return n;
}

int runner_pool_given_ready(const runner_pool_given *g) { return g->ndone > 0; }

static long long given_take(void *ctx) {
  runner_pool_given *g = ctx;
  if (!g->len) return g->closed ? -1 : -2;
  long long j = g->jobs[g->head];
  g->head = (g->head + 1) % g->cap;
  g->len--;
  return j;
}

/* There is room: a job put back was given, and held counts it. */
static void given_put(void *ctx, long long job, runner_job_result *r, const char *err) {
  runner_pool_given *g = ctx;
  runner_pool_done *d = &g->done[g->ndone++];
  memset(d, 0, sizeof *d);
  d->r.job = job;
  if (r) {
    d->r = *r;
    memset(r, 0, sizeof *r);
  } else {
    d->failed = 1;
    error_set(d->err, sizeof d->err, "%s", err);
  }
}

runner_pool_source runner_pool_given_source(runner_pool_given *g) {
  return (runner_pool_source){g, given_take, given_put};
}

/* ---- The run ---- */

struct runner_run_state {
  const runner_schedule *s;
  runner_pool *pool;    /* its lock guards what follows */
  long long next_job;   /* the next job to hand out */
  long long oldest;     /* the oldest job not delivered */
  long long outstanding; /* handed out, not yet put back */
  int lookahead;
  runner_job_result *ring; /* job j's games wait at ring[j % lookahead] */
  unsigned char *ready;
  int threads;          /* config.threads */
  int ending;           /* no more jobs: decided, stopped or failed */
  int failed;
  char error[ERROR_MAX];
};

/* The schedule as a source: jobs in order, within the look-ahead. */
static long long schedule_take(void *ctx) {
  runner_run_state *st = ctx;
  if (st->ending || st->next_job >= st->s->njobs) return -1;
  if (st->next_job >= st->oldest + st->lookahead) return -2;
  st->outstanding++;
  return st->next_job++;
}

static void fail_locked(runner_run_state *st, const char *err) {
  if (!st->failed) error_set(st->error, sizeof st->error, "%s", err);
  st->failed = 1;
  st->ending = 1;
}

static void schedule_put(void *ctx, long long job, runner_job_result *r, const char *err) {
  runner_run_state *st = ctx;
  (void)job;
  st->outstanding--;
  if (r) {
    int slot = (int)(r->job % st->lookahead);
    st->ring[slot] = *r;
    st->ready[slot] = 1;
    memset(r, 0, sizeof *r);
  } else if (err) {
    fail_locked(st, err);
  }
}

long long runner_try_take_job(runner_run_state *st) {
  runner_pool_lock(st->pool);
  long long j = schedule_take(st);
  runner_pool_unlock(st->pool);
  return j;
}

void runner_put_result(runner_run_state *st, runner_job_result *r, const char *err) {
  runner_pool_put(st->pool, r ? r->job : -1, r, err);
}

int runner_abandoning(runner_run_state *st) { return runner_pool_abandoning(st->pool); }

int runner_run_threads(const runner_run_state *st) { return st->threads; }

/* Under the lock: no new job, the jobs in progress end at once. */
static void end_locked(runner_run_state *st) {
  st->ending = 1;
  runner_pool_abandon(st->pool);
  runner_pool_wake(st->pool);
}

void runner_fail(runner_run_state *st, const char *err) {
  runner_pool_lock(st->pool);
  fail_locked(st, err);
  end_locked(st);
  runner_pool_unlock(st->pool);
}

static const runner_backend *default_backend;

void runner_set_default_backend(const runner_backend *b) { default_backend = b; }

/* What the thread that called runner_run keeps while it delivers. */
typedef struct delivery {
  runner_run_state *st;
  const runner_sink *k;
  const runner_config *c;
  runner_stats stats;
  double t0;
  int sink_failed, flushed, cut;
  char *err;
  size_t errlen;
} delivery;

/* Hands job result jr's games to the sink in order, then the progress. */
static void deliver_job(delivery *d, runner_job_result *jr) {
  const runner_sink *k = d->k;
  for (int i = 0; i < jr->n && !d->stats.decided && !d->sink_failed; i++) {
    int rc = k->game(k->ctx, &jr->games[i], d->err, d->errlen);
    d->stats.games++;
    d->flushed = 0;
    if (rc < 0) d->sink_failed = 1;
    if (rc > 0) d->stats.decided = 1;
  }
  d->cut = jr->partial;
  if (!d->sink_failed && !d->cut) d->stats.jobs_done++;
  if (k->progress && !d->sink_failed) {
    runner_progress p = {d->stats.jobs_done, d->st->s->njobs, d->stats.games,
                         clock_now() - d->t0};
    k->progress(k->ctx, &p);
  }
}

/* Under the lock: delivers the oldest job when it is back (the lock let go
 * meanwhile); 1 when it did. After a job cut short by a stop nothing more
 * is delivered (what is delivered stays a prefix). */
static int deliver_oldest(delivery *d) {
  runner_run_state *st = d->st;
  int slot = (int)(st->oldest % st->lookahead);
  if (st->oldest >= st->s->njobs || !st->ready[slot] || d->stats.decided || d->sink_failed ||
      d->cut)
    return 0;
  runner_job_result jr = st->ring[slot];
  memset(&st->ring[slot], 0, sizeof st->ring[slot]);
  st->ready[slot] = 0;
  st->oldest++;
  runner_pool_wake(st->pool);
  runner_pool_unlock(st->pool);
  deliver_job(d, &jr);
  runner_job_result_free(&jr);
  runner_pool_lock(st->pool);
  if (d->stats.decided || d->sink_failed) end_locked(st);
  return 1;
}

/* Under the lock: whether nothing more can be delivered. */
static int run_over(const runner_run_state *st) {
  int slot = (int)(st->oldest % st->lookahead);
  return st->oldest >= st->s->njobs || ((st->ending || st->failed) && st->outstanding == 0) ||
         (!st->ending && st->next_job >= st->s->njobs && st->outstanding == 0 && !st->ready[slot]);
}

/* Under the lock: the sink's flush, the lock let go meanwhile. */
static void flush_locked(delivery *d) {
  runner_pool_unlock(d->st->pool);
  if (d->k->flush(d->k->ctx, d->err, d->errlen) < 0) d->sink_failed = 1;
  d->flushed = 1;
  runner_pool_lock(d->st->pool);
  if (d->sink_failed) end_locked(d->st);
}

/* Delivers in order until the run is over; flushes before each wait. */
static void deliver(delivery *d) {
  runner_run_state *st = d->st;
  runner_pool_lock(st->pool);
  for (;;) {
    if (deliver_oldest(d)) continue;
    if (d->c->stop && atomic_load(d->c->stop) && !st->ending) {
      d->stats.stopped = 1;
      end_locked(st);
    }
    if (run_over(st)) break;
    if (!d->flushed && d->k->flush) {
      flush_locked(d);
      continue;
    }
    runner_pool_wait(st->pool, 0.05);
  }
  st->ending = 1;
  runner_pool_wake(st->pool);
  runner_pool_unlock(st->pool);
}

/* The local workers, the backend and the look-ahead of a run. */
typedef struct run_plan {
  int threads, remote;
  const runner_backend *backend;
} run_plan;

static run_plan plan_run(const runner_schedule *s, const runner_config *c) {
  run_plan pl = {c->threads > 0 ? c->threads : 0, 0, c->backend ? c->backend : default_backend};
  if (pl.backend && pl.backend->plan) {
    pl.remote = -1;
    pl.backend->plan(pl.backend->ctx, s, pl.threads, &pl.threads, &pl.remote);
    if (!pl.remote) pl.backend = NULL;
    if (pl.remote < 0) pl.remote = 0;
  }
  if (!pl.threads && !pl.backend) pl.threads = 1;
  if (pl.threads > s->njobs) pl.threads = (int)s->njobs;
  return pl;
}

/* Sets up st's look-ahead ring; 0, or -1 out of memory. */
static int state_init(runner_run_state *st, const runner_schedule *s, const runner_config *c,
                      const run_plan *pl) {
  memset(st, 0, sizeof *st);
  st->s = s;
  st->threads = c->threads > 0 ? c->threads : 1;
  int workers = pl->threads + pl->remote > 0 ? pl->threads + pl->remote : 1;
  st->lookahead = c->lookahead > 0 ? c->lookahead : 8 * workers;
  if (c->lookahead <= 0 && st->lookahead < 16) st->lookahead = 16;
  st->ring = calloc((size_t)st->lookahead, sizeof *st->ring);
  st->ready = calloc((size_t)st->lookahead, 1);
  return st->ring && st->ready ? 0 : -1;
}

static void state_free(runner_run_state *st) {
  for (int i = 0; st->ring && i < st->lookahead; i++) runner_job_result_free(&st->ring[i]);
  free(st->ring);
  free(st->ready);
}

/* Starts the backend of plan pl on st; 1 when it started, 0 when there is
 * none or it failed (the run then fails with its error). */
static int backend_start(runner_run_state *st, const run_plan *pl) {
  char serr[ERROR_MAX] = "";
  if (!pl->backend) return 0;
  if (!pl->backend->start(pl->backend->ctx, st, st->s, serr, sizeof serr)) return 1;
  runner_fail(st, serr);
  return 0;
}

/* The run's return value, from what the delivery saw. */
static int run_result(delivery *d) {
  runner_run_state *st = d->st;
  if (d->sink_failed) return -1;
  if (st->failed) {
    error_set(d->err, d->errlen, "%s", st->error);
    return -1;
  }
  if (!d->stats.decided && (st->oldest < st->s->njobs || d->cut)) {
    d->stats.stopped = 1;
    return 1;
  }
  return 0;
}

int runner_run(const runner_schedule *s, const runner_sink *k, const runner_config *c,
               runner_stats *out, char *err, size_t errlen) {
  delivery d = {.k = k, .c = c, .t0 = clock_now(), .flushed = 1, .err = err, .errlen = errlen};
  run_plan pl = plan_run(s, c);
  runner_run_state st;
  if (state_init(&st, s, c, &pl)) {
    state_free(&st);
    error_set(err, errlen, "out of memory");
    return -1;
  }
  d.st = &st;
  runner_pool_source src = {&st, schedule_take, schedule_put};
  st.pool = runner_pool_start(s, pl.threads, &src, err, errlen);
  if (!st.pool) {
    state_free(&st);
    return -1;
  }
  int backend_started = backend_start(&st, &pl);
  deliver(&d);
  /* The backend first: it hands jobs back through the pool's lock. */
  if (backend_started && pl.backend->finish) pl.backend->finish(pl.backend->ctx);
  runner_pool_end(st.pool);
  if (!d.flushed && k->flush && !d.sink_failed && k->flush(k->ctx, err, errlen) < 0)
    d.sink_failed = 1;
  int rc = run_result(&d);
  state_free(&st);
  d.stats.seconds = clock_now() - d.t0;
  if (out) *out = d.stats;
  return rc;
}

void *runner_schedule_ctx(runner_schedule *s, size_t size, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  s->ctx = calloc(1, size);
  if (!s->ctx) error_set(err, errlen, "out of memory");
  return s->ctx;
}
