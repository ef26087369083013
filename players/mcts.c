/* mcts.c: the `mcts` player: UCT Monte Carlo tree search with an MCTS-solver and light playouts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/board.h"
#include "core/error.h"
#include "core/clock.h"
#include "core/rng.h"
#include "players/eval_net.h"
#include "players/mcts.h"
#include "players/player.h"
#include "players/tablebase.h"
#include "players/time_budget.h"

/* Design.
 *
 * Tree. Nodes live in one pool (an array of 16-byte nodes, indices instead
 * of pointers) that the player owns from create to destroy; it starts small,
 * doubles when full, up to the `memory` option, and is emptied (not freed)
 * at every choose: no tree is kept from one move to the next, so the move
 * depends only on the seed, the position and the limits. A node holds no
 * board: the walk from the root replays the moves (copy-make on `board`).
 * The children of a node are allocated together, one per legal move, in
 * house order, the second time the node is reached (the first visit only
 * checks the end rules and runs a playout); the pool's index 0 is unused so
 * that child == 0 means "not expanded". When the pool is at its cap, leaves
 * are no longer expanded and the search goes on with playouts from them.
 *
 * Values. A node counts its visits and the rewards, in half points (win 2,
 * draw 1, loss 0, by the final scores of the rules), of the player who made
 * the move into it. Selection is UCT: unvisited children first (at random),
 * then the largest q + c·sqrt(ln N / n) with q in [0, 1].
 *
 * Solver (Winands, Björnsson & Saito 2008). `proof` is from the view of the
 * player who moved into the node: +1 proven win, -1 proven loss. Terminal
 * nodes are proven by the rules (a draw stays unproven, always worth 1/2).
 * Backing up, a node one of whose children is a proven win for the side to
 * move there is a proven loss for the player who moved into it; a node all
 * of whose children are proven losses for the side to move is a proven win.
 * Selection skips proven-loss children; the search stops once the root is
 * proven. The move played is a proven win if there is one, else the most
 * visited child that is not a proven loss (else the most visited child).
 *
 * Rules in the tree and the playouts: majority and no-move (board_status),
 * repetition counted since the last capture including the game's history
 * before the root (g->hist copied into a key buffer followed by the path's
 * keys; a 256-bit filter of the keys avoids most scans), and the ply limit
 * (g->plies + plies from the root vs max_plies). When the variant has no ply
 * limit, or it is more than MCTS_HORIZON plies away, a line is cut at
 * MCTS_HORIZON plies from the root and scored by the cycle rule (the
 * transfer of the ply limit); such a cut is never a proof.
 *
 * Reported score (player_info.score, from the side to move): a proven win
 * in n plies along the pv is PLAYER_WIN - n, a proven loss -(PLAYER_WIN - n);
 * otherwise the mean reward q of the chosen move mapped linearly to
 * "centiseeds": 2000·(q - 1/2), i.e. -1000..+1000. nodes and playouts both
 * give the iterations done (each is one walk from the root and one playout,
 * leaf evaluation or terminal node); the pv is the line of most visited
 * children.
 *
 * Leaves valued by a network (eval=net|FILE) instead of a playout: the
 * network's evaluation e of the new leaf, in centiseeds from the side to
 * move, becomes its win chance p = 1 / (1 + exp(-e / MCTS_NET_SCALE)) (the
 * scale `oware tune net` trains it under), and the reward, kept in whole
 * half points, is drawn from the search's generator with expectation 2p:
 * floor(2p), plus one half point with probability 2p - floor(2p). The
 * nodes keep their integer counts and the move still depends only on the
 * seed; the rules, the tables and the solver work as with playouts. */

/* Plies a line may run past the root before it is cut (see above). */
#define MCTS_HORIZON 10000
/* Nodes of the pool at create (grown by doubling). */
#define MCTS_POOL_START 16384
/* Iterations between two looks at the clock and the stop flag. */
#define MCTS_CHECK_EVERY 32
/* A search stops before the visit counts could overflow. */
#define MCTS_MAX_ITERATIONS 0x7fffffffLL
/* Centiseeds of the network's evaluation per unit of the logistic (tune net's --scale). */
#define MCTS_NET_SCALE 400.0
/* The iteration count when no limit is given at all (playouts=0, movetime=0). */
#define MCTS_DEFAULT_PLAYOUTS 10000

enum { POLICY_RANDOM, POLICY_CAPTURE };

/* A line cut at the horizon: scored like the ply limit but not a proof. */
#define END_HORIZON ((board_end)(BOARD_END_PLY_LIMIT + 1))

enum {
  F_SEEN = 1,     /* the end rules were checked */
  F_TERMINAL = 2, /* the game is over here; the reward is in bits 2-3 */
  F_SHIFT = 2
};

typedef struct node {
  uint32_t visits;
  uint32_t wins2; /* rewards in half points for the player who moved into the node */
  uint32_t child; /* first child in the pool; 0 = not expanded */
  uint8_t nchild;
  uint8_t move;   /* house index of the move into the node */
  int8_t proof;   /* +1 / -1: proven win / loss for the player who moved into it */
  uint8_t flags;  /* F_SEEN, F_TERMINAL and the terminal reward */
} node;

typedef struct mcts {
  /* settings from the options */
  double c;
  long long playouts; /* 0 = none */
  int playouts_given; /* playouts= in the spec, or set as a parameter */
  int movetime_ms;    /* 0 = none */
  int policy;
  int solver;
  int even_budget; /* budget=even: time_budget_even_of on a clock */
  size_t max_nodes;
  /* the pool: owned, freed by destroy; nodes[1] is the root during a search */
  node *nodes;
  size_t cap, used;
  int full; /* the pool cannot grow any more in this search */
  /* key buffer: the game's history since the last capture, then the keys of
   * the line being walked; owned, freed by destroy, grown at choose only */
  uint64_t *keys;
  size_t keys_cap;
  uint32_t *path; /* node indices of the walk, MCTS_HORIZON + 2; owned */
  /* per search */
  const variant *v;
  rng r;
  board root;
  int root_top, root_irrev;
  uint64_t root_seen[4];
  int horizon;           /* plies from the root where a line ends */
  board_end horizon_end; /* BOARD_END_PLY_LIMIT or END_HORIZON */
  int seldepth;          /* deepest tree node reached */
  tablebase tb;          /* egdb=: decided endgames are proven terminal nodes */
  eval_net *net;         /* eval=net|FILE: leaves valued by the network (NULL: playouts) */
} mcts;

/* ---- The walk state: where a line is, for the rules that need history. ---- */

typedef struct line {
  int top;          /* index of the current position's key in keys[] */
  int irrev;        /* index of the first key since the last capture */
  int depth;        /* plies from the root */
  uint64_t seen[4]; /* filter of keys[irrev..top] by the key's top 8 bits */
} line;

/* Records the key of the position just reached by a move that took `taken`
 * seeds. Returns whether the filter says it may have occurred already. */
static inline int line_push(line *l, uint64_t *keys, uint64_t key, int taken) {
  keys[++l->top] = key;
  l->depth++;
  if (taken) {
    l->irrev = l->top;
    l->seen[0] = l->seen[1] = l->seen[2] = l->seen[3] = 0;
  }
  uint64_t k = key >> 56, bit = 1ULL << (k & 63), *w = &l->seen[k >> 6];
  int hit = (*w & bit) != 0;
  *w |= bit;
  return hit;
}

/* Occurrences of keys[top] among keys[irrev..top] (same side to move: every other one). */
static inline int occurrences(const uint64_t *keys, int irrev, int top) {
  int n = 0;
  uint64_t k = keys[top];
  for (int i = top; i >= irrev; i -= 2) n += keys[i] == k;
  return n;
}

/* The end rules in their order for the position b at the head of l (hit:
 * line_push's answer); stores the legal moves in *legal. */
static inline board_end line_status(const mcts *s, const board *b, const line *l, int hit,
                                    uint32_t *legal) {
  board_end e = board_status(b, s->v, legal);
  if (e != BOARD_END_NONE) return e;
  if (hit && s->v->repetition && occurrences(s->keys, l->irrev, l->top) >= s->v->repetition)
    return BOARD_END_REPETITION;
  if (l->depth >= s->horizon) return s->horizon_end;
  return BOARD_END_NONE;
}

/* Reward of South in half points of a game that ended in b for `why`. */
static inline int south_reward(const board *b, const variant *v, board_end why) {
  int score2[2];
  board_final(b, v, why == END_HORIZON ? BOARD_END_PLY_LIMIT : why, score2);
  return score2[0] > score2[1] ? 2 : score2[0] == score2[1] ? 1 : 0;
}

/* ---- Playout policies. ---- */

/* The capture policy: the move that captures most (ties at random), else a
 * random move. */
static inline int pick_capture(const board *b, const variant *v, uint32_t legal, rng *r) {
  int best = 0, ties = 0, move = -1;
  for (uint32_t l = legal; l; l &= l - 1) {
    int m = __builtin_ctz(l), t = board_capture_of(b, v, b->side, m);
    if (t > best) {
      best = t;
      ties = 1;
      move = m;
    } else if (t == best && t && rng_below(r, (uint32_t)++ties) == 0) {
      move = m;
    }
  }
  return move >= 0 ? move : rng_pick_bit(r, legal);
}

/* Plays b (not over, legal moves `legal`) out to the end of the game from
 * line l; returns South's reward in half points. b and l are scratch. */
static int playout(mcts *s, board *b, line *l, uint32_t legal) {
  const variant *v = s->v;
  uint64_t *keys = s->keys;
  for (;;) {
    int m = s->policy == POLICY_CAPTURE ? pick_capture(b, v, legal, &s->r)
                                        : rng_pick_bit(&s->r, legal);
    int taken = board_play(b, v, m);
    int hit = line_push(l, keys, b->key, taken);
    board_end e = line_status(s, b, l, hit, &legal);
    if (e != BOARD_END_NONE) return south_reward(b, v, e);
    int res;
    if (s->tb.db && tablebase_result(&s->tb, b, v, &res))
      return b->side == BOARD_SOUTH ? res + 1 : 1 - res;
  }
}

/* South's reward in half points for the leaf b (not over, legal moves
 * `legal`, line l): a playout, or a draw with the network's win chance
 * (see Design). */
static int leaf_reward(mcts *s, board *b, line *l, uint32_t legal) {
  if (!s->net) return playout(s, b, l, legal);
  double e = eval_net_value(s->net, b, s->v);
  double x = 2.0 / (1.0 + exp(-e / MCTS_NET_SCALE));
  int r = (int)x;
  if (r < 2 && rng_double(&s->r) < x - r) r++;
  return b->side == BOARD_SOUTH ? r : 2 - r;
}

/* ---- The tree. ---- */

/* Makes room for k more nodes. Returns 0 when the pool is at its cap. */
static int pool_reserve(mcts *s, size_t k) {
  if (s->used + k <= s->cap) return 1;
  if (s->full || s->used + k > s->max_nodes) {
    s->full = 1;
    return 0;
  }
  size_t ncap = s->cap;
  while (ncap < s->used + k) ncap *= 2;
  if (ncap > s->max_nodes) ncap = s->max_nodes;
  node *n = realloc(s->nodes, ncap * sizeof *n);
  if (!n) {
    s->full = 1; /* out of memory: search on with the tree as it is */
    return 0;
  }
  s->nodes = n;
  s->cap = ncap;
  return 1;
}

/* Creates the children of node x, whose position b is not over. Returns 0
 * when the pool is full (x stays a leaf). May move the pool. */
static int expand(mcts *s, uint32_t x, const board *b) {
  uint32_t legal = board_legal(b, s->v);
  int k = __builtin_popcount(legal);
  if (!pool_reserve(s, (size_t)k)) return 0;
  uint32_t first = (uint32_t)s->used;
  s->used += (size_t)k;
  node *c = &s->nodes[first];
  for (; legal; legal &= legal - 1, c++) {
    memset(c, 0, sizeof *c);
    c->move = (uint8_t)__builtin_ctz(legal);
  }
  s->nodes[x].child = first;
  s->nodes[x].nchild = (uint8_t)k;
  return 1;
}

/* The child of x to walk into: an unvisited one at random, else the best
 * UCT value among those that are not proven losses for the side to move. */
static uint32_t select_child(mcts *s, uint32_t x) {
  const node *n = &s->nodes[x], *ch = &s->nodes[n->child];
  const int k = n->nchild;
  int unvisited = 0, pick = -1;
  for (int i = 0; i < k; i++)
    if (ch[i].visits == 0 && rng_below(&s->r, (uint32_t)++unvisited) == 0) pick = i;
  if (pick >= 0) return n->child + (uint32_t)pick;
  const double explore = s->c * sqrt(log((double)n->visits));
  double best = -1.0;
  for (int i = 0; i < k; i++) {
    if (s->solver && ch[i].proof < 0) continue;
    double nv = (double)ch[i].visits;
    double u = 0.5 * ch[i].wins2 / nv + explore / sqrt(nv);
    if (u > best) {
      best = u;
      pick = i;
    }
  }
  if (pick < 0) pick = 0; /* every child lost: x is proven, only reached defensively */
  return n->child + (uint32_t)pick;
}

/* Adds South's reward r2 to the walk's nodes path[0..len-1] and, with the
 * solver, carries proofs up from the leaf as far as they go. */
static void backup(mcts *s, int len, int r2) {
  const int root_side = s->root.side;
  int prove = s->solver;
  for (int d = len - 1; d >= 0; d--) {
    node *x = &s->nodes[s->path[d]];
    int mover = root_side ^ ((d + 1) & 1); /* who moved into the node at depth d */
    x->visits++;
    x->wins2 += (uint32_t)(mover == BOARD_SOUTH ? r2 : 2 - r2);
    if (!prove || d == len - 1) continue;
    const node *c = &s->nodes[s->path[d + 1]];
    if (c->proof > 0) {
      x->proof = -1; /* the side to move at x has a winning move */
    } else if (c->proof < 0) {
      const node *ch = &s->nodes[x->child];
      int all = 1;
      for (int i = 0; i < x->nchild && all; i++) all = ch[i].proof < 0;
      if (all) x->proof = 1;
      else prove = 0;
    } else {
      prove = 0;
    }
  }
}

/* One iteration: walk down from the root, check or expand the leaf, play
 * out, back up. */
static void iterate(mcts *s) {
  board b = s->root;
  line l = {s->root_top, s->root_irrev, 0, {0, 0, 0, 0}};
  memcpy(l.seen, s->root_seen, sizeof l.seen);
  uint32_t x = 1;
  int len = 0, r2, hit = 0;
  s->path[len++] = x;
  for (;;) {
    node *n = &s->nodes[x];
    if (n->flags & F_TERMINAL) {
      r2 = (n->flags >> F_SHIFT) & 3; /* for the mover into n */
      if (b.side == BOARD_SOUTH) r2 = 2 - r2;
      break;
    }
    if (!(n->flags & F_SEEN)) {
      /* First visit: the end rules, then a playout. */
      n->flags |= F_SEEN;
      uint32_t legal;
      board_end e = line_status(s, &b, &l, hit, &legal);
      if (e != BOARD_END_NONE) {
        r2 = south_reward(&b, s->v, e);
        int mine = b.side == BOARD_SOUTH ? 2 - r2 : r2; /* the mover into n is 1 - side */
        n->flags |= (uint8_t)(F_TERMINAL | mine << F_SHIFT);
        if (e != END_HORIZON) n->proof = (int8_t)(mine == 2 ? 1 : mine == 0 ? -1 : 0);
        break;
      }
      int res; /* the tables decide it: a terminal node, proven */
      if (s->tb.db && tablebase_result(&s->tb, &b, s->v, &res)) {
        r2 = b.side == BOARD_SOUTH ? res + 1 : 1 - res;
        int mine = 1 - res;
        n->flags |= (uint8_t)(F_TERMINAL | mine << F_SHIFT);
        n->proof = (int8_t)(mine == 2 ? 1 : mine == 0 ? -1 : 0);
        break;
      }
      r2 = leaf_reward(s, &b, &l, legal);
      break;
    }
    if (!n->child && !expand(s, x, &b)) {
      /* The pool is full: a playout from this leaf. */
      uint32_t legal = board_legal(&b, s->v);
      r2 = leaf_reward(s, &b, &l, legal);
      break;
    }
    x = select_child(s, x);
    int taken = board_play(&b, s->v, s->nodes[x].move);
    hit = line_push(&l, s->keys, b.key, taken);
    s->path[len++] = x;
    if (l.depth > s->seldepth) s->seldepth = l.depth;
  }
  backup(s, len, r2);
}

/* The child of x to play or to show: a proven win for the side to move,
 * else the most visited that is not a proven loss, else the most visited.
 * Ties go to the larger reward, then to the lower house. */
static uint32_t best_child(const mcts *s, uint32_t x) {
  const node *n = &s->nodes[x], *ch = &s->nodes[n->child];
  int best = -1, rank = -1;
  for (int i = 0; i < n->nchild; i++) {
    int r = s->solver ? (ch[i].proof > 0 ? 2 : ch[i].proof == 0 ? 1 : 0) : 1;
    if (best < 0 || r > rank ||
        (r == rank && (ch[i].visits > ch[best].visits ||
                       (ch[i].visits == ch[best].visits && ch[i].wins2 > ch[best].wins2)))) {
      best = i;
      rank = r;
    }
  }
  return n->child + (uint32_t)best;
}

/* Fills the score and pv of info from the tree. */
static void report(const mcts *s, player_info *info) {
  info->pvlen = 0;
  uint32_t x = 1;
  while (s->nodes[x].child && info->pvlen < PLAYER_PV_MAX) {
    uint32_t c = best_child(s, x);
    if (!s->nodes[c].visits) break;
    info->pv[info->pvlen++] = s->nodes[c].move;
    x = c;
  }
  info->depth = info->pvlen;
  info->seldepth = s->seldepth;
  if (!s->nodes[1].child) return;
  const node *c = &s->nodes[best_child(s, 1)];
  info->scored = (s->solver && c->proof) || c->visits;
  if (s->solver && c->proof > 0) {
    info->score = PLAYER_WIN - info->pvlen;
  } else if (s->solver && c->proof < 0) {
    info->score = -(PLAYER_WIN - info->pvlen);
  } else if (c->visits) {
    double q = 0.5 * c->wins2 / c->visits;
    info->score = (int)lround(2000.0 * (q - 0.5));
  } else {
    info->score = 0;
  }
}

/* Sets up the root for a search of g. Returns 0, or -1 when out of memory. */
static int prepare(mcts *s, const game *g) {
  s->v = &g->v;
  s->root = g->pos;
  s->horizon = MCTS_HORIZON;
  s->horizon_end = END_HORIZON;
  if (g->v.max_plies && g->v.max_plies - g->plies <= MCTS_HORIZON) {
    s->horizon = g->v.max_plies - g->plies;
    s->horizon_end = BOARD_END_PLY_LIMIT;
  }
  /* The history since the last capture, the root's key last (added if a
   * caller's game lacks it). */
  int hist = g->hist_len > 0 && g->hist[g->hist_len - 1] == g->pos.key ? g->hist_len : 0;
  size_t need = (size_t)hist + 1 + (size_t)s->horizon + 1;
  if (need > s->keys_cap) {
    uint64_t *k = realloc(s->keys, need * sizeof *k);
    if (!k) return -1;
    s->keys = k;
    s->keys_cap = need;
  }
  if (hist) {
    memcpy(s->keys, g->hist, (size_t)hist * sizeof *s->keys);
  } else {
    s->keys[0] = g->pos.key;
    hist = 1;
  }
  s->root_top = hist - 1;
  s->root_irrev = 0;
  memset(s->root_seen, 0, sizeof s->root_seen);
  for (int i = 0; i < hist; i++) {
    uint64_t k = s->keys[i] >> 56;
    s->root_seen[k >> 6] |= 1ULL << (k & 63);
  }
  s->used = 1; /* index 0 is the "no child" mark */
  s->full = 0;
  s->seldepth = 0;
  if (!pool_reserve(s, 1)) return -1;
  memset(&s->nodes[1], 0, sizeof s->nodes[1]);
  s->nodes[1].flags = F_SEEN;
  s->used = 2;
  if (!expand(s, 1, &s->root)) return -1;
  return 0;
}

/* The time management of a clock: the budget and the root's best child at
 * the last look (changes: how often it changed lately, halved at each look). */
typedef struct clock_watch {
  time_budget b;
  int changes, looks;
  uint32_t best;
} clock_watch;

/* Whether to stop after `used` seconds and `done` iterations: past the
 * budget's aim, scaled up while the best child keeps changing
 * (time_budget_scaled). With budget=even also at once when the root has one
 * move, and early when the best child leads every other by more visits
 * than the iterations left to the aim at the rate so far could give one of
 * them (the move cannot change any more: the time is saved for the moves to
 * come). budget=front (the default before schema 11) has none of them. */
static int clock_enough(const mcts *s, clock_watch *w, double used, long long done) {
  const node *root = &s->nodes[1], *ch = &s->nodes[root->child];
  if (s->even_budget && root->nchild <= 1) return 1;
  uint32_t b = best_child(s, 1);
  w->changes = w->changes / 2 + (w->looks++ && b != w->best ? 2 : 0);
  w->best = b;
  const double aim_ms = time_budget_scaled(&w->b, w->changes, 0), used_ms = used * 1000.0;
  if (used_ms > aim_ms) return 1;
  if (!s->even_budget) return 0;
  uint32_t second = 0;
  for (int i = 0; i < root->nchild; i++)
    if (root->child + (uint32_t)i != b && ch[i].visits > second) second = ch[i].visits;
  const double left = used_ms > 0 ? (aim_ms - used_ms) * (double)done / used_ms : 1e18;
  return (double)s->nodes[b].visits - (double)second > left;
}

static player_status choose(player *p, const game *g, const player_limits *lim, int *move,
                            player_info *info, char *err, size_t errlen) {
  mcts *s = p->data;
  const double t0 = clock_now();
  rng_seed(&s->r, player_position_seed(p, g));
  if (prepare(s, g)) {
    error_set(err, errlen, "mcts: out of memory");
    return PLAYER_ERROR;
  }
  /* Limits: when lim->playouts or lim->movetime_ms is set, the move's
   * limits replace the player's own (as a UCI go command does; lim->depth
   * and lim->nodes are not used); the first limit reached stops; with none
   * at all, MCTS_DEFAULT_PLAYOUTS. infinite searches until p->stop, which
   * also ends any other search early. */
  const int infinite = lim && lim->infinite;
  const int own = !(lim && (lim->playouts || lim->movetime_ms));
  long long limit = own ? s->playouts : lim->playouts;
  int movetime = own ? s->movetime_ms : lim->movetime_ms;
  /* The spec's own movetime= without playouts= searches for that time:
   * the playouts' default is for a spec that gives neither. */
  if (own && movetime && !s->playouts_given) limit = 0;
  if (infinite) limit = movetime = 0;
  else if (!limit && !movetime) limit = MCTS_DEFAULT_PLAYOUTS;
  if (!limit || limit > MCTS_MAX_ITERATIONS) limit = MCTS_MAX_ITERATIONS;
  clock_watch cw = {{0, 0}, 0, 0, 0};
  if (!infinite && own && time_budget_applies(lim) && !player_config_isset(&p->config, "playouts") &&
      !player_config_isset(&p->config, "movetime")) {
    /* A clock: the playouts its budget allows, never past its hard limit. */
    cw.b = s->even_budget ? time_budget_even_of(lim, g) : time_budget_of(lim, g);
    if (s->even_budget) cw.b.soft_ms = fmin(MCTS_AIM_STRETCH * cw.b.soft_ms, cw.b.hard_ms);
    limit = MCTS_MAX_ITERATIONS;
    movetime = time_budget_hard_ms(&cw.b);
  }
  const double deadline = movetime ? t0 + movetime / 1000.0 : 0;
  double next_info = t0 + 1.0;

  long long done = 0;
  while (done < limit && !(s->solver && s->nodes[1].proof)) {
    iterate(s);
    done++;
    if (done % MCTS_CHECK_EVERY == 0) {
      if (player_stopped(p)) break;
      if (deadline > 0 || p->on_info) {
        double t = clock_now();
        if (deadline > 0 && t >= deadline) break;
        if (cw.b.hard_ms > 0 && done % (16 * MCTS_CHECK_EVERY) == 0 &&
            clock_enough(s, &cw, t - t0, done))
          break;
        if (p->on_info && t >= next_info) {
          player_info it;
          memset(&it, 0, sizeof it);
          report(s, &it);
          it.nodes = it.playouts = done;
          it.seconds = t - t0;
          p->on_info(p->info_ctx, &it);
          next_info = t + 1.0;
        }
      }
    }
  }
  if (infinite) {
    /* A proven root or the iteration cap ended the work early: wait for stop. */
    const struct timespec ms = {0, 1000000};
    while (!player_stopped(p)) nanosleep(&ms, NULL);
  }

  *move = s->nodes[best_child(s, 1)].move;
  if (info) {
    report(s, info);
    info->nodes = info->playouts = done;
    info->seconds = clock_now() - t0;
  }
  return PLAYER_OK;
}

static int new_game(player *p, const variant *v, char *err, size_t errlen) {
  mcts *s = p->data;
  if (s->net && eval_net_check_variant(s->net, v, err, errlen)) return -1;
  return tablebase_new_game(&s->tb, v, err, errlen);
}

static void destroy(player *p) {
  mcts *s = p->data;
  if (!s) return;
  tablebase_free(&s->tb);
  if (s->net) eval_net_free(s->net);
  free(s->net);
  free(s->nodes);
  free(s->keys);
  free(s->path);
  free(s);
  p->data = NULL;
}

/* The options that a tuner or a calibration may change between moves, each
 * described once for the option table and the parameter list (player.h:
 * PLAYER_OPTION_OF, PLAYER_PARAM_OF). */
#define OPT_PLAYOUTS(X)                                                                            \
  X("playouts", PLAYER_OPT_INT, "10000", 0, 1e15,                                                  \
    "playouts per move (0 = none; with movetime= and no playouts=, none: the time decides; "     \
    "with both, the first reached stops)",                                                         \
    100, 1e6)
#define OPT_MOVETIME(X) \
  X("movetime", PLAYER_OPT_INT, "0", 0, 1e8, "time per move in ms (0 = none)", 0, 10000)
#define OPT_C(X)                                                                                   \
  X("c", PLAYER_OPT_REAL, "0.5", 0, 100,                                                           \
    "UCT exploration constant (rewards in [0,1]: win 1, draw 1/2, loss 0)", 0.05, 2)
#define OPT_SOLVER(X)                                                                              \
  X("solver", PLAYER_OPT_INT, "1", 0, 1,                                                           \
    "MCTS-solver: propagate proven wins and losses, play a proven win at once", 0, 1)

static const player_param_info params_list[] = {
    OPT_PLAYOUTS(PLAYER_PARAM_OF), OPT_MOVETIME(PLAYER_PARAM_OF), OPT_C(PLAYER_PARAM_OF),
    OPT_SOLVER(PLAYER_PARAM_OF), {NULL, NULL, 0, 0, 0, 0, 0}};

static const player_param_info *params(const player *p) {
  (void)p;
  return params_list;
}

/* name and value were checked by player_set_param against params_list. */
static int set_param(player *p, const char *name, double value, char *err, size_t errlen) {
  mcts *s = p->data;
  if (!strcmp(name, "playouts")) {
    s->playouts = (long long)value;
    s->playouts_given = 1;
  }
  else if (!strcmp(name, "movetime")) s->movetime_ms = (int)value;
  else if (!strcmp(name, "c")) s->c = value;
  else if (!strcmp(name, "solver")) s->solver = (int)value;
  else {
    error_set(err, errlen, "mcts: no parameter '%s'", name);
    return -1;
  }
  return 0;
}

static int create(player *p, char *err, size_t errlen) {
  static const player_hooks hooks = {new_game, choose, destroy, params, set_param};
  mcts *s = player_setup(p, &hooks, sizeof *s, err, errlen);
  if (!s) return -1;
  const player_config *c = &p->config;
  if (tablebase_init(&s->tb, player_config_text(c, "egdb"), err, errlen)) {
    destroy(p);
    return -1;
  }
  s->c = player_config_real(c, "c");
  s->playouts = player_config_int(c, "playouts");
  s->playouts_given = player_config_isset(c, "playouts");
  s->movetime_ms = (int)player_config_int(c, "movetime");
  const char *pol = player_config_text(c, "policy");
  s->policy = pol && !strcmp(pol, "capture") ? POLICY_CAPTURE : POLICY_RANDOM;
  s->solver = (int)player_config_int(c, "solver");
  const char *budget = player_config_text(c, "budget");
  s->even_budget = budget && !strcmp(budget, "even");
  const char *ev = player_config_text(c, "eval");
  if (ev && strcmp(ev, "off")) {
    char e[ERROR_MAX];
    if (!(s->net = calloc(1, sizeof *s->net))) {
      error_set(err, errlen, "mcts: out of memory");
      destroy(p);
      return -1;
    }
    if (eval_net_named(ev, s->net, e, sizeof e)) {
      error_set(err, errlen, "mcts: eval=%s: %s", ev, e);
      destroy(p);
      return -1;
    }
  }
  s->max_nodes = ((size_t)player_config_int(c, "memory") << 20) / sizeof(node);
  s->cap = s->max_nodes < MCTS_POOL_START ? s->max_nodes : MCTS_POOL_START;
  s->nodes = malloc(s->cap * sizeof *s->nodes);
  s->path = malloc((MCTS_HORIZON + 2) * sizeof *s->path);
  s->keys_cap = 1024 + MCTS_HORIZON;
  s->keys = malloc(s->keys_cap * sizeof *s->keys);
  if (!s->nodes || !s->path || !s->keys) {
    error_set(err, errlen, "mcts: out of memory");
    destroy(p);
    return -1;
  }
  return 0;
}

static const player_option options[] = {
    OPT_PLAYOUTS(PLAYER_OPTION_OF),
    OPT_MOVETIME(PLAYER_OPTION_OF),
    OPT_C(PLAYER_OPTION_OF),
    {"policy", PLAYER_OPT_CHOICE, "random", 0, 0, "random|capture",
     "playout moves: uniformly random, or the biggest capture when there is one"},
    OPT_SOLVER(PLAYER_OPTION_OF),
    {"budget", PLAYER_OPT_CHOICE, "even", 0, 0, "front|even",
     "on a clock (tc=): front = minimax's share, more early (time_budget_of); even = the time left "
     "over the moves a median game still lasts (time_budget_even_of), aimed at 1.5 times, with an "
     "early stop when the move cannot change and a forced move at once"},
    {"memory", PLAYER_OPT_INT, "128", 1, 16384, NULL,
     "tree size cap in MiB (16-byte nodes; then the leaves stop growing)"},
    {"egdb", PLAYER_OPT_TEXT, "auto", 0, 0, NULL, TABLEBASE_OPTION_HELP},
    {"eval", PLAYER_OPT_TEXT, "off", 0, 0, NULL,
     "leaves: off (a playout to the game's end), net, net2 or net3 (the built-in networks, 6 houses "
     "of 4 seeds; minimax's eval= says which is which) or a network file of oware tune net: the "
     "leaf's value drawn as a reward with the network's win chance, no playout"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

int mcts_spec_front_by_default(const char *spec, char **out) {
  *out = NULL;
  if (!player_spec_is_type(spec, "mcts")) return 0;
  int has = player_spec_has(spec, "budget");
  if (has) return has < 0 ? -1 : 0;
  return player_spec_append(spec, "budget=front", out) ? -1 : 1;
}

int mcts_spec_playouts_by_default(const char *spec, char **out) {
  *out = NULL;
  if (!player_spec_is_type(spec, "mcts")) return 0;
  int timed = player_spec_has(spec, "movetime");
  if (timed <= 0) return timed;
  int has = player_spec_has(spec, "playouts");
  if (has) return has < 0 ? -1 : 0;
  return player_spec_append(spec, "playouts=10000", out) ? -1 : 1;
}

const player_type player_mcts = {"mcts", "UCT Monte Carlo tree search with an MCTS-solver",
                                 options, create, 0};
