/* eval_ending.h: the evaluation's corrections in endings, by seeds on the board, fitted on the endgame tables (the table, its file, its use). */
#ifndef OWARE_EVAL_ENDING_H
#define OWARE_EVAL_ENDING_H

#include <stdio.h>

#include "core/variant.h"
#include "players/eval.h"

/* Ranges of seeds on the board a table may have. */
#define EVAL_ENDING_MAX 32

/* For positions whose seeds on the board fall in a range lo..hi, a
 * correction added to the evaluation (eval_dot of the weights): a constant
 * for the side to move (the tempo) plus a weight per feature. The store's
 * slot is always 0: seeds in the stores are already won, the weights count
 * them exactly. In centiseeds, like the weights. */
typedef struct eval_ending {
  int n;                              /* ranges */
  int lo[EVAL_ENDING_MAX], hi[EVAL_ENDING_MAX];
  int tempo[EVAL_ENDING_MAX];
  int w[EVAL_ENDING_MAX][EVAL_N];
  signed char at[VARIANT_MAX_TOTAL + 1]; /* the range of each seed count, or -1 */
} eval_ending;

/* The table the players use by default (docs/PLAYERS.md says how it was
 * fitted: `oware egdb fit` on abapa's tables to 20 seeds). */
void eval_ending_default(eval_ending *e);

/* Adds a range (in increasing order, not overlapping the ones before,
 * 1 <= lo <= hi <= VARIANT_MAX_TOTAL). 0, or -1 with err. */
int eval_ending_add(eval_ending *e, int lo, int hi, int tempo, const int w[EVAL_N], char *err,
                    size_t errlen);

/* Reads the file format (eval_ending_write): '#' comments, then one line a
 * range, "lo hi tempo" and a weight for each feature but the store, in
 * the order of eval_features. Errors name the line. 0, or -1 with err. */
int eval_ending_parse(const char *text, eval_ending *e, char *err, size_t errlen);
int eval_ending_load(const char *path, eval_ending *e, char *err, size_t errlen);

/* Writes the table in the file format, with a header naming the columns
 * and `comment` (may be NULL) as comment lines. 0, or -1 on a write error. */
int eval_ending_write(FILE *f, const eval_ending *e, const char *comment);

/* The correction for a position with n seeds on the board and features f
 * (eval_compute): 0 outside the table's ranges. */
static inline int eval_ending_value(const eval_ending *e, int n, const int f[EVAL_N]) {
  if (n < 0 || n > VARIANT_MAX_TOTAL || e->at[n] < 0) return 0;
  const int r = e->at[n];
  return e->tempo[r] + eval_dot(e->w[r], f);
}

#endif
