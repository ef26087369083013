/* spsa.h: simultaneous perturbation stochastic approximation, as fishtest runs it, over evaluation weights. */
#ifndef OWARE_SPSA_H
#define OWARE_SPSA_H

#include <stdint.h>

#include "players/eval.h"

/* One tuned parameter: a weight of the evaluation (or any number, for
 * tests), its bounds, and its final step c_end and learning rate r_end. */
typedef struct spsa_param {
  char name[32];
  int feature;   /* eval feature index, or -1 */
  double start, lo, hi;
  double c_end;  /* the perturbation at the last iteration */
  double r_end;  /* a_end / c_end^2 */
} spsa_param;

typedef struct spsa_config {
  int nparams;
  spsa_param p[EVAL_N];
  int iterations; /* N */
  double alpha;   /* 0.602 */
  double gamma;   /* 0.101 */
  double A;       /* 10% of N */
  uint64_t seed;
} spsa_config;

/* Fills cfg with fishtest's defaults for N iterations: alpha 0.602, gamma
 * 0.101, A = N/10; no parameters yet. */
void spsa_defaults(spsa_config *cfg, int iterations, uint64_t seed);

/* Adds evaluation feature f with the default step and rate from its range:
 * c_end = (hi - lo) / 20, r_end = 0.002 (fishtest's defaults). */
void spsa_add_feature(spsa_config *cfg, int f, double start);

/* The gain sequences at iteration k (0-based) for parameter i:
 * c_k = c / (k + 1)^gamma with c = c_end · N^gamma, and
 * a_k = a / (A + k + 1)^alpha with a = r_end · c_end^2 · (A + N)^alpha. */
double spsa_c(const spsa_config *cfg, int i, int k);
double spsa_a(const spsa_config *cfg, int i, int k);

/* The perturbation of iteration k: delta[i] = ±1 from the seed and k. */
void spsa_delta(const spsa_config *cfg, int k, int *delta);

/* theta ± c_k·delta, clamped to the bounds. */
void spsa_points(const spsa_config *cfg, int k, const double *theta, const int *delta,
                 double *plus, double *minus);

/* theta += a_k · result · delta / c_k, clamped; result is W − L of the plus
 * side over the iteration's games. */
void spsa_update(const spsa_config *cfg, int k, double *theta, const int *delta, double result);

#endif
