/* pairs.c: game pairs between two players, as a schedule for the runner, summed into W/D/L and pentanomial counts. */
#include "arena/pairs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/match.h"
#include "arena/runner.h"
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
  if (r->mr.end >= MATCH_FORFEIT_TIMEOUT) pr->res.forfeits++;
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
  }
  return 0;
}

int pairs_play(const pairs_job *job, atomic_int *stop, pairs_result *out, char *err,
               size_t errlen) {
  double t0 = clock_now();
  pairs_run pr;
  memset(&pr, 0, sizeof pr);
  pr.job = job;
  runner_schedule s = {job->pairs > 0 ? job->pairs : 0, 2, &pr, slot_spec, slot_prepare, next_game};
  runner_sink k = {&pr, on_game, NULL, NULL};
  runner_config c = {job->threads < 1 ? 1 : job->threads, 0, stop, NULL};
  int rc = runner_run(&s, &k, &c, NULL, err, errlen);
  *out = pr.res;
  out->seconds = clock_now() - t0;
  return rc < 0 ? -1 : 0;
}
