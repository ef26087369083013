/* ending_fit.h: the evaluation's corrections in endings, fitted by least squares (GSL) on the endgame tables' values of the positions of real games. */
#ifndef OWARE_ENDING_FIT_H
#define OWARE_ENDING_FIT_H

#include <stddef.h>

#include "core/variant.h"
#include "players/eval.h"
#include "players/eval_ending.h"

typedef struct tuner_ending_config {
  const char *from_db;   /* the games */
  variant v;             /* their variant, and the tables' */
  const char *egdb_dir;  /* the tables */
  int seeds;             /* positions with 1..seeds on the board (-1: as far as the tables go) */
  int width;             /* seeds a range (the last range may be shorter) */
  eval_weights w;        /* the weights the corrections are added to */
  int cycle_label;       /* the value of a cycle-sensitive position (tuner_ending_label) */
} tuner_ending_config;

/* The value a cycle-sensitive position (lower < upper) is fitted to: the
 * mean of its bounds; what the game it comes from gave the side to move of
 * the seeds then on the board, under the game's own repetition rule (a
 * game that did not end in its moves: the mean); or the seeds on its own
 * row, what a repetition there would give it under cycle=own. The last two
 * are kept within the bounds. */
typedef enum { TUNER_ENDING_MEAN, TUNER_ENDING_GAME, TUNER_ENDING_ROW } tuner_ending_label;

/* What the fit found, range by range. */
typedef struct tuner_ending_range {
  long long positions;
  double cycle_share;      /* of positions the tables leave cycle-sensitive */
  double rmse0, rmse;      /* the evaluation's error before and after, centiseeds */
  double r2_0, r2;         /* the share of the values' variance it explains */
} tuner_ending_range;

typedef struct tuner_ending_result {
  eval_ending table;
  tuner_ending_range range[EVAL_ENDING_MAX];
  long long games, runs, positions;
  int seeds;               /* the seed count the fit went to */
} tuner_ending_result;

/* Replays every finished game of c->v in c->from_db; each position (not
 * over) with 1..seeds seeds on the board is looked up in the tables: its
 * value V (the mean of the lower and upper values) says the side to move
 * ends with 2V - n seeds more than its opponent from the board. The
 * evaluation's board part (the weights but the store's) is its estimate;
 * per range of seed counts, the correction (a tempo and a weight per
 * feature) is the least-squares fit of the difference (gsl_multifit_linear,
 * by SVD: a feature constant in a range gets 0). 0, or -1 with err (no
 * database or tables, no position covered, a range with fewer positions
 * than terms). */
int tuner_ending_fit(const tuner_ending_config *c, tuner_ending_result *r, char *err,
                     size_t errlen);

#endif
