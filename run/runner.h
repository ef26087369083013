/* runner.h: the one game runner: a schedule's jobs played on workers, each finished game handed to one sink in schedule order. */
#ifndef OWARE_RUNNER_H
#define OWARE_RUNNER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "run/match.h"
#include "run/pack.h"
#include "core/board.h"
#include "core/error.h"
#include "core/variant.h"
#include "players/player.h"

/*
 * The contract (docs/ARCHITECTURE.md, "The runner"):
 *
 * - A schedule is a list of jobs 0 .. njobs-1. A job is a few games that
 *   one worker plays in order: a game pair, a whole series (its format
 *   decides after each game whether another follows), or one game. What a
 *   game is (players, variant, start position, seed) comes from the
 *   schedule's next_game, which sees only the job's number and the
 *   outcomes of its earlier games: never the time, the worker or the
 *   thread count. So the games do not depend on where they are played.
 * - Every finished game goes to the sink on the thread that called
 *   runner_run, in schedule order: job by job, and within a job game by
 *   game. A sink that stores games therefore always holds a prefix of the
 *   schedule (of the jobs it was given), and a sink that decides (an SPRT)
 *   decides at the same game whatever the threads.
 * - At most `lookahead` jobs are handed out beyond the oldest job not yet
 *   delivered: the memory held is bounded, and so is the work thrown away
 *   when the sink decides.
 * - When the sink says the run is decided, no new job is handed out and
 *   nothing after the deciding game reaches the sink. When *stop is set, no
 *   new job is handed out, jobs in progress end at once (a game in
 *   progress is dropped: it is not finished),
 *   and the sink still gets, in order, every finished game up to the first
 *   job that was cut short (that job's finished games included): what is
 *   delivered stays a prefix of the schedule.
 * - Where the jobs are played is one replaceable part: runner_run starts
 *   config->threads local workers (the worker pool below, each worker
 *   with its own players) whose source is the schedule with its
 *   look-ahead; a backend (a cluster) adds remote workers that take jobs
 *   and put results through runner_try_take_job and runner_put_result,
 *   and plays them there on the same pool (an MPI serving rank's source:
 *   the jobs it is given, runner_pool_given).
 */

/* A game a job is to play, filled by the schedule. */
typedef struct runner_game {
  int game_no;        /* the schedule's own number for the game (kept in the result) */
  int south, north;   /* player slots; the same slot on both sides gets two instances */
  int variant_idx;    /* the schedule's own index of the variant (kept in the result) */
  const variant *v;
  board start;
  uint64_t seed;      /* the game seed handed to both players */
  /* The run's adjudication (run/adjudicate.h), read by every worker at
   * once; NULL: the game ends by the rules alone. */
  const struct adjudicator *adjudicator;
} runner_game;

/* What the schedule sees of a job's earlier games. */
typedef struct runner_outcome {
  int south, north;   /* slots */
  int winner;         /* BOARD_SOUTH, BOARD_NORTH or GAME_DRAW */
} runner_outcome;

typedef struct runner_schedule {
  long long njobs;
  int nslots;          /* player slots: 0 .. nslots-1 */
  void *ctx;
  /* The spec a slot's players are made from (player_create). */
  const char *(*slot_spec)(void *ctx, int slot);
  /* Optional: sets up a player just made for slot (parameters such as
   * evaluation weights, through player_set_param). 0, or -1 with err. */
  int (*slot_prepare)(void *ctx, int slot, player *p, char *err, size_t errlen);
  /* Game k (0, 1, …) of job `job`, given the outcomes of its games 0..k-1:
   * returns 1 and fills *g, or 0 when the job has no more games. Called on
   * worker threads, concurrently: it must only read shared state. */
  int (*next_game)(void *ctx, long long job, int k, const runner_outcome *prev, runner_game *g);
  /* Optional: how the schedule travels to another process (the MPI
   * backend). kind names the runner_kind that rebuilds it there from what
   * pack writes; a schedule without them is played on local threads only. */
  const char *kind;
  int (*pack)(void *ctx, pack_buf *out, char *err, size_t errlen);
} runner_schedule;

/* Rebuilds a schedule of one kind in another process. */
typedef struct runner_kind {
  const char *name;
  /* Fills *s (the hooks, kind and pack; ctx allocated here) from what the
   * schedule's pack wrote; the caller then sets njobs and nslots to the
   * sender's. 0, or -1 with err. */
  int (*unpack)(pack_reader *in, runner_schedule *s, char *err, size_t errlen);
  /* Frees what unpack allocated. */
  void (*release)(runner_schedule *s);
} runner_kind;

/* For a kind's unpack: clears *s and gives it size zeroed bytes of context
 * (s->ctx, which the kind's release frees). Returns s->ctx, or NULL with
 * "out of memory" in err. */
void *runner_schedule_ctx(runner_schedule *s, size_t size, char *err, size_t errlen);

/* A finished game. */
typedef struct runner_result {
  long long job;
  int k;              /* its place in the job */
  runner_game game;   /* as the schedule set it (game.v points into the schedule) */
  outcome mr;    /* end, winner, scores, plies, seconds, forfeit detail */
  int plies;
  uint8_t *moves;     /* the houses played, plies of them */
  move_record *records; /* what is known of each move (time, score, depth), plies of them; may be NULL */
} runner_result;

/* Progress: what the sink has been given so far. */
typedef struct runner_progress {
  long long jobs_done, njobs;
  long long games;     /* delivered by this call of runner_run */
  double seconds;      /* since runner_run started */
} runner_progress;

typedef struct runner_sink {
  void *ctx;
  /* A finished game, in schedule order. Returns 0 to go on, 1 when the run
   * is decided (this game counts; nothing after it is delivered), -1 on an
   * error (with err: the run stops). */
  int (*game)(void *ctx, const runner_result *r, char *err, size_t errlen);
  /* Optional: every game so far has been delivered and the runner is about
   * to wait (a store commits its batch here), and once at the end. */
  int (*flush)(void *ctx, char *err, size_t errlen);
  /* Optional: after each delivered job. */
  void (*progress)(void *ctx, const runner_progress *p);
} runner_sink;

typedef struct runner_backend runner_backend;

typedef struct runner_config {
  int threads;          /* local workers (at least 1 unless a backend adds workers) */
  int lookahead;        /* jobs handed out beyond the oldest undelivered; 0: 8 per worker, at least 16 */
  atomic_int *stop;     /* may be NULL; set (e.g. by a signal handler) to end the run cleanly */
  const runner_backend *backend; /* NULL: local threads only */
} runner_config;

/* What runner_run did. */
typedef struct runner_stats {
  long long jobs_done;  /* jobs delivered whole */
  long long games;      /* games delivered */
  int decided;          /* the sink decided */
  int stopped;          /* *stop ended it */
  double seconds;
} runner_stats;

/* Plays the schedule. Returns 0 when every job was delivered or the sink
 * decided, 1 when *stop ended it first, -1 on an error (a player that
 * cannot be made, a sink error, out of memory) with err. */
int runner_run(const runner_schedule *s, const runner_sink *k, const runner_config *c,
               runner_stats *out, char *err, size_t errlen);

/* ---- The seam for other backends ---- */

/* The games of one job. */
typedef struct runner_job_result {
  long long job;
  int n, cap;
  runner_result *games;
  int partial;        /* stopped before the job's end: games holds what was finished */
} runner_job_result;
void runner_job_result_free(runner_job_result *r);

/* A run in progress, as a backend's workers see it. */
typedef struct runner_run_state runner_run_state;

/* Hands back the games of a job taken with runner_try_take_job (taking
 * ownership of r's games), or reports that it failed (r NULL, err set):
 * the run then stops with that error. */
void runner_put_result(runner_run_state *st, runner_job_result *r, const char *err);
/* For a backend that must keep serving messages (it never blocks): the
 * next job's number, -1 when there is none left (or the run is ending), -2
 * when the look-ahead is full for now. */
long long runner_try_take_job(runner_run_state *st);
/* Whether the run is ending early (decided, stopped or failed): jobs in
 * progress are to be abandoned (their finished games handed back, partial). */
int runner_abandoning(runner_run_state *st);
/* The run's config.threads: the workers each place is to run. */
int runner_run_threads(const runner_run_state *st);
/* Stops the run with an error that belongs to no job (a remote place
 * that cannot take part). */
void runner_fail(runner_run_state *st, const char *err);

/* A backend: extra workers beyond the local threads. start is called once
 * the run state exists; it starts whatever it needs (threads through
 * core/thread.h) and returns 0, or -1 with err; finish waits for them. */
struct runner_backend {
  void *ctx;
  int (*start)(void *ctx, runner_run_state *st, const runner_schedule *s, char *err,
               size_t errlen);
  void (*finish)(void *ctx);
  /* Optional, called before the run starts: given the schedule and
   * config.threads, sets *local (the local workers to run; it holds
   * config.threads on entry) and *remote (the workers the backend adds:
   * the look-ahead grows with them). remote 0: the backend sits this run
   * out (start is not called). */
  void (*plan)(void *ctx, const runner_schedule *s, int threads, int *local, int *remote);
};

/* The backend runner_run uses when config.backend is NULL (NULL: local
 * threads only): where jobs are played is the process's choice (cli sets
 * the MPI backend under mpirun), not each caller's. Set it before any run. */
void runner_set_default_backend(const runner_backend *b);

/* ---- The worker pool ---- */

/* Where a pool's workers get jobs and put what they played. Both hooks are
 * called under the pool's lock, from any worker (or from a backend through
 * runner_pool_put). */
typedef struct runner_pool_source {
  void *ctx;
  /* The next job to play; -1 when none is left (the worker ends), -2 when
   * there is none for now (the worker waits for runner_pool_wake). */
  long long (*take)(void *ctx);
  /* The games of job `job` (taking ownership of r's games; r->partial when
   * it was abandoned), or its failure (r NULL, err set). */
  void (*put)(void *ctx, long long job, runner_job_result *r, const char *err);
} runner_pool_source;

typedef struct runner_pool runner_pool;

/* Starts `threads` workers (0: none; the pool is then the lock of a source
 * that others feed) playing schedule s's jobs from *src, each with its own
 * players. NULL with err when a thread cannot start (none is left). */
runner_pool *runner_pool_start(const runner_schedule *s, int threads, const runner_pool_source *src,
                               char *err, size_t errlen);
/* Ends the pool: no job is taken any more, the workers end (after the job
 * each plays) and are joined, the pool is freed (p may be NULL). */
void runner_pool_end(runner_pool *p);

/* The pool's lock, that guards the source. */
void runner_pool_lock(runner_pool *p);
void runner_pool_unlock(runner_pool *p);
/* Under the lock: the source may have jobs again (or none left): waiting
 * workers look again. */
void runner_pool_wake(runner_pool *p);
/* Under the lock: waits until a job is put back, at most `seconds` (a
 * signal handler can set a stop flag but cannot wake a condition). */
void runner_pool_wait(runner_pool *p, double seconds);
/* Hands back a job's games (r) or its failure (r NULL, err) to the source,
 * as a worker does, and wakes the waiter; a failure abandons the jobs in
 * progress. Takes the lock. */
void runner_pool_put(runner_pool *p, long long job, runner_job_result *r, const char *err);

/* The jobs in progress end at once (their finished games handed back,
 * partial). */
void runner_pool_abandon(runner_pool *p);
int runner_pool_abandoning(runner_pool *p);
/* How often a worker found no job right after one that took under 20 ms:
 * a feeder far away (rank 0) should keep more jobs here. */
int runner_pool_starved(runner_pool *p);

/* ---- A source of jobs given from outside ---- */

/* The jobs an MPI serving rank receives from rank 0, played in the order
 * given, each job's games (or failure) kept for the giver to collect. */
typedef struct runner_pool_given runner_pool_given;

/* A job played, as runner_pool_given_collect hands it over. */
typedef struct runner_pool_done {
  runner_job_result r; /* r.job: its number */
  int failed;
  char err[ERROR_MAX];
} runner_pool_done;

runner_pool_given *runner_pool_given_new(void);
/* Frees g and the games not collected (g may be NULL). */
void runner_pool_given_free(runner_pool_given *g);
/* g as the source of a pool. */
runner_pool_source runner_pool_given_source(runner_pool_given *g);
/* Under the pool's lock (then runner_pool_wake): adds a job. 0, or -1 out
 * of memory. */
int runner_pool_given_push(runner_pool_given *g, long long job);
/* Under the pool's lock (then runner_pool_wake): no more jobs will come:
 * the workers end once the given ones are taken. */
void runner_pool_given_close(runner_pool_given *g);
/* Under the pool's lock: moves up to `room` played jobs to out; returns
 * how many. */
int runner_pool_given_collect(runner_pool_given *g, runner_pool_done *out, int room);
/* Under the pool's lock: played jobs waiting to be collected. */
int runner_pool_given_ready(const runner_pool_given *g);

#endif
