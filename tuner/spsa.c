/* spsa.c: the SPSA gain sequences, perturbations and updates (fishtest's formulas). */
#include "tuner/spsa.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/rng.h"

void spsa_defaults(spsa_config *cfg, int iterations, uint64_t seed) {
  memset(cfg, 0, sizeof *cfg);
  cfg->iterations = iterations;
  cfg->alpha = 0.602;
  cfg->gamma = 0.101;
  cfg->A = 0.1 * iterations;
  cfg->seed = seed;
}

void spsa_add_feature(spsa_config *cfg, int f, double start) {
  spsa_param *p = &cfg->p[cfg->nparams++];
  snprintf(p->name, sizeof p->name, "%s", eval_features[f].name);
  p->feature = f;
  p->start = start;
  p->lo = eval_features[f].lo;
  p->hi = eval_features[f].hi;
  p->c_end = (p->hi - p->lo) / 20;
  p->r_end = 0.002;
}

double spsa_c(const spsa_config *cfg, int i, int k) {
  double c = cfg->p[i].c_end * pow(cfg->iterations, cfg->gamma);
  return c / pow(k + 1, cfg->gamma);
}

double spsa_a(const spsa_config *cfg, int i, int k) {
  const spsa_param *p = &cfg->p[i];
  double a = p->r_end * p->c_end * p->c_end * pow(cfg->A + cfg->iterations, cfg->alpha);
  return a / pow(cfg->A + k + 1, cfg->alpha);
}

void spsa_delta(const spsa_config *cfg, int k, int *delta) {
  rng r;
  rng_seed(&r, rng_mix(rng_mix(cfg->seed, 0x73707361ULL), (uint64_t)k));
  for (int i = 0; i < cfg->nparams; i++) delta[i] = rng_next(&r) >> 63 ? 1 : -1;
}

static double clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

void spsa_points(const spsa_config *cfg, int k, const double *theta, const int *delta,
                 double *plus, double *minus) {
  for (int i = 0; i < cfg->nparams; i++) {
    double c = spsa_c(cfg, i, k);
    plus[i] = clamp(theta[i] + c * delta[i], cfg->p[i].lo, cfg->p[i].hi);
    minus[i] = clamp(theta[i] - c * delta[i], cfg->p[i].lo, cfg->p[i].hi);
  }
}

void spsa_update(const spsa_config *cfg, int k, double *theta, const int *delta, double result) {
  for (int i = 0; i < cfg->nparams; i++)
    theta[i] = clamp(theta[i] + spsa_a(cfg, i, k) * result * delta[i] / spsa_c(cfg, i, k),
                     cfg->p[i].lo, cfg->p[i].hi);
}
