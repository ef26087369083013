/* texel.h: Texel tuning: a logistic fit of game outcomes on the evaluation features of quiet positions (GSL). */
#ifndef OWARE_TEXEL_H
#define OWARE_TEXEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "players/eval.h"

/* A position's features (side to move's view) and the game's outcome for
 * that side: 1 win, 0.5 draw, 0 loss. */
typedef struct texel_sample {
  int16_t f[EVAL_N];
  float y;
} texel_sample;

typedef struct texel_set {
  texel_sample *s;
  size_t n, cap;
} texel_set;

void texel_free(texel_set *set);

/* Adds the quiet positions of one finished game: after the first `skip`
 * plies, positions that are not over and where the side to move can capture
 * nothing, each kept with probability `keep` (from the rng seeded by
 * `seed`). winner: BOARD_SOUTH, BOARD_NORTH or GAME_DRAW. Returns the number
 * added, or -1 when memory runs out. */
int texel_add_game(texel_set *set, const variant *v, const board *start, const int *moves,
                   int plies, int winner, int skip, double keep, uint64_t seed);

/* Plays `games` games of spec against itself (weights w when not NULL) on
 * `threads` threads from random openings of opening_plies, and adds their
 * quiet positions. Deterministic for the seed, whatever the thread count.
 * progress (may be NULL) is told the games done of `games` as they finish.
 * Returns 0 or -1 with err. */
int texel_selfplay(texel_set *set, const char *spec, const eval_weights *w, const variant *v,
                   int games, int threads, int opening_plies, double keep, uint64_t seed,
                   void (*progress)(void *ctx, long long done, long long total),
                   void *progress_ctx, char *err, size_t errlen);

/* Mean squared error of sigmoid(K · w·f) against the outcomes. */
double texel_mse(const texel_set *set, const double *w, double K);

/* The K that minimises the error for weights w (GSL Brent). */
int texel_fit_k(const texel_set *set, const double *w, double *K, char *err, size_t errlen);

/* Called after each step of the weight fit. */
typedef void (*texel_step_fn)(void *ctx, int iteration, double mse, const double *w);

/* Minimises the error over the weights whose tune[i] is set (the others
 * stay), K fixed, with GSL's BFGS2 and the exact gradient; at most
 * max_iter steps. w holds the start and receives the result. */
int texel_fit(const texel_set *set, double K, double *w, const int *tune, int max_iter,
              texel_step_fn step, void *ctx, double *mse_out, char *err, size_t errlen);

/* The self-play schedule rebuilt in another process (the MPI backend). */
struct runner_kind;
extern const struct runner_kind texel_schedule_kind;

#endif
