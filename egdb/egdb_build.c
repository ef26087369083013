/* egdb_build.c: the retrograde build, one seed count after another, to the least fixed point (by counting, or by value iteration). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise and MADV_HUGEPAGE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/path.h"
#include "core/thread.h"
#include "egdb/egdb.h"
#include "egdb/egdb_file.h"

/*
 * The method (docs/EGDB.md has the long form). Positions with n seeds on the
 * board are indexed with the mover's row first. A move either captures and
 * leads to a table with fewer seeds, already built (its value is then known:
 * an "exit"), or does not and stays among the n-seed positions. Within one n:
 *
 *   lower(P) = max over moves of  captured + n' - upper(P')
 *   upper(P) = max over moves of  captured + n' - lower(P')
 *
 * (a position without a legal move is worth the mover's own row). Endless
 * play gives the lower-table mover nothing, so its value is the least fixed
 * point reached from the bottom, lower = 0 and upper = n: each evaluation can
 * only raise a lower and lower an upper, and the limit is what the mover can
 * force to happen in finite time. Sweeps are Gauss-Seidel over the index, any
 * order and any interleaving of threads giving the same (unique least) fixed
 * point, so the files do not depend on the thread count.
 *
 * cycle = split: the same iteration in half seeds with the exits taken from
 * the split tables below gives sl (endless = 0) and su (endless = all), and
 * the split value is the median of sl, n (half of n seeds, in half seeds)
 * and su: the mover gets more than half only if it can force an exit worth
 * that (sl), and at least k <= half unless the opponent can force an exit
 * that keeps it below k (su).
 *
 * Two layouts of the working memory (egdb_layout), the same fixed point.
 * Fast: per position the best of its exits and the number of its
 * non-capturing moves are stored by a first pass over the moves, and the
 * values are settled by counting, level by level from the highest (see
 * "settles by counting" below); nothing is evaluated twice. Lean: per
 * position only the value
 * bytes and a candidate flag are kept; evaluating a position plays its
 * moves (board_play) and reads its children's values, in this table or,
 * for a capture, in the finished smaller one. Both: when a value changes,
 * its non-capturing predecessors become candidates; they are found by
 * un-sowing, never stored: a move that
 * sows s seeds from house h without capturing adds a vector d(h, s) to the
 * board that depends on h and s only (and the lap rule), so a predecessor of
 * Q is Q - d(h, s) with s seeds put back in h, for every (h, s) that leaves
 * no house negative and matches what h holds after the sowing, kept when
 * h there is legal and captures nothing (board_quiet_move; it gives Q).
 *
 * Threads: thread_parallel_for (core/thread.h) over slices of the index,
 * 8 a thread, each taken by the next thread free. Lean: only a slice's
 * owner writes a value; fast: whoever claims a position's role (an atomic
 * or) writes its value. Values and flags shared by the threads are read and written with
 * relaxed atomic byte operations: values only move towards the fixed point,
 * so a stale read only delays it.
 */

typedef struct job job;

/* A position: its index (on a stack: index * 2 + role) and its counts. */
typedef struct pos {
  uint64_t i;
  uint8_t a[VARIANT_MAX_PITS];
} pos;

/* A worker's stack of settled positions whose predecessors are still to be
 * told. */
typedef struct work {
  pos *v;
  size_t len, cap;
} work;

/* One table being built. */
struct job {
  const variant *v;
  int n, H, P, split;
  uint64_t count;
  const egdb_level *below; /* levels 0 .. n-1 */
  int lean;      /* the layout: lean, or fast with ex and the counts */
  uint8_t *ex;   /* fast: exw per position, the best exits: lower, upper (, split) */
  int exw;
  uint8_t *lu;   /* 2 per position: lower, upper (one cache line for both) */
  uint8_t *ss;   /* split only, 2 per position: sl, su (half seeds) */
  uint8_t *cand; /* lean: to evaluate, a successor changed since; fast: the
                  * state of lower/upper (FIN_A, FIN_B, moves left << 2) */
  uint8_t *st2;  /* fast, split only: the state of sl/su */
  int level;     /* fast: the value being settled */
  work stack[64]; /* fast: each worker's positions settled, to propagate */
  int oom;       /* fast: a stack could not grow */
  /* d[h][s]: what sowing s seeds from the mover's house h adds to each house
   * (at h: what h holds after it, the seeds taken out not counted). */
  uint8_t d[VARIANT_MAX_PITS / 2][EGDB_MAX_SEEDS + 1][VARIANT_MAX_PITS];
  /* land[h][s]: the house the s-th seed sown from h lands in, the one
   * house where d(h, s) exceeds d(h, s - 1). */
  uint8_t land[VARIANT_MAX_PITS / 2][EGDB_MAX_SEEDS + 1];
};

typedef struct slice {
  job *j;
  uint64_t from, to;
  uint64_t changed;
  int mode; /* a phase_* */
} slice;

enum { PHASE_MOVES, PHASE_EVAL, PHASE_EVAL_BACK, PHASE_LEVEL, PHASE_LEVEL_SPLIT };

/* An array of len bytes for random access: anonymous memory (zeroed),
 * transparent huge pages asked for (fewer TLB misses); NULL when out of
 * memory. */
static uint8_t *big_alloc(size_t len) {
  void *p = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, len ? len : 1, MADV_HUGEPAGE); /* a hint: no error if refused */
#endif
  return p;
}

static void big_free(uint8_t *p, size_t len) {
  if (p) munmap(p, len ? len : 1);
}

static inline uint8_t ld(const uint8_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void st(uint8_t *p, uint8_t x) { __atomic_store_n(p, x, __ATOMIC_RELAXED); }

/* The next counts in index order (the colex successor of the bars). */
static inline void next_counts(uint8_t *a, int P) {
  int j = 0, s = a[0];
  while (j < P - 1 && a[j + 1] == 0) s += a[++j];
  if (j >= P - 1) return; /* the last position */
  for (int i = 0; i < j; i++) a[i] = 0;
  a[j] = (uint8_t)(s + 1);
  a[j + 1]--;
}

/* The sowing vectors d(h, s), by playing h with s seeds on a board whose
 * other houses hold 4 (no house ends with 2 or 3: nothing is captured),
 * and where each seed lands. Returns -1 if a capture happened all the same
 * or a seed did not land in one house. */
static int sowing_vectors(job *j) {
  const int P = j->P;
  for (int h = 0; h < j->H; h++)
    for (int s = 1; s <= j->n; s++) {
      int pits[VARIANT_MAX_PITS] = {0}, stores[2] = {0, 0};
      for (int p = 0; p < P; p++) pits[p] = p == h ? s : 4;
      board b;
      board_set(&b, j->v, pits, stores, BOARD_SOUTH);
      if (board_play(&b, j->v, h)) return -1;
      int landed = 0;
      for (int p = 0; p < P; p++) {
        j->d[h][s][p] = (uint8_t)(p == h ? b.pit[p] : b.pit[p] - 4);
        const int grew = j->d[h][s][p] - j->d[h][s - 1][p]; /* d[h][0] is 0 */
        if (grew == 1) j->land[h][s] = (uint8_t)p, landed++;
        else if (grew) return -1;
      }
      if (landed != 1) return -1;
    }
  return 0;
}

/* The most predecessors a position can have: one a house and seed count. */
#define MAX_PRED (VARIANT_MAX_PITS / 2 * EGDB_MAX_SEEDS)

/* The non-capturing predecessors of the position with counts q (its
 * mover's row first), one for each (position, move) pair; returns how
 * many. */
static int predecessors(const job *j, const uint8_t *q, pos *out) {
  const int H = j->H, P = j->P;
  int np = 0;
  uint8_t back[VARIANT_MAX_PITS]; /* q seen from the mover before the move */
  for (int p = 0; p < P; p++) back[p] = q[p < H ? p + H : p - H];
  for (int h = 0; h < H; h++) {
    /* d(h, s) grows with s one house at a time (where seed s lands): the
     * first s that needs more than that house holds ends the search for
     * this h, and only that house needs checking at each step. */
    for (int s = 1; s <= j->n; s++) {
      const uint8_t *d = j->d[h][s];
      const int l = j->land[h][s];
      if (d[l] > back[l]) break;
      if (d[h] != back[h]) continue;
      board b;
      memset(&b, 0, sizeof b);
      for (int p = 0; p < P; p++) b.pit[p] = (uint8_t)(p == h ? s : back[p] - d[p]);
      memcpy(out[np].a, b.pit, VARIANT_MAX_PITS);
      if (board_quiet_move(&b, j->v, h)) out[np].i = egdb_rank(out[np].a, P, j->n), np++;
    }
  }
  return np;
}

/* Lean layout: marks the non-capturing predecessors of the position with
 * counts q as candidates. */
static void mark_predecessors(job *j, const uint8_t *q) {
  pos pred[MAX_PRED];
  const int np = predecessors(j, q, pred);
  /* A store, not a load first: a miss need not stall the search. */
  for (int k = 0; k < np; k++) __atomic_store_n(&j->cand[pred[k].i], 1, __ATOMIC_RELEASE);
}

/* Fast layout: a position's moves played, its captures' smaller-table
 * indices fetched, their values not read yet. */
typedef struct moves {
  int k;       /* non-capturing moves */
  int nx;      /* captures */
  int row;     /* no legal move: the mover's row, else -1 */
  uint8_t cap[VARIANT_MAX_PITS / 2];
  uint64_t r[VARIANT_MAX_PITS / 2];
} moves;

/* Plays the moves of the position with counts a into m and fetches the
 * smaller tables' values of its captures. */
static void play_moves(const job *j, const uint8_t *a, moves *m) {
  const int H = j->H, P = j->P, n = j->n;
  board b;
  memset(&b, 0, sizeof b);
  memcpy(b.pit, a, VARIANT_MAX_PITS);
  const uint32_t legal = board_legal(&b, j->v);
  m->k = m->nx = 0;
  m->row = -1;
  if (!legal) {
    m->row = 0;
    for (int h = 0; h < H; h++) m->row += a[h];
  }
  for (uint32_t l = legal; l; l &= l - 1) {
    board c = b;
    const int cap = board_play(&c, j->v, __builtin_ctz(l));
    if (!cap) {
      m->k++;
      continue;
    }
    uint8_t q[VARIANT_MAX_PITS];
    memcpy(q, c.pit + H, VARIANT_MAX_PITS / 2);
    memcpy(q + H, c.pit, VARIANT_MAX_PITS / 2);
    const uint64_t r = egdb_rank(q, P, n - cap);
    const egdb_level *lv = &j->below[n - cap];
    __builtin_prefetch(lv->t[0] + r);
    __builtin_prefetch(lv->t[1] + r);
    if (j->split) __builtin_prefetch(lv->t[2] + r);
    m->cap[m->nx] = (uint8_t)cap;
    m->r[m->nx++] = r;
  }
}

/* Stores position i's best exits (from m) and the number of its
 * non-capturing moves (in the state bytes), and starts its values at what
 * a position left unsettled is worth: lower 0, upper all. */
static void store_moves(job *j, uint64_t i, const moves *m) {
  const int n = j->n;
  int el = m->row > 0 ? m->row : 0, eu = el, es = 2 * el;
  for (int e = 0; e < m->nx; e++) {
    const int cap = m->cap[e], n2 = n - cap;
    const egdb_level *lv = &j->below[n2];
    int x = cap + n2 - lv->t[1][m->r[e]];
    if (x > el) el = x;
    x = cap + n2 - lv->t[0][m->r[e]];
    if (x > eu) eu = x;
    if (j->split) {
      x = 2 * cap + 2 * n2 - lv->t[2][m->r[e]];
      if (x > es) es = x;
    }
  }
  uint8_t *ex = j->ex + (uint64_t)j->exw * i;
  ex[0] = (uint8_t)el;
  ex[1] = (uint8_t)eu;
  j->lu[2 * i] = 0;
  j->lu[2 * i + 1] = (uint8_t)n;
  j->cand[i] = (uint8_t)(m->k << 2);
  if (j->split) {
    ex[2] = (uint8_t)es;
    j->ss[2 * i] = 0;
    j->ss[2 * i + 1] = (uint8_t)(2 * n);
    j->st2[i] = (uint8_t)(m->k << 2);
  }
}

/* Positions whose moves are played before the first of them is stored, so
 * that the smaller tables' cache misses overlap. */
#define GEN_BATCH 16

/* Fast layout: plays the moves of positions from..to-1 and stores them
 * (store_moves), GEN_BATCH at a time. */
static void gen_moves(job *j, uint64_t from, uint64_t to) {
  uint8_t a[VARIANT_MAX_PITS] = {0};
  moves m[GEN_BATCH];
  if (from >= to) return;
  egdb_unrank(from, j->P, j->n, a);
  for (uint64_t i = from; i < to; i += GEN_BATCH) {
    const int nb = to - i < GEN_BATCH ? (int)(to - i) : GEN_BATCH;
    for (int b = 0; b < nb; b++, next_counts(a, j->P)) play_moves(j, a, &m[b]);
    for (int b = 0; b < nb; b++) store_moves(j, i + b, &m[b]);
  }
}

/* Lean layout: re-evaluates position i (counts a) from its moves, the children's values
 * as they are now (Gauss-Seidel); returns whether a value changed. The
 * moves are played first and their children's values fetched ahead, so
 * that the cache misses of the reads overlap. */
static int evaluate_lean(job *j, uint64_t i, const uint8_t *a) {
  const variant *v = j->v;
  const int H = j->H, P = j->P, n = j->n;
  uint8_t *lu = j->lu + 2 * i, *ss = j->split ? j->ss + 2 * i : NULL;
  const int l0 = ld(&lu[0]), u0 = ld(&lu[1]);
  const int s0 = ss ? ld(&ss[0]) : 0, t0 = ss ? ld(&ss[1]) : 0;
  board b;
  memset(&b, 0, sizeof b);
  memcpy(b.pit, a, VARIANT_MAX_PITS);
  const uint32_t legal = board_legal(&b, v);
  int l = 0, u = 0, s = 0, t = 0, k = 0;
  if (!legal) {
    for (int h = 0; h < H; h++) l += a[h];
    u = l;
    s = t = 2 * l;
  }
  uint64_t r[VARIANT_MAX_PITS / 2];
  int cap[VARIANT_MAX_PITS / 2];
  for (uint32_t m = legal; m; m &= m - 1, k++) {
    board c = b;
    cap[k] = board_play(&c, v, __builtin_ctz(m));
    uint8_t q[VARIANT_MAX_PITS];
    memcpy(q, c.pit + H, VARIANT_MAX_PITS / 2);
    memcpy(q + H, c.pit, VARIANT_MAX_PITS / 2);
    r[k] = egdb_rank(q, P, n - cap[k]);
    if (cap[k]) {
      const egdb_level *lv = &j->below[n - cap[k]];
      __builtin_prefetch(lv->t[0] + r[k]);
      __builtin_prefetch(lv->t[1] + r[k]);
      if (ss) __builtin_prefetch(lv->t[2] + r[k]);
    } else {
      __builtin_prefetch(j->lu + 2 * r[k]);
      if (ss) __builtin_prefetch(j->ss + 2 * r[k]);
    }
  }
  for (int e = 0; e < k; e++) {
    const int n2 = n - cap[e];
    int xl, xu, xs = 0, xt = 0;
    if (cap[e]) { /* an exit: the smaller table is finished */
      const egdb_level *lv = &j->below[n2];
      xl = cap[e] + n2 - lv->t[1][r[e]];
      xu = cap[e] + n2 - lv->t[0][r[e]];
      if (ss) xs = xt = 2 * cap[e] + 2 * n2 - lv->t[2][r[e]];
    } else {
      xl = n - ld(&j->lu[2 * r[e] + 1]);
      xu = n - ld(&j->lu[2 * r[e]]);
      if (ss) xs = 2 * n - ld(&j->ss[2 * r[e] + 1]), xt = 2 * n - ld(&j->ss[2 * r[e]]);
    }
    if (xl > l) l = xl;
    if (xu > u) u = xu;
    if (xs > s) s = xs;
    if (xt > t) t = xt;
  }
  int changed = 0;
  if (l > l0) st(&lu[0], (uint8_t)l), changed = 1;
  if (u < u0) st(&lu[1], (uint8_t)u), changed = 1;
  if (ss) {
    if (s > s0) st(&ss[0], (uint8_t)s), changed = 1;
    if (t < t0) st(&ss[1], (uint8_t)t), changed = 1;
  }
  return changed;
}

/* Whether position i's values are final: each pair of bounds has met. */
static inline int settled(const job *j, uint64_t i) {
  return ld(&j->lu[2 * i]) == ld(&j->lu[2 * i + 1]) &&
         (!j->split || ld(&j->ss[2 * i]) == ld(&j->ss[2 * i + 1]));
}

/* Whether the 8 flags from i (a multiple of 8) are all clear (read as one
 * relaxed word; a flag set meanwhile is seen in the next pass). */
static inline int clear8(uint8_t *f, uint64_t i, uint64_t from, uint64_t to) {
  if (i < from || i + 8 > to) return 0;
  return __atomic_load_n((uint64_t *)(void *)(f + i), __ATOMIC_RELAXED) == 0;
}

/* The counts of position i into a, which holds those of position *at
 * (UINT64_MAX: none yet): a few steps on cost less than unranking. */
static inline void counts_at(const job *j, uint64_t i, uint64_t *at, uint8_t *a) {
  if (*at != UINT64_MAX && i > *at && i - *at <= 8)
    for (uint64_t x = *at; x < i; x++) next_counts(a, j->P);
  else
    egdb_unrank(i, j->P, j->n, a);
  *at = i;
}

/* Lean layout: one pass over from..to (forwards or backwards): evaluates
 * the candidates. A position that changes makes its predecessors
 * candidates at once: those further along in this pass's order are
 * evaluated in this pass. The owner takes a candidate with an exchange, so
 * that a mark made while it evaluates is never lost. */
static uint64_t phase(job *j, int mode, uint64_t from, uint64_t to) {
  uint64_t changed = 0, at = UINT64_MAX; /* a holds the counts of position at */
  uint8_t a[VARIANT_MAX_PITS] = {0};
  for (uint64_t k = from; k < to; k++) {
    uint64_t i = mode == PHASE_EVAL ? k : from + to - 1 - k;
    if ((i & 7) == (mode == PHASE_EVAL ? 0 : 7) && clear8(j->cand, i & ~(uint64_t)7, from, to)) {
      k += 7;
      continue;
    }
    if (!ld(&j->cand[i]) || !__atomic_exchange_n(&j->cand[i], 0, __ATOMIC_ACQUIRE)) continue;
    if (settled(j, i)) continue;
    counts_at(j, i, &at, a);
    if (!evaluate_lean(j, i, a)) continue;
    changed++;
    mark_predecessors(j, a);
  }
  return changed;
}

/* Fast layout: the values settled by counting, one level at a time (a
 * Dijkstra over the values, highest first), instead of re-evaluating.
 *
 * Lower and upper are one game seen from its first mover A, for whom
 * endless play is worth nothing: at A's turn (role A, position P) A gets
 * lower(P); at the opponent's (role B) A gets n - upper(P). Role A is worth
 * the most of its best exit and its successors' role B; role B the least of
 * its worst exit (n - the stored best upper exit) and its successors' role
 * A; what never settles is worth 0 to A. Settling the values from the
 * highest level k down: a role-A position settles at k when its best exit
 * is k or its first successor settles (at k, the highest left); a role-B
 * position when all its non-capturing successors have settled (a count that
 * falls to 0: the last at k) and its worst exit is at least k, else at its
 * worst exit. Each position is settled once a role, and tells its
 * predecessors once (un-sowing). The split game (sl, su) is the same in half
 * seeds, its exits both the split value below. */
#define FIN_A 1
#define FIN_B 2
#define ONE_MOVE 4

/* The exits of position i for role A and role B in game g (0: lower and
 * upper, 1: split), as A's share. */
static inline int exit_a(const job *j, int g, uint64_t i) { return j->ex[(uint64_t)j->exw * i + (g ? 2 : 0)]; }
static inline int exit_b(const job *j, int g, uint64_t i) {
  return (g ? 2 * j->n : j->n) - j->ex[(uint64_t)j->exw * i + (g ? 2 : 1)];
}

/* Pushes an item on worker w's stack; -1 when it cannot grow. */
static int push(job *j, int w, uint64_t item, const uint8_t *a) {
  work *s = &j->stack[w];
  if (s->len == s->cap) {
    const size_t cap = s->cap ? 2 * s->cap : 4096;
    pos *v = realloc(s->v, cap * sizeof *v);
    if (!v) {
      __atomic_store_n(&j->oom, 1, __ATOMIC_RELAXED);
      return -1;
    }
    s->v = v;
    s->cap = cap;
  }
  s->v[s->len].i = item;
  memcpy(s->v[s->len++].a, a, VARIANT_MAX_PITS);
  return 0;
}

/* Settles position i's role (FIN_A or FIN_B) in game g at the level being
 * settled if no one has yet, and pushes it to tell its predecessors. */
static void settle(job *j, int g, int w, uint64_t i, const uint8_t *a, int role) {
  uint8_t *sb = g ? j->st2 : j->cand;
  if (__atomic_fetch_or(&sb[i], (uint8_t)role, __ATOMIC_RELAXED) & role) return;
  uint8_t *val = g ? j->ss : j->lu;
  const int N = g ? 2 * j->n : j->n;
  if (role == FIN_A)
    st(&val[2 * i], (uint8_t)j->level);
  else
    st(&val[2 * i + 1], (uint8_t)(N - j->level));
  push(j, w, 2 * i + (role == FIN_B), a);
}

/* Items taken off a stack together: their predecessors' bytes are fetched
 * all at once, so that the cache misses overlap. */
#define BATCH 16

/* Tells the predecessors of up to BATCH settled items off worker w's stack
 * (index * 2 + role) of game g: a role-A position settled makes its
 * predecessors' role B one move closer to settling; a role-B position
 * settles its predecessors' role A (the predecessor's index, role in the
 * low bit). */
static void propagate(job *j, int g, int w) {
  uint8_t *sb = g ? j->st2 : j->cand;
  work *s = &j->stack[w];
  pos pred[BATCH * MAX_PRED];
  int np = 0;
  for (int b = 0; b < BATCH && s->len; b++) {
    const pos item = s->v[--s->len];
    const int k0 = np;
    np += predecessors(j, item.a, pred + np);
    for (int k = k0; k < np; k++) {
      __builtin_prefetch(&sb[pred[k].i]);
      if (!(item.i & 1)) __builtin_prefetch(&j->ex[(uint64_t)j->exw * pred[k].i]);
      pred[k].i = 2 * pred[k].i + (item.i & 1);
    }
  }
  for (int k = 0; k < np; k++) {
    const uint64_t p = pred[k].i >> 1;
    if (pred[k].i & 1) {
      if (!(ld(&sb[p]) & FIN_A)) settle(j, g, w, p, pred[k].a, FIN_A);
    } else if ((__atomic_fetch_sub(&sb[p], ONE_MOVE, __ATOMIC_RELAXED) >> 2) == 1 &&
               exit_b(j, g, p) >= j->level) {
      settle(j, g, w, p, pred[k].a, FIN_B);
    }
  }
}

/* Fast layout: settles the positions of from..to whose value in game g is
 * the level (an exit, or a role B whose moves all settled higher), then all
 * that follows from them. */
static void settle_level(job *j, int g, int w, uint64_t from, uint64_t to) {
  const uint8_t *sb = g ? j->st2 : j->cand;
  work *s = &j->stack[w];
  uint64_t at = UINT64_MAX; /* a holds the counts of position at */
  uint8_t a[VARIANT_MAX_PITS] = {0};
  for (uint64_t i = from; i < to; i++) {
    const int x = ld(&sb[i]);
    const int sa = !(x & FIN_A) && exit_a(j, g, i) == j->level;
    const int sbb = !(x & FIN_B) && x < ONE_MOVE && exit_b(j, g, i) == j->level;
    if (!sa && !sbb) continue;
    counts_at(j, i, &at, a);
    if (sa) settle(j, g, w, i, a, FIN_A);
    if (sbb) settle(j, g, w, i, a, FIN_B);
    while (s->len) propagate(j, g, w);
  }
}

static int run_slice(void *ctx, long long t, int worker) {
  slice *s = (slice *)ctx + t;
  if (s->mode == PHASE_MOVES)
    gen_moves(s->j, s->from, s->to);
  else if (s->mode >= PHASE_LEVEL)
    settle_level(s->j, s->mode == PHASE_LEVEL_SPLIT, worker, s->from, s->to);
  else
    s->changed = phase(s->j, s->mode, s->from, s->to);
  return 0;
}

/* Slices a thread takes one after the other (thread_parallel_for hands out
 * the next one to whichever thread is free): where the candidates crowd in
 * one part of the index, no thread waits long for another at the end. */
#define SLICES_PER_THREAD 8

/* Runs `mode` over from..to split into slices, SLICES_PER_THREAD a thread
 * (one with one thread; thread_parallel_for); returns the changes. */
static long long parallel(job *j, int threads, int mode, uint64_t from, uint64_t to) {
  slice s[64 * SLICES_PER_THREAD];
  if (threads > 64) threads = 64;
  const int n = threads == 1 ? 1 : threads * SLICES_PER_THREAD;
  uint64_t len = to - from;
  for (int t = 0; t < n; t++) {
    s[t].j = j;
    s[t].from = from + len * (uint64_t)t / (uint64_t)n;
    s[t].to = from + len * (uint64_t)(t + 1) / (uint64_t)n;
    s[t].changed = 0;
    s[t].mode = mode;
    /* Slices of flags start at a multiple of 8 (word-at-a-time scans). */
    if (t) s[t].from &= ~(uint64_t)7;
    if (t + 1 < n) s[t].to &= ~(uint64_t)7;
  }
  /* Backwards passes take the slices from the end, as one thread would. */
  if (mode == PHASE_EVAL_BACK)
    for (int a = 0, b = n - 1; a < b; a++, b--) {
      slice x = s[a];
      s[a] = s[b];
      s[b] = x;
    }
  thread_parallel_for(n, threads, run_slice, s);
  long long changed = 0;
  for (int t = 0; t < n; t++) changed += (long long)s[t].changed;
  return changed;
}

static double now(void) { return clock_now(); }

typedef struct progress_state {
  egdb_progress_fn fn;
  void *ctx;
  egdb_progress p; /* done and total: positions in tables */
} progress_state;

static int report(progress_state *ps, const char *phase) {
  if (!ps->fn) return 0;
  ps->p.phase = phase;
  return ps->fn(ps->ctx, &ps->p);
}

/* One pass of the value iteration, in slices so that the progress bar moves
 * and a cancel is seen; returns the changes, or -1 (cancel). */
static long long sweep(job *j, int threads, int sw, progress_state *ps) {
  const int mode = sw % 2 ? PHASE_EVAL : PHASE_EVAL_BACK;
  const int slices = j->count > 1000000 ? 16 : 1;
  long long changed = 0;
  for (int k = 0; k < slices; k++) {
    const int s = mode == PHASE_EVAL ? k : slices - 1 - k;
    uint64_t from = j->count * (uint64_t)s / (uint64_t)slices;
    uint64_t to = j->count * (uint64_t)(s + 1) / (uint64_t)slices;
    if (s) from &= ~(uint64_t)7; /* flags scanned a word at a time */
    if (s + 1 < slices) to &= ~(uint64_t)7;
    changed += parallel(j, threads, mode, from, to);
    if (report(ps, "iterate")) return -1;
  }
  return changed;
}

/* Lean layout: value iteration to the fixed point, every position once,
 * then only the predecessors of what changed, in passes forwards and
 * backwards; returns 0, or -1 (cancel). */
static int iterate(job *j, int threads, progress_state *ps, egdb_build_stats *stats) {
  /* The bottom: endless play worth nothing to the lower-table mover and
   * everything to the upper one; every position a candidate. */
  const size_t c = (size_t)j->count;
  const int n = j->n;
  for (size_t i = 0; i < c; i++) j->lu[2 * i] = 0, j->lu[2 * i + 1] = (uint8_t)n;
  for (size_t i = 0; j->split && i < c; i++) j->ss[2 * i] = 0, j->ss[2 * i + 1] = (uint8_t)(2 * n);
  memset(j->cand, 1, c);
  for (int sw = 1;; sw++) {
    ps->p.sweep = sw;
    long long changed = sweep(j, threads, sw, ps);
    if (changed < 0) return -1;
    stats->sweeps++;
    if (!changed) return 0;
  }
}

/* Fast layout: plays the moves (in slices so that the progress bar
 * moves), then settles every value, game after game, level after level
 * from the highest; returns 0, or -1 (cancel) or -2 (out of memory). */
static int settle_all(job *j, int threads, progress_state *ps, egdb_build_stats *stats) {
  const int slices = j->count > 1000000 ? 16 : 1;
  for (int s = 0; s < slices; s++) {
    parallel(j, threads, PHASE_MOVES, j->count * (uint64_t)s / (uint64_t)slices,
             j->count * (uint64_t)(s + 1) / (uint64_t)slices);
    if (report(ps, "moves")) return -1;
  }
  for (int g = 0; g <= j->split; g++)
    for (int level = g ? 2 * j->n : j->n; level > 0; level--) {
      j->level = level;
      ps->p.sweep++;
      parallel(j, threads, g ? PHASE_LEVEL_SPLIT : PHASE_LEVEL, 0, j->count);
      stats->sweeps++;
      if (j->oom) return -2;
      if (report(ps, "settle")) return -1;
    }
  return 0;
}

uint64_t egdb_build_memory(const variant *v, int n, egdb_layout layout) {
  const int split = egdb_has_split(v);
  const uint64_t count = egdb_count(n, v->pits);
  if (layout != EGDB_LAYOUT_FAST) return count * (split ? 5 : 3);
  /* exits, values, state (for lower and upper, and for split) */
  return count * (split ? 3 + 4 + 2 : 2 + 2 + 1);
}

egdb_layout egdb_layout_choose(const variant *v, int n, uint64_t avail) {
  const uint64_t fast = egdb_build_memory(v, n, EGDB_LAYOUT_FAST);
  return fast && fast <= avail / 4 * 3 ? EGDB_LAYOUT_FAST : EGDB_LAYOUT_LEAN;
}

uint64_t egdb_memory_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[256];
    unsigned long long kb;
    while (fgets(line, sizeof line, f))
      if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
        fclose(f);
        return (uint64_t)kb * 1024;
      }
    fclose(f);
  }
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

static void free_job(job *j) {
  const size_t c = (size_t)j->count;
  big_free(j->cand, c);
  big_free(j->lu, 2 * c);
  big_free(j->ss, 2 * c);
  big_free(j->st2, c);
  big_free(j->ex, c * (size_t)j->exw);
  j->cand = j->lu = j->ss = j->ex = j->st2 = NULL;
  for (int w = 0; w < 64; w++) free(j->stack[w].v), j->stack[w] = (work){0};
}

/* The working arrays of the job's layout; -1 when out of memory (all freed). */
static int alloc_job(job *j) {
  const size_t c = (size_t)j->count;
  j->lu = big_alloc(2 * c);
  j->cand = big_alloc(c);
  if (j->split) j->ss = big_alloc(2 * c);
  int ok = j->lu && j->cand && (!j->split || j->ss);
  if (!j->lean) {
    j->exw = j->split ? 3 : 2;
    if (j->split) j->st2 = big_alloc(c);
    j->ex = big_alloc(c * (size_t)j->exw);
    ok = ok && j->ex && (!j->split || j->st2);
  }
  if (!ok) free_job(j);
  return ok ? 0 : -1;
}

/* Builds and writes table n with `layout` (AUTO: chosen here). */
static int build_level(const variant *v, const char *path, const char *key, int n,
                       const egdb_level *below, int threads, egdb_layout layout, progress_state *ps,
                       egdb_build_stats *stats, char *err, size_t errlen) {
  job *j = calloc(1, sizeof *j);
  if (!j) {
    error_set(err, errlen, "out of memory");
    return EGDB_EMEMORY;
  }
  j->v = v;
  j->n = n;
  j->H = v->houses;
  j->P = v->pits;
  j->split = egdb_has_split(v);
  j->count = egdb_count(n, v->pits);
  j->below = below;
  int rc = 0;
  const size_t c = (size_t)j->count;
  if (sowing_vectors(j)) {
    error_set(err, errlen, "the sowing of variant %s captures on a board of fours", key);
    rc = EGDB_EUNSUPPORTED;
    goto out;
  }
  const int any = layout == EGDB_LAYOUT_AUTO;
  if (any) layout = egdb_layout_choose(v, n, egdb_memory_available());
  j->lean = layout == EGDB_LAYOUT_LEAN;
  int fail = alloc_job(j);
  if (fail && any && !j->lean) { /* fast did not fit after all */
    j->lean = 1;
    layout = EGDB_LAYOUT_LEAN;
    fail = alloc_job(j);
  }
  const size_t bytes = (size_t)egdb_build_memory(v, n, layout);
  if (fail) {
    error_set(err, errlen, "out of memory for the %d-seed table (%zu bytes)", n, bytes);
    rc = EGDB_EMEMORY;
    goto out;
  }
  if (bytes > stats->peak_bytes) stats->peak_bytes = bytes;
  const int r = j->lean ? iterate(j, threads, ps, stats) : settle_all(j, threads, ps, stats);
  if (r) {
    error_set(err, errlen, r == -2 ? "out of memory for the %d-seed table" : "build cancelled", n);
    rc = r == -2 ? EGDB_EMEMORY : EGDB_ECANCEL;
    goto out;
  }
  if (j->lean) stats->built_lean++;
  /* The tables one after the other, in place: lower into the flags (done
   * with), upper to the front of lu, split (the median) to the front of ss;
   * each read lies at or after the byte written. */
  uint8_t *lower = j->cand;
  for (size_t i = 0; i < c; i++) lower[i] = j->lu[2 * i];
  for (size_t i = 0; i < c; i++) j->lu[i] = j->lu[2 * i + 1];
  if (j->split) {
    const uint8_t half = (uint8_t)n; /* n seeds split evenly, in half seeds */
    for (size_t i = 0; i < c; i++) {
      const uint8_t sl = j->ss[2 * i], su = j->ss[2 * i + 1];
      j->ss[i] = sl > half ? sl : su < half ? su : half;
    }
  }
  report(ps, "write");
  const uint8_t *tables[3] = {lower, j->lu, j->ss};
  rc = egdb_file_write(path, key, n, j->P, j->count, tables, j->split ? 3 : 2, err, errlen);
out:
  free_job(j);
  free(j);
  return rc;
}

int egdb_build(const variant *v, const char *dir, int max_n, int threads, egdb_progress_fn progress,
               void *ctx, egdb_build_stats *stats_out, char *err, size_t errlen) {
  return egdb_build_layout(v, dir, max_n, threads, EGDB_LAYOUT_AUTO, progress, ctx, stats_out, err,
                           errlen);
}

int egdb_build_layout(const variant *v, const char *dir, int max_n, int threads, egdb_layout layout,
                      egdb_progress_fn progress, void *ctx, egdb_build_stats *stats_out, char *err,
                      size_t errlen) {
  char key[128], path[4096], folder[4096];
  egdb_build_stats stats;
  memset(&stats, 0, sizeof stats);
  int rc = egdb_variant_key(v, key, sizeof key, err, errlen);
  if (rc) return rc;
  if (max_n < 0 || max_n > EGDB_MAX_SEEDS) {
    error_set(err, errlen, "seed count %d out of range 0..%d", max_n, EGDB_MAX_SEEDS);
    return EGDB_EARG;
  }
  if (threads < 1 || threads > 64) {
    error_set(err, errlen, "thread count %d out of range 1..64", threads);
    return EGDB_EARG;
  }
  if (layout != EGDB_LAYOUT_AUTO && layout != EGDB_LAYOUT_FAST && layout != EGDB_LAYOUT_LEAN) {
    error_set(err, errlen, "unknown layout %d", (int)layout);
    return EGDB_EARG;
  }
  snprintf(folder, sizeof folder, "%s/%s", *dir ? dir : ".", key);
  if (path_mkdirs(folder, err, errlen)) return EGDB_EIO;

  const int ntables = egdb_has_split(v) ? 3 : 2;
  egdb_level *lv = calloc(EGDB_MAX_SEEDS + 1, sizeof *lv);
  if (!lv) {
    error_set(err, errlen, "out of memory");
    return EGDB_EMEMORY;
  }
  progress_state ps;
  memset(&ps, 0, sizeof ps);
  ps.fn = progress;
  ps.ctx = ctx;
  ps.p.max_n = max_n;
  for (int n = 0; n <= max_n; n++) ps.p.total += egdb_count(n, v->pits);
  double t0 = now();
  for (int n = 0; n <= max_n && !rc; n++) {
    egdb_path(dir, key, n, path, sizeof path);
    uint64_t count = egdb_count(n, v->pits);
    ps.p.n = n;
    ps.p.sweep = 0;
    char e2[ERROR_MAX];
    if (egdb_file_map(path, key, n, v->pits, ntables, 1, &lv[n], e2, sizeof e2) == 0) {
      stats.resumed++;
      ps.p.done += count;
      if (report(&ps, "checked")) {
        error_set(err, errlen, "build cancelled");
        rc = EGDB_ECANCEL;
      }
      continue;
    }
    rc = build_level(v, path, key, n, lv, threads, layout, &ps, &stats, err, errlen);
    if (rc) break;
    stats.built++;
    stats.positions += count;
    ps.p.positions = stats.positions;
    ps.p.done += count;
    rc = egdb_file_map(path, key, n, v->pits, ntables, 0, &lv[n], err, errlen);
  }
  stats.seconds = now() - t0;
  if (!rc) report(&ps, "done");
  for (int n = 0; n <= EGDB_MAX_SEEDS; n++) egdb_file_unmap(&lv[n]);
  free(lv);
  if (stats_out) *stats_out = stats;
  return rc;
}
