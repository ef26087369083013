/* eval.h: the linear evaluation: one feature list, the weights, the weights file. */
#ifndef OWARE_EVAL_H
#define OWARE_EVAL_H

#include <stddef.h>
#include <stdio.h>

#include "core/board.h"
#include "players/player.h"

/* The feature list, written once. Each feature is measured from the side to
 * move: X(ID, name, help, default weight, low, high). Weights are in
 * centiseeds (100 = one seed) per unit of the feature; low..high is the
 * range the tuner may explore. The defaults are a Texel fit on 3,000
 * self-play games of minimax depth 4 from the first hand-set weights, which
 * they beat by about 300 Elo (docs/TUNING.md). */
#define EVAL_FEATURES(X) \
  X(STORE, store, "seeds in the store, own minus opponent's", 109, 50, 200) \
  X(SEEDS, seeds, "seeds on the row, own minus opponent's", -1, -40, 40) \
  X(TARGETS, targets, "houses holding 1 or 2 seeds (targets), own minus opponent's", -35, -120, 60) \
  X(EMPTY, empty, "empty houses, own minus opponent's", -167, -300, 100) \
  X(KROO, kroo, "houses of 12 or more seeds (kroo), own minus opponent's", 360, -100, 600) \
  X(KROO_SEEDS, kroo_seeds, "seeds in kroo houses, own minus opponent's", -19, -40, 40) \
  X(MOBILITY, mobility, "houses that can reach the opponent's row, own minus opponent's", -118, -250, 100) \
  X(CAPTURE, capture, "most seeds the side to move can capture now", 60, 0, 120) \
  X(THREAT, threat, "most seeds the opponent could capture if it were to move", -60, -150, 0) \
  X(RIGHT, right, "seeds in the two rightmost houses, own minus opponent's", -9, -40, 40)

typedef enum {
#define EVAL_ENUM(id, name, help, def, lo, hi) EVAL_##id,
  EVAL_FEATURES(EVAL_ENUM)
#undef EVAL_ENUM
      EVAL_N
} eval_feature;

typedef struct eval_feature_info {
  const char *name;
  const char *help;
  double def, lo, hi;
} eval_feature_info;

/* Generated from EVAL_FEATURES. */
extern const eval_feature_info eval_features[EVAL_N];

typedef struct eval_weights {
  double w[EVAL_N];
} eval_weights;

void eval_default(eval_weights *w);

/* The weights as player parameters named after the features
 * (eval_features[i].name), in feature order: what player_set_params takes
 * to give a player (minimax, or a plug-in with the same names) these
 * weights. The names are static; out holds EVAL_N entries. */
void eval_params(const eval_weights *w, player_param out[EVAL_N]);

/* Index of the feature called name, or -1. */
int eval_find(const char *name);

/* The largest |weight| a weights file or a stored tuning row may give. */
#define EVAL_WEIGHT_MAX 1e6

/* Reads "name value" lines (# comments, blank lines allowed) over the
 * defaults. A value is a finite number, |x| <= EVAL_WEIGHT_MAX. Unknown names, bad numbers and repeated names are errors that
 * name the line. Returns 0 or -1 with err. */
int eval_load(const char *path, eval_weights *w, char *err, size_t errlen);
int eval_parse(const char *text, eval_weights *w, char *err, size_t errlen);

/* Writes the weights in the file format, with the help as comments. */
int eval_write(FILE *f, const eval_weights *w);

/* The feature values of b from the side to move's view. */
void eval_compute(const board *b, const variant *v, int f[EVAL_N]);

/* Σ w·f with integer weights (centiseeds). */
static inline int eval_dot(const int *w, const int *f) {
  int s = 0;
  for (int i = 0; i < EVAL_N; i++) s += w[i] * f[i];
  return s;
}

/* Most seeds side s could capture with one move of b (ignoring feeding;
 * a grand slam that would capture nothing counts nothing). */
int eval_best_capture(const board *b, const variant *v, int s);

/* Word-at-a-time helpers over a row word (board_row_word). */
#define EVAL_B01 0x0101010101010101ULL
#define EVAL_B80 0x8080808080808080ULL
/* High bit of each byte set where the byte is >= the byte of k (k bytes 1..127). */
static inline uint64_t eval_ge(uint64_t w, uint64_t k) {
  return ((((w | EVAL_B80) - k) | w) & EVAL_B80);
}
/* Sum of the bytes (the row sums stay below 256). */
static inline int eval_bytesum(uint64_t w) { return (int)((w * EVAL_B01) >> 56); }
/* The high bits of the bytes packed into the low 8 bits. */
static inline uint32_t eval_pack(uint64_t hi) {
  return (uint32_t)(((hi >> 7) * 0x0102040810204080ULL) >> 56);
}

/* Opponent houses (of side s's opponent) holding 1 or 2 seeds, as a bit
 * mask over house indices, and their seed total. */
static inline uint32_t eval_small_houses(const board *b, const variant *v, int s, int *opp) {
  uint64_t w = board_row_word(b, v, 1 - s);
  *opp = eval_bytesum(w);
  uint64_t small = eval_ge(w, EVAL_B01) & ~eval_ge(w, 3 * EVAL_B01);
  return eval_pack(small) << ((1 - s) * v->houses);
}

/* Seeds that house m (of the side to move) captures; cheap, without
 * playing the move unless it laps (board_capture_of: the capture and
 * grand-slam rules are core's). */
int eval_move_capture(const board *b, const variant *v, int m);

#endif
