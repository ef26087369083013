/* calibrate.h: difficulty calibration: the value of one player knob at which the player plays at each target Elo (docs/LEVELS.md). */
#ifndef OWARE_CALIBRATE_H
#define OWARE_CALIBRATE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/elo_fit.h"
#include "core/variant.h"
#include "run/pairs.h"

#define CALIBRATE_MAX_LEVELS 16
#define CALIBRATE_MAX_POINTS 256
#define CALIBRATE_MAX_REFS 24
#define CALIBRATE_SPEC_MAX 640

/* A difficulty level: its name and the Elo it should play at. */
typedef struct calibrate_level {
  char name[64];
  double target;
} calibrate_level;

/* One measured knob value. */
typedef struct calibrate_point {
  double knob;
  double elo, se;   /* Elo and its standard error, against the reference pool held fixed */
  long long games;  /* games behind it */
  int bounded;      /* only wins or only losses: elo is a bound held finite by a prior */
} calibrate_point;

/* Measures the player at knob value `knob` with at least `pairs` game pairs
 * against each reference (the search calls it again with more pairs to
 * refine the same knob value: an evaluator adds games to what it has).
 * Fills *pt (knob, elo, se, games, bounded). 0, or -1 with err. */
typedef int (*calibrate_eval_fn)(void *ctx, double knob, int pairs, calibrate_point *pt,
                                 char *err, size_t errlen);

/* What the search reports as it goes (may be NULL): what = "measure",
 * "level" … and the point concerned. */
typedef void (*calibrate_progress_fn)(void *ctx, const char *what, const calibrate_point *pt);

/* A line (printf) to progress (no point with it); nothing when progress is NULL. */
void calibrate_say(calibrate_progress_fn progress, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

typedef struct calibrate_config {
  double lo, hi;      /* the knob's range, lo < hi */
  int integer;        /* an integer knob: values step by 1 */
  int log_scale;      /* interpolate in log(knob) (needs lo > 0): playouts, nodes, movetime */
  double tol;         /* a real knob: the smallest bracket worth splitting; 0: (hi − lo) / 1000 */
  int nlevels;
  calibrate_level level[CALIBRATE_MAX_LEVELS];
  int pairs;          /* game pairs per reference for a first measurement (≥ 1) */
  int max_pairs;      /* at most this many per reference for one knob value (≥ pairs) */
  double se_target;   /* 0: the rule, min spacing of the targets / 4 (one level: tolerance / 2),
                         at least 5 */
  double tolerance;   /* a level is met when |Elo − target| ≤ max(2·SE, tolerance); 0: 50 */
  int max_evals;      /* knob values measured at most; 0: 64 */
  calibrate_eval_fn eval;
  void *ctx;
  calibrate_progress_fn progress;
  void *progress_ctx;
} calibrate_config;

typedef enum calibrate_status {
  CALIBRATE_OK,          /* a knob value within the tolerance of the target */
  CALIBRATE_COARSE,      /* inside the range, but between two integer steps: the closest
                            value is further than the tolerance */
  CALIBRATE_UNREACHABLE  /* beyond what the range reaches: the closest end is given */
} calibrate_status;

/* "ok", "coarse", "unreachable". */
const char *calibrate_status_name(calibrate_status s);

typedef struct calibrate_found {
  calibrate_level level;
  calibrate_status status;
  double knob;            /* the value chosen (the closest one found) */
  calibrate_point point;  /* its measurement */
  double fitted;          /* the monotone fit of all the points at knob */
} calibrate_found;

typedef struct calibrate_result {
  int direction;          /* +1: the strength rises with the knob, −1: it falls */
  double se_target;       /* the precision asked of every point */
  double tolerance;
  int capped;             /* points that reached max_pairs above se_target */
  int npoints;            /* measured knob values, by knob */
  calibrate_point point[CALIBRATE_MAX_POINTS];
  double fitted[CALIBRATE_MAX_POINTS]; /* their monotone (isotonic, 1/SE² weights) fit */
  int nlevels;            /* in the order of the config */
  calibrate_found found[CALIBRATE_MAX_LEVELS];
  long long games;        /* games of all the measurements */
  int searching;          /* while calibrate_run runs: the level being searched (config
                             order), -1 while the ends of the range are measured */
} calibrate_result;

/* Parses 'easy=E1;medium=E2;hard=E3' (names of letters, digits, '-', '_';
 * Elo numbers; at least one level; names and targets distinct). 0, or -1
 * with a message naming the bad part. */
int calibrate_parse_levels(const char *text, calibrate_level *out, int *n, char *err,
                           size_t errlen);

/* The search. First the two ends of the range are measured: their Elo gives
 * the direction (an error when they do not differ by more than twice the
 * standard error of the difference). Then for each level, the bracket of
 * measured knob values whose monotone fit straddles the target is split
 * at the point where the fit crosses the target (linear, or log-linear,
 * interpolation, kept in the middle half of the bracket) until the bracket
 * cannot be split (integer step, or tol) or the fitted Elo at its two ends
 * differs by no more than se_target (finer than one measurement resolves);
 * the value chosen is that crossing,
 * measured. Every knob value is measured with pairs pairs per reference,
 * doubled until its SE ≤ se_target or max_pairs. A target beyond what the
 * range reaches is CALIBRATE_UNREACHABLE with the closest end (not an
 * error). 0, or -1 with err (bad configuration, an evaluation failed, no
 * measurable effect of the knob). */
int calibrate_run(const calibrate_config *c, calibrate_result *r, char *err, size_t errlen);

/* ---- The real evaluator: games against a reference pool (run/pairs.h) ---- */

/* Checks that the player type of spec `base` has option `knob`, of type int
 * or real, that [lo, hi] is inside the option's range, and that base does
 * not set it already; *integer tells which. 0, or -1 with a message. */
int calibrate_check_knob(const char *base, const char *knob, double lo, double hi, int *integer,
                         char *err, size_t errlen);

/* "base:knob=value" or "base,knob=value"; an integer knob is rounded. */
void calibrate_spec(char *buf, size_t len, const char *base, const char *knob, double value,
                    int integer);

/* Parses "SPEC=ELO" (split at the last '='). 0, or -1 with a message. */
int calibrate_parse_anchor(const char *text, char *spec, size_t speclen, double *elo, char *err,
                           size_t errlen);

/* The pairings of a calibration kept as they finish, so that a stopped one
 * replays none of them (a stored calibration: tuner/calibrate_run.c). Every
 * pairing played (calibrate_play's round robins and measures) is step 0, 1,
 * 2... in the order the calibration plays them, which its results fix:
 * recall gives the result of step when it was played before (1), or 0 when
 * it was not; -1 with err when step was another pairing. record keeps the
 * result of a step just played: 0, or -1 with err. */
typedef struct calibrate_journal {
  int (*recall)(void *ctx, long long step, const pairs_job *job, pairs_result *res, char *err,
                size_t errlen);
  int (*record)(void *ctx, long long step, const pairs_job *job, const pairs_result *res,
                char *err, size_t errlen);
  void *ctx;
} calibrate_journal;

/* A round robin of n players (specs, with display names), each pairing
 * `pairs` game pairs, rated by Bradley–Terry with player `anchor` (an
 * index) fixed at anchor_elo. *out as rating_fit (free it with
 * rating_result_free); its players are in the given order. 0, or -1. */
typedef struct calibrate_play {
  variant v;
  int threads;
  int opening_plies;  /* random plies of each pair's opening */
  uint64_t seed;      /* of the openings and game seeds (common to every pairing) */
  atomic_int *stop;   /* may be NULL */
  calibrate_progress_fn progress; /* "pairing" lines (pt NULL), may be NULL */
  void *progress_ctx;
  long long games;    /* games played so far (added to) */
  /* Optional, for a progress line: as game pairs finish, the games played
   * so far, those of the pairing in progress included. */
  void (*played)(void *ctx, long long games);
  void *played_ctx;
  const calibrate_journal *journal; /* may be NULL */
  long long steps;                  /* pairings so far (recalled or played) */
} calibrate_play;

int calibrate_round_robin(calibrate_play *pl, const char *const *specs, const char *const *names,
                          int n, int pairs, int anchor, double anchor_elo, rating_result *out,
                          char *err, size_t errlen);

/* The evaluator of calibrate_run for real players: base+knob=value plays
 * game pairs against each reference (the anchor, any pool players, and a
 * ladder of base at a few knob values) whose Elo is fixed by a first round
 * robin; the candidate's Elo is the maximum-likelihood one against those
 * fixed Elos (draws half a point), its SE from the Fisher information. */
typedef struct calibrate_arena {
  calibrate_play play;
  char base[CALIBRATE_SPEC_MAX];
  char knob[32];
  int integer;
  int nrefs;          /* reference 0 is the anchor */
  char ref_spec[CALIBRATE_MAX_REFS][CALIBRATE_SPEC_MAX];
  char ref_name[CALIBRATE_MAX_REFS][RATING_NAME_MAX];
  double ref_elo[CALIBRATE_MAX_REFS], ref_lo[CALIBRATE_MAX_REFS], ref_hi[CALIBRATE_MAX_REFS];
  int ref_bounded[CALIBRATE_MAX_REFS];
  /* Games of every knob value measured so far, per reference. */
  int ncand;
  struct calibrate_cand {
    double knob;
    int pairs[CALIBRATE_MAX_REFS];
    long long wins[CALIBRATE_MAX_REFS], draws[CALIBRATE_MAX_REFS], losses[CALIBRATE_MAX_REFS];
  } cand[CALIBRATE_MAX_POINTS];
} calibrate_arena;

/* Fills the references (anchor spec first, then pool specs, then base at
 * `ladder` knob values evenly spread over [lo, hi], in log scale when
 * log_scale is set; duplicates dropped) and plays their round robin with
 * `pairs` pairs per pairing. 0, or -1 with err. */
int calibrate_arena_setup(calibrate_arena *a, const char *anchor_spec, double anchor_elo,
                          const char *const *pool, int npool, int ladder, double lo, double hi,
                          int log_scale, int pairs, char *err, size_t errlen);

/* calibrate_eval_fn for ctx = a calibrate_arena. */
int calibrate_arena_eval(void *ctx, double knob, int pairs, calibrate_point *pt, char *err,
                         size_t errlen);

/* The Elo of a player with points[j] out of games[j] against opponents of
 * fixed Elo elo[j] (j < n), by maximum likelihood; *se from the Fisher
 * information; one virtual draw against the opponents' mean holds a
 * player who only won or only lost finite (*bounded = 1). */
double calibrate_fixed_elo(const double *elo, const double *points, const long long *games, int n,
                           double *se, int *bounded);

#endif
