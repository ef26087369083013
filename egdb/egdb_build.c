/* egdb_build.c: the retrograde build, one seed count after another, by value iteration to the least fixed point. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/clock.h"
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
 * point reached from lower = exits, upper = n: each sweep can only raise a
 * lower and lower an upper, and the limit is what the mover can force to
 * happen in finite time. Sweeps are Gauss-Seidel over the index, any order
 * and any interleaving of threads giving the same (unique least) fixed point,
 * so the files do not depend on the thread count.
 *
 * cycle = split: the same iteration in half seeds with the exits taken from
 * the split tables below gives sl (endless = 0) and su (endless = all), and
 * the split value is the median of sl, n (half of n seeds, in half seeds)
 * and su: the mover gets more than half only if it can force an exit worth
 * that (sl), and at least k <= half unless the opponent can force an exit
 * that keeps it below k (su).
 *
 * Threads: the build's own worker threads, threads (core/thread.h) over slices of the
 * index (not the game-running pool of arena/). Tables shared by the threads
 * during sweeps are read and written with relaxed atomic byte operations:
 * values only move towards the fixed point, so a stale read only delays it.
 */

#define NONE UINT32_MAX

typedef struct job job;

/* One table being built. */
struct job {
  const variant *v;
  int n, H, P, split;
  uint64_t count;
  const egdb_level *below; /* levels 0 .. n-1 */
  uint32_t *child;         /* H per position: non-capturing successors, NONE-terminated */
  uint8_t *exl, *exu, *exs; /* best exit per table */
  uint8_t *lo, *up, *sl, *su;
  uint64_t *off;            /* count + 1: predecessors of i are pred[off[i] .. off[i+1]) */
  uint32_t *pred;           /* non-capturing predecessors */
  uint8_t *cand;            /* to evaluate: a successor changed since */
};

typedef struct slice {
  job *j;
  uint64_t from, to;
  uint64_t changed;
  int mode; /* a phase_* */
} slice;

enum { PHASE_MOVES, PHASE_COUNT, PHASE_FILL, PHASE_EVAL, PHASE_EVAL_BACK };

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

/* Generates the moves of positions from..to-1: exits and children. */
static void gen_moves(job *j, uint64_t from, uint64_t to) {
  const variant *v = j->v;
  const int H = j->H, P = j->P, n = j->n;
  uint8_t a[VARIANT_MAX_PITS];
  if (from >= to) return;
  egdb_unrank(from, P, n, a);
  for (uint64_t i = from; i < to; i++, next_counts(a, P)) {
    board b;
    memset(&b, 0, sizeof b);
    memcpy(b.pit, a, (size_t)P);
    uint32_t legal = board_legal(&b, v);
    uint32_t *ch = j->child + i * (uint64_t)H;
    int k = 0;
    if (!legal) {
      int own = 0;
      for (int h = 0; h < H; h++) own += a[h];
      j->exl[i] = j->exu[i] = (uint8_t)own;
      if (j->split) j->exs[i] = (uint8_t)(2 * own);
    } else {
      int el = 0, eu = 0, es = 0;
      for (uint32_t m = legal; m; m &= m - 1) {
        board c = b;
        int cap = board_play(&c, v, __builtin_ctz(m));
        uint8_t q[VARIANT_MAX_PITS];
        memcpy(q, c.pit + H, (size_t)H);
        memcpy(q + H, c.pit, (size_t)H);
        int n2 = n - cap;
        uint64_t r = egdb_rank(q, P, n2);
        if (!cap) {
          ch[k++] = (uint32_t)r;
          continue;
        }
        const egdb_level *lv = &j->below[n2];
        int x = cap + n2 - lv->t[1][r];
        if (x > el) el = x;
        x = cap + n2 - lv->t[0][r];
        if (x > eu) eu = x;
        if (j->split) {
          x = 2 * cap + 2 * n2 - lv->t[2][r];
          if (x > es) es = x;
        }
      }
      j->exl[i] = (uint8_t)el;
      j->exu[i] = (uint8_t)eu;
      if (j->split) j->exs[i] = (uint8_t)es;
    }
    if (k < H) ch[k] = NONE;
    /* The start of the iteration: exits for the lower tables, everything
     * for the upper ones where play can go on. */
    j->lo[i] = j->exl[i];
    j->up[i] = k ? (uint8_t)n : j->exu[i];
    if (j->split) {
      j->sl[i] = j->exs[i];
      j->su[i] = k ? (uint8_t)(2 * n) : j->exs[i];
    }
  }
}

/* Re-evaluates position i from its exits and children (Gauss-Seidel: the
 * children's values as they are now); returns whether a value changed. */
static inline int evaluate(job *j, uint64_t i) {
  const int H = j->H, n = j->n, n2 = 2 * j->n;
  const uint32_t *ch = j->child + i * (uint64_t)H;
  int changed = 0;
  if (ch[0] == NONE) return 0;
  int l0 = ld(&j->lo[i]), u0 = ld(&j->up[i]);
  if (l0 != u0) {
    int l = j->exl[i], u = j->exu[i];
    for (int k = 0; k < H && ch[k] != NONE; k++) {
      int x = n - ld(&j->up[ch[k]]);
      if (x > l) l = x;
      x = n - ld(&j->lo[ch[k]]);
      if (x > u) u = x;
    }
    if (l != l0) st(&j->lo[i], (uint8_t)l), changed = 1;
    if (u != u0) st(&j->up[i], (uint8_t)u), changed = 1;
  }
  if (j->split) {
    int s0 = ld(&j->sl[i]), t0 = ld(&j->su[i]);
    if (s0 == t0) return changed;
    int s = j->exs[i], t = j->exs[i];
    for (int k = 0; k < H && ch[k] != NONE; k++) {
      int x = n2 - ld(&j->su[ch[k]]);
      if (x > s) s = x;
      x = n2 - ld(&j->sl[ch[k]]);
      if (x > t) t = x;
    }
    if (s != s0) st(&j->sl[i], (uint8_t)s), changed = 1;
    if (t != t0) st(&j->su[i], (uint8_t)t), changed = 1;
  }
  return changed;
}

/* Whether the 8 flags from i (a multiple of 8) are all clear (read as one
 * relaxed word; a flag set meanwhile is seen in the next pass). */
static inline int clear8(uint8_t *f, uint64_t i, uint64_t from, uint64_t to) {
  if (i < from || i + 8 > to) return 0;
  return __atomic_load_n((uint64_t *)(void *)(f + i), __ATOMIC_RELAXED) == 0;
}

static uint64_t phase(job *j, int mode, uint64_t from, uint64_t to) {
  const int H = j->H;
  uint64_t changed = 0;
  switch (mode) {
  case PHASE_COUNT: /* predecessor counts, into off[c + 1] */
    for (uint64_t i = from; i < to; i++) {
      const uint32_t *ch = j->child + i * (uint64_t)H;
      for (int k = 0; k < H && ch[k] != NONE; k++)
        __atomic_fetch_add(&j->off[(uint64_t)ch[k] + 1], 1, __ATOMIC_RELAXED);
    }
    break;
  case PHASE_FILL: /* off[c] runs up to the next list's start */
    for (uint64_t i = from; i < to; i++) {
      const uint32_t *ch = j->child + i * (uint64_t)H;
      for (int k = 0; k < H && ch[k] != NONE; k++)
        j->pred[__atomic_fetch_add(&j->off[ch[k]], 1, __ATOMIC_RELAXED)] = (uint32_t)i;
    }
    break;
  case PHASE_EVAL:
  case PHASE_EVAL_BACK:
    /* A position that changes makes its predecessors candidates at once:
     * those further along in this pass's order are evaluated in this pass.
     * The owner takes a candidate with an exchange, so that a mark made
     * while it evaluates is never lost. */
    for (uint64_t k = from; k < to; k++) {
      uint64_t i = mode == PHASE_EVAL ? k : from + to - 1 - k;
      if ((i & 7) == (mode == PHASE_EVAL ? 0 : 7) && clear8(j->cand, i & ~(uint64_t)7, from, to)) {
        k += 7;
        continue;
      }
      if (!ld(&j->cand[i]) || !__atomic_exchange_n(&j->cand[i], 0, __ATOMIC_ACQUIRE)) continue;
      if (!evaluate(j, i)) continue;
      changed++;
      for (uint64_t e = j->off[i]; e < j->off[i + 1]; e++)
        __atomic_store_n(&j->cand[j->pred[e]], 1, __ATOMIC_RELEASE);
    }
    break;
  }
  return changed;
}

static void *run_slice(void *arg) {
  slice *s = arg;
  if (s->mode == PHASE_MOVES)
    gen_moves(s->j, s->from, s->to);
  else
    s->changed = phase(s->j, s->mode, s->from, s->to);
  return NULL;
}

/* Runs `mode` over from..to split among `threads`; returns the changes, or
 * -1 when a thread cannot be started. */
static long long parallel(job *j, int threads, int mode, uint64_t from, uint64_t to) {
  slice s[64];
  thread *tid[64] = {NULL};
  int started[64] = {0};
  if (threads > 64) threads = 64;
  uint64_t len = to - from;
  for (int t = 0; t < threads; t++) {
    s[t].j = j;
    s[t].from = from + len * (uint64_t)t / (uint64_t)threads;
    s[t].to = from + len * (uint64_t)(t + 1) / (uint64_t)threads;
    s[t].changed = 0;
    s[t].mode = mode;
    /* Slices of flags start at a multiple of 8 (word-at-a-time scans). */
    if (mode != PHASE_MOVES && t) s[t].from &= ~(uint64_t)7;
    if (mode != PHASE_MOVES && t + 1 < threads) s[t].to &= ~(uint64_t)7;
  }
  int fail = 0;
  for (int t = 1; t < threads; t++) {
    char terr[128];
    if (!(tid[t] = thread_start(run_slice, &s[t], terr, sizeof terr))) {
      fail = 1;
      break;
    }
    started[t] = 1;
  }
  run_slice(&s[0]);
  long long changed = (long long)s[0].changed;
  for (int t = 1; t < threads; t++) {
    if (!started[t]) continue;
    thread_join(tid[t]);
    changed += (long long)s[t].changed;
  }
  return fail ? -1 : changed;
}

static double now(void) { return clock_now(); }

/* mkdir -p for dir/key. */
static int make_dirs(const char *path, char *err, size_t errlen) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || !*p) {
      char c = *p;
      *p = '\0';
      if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot make folder %s: %s", buf, strerror(errno));
        return EGDB_EIO;
      }
      *p = c;
      if (!c) break;
    }
  }
  return 0;
}

typedef struct progress_state {
  egdb_progress_fn fn;
  void *ctx;
  double total, done; /* work units: positions */
  egdb_progress p;
} progress_state;

static int report(progress_state *ps, const char *phase, double within, uint64_t count) {
  if (!ps->fn) return 0;
  ps->p.phase = phase;
  ps->p.fraction = ps->total > 0 ? (ps->done + within * (double)count) / ps->total : 1;
  if (ps->p.fraction > 1) ps->p.fraction = 1;
  return ps->fn(ps->ctx, &ps->p);
}

/* Builds and writes table n. */
static int build_level(const variant *v, const char *path, const char *key, int n,
                       const egdb_level *below, int threads, progress_state *ps,
                       egdb_build_stats *stats, char *err, size_t errlen) {
  job j;
  memset(&j, 0, sizeof j);
  j.v = v;
  j.n = n;
  j.H = v->houses;
  j.P = v->pits;
  j.split = egdb_has_split(v);
  j.count = egdb_count(n, v->pits);
  j.below = below;
  if (j.count >= NONE) {
    snprintf(err, errlen, "%d seeds: %llu positions, more than this build can index", n,
             (unsigned long long)j.count);
    return EGDB_EARG;
  }
  size_t c = (size_t)j.count;
  size_t bytes = c * (size_t)j.H * sizeof *j.child + c * (j.split ? 7 : 4);
  j.child = malloc(c * (size_t)j.H * sizeof *j.child);
  j.exl = malloc(c);
  j.exu = malloc(c);
  j.lo = malloc(c);
  j.up = malloc(c);
  if (j.split) {
    j.exs = malloc(c);
    j.sl = malloc(c);
    j.su = malloc(c);
  }
  int rc = 0;
  if (!j.child || !j.exl || !j.exu || !j.lo || !j.up ||
      (j.split && (!j.exs || !j.sl || !j.su))) {
    snprintf(err, errlen, "out of memory for the %d-seed table (%zu bytes)", n, bytes);
    rc = EGDB_EMEMORY;
    goto out;
  }
  if (bytes > stats->peak_bytes) stats->peak_bytes = bytes;

  /* Moves, in slices so that the progress bar moves. */
  const int slices = j.count > 1000000 ? 32 : 1;
  for (int s = 0; s < slices; s++) {
    uint64_t from = j.count * (uint64_t)s / (uint64_t)slices;
    uint64_t to = j.count * (uint64_t)(s + 1) / (uint64_t)slices;
    if (parallel(&j, threads, PHASE_MOVES, from, to) < 0) {
      snprintf(err, errlen, "cannot start a build thread");
      rc = EGDB_EMEMORY;
      goto out;
    }
    if (report(ps, "moves", 0.3 * (s + 1) / slices, j.count)) {
      snprintf(err, errlen, "build cancelled");
      rc = EGDB_ECANCEL;
      goto out;
    }
  }
  /* Predecessor lists (the moves reversed), for the worklist. */
  j.off = calloc(c + 1, sizeof *j.off);
  j.cand = malloc(c);
  if (!j.off || !j.cand) goto oom;
  if (parallel(&j, threads, PHASE_COUNT, 0, j.count) < 0) goto nothread;
  for (size_t i = 0; i < c; i++) j.off[i + 1] += j.off[i];
  j.pred = malloc((j.off[c] ? j.off[c] : 1) * sizeof *j.pred);
  if (!j.pred) goto oom;
  bytes += (c + 1) * sizeof *j.off + c + j.off[c] * sizeof *j.pred;
  if (bytes > stats->peak_bytes) stats->peak_bytes = bytes;
  if (parallel(&j, threads, PHASE_FILL, 0, j.count) < 0) goto nothread;
  memmove(j.off + 1, j.off, c * sizeof *j.off); /* each off[c] ran to the next start */
  j.off[0] = 0;
  /* Value iteration to the fixed point: every position once, then only the
   * predecessors of what changed, in passes forwards and backwards. */
  memset(j.cand, 1, c);
  for (int sw = 1;; sw++) {
    long long changed = parallel(&j, threads, sw % 2 ? PHASE_EVAL : PHASE_EVAL_BACK, 0, j.count);
    if (changed < 0) goto nothread;
    stats->sweeps++;
    ps->p.sweep = sw;
    double left = 1.0;
    for (int k = 0; k < sw; k++) left *= 0.9;
    if (report(ps, "iterate", 0.3 + 0.65 * (1 - left), j.count)) {
      snprintf(err, errlen, "build cancelled");
      rc = EGDB_ECANCEL;
      goto out;
    }
    if (!changed) break;
  }
  if (j.split) {
    const uint8_t half = (uint8_t)n; /* n seeds split evenly, in half seeds */
    for (size_t i = 0; i < c; i++) {
      uint8_t s = j.sl[i] > half ? j.sl[i] : j.su[i] < half ? j.su[i] : half;
      j.sl[i] = s;
    }
  }
  report(ps, "write", 0.97, j.count);
  const uint8_t *tables[3] = {j.lo, j.up, j.sl};
  rc = egdb_file_write(path, key, n, j.P, j.count, tables, j.split ? 3 : 2, err, errlen);
  goto out;
oom:
  snprintf(err, errlen, "out of memory for the %d-seed table", n);
  rc = EGDB_EMEMORY;
  goto out;
nothread:
  snprintf(err, errlen, "cannot start a build thread");
  rc = EGDB_EMEMORY;
out:
  free(j.off);
  free(j.pred);
  free(j.cand);
  free(j.child);
  free(j.exl);
  free(j.exu);
  free(j.exs);
  free(j.lo);
  free(j.up);
  free(j.sl);
  free(j.su);
  return rc;
}

int egdb_build(const variant *v, const char *dir, int max_n, int threads, egdb_progress_fn progress,
               void *ctx, egdb_build_stats *stats_out, char *err, size_t errlen) {
  char key[128], path[4096], folder[4096];
  egdb_build_stats stats;
  memset(&stats, 0, sizeof stats);
  int rc = egdb_variant_key(v, key, sizeof key, err, errlen);
  if (rc) return rc;
  if (max_n < 0 || max_n > EGDB_MAX_SEEDS) {
    snprintf(err, errlen, "seed count %d out of range 0..%d", max_n, EGDB_MAX_SEEDS);
    return EGDB_EARG;
  }
  if (threads < 1 || threads > 64) {
    snprintf(err, errlen, "thread count %d out of range 1..64", threads);
    return EGDB_EARG;
  }
  snprintf(folder, sizeof folder, "%s/%s", dir, key);
  if ((rc = make_dirs(folder, err, errlen))) return rc;

  const int ntables = egdb_has_split(v) ? 3 : 2;
  egdb_level *lv = calloc(EGDB_MAX_SEEDS + 1, sizeof *lv);
  if (!lv) {
    snprintf(err, errlen, "out of memory");
    return EGDB_EMEMORY;
  }
  progress_state ps;
  memset(&ps, 0, sizeof ps);
  ps.fn = progress;
  ps.ctx = ctx;
  ps.p.max_n = max_n;
  for (int n = 0; n <= max_n; n++) ps.total += (double)egdb_count(n, v->pits);
  double t0 = now();
  for (int n = 0; n <= max_n && !rc; n++) {
    egdb_path(dir, key, n, path, sizeof path);
    uint64_t count = egdb_count(n, v->pits);
    ps.p.n = n;
    ps.p.sweep = 0;
    char e2[512];
    if (egdb_file_map(path, key, n, v->pits, ntables, 1, &lv[n], e2, sizeof e2) == 0) {
      stats.resumed++;
      ps.done += (double)count;
      if (report(&ps, "checked", 0, count)) {
        snprintf(err, errlen, "build cancelled");
        rc = EGDB_ECANCEL;
      }
      continue;
    }
    rc = build_level(v, path, key, n, lv, threads, &ps, &stats, err, errlen);
    if (rc) break;
    stats.built++;
    stats.positions += count;
    ps.p.positions = stats.positions;
    ps.done += (double)count;
    rc = egdb_file_map(path, key, n, v->pits, ntables, 0, &lv[n], err, errlen);
  }
  stats.seconds = now() - t0;
  if (!rc) report(&ps, "done", 0, 0);
  for (int n = 0; n <= EGDB_MAX_SEEDS; n++) egdb_file_unmap(&lv[n]);
  free(lv);
  if (stats_out) *stats_out = stats;
  return rc;
}
