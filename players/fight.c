/* fight.c: the moves to search in a position the tables decide as a loss or a draw (fight.h). */
#include "players/fight.h"

/* +1, 0, -1: the final result for the side to move at b, over there for e. */
static int final_result(const board *b, const variant *v, board_end e) {
  int s2[2];
  board_final(b, v, e, s2);
  int d = s2[b->side] - s2[1 - b->side];
  return (d > 0) - (d < 0);
}

/* +1, 0, -1: the result for the side to move at b when the game is over
 * there or the tables decide it; 2 when neither. */
static int result_of(const tablebase *tb, const board *b, const variant *v) {
  uint32_t legal;
  board_end e = board_status(b, v, &legal);
  if (e != BOARD_END_NONE) return final_result(b, v, e);
  int r;
  return tablebase_result(tb, b, v, &r) ? r : 2;
}

/* The result for the side to move at c, the position after a move of g's
 * mover that took `taken`: a repetition of the game's positions since the
 * last capture ends the game there. *ended is set to 1 when the game ends at
 * c (by the rules or by that repetition), else 0. */
static int child_result(const tablebase *tb, const game *g, const board *c, int taken,
                        int *ended) {
  const variant *v = &g->v;
  uint32_t legal;
  board_end e = board_status(c, v, &legal);
  if (e == BOARD_END_NONE && v->repetition && !taken) {
    int n = 1;
    for (int i = 0; i < g->hist_len; i++) n += g->hist[i] == c->key;
    if (n >= v->repetition) e = BOARD_END_REPETITION;
  }
  *ended = e != BOARD_END_NONE;
  if (*ended) return final_result(c, v, e);
  int r;
  return tablebase_result(tb, c, v, &r) ? r : 2;
}

/* The opponent's replies at c (its move) after which the mover's result
 * is `mine`. */
static int replies_giving(const tablebase *tb, const board *c, const variant *v, int mine) {
  uint32_t legal;
  if (board_status(c, v, &legal) != BOARD_END_NONE) return 0;
  int n = 0;
  for (uint32_t l = legal; l; l &= l - 1) {
    board d = *c;
    board_play(&d, v, __builtin_ctz(l));
    n += result_of(tb, &d, v) == mine;
  }
  return n;
}

uint32_t fight_moves(const tablebase *tb, const game *g, int *lost) {
  const variant *v = &g->v;
  /* Each move's result for the mover: all decided, none a win. */
  int res[VARIANT_MAX_PITS], ended[VARIANT_MAX_PITS], best = -1;
  board child[VARIANT_MAX_PITS];
  for (uint32_t l = g->legal; l; l &= l - 1) {
    int m = __builtin_ctz(l);
    child[m] = g->pos;
    int taken = board_play(&child[m], v, m);
    int r = child_result(tb, g, &child[m], taken, &ended[m]);
    if (r == 2 || r == -1) return 0; /* undecided, or a win: the search's, or convert.h's */
    res[m] = -r;
    if (res[m] > best) best = res[m];
  }
  *lost = best == -1;
  /* Among the moves of the best result, the count of replies: lost, the
   * replies that keep the opponent's win (fewest best); drawn, those that
   * lose for it (most best). A move that ends the game leaves the opponent
   * no way to go wrong: it comes last (it used to count no reply keeping
   * the win, and so came first: a lost game given up at once by a
   * repetition when a move played on). */
  uint32_t keep = 0;
  int top = -1;
  for (uint32_t l = g->legal; l; l &= l - 1) {
    int m = __builtin_ctz(l);
    if (res[m] != best) continue;
    int score = -1;
    if (!ended[m]) {
      int n = replies_giving(tb, &child[m], v, best == -1 ? -1 : 1);
      score = best == -1 ? VARIANT_MAX_PITS - n : n;
    }
    if (score > top) {
      top = score;
      keep = 0;
    }
    if (score == top) keep |= 1u << m;
  }
  return keep;
}
