/* texel_run.c: a Texel run: the positions (self-play or a database), K, the fit, its row in the tuning table. */
#include "tuner/texel_run.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "tuner/db_games.h"
#include "tuner/tuning_store.h"

/* ---- Texel positions from the games of a database ---- */

typedef struct db_reader {
  texel_set *set;
  uint64_t seed;
  const variant *v;
} db_reader;

static int add_game(void *ctx, const board *start, const int *moves, int plies, int winner,
                    long long number) {
  db_reader *d = ctx;
  const variant *v = d->v;
  return texel_add_game(d->set, v, start, moves, plies, winner, 6, 1.0,
                        rng_mix(d->seed, (uint64_t)number)) < 0 ? -1 : 0;
}

int tuner_texel_from_db(const char *path, const variant *v, uint64_t seed, texel_set *set,
                        long long *games, long long *runs, char *err, size_t errlen) {
  db_reader d = {set, seed, v};
  char e[ERROR_MAX];
  if (tuner_db_games(path, v, add_game, &d, games, runs, e, sizeof e))
    return error_set(err, errlen, "--from-db %s", e), -1;
  if (!set->n) {
    char vname[160];
    variant_format(v, vname, sizeof vname);
    return error_set(err, errlen, "--from-db %s: no quiet position in %lld games of variant %s",
                    path, *games, vname),
           -1;
  }
  return 0;
}

/* The positions of a new fit: from the database or from self-play. */
static int positions(const tuner_texel_config *c, const tuner_observer *obs, texel_set *set,
                     char *err, size_t errlen) {
  if (c->from_db) {
    long long games, runs;
    if (tuner_texel_from_db(c->from_db, &c->v, c->seed, set, &games, &runs, err, errlen))
      return -1;
    tuner_report(obs, TUNER_LOG, "texel: %zu quiet positions from %lld games of %lld runs in %s",
                 set->n, games, runs, c->from_db);
    return 0;
  }
  tuner_report(obs, TUNER_LOG, "texel: %d self-play games of %s on %d threads", c->games,
               c->spec, c->threads);
  /* Positions of a game are kept with a probability that aims at M in all. */
  double keep = (double)c->positions / ((double)c->games * 40.0);
  if (keep > 1) keep = 1;
  tuner_games_relay relay = {obs, "self-play", 0, 0};
  return texel_selfplay(set, c->spec, &c->start, &c->v, c->games, c->threads, c->opening_plies,
                        keep, c->seed, tuner_games_relay_fn, &relay, err, errlen);
}

/* K, the fit and its row. */
static int fit(const tuner_texel_config *c, texel_set *set, store *db, int64_t run_id,
               const tuner_observer *obs, tuner_result *out, char *err, size_t errlen) {
  if (set->n > (size_t)c->positions) set->n = (size_t)c->positions;
  double K, mse;
  if (texel_fit_k(set, c->start.w, &K, err, errlen)) return -1;
  double mse0 = texel_mse(set, c->start.w, K);
  tuner_report(obs, TUNER_RESULT, "texel: %zu quiet positions, K = %.6g, error at the start %.6f",
               set->n, K, mse0);
  out->games = c->games;
  double wv[EVAL_N];
  for (int i = 0; i < EVAL_N; i++) wv[i] = c->start.w[i];
  if (texel_fit(set, K, wv, c->tuned, c->max_iter, NULL, NULL, &mse, err, errlen)) return -1;
  for (int i = 0; i < EVAL_N; i++) out->w.w[i] = wv[i];
  tuner_report(obs, TUNER_RESULT, "texel: error after the fit %.6f", mse);
  tuning_row row;
  memset(&row, 0, sizeof row);
  row.run_id = run_id;
  row.iteration = 0;
  snprintf(row.kind, sizeof row.kind, "texel");
  tuner_weights_text(&out->w, c->tuned, row.weights, sizeof row.weights);
  snprintf(row.step, sizeof row.step, "K %.6g positions %zu start_mse %.6f", K, set->n, mse0);
  row.value = mse;
  row.games = out->games;
  return tuning_store_insert(db, &row, err, errlen);
}

int tuner_texel_run(const tuner_texel_config *c, store *db, int64_t run_id,
                    const tuner_observer *obs, atomic_int *stop, tuner_result *out, char *err,
                    size_t errlen) {
  (void)stop;
  tuner_last last;
  if (tuner_resume_point(db, run_id, "texel", 1, &c->start, out, &last, err, errlen)) return -1;
  if (last.found) {
    out->complete = 1;
    tuner_report(obs, TUNER_RESULT,
                 "texel run %lld is already fitted; validating and writing the result",
                 (long long)run_id);
    return 0;
  }
  texel_set set = {0};
  int rc = positions(c, obs, &set, err, errlen);
  if (!rc) rc = fit(c, &set, db, run_id, obs, out, err, errlen);
  texel_free(&set);
  if (!rc) out->complete = 1;
  return rc;
}
