/* study_run.h: a variant study from its settings: the run's players, variants and shared openings, then its games and the study stored (report/study.h). */
#ifndef OWARE_STUDY_RUN_H
#define OWARE_STUDY_RUN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "store/settings.h"
#include "store/store.h"
#include "run/tournament.h"

/* What a variant study plays. players, variants, games, seed, openings and
 * name are its settings (study_settings: the options of `oware variants`),
 * kept in the run's columns, players and variants. */
typedef struct study_config {
  const char *players;   /* "SPEC;SPEC;..." (at least 2, distinct names) */
  const char *variants;  /* "V;V;..." (distinct) */
  long long games;       /* games a pairing and variant (even: game pairs) */
  int threads;
  long long seed;
  const char *openings;  /* "random:PLIES" (shared by every variant through a file next to
                            the database, when their boards are alike) or "file:PATH" */
  const char *name;      /* the run's name */
  const char *db_path;   /* the database: the openings file goes in its folder */
  const char *command;   /* the command line kept with the run, for people (may be NULL) */
} study_config;

extern const settings_key study_settings[];

/* Splits "a;b;c", blanks trimmed, empty items skipped, calling fn on each
 * until one returns non-zero (that value is returned; -1 when out of
 * memory). */
int study_split_list(const char *text, int (*fn)(void *ctx, const char *item), void *ctx);

/* Why study_prepare failed. */
#define STUDY_BAD_INPUT (-1) /* a player, variant or openings setting: nothing was written */
#define STUDY_FAILED (-2)    /* the openings file could not be written, out of memory */

/* Fills t->run from c (kind round-robin, format games:N, players with
 * their names, canonical variants) and, for random openings over variants
 * of one board, writes the shared openings file (one position per game
 * pair: variants-openings-pP-nN-sS-BOARD.txt) and makes the run read it;
 * then tournament_prepare. *note (may be NULL) gets a line for the user
 * when the variants must each play their own random openings (else "").
 * 0, or STUDY_BAD_INPUT / STUDY_FAILED with err. t is zeroed first; free it with
 * tournament_free whatever the return. */
int study_prepare(const study_config *c, tournament *t, char *note, size_t notelen, char *err,
                  size_t errlen);

/* Plays t's run (created in db: store_run_create) and, when it is
 * complete, computes the study (bootstrap resamples) and stores its
 * per-variant ratings, then the pooled ones as the run's latest fit, and
 * its metrics. 0 done, 1 stopped (resume with the tournament), -1 with
 * err. */
int study_play(tournament *t, store *db, int bootstrap, atomic_int *stop, char *err,
               size_t errlen);

/* Resumes the study run_id from the store alone (a run that study_play
 * left stopped): tournament_reopen (threads 0: the run's), study_play,
 * the lock released. A run that is finished already is left as it is
 * (`oware variants --run N` studies it). Returns as study_play (0 for a
 * finished run), or -1 with err. */
int study_resume(store *db, int64_t run_id, int threads, int bootstrap, atomic_int *stop,
                 tournament *t, char *err, size_t errlen);

#endif
