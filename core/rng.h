/* rng.h: the project's one random-number generator (xoshiro256**), seeded explicitly. */
#ifndef OWARE_RNG_H
#define OWARE_RNG_H

#include <stdint.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

typedef struct rng {
  uint64_t s[4];
} rng;

/* Seeds the generator from one 64-bit value (expanded with splitmix64). */
void rng_seed(rng *r, uint64_t seed);

/* Mixes several values into one seed: rng_mix(run_seed, game_id) etc. */
uint64_t rng_mix(uint64_t a, uint64_t b);

/* The next 64 random bits. */
static inline uint64_t rng_next(rng *r) {
  uint64_t *s = r->s;
  uint64_t x = s[1] * 5;
  uint64_t result = ((x << 7) | (x >> 57)) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = (s[3] << 45) | (s[3] >> 19);
  return result;
}

/* A uniform integer in 0..n-1 (n >= 1), without modulo bias (Lemire). */
static inline uint32_t rng_below(rng *r, uint32_t n) {
  uint64_t m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
  uint32_t l = (uint32_t)m;
  if (l < n) {
    uint32_t t = (uint32_t)(-n) % n;
    while (l < t) {
      m = (uint64_t)(uint32_t)(rng_next(r) >> 32) * n;
      l = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

/* One of the set bits of mask (not 0), uniformly at random: its index. */
static inline int rng_pick_bit(rng *r, uint32_t mask) {
  uint32_t k = rng_below(r, (uint32_t)__builtin_popcount(mask));
#ifdef __BMI2__
  return __builtin_ctz(_pdep_u32(1u << k, mask));
#else
  for (; k; k--) mask &= mask - 1;
  return __builtin_ctz(mask);
#endif
}

/* A uniform double in [0, 1). */
static inline double rng_double(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

#endif
