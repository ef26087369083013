/* pairs.c: game pairs between two players, as a schedule for the runner, summed into W/D/L and pentanomial counts. */
#include "run/pairs.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/match.h"
#include "run/runner.h"
#include "core/clock.h"
#include "core/rng.h"
#include "players/player.h"

typedef struct pairs_run {
  const pairs_job *job;
  pairs_result res;
  int points2, draws; /* A's points in the pair so far (half points), its draws */
} pairs_run;

static const char *slot_spec(void *ctx, int slot) {
  const pairs_job *job = ((pairs_run *)ctx)->job;
  return slot == 0 ? job->spec_a : job->spec_b;
}

static int slot_prepare(void *ctx, int slot, player *p, char *err, size_t errlen) {
  const pairs_job *job = ((pairs_run *)ctx)->job;
  const player_param *params = slot == 0 ? job->params_a : job->params_b;
  int n = slot == 0 ? job->nparams_a : job->nparams_b;
  if (player_set_params(p, params, n, err, errlen)) {
    return -1;
  }
  return 0;
}

/* Job j is pair first_pair + j: one opening (opening_plies random legal
 * moves from the seed and the pair's number), A south then B south. */
static int next_game(void *ctx, long long j, int k, const runner_outcome *prev, runner_game *g) {
  (void)prev;
  const pairs_job *job = ((pairs_run *)ctx)->job;
  if (k >= 2) return 0;
  uint64_t pair = (uint64_t)(job->first_pair + j);
  uint64_t os = rng_mix(rng_mix(job->seed, 0x706169727300ULL), pair);
  board_random_opening(&g->start, &job->v, job->opening_plies, os);
  g->game_no = k;
  g->south = k == 0 ? 0 : 1;
  g->north = 1 - g->south;
  g->variant_idx = 0;
  g->v = &job->v;
  g->seed = rng_mix(rng_mix(job->seed, 0x67616d6500ULL + pair), (uint64_t)k);
  return 1;
}

static int on_game(void *ctx, const runner_result *r, char *err, size_t errlen) {
  (void)err, (void)errlen;
  pairs_run *pr = ctx;
  int a_side = r->game.south == 0 ? BOARD_SOUTH : BOARD_NORTH;
  if (r->k == 0) pr->points2 = pr->draws = 0;
  if (outcome_is_forfeit(r->mr.end)) pr->res.forfeits++;
  if (r->mr.winner == GAME_DRAW) {
    pr->res.draws++;
    pr->draws++;
    pr->points2 += 1;
  } else if (r->mr.winner == a_side) {
    pr->res.wins++;
    pr->points2 += 2;
  } else {
    pr->res.losses++;
  }
  if (r->k == 1) {
    pr->res.penta[pr->points2]++;
    if (pr->points2 == 2 && pr->draws == 0) pr->res.penta_wl++;
    if (pr->job->decide && pr->job->decide(pr->job->decide_ctx, &pr->res)) return 1;
  }
  return 0;
}

static void on_progress(void *ctx, const runner_progress *p) {
  const pairs_job *job = ((pairs_run *)ctx)->job;
  job->progress(job->progress_ctx, p->games, 2LL * job->pairs);
}

static int pack_schedule(void *ctx, pack_buf *out, char *err, size_t errlen);

int pairs_play(const pairs_job *job, atomic_int *stop, pairs_result *out, char *err,
               size_t errlen) {
  double t0 = clock_now();
  pairs_run pr;
  memset(&pr, 0, sizeof pr);
  pr.job = job;
  runner_schedule s = {job->pairs > 0 ? job->pairs : 0, 2, &pr, slot_spec, slot_prepare, next_game,
                       pairs_schedule_kind.name, pack_schedule};
  runner_sink k = {&pr, on_game, NULL, job->progress ? on_progress : NULL};
  runner_config c = {job->threads < 1 ? 1 : job->threads, 0, stop, NULL};
  int rc = runner_run(&s, &k, &c, NULL, err, errlen);
  *out = pr.res;
  out->seconds = clock_now() - t0;
  return rc < 0 ? -1 : 0;
}

/* ---- The schedule in another process (run/runner_mpi.c) ---- */

static void pack_params(pack_buf *out, const player_param *p, int n) {
  pack_i64(out, p ? n : 0);
  for (int i = 0; p && i < n; i++) {
    pack_str(out, p[i].name);
    pack_f64(out, p[i].value);
  }
}

/* The job's specs, parameters (name, value), variant (canonical string),
 * pairs, seed. */
static int pack_schedule(void *ctx, pack_buf *out, char *err, size_t errlen) {
  const pairs_job *job = ((pairs_run *)ctx)->job;
  char vs[256];
  variant_format(&job->v, vs, sizeof vs);
  pack_str(out, job->spec_a);
  pack_str(out, job->spec_b);
  pack_params(out, job->params_a, job->nparams_a);
  pack_params(out, job->params_b, job->nparams_b);
  pack_str(out, vs);
  pack_i64(out, job->pairs);
  pack_i64(out, job->first_pair);
  pack_i64(out, job->opening_plies);
  pack_u64(out, job->seed);
  return pack_finish(out, err, errlen);
}

typedef struct remote_pairs {
  pairs_run pr;
  pairs_job job;
  player_param *params[2];
  int nparams[2];
  char *spec[2];
} remote_pairs;

static void release_schedule(runner_schedule *s) {
  remote_pairs *rp = s->ctx;
  if (!rp) return;
  for (int i = 0; i < 2; i++) {
    free(rp->spec[i]);
    for (int k = 0; rp->params[i] && k < rp->nparams[i]; k++) free((char *)rp->params[i][k].name);
    free(rp->params[i]);
  }
  free(rp);
  s->ctx = NULL;
}

static int unpack_schedule(pack_reader *in, runner_schedule *s, char *err, size_t errlen) {
  remote_pairs *rp = runner_schedule_ctx(s, sizeof *rp, err, errlen);
  if (!rp) return -1;
  rp->pr.job = &rp->job;
  char vs[256];
  for (int i = 0; i < 2; i++) rp->spec[i] = pack_get_strdup(in);
  for (int i = 0; i < 2 && !in->failed; i++) {
    int n = (int)pack_get_int(in, 0, 1 << 16);
    if (n && !in->failed) {
      rp->params[i] = calloc((size_t)n, sizeof *rp->params[i]);
      if (!rp->params[i]) in->failed = 1;
    }
    for (int k = 0; k < n && !in->failed; k++) {
      rp->params[i][k].name = pack_get_strdup(in);
      rp->params[i][k].value = pack_get_f64(in);
      rp->nparams[i] = k + 1;
    }
  }
  pack_get_str(in, vs, sizeof vs);
  rp->job.spec_a = rp->spec[0];
  rp->job.spec_b = rp->spec[1];
  rp->job.params_a = rp->params[0];
  rp->job.nparams_a = rp->nparams[0];
  rp->job.params_b = rp->params[1];
  rp->job.nparams_b = rp->nparams[1];
  rp->job.pairs = (int)pack_get_int(in, 0, 2147483647);
  rp->job.first_pair = (int)pack_get_int(in, 0, 2147483647);
  rp->job.opening_plies = (int)pack_get_int(in, 0, 1000);
  rp->job.seed = pack_get_u64(in);
  rp->job.threads = 1;
  if (in->failed) {
    error_set(err, errlen, "pairs: a schedule that does not read back (another oware version?)");
    release_schedule(s);
    return -1;
  }
  if (variant_parse(vs, &rp->job.v, err, errlen)) {
    release_schedule(s);
    return -1;
  }
  *s = (runner_schedule){rp->job.pairs, 2, rp, slot_spec, slot_prepare, next_game,
                         pairs_schedule_kind.name, pack_schedule};
  return 0;
}

const runner_kind pairs_schedule_kind = {"pairs", unpack_schedule, release_schedule};
