/* runner_mpi.c: the runner's MPI backend: rank 0 hands out job numbers and takes games back; the other ranks play them on the runner's worker pool. */
#include "run/runner_mpi.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which launcher put this process in a job, from its environment: Open
 * MPI's mpirun, PMI (MPICH, Slurm's srun --mpi=pmi2) or PMIx (srun
 * --mpi=pmix, prterun). Returns the job's size, 1 when only the rank is
 * known (PMIx), 0 when there is no launcher. A process a rank started (an
 * engine: `oware uci`) inherits those variables but is no rank: a rank
 * marks its environment with OWARE_MPI_RANK for its children. */
int runner_mpi_launched(void) {
  if (getenv("OWARE_MPI_RANK")) return 0;
  const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v) {
      int n = atoi(v);
      return n > 0 ? n : 1;
    }
  }
  const char *r = getenv("PMIX_RANK");
  if (r && *r) return atoi(r) > 0 ? 2 : 1; /* a rank other than 0: more than one */
  return 0;
}

#ifndef OWARE_HAVE_MPI

int runner_mpi_compiled(void) { return 0; }

int runner_mpi_init(int *argc, char ***argv, int force, runner_mpi_role *role, char *err,
                    size_t errlen) {
  (void)argc, (void)argv;
  *role = RUNNER_MPI_NONE;
  int n = runner_mpi_launched();
  if (force || n > 1) {
    error_set(err, errlen,
             "MPI was not compiled in: this oware cannot play on %s (install libopenmpi-dev "
             "and build with -DOWARE_MPI=ON)",
             n > 1 ? "several ranks" : "MPI ranks");
    return -1;
  }
  return 0;
}

int runner_mpi_rank(void) { return 0; }
int runner_mpi_size(void) { return 1; }
const runner_backend *runner_mpi_backend(void) { return NULL; }
void runner_mpi_limit(int ranks, int root_threads) { (void)ranks, (void)root_threads; }

int runner_mpi_serve(const runner_kind *const *kinds, int nkinds, char *err, size_t errlen) {
  (void)kinds, (void)nkinds;
  error_set(err, errlen, "MPI was not compiled in");
  return -1;
}

void runner_mpi_finalize(void) {}

#else

#include <mpi.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/thread.h"

/* Messages. Each is a pack_buf; every one after RUN starts with the run's
 * sequence number (stale messages of an earlier run are dropped). */
enum {
  TAG_RUN = 1, /* 0 -> w: seq, kind, njobs, nslots, threads, the schedule's bytes */
  TAG_JOBS,    /* 0 -> w: seq, count, job numbers */
  TAG_END,     /* 0 -> w: seq, abandon (0: no more jobs; 1: drop what is in progress) */
  TAG_QUIT,    /* 0 -> w: the command is over */
  TAG_WANT,    /* w -> 0: seq, how many more jobs this rank can take */
  TAG_RESULTS, /* w -> 0: seq, count, per job: job, partial, games */
  TAG_FAIL,    /* w -> 0: seq, job (-1: the run as a whole), message */
  TAG_DONE     /* w -> 0: seq: every job this rank took is back; its threads ended */
};

static int g_init, g_rank, g_size = 1;
static MPI_Comm g_comm;
static int g_limit_ranks, g_root_threads = -1;

int runner_mpi_compiled(void) { return 1; }
int runner_mpi_rank(void) { return g_rank; }
int runner_mpi_size(void) { return g_size; }

void runner_mpi_limit(int ranks, int root_threads) {
  g_limit_ranks = ranks;
  g_root_threads = root_threads;
}

int runner_mpi_init(int *argc, char ***argv, int force, runner_mpi_role *role, char *err,
                    size_t errlen) {
  *role = RUNNER_MPI_NONE;
  if (!force && !runner_mpi_launched()) return 0;
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
    error_set(err, errlen, "MPI_Init_thread failed");
    return -1;
  }
  g_init = 1;
  if (provided < MPI_THREAD_SERIALIZED) {
    error_set(err, errlen, "this MPI library does not provide MPI_THREAD_SERIALIZED");
    return -1;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &g_comm);
  MPI_Comm_rank(g_comm, &g_rank);
  MPI_Comm_size(g_comm, &g_size);
  char r[16];
  snprintf(r, sizeof r, "%d", g_rank);
  setenv("OWARE_MPI_RANK", r, 1); /* for the processes it starts: they are not ranks */
  *role = g_rank == 0 ? RUNNER_MPI_ROOT : RUNNER_MPI_WORKER;
  return 0;
}

void runner_mpi_finalize(void) {
  if (!g_init) return;
  if (g_rank == 0 && g_comm != MPI_COMM_NULL)
    for (int r = 1; r < g_size; r++) MPI_Send(NULL, 0, MPI_BYTE, r, TAG_QUIT, g_comm);
  if (g_size > 0 && g_comm != MPI_COMM_NULL) MPI_Comm_free(&g_comm);
  MPI_Finalize();
  g_init = 0;
}

static void send_buf(const pack_buf *b, int to, int tag) {
  MPI_Send(b->data, (int)b->len, MPI_BYTE, to, tag, g_comm);
}

/* Sleeps a little longer each idle round: 20 µs up to 1 ms. */
static void idle_sleep(int *idle) {
  long us = 20L << (*idle < 6 ? *idle : 6);
  if (us > 1000) us = 1000;
  struct timespec ts = {0, us * 1000};
  nanosleep(&ts, NULL);
  (*idle)++;
}

/* Receives the message Iprobe found into *buf (grown as needed). */
static int recv_probed(const MPI_Status *st, unsigned char **buf, int *cap) {
  int n = 0;
  MPI_Get_count(st, MPI_BYTE, &n);
  if (n > *cap) {
    unsigned char *nb = realloc(*buf, (size_t)n);
    if (!nb) return -1;
    *buf = nb;
    *cap = n;
  }
  MPI_Recv(*buf, n, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, g_comm, MPI_STATUS_IGNORE);
  return n;
}

/* ---- Games on the wire ---- */

/* A game's move records: whether it has them, then time, score, depth a move. */
static void pack_records(pack_buf *b, const runner_result *g) {
  pack_u64(b, g->records != NULL);
  for (int m = 0; g->records && m < g->plies; m++) {
    pack_i64(b, g->records[m].ms);
    pack_i64(b, g->records[m].score);
    pack_i64(b, g->records[m].depth);
  }
}

/* What pack_records wrote, into r->records (r->plies of them). 0, or -1
 * when memory runs out (in->failed for a message that does not read back). */
static int unpack_records(pack_reader *in, runner_result *r) {
  if (!pack_get_u64(in) || in->failed) return 0;
  if ((size_t)r->plies > pack_left(in) / 3) {
    in->failed = 1;
    return 0;
  }
  r->records = malloc(((size_t)r->plies + 1) * sizeof *r->records);
  if (!r->records) return -1;
  for (int m = 0; m < r->plies; m++) {
    r->records[m].ms = pack_get_int(in, 0, 1LL << 50);
    r->records[m].score = (int)pack_get_int(in, -2000000000, 2000000000);
    r->records[m].depth = (int)pack_get_int(in, 0, 1 << 30);
  }
  return 0;
}

static void pack_job(pack_buf *b, const runner_job_result *r) {
  pack_i64(b, r->job);
  pack_u64(b, (uint64_t)r->partial);
  pack_u64(b, (uint64_t)r->n);
  for (int i = 0; i < r->n; i++) {
    const runner_result *g = &r->games[i];
    pack_i64(b, g->k);
    pack_i64(b, g->game.game_no);
    pack_i64(b, g->game.south);
    pack_i64(b, g->game.north);
    pack_i64(b, g->game.variant_idx);
    pack_u64(b, g->game.seed);
    pack_board(b, &g->game.start, g->game.v);
    pack_i64(b, g->mr.end);
    pack_i64(b, g->mr.winner);
    pack_i64(b, g->mr.score2[0]);
    pack_i64(b, g->mr.score2[1]);
    pack_i64(b, g->mr.plies);
    pack_f64(b, g->mr.seconds);
    pack_str(b, g->mr.detail);
    pack_i64(b, g->plies);
    pack_raw(b, g->moves, (size_t)g->plies);
    pack_records(b, g);
  }
}

/* Reads a job's games, each checked against this process's own schedule
 * (next_game with the outcomes so far): a game that differs means another
 * binary or another schedule on that rank. 0, or -1 with err (out empty). */
static int unpack_job(pack_reader *in, const runner_schedule *s, runner_job_result *out,
                      char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  out->job = pack_get_int(in, 0, s->njobs - 1);
  out->partial = pack_get_u64(in) != 0;
  int n = (int)pack_get_u64(in);
  if (in->failed || n < 0 || (size_t)n > pack_left(in)) {
    error_set(err, errlen, "a message that does not read back");
    return -1;
  }
  out->games = calloc((size_t)(n ? n : 1), sizeof *out->games);
  runner_outcome *prev = calloc((size_t)(n ? n : 1), sizeof *prev);
  if (!out->games || !prev) {
    free(prev);
    runner_job_result_free(out);
    error_set(err, errlen, "out of memory");
    return -1;
  }
  out->cap = n;
  for (int i = 0; i < n; i++) {
    runner_result *r = &out->games[i];
    runner_game g;
    memset(&g, 0, sizeof g);
    int k = (int)pack_get_int(in, 0, 1 << 30);
    int exists = !in->failed && k == i && s->next_game(s->ctx, out->job, k, prev, &g);
    runner_game w;
    memset(&w, 0, sizeof w);
    w.game_no = (int)pack_get_int(in, -1, 1 << 30);
    w.south = (int)pack_get_int(in, 0, s->nslots - 1);
    w.north = (int)pack_get_int(in, 0, s->nslots - 1);
    w.variant_idx = (int)pack_get_int(in, 0, 1 << 30);
    w.seed = pack_get_u64(in);
    if (exists) pack_get_board(in, &w.start, g.v);
    int same = exists && !in->failed && w.game_no == g.game_no && w.south == g.south &&
               w.north == g.north && w.variant_idx == g.variant_idx && w.seed == g.seed &&
               !memcmp(w.start.pit, g.start.pit, sizeof g.start.pit) &&
               !memcmp(w.start.store, g.start.store, sizeof g.start.store) &&
               w.start.side == g.start.side;
    if (!same) {
      free(prev);
      runner_job_result_free(out);
      error_set(err, errlen,
               in->failed ? "a message that does not read back"
                          : "it played a game that is not job %lld's game %d here: is the same "
                            "oware on every host?",
               out->job, i);
      return -1;
    }
    r->job = out->job;
    r->k = k;
    r->game = g;
    r->mr.end = (outcome_end)pack_get_int(in, OUTCOME_MAJORITY, OUTCOME_NENDS - 1);
    r->mr.winner = (int)pack_get_int(in, GAME_DRAW, BOARD_NORTH);
    r->mr.score2[0] = (int)pack_get_int(in, 0, 4 * VARIANT_MAX_TOTAL);
    r->mr.score2[1] = (int)pack_get_int(in, 0, 4 * VARIANT_MAX_TOTAL);
    r->mr.plies = (int)pack_get_int(in, 0, 1 << 30);
    r->mr.seconds = pack_get_f64(in);
    pack_get_str(in, r->mr.detail, sizeof r->mr.detail);
    int plies = (int)pack_get_int(in, 0, 1 << 30);
    if (!in->failed && (size_t)plies <= pack_left(in)) {
      r->moves = malloc((size_t)plies + 1);
      if (r->moves) pack_get_raw(in, r->moves, (size_t)plies);
      r->plies = plies;
      for (int m = 0; r->moves && m < plies; m++)
        if (r->moves[m] >= g.v->pits) in->failed = 1;
    } else {
      in->failed = 1;
    }
    int oom = r->moves && unpack_records(in, r);
    out->n = i + 1;
    if (in->failed || !r->moves || oom) {
      free(prev);
      runner_job_result_free(out);
      error_set(err, errlen, in->failed ? "a message that does not read back" : "out of memory");
      return -1;
    }
    prev[i] = (runner_outcome){g.south, g.north, r->mr.winner};
  }
  free(prev);
  return 0;
}

/* ---- Rank 0: the backend ---- */

typedef struct proxy {
  runner_run_state *st;
  const runner_schedule *s;
  thread *th;
  atomic_int closing;  /* runner_run is over: end the run on every rank */
  atomic_int busy;     /* a run is using the workers */
  int nranks;          /* ranks 0..nranks-1 take part */
  uint64_t seq;
  pack_buf run_msg;
} proxy;

static proxy g_proxy;

static int plan_ranks(void) {
  int n = g_size;
  if (g_limit_ranks > 0 && g_limit_ranks < n) n = g_limit_ranks;
  return n;
}

static void proxy_plan(void *ctx, const runner_schedule *s, int threads, int *local,
                       int *remote) {
  proxy *p = ctx;
  int n = plan_ranks();
  if (n < 2 || !s->kind || !s->pack || atomic_load(&p->busy)) {
    *remote = 0;
    return;
  }
  if (g_root_threads >= 0) *local = g_root_threads;
  /* Counted 8 times: a worker rank holds up to 64 jobs a thread when jobs
   * are short, and the look-ahead (8 per worker) must leave room for them. */
  *remote = 8 * (n - 1) * (threads > 0 ? threads : 1);
}

/* What rank 0 knows of each worker rank during a run. */
typedef struct peer {
  long long want;   /* jobs it asked for and has not been given */
  long long out;    /* jobs it holds */
  int ended;        /* told: no more jobs */
  int abandoned;    /* told: drop the jobs in progress */
  int done;
} peer;

static void send_end(proxy *p, peer *pe, int r, int abandon) {
  pack_buf b;
  pack_init(&b);
  pack_u64(&b, p->seq);
  pack_u64(&b, (uint64_t)abandon);
  send_buf(&b, r, TAG_END);
  pack_free(&b);
  pe[r].ended = 1;
  pe[r].abandoned |= abandon;
  pe[r].want = 0;
}

static void fail_jobs(proxy *p, peer *pe, int r, const char *why) {
  char msg[ERROR_MAX + 320];
  for (; pe[r].out > 0; pe[r].out--) {
    snprintf(msg, sizeof msg, "rank %d %s", r, why);
    runner_put_result(p->st, NULL, msg);
  }
}

/* One message from worker rank r. */
static void proxy_handle(proxy *p, peer *pe, int r, int tag, const unsigned char *data,
                         int len) {
  pack_reader in;
  pack_reader_init(&in, data, (size_t)len);
  uint64_t seq = pack_get_u64(&in);
  if (in.failed || seq != p->seq || r <= 0 || r >= p->nranks) return; /* stale */
  char err[ERROR_MAX], msg[ERROR_MAX + 320];
  switch (tag) {
  case TAG_WANT: {
    long long n = pack_get_int(&in, 0, 1 << 20);
    if (!pe[r].ended) pe[r].want += n;
    break;
  }
  case TAG_RESULTS: {
    long long n = pack_get_int(&in, 0, 1 << 30);
    for (long long i = 0; i < n && !in.failed && pe[r].out > 0; i++) {
      runner_job_result jr;
      if (unpack_job(&in, p->s, &jr, err, sizeof err)) {
        snprintf(msg, sizeof msg, "rank %d: %s", r, err);
        runner_put_result(p->st, NULL, msg);
        pe[r].out--;
        break;
      }
      runner_put_result(p->st, &jr, NULL);
      pe[r].out--;
    }
    break;
  }
  case TAG_FAIL: {
    long long job = pack_get_int(&in, -1, p->s->njobs);
    char *m = pack_get_strdup(&in);
    if (in.failed || !m) error_set(err, sizeof err, "rank %d failed (its message does not read back)", r);
    else error_set(err, sizeof err, "%s", m);
    free(m);
    if (job >= 0 && pe[r].out > 0) {
      runner_put_result(p->st, NULL, err);
      pe[r].out--;
    } else {
      runner_fail(p->st, err);
    }
    break;
  }
  case TAG_DONE:
    pe[r].done = 1;
    pe[r].ended = 1;
    if (pe[r].out > 0) fail_jobs(p, pe, r, "ended its run without handing back every job");
    break;
  default:
    break;
  }
}

static void *proxy_main(void *arg) {
  proxy *p = arg;
  int n = p->nranks;
  peer *pe = calloc((size_t)n, sizeof *pe);
  long long **batch = calloc((size_t)n, sizeof *batch);
  unsigned char *buf = NULL;
  int cap = 0;
  if (!pe || !batch) {
    free(pe);
    free(batch);
    runner_fail(p->st, "out of memory");
    /* The workers are not told of the run: nothing to wait for. */
    return NULL;
  }
  for (int r = 1; r < n; r++) send_buf(&p->run_msg, r, TAG_RUN);
  pack_free(&p->run_msg);
  int idle = 0;
  for (;;) {
    int active = 0, flag = 0;
    MPI_Status status;
    while (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, g_comm, &flag, &status) == MPI_SUCCESS &&
           flag) {
      int len = recv_probed(&status, &buf, &cap);
      if (len < 0) {
        runner_fail(p->st, "out of memory");
        MPI_Recv(NULL, 0, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, g_comm,
                 MPI_STATUS_IGNORE);
        continue;
      }
      proxy_handle(p, pe, status.MPI_SOURCE, status.MPI_TAG, buf, len);
      active = 1;
    }
    int all_done = 1;
    for (int r = 1; r < n; r++) all_done &= pe[r].done;
    if (all_done) break;
    int abandon = runner_abandoning(p->st);
    int closing = atomic_load(&p->closing);
    if (abandon || closing) {
      for (int r = 1; r < n; r++)
        if (!pe[r].done && (!pe[r].ended || (abandon && !pe[r].abandoned)))
          send_end(p, pe, r, abandon);
    } else {
      /* Hand out jobs to the ranks that want some, a few at a time in turn. */
      int no_more = 0, full = 0;
      long long *cnt = calloc((size_t)n, sizeof *cnt);
      for (int progress = 1; progress && !no_more && !full && cnt;) {
        progress = 0;
        for (int r = 1; r < n && !no_more && !full; r++) {
          if (pe[r].ended || pe[r].want <= 0) continue;
          long long j = runner_try_take_job(p->st);
          if (j == -1) no_more = 1;
          else if (j == -2) full = 1;
          else {
            if (!batch[r] || cnt[r] % 64 == 0) {
              long long *nb = realloc(batch[r], (size_t)(cnt[r] + 64) * sizeof *nb);
              if (!nb) { /* job j goes back as failed */
                runner_put_result(p->st, NULL, "out of memory");
                full = 1;
                break;
              }
              batch[r] = nb;
            }
            batch[r][cnt[r]++] = j;
            pe[r].want--;
            pe[r].out++;
            progress = 1;
          }
        }
      }
      for (int r = 1; cnt && r < n; r++) {
        if (!cnt[r]) continue;
        pack_buf b;
        pack_init(&b);
        pack_u64(&b, p->seq);
        pack_i64(&b, cnt[r]);
        for (long long i = 0; i < cnt[r]; i++) pack_i64(&b, batch[r][i]);
        send_buf(&b, r, TAG_JOBS);
        pack_free(&b);
        active = 1;
      }
      free(cnt);
      if (no_more)
        for (int r = 1; r < n; r++)
          if (!pe[r].ended) send_end(p, pe, r, 0);
    }
    if (active) idle = 0;
    else idle_sleep(&idle);
  }
  for (int r = 0; r < n; r++) free(batch[r]);
  free(batch);
  free(pe);
  free(buf);
  return NULL;
}

static int proxy_start(void *ctx, runner_run_state *st, const runner_schedule *s, char *err,
                       size_t errlen) {
  proxy *p = ctx;
  if (atomic_exchange(&p->busy, 1)) {
    error_set(err, errlen, "the MPI backend is already playing another run");
    return -1;
  }
  p->st = st;
  p->s = s;
  p->nranks = plan_ranks();
  p->seq++;
  atomic_store(&p->closing, 0);
  pack_init(&p->run_msg);
  pack_u64(&p->run_msg, p->seq);
  pack_str(&p->run_msg, s->kind);
  pack_i64(&p->run_msg, s->njobs);
  pack_i64(&p->run_msg, s->nslots);
  pack_i64(&p->run_msg, runner_run_threads(st));
  if (s->pack(s->ctx, &p->run_msg, err, errlen) || p->run_msg.failed) {
    if (p->run_msg.failed) error_set(err, errlen, "out of memory for the schedule's message");
    pack_free(&p->run_msg);
    atomic_store(&p->busy, 0);
    return -1;
  }
  p->th = thread_start(proxy_main, p, err, errlen);
  if (!p->th) {
    pack_free(&p->run_msg);
    atomic_store(&p->busy, 0);
    return -1;
  }
  return 0;
}

static void proxy_finish(void *ctx) {
  proxy *p = ctx;
  atomic_store(&p->closing, 1);
  thread_join(p->th);
  p->th = NULL;
  atomic_store(&p->busy, 0);
}

static const runner_backend g_backend = {&g_proxy, proxy_start, proxy_finish, proxy_plan};

const runner_backend *runner_mpi_backend(void) { return g_init && g_rank == 0 ? &g_backend : NULL; }

/* ---- Worker ranks ---- */

static void send_simple(int tag, uint64_t seq, long long job, const char *msg) {
  pack_buf b;
  pack_init(&b);
  pack_u64(&b, seq);
  if (tag == TAG_WANT) pack_i64(&b, job);
  if (tag == TAG_FAIL) {
    pack_i64(&b, job);
    pack_str(&b, msg);
  }
  send_buf(&b, 0, tag);
  pack_free(&b);
}

/* Jobs held a thread: 2 (one played, one waiting), doubled whenever a
 * thread runs dry after a short job (under 20 ms: the round trip to rank 0
 * may take longer), up to MAX_HELD. Long jobs keep 2, so that the last jobs
 * of a run are not queued behind each other on one rank. */
enum { MAX_HELD = 64, BATCH = 256 };

/* One run of rank 0 on this rank: its schedule, the runner's worker pool
 * playing the jobs given (runner_pool_given), what is asked and held. */
typedef struct wrun {
  uint64_t seq;
  const char *who;     /* "rank R (host)" */
  runner_schedule s;
  runner_pool_given *given;
  runner_pool *pool;
  int threads;
  long long held, requested;
  int per_thread, seen_starved;
  int ended, quit;
  runner_pool_done batch[BATCH];
} wrun;

/* Sends the jobs played: failures first (the run stops with its own
 * reason), then the games in one message. 1 when there were some. */
static int send_played(wrun *w) {
  runner_pool_lock(w->pool);
  int n = runner_pool_given_collect(w->given, w->batch, BATCH);
  runner_pool_unlock(w->pool);
  if (!n) return 0;
  char msg[ERROR_MAX + 320];
  int ok = 0;
  for (int i = 0; i < n; i++) {
    ok += !w->batch[i].failed;
    if (!w->batch[i].failed) continue;
    snprintf(msg, sizeof msg, "%s: %s", w->who, w->batch[i].err);
    send_simple(TAG_FAIL, w->seq, w->batch[i].r.job, msg);
  }
  pack_buf b;
  pack_init(&b);
  pack_u64(&b, w->seq);
  pack_i64(&b, ok);
  for (int i = 0; i < n; i++)
    if (!w->batch[i].failed) pack_job(&b, &w->batch[i].r);
  if (ok && b.failed) { /* out of memory for the message: the jobs fail */
    snprintf(msg, sizeof msg, "%s: out of memory", w->who);
    for (int i = 0; i < n; i++)
      if (!w->batch[i].failed) send_simple(TAG_FAIL, w->seq, w->batch[i].r.job, msg);
  } else if (ok) {
    send_buf(&b, 0, TAG_RESULTS);
  }
  pack_free(&b);
  for (int i = 0; i < n; i++) runner_job_result_free(&w->batch[i].r);
  w->held -= n;
  return 1;
}

/* Asks rank 0 for the jobs missing to hold per_thread a thread. */
static void ask_jobs(wrun *w) {
  int starved = runner_pool_starved(w->pool);
  if (starved != w->seen_starved) {
    w->seen_starved = starved;
    if (w->per_thread < MAX_HELD) w->per_thread *= 2;
  }
  long long deficit = (long long)w->per_thread * w->threads - w->held - w->requested;
  if (w->ended || deficit <= 0) return;
  send_simple(TAG_WANT, w->seq, deficit, NULL);
  w->requested += deficit;
}

/* Gives the pool the jobs of a TAG_JOBS message. */
static void take_jobs(wrun *w, pack_reader *in) {
  long long n = pack_get_int(in, 0, 1 << 30), got = 0;
  runner_pool_lock(w->pool);
  for (; got < n; got++) {
    long long j = pack_get_int(in, 0, w->s.njobs - 1);
    if (in->failed || runner_pool_given_push(w->given, j)) break;
  }
  runner_pool_wake(w->pool);
  runner_pool_unlock(w->pool);
  w->held += got;
  w->requested -= got;
}

/* The messages rank 0 sent; 1 when there were some. */
static int read_messages(wrun *w, unsigned char **buf, int *cap) {
  int flag = 0, active = 0;
  MPI_Status status;
  while (!w->quit && MPI_Iprobe(0, MPI_ANY_TAG, g_comm, &flag, &status) == MPI_SUCCESS && flag) {
    int n = recv_probed(&status, buf, cap);
    active = 1;
    if (status.MPI_TAG == TAG_QUIT) {
      w->quit = w->ended = 1;
      runner_pool_abandon(w->pool);
      break;
    }
    if (n < 0) continue;
    pack_reader m;
    pack_reader_init(&m, *buf, (size_t)n);
    if (pack_get_u64(&m) != w->seq || m.failed) continue; /* stale */
    if (status.MPI_TAG == TAG_JOBS) {
      take_jobs(w, &m);
    } else if (status.MPI_TAG == TAG_END) {
      w->ended = 1;
      if (pack_get_u64(&m)) runner_pool_abandon(w->pool);
    }
  }
  return active;
}

/* Plays the jobs rank 0 gives until it ends the run (or quits). */
static void play_run(wrun *w) {
  unsigned char *buf = NULL;
  int cap = 0, idle = 0;
  for (;;) {
    int active = send_played(w);
    ask_jobs(w);
    active |= read_messages(w, &buf, &cap);
    if (w->ended) {
      runner_pool_lock(w->pool);
      runner_pool_given_close(w->given);
      runner_pool_wake(w->pool);
      runner_pool_unlock(w->pool);
      if (w->held <= 0 || w->quit) break;
    }
    if (active) {
      idle = 0;
      continue;
    }
    /* Wait for a job played, 20 µs up to 1 ms (rank 0's messages are polled). */
    long us = 20L << (idle < 6 ? idle : 6);
    runner_pool_lock(w->pool);
    if (!runner_pool_given_ready(w->given)) runner_pool_wait(w->pool, (us > 1000 ? 1000 : us) * 1e-6);
    runner_pool_unlock(w->pool);
    idle++;
  }
  free(buf);
}

/* Rebuilds the schedule of a run message into w->s; 0, or -1 with err. */
static int read_run(const runner_kind *const *kinds, int nkinds, pack_reader *in, wrun *w,
                    const runner_kind **k, char *err, size_t errlen) {
  char kind[64];
  pack_get_str(in, kind, sizeof kind);
  long long njobs = pack_get_int(in, 0, 1LL << 40);
  int nslots = (int)pack_get_int(in, 1, 1 << 20);
  w->threads = (int)pack_get_int(in, 1, 4096);
  if (in->failed) {
    error_set(err, errlen, "a run message that does not read back");
    return -1;
  }
  for (int i = 0; i < nkinds; i++)
    if (!strcmp(kinds[i]->name, kind)) *k = kinds[i];
  if (!*k) {
    error_set(err, errlen, "no schedule of kind '%s' here", kind);
    return -1;
  }
  if ((*k)->unpack(in, &w->s, err, errlen)) return -1;
  w->s.njobs = njobs;
  w->s.nslots = nslots;
  return 0;
}

/* One run of rank 0: rebuild its schedule, play the jobs given on the
 * runner's pool, stream the games back. Returns 1 when rank 0 said quit
 * meanwhile. */
static int serve_run(const runner_kind *const *kinds, int nkinds, const unsigned char *data,
                     int len, const char *who) {
  pack_reader in;
  pack_reader_init(&in, data, (size_t)len);
  wrun *w = calloc(1, sizeof *w);
  char err[ERROR_MAX], msg[ERROR_MAX + 320];
  const runner_kind *k = NULL;
  uint64_t seq = pack_get_u64(&in);
  if (!w) {
    error_set(err, sizeof err, "out of memory");
  } else {
    w->seq = seq;
    w->who = who;
    w->per_thread = 2;
    if (!read_run(kinds, nkinds, &in, w, &k, err, sizeof err)) {
      runner_pool_source src = runner_pool_given_source(w->given = runner_pool_given_new());
      w->pool = w->given ? runner_pool_start(&w->s, w->threads, &src, err, sizeof err) : NULL;
      if (!w->given) error_set(err, sizeof err, "out of memory");
    }
  }
  int quit = 0;
  if (w && w->pool) {
    play_run(w);
    quit = w->quit;
  } else {
    snprintf(msg, sizeof msg, "%s: %s", who, err);
    send_simple(TAG_FAIL, seq, -1, msg);
  }
  runner_pool_end(w ? w->pool : NULL);
  runner_pool_given_free(w ? w->given : NULL);
  if (k && k->release) k->release(&w->s);
  free(w);
  if (!quit) send_simple(TAG_DONE, seq, 0, NULL);
  return quit;
}

int runner_mpi_serve(const runner_kind *const *kinds, int nkinds, char *err, size_t errlen) {
  if (!g_init || g_rank == 0) {
    error_set(err, errlen, "runner_mpi_serve: not a worker rank");
    return -1;
  }
  char host[256] = "?", who[300];
  gethostname(host, sizeof host);
  host[sizeof host - 1] = '\0';
  snprintf(who, sizeof who, "rank %d (%s)", g_rank, host);
  unsigned char *buf = NULL;
  int cap = 0, idle = 0;
  for (;;) {
    int flag = 0;
    MPI_Status status;
    if (MPI_Iprobe(0, MPI_ANY_TAG, g_comm, &flag, &status) != MPI_SUCCESS) {
      error_set(err, errlen, "%s: MPI_Iprobe failed", who);
      free(buf);
      return -1;
    }
    if (!flag) {
      idle_sleep(&idle);
      continue;
    }
    idle = 0;
    int n = recv_probed(&status, &buf, &cap);
    if (status.MPI_TAG == TAG_QUIT) break;
    if (n < 0) {
      error_set(err, errlen, "%s: out of memory", who);
      free(buf);
      return -1;
    }
    if (status.MPI_TAG == TAG_RUN && serve_run(kinds, nkinds, buf, n, who)) break;
    /* anything else is stale: dropped */
  }
  free(buf);
  return 0;
}

#endif
