/* test_solve.c: egdb_solve against a brute force written apart (minimax over the whole game tree with its history) on 3-house boards; the line replayed; the plan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/fixture.h"

#include "core/board.h"
#include "core/notation.h"
#include "core/rng.h"
#include "egdb/egdb.h"
#include "egdb/egdb_solve.h"

/* ---- The brute force ----
 *
 * A search of the game tree with the rules of core/board.c (legal moves,
 * sowing, captures, grand slams, the no-move end), carrying the positions
 * played since the last capture: a position met again on the path is
 * endless play. "Side x can be sure of k of the seeds on the board" is an
 * AND-OR search (x needs one good move, its opponent none bad) in which
 * endless play fails x; the lower bound is the largest such k for the
 * mover, the upper bound the board less the opponent's. Majority does not
 * stop play, as in the tables. Results are remembered per position: a
 * success always (it never leaned on the path), a failure only when no
 * repetition above the position decided it. */

#define BF_MAX_PATH 65536
#define BF_SLOTS (1u << 20)

typedef struct bf_entry {
  uint64_t key;     /* board key mixed with x; 0 empty */
  int8_t sure, not; /* x is sure of `sure` seeds; not sure of `not` (-1: unknown) */
} bf_entry;

typedef struct brute {
  const variant *v;
  board path[BF_MAX_PATH];
  int base, len; /* the path is path[0..len); since the last capture path[base..len) */
  bf_entry *memo;
  long long nodes;
} brute;

static bf_entry *bf_slot(brute *x, const board *b, int side) {
  uint64_t key = (b->key ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(side + 1))) | 1;
  uint32_t i = (uint32_t)(key >> 40) & (BF_SLOTS - 1);
  while (x->memo[i].key && x->memo[i].key != key) i = (i + 1) & (BF_SLOTS - 1);
  if (!x->memo[i].key) x->memo[i] = (bf_entry){key, 0, -1};
  return &x->memo[i];
}

static int same_houses(const board *a, const board *b, const variant *v) {
  return a->side == b->side && !memcmp(a->pit, b->pit, (size_t)v->pits);
}

static int path_index(const brute *x, const board *b) {
  for (int i = x->base; i < x->len; i++)
    if (same_houses(&x->path[i], b, x->v)) return i;
  return -1;
}

static int sure_of(brute *x, const board *b, int side, int k, int *hit);

/* sure_of over b's moves, b pushed on the path: one good move for side,
 * none bad for its opponent. */
static int sure_after(brute *x, const board *b, uint32_t legal, int side, int k, int *hit) {
  const int base = x->base, any = b->side == side;
  for (uint32_t l = legal; l; l &= l - 1) {
    board c = *b;
    int cap = board_play(&c, x->v, __builtin_ctz(l)), h;
    if (cap) x->base = x->len; /* no earlier position can come back */
    int r = sure_of(x, &c, side, any ? k - cap : k, &h);
    x->base = base;
    if (h < *hit) *hit = h;
    if (r == any) return any;
  }
  return !any;
}

/* Whether `side` can be sure of k of b's seeds; *hit gets the lowest path
 * index a repetition below reached (BF_MAX_PATH: none). */
static int sure_of(brute *x, const board *b, int side, int k, int *hit) {
  x->nodes++;
  *hit = BF_MAX_PATH;
  if (k <= 0) return 1;
  uint32_t legal = board_legal(b, x->v);
  if (!legal) return board_row(b, x->v, side) >= k;
  int at = path_index(x, b);
  if (at >= 0) return *hit = at, 0;
  bf_entry *e = bf_slot(x, b, side);
  if (e->sure >= k) return 1;
  if (e->not >= 0 && e->not <= k) return 0;
  assert_true(x->len < BF_MAX_PATH);
  const int me = x->len;
  x->path[x->len++] = *b;
  int ok = sure_after(x, b, legal, side, k, hit);
  x->len--;
  e = bf_slot(x, b, side); /* a failure is remembered when no repetition above decided it */
  if (ok && k > e->sure) e->sure = (int8_t)k;
  if (!ok && *hit >= me && (e->not < 0 || k < e->not)) e->not = (int8_t)k;
  if (*hit >= me) *hit = BF_MAX_PATH;
  return ok;
}

/* The most of b's n seeds `side` can be sure of. */
static int brute_sure(brute *x, const board *b, int side, int n) {
  int k = 0, h;
  while (k < n && sure_of(x, b, side, k + 1, &h)) k++;
  return k;
}

/* The brute force's bounds of b: lower, upper. */
static void brute_bounds(brute *x, const board *b, int *lower, int *upper) {
  const int n = board_row(b, x->v, 0) + board_row(b, x->v, 1);
  *lower = brute_sure(x, b, b->side, n);
  *upper = n - brute_sure(x, b, 1 - b->side, n);
}

/* ---- The checks ---- */

static char dir[64];

static int setup(void **state) {
  (void)state;
  return fixture_mkdtemp(dir, sizeof dir, "solve");
}

static int teardown(void **state) {
  (void)state;
  return fixture_remove(dir);
}

static egdb *open_tables(const char *name, variant *v, int seeds) {
  char err[512];
  egdb *db;
  assert_int_equal(variant_parse(name, v, err, sizeof err), 0);
  assert_int_equal(fixture_egdb(name, dir, seeds, 2), 0);
  if (egdb_open(dir, v, seeds, EGDB_VERIFY, &db, err, sizeof err)) fail_msg("%s", err);
  return db;
}

/* The line of r from b played again by the rules: every move legal, the
 * end as said, the mover's final seeds what the goal promises. */
static void check_line(const variant *v, const board *b, const egdb_solve_result *r) {
  static board since[EGDB_SOLVE_MAX_LINE + 1];
  board c = *b; /* the positions since the last capture */
  int ns = 0;
  for (int i = 0; i < r->plies; i++) {
    assert_true(board_legal(&c, v) >> r->moves[i] & 1u);
    since[ns++] = c;
    if (board_play(&c, v, r->moves[i])) ns = 0;
  }
  int score2[2], again = 0;
  for (int i = 0; i < ns; i++) again |= same_houses(&since[i], &c, v);
  if (r->end == BOARD_END_NO_MOVE) assert_int_equal(board_legal(&c, v), 0);
  if (r->end == BOARD_END_REPETITION) assert_true(again);
  board_final(&c, v, r->end, score2);
  assert_int_equal(score2[0], r->score2[0]);
  assert_int_equal(score2[1], r->score2[1]);
  const int s = b->side, got2 = score2[s] - 2 * b->store[s];
  if (r->goal == EGDB_SOLVE_EXACT) {
    assert_int_equal(r->end, BOARD_END_NO_MOVE);
    assert_int_equal(got2, 2 * r->value.lower);
  } else if (r->end == BOARD_END_NO_MOVE) {
    assert_true(got2 >= 2 * r->value.lower && got2 <= 2 * r->value.upper);
  }
}

/* Solves b and compares with the brute force. */
static void check_position(const egdb *db, brute *x, const board *b) {
  const variant *v = x->v;
  static egdb_solve_result r;
  char err[256];
  assert_int_equal(egdb_solve(db, b, &r, err, sizeof err), 0);
  int lo, hi;
  brute_bounds(x, b, &lo, &hi);
  if (lo != r.value.lower || hi != r.value.upper) {
    char text[NOTATION_POSITION_MAX];
    notation_format_position(b, v, NULL, text, sizeof text);
    fail_msg("%s: tables %d..%d, brute force %d..%d", text, r.value.lower, r.value.upper, lo, hi);
  }
  assert_int_equal(r.goal == EGDB_SOLVE_EXACT, lo == hi);
  check_line(v, b, &r);
}

/* A random position of 3-house board v with 1..max seeds on the board,
 * either side to move, the rest in the stores. */
static void random_position(rng *g, const variant *v, int max, board *b) {
  int pits[VARIANT_MAX_PITS] = {0}, stores[2];
  int n = 1 + (int)rng_below(g, (uint32_t)max);
  for (int i = 0; i < n; i++) pits[rng_below(g, (uint32_t)v->pits)]++;
  stores[0] = (int)rng_below(g, (uint32_t)(v->total - n + 1));
  stores[1] = v->total - n - stores[0];
  board_set(b, v, pits, stores, (int)rng_below(g, 2));
}

static const char *const boards[] = {"abapa,houses=3,seeds=2", "grandslam-forbidden,houses=3,seeds=2",
                                     "grandslam-all,houses=3,seeds=2", "awari,houses=3,seeds=2"};

/* The start of every grand-slam rule's 3-house, 2-seed board, and many
 * positions of them with up to 10 seeds. */
static void test_brute_force_3_houses(void **state) {
  (void)state;
  static brute x;
  long long nodes = 0;
  for (size_t k = 0; k < sizeof boards / sizeof *boards; k++) {
    variant v;
    egdb *db = open_tables(boards[k], &v, 18);
    x = (brute){.v = &v, .memo = calloc(BF_SLOTS, sizeof(bf_entry))};
    assert_non_null(x.memo);
    board b;
    /* The starts of 3 houses of 2 seeds, and of 3 under abapa (the others'
     * trees are too large for this search). */
    for (v.seeds = 2; v.seeds <= (k == 0 ? 3 : 2); v.seeds++) {
      variant_finish(&v);
      board_start(&b, &v);
      check_position(db, &x, &b);
    }
    v.seeds = 2;
    variant_finish(&v);
    rng g;
    rng_seed(&g, 1000 + k);
    for (int i = 0; i < 300; i++) {
      random_position(&g, &v, 8, &b);
      check_position(db, &x, &b);
    }
    nodes += x.nodes;
    free(x.memo);
    egdb_close(db);
  }
  printf("brute force: %lld nodes\n", nodes);
}

/* The tables with the split table hold the same bounds as those without:
 * what `oware solve` says when it names the cycle=split variant. */
static void test_split_bounds_same(void **state) {
  (void)state;
  variant v, w;
  egdb *own = open_tables("grandslam-forbidden,houses=3", &v, 12);
  egdb *split = open_tables("awari,houses=3", &w, 12);
  for (int n = 0; n <= 12; n++)
    for (int t = 0; t < 2; t++)
      assert_memory_equal(egdb_table(own, n, t), egdb_table(split, n, t), egdb_count(n, v.pits));
  egdb_close(own);
  egdb_close(split);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_brute_force_3_houses),
      cmocka_unit_test(test_split_bounds_same),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
