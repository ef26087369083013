/* convert.c: the move that forces the tables' lower bound soonest (convert.h). */
#include <stdlib.h>

#include "players/convert.h"

#define CONVERT_MEMO (1u << 16)

/* Positions already searched to a depth without forcing k: a position's
 * key (the stores do not count: they do not change within a stretch) and
 * the deepest failed depth. */
typedef struct convert_memo {
  uint64_t key;
  int failed;
} convert_memo;

typedef struct convert {
  const egdb *db;
  const variant *v;
  int k;
  long left; /* positions the budget still allows */
  const uint64_t *hist; /* the game's positions since the last capture */
  int nhist;
  convert_memo *memo;
} convert;

static int forces(convert *c, const board *b, int d, int *move);

/* Whether reaching the position of `key` (by a move without a capture)
 * would end the game by repetition: the moves along the fewest repeat no
 * position of their own, but one of the game's before them they might. */
static int repeats(const convert *c, uint64_t key) {
  int n = 1;
  for (int i = 0; i < c->nhist; i++) n += c->hist[i] == key;
  return c->v->repetition && n >= c->v->repetition;
}

/* Whether every reply of the opponent at b (after the mover's quiet move)
 * leaves the mover forcing k in d - 1 more moves: a capture of the
 * opponent's, or an end, already keeps it (the tables' equations). */
static int all_replies(convert *c, const board *b, int d) {
  uint32_t legal;
  if (board_status(b, c->v, &legal) != BOARD_END_NONE) return 1;
  for (; legal; legal &= legal - 1) {
    board r = *b;
    if (board_play(&r, c->v, __builtin_ctz(legal))) continue;
    uint32_t l2;
    if (board_status(&r, c->v, &l2) != BOARD_END_NONE) continue;
    if (repeats(c, r.key)) return 0;
    int m;
    if (d <= 1 || !forces(c, &r, d - 1, &m)) return 0;
  }
  return 1;
}

/* Whether a move of b keeping k captures or ends the game (a result
 * forced at once); *move the first such. */
static int at_once(const convert *c, const board *b, uint32_t legal, const egdb_value *mv,
                   int *move) {
  for (; legal; legal &= legal - 1) {
    int m = __builtin_ctz(legal);
    if (mv[m].lower < c->k) continue;
    board x = *b;
    uint32_t l2;
    if (board_play(&x, c->v, m) || board_status(&x, c->v, &l2) != BOARD_END_NONE) {
      *move = m;
      return 1;
    }
  }
  return 0;
}

/* Whether the mover at b forces a capture or an end keeping k within d of
 * its moves; *move the first move that does. */
static int forces(convert *c, const board *b, int d, int *move) {
  if (c->left-- <= 0) return 0;
  convert_memo *e = &c->memo[b->key & (CONVERT_MEMO - 1)];
  if (e->key == b->key && e->failed >= d) return 0;
  egdb_value mv[VARIANT_MAX_PITS];
  uint32_t legal;
  if (egdb_probe_moves(c->db, b, &legal, mv)) return 0;
  if (at_once(c, b, legal, mv, move)) return 1;
  if (d > 1)
    for (uint32_t l = legal; l; l &= l - 1) {
      int m = __builtin_ctz(l);
      if (mv[m].lower < c->k) continue;
      board x = *b;
      board_play(&x, c->v, m);
      if (!repeats(c, x.key) && all_replies(c, &x, d)) {
        *move = m;
        return 1;
      }
      if (c->left <= 0) return 0;
    }
  if (c->left > 0 && (e->key != b->key || e->failed < d)) {
    e->key = b->key;
    e->failed = d;
  }
  return 0;
}

int convert_move(const egdb *db, const variant *v, const board *b, const uint64_t *hist,
                 int nhist, long budget, int *move) {
  egdb_value mv[VARIANT_MAX_PITS];
  uint32_t legal;
  if (egdb_probe_moves(db, b, &legal, mv) || !legal) return -1;
  int k = 0;
  for (uint32_t l = legal; l; l &= l - 1)
    if (mv[__builtin_ctz(l)].lower > k) k = mv[__builtin_ctz(l)].lower;
  if (2 * (b->store[b->side] + k) <= v->total) return -1;
  convert c = {db, v, k, budget, hist, nhist, calloc(CONVERT_MEMO, sizeof(convert_memo))};
  if (!c.memo) return -1;
  int found = 0;
  for (int d = 1; !found && c.left > 0; d++) found = forces(&c, b, d, move);
  free(c.memo);
  return found ? 0 : -1;
}
