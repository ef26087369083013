/* tune_run.h: a tuning run (SPSA or Texel) as the library plays it: its settings in one table, the run described for the store, loaded back and resumed. */
#ifndef OWARE_TUNE_RUN_H
#define OWARE_TUNE_RUN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "store/settings.h"
#include "store/store.h"
#include "core/variant.h"
#include "players/eval.h"
#include "players/level.h"
#include "tuner/tuning.h"
#include "tuner/validate.h"

/* What a tuning run is given. The fields from player to report are its
 * settings (tuner_tune_settings: the options of `oware tune`, kept in
 * run_config under the same names). */
typedef struct tuner_tune_config {
  int spsa; /* SPSA, else Texel: the run's kind */
  const char *player, *params, *start, *variant, *out, *from_db, *name, *validate_sprt;
  long long iterations, pairs, seed, validate, games, positions, max_iter, opening_plies;
  double c_end, r_end; /* > 0: SPSA's c_end and r_end of every weight */
  int quiet, report;   /* for the command line: kept with the run for its resume */
  long long threads;   /* the run's threads (its column, not a setting) */
  /* Set by tuner_tune_check: the player's name (its spec before its tables
   * were pinned), and where player and label point. */
  const char *label;
  char resolved[LEVEL_SPEC_MAX + 512], pinned[LEVEL_SPEC_MAX + 1024];
} tuner_tune_config;

/* The settings of a tuning run: key, type, field, default, help, range. */
extern const settings_key tuner_tune_settings[];

/* What the settings give: the variant, the start weights, the tuned ones. */
typedef struct tuner_tune_setup {
  variant v;
  eval_weights start;
  int tuned[EVAL_N];
} tuner_tune_setup;

/* The checks of the settings (a new run's, or a stored one's): a player is
 * given; a level is replaced by the spec it stands for (player and label
 * then point into c); the default folder's endgame tables are pinned into
 * the spec (players/tablebase.h: a stored spec is pinned already); an SPRT
 * of the validation parses (validate then defaults to 2000 pairs). 0, or
 * -1 with err. */
int tuner_tune_check(tuner_tune_config *c, char *err, size_t errlen);

/* The variant, start weights and tuned weights of c (tuner_weights_setup),
 * and that --from-db goes with Texel only. 0, or -1 with err. */
int tuner_tune_prepare(const tuner_tune_config *c, tuner_tune_setup *s, char *err,
                       size_t errlen);

/* Describes a new run of c in run (a zeroed store_run) for store_run_create:
 * kind, name, format, openings, threads, seed, the player and variant, the
 * settings, and command (the command line, a record for people; may be
 * NULL). 0, or -1 with err (out of memory). */
int tuner_tune_describe(const tuner_tune_config *c, const tuner_tune_setup *s,
                        const char *command, store_run *run, char *err, size_t errlen);

/* The configuration of a stored tuning run (store_run_load), checked
 * (tuner_tune_check): the texts point into run, which must outlive c. A run
 * of another kind, one that cannot be resumed, a setting missing, of
 * another type or out of range: -1 with err naming it. */
int tuner_tune_load(const store_run *run, tuner_tune_config *c, char *err, size_t errlen);

/* Plays what is left of run_id (tuner_spsa_run or tuner_texel_run). */
int tuner_tune_play(const tuner_tune_config *c, const tuner_tune_setup *s, store *db,
                    int64_t run_id, const tuner_observer *obs, atomic_int *stop,
                    tuner_result *res, char *err, size_t errlen);

/* The validation of the tuned weights w against the start (c->validate
 * pairs, or c->validate_sprt), stored with run_id (tuner_validate). */
int tuner_tune_validate(const tuner_tune_config *c, const tuner_tune_setup *s,
                        const eval_weights *w, store *db, int64_t run_id, long long games,
                        const tuner_observer *obs, atomic_int *stop, tuner_validation *val,
                        char *err, size_t errlen);

/* Resumes the stored run run_id from the store alone: its settings loaded,
 * its lock taken, marked running, played to its end (and validated when
 * its settings ask for it) unless *stop is set, marked finished or
 * interrupted, unlocked. *res as tuner_tune_play's (res->validated when the
 * validation is stored). Writes no weights file: res->w are the weights. 0,
 * or -1 with err (1 when another process holds the run's lock). */
int tuner_tune_resume(store *db, int64_t run_id, const tuner_observer *obs, atomic_int *stop,
                      tuner_result *res, char *err, size_t errlen);

#endif
