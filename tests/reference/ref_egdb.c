/* ref_egdb.c: endgame values the slow, plain way: for each threshold, the set of positions where the mover can force reaching it. */
#include "tests/reference/ref_egdb.h"

#include <stdlib.h>
#include <string.h>

/*
 * Written apart from egdb/ and with another method. egdb/ iterates values
 * to a fixed point; here each value is read off boolean sets:
 *
 *   lo(P) >= k  iff the mover can force, in finitely many moves, a capture
 *               or a game end that is worth k or more to it;
 *   up(P)       is then the best move with the reply scored by lo;
 *   sp2(P) >= k for k above half  iff the mover can force such an end worth k;
 *   sp2(P) >= k for k up to half  iff some move leaves the opponent unable
 *               to force more than 2n - k.
 *
 * Each set is the least fixed point of "the mover has a move after which
 * every reply is good for it (or ends well)", grown sweep by sweep.
 */

uint64_t ref_egdb_pack(const int *house, int pits) {
  uint64_t k = 0;
  for (int i = 0; i < pits; i++) k = k << 5 | (uint64_t)house[i];
  return k;
}

void ref_egdb_unpack(uint64_t key, int pits, int *house) {
  for (int i = pits - 1; i >= 0; i--) {
    house[i] = (int)(key & 31);
    key >>= 5;
  }
}

static int cmp_key(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

long ref_egdb_find(const ref_egdb_set *s, uint64_t key) {
  long lo = 0, hi = s->count - 1;
  while (lo <= hi) {
    long mid = (lo + hi) / 2;
    if (s->key[mid] == key) return mid;
    if (s->key[mid] < key)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

void ref_egdb_free(ref_egdb_set *s) {
  free(s->key);
  free(s->val);
  memset(s, 0, sizeof *s);
}

/* Every composition of `left` seeds into houses i.. of h. */
static void compositions(int *h, int i, int pits, int left, uint64_t *out, long *count) {
  if (i == pits - 1) {
    h[i] = left;
    out[(*count)++] = ref_egdb_pack(h, pits);
    return;
  }
  for (int x = 0; x <= left; x++) {
    h[i] = x;
    compositions(h, i + 1, pits, left - x, out, count);
  }
}

int ref_egdb_all(const ref_variant *v, int n, ref_egdb_set *s) {
  const int pits = ref_pits(v);
  long total = 1; /* C(n + pits - 1, pits - 1) */
  for (int i = 1; i < pits; i++) total = total * (n + i) / i;
  memset(s, 0, sizeof *s);
  s->n = n;
  s->key = malloc((size_t)total * sizeof *s->key);
  if (!s->key) return -1;
  int h[REF_MAX_PITS];
  compositions(h, 0, pits, n, s->key, &s->count);
  qsort(s->key, (size_t)s->count, sizeof *s->key, cmp_key);
  return 0;
}

/* The position after mover's move, seen from the new mover (its row first). */
static void turn(const ref_variant *v, const ref_pos *after, int *house) {
  const int H = v->houses, P = ref_pits(v);
  for (int i = 0; i < P; i++) house[i] = after->house[(i + H) % P];
}

static void position(const ref_variant *v, const int *house, ref_pos *p) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < ref_pits(v); i++) p->house[i] = house[i];
  p->side = REF_SOUTH;
}

int ref_egdb_closure(const ref_variant *v, const int *house, long max, ref_egdb_set *s) {
  const int P = ref_pits(v);
  long cap = 1;
  while (cap < 2 * max) cap *= 2;
  uint64_t *table = calloc((size_t)cap, sizeof *table); /* key + 1, 0 = empty */
  uint64_t *list = malloc((size_t)max * sizeof *list);
  memset(s, 0, sizeof *s);
  if (!table || !list) {
    free(table);
    free(list);
    return -1;
  }
  int n = 0;
  for (int i = 0; i < P; i++) n += house[i];
  long count = 0, done = 0;
  int h[REF_MAX_PITS];
  uint64_t k0 = ref_egdb_pack(house, P);
#define ADD(key)                                                          \
  do {                                                                    \
    uint64_t k_ = (key), slot_ = (k_ * 0x9e3779b97f4a7c15ULL) >> 20;      \
    for (;; slot_++) {                                                    \
      slot_ &= (uint64_t)(cap - 1);                                       \
      if (table[slot_] == k_ + 1) break;                                  \
      if (!table[slot_]) {                                                \
        if (count == max) goto too_many;                                  \
        table[slot_] = k_ + 1;                                            \
        list[count++] = k_;                                               \
        break;                                                            \
      }                                                                   \
    }                                                                     \
  } while (0)
  ADD(k0);
  while (done < count) {
    ref_pos p;
    ref_egdb_unpack(list[done++], P, h);
    position(v, h, &p);
    uint32_t legal = ref_legal(&p, v);
    for (int m = 0; m < P; m++) {
      if (!(legal >> m & 1u)) continue;
      ref_pos c = p;
      ref_move_info info;
      ref_play_move(&c, v, m, &info);
      if (info.captured) continue;
      int q[REF_MAX_PITS];
      turn(v, &c, q);
      ADD(ref_egdb_pack(q, P));
    }
  }
#undef ADD
  free(table);
  qsort(list, (size_t)count, sizeof *list, cmp_key);
  s->n = n;
  s->count = count;
  s->key = list;
  return 0;
too_many:
  free(table);
  free(list);
  return -1;
}

/* One position's moves. */
typedef struct node {
  int terminal, own; /* no legal move; seeds on the mover's row */
  int moves;
  long child[REF_MAX_HOUSES];                       /* index, or -1 for a capture */
  int xl[REF_MAX_HOUSES], xu[REF_MAX_HOUSES], xs[REF_MAX_HOUSES]; /* a capture's worth */
} node;

/* Whether the mover at i reaches threshold k: some move that is an exit of
 * worth >= k, or after which the opponent cannot escape (every reply is an
 * exit worth at most `lim` to it, or lands in the set). xm: the mover's
 * exits, xo: the opponent's; mult 2 for half seeds. */
static int good(const node *g, const unsigned char *in, long i, int k, int lim, int use_split,
                int mult) {
  const node *a = &g[i];
  if (a->terminal) return mult * a->own >= k;
  for (int m = 0; m < a->moves; m++) {
    if (a->child[m] < 0) {
      if ((use_split ? a->xs[m] : a->xl[m]) >= k) return 1;
      continue;
    }
    const node *q = &g[a->child[m]];
    if (q->terminal) {
      if (mult * q->own <= lim) return 1;
      continue;
    }
    int all = 1;
    for (int r = 0; r < q->moves && all; r++) {
      if (q->child[r] < 0)
        all = (use_split ? q->xs[r] : q->xu[r]) <= lim;
      else
        all = in[q->child[r]];
    }
    if (all) return 1;
  }
  return 0;
}

/* The least set of positions that are good for threshold k. */
static void attractor(const node *g, long count, unsigned char *in, int k, int lim, int use_split,
                      int mult) {
  memset(in, 0, (size_t)count);
  for (int changed = 1; changed;) {
    changed = 0;
    for (long i = 0; i < count; i++)
      if (!in[i] && good(g, in, i, k, lim, use_split, mult)) in[i] = 1, changed = 1;
  }
}

int ref_egdb_solve(const ref_variant *v, ref_egdb_set *s, ref_egdb_exit_fn exit_fn, void *ctx) {
  const int P = ref_pits(v), H = v->houses, n = s->n;
  node *g = calloc((size_t)s->count, sizeof *g);
  unsigned char *in = malloc((size_t)s->count);
  int *hi = calloc((size_t)s->count, sizeof *hi);
  s->val = calloc((size_t)s->count, sizeof *s->val);
  if (!g || !in || !hi || !s->val) goto fail;
  for (long i = 0; i < s->count; i++) {
    int h[REF_MAX_PITS];
    ref_pos p;
    ref_egdb_unpack(s->key[i], P, h);
    position(v, h, &p);
    node *a = &g[i];
    for (int j = 0; j < H; j++) a->own += h[j];
    uint32_t legal = ref_legal(&p, v);
    a->terminal = legal == 0;
    for (int m = 0; m < P; m++) {
      if (!(legal >> m & 1u)) continue;
      ref_pos c = p;
      ref_move_info info;
      ref_play_move(&c, v, m, &info);
      int q[REF_MAX_PITS], k = a->moves++;
      turn(v, &c, q);
      if (!info.captured) {
        a->child[k] = ref_egdb_find(s, ref_egdb_pack(q, P));
        if (a->child[k] < 0) goto fail; /* the set is not closed */
        continue;
      }
      ref_egdb_value x;
      int n2 = n - info.captured;
      if (exit_fn(ctx, q, n2, &x)) goto fail;
      a->child[k] = -1;
      a->xl[k] = info.captured + n2 - x.up;
      a->xu[k] = info.captured + n2 - x.lo;
      a->xs[k] = 2 * info.captured + 2 * n2 - x.sp2;
    }
  }
  /* lo: thresholds 1..n. */
  for (int k = 1; k <= n; k++) {
    attractor(g, s->count, in, k, n - k, 0, 1);
    for (long i = 0; i < s->count; i++)
      if (in[i]) s->val[i].lo = k;
  }
  /* up: the best move, the reply scored by lo. */
  for (long i = 0; i < s->count; i++) {
    const node *a = &g[i];
    int best = a->terminal ? a->own : 0;
    for (int m = 0; m < a->moves; m++) {
      int x = a->child[m] < 0 ? a->xu[m] : n - s->val[a->child[m]].lo;
      if (x > best) best = x;
    }
    s->val[i].up = best;
  }
  /* sp2: thresholds above half (n half seeds) by sets, the rest from them. */
  for (int k = n + 1; k <= 2 * n; k++) {
    attractor(g, s->count, in, k, 2 * n - k, 1, 2);
    for (long i = 0; i < s->count; i++)
      if (in[i]) hi[i] = k;
  }
  for (long i = 0; i < s->count; i++) {
    const node *a = &g[i];
    if (hi[i]) {
      s->val[i].sp2 = hi[i];
      continue;
    }
    if (a->terminal) {
      s->val[i].sp2 = 2 * a->own;
      continue;
    }
    int best = 0;
    for (int m = 0; m < a->moves; m++) {
      int x;
      if (a->child[m] < 0) {
        x = a->xs[m];
      } else {
        const node *q = &g[a->child[m]];
        long c = a->child[m];
        /* The opponent forces at most hi(q) (or nothing above half). */
        x = q->terminal ? 2 * n - 2 * q->own : hi[c] ? 2 * n - hi[c] : n;
      }
      if (x > n) x = n; /* above half would have put i in a set */
      if (x > best) best = x;
    }
    s->val[i].sp2 = best;
  }
  free(g);
  free(in);
  free(hi);
  return 0;
fail:
  free(g);
  free(in);
  free(hi);
  return -1;
}
