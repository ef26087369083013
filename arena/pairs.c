/* pairs.c: plays game pairs between two players on worker threads and sums W/D/L and pentanomial counts. */
#include "arena/pairs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena/match.h"
#include "core/rng.h"
#include "players/player.h"

typedef struct shared {
  const pairs_job *job;
  atomic_int *stop;
  atomic_int next;   /* the next pair to play (relative to first_pair) */
  atomic_int failed;
  pthread_mutex_t mu;
  char error[512];
} shared;

typedef struct worker_state {
  shared *sh;
  pairs_result res; /* this worker's sums, added up after the join */
} worker_state;

static void set_error(shared *sh, const char *msg) {
  pthread_mutex_lock(&sh->mu);
  if (!atomic_load(&sh->failed)) snprintf(sh->error, sizeof sh->error, "%s", msg);
  atomic_store(&sh->failed, 1);
  pthread_mutex_unlock(&sh->mu);
}

static player *make(shared *sh, const char *spec, const player_param *params, int nparams) {
  char err[512], msg[700];
  player *p = player_create(spec, err, sizeof err);
  if (!p) {
    snprintf(msg, sizeof msg, "%s: %s", spec, err);
    set_error(sh, msg);
    return NULL;
  }
  if (player_set_params(p, params, nparams, err, sizeof err)) {
    snprintf(msg, sizeof msg, "%s: %s", spec, err);
    set_error(sh, msg);
    player_free(p);
    return NULL;
  }
  return p;
}

/* The opening of pair `pair`: opening_plies random legal moves. */
static void opening(const pairs_job *job, int pair, board *b) {
  uint64_t os = rng_mix(rng_mix(job->seed, 0x706169727300ULL), (uint64_t)pair);
  board_random_opening(b, &job->v, job->opening_plies, os);
}

static void *work(void *arg) {
  worker_state *ws = arg;
  shared *sh = ws->sh;
  const pairs_job *job = sh->job;
  player *a = make(sh, job->spec_a, job->params_a, job->nparams_a);
  player *b = a ? make(sh, job->spec_b, job->params_b, job->nparams_b) : NULL;
  while (a && b && !atomic_load(&sh->failed) && !(sh->stop && atomic_load(sh->stop))) {
    int k = atomic_fetch_add(&sh->next, 1);
    if (k >= job->pairs) break;
    int pair = job->first_pair + k;
    board start;
    opening(job, pair, &start);
    int points2 = 0, draws = 0; /* A's points in the pair, in half points */
    for (int g = 0; g < 2; g++) {
      game gm;
      match_result r;
      char err[512];
      player *south = g == 0 ? a : b, *north = g == 0 ? b : a;
      uint64_t seed = rng_mix(rng_mix(job->seed, 0x67616d6500ULL + (uint64_t)pair), (uint64_t)g);
      if (match_play(south, north, &job->v, &start, seed, &gm, &r, err, sizeof err)) {
        set_error(sh, err);
        break;
      }
      game_free(&gm);
      int a_side = g == 0 ? BOARD_SOUTH : BOARD_NORTH;
      if (r.end >= MATCH_FORFEIT_TIMEOUT) ws->res.forfeits++;
      if (r.winner == GAME_DRAW) {
        ws->res.draws++;
        draws++;
        points2 += 1;
      } else if (r.winner == a_side) {
        ws->res.wins++;
        points2 += 2;
      } else {
        ws->res.losses++;
      }
    }
    if (atomic_load(&sh->failed)) break;
    ws->res.penta[points2]++;
    if (points2 == 2 && draws == 0) ws->res.penta_wl++;
  }
  player_free(a);
  player_free(b);
  return NULL;
}

int pairs_play(const pairs_job *job, atomic_int *stop, pairs_result *out, char *err,
               size_t errlen) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  memset(out, 0, sizeof *out);
  shared sh;
  memset(&sh, 0, sizeof sh);
  sh.job = job;
  sh.stop = stop;
  atomic_init(&sh.next, 0);
  atomic_init(&sh.failed, 0);
  if (pthread_mutex_init(&sh.mu, NULL)) {
    snprintf(err, errlen, "cannot create a mutex");
    return -1;
  }
  int n = job->threads < 1 ? 1 : job->threads;
  if (n > job->pairs) n = job->pairs > 0 ? job->pairs : 1;
  worker_state *ws = calloc((size_t)n, sizeof *ws);
  pthread_t *tid = calloc((size_t)n, sizeof *tid);
  int started = 0;
  if (!ws || !tid) {
    set_error(&sh, "out of memory");
  } else {
    for (; started < n; started++) {
      ws[started].sh = &sh;
      if (pthread_create(&tid[started], NULL, work, &ws[started])) {
        set_error(&sh, "cannot start a worker thread");
        break;
      }
    }
  }
  for (int i = 0; i < started; i++) {
    pthread_join(tid[i], NULL);
    out->wins += ws[i].res.wins;
    out->draws += ws[i].res.draws;
    out->losses += ws[i].res.losses;
    out->forfeits += ws[i].res.forfeits;
    for (int k = 0; k < 5; k++) out->penta[k] += ws[i].res.penta[k];
    out->penta_wl += ws[i].res.penta_wl;
  }
  free(ws);
  free(tid);
  pthread_mutex_destroy(&sh.mu);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  if (atomic_load(&sh.failed)) {
    snprintf(err, errlen, "%s", sh.error);
    return -1;
  }
  return 0;
}
