/* tuning.h: what the tuning drivers share: their observer and result, the weights a run starts from, the rows of the tuning table. */
#ifndef OWARE_TUNING_H
#define OWARE_TUNING_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "players/eval.h"
#include "tuner/tuning_store.h"

/* What kind of line a driver reports. The library never prints: the
 * observer decides (the cli: TUNER_LOG on stderr unless --quiet,
 * TUNER_RESULT on stdout). */
typedef enum tuner_line {
  TUNER_LOG,   /* what is being done: "texel: 2000 self-play games of ..." */
  TUNER_RESULT /* a result: "texel: error after the fit 0.0958" */
} tuner_line;

/* One SPSA iteration, as it is stored (for a progress line). */
typedef struct tuner_iteration {
  int k;            /* 0-based */
  int iterations;   /* of the run */
  long long wins, draws, losses; /* of the plus side */
  long long games;  /* of the run so far */
} tuner_iteration;

/* Callbacks of a tuning driver, each may be NULL; called on the caller's
 * thread. text is valid during the call only. */
typedef struct tuner_observer {
  void *ctx;
  void (*line)(void *ctx, tuner_line kind, const char *text);
  void (*iteration)(void *ctx, const tuner_iteration *it);
  /* As games finish (for a progress line): what is being played ("spsa",
   * "validation", "self-play"), games done of total (the run's, resumed
   * ones included). */
  void (*games)(void *ctx, const char *what, long long done, long long total);
} tuner_observer;

/* Formats a line and hands it to obs->line (obs may be NULL). */
void tuner_report(const tuner_observer *obs, tuner_line kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Passes a game-pair job's progress (run/pairs.h, texel_selfplay) on to
 * obs->games as `before` + done of `total` (0: the job's total). The
 * relay is the hook's ctx; tuner_games_relay_fn the hook. */
typedef struct tuner_games_relay {
  const tuner_observer *obs;
  const char *what;
  long long before, total;
} tuner_games_relay;
void tuner_games_relay_fn(void *ctx, long long done, long long total);

/* What a tuning run (SPSA or Texel) ends with. */
typedef struct tuner_result {
  eval_weights w;   /* the tuned weights (all of them: the untuned ones as started) */
  long long games;  /* games the run has played, resumed ones included */
  int complete;     /* every iteration is stored (else it was stopped) */
  int resumed;      /* the run had stored iterations before this call */
  int validated;    /* the run has a stored validation row */
} tuner_result;

/* The weights a run starts from and which of them it tunes, from the
 * player's spec (a minimax player; its weights= file, else the defaults),
 * start (NULL, a weights file, or "equal:X": every weight X) and params
 * ("all" or "NAME,NAME,..."). 0, or -1 with a message naming the bad
 * part (bad input). */
int tuner_weights_setup(const char *spec, const char *start, const char *params, eval_weights *w,
                        int *tuned, char *err, size_t errlen);

/* "name value name value ..." of the weights whose tuned[i] is set (all
 * when tuned is NULL): how the tuning table keeps them. */
void tuner_weights_text(const eval_weights *w, const int *tuned, char *buf, size_t len);
/* Sets the weights named in such a text (the others stay). 0, or -1 with a
 * message naming the weight when it is malformed: an unknown or repeated
 * name, a name without a value, a value that is not a finite number within
 * |x| <= EVAL_WEIGHT_MAX (as a weights file; then *w is unchanged). */
int tuner_weights_parse(const char *text, eval_weights *w, char *err, size_t errlen);

/* The last stored iteration of a tuning run and whether it is validated. */
typedef struct tuner_last {
  int found;          /* an iteration is stored */
  tuning_row row;   /* the one of the highest number */
  int validated;      /* a validation row is stored */
} tuner_last;

/* Reads the tuning rows of run_id, each checked as input: the run's
 * iterations are of kind ("spsa" or "texel") and numbered 0, 1, ...
 * without a gap, below iterations (texel: 1); the validation is iteration
 * -1; wins, draws, losses and games are not negative; the weights and an
 * SPSA step read as tuner_weights_parse reads weights, a Texel step is
 * "K X positions N start_mse X". 0, or -1 with a message naming the run
 * and the row: "run 1 iteration 99: weight store 'inf' is not a number
 * (|x| <= 1e6)". */
int tuner_last_row(store *db, int64_t run_id, const char *kind, int iterations, tuner_last *out,
                   char *err, size_t errlen);

/* Where a tuning run starts: *out reset to the start weights, or, when the
 * run has stored iterations (a resume), to the last stored weights and
 * games; *last gets that row. The rows are checked as tuner_last_row does.
 * 0, or -1 with err. */
int tuner_resume_point(store *db, int64_t run_id, const char *kind, int iterations,
                       const eval_weights *start, tuner_result *out, tuner_last *last, char *err,
                       size_t errlen);

#endif
