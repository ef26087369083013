/* texel_run.h: a Texel tuning run: quiet positions from self-play or a database, the fit, its row in the tuning table. */
#ifndef OWARE_TEXEL_RUN_H
#define OWARE_TEXEL_RUN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "core/variant.h"
#include "players/eval.h"
#include "tuner/texel.h"
#include "tuner/tuning.h"

typedef struct tuner_texel_config {
  const char *spec;        /* the minimax player (self-play) */
  variant v;
  eval_weights start;      /* the self-play weights and the fit's start */
  int tuned[EVAL_N];       /* the weights fitted (the others stay) */
  const char *from_db;     /* the games of this database instead of self-play (NULL: self-play) */
  int games;               /* self-play games */
  int positions;           /* quiet positions kept at most */
  int max_iter;            /* fit steps at most */
  int threads;
  int opening_plies;
  uint64_t seed;
} tuner_texel_config;

/* The quiet positions of every game of variant v in the database at path
 * (forfeits skipped), each kept (from seed and the game's number). *games
 * and *runs: what was read. 0, or -1 with err (no such database, no quiet
 * position in it). */
int tuner_texel_from_db(const char *path, const variant *v, uint64_t seed, texel_set *set,
                        long long *games, long long *runs, char *err, size_t errlen);

/* The run run_id of db: when it has a stored fit, *out is that fit (a run
 * fits once; nothing is played). Else the positions (from_db, or `games`
 * self-play games of spec with the start weights, positions of a game kept
 * with a probability aiming at `positions` in all), K, the fit, and its row
 * (kind "texel", iteration 0: the weights, "K .. positions .. start_mse ..",
 * the error after the fit). Lines through obs. *stop is not read: a fit
 * is one step. 0, or -1 with err. */
int tuner_texel_run(const tuner_texel_config *c, store *db, int64_t run_id,
                    const tuner_observer *obs, atomic_int *stop, tuner_result *out, char *err,
                    size_t errlen);

#endif
