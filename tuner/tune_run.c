/* tune_run.c: a tuning run's settings table, its description for the store, its load and resume. */
#include "tuner/tune_run.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "players/tablebase.h"
#include "stats/sprt.h"
#include "tuner/spsa_run.h"
#include "tuner/texel_run.h"

#define T tuner_tune_config
const settings_key tuner_tune_settings[] = {
    SETTINGS_K_TEXT("player", T, player, "SPEC", NULL, "the minimax player to tune",
                    SETTINGS_REQUIRED),
    SETTINGS_K_TEXT("params", T, params, "all|NAME,NAME...", "all", "the weights to tune", 0),
    SETTINGS_K_TEXT("start", T, start, "FILE|equal:X", NULL, "the start weights", 0),
    SETTINGS_K_INT("iterations", T, iterations, 1, 10000000, "N", "200", "spsa: iterations", 0),
    SETTINGS_K_INT("pairs", T, pairs, 1, 1000000, "K", "8", "spsa: game pairs an iteration", 0),
    SETTINGS_K_REAL("c-end", T, c_end, 0, 0, "X", NULL,
                    "spsa: the final perturbation, all weights", SETTINGS_POSITIVE),
    SETTINGS_K_REAL("r-end", T, r_end, 0, 0, "X", NULL, "spsa: the final step ratio, all weights",
                    SETTINGS_POSITIVE),
    SETTINGS_K_INT("games", T, games, 1, 100000000, "N", "2000", "texel: self-play games", 0),
    SETTINGS_K_TEXT("from-db", T, from_db, "PATH", NULL,
                    "texel: the games of a database instead of self-play", 0),
    SETTINGS_K_INT("positions", T, positions, 1, 100000000, "M", "200000",
                   "texel: quiet positions kept", 0),
    SETTINGS_K_INT("max-iter", T, max_iter, 1, 100000, "I", "200", "texel: fit steps", 0),
    SETTINGS_K_TEXT("variant", T, variant, "V", "abapa", "rule variant", 0),
    SETTINGS_K_INT("seed", T, seed, 0, LLONG_MAX, "S", "1", "the run's seed", 0),
    SETTINGS_K_INT("opening-plies", T, opening_plies, 0, 40, "P", "8",
                   "random plies of a pair's opening", 0),
    SETTINGS_K_TEXT("out", T, out, "WEIGHTS", NULL,
                    "the tuned weights file (default results/tuned-RUN.txt)", 0),
    SETTINGS_K_INT("validate", T, validate, 0, 10000000, "N", NULL,
                   "game pairs of the tuned weights against the start", 0),
    SETTINGS_K_TEXT("validate-sprt", T, validate_sprt, "SPRT", NULL,
                    "validate until the SPRT decides", 0),
    SETTINGS_K_TEXT("name", T, name, "NAME", NULL, "the run's name", 0),
    SETTINGS_K_FLAG("report", T, report, "write the run's report at the end"),
    SETTINGS_K_FLAG("quiet", T, quiet, "no progress on stderr"),
    SETTINGS_END,
};
#undef T

int tuner_tune_check(tuner_tune_config *c, char *err, size_t errlen) {
  if (!c->player) return error_set(err, errlen, "--player SPEC is needed (a minimax player)"), -1;
  char lerr[ERROR_MAX];
  /* A level is tuned and stored as the spec it stands for. */
  if (level_resolve(c->player, c->resolved, sizeof c->resolved, lerr, sizeof lerr))
    return error_set(err, errlen, "--player: %s", lerr), -1;
  c->player = c->label = c->resolved;
  variant v;
  if (!variant_parse(c->variant, &v, lerr, sizeof lerr)) {
    if (tablebase_pin_spec(c->player, &v, 1, c->pinned, sizeof c->pinned, lerr, sizeof lerr))
      return error_set(err, errlen, "--player: %s", lerr), -1;
    c->player = c->pinned;
  }
  if (c->validate_sprt) {
    rating_sprt sp;
    char e[ERROR_MAX];
    if (rating_sprt_parse(c->validate_sprt, &sp, e, sizeof e))
      return error_set(err, errlen, "--validate-sprt: %s", e), -1;
    if (!c->validate) c->validate = 2000;
  }
  return 0;
}

int tuner_tune_prepare(const tuner_tune_config *c, tuner_tune_setup *s, char *err,
                       size_t errlen) {
  memset(s, 0, sizeof *s);
  if (variant_parse(c->variant, &s->v, err, errlen) ||
      tuner_weights_setup(c->player, c->start, c->params, &s->start, s->tuned, err, errlen))
    return -1;
  if (c->from_db && c->spsa) return error_set(err, errlen, "--from-db goes with texel"), -1;
  if (c->from_db) { /* readable, and a database of ours, before a run is made of it */
    store *db;
    char e[ERROR_MAX];
    if (store_open_readonly(c->from_db, &db, e, sizeof e))
      return error_set(err, errlen, "--from-db %s", e), -1;
    store_close(db);
  }
  return 0;
}

int tuner_tune_describe(const tuner_tune_config *c, const tuner_tune_setup *s,
                        const char *command, store_run *run, char *err, size_t errlen) {
  char format[96], openings[32], vname[256];
  run->kind = c->spsa ? STORE_SPSA : STORE_TEXEL;
  if (c->spsa) snprintf(format, sizeof format, "iterations:%lld,pairs:%lld", c->iterations, c->pairs);
  else snprintf(format, sizeof format, "games:%lld,positions:%lld", c->games, c->positions);
  snprintf(openings, sizeof openings, "random:%lld", c->opening_plies);
  variant_format(&s->v, vname, sizeof vname);
  run->rounds = 1;
  run->threads = (int)c->threads;
  run->seed = (uint64_t)c->seed;
  if (store_run_set(&run->name, c->name ? c->name : c->spsa ? "spsa" : "texel") ||
      store_run_set(&run->format, format) || store_run_set(&run->openings, openings) ||
      store_run_set(&run->command, command ? command : "") ||
      store_run_add_player(run, c->label ? c->label : c->player, c->player) ||
      store_run_add_variant(run, vname))
    return error_set(err, errlen, "out of memory"), -1;
  return settings_save(tuner_tune_settings, c, run, err, errlen);
}

int tuner_tune_load(const store_run *run, tuner_tune_config *c, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  if (run->kind != STORE_SPSA && run->kind != STORE_TEXEL)
    return error_set(err, errlen, "run %lld is a %s, not a tuning run", (long long)run->id,
                     store_kind_name(run->kind)),
           -1;
  if (store_run_resumable(run, err, errlen) ||
      settings_load(tuner_tune_settings, run, c, err, errlen))
    return -1;
  c->spsa = run->kind == STORE_SPSA;
  c->threads = run->threads;
  return tuner_tune_check(c, err, errlen);
}

int tuner_tune_play(const tuner_tune_config *c, const tuner_tune_setup *s, store *db,
                    int64_t run_id, const tuner_observer *obs, atomic_int *stop,
                    tuner_result *res, char *err, size_t errlen) {
  if (c->spsa) {
    tuner_spsa_config sc = {c->player, s->v, s->start, {0}, (int)c->iterations, (int)c->pairs,
                            (int)c->threads, (int)c->opening_plies, (uint64_t)c->seed,
                            c->c_end, c->r_end};
    memcpy(sc.tuned, s->tuned, sizeof sc.tuned);
    return tuner_spsa_run(&sc, db, run_id, obs, stop, res, err, errlen);
  }
  tuner_texel_config tc = {c->player, s->v, s->start, {0}, c->from_db, (int)c->games,
                           (int)c->positions, (int)c->max_iter, (int)c->threads,
                           (int)c->opening_plies, (uint64_t)c->seed};
  memcpy(tc.tuned, s->tuned, sizeof tc.tuned);
  return tuner_texel_run(&tc, db, run_id, obs, stop, res, err, errlen);
}

int tuner_tune_validate(const tuner_tune_config *c, const tuner_tune_setup *s,
                        const eval_weights *w, store *db, int64_t run_id, long long games,
                        const tuner_observer *obs, atomic_int *stop, tuner_validation *val,
                        char *err, size_t errlen) {
  tuner_validate_config vc = {c->player, s->v, w, &s->start, (int)c->validate, c->validate_sprt,
                              (int)c->threads, (int)c->opening_plies, (uint64_t)c->seed};
  return tuner_validate(&vc, db, run_id, games, obs, stop, val, err, errlen);
}

/* The stored run played on, locked: running, played, validated, its status. */
static int resume_locked(store *db, const store_run *run, tuner_tune_config *c,
                         const tuner_observer *obs, atomic_int *stop, tuner_result *res,
                         char *err, size_t errlen) {
  tuner_tune_setup s;
  tuner_validation val;
  tuner_last last; /* the stored rows checked before the run is marked running */
  if (tuner_tune_load(run, c, err, errlen) || tuner_tune_prepare(c, &s, err, errlen) ||
      tuner_last_row(db, run->id, c->spsa ? "spsa" : "texel", c->spsa ? (int)c->iterations : 1,
                     &last, err, errlen) ||
      store_run_status(db, run->id, STORE_RUNNING, err, errlen) ||
      tuner_tune_play(c, &s, db, run->id, obs, stop, res, err, errlen))
    return -1;
  if (res->complete && c->validate > 0 && !res->validated && !(stop && atomic_load(stop))) {
    if (tuner_tune_validate(c, &s, &res->w, db, run->id, res->games, obs, stop, &val, err,
                            errlen))
      return -1;
    res->validated = 1;
  }
  return store_run_status(db, run->id, res->complete ? STORE_FINISHED : STORE_INTERRUPTED, err,
                          errlen);
}

int tuner_tune_resume(store *db, int64_t run_id, const tuner_observer *obs, atomic_int *stop,
                      tuner_result *res, char *err, size_t errlen) {
  store_run run;
  store_run_init(&run);
  tuner_tune_config *c = malloc(sizeof *c); /* large: its spec buffers */
  int rc = c ? store_run_load(db, run_id, &run, err, errlen)
             : (error_set(err, errlen, "out of memory"), -1);
  if (!rc) rc = store_run_lock(db, run_id, err, errlen);
  if (!rc) {
    char e[ERROR_MAX];
    rc = resume_locked(db, &run, c, obs, stop, res, err, errlen);
    store_run_unlock(db, run_id, e, sizeof e);
  }
  store_run_free(&run);
  free(c);
  return rc;
}
