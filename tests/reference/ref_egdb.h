/* ref_egdb.h: a plain endgame solver over the reference rules, by threshold attractors, an oracle for egdb/. */
#ifndef OWARE_REF_EGDB_H
#define OWARE_REF_EGDB_H

#include <stdint.h>

#include "tests/reference/ref_rules.h"

/* Values of a position from the mover's side: seeds of the board it ends
 * with when endless play gives it none (lo) or all (up) of them, and in
 * half seeds when endless play splits them evenly (sp2). */
typedef struct ref_egdb_value {
  int lo, up, sp2;
} ref_egdb_value;

/* The value of a position with n2 seeds reached by a capture: house counts
 * with the mover's row first. Returns 0, or -1 when unknown. */
typedef int (*ref_egdb_exit_fn)(void *ctx, const int *house, int n2, ref_egdb_value *out);

/* Positions of one seed count n: keys (house counts packed 5 bits each,
 * mover's row first), sorted, with their values once solved. */
typedef struct ref_egdb_set {
  int n;
  long count;
  uint64_t *key;
  ref_egdb_value *val;
} ref_egdb_set;

uint64_t ref_egdb_pack(const int *house, int pits);
void ref_egdb_unpack(uint64_t key, int pits, int *house);

/* Every position with n seeds (pits <= 12, n <= 31). Returns 0 or -1 (memory). */
int ref_egdb_all(const ref_variant *v, int n, ref_egdb_set *s);

/* The positions reachable from `house` (mover first) by moves that capture
 * nothing, at most max of them. Returns 0, or -1 when there are more or
 * memory runs out. */
int ref_egdb_closure(const ref_variant *v, const int *house, long max, ref_egdb_set *s);

/* Solves a set closed under non-capturing moves; exits (captures) are asked
 * of exit_fn. Returns 0, or -1 when an exit is unknown or memory runs out. */
int ref_egdb_solve(const ref_variant *v, ref_egdb_set *s, ref_egdb_exit_fn exit_fn, void *ctx);

/* The index of key in s, or -1. */
long ref_egdb_find(const ref_egdb_set *s, uint64_t key);

void ref_egdb_free(ref_egdb_set *s);

#endif
