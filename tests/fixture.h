/* fixture.h: the set-up the cmocka tests share: a temporary folder made and removed, endgame tables built into one, files compared, random endings. */
#ifndef OWARE_TESTS_FIXTURE_H
#define OWARE_TESTS_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "core/board.h"
#include "core/rng.h"
#include "core/variant.h"
#include "egdb/egdb.h"

/* Makes a fresh folder /tmp/oware-test-NAME-XXXXXX, its path in dir[len].
 * Returns 0, or -1 when it cannot. */
static inline int fixture_mkdtemp(char *dir, size_t len, const char *name) {
  snprintf(dir, len, "/tmp/oware-test-%s-XXXXXX", name);
  return mkdtemp(dir) ? 0 : -1;
}

/* Removes the folder dir and all it holds. Returns 0, or -1 when it cannot. */
static inline int fixture_remove(const char *dir) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Builds the endgame tables of the variant `variant_text` up to `seeds`
 * seeds in dir on `threads` threads. Returns 0, or -1 after printing why. */
static inline int fixture_egdb(const char *variant_text, const char *dir, int seeds, int threads) {
  variant v;
  char err[512];
  if (variant_parse(variant_text, &v, err, sizeof err) ||
      egdb_build(&v, dir, seeds, threads, NULL, NULL, NULL, err, sizeof err)) {
    fprintf(stderr, "egdb build %s: %s\n", variant_text, err);
    return -1;
  }
  return 0;
}

/* Whether the files a and b are the same byte for byte (a missing file is
 * never the same). */
static inline int fixture_same_file(const char *a, const char *b) {
  FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
  int same = f && g;
  while (same) {
    int x = fgetc(f), y = fgetc(g);
    if (x != y) same = 0;
    if (x == EOF) break;
  }
  if (f) fclose(f);
  if (g) fclose(g);
  return same;
}

/* A random ending of the 6-house, 4-seed board v into b: 4 to 11 seeds on
 * the board, South's store 18..24 and North's what is left (at most half),
 * South to move, the game not over. Returns 0, or -1 when the draw is not
 * one (the caller draws again). */
static inline int fixture_random_ending(rng *r, const variant *v, board *b) {
  int pits[12] = {0}, stores[2];
  int left = 4 + (int)rng_below(r, 8);
  for (int t = 0; t < left; t++) pits[rng_below(r, 12)]++;
  stores[0] = 18 + (int)rng_below(r, 7);
  stores[1] = v->total - left - stores[0];
  if (stores[1] > v->half || stores[1] < 0) return -1;
  board_set(b, v, pits, stores, 0);
  uint32_t legal;
  return board_status(b, v, &legal) != BOARD_END_NONE ? -1 : 0;
}

#endif
