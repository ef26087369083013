/* validate.c: tuned against start weights: fixed game pairs or an SPRT, stored as the run's validation row. */
#include "tuner/validate.h"
#include "core/error.h"

#include <stdio.h>
#include <string.h>

#include "run/pairs.h"
#include "core/rng.h"
#include "tuner/tuning_store.h"

static void add(rating_match *m, const pairs_result *part) {
  m->wins += part->wins;
  m->draws += part->draws;
  m->losses += part->losses;
  m->pairs_wl += part->penta_wl;
  for (int k = 0; k < 5; k++) m->penta[k] += part->penta[k];
}

/* pairs_job.decide: the SPRT on the pairs so far. */
static int sprt_decide(void *ctx, const pairs_result *so_far) {
  tuner_validation *val = ctx;
  memset(&val->m, 0, sizeof val->m);
  add(&val->m, so_far);
  val->sr = rating_sprt_test(&val->sprt, &val->m, 0);
  return val->sr.decision != 0;
}

static int store_row(const tuner_validation *val, const eval_weights *tuned, store *db,
                     int64_t run_id, long long games_so_far, char *err, size_t errlen) {
  tuning_row row;
  memset(&row, 0, sizeof row);
  row.run_id = run_id;
  row.iteration = -1;
  snprintf(row.kind, sizeof row.kind, "validation");
  tuner_weights_text(tuned, NULL, row.weights, sizeof row.weights);
  row.wins = val->m.wins;
  row.draws = val->m.draws;
  row.losses = val->m.losses;
  row.value = val->st.penta_elo;
  row.lo = val->st.penta_elo - val->st.penta_err;
  row.hi = val->st.penta_elo + val->st.penta_err;
  row.games = games_so_far + val->m.wins + val->m.draws + val->m.losses;
  return tuning_store_insert(db, &row, err, errlen);
}

int tuner_validate(const tuner_validate_config *c, store *db, int64_t run_id,
                   long long games_so_far, const tuner_observer *obs, atomic_int *stop,
                   tuner_validation *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  if (c->sprt) {
    char e[ERROR_MAX];
    if (rating_sprt_parse_stored(c->sprt, &out->sprt, e, sizeof e))
      return error_set(err, errlen, "--validate-sprt: %s", e), -1;
    out->has_sprt = 1;
    tuner_report(obs, TUNER_LOG, "validation: SPRT %s, at most %d game pairs, tuned against start",
                 c->sprt, c->pairs);
  } else {
    tuner_report(obs, TUNER_LOG, "validation: %d game pairs, tuned against start", c->pairs);
  }
  player_param pt[EVAL_N], ps[EVAL_N];
  eval_params(c->tuned, pt);
  eval_params(c->start, ps);
  tuner_games_relay relay = {obs, "validation", 0, 2LL * c->pairs};
  pairs_job job = {c->spec,    c->spec,    pt, EVAL_N, ps, EVAL_N, c->v, c->pairs, 0, c->threads,
                   c->opening_plies, rng_mix(c->seed, 0x76616c6964ULL), tuner_games_relay_fn,
                   &relay, NULL, NULL};
  /* With an SPRT the test is read after every pair, in pair order: it
   * decides at the same pair whatever the threads (and ranks). */
  if (c->sprt) {
    job.decide = sprt_decide;
    job.decide_ctx = out;
  }
  pairs_result res;
  if (pairs_play(&job, stop, &res, err, errlen)) return -1;
  memset(&out->m, 0, sizeof out->m);
  add(&out->m, &res);
  if (c->sprt) out->sr = rating_sprt_test(&out->sprt, &out->m, 0);
  rating_match_compute(&out->m, &out->st);
  return db ? store_row(out, c->tuned, db, run_id, games_so_far, err, errlen) : 0;
}
