/* calibrate_run.h: a calibration as a stored run: its settings in one table, checked into a tuner_calibrate_config, described for the store, its pairings kept as they finish, loaded back and resumed. */
#ifndef OWARE_CALIBRATE_RUN_H
#define OWARE_CALIBRATE_RUN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "store/settings.h"
#include "store/store.h"
#include "tuner/calibration.h"

/* What a calibration is given: its settings (tuner_calibrate_settings: the
 * options of `oware calibrate`, kept in run_config under the same names). */
typedef struct tuner_calibrate_options {
  const char *base, *knob, *range, *levels, *anchor, *variant, *openings, *pool, *out, *chart;
  long long games, max_games, ref_games, verify_games, seed, ladder, refine;
  double tolerance, se; /* se 0: calibrate_run's rule */
  int log_scale, quiet, json;
  long long threads; /* the run's threads (its column, not a setting) */
} tuner_calibrate_options;

/* The settings of a calibration: key, type, field, default, help, range. */
extern const settings_key tuner_calibrate_settings[];

/* A calibration's options and what they give. Large: allocate it. */
typedef struct tuner_calibrate_setup {
  tuner_calibrate_options o;
  tuner_calibrate_config c; /* by tuner_calibrate_check: points into this struct */
  char anchor_spec[CALIBRATE_SPEC_MAX];
  char pool_spec[CALIBRATE_MAX_REFS][CALIBRATE_SPEC_MAX]; /* levels resolved */
  const char *pool[CALIBRATE_MAX_REFS];
  char pool_text[CALIBRATE_MAX_REFS * (CALIBRATE_SPEC_MAX + 1)]; /* o.pool, resolved */
  store_run run; /* a loaded run (tuner_calibrate_load): o's texts point into it */
} tuner_calibrate_setup;

/* Checks s->o (a new calibration's, or a stored one's) and fills s->c: the
 * range, the knob (calibrate_check_knob), the levels, the anchor, the pool
 * (a level:NAME stands for its spec, and o.pool is set to the specs), the
 * variant and openings; max-games, ref-games and verify-games get their
 * defaults (8N, 2N, 2N) when 0. 0, or -1 with err naming the option
 * ("--range is '3:1'; expected LO < HI"). */
int tuner_calibrate_check(tuner_calibrate_setup *s, char *err, size_t errlen);

/* Describes a new calibration of s (checked) in run (a zeroed store_run)
 * for store_run_create: kind calibration, name, format, openings, threads,
 * seed, the anchor and pool as players, the variant, the settings, and
 * command (may be NULL). 0, or -1 with err (out of memory). */
int tuner_calibrate_describe(const tuner_calibrate_setup *s, const char *command, store_run *run,
                             char *err, size_t errlen);

/* Loads stored run run_id into s (zeroed, or freed with
 * tuner_calibrate_setup_free) and checks it: a run of another kind, a
 * setting missing or out of range: -1 with err naming it. */
int tuner_calibrate_load(store *db, int64_t run_id, tuner_calibrate_setup *s, char *err,
                         size_t errlen);
void tuner_calibrate_setup_free(tuner_calibrate_setup *s);

/* Plays the calibration of s as stored run run_id (whose lock the caller
 * holds): marked running, each pairing's result stored as it finishes
 * (table calibration_pairs, docs/SCHEMA.md) and those stored before
 * recalled instead of played, so that a stopped run goes on where it was
 * and ends as an uninterrupted one; then marked finished, or interrupted
 * (*stop) or failed. *out as tuner_calibrate's (free it with
 * tuner_calibration_free whatever the return). 0, or -1 with err. */
int tuner_calibrate_play(store *db, int64_t run_id, tuner_calibrate_setup *s,
                         const tuner_calibrate_observer *obs, atomic_int *stop,
                         tuner_calibration *out, char *err, size_t errlen);

/* Resumes stored calibration run_id from the store alone: loaded into s
 * (tuner_calibrate_load; threads > 0 replaces the run's thread count, which
 * the results do not depend on), its lock taken, played
 * (tuner_calibrate_play), unlocked. 0, or -1 with err (1 when another
 * process holds the run's lock). */
int tuner_calibrate_resume(store *db, int64_t run_id, int threads,
                           const tuner_calibrate_observer *obs, atomic_int *stop,
                           tuner_calibrate_setup *s, tuner_calibration *out, char *err,
                           size_t errlen);

/* The calibration's own table (calibration_pairs: each pairing's result as
 * it finishes), registered with the store by the programs that calibrate. */
extern const store_tables tuner_calibrate_tables;

#endif
