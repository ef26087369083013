/* egdb_solve.c: a position solved on the endgame tables: its value, a line of perfect play, the plan of the build it needs. */
#include "egdb/egdb_solve.h"
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* ---- The plan ---- */

/* Bytes free in the file system of path, or -1 when it cannot be read. */
static int64_t fs_free(const char *path) {
  struct statvfs st;
  return statvfs(path, &st) == 0 ? (int64_t)(st.f_bavail * st.f_frsize) : -1;
}

/* Bytes free in the file system of path, or of its nearest existing parent
 * (the folder may not exist yet); 0 when not known. */
static uint64_t disk_free(const char *path) {
  char p[4096];
  snprintf(p, sizeof p, "%s", *path ? path : ".");
  for (int64_t f; (f = fs_free(p)) < 0;) {
    char *slash = strrchr(p, '/');
    if (!slash) return fs_free(".") < 0 ? 0 : (uint64_t)fs_free(".");
    slash[slash == p] = '\0'; /* "/x" becomes "/" */
    if (slash == p && fs_free(p) < 0) return 0;
  }
  return (uint64_t)fs_free(p);
}

/* The first seed count whose table file is missing in dir. */
static int tables_present(const char *dir, const char *key, int seeds) {
  char path[4300];
  int n = 0;
  for (; n <= seeds; n++) {
    egdb_path(dir, key, n, path, sizeof path);
    if (access(path, F_OK) != 0) break;
  }
  return n;
}

static void plan_refuse(egdb_solve_plan *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void plan_refuse(egdb_solve_plan *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  p->fits = 0;
  vsnprintf(p->why, sizeof p->why, fmt, ap);
  va_end(ap);
}

/* Adds table n to the plan: its positions, memory, file and time. */
static void plan_table(const variant *v, int n, egdb_solve_plan *p) {
  const uint64_t count = egdb_count(n, v->pits);
  const int split = egdb_has_split(v);
  const egdb_layout l = egdb_layout_choose(v, n, p->available);
  const uint64_t mem = egdb_build_memory(v, n, l), lean = egdb_build_memory(v, n, EGDB_LAYOUT_LEAN);
  p->positions += count;
  p->disk += EGDB_HEADER_SIZE + count * (uint64_t)(split ? 3 : 2);
  p->seconds += (double)count / EGDB_SOLVE_RATE * (l == EGDB_LAYOUT_LEAN ? 2.4 : 1.0) *
                (split ? 1.4 : 1.0) * (count > EGDB_SOLVE_LARGE ? 2.0 : 1.0);
  if (mem > p->memory) p->memory = mem, p->lean = l == EGDB_LAYOUT_LEAN;
  if (p->fits && p->available && lean > p->available) {
    plan_refuse(p, "the %d-seed table needs %.1f GiB of memory to build (lean layout), %.1f GiB are free",
                n, (double)lean / 1073741824.0, (double)p->available / 1073741824.0);
  }
}

int egdb_solve_plan_make(const variant *v, const char *dir, int seeds, int threads,
                         egdb_solve_plan *plan, char *err, size_t errlen) {
  char key[128];
  int rc = egdb_variant_key(v, key, sizeof key, err, errlen);
  if (rc) return rc;
  if (seeds < 0 || threads < 1) {
    error_set(err, errlen, "bad plan: %d seeds, %d threads", seeds, threads);
    return EGDB_EARG;
  }
  memset(plan, 0, sizeof *plan);
  plan->seeds = seeds;
  plan->fits = 1;
  plan->available = egdb_memory_available();
  if (seeds > EGDB_MAX_SEEDS) {
    plan_refuse(plan, "%d seeds on the board; the tables hold at most %d", seeds, EGDB_MAX_SEEDS);
    return 0;
  }
  plan->have = tables_present(dir, key, seeds);
  for (int n = plan->have; n <= seeds; n++) plan_table(v, n, plan);
  if (threads > 1) plan->seconds /= 1.6; /* what a second thread gave on 2 shared cores */
  plan->disk_free = plan->positions ? disk_free(dir) : 0;
  if (plan->fits && plan->disk_free && plan->disk > plan->disk_free) {
    plan_refuse(plan, "the tables take %.1f GiB of disk, %.1f GiB are free in %s",
                (double)plan->disk / 1073741824.0, (double)plan->disk_free / 1073741824.0, dir);
  }
  return 0;
}

/* ---- The proof search ----
 *
 * Within the positions of one seed count (the level: moves that capture
 * nothing stay in it), whether side a can force, in at most d plies, a
 * capture or the no-move end after which it is sure of t seeds of the
 * level's n: a capture's worth is read from the tables below. Iterative
 * deepening on d gives the quickest such forcing; the facts "proven within
 * d" and "not within d" are remembered per position. */

typedef struct memo_entry {
  uint64_t key; /* position key + 1; 0: empty */
  int16_t proven; /* proven within this many plies (INT16_MAX: not yet) */
  int16_t failed; /* not provable within this many (-1: not known) */
} memo_entry;

typedef struct search {
  const egdb *db;
  const variant *v;
  int a, t;        /* the prover's side and the seeds of the level it must be sure of */
  memo_entry *e;
  size_t cap, used;
} search;

static uint64_t position_key(const board *b, const variant *v) {
  int n = 0;
  for (int i = 0; i < v->pits; i++) n += b->pit[i];
  return (egdb_rank(b->pit, v->pits, n) << 1 | b->side) + 1;
}

static size_t slot_of(const search *s, uint64_t key) {
  size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (s->cap - 1);
  while (s->e[i].key && s->e[i].key != key) i = (i + 1) & (s->cap - 1);
  return i;
}

static int memo_grow(search *s) {
  size_t old = s->cap;
  memo_entry *oe = s->e;
  s->cap = old ? 2 * old : 1024;
  if (!(s->e = calloc(s->cap, sizeof *s->e))) return s->e = oe, s->cap = old, -1;
  for (size_t i = 0; i < old; i++)
    if (oe[i].key) s->e[slot_of(s, oe[i].key)] = oe[i];
  free(oe);
  return 0;
}

/* The entry of key, made if new; NULL when out of memory. */
static memo_entry *memo_get(search *s, uint64_t key) {
  if (2 * (s->used + 1) > s->cap && memo_grow(s)) return NULL;
  memo_entry *e = &s->e[slot_of(s, key)];
  if (!e->key) *e = (memo_entry){key, INT16_MAX, -1}, s->used++;
  return e;
}

static void memo_clear(search *s) {
  if (s->e) memset(s->e, 0, s->cap * sizeof *s->e);
  s->used = 0;
}

/* What side a is sure of, of the n seeds before a capture of `cap` seeds by
 * `mover` that left c: the captured seeds if a's, then its bound in c. */
static int exit_share(const search *s, int mover, int cap, const board *c) {
  egdb_value x;
  if (egdb_probe(s->db, c, &x)) return -1;
  return (mover == s->a ? cap : 0) + (c->side == s->a ? x.lower : x.n - x.upper);
}

static int prove(search *s, const board *b, int d);

/* Whether move m of b keeps a's proof within d plies (1, 0; -1 out of memory). */
static int move_ok(search *s, const board *b, int m, int d) {
  board c = *b;
  int cap = board_play(&c, s->v, m);
  if (cap) return exit_share(s, b->side, cap, &c) >= s->t;
  return prove(s, &c, d - 1);
}

/* prove over b's moves: one good move for the prover, none bad for its
 * opponent (1, 0; -1 out of memory). */
static int prove_moves(search *s, const board *b, uint32_t legal, int d) {
  const int any = b->side == s->a;
  for (uint32_t l = legal; l; l &= l - 1) {
    int r = move_ok(s, b, __builtin_ctz(l), d);
    if (r < 0) return -1;
    if (r == any) return any;
  }
  return !any;
}

static int prove(search *s, const board *b, int d) {
  uint32_t legal = board_legal(b, s->v);
  if (s->t <= 0) return 1; /* sure of nothing: no exit needed */
  if (!legal) return board_row(b, s->v, s->a) >= s->t;
  if (d < 0) return 0;
  uint64_t key = position_key(b, s->v);
  memo_entry *e = memo_get(s, key);
  if (!e) return -1;
  if (e->proven <= d) return 1;
  if (e->failed >= d) return 0;
  int ok = prove_moves(s, b, legal, d);
  if (ok < 0 || !(e = memo_get(s, key))) return -1; /* the table may have grown */
  if (ok && d < e->proven) e->proven = (int16_t)d;
  if (!ok && d > e->failed) e->failed = (int16_t)d;
  return ok;
}

/* The fewest plies within which b's proof holds (-1: a terminal position or
 * an exit), or -2 out of memory, -3 no proof within the longest line. */
static int plies_needed(search *s, const board *b) {
  for (int d = -1; d < EGDB_SOLVE_MAX_LINE; d++) {
    int r = prove(s, b, d);
    if (r) return r < 0 ? -2 : d;
  }
  return -3;
}

/* ---- The line ---- */

/* What a move of b needs: -1 for a capture (an exit), else the plies its
 * child needs; -2, -3 as plies_needed. */
static int move_needs(search *s, const board *b, int m) {
  board c = *b;
  if (board_play(&c, s->v, m)) return -1;
  int d = plies_needed(s, &c);
  return d < -1 ? d : d + 1;
}

/* The prover's move: the first that keeps its proof within the fewest
 * plies; -2, -3 as plies_needed. */
static int prover_move(search *s, const board *b, uint32_t legal) {
  int d = plies_needed(s, b);
  if (d < -1) return d;
  for (uint32_t l = legal; l; l &= l - 1) {
    int r = move_ok(s, b, __builtin_ctz(l), d);
    if (r) return r < 0 ? -2 : __builtin_ctz(l);
  }
  return -3;
}

/* The opponent's move (or either side's where no one has a proof to
 * make): the best for the mover by the tables (lower bound, then upper),
 * then, with a proof on, the one that puts it off longest. */
static int opponent_move(search *s, const board *b, uint32_t legal) {
  egdb_value mv[VARIANT_MAX_PITS];
  uint32_t l2;
  if (egdb_probe_moves(s->db, b, &l2, mv)) return -3;
  int best = -1, bd = 0;
  for (uint32_t l = legal; l; l &= l - 1) {
    int m = __builtin_ctz(l), d = s->a < 0 ? 0 : move_needs(s, b, m);
    if (d < -1) return d;
    int better = best < 0 || mv[m].lower > mv[best].lower ||
                 (mv[m].lower == mv[best].lower &&
                  (mv[m].upper > mv[best].upper || (mv[m].upper == mv[best].upper && d > bd)));
    if (better) best = m, bd = d;
  }
  return best;
}

static int seeds_of(const board *b, const variant *v) {
  int n = 0;
  for (int i = 0; i < v->pits; i++) n += b->pit[i];
  return n;
}

/* Starts b's level: the prover is the root's mover when it is sure of some
 * of the level's seeds, else its opponent when that one is, else no one
 * (endless play is all either can be sure of: s->a = -1). */
static void level_begin(search *s, const board *b, int root) {
  egdb_value x;
  egdb_probe(s->db, b, &x);
  const int mine = b->side == root ? x.lower : x.n - x.upper;
  const int theirs = b->side == root ? x.n - x.upper : x.lower;
  s->a = mine > 0 ? root : theirs > 0 ? 1 - root : -1;
  s->t = mine > 0 ? mine : theirs;
  memo_clear(s);
}

static int line_fail(int r, char *err, size_t errlen) {
  if (r == -2) {
    error_set(err, errlen, "out of memory in the search of the line");
    return EGDB_EMEMORY;
  }
  error_set(err, errlen, "the tables prove no line of play (their values are not a fixed point)");
  return EGDB_ECORRUPT;
}

/* Whether b was met before in the level (a level without a prover ends at
 * its first repetition); b is remembered. -1 out of memory. */
static int seen_before(search *s, const board *b) {
  memo_entry *e = memo_get(s, position_key(b, s->v));
  if (!e) return -1;
  if (e->failed == 0) return 1;
  e->failed = 0;
  return 0;
}

/* Notes the first ply after which a store holds more than half. */
static void note_majority(const search *s, const board *b, egdb_solve_result *out) {
  if (out->majority_ply < 0 && (b->store[0] > s->v->half || b->store[1] > s->v->half))
    out->majority_ply = out->plies;
}

/* Plays one move of the line from b; 0, 1 when the line ends in a cycle,
 * or an error. */
static int line_step(search *s, board *b, egdb_solve_result *out, char *err, size_t errlen) {
  uint32_t legal = board_legal(b, s->v);
  if (s->a < 0) {
    int r = seen_before(s, b);
    if (r) return r < 0 ? line_fail(-2, err, errlen) : 1;
  }
  if (out->plies == EGDB_SOLVE_MAX_LINE) {
    error_set(err, errlen, "the line is longer than %d plies", EGDB_SOLVE_MAX_LINE);
    return EGDB_ECORRUPT;
  }
  int m = b->side == s->a ? prover_move(s, b, legal) : opponent_move(s, b, legal);
  if (m < 0) return line_fail(m, err, errlen);
  board_play(b, s->v, m);
  out->moves[out->plies++] = m;
  note_majority(s, b, out);
  return 0;
}

/* Plays the line from b into out. */
static int play_line(search *s, board b, egdb_solve_result *out, char *err, size_t errlen) {
  const int root = b.side;
  int n = seeds_of(&b, s->v), rc = 0;
  level_begin(s, &b, root);
  note_majority(s, &b, out); /* 0: before the line */
  out->end = BOARD_END_NO_MOVE;
  while (board_legal(&b, s->v) && !(rc = line_step(s, &b, out, err, errlen)))
    if (seeds_of(&b, s->v) != n) n = seeds_of(&b, s->v), level_begin(s, &b, root);
  if (rc < 0) return rc;
  if (rc) out->end = BOARD_END_REPETITION;
  board_final(&b, s->v, out->end, out->score2);
  return 0;
}

int egdb_solve(const egdb *db, const board *b, egdb_solve_result *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  out->majority_ply = -1;
  if (egdb_probe(db, b, &out->value)) {
    error_set(err, errlen, "the position has %d seeds on the board; the tables cover up to %d",
              seeds_of(b, egdb_variant(db)), egdb_max_seeds(db));
    return EGDB_EARG;
  }
  out->goal = out->value.lower == out->value.upper ? EGDB_SOLVE_EXACT : EGDB_SOLVE_LOWER;
  search s = {.db = db, .v = egdb_variant(db)};
  int rc = play_line(&s, *b, out, err, errlen);
  free(s.e);
  return rc;
}
