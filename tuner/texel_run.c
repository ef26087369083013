/* texel_run.c: a Texel run: the positions (self-play or a database), K, the fit, its row in the tuning table. */
#include "tuner/texel_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/rng.h"

/* ---- Texel positions from the games of a database ---- */

typedef struct db_reader {
  store *db;
  const variant *v;
  char vname[160];
  texel_set *set;
  long long games, runs;
  uint64_t seed;
  int failed;
  char err[512];
  const store_run *run; /* the run being read */
} db_reader;

static int read_game(void *ctx, const store_game *g) {
  db_reader *d = ctx;
  if (g->variant_idx < 0 || g->variant_idx >= d->run->nvariants ||
      strcmp(d->run->variant[g->variant_idx], d->vname))
    return 0; /* another variant */
  board start;
  if (notation_parse_position(g->opening, d->v, &start, d->err, sizeof d->err)) {
    d->failed = 1;
    return 1;
  }
  size_t n = strlen(g->moves);
  int *moves = malloc((n + 1) * sizeof *moves);
  if (!moves) {
    snprintf(d->err, sizeof d->err, "out of memory");
    d->failed = 1;
    return 1;
  }
  for (size_t i = 0; i < n; i++) moves[i] = notation_move_index(d->v, g->moves[i]);
  /* A forfeited game's outcome says nothing about its positions. */
  int rc = 0;
  if (g->end < MATCH_FORFEIT_TIMEOUT) {
    rc = texel_add_game(d->set, d->v, &start, moves, (int)n, g->winner, 6, 1.0,
                        rng_mix(d->seed, (uint64_t)d->games));
    d->games++;
  }
  free(moves);
  if (rc < 0) {
    snprintf(d->err, sizeof d->err, "out of memory");
    d->failed = 1;
    return 1;
  }
  return 0;
}

static int read_run(void *ctx, const store_run *r) {
  db_reader *d = ctx;
  d->run = r;
  d->runs++;
  if (store_games_foreach(d->db, r->id, read_game, d, d->err, sizeof d->err)) d->failed = 1;
  return d->failed;
}

int tuner_texel_from_db(const char *path, const variant *v, uint64_t seed, texel_set *set,
                        long long *games, long long *runs, char *err, size_t errlen) {
  db_reader d;
  memset(&d, 0, sizeof d);
  d.v = v;
  d.set = set;
  d.seed = seed;
  variant_format(v, d.vname, sizeof d.vname);
  if (store_open(path, 0, &d.db, d.err, sizeof d.err))
    return snprintf(err, errlen, "--from-db: %s", d.err), -1;
  int rc = store_runs_foreach(d.db, read_run, &d, d.err, sizeof d.err);
  store_close(d.db);
  if (rc || d.failed) return snprintf(err, errlen, "--from-db %s: %s", path, d.err), -1;
  *games = d.games;
  *runs = d.runs;
  if (!set->n)
    return snprintf(err, errlen, "--from-db %s: no quiet position in %lld games of variant %s",
                    path, d.games, d.vname),
           -1;
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
  store_tuning row;
  memset(&row, 0, sizeof row);
  row.run_id = run_id;
  row.iteration = 0;
  snprintf(row.kind, sizeof row.kind, "texel");
  tuner_weights_text(&out->w, c->tuned, row.weights, sizeof row.weights);
  snprintf(row.step, sizeof row.step, "K %.6g positions %zu start_mse %.6f", K, set->n, mse0);
  row.value = mse;
  row.games = out->games;
  return store_tuning_insert(db, &row, err, errlen);
}

int tuner_texel_run(const tuner_texel_config *c, store *db, int64_t run_id,
                    const tuner_observer *obs, atomic_int *stop, tuner_result *out, char *err,
                    size_t errlen) {
  (void)stop;
  tuner_last last;
  if (tuner_resume_point(db, run_id, &c->start, out, &last, err, errlen)) return -1;
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
