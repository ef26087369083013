/* calibration.h: a whole difficulty calibration: the reference pool's round robin, the search on the knob, the verification round robin and its verdicts. */
#ifndef OWARE_CALIBRATION_H
#define OWARE_CALIBRATION_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/elo_fit.h"
#include "core/variant.h"
#include "tuner/calibrate.h"

/* Verification rounds at most: the first, and refinements. */
#define TUNER_CAL_MAX_ROUNDS 16

typedef struct tuner_calibrate_config {
  const char *base, *knob;     /* the player and its option (checked: calibrate_check_knob) */
  double lo, hi;               /* the knob's range */
  int log_scale;               /* a log-spaced ladder, log interpolation (lo > 0) */
  int nlevels;
  calibrate_level level[CALIBRATE_MAX_LEVELS];
  const char *anchor_spec;     /* the player whose Elo is fixed */
  double anchor_elo;
  const char *const *pool;     /* more reference players (npool of them) */
  int npool;
  int ladder;                  /* copies of base at knob values in the reference pool */
  long long games;             /* games a measure plays a reference (first measurement) */
  long long max_games;         /* at most, for one knob value and reference */
  long long ref_games;         /* games a pairing of the reference pool */
  long long verify_games;      /* games a pairing of the verification */
  double tolerance;            /* Elo a verified level may miss by (with 2 SE) */
  int refine;                  /* rounds of refinement after the verification (at most
                                  TUNER_CAL_MAX_ROUNDS - 1) */
  double se;                   /* the SE a measure needs; 0: calibrate_run's rule */
  variant v;
  int threads;
  int opening_plies;
  uint64_t seed;
  const calibrate_journal *journal; /* the pairings kept and recalled (may be NULL) */
} tuner_calibrate_config;

/* Where a calibration is, for a progress line. */
typedef enum tuner_calibrate_phase {
  TUNER_CAL_POOL,   /* the reference pool's round robin */
  TUNER_CAL_SEARCH, /* the search on the knob */
  TUNER_CAL_VERIFY, /* the verification round robin */
  TUNER_CAL_REFINE  /* a refinement's round robin */
} tuner_calibrate_phase;

typedef struct tuner_calibrate_games {
  tuner_calibrate_phase phase;
  const char *phase_name;  /* "reference pool", "search", "verification", "refinement" */
  const char *level;       /* in the search: the level being searched (NULL at the ends) */
  long long done;          /* games of the phase so far */
  long long total;         /* games of the phase when complete; 0 in the search (not known
                              ahead: it measures until the precision is reached) */
  int round;               /* in a refinement: which (1, 2...) */
} tuner_calibrate_games;

/* Callbacks as the calibration goes (each may be NULL), on the caller's
 * thread. progress gets the search's measures and levels (calibrate_run),
 * the round robins' pairings and a line when each phase starts (pt NULL:
 * what is the line). */
typedef struct tuner_calibrate_observer {
  void *ctx;
  calibrate_progress_fn progress;
  void (*pool_rated)(void *ctx, const calibrate_arena *a);     /* the references' Elos are fixed */
  void (*searched)(void *ctx, const calibrate_result *r);      /* the search is over */
  void (*games)(void *ctx, const tuner_calibrate_games *g);   /* as game pairs finish */
} tuner_calibrate_observer;

/* What a calibration found. */
typedef struct tuner_calibration {
  calibrate_arena *arena;      /* the reference pool and every measure (owned) */
  calibrate_result *search;    /* the search (owned) */
  rating_result verify;        /* the last verification round: anchor, pool, then the levels */
  int has_verify;
  long long verify_games;      /* games of the last verification round */
  /* Every verification round: the first, then one a refinement; each
   * level's knob in it, and the Elo and SE it was measured at. */
  int rounds;
  double round_knob[TUNER_CAL_MAX_ROUNDS][CALIBRATE_MAX_LEVELS];
  double round_elo[TUNER_CAL_MAX_ROUNDS][CALIBRATE_MAX_LEVELS];
  double round_se[TUNER_CAL_MAX_ROUNDS][CALIBRATE_MAX_LEVELS];
  double offset[CALIBRATE_MAX_LEVELS]; /* after refining: each level's pool offset (below) */
  int first_level;             /* the index of the first level in verify */
  char level_spec[CALIBRATE_MAX_LEVELS][CALIBRATE_SPEC_MAX]; /* base with the knob chosen */
  double level_knob[CALIBRATE_MAX_LEVELS]; /* the knob chosen: the search's, or the last
                                              refinement's */
  int order[CALIBRATE_MAX_LEVELS];  /* the levels by target */
  double tol[CALIBRATE_MAX_LEVELS]; /* max(2 SE, tolerance) */
  int within[CALIBRATE_MAX_LEVELS]; /* |verified Elo - target| <= tol */
  int ok[CALIBRATE_MAX_LEVELS];     /* within and found (CALIBRATE_OK) */
  int in_order;                /* the verified Elos are in the order of the targets */
  int all_ok;                  /* every level ok */
} tuner_calibration;

/* Rates the reference pool (anchor, pool, ladder) by a round robin, runs
 * the search (calibrate_run with the arena's evaluator), then the
 * verification round robin of the anchor, the pool and the levels found,
 * and judges each level.
 * With c->refine R, up to R refinements follow: a level's Elo among the
 * verification's players differs from the search's curve (its Elo against
 * the reference pool) by an offset, the pool's effect; each level's offset
 * is estimated from every round so far (the mean of measured minus curve at
 * its knob, weights 1/SE²), its knob moved to where the curve plus that
 * offset meets the target, and the round robin played again with a seed of
 * its own. Refining stops when no knob moves; the last round is judged. *stop (may be NULL) ends it early: an error.
 * *out is to be freed with tuner_calibration_free whatever the return.
 * 0, or -1 with err ("reference pool: ...", "verification: ..."). */
int tuner_calibrate(const tuner_calibrate_config *c, const tuner_calibrate_observer *obs,
                    atomic_int *stop, tuner_calibration *out, char *err, size_t errlen);
void tuner_calibration_free(tuner_calibration *out);

#endif
