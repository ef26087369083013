/* spsa_run.c: the SPSA iteration loop over game pairs, logged to the tuning table, resumable. */
#include "tuner/spsa_run.h"

#include <stdio.h>
#include <string.h>

#include "run/pairs.h"
#include "tuner/spsa.h"
#include "tuner/tuning_store.h"

/* Plays iteration k from theta (the tuned weights, map[j] their features)
 * and stores its row; theta and *w are updated. */
static int iteration(const tuner_spsa_config *c, const spsa_config *sc, const int *map, int k,
                     double *theta, eval_weights *w, long long *games, store *db, int64_t run_id,
                     const tuner_observer *obs, char *err, size_t errlen) {
  double plus[EVAL_N], minus[EVAL_N];
  int delta[EVAL_N];
  spsa_delta(sc, k, delta);
  spsa_points(sc, k, theta, delta, plus, minus);
  eval_weights wp = *w, wm = *w;
  for (int j = 0; j < sc->nparams; j++) wp.w[map[j]] = plus[j], wm.w[map[j]] = minus[j];
  /* Each iteration's openings and seeds come from (seed, k). */
  player_param pp[EVAL_N], pm[EVAL_N];
  eval_params(&wp, pp);
  eval_params(&wm, pm);
  tuner_games_relay relay = {obs, "spsa", *games, 2LL * c->pairs * sc->iterations};
  pairs_job job = {c->spec,     c->spec,         pp,      EVAL_N,
                   pm,          EVAL_N,          c->v,    c->pairs,
                   k * c->pairs, c->threads,     c->opening_plies, c->seed,
                   tuner_games_relay_fn, &relay, NULL, NULL};
  pairs_result res;
  if (pairs_play(&job, NULL, &res, err, errlen)) return -1;
  double result = (double)(res.wins - res.losses);
  tuning_row row;
  memset(&row, 0, sizeof row);
  row.run_id = run_id;
  row.iteration = k;
  snprintf(row.kind, sizeof row.kind, "spsa");
  size_t n = 0;
  for (int j = 0; j < sc->nparams && n < sizeof row.step; j++)
    n += (size_t)snprintf(row.step + n, sizeof row.step - n, "%s%s %.4f", j ? " " : "",
                          sc->p[j].name, spsa_c(sc, j, k));
  spsa_update(sc, k, theta, delta, result);
  for (int j = 0; j < sc->nparams; j++) w->w[map[j]] = theta[j];
  *games += res.wins + res.draws + res.losses;
  tuner_weights_text(w, c->tuned, row.weights, sizeof row.weights);
  row.wins = res.wins;
  row.draws = res.draws;
  row.losses = res.losses;
  row.value = result;
  row.games = *games;
  if (tuning_store_insert(db, &row, err, errlen)) return -1;
  tuner_iteration it = {k, sc->iterations, res.wins, res.draws, res.losses, *games};
  if (obs && obs->iteration) obs->iteration(obs->ctx, &it);
  return 0;
}

int tuner_spsa_run(const tuner_spsa_config *c, store *db, int64_t run_id,
                   const tuner_observer *obs, atomic_int *stop, tuner_result *out, char *err,
                   size_t errlen) {
  tuner_last last;
  if (tuner_resume_point(db, run_id, "spsa", c->iterations, &c->start, out, &last, err, errlen))
    return -1;
  spsa_config sc;
  spsa_defaults(&sc, c->iterations, c->seed);
  int map[EVAL_N];
  for (int i = 0; i < EVAL_N; i++)
    if (c->tuned[i]) {
      map[sc.nparams] = i;
      spsa_add_feature(&sc, i, out->w.w[i]);
      if (c->c_end > 0) sc.p[sc.nparams - 1].c_end = c->c_end;
      if (c->r_end > 0) sc.p[sc.nparams - 1].r_end = c->r_end;
    }
  double theta[EVAL_N];
  for (int j = 0; j < sc.nparams; j++) theta[j] = out->w.w[map[j]];
  int k = last.found ? last.row.iteration + 1 : 0;
  for (; k < sc.iterations && !(stop && atomic_load(stop)); k++)
    if (iteration(c, &sc, map, k, theta, &out->w, &out->games, db, run_id, obs, err, errlen))
      return -1;
  out->complete = k >= sc.iterations;
  return 0;
}
