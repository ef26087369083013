/* minimax_traps.c: traps=1: where a loss or a draw is seen whole, the move hardest to answer. */
#include <stdlib.h>

#include "players/minimax_search.h"

/* The opponent's searches of a trap keep their hash entries apart from the
 * exact ones, which would show them the whole tree. */
#define TT_TRAP 0xbb67ae8584caa73bULL

/* A root move tied with the best, in a loss or a draw seen whole. */
typedef struct trap {
  int move;
  board child;
  int taken;    /* the move captured */
  int irrev;    /* the child's stretch since the last capture begins at this index of keys */
  int value;    /* its exact value for the mover */
  int keep;     /* the opponent's replies that keep its result (lost: its win) */
  int wrong;    /* those that lose it for the opponent (drawn: its loss) */
  uint32_t bad; /* the replies that lose the opponent its result, by house */
  int fooled;   /* the depths of the opponent's search that play one of them */
} trap;

/* The opponent's reply at t's child by a plain search of depth d (the
 * tables off, its own hash entries); -1 when stopped. */
static int trap_reply(mm_thread *th, const trap *t, int d) {
  const mm *s = th->s;
  const int top = s->root_top + 1;
  uint32_t legal;
  node_end(th, &t->child, &legal, 1, t->irrev, top);
  int best = -INF, reply = -1;
  for (uint32_t l = legal; l; l &= l - 1) {
    board c = t->child;
    int r = __builtin_ctz(l), taken = board_play(&c, s->v, r);
    path_push(th, top, &c, taken);
    int sc = -minimax_search(th, &c, d - 1, -INF, -best, 2, taken ? top + 1 : t->irrev, top + 1);
    path_pop(th, top);
    if (th->aborted) return -1;
    if (sc > best) {
      best = sc;
      reply = r;
    }
  }
  return reply;
}

/* t's exact value at depth d from the root and its replies, judged against
 * the root's result `lost` (1) or drawn (0); 0, or -1 when stopped. */
static int trap_judge(mm_thread *th, trap *t, int d, int lost) {
  const mm *s = th->s;
  const int top = s->root_top + 1;
  t->value = -minimax_search(th, &t->child, d - 1, -INF, INF, 1, t->irrev, top);
  if (th->aborted) return -1;
  uint32_t legal;
  if (node_end(th, &t->child, &legal, 1, t->irrev, top) != BOARD_END_NONE) {
    t->keep = lost ? VARIANT_MAX_PITS + 1 : 0; /* no reply: the opponent cannot go wrong */
    return 0;
  }
  for (uint32_t l = legal; l; l &= l - 1) {
    board c = t->child;
    int r = __builtin_ctz(l), taken = board_play(&c, s->v, r);
    path_push(th, top, &c, taken);
    /* For the mover at c (the root's side): still a loss (lost), or a win (drawn)? */
    int a = lost ? -WIN_BOUND - 1 : minimax_draw_score(s, c.side);
    int sc = minimax_search(th, &c, d - 2, a, a + 1, 2, taken ? top + 1 : t->irrev, top + 1);
    path_pop(th, top);
    if (th->aborted) return -1;
    if (sc <= a) {
      t->keep++;
    } else {
      t->wrong++;
      t->bad |= 1u << r;
    }
  }
  return 0;
}

/* Whether a is the better trap: lost, the fewest replies that keep the
 * opponent's win; drawn, the most that lose it for the opponent; then the
 * depths at which its search goes wrong, the longest loss, the most seeds
 * in the mover's store. */
static int trap_better(const trap *a, const trap *b, int lost, int mover) {
  if (lost && a->keep != b->keep) return a->keep < b->keep;
  if (!lost && a->wrong != b->wrong) return a->wrong > b->wrong;
  if (a->fooled != b->fooled) return a->fooled > b->fooled;
  if (a->value != b->value) return a->value > b->value;
  return a->child.store[mover] > b->child.store[mover];
}

/* After a search that saw a loss or a draw whole (score `best` at its
 * deepest iteration, with best_move), the rest of the move's time or nodes
 * goes to the opponent's chances to go wrong (issue 22 point 4), on the
 * main thread alone: each root move of the best result is judged exactly,
 * reply by reply, and then the opponent's plain search at depths 1, 2, ...
 * is tried on each until the limit (trap_better orders them). The move
 * chosen, or best_move when nothing tells them apart or the limit came
 * first. */
int minimax_trap_choose(mm *s, const game *g, int best, int best_move, long long limit,
                       long long *spent) {
  const int lost = best < -WIN_BOUND, draw = minimax_draw_score(s, g->pos.side);
  if ((!lost && best != draw) || __builtin_popcount(s->root_moves) < 2) return best_move;
  if (minimax_main_alone(s, g, limit, spent)) return best_move;
  mm_thread *th = &s->th[0];
  trap t[VARIANT_MAX_PITS];
  int n = 0, first = 0, depth = MAXPLY - 2;
  for (uint32_t l = s->root_moves; l; l &= l - 1) {
    trap *c = &t[n];
    *c = (trap){.move = __builtin_ctz(l), .child = g->pos};
    c->taken = board_play(&c->child, s->v, c->move);
    c->irrev = c->taken ? s->root_top + 1 : 0;
    path_push(th, s->root_top, &c->child, c->taken);
    int stopped = trap_judge(th, c, depth, lost);
    path_pop(th, s->root_top);
    /* A move better than the search found (a hash entry of another path
     * can hide one): the search's move stands. */
    if (stopped || (lost ? c->value >= -WIN_BOUND : c->value > draw)) {
      n = 0;
      break;
    }
    /* A draw is tied with the best only by another draw. */
    if (lost || c->value == draw) {
      if (c->move == best_move) first = n;
      n++;
    }
  }
  int chosen = best_move;
  if (n > 1) {
    /* The opponent's plain search at growing depths, while the limit allows:
     * only whole rounds count. */
    const uint64_t salt = s->tt_salt;
    const int tb_off = s->tb_off;
    s->tt_salt = TT_TRAP;
    s->tb_off = 1;
    int fooled[VARIANT_MAX_PITS] = {0};
    for (int d = 1; d < depth - 1 && !th->aborted; d++) {
      for (int i = 0; i < n && !th->aborted; i++) {
        if (!t[i].bad) continue;
        path_push(th, s->root_top, &t[i].child, t[i].taken);
        int r = trap_reply(th, &t[i], d);
        path_pop(th, s->root_top);
        fooled[i] += r >= 0 && (t[i].bad >> r & 1u);
      }
      if (!th->aborted)
        for (int i = 0; i < n; i++) t[i].fooled = fooled[i];
    }
    s->tt_salt = salt;
    s->tb_off = tb_off;
    int k = first;
    for (int i = 0; i < n; i++)
      if (trap_better(&t[i], &t[k], lost, g->pos.side)) k = i;
    chosen = t[k].move;
  }
  free(th->keys);
  th->keys = th->above = NULL;
  return chosen;
}
