/* pairs.h: game pairs between two players on the thread pool, without a database (tuning, validation). */
#ifndef OWARE_PAIRS_H
#define OWARE_PAIRS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/variant.h"
#include "players/player.h"

struct pairs_result;

/* What to play: `pairs` game pairs of A against B; each pair is one
 * opening (random legal moves from the seed) played twice, colours swapped. */
typedef struct pairs_job {
  const char *spec_a, *spec_b;
  /* Parameters set on each side's players after creation (player_set_params:
   * e.g. evaluation weights by name, eval_params); NULL / 0 for none. */
  const player_param *params_a;
  int nparams_a;
  const player_param *params_b;
  int nparams_b;
  variant v;
  int pairs;
  int first_pair;   /* pair numbers first_pair .. first_pair+pairs-1: they pick the openings and seeds */
  int threads;
  int opening_plies;
  uint64_t seed;
  /* Optional: after each pair delivered, the games done of the job's total
   * (for a progress line); on the caller's thread. */
  void (*progress)(void *ctx, long long done, long long total);
  void *progress_ctx;
  /* Optional: called after each whole pair, in pair order (so whatever the
   * threads), with the counts so far; returns 1 to end the job at that pair
   * (an SPRT decided), 0 to go on. Only the caller's process calls it. */
  int (*decide)(void *ctx, const struct pairs_result *so_far);
  void *decide_ctx;
} pairs_job;

/* Results from A's point of view. penta[k]: pairs in which A scored k/2
 * points (LL, LD, WL+DD, WD, WW). */
typedef struct pairs_result {
  long long wins, draws, losses;
  long long penta[5];
  long long penta_wl; /* of penta[2], the pairs of a win and a loss (the others: two draws) */
  long long forfeits; /* games ended by a forfeit (either side) */
  double seconds;
} pairs_result;

/* Plays the job. The result does not depend on the thread count, decide
 * included. *stop (may be NULL) ends it early: then only whole pairs are
 * counted. Returns 0, or
 * -1 with err (a player that cannot be made, out of memory). */
int pairs_play(const pairs_job *job, atomic_int *stop, pairs_result *out, char *err,
               size_t errlen);

/* The pairs schedule rebuilt in another process (the MPI backend). */
struct runner_kind;
extern const struct runner_kind pairs_schedule_kind;

#endif
