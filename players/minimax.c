/* minimax.c: the `minimax` player: negamax alpha-beta, PVS, iterative deepening, TT. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/thread.h"
#include "players/book.h"
#include "players/convert.h"
#include "players/fight.h"
#include "players/eval.h"
#include "players/eval_ending.h"
#include "players/eval_net.h"
#include "players/minimax.h"
#include "players/time_budget.h"
#include "players/minimax_tt.h"
#include "players/player.h"
#include "players/tablebase.h"

#define MAXPLY 128
#define MINIMAX_THREADS_MAX 64
#define INF (PLAYER_WIN + 1)
#define WIN_BOUND (PLAYER_WIN - 1000)
/* Positions the search for a table win's converting move may visit. */
#define MINIMAX_CONVERT_BUDGET 100000

typedef struct mm mm;

/* What one thread of a search owns: the main thread (number 0) and each
 * helper of threads=N. Everything else (settings, table, book, tables) is
 * the player's, shared and read-only during a search but for the atomics. */
typedef struct mm_thread {
  mm *s;
  int start_depth;   /* a helper's first iteration */
  long long nodes, limit;
  long long flushed; /* nodes already added to s->nodes_all */
  int aborted;
  int history[2][VARIANT_MAX_PITS];
  int killer[MAXPLY][2];
  int pv[MAXPLY][MAXPLY];
  int pvlen[MAXPLY];
  int seldepth;
  int root_score; /* score of the root's best move so far in this iteration */
  uint64_t *keys; /* positions since the last capture, game then path */
  /* above[i]: a hash of the multiset of the positions before keys[i] since
   * the last capture (0 when the rule is off): the part of the history a
   * repetition in keys[i]'s subtree can depend on, mixed into its table key. */
  uint64_t *above;
  /* How many of the positions in keys fall in each bucket of the low key
   * bits: a count of 1 (the position itself) proves a first occurrence. */
  uint16_t seen[4096];
} mm_thread;

struct mm {
  /* settings */
  int depth;
  long long nodes_limit;
  int movetime_ms;
  double noise;
  int lmr; /* late-move reductions on (lmr=1) */
  int qs;  /* quiescence: plies of captures past the horizon (0 = off) */
  int tt_history; /* tt_history=1: the table's key takes in the positions since the last capture */
  int tb_bounds;  /* tb_bounds=1: the tables' bounds narrow the window and bound the evaluation */
  int traps;      /* traps=1: a loss or a draw seen whole spends the rest on the opponent's replies */
  int cap_exact;  /* cap_exact=1: a search cut short at the cap or on a win is checked with keys */
  int threads;
  eval_ending *ending; /* ending=: corrections in endings (NULL: off) */
  int ending_builtin;  /* ending=on: the built-in table, for abapa's board only */
  int ending_on;       /* the corrections apply in this game */
  eval_net *net;       /* eval=net|FILE|auto: the network loaded (NULL: eval=linear) */
  int net_auto;        /* eval=auto: net is the built-in network, used on its board only */
  const eval_net *ev;  /* the network this game evaluates with (NULL: the linear one) */
  int w[EVAL_N];
  uint64_t zstore[VARIANT_MAX_TOTAL + 1];
  mmtt tt;
  uint8_t age;
  /* per search, set by the main thread before the helpers are woken */
  const variant *v;
  player *p;
  uint64_t noise_seed;
  double deadline;
  int infinite;
  int game_plies;
  const board *root;
  int root_top;        /* index of the root in keys */
  uint32_t root_moves; /* the root moves searched (players/fight.h), or all legal ones */
  int root_some;       /* root_moves leaves some out: the root's score is not stored */
  int tb_off;          /* the tables are not probed in this search (fight.h) */
  int keyed;           /* the hash keys take in the history since the last capture (tt_history) */
  uint64_t tt_salt;    /* mixed into every hash key: the opponent's searches of a trap (0 else) */
  long long limit_all; /* node limit of all threads together (threads > 1) */
  /* shared by the threads during a search */
  atomic_int halt;             /* the helpers (or all, at a node limit) stop */
  atomic_llong nodes_all;      /* nodes added by the threads, every 256 */
  atomic_int at_depth[MAXPLY]; /* threads searching each depth */
  mm_thread *th;               /* `threads` of them: th[0] is the main thread */
  thread_team *helpers;        /* threads 1.. (threads > 1): from the first search on */
  int helpers_busy;            /* woken for the search in progress */
  tablebase tb; /* egdb=: decided endgames score as game ends */
  book *book;   /* book=: the moves of an opening book */
  int book_on;  /* the book is of this game's variant */
};

/* A search with the tables off (fight.h) keeps its scores apart from the
 * searches with them on: a table's proven result read back from the hash
 * table would hide the differences between lost moves that it searches for. */
#define TT_TABLES_OFF 0x6a09e667f3bcc909ULL
/* A search whose keys take in the history keeps its entries apart from
 * those of one whose keys do not: where the history is empty (after a
 * capture) the two keys would be equal, and the other's score there may
 * rest on repetitions of other paths below. */
#define TT_KEYED 0x3c6ef372fe94f82bULL

static inline uint64_t tt_key(const mm *s, const board *b) {
  return b->key ^ s->zstore[b->store[0]] ^ (s->tb_off ? TT_TABLES_OFF : 0) ^
         (s->keyed ? TT_KEYED : 0) ^ s->tt_salt;
}

/* A position's term in the hash of a multiset of positions (a sum of
 * these: a position twice differs from once, the order does not count). */
static inline uint64_t above_term(uint64_t key) {
  uint64_t x = key * 0x9e3779b97f4a7c15ULL;
  return x ^ x >> 29;
}

/* The hash above[top + 1] of a child of keys[top]: nothing after a capture;
 * otherwise the parent's with the parent added (while the rule is on). */
static inline void above_child(mm_thread *th, int top, int taken) {
  const mm *s = th->s;
  th->above[top + 1] = taken || !s->keyed || !s->v->repetition
                           ? 0
                           : th->above[top] + above_term(th->keys[top]);
}

/* The path gains c, the position after a move that took `taken`, at top + 1. */
static inline void path_push(mm_thread *th, int top, const board *c, int taken) {
  th->keys[top + 1] = c->key;
  above_child(th, top, taken);
  th->seen[c->key & 4095]++;
}

/* The path loses its position at top + 1. */
static inline void path_pop(mm_thread *th, int top) { th->seen[th->keys[top + 1] & 4095]--; }

/* Score of a game that ended in b for `why`, from the side to move. */
static int end_score(const mm *s, const board *b, board_end why, int ply) {
  int score2[2];
  board_final(b, s->v, why, score2);
  int d = score2[b->side] - score2[1 - b->side];
  return d > 0 ? PLAYER_WIN - ply : d < 0 ? -PLAYER_WIN + ply : 0;
}

/* What the endgame tables say of a node: bounds on its evaluation and on
 * its score (INF when none). */
typedef struct tb_window {
  int ev_lo, ev_hi; /* the final difference they prove, at the store's weight a seed */
  int lo, hi;       /* 0 where they prove at least (lo) or at most (hi) a draw */
} tb_window;

/* Probes b for a node at ply: 1 with *score when the tables decide it (a
 * game end's score); else 0, with the bounds of a cycle-sensitive position
 * in *tw when tb_bounds is on. */
static inline int tables_probe(const mm *s, const board *b, int ply, tb_window *tw, int *score) {
  int lo2, hi2;
  if (!tablebase_bounds(&s->tb, b, s->v, &lo2, &hi2)) return 0;
  if (lo2 > 0 || hi2 < 0 || (lo2 == 0 && hi2 == 0)) {
    *score = lo2 > 0 ? PLAYER_WIN - 200 - ply : hi2 < 0 ? -PLAYER_WIN + 200 + ply : 0;
    return 1;
  }
  if (s->tb_bounds) {
    const int seed = s->ev ? 100 : s->w[EVAL_STORE]; /* a seed in the evaluation */
    tw->ev_lo = lo2 * seed / 2;
    tw->ev_hi = hi2 * seed / 2;
    if (lo2 == 0) tw->lo = 0;
    if (hi2 == 0) tw->hi = 0;
  }
  return 0;
}

/* The linear evaluation with its corrections in endings. */
static int evaluate_linear(const mm *s, const board *b) {
  int f[EVAL_N];
  eval_compute(b, s->v, f);
  int e = eval_dot(s->w, f);
  if (s->ending_on) e += eval_ending_value(s->ending, s->v->total - b->store[0] - b->store[1], f);
  return e;
}

static int evaluate(mm *s, const board *b) {
  int e = s->ev ? eval_net_value(s->ev, b, s->v) : evaluate_linear(s, b);
  if (s->noise > 0) {
    uint64_t h = rng_mix(s->noise_seed, b->key ^ s->zstore[b->store[0]]);
    double u = (double)(h >> 11) * 0x1.0p-53; /* [0, 1) */
    e += (int)lround((2 * u - 1) * s->noise * 100);
  }
  if (e > WIN_BOUND - 1) e = WIN_BOUND - 1;
  if (e < -WIN_BOUND + 1) e = -WIN_BOUND + 1;
  return e;
}

/* The stop flags and the clock, every 256 nodes (a fraction of a
 * millisecond even on a loaded machine). One thread checks its node limit on
 * entering a node, in search; threads > 1 add their nodes to the shared
 * count here, and the one that takes it past the limit halts them all. */
static void check_limits(mm_thread *th) {
  if ((th->nodes & 255) == 0) {
    mm *s = th->s;
    if (atomic_load(&s->p->stop) || atomic_load_explicit(&s->halt, memory_order_relaxed))
      th->aborted = 1;
    if (s->deadline > 0 && clock_now() >= s->deadline) th->aborted = 1;
    if (s->threads > 1) {
      long long add = th->nodes - th->flushed;
      long long all = atomic_fetch_add_explicit(&s->nodes_all, add, memory_order_relaxed) + add;
      th->flushed = th->nodes;
      if (s->limit_all && all >= s->limit_all) {
        atomic_store_explicit(&s->halt, 1, memory_order_relaxed);
        th->aborted = 1;
      }
    }
  }
}

/* Repetition count of the position at keys[top] among positions since irrev. */
static int occurrences(const mm_thread *th, int irrev, int top) {
  int n = 1;
  uint64_t k = th->keys[top];
  for (int i = top - 2; i >= irrev; i -= 2) n += th->keys[i] == k;
  return n;
}

static int search(mm_thread *th, const board *b, int depth, int alpha, int beta, int ply, int irrev,
                  int top);

/* How the game ends at b, the node at ply (keys[top], the stretch since
 * the last capture from irrev): by the rules, by repetition on the path
 * (not at the root, which the game has judged) or by the ply limit; its
 * legal moves into *legal. */
static inline board_end node_end(const mm_thread *th, const board *b, uint32_t *legal, int ply,
                                 int irrev, int top) {
  const mm *s = th->s;
  board_end e = board_status(b, s->v, legal);
  if (e == BOARD_END_NONE && ply > 0) {
    if (s->v->repetition && th->seen[b->key & 4095] > 1 &&
        occurrences(th, irrev, top) >= s->v->repetition)
      e = BOARD_END_REPETITION;
    else if (s->v->max_plies && s->game_plies + ply >= s->v->max_plies)
      e = BOARD_END_PLY_LIMIT;
  }
  return e;
}

/* A selection sort step: the move of highest score among i..n-1 to place i
 * (the first of equals stays first). */
static inline void pick_best(int *move, int *score, int i, int n) {
  int k = i;
  for (int j = i + 1; j < n; j++)
    if (score[j] > score[k]) k = j;
  int t = move[i];
  move[i] = move[k];
  move[k] = t;
  t = score[i];
  score[i] = score[k];
  score[k] = t;
}

/* Quiescence at a node past the horizon (depth <= 0) whose static score
 * `stand` is below beta: the side to move keeps `stand` or plays one of its
 * captures, largest first, each searched at depth - 1 (so a line stops qs
 * plies past the horizon). A capture cannot repeat an earlier position, so
 * each child starts a new irreversible stretch. Fail-soft, like search. */
static int quiesce(mm_thread *th, const board *b, uint32_t legal, int stand, int depth, int alpha,
                   int beta, int ply, int top) {
  const mm *s = th->s;
  int move[VARIANT_MAX_PITS], take[VARIANT_MAX_PITS], n = 0;
  for (uint32_t l = legal; l; l &= l - 1) {
    int m = __builtin_ctz(l), c = board_capture_of(b, s->v, b->side, m);
    if (c) {
      move[n] = m;
      take[n++] = c;
    }
  }
  int best = stand;
  if (stand > alpha) alpha = stand;
  for (int i = 0; i < n; i++) {
    pick_best(move, take, i, n);
    board child = *b;
    board_play(&child, s->v, move[i]);
    path_push(th, top, &child, 1); /* a capture: nothing before it counts */
    int sc = -search(th, &child, depth - 1, -beta, -alpha, ply + 1, top + 1, top + 1);
    path_pop(th, top);
    if (th->aborted) return 0;
    if (sc > best) {
      best = sc;
      if (sc > alpha) {
        alpha = sc;
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

static int search(mm_thread *th, const board *b, int depth, int alpha, int beta, int ply, int irrev,
                  int top) {
  mm *s = th->s;
  th->pvlen[ply] = ply;
  if (th->limit && th->nodes >= th->limit) {
    th->aborted = 1;
    return 0;
  }
  th->nodes++;
  check_limits(th);
  if (th->aborted) return 0;
  if (ply > th->seldepth) th->seldepth = ply;

  uint32_t legal;
  board_end e = node_end(th, b, &legal, ply, irrev, top);
  if (e != BOARD_END_NONE) return end_score(s, b, e, ply);
  tb_window tw = {-INF, INF, -INF, INF};
  int tb_score;
  if (ply > 0 && s->tb.db && !s->tb_off && tables_probe(s, b, ply, &tw, &tb_score)) return tb_score;
  if (depth <= 0 || ply >= MAXPLY - 1) {
    /* The horizon: the static evaluation, or (quiescence) the side to move
     * may stand on it or go on with captures, up to qs plies past depth 0. */
    int stand = evaluate(s, b);
    if (stand < tw.ev_lo) stand = tw.ev_lo;
    if (stand > tw.ev_hi) stand = tw.ev_hi;
    if (depth <= -s->qs || ply >= MAXPLY - 1 || stand >= beta) return stand;
    return quiesce(th, b, legal, stand, depth, alpha, beta, ply, top);
  }

  /* Mate-distance pruning: no line from here can beat a win at this ply. */
  int mate = PLAYER_WIN - ply;
  if (alpha < -mate) alpha = -mate;
  if (beta > mate - 1) beta = mate - 1;
  if (alpha >= beta) return alpha;
  /* Proven to draw at least (lo2 = 0) or at most (hi2 = 0). */
  if (alpha < tw.lo) alpha = tw.lo;
  if (beta > tw.hi) beta = tw.hi;
  if (alpha >= beta) return alpha;

  /* With tt_history=1 the history since the last capture is part of the
   * key: a score that a repetition decided is trusted only where the same
   * positions precede (above is 0 otherwise). */
  const uint64_t key = tt_key(s, b) ^ th->above[top];
  if (ply == 0) legal &= s->root_moves;
  /* Frontier nodes are cheaper to search than to look up. */
  int tt_move = -1, use_tt = s->tt.e && depth >= 2 && !(ply == 0 && s->root_some);
  size_t bucket = 0;
  mmtt_hit hit;
  if (use_tt) {
    bucket = mmtt_bucket(&s->tt, key);
    if (mmtt_probe(&s->tt, bucket, key, &hit)) {
      tt_move = hit.move;
      if (hit.depth >= depth && ply > 0) {
        int sc = hit.score;
        if (sc > WIN_BOUND) sc -= ply;
        else if (sc < -WIN_BOUND) sc += ply;
        if (hit.flag == MMTT_EXACT || (hit.flag == MMTT_LOWER && sc >= beta) ||
            (hit.flag == MMTT_UPPER && sc <= alpha))
          return sc;
      }
    }
  }

  /* Moves, ordered: TT move, captures (largest first), killers, history.
   * Each is played only when its turn comes: a cut saves the others. */
  int move[VARIANT_MAX_PITS], order[VARIANT_MAX_PITS], n = 0;
  for (uint32_t l = legal; l; l &= l - 1) {
    int m = __builtin_ctz(l), o;
    if (m == tt_move) {
      o = 1 << 30;
    } else {
      int c = board_capture_of(b, s->v, b->side, m);
      if (c) o = (1 << 29) + c;
      else if (m == th->killer[ply][0]) o = (1 << 28) + 1;
      else if (m == th->killer[ply][1]) o = 1 << 28;
      else o = th->history[b->side][m];
    }
    move[n] = m;
    order[n++] = o;
  }

  const int alpha0 = alpha;
  int best = -INF, best_move = __builtin_ctz(legal);
  for (int i = 0; i < n; i++) {
    pick_best(move, order, i, n);
    board child = *b;
    int taken = board_play(&child, s->v, move[i]);
    int nirrev = taken ? top + 1 : irrev;
    path_push(th, top, &child, taken);
    int sc;
    if (i == 0) {
      sc = -search(th, &child, depth - 1, -beta, -alpha, ply + 1, nirrev, top + 1);
    } else {
      /* Late-move reductions: a late quiet move (no capture, not a killer)
       * is first searched a ply shallower, and again at full depth only
       * when it beats alpha there. */
      int r = 0;
      if (s->lmr && depth >= 3 && i >= 2 && !taken && order[i] < (1 << 28))
        r = 1 + (depth >= 5 && i >= 3) + (depth >= 9 && i >= 4);
      sc = alpha + 1;
      if (r)
        sc = -search(th, &child, depth - 1 - r, -alpha - 1, -alpha, ply + 1, nirrev, top + 1);
      if (sc > alpha && !th->aborted)
        sc = -search(th, &child, depth - 1, -alpha - 1, -alpha, ply + 1, nirrev, top + 1);
      if (sc > alpha && sc < beta && !th->aborted)
        sc = -search(th, &child, depth - 1, -beta, -alpha, ply + 1, nirrev, top + 1);
    }
    path_pop(th, top);
    if (th->aborted) return 0;
    if (sc > best) {
      best = sc;
      best_move = move[i];
      if (sc > alpha) {
        alpha = sc;
        if (ply == 0) th->root_score = sc;
        th->pv[ply][ply] = move[i];
        for (int j = ply + 1; j < th->pvlen[ply + 1]; j++) th->pv[ply][j] = th->pv[ply + 1][j];
        th->pvlen[ply] = th->pvlen[ply + 1] > ply + 1 ? th->pvlen[ply + 1] : ply + 1;
        if (alpha >= beta) {
          if (!taken) {
            th->history[b->side][move[i]] += depth * depth;
            if (th->history[b->side][move[i]] > (1 << 20))
              for (int a = 0; a < 2; a++)
                for (int m = 0; m < VARIANT_MAX_PITS; m++) th->history[a][m] >>= 1;
            if (th->killer[ply][0] != move[i]) {
              th->killer[ply][1] = th->killer[ply][0];
              th->killer[ply][0] = move[i];
            }
          }
          break;
        }
      }
    }
  }

  if (best < tw.lo) best = tw.lo;
  if (best > tw.hi) best = tw.hi;
  if (use_tt) {
    int flag = best <= alpha0 ? MMTT_UPPER : best >= beta ? MMTT_LOWER : MMTT_EXACT;
    int sc = best;
    if (sc > WIN_BOUND) sc += ply;
    else if (sc < -WIN_BOUND) sc -= ply;
    mmtt_store(&s->tt, bucket, key, sc, depth, flag, best_move, s->age);
  }
  return best;
}

/* Prepares th for a search from g's position: no killers or history yet,
 * the game's positions since the last capture. -1 when out of memory. */
static int thread_begin(mm_thread *th, const game *g) {
  th->nodes = 0;
  th->flushed = 0;
  th->aborted = 0;
  th->seldepth = 0;
  memset(th->history, 0, sizeof th->history);
  memset(th->killer, -1, sizeof th->killer);
  size_t n = (size_t)g->hist_len + MAXPLY + 2;
  th->keys = malloc(2 * n * sizeof *th->keys);
  if (!th->keys) return -1;
  th->above = th->keys + n;
  memcpy(th->keys, g->hist, (size_t)g->hist_len * sizeof *th->keys);
  th->above[0] = 0;
  for (int i = 0; i + 1 < g->hist_len; i++) above_child(th, i, 0);
  memset(th->seen, 0, sizeof th->seen);
  for (int i = 0; i < g->hist_len; i++) th->seen[g->hist[i] & 4095]++;
  return 0;
}

/* One iteration of th from the root; the threads count who searches which depth. */
static int search_root(mm_thread *th, int d) {
  mm *s = th->s;
  atomic_fetch_add_explicit(&s->at_depth[d], 1, memory_order_relaxed);
  int sc = search(th, s->root, d, -INF, INF, 0, 0, s->root_top);
  atomic_fetch_sub_explicit(&s->at_depth[d], 1, memory_order_relaxed);
  return sc;
}

/* A helper of threads=N: iterative deepening from its own first depth, its
 * results shared through the table alone, until the main thread halts it
 * (or a limit stops it). After an iteration it goes to the next depth that
 * fewer than half of the threads (at least one) are searching: the helpers
 * spread over the depths instead of all searching the main thread's. */
static void helper_run(void *ctx, int i) {
  mm *s = ctx;
  mm_thread *th = &s->th[i];
  const int crowd = s->threads / 2 > 1 ? s->threads / 2 : 1;
  for (int d = th->start_depth; d <= MAXPLY - 2;) {
    if (atomic_load_explicit(&s->halt, memory_order_relaxed)) break;
    search_root(th, d);
    if (th->aborted) break;
    d++;
    while (d < MAXPLY - 2 && atomic_load_explicit(&s->at_depth[d], memory_order_relaxed) >= crowd)
      d++;
  }
  atomic_fetch_add_explicit(&s->nodes_all, th->nodes - th->flushed, memory_order_relaxed);
  th->flushed = th->nodes;
}

/* The nodes of this search so far, all threads (the main thread's exact,
 * the helpers' as of their last flush). */
static long long total_nodes(mm *s) {
  const mm_thread *m = &s->th[0];
  if (s->threads == 1) return m->nodes;
  return atomic_load_explicit(&s->nodes_all, memory_order_relaxed) + m->nodes - m->flushed;
}

/* Wakes the helpers on the search set up in s, starting them at the first
 * search (they live as long as the player, parked between searches); 0, or
 * -1 with err. */
static int helpers_wake(mm *s, char *err, size_t errlen) {
  if (!s->helpers) {
    char e[ERROR_MAX];
    s->helpers = thread_team_start(s->threads - 1, helper_run, s, e, sizeof e);
    if (!s->helpers) {
      error_set(err, errlen, "minimax: threads=%d: %s", s->threads, e);
      return -1;
    }
  }
  for (int i = 1; i < s->threads; i++)
    s->th[i].start_depth = 1 + (i & 1); /* every other helper one ahead from the start */
  thread_team_wake(s->helpers);
  s->helpers_busy = 1;
  return 0;
}

/* Halts the helpers and waits until they are parked (none is searching:
 * the table may be cleared), frees every thread's keys. */
static void helpers_park(mm *s) {
  atomic_store(&s->halt, 1);
  if (s->helpers_busy) thread_team_wait(s->helpers);
  s->helpers_busy = 0;
  for (int i = 0; i < s->threads; i++) {
    free(s->th[i].keys);
    s->th[i].keys = s->th[i].above = NULL;
  }
}

/* Plays m without a search (a book move, a table win), reported as one. */
static void play_at_once(player *p, double t0, int depth, int score, int m, int *move,
                         player_info *info) {
  player_info it = {0};
  it.depth = depth;
  it.score = score;
  it.seconds = clock_now() - t0;
  it.pv[0] = m;
  it.pvlen = 1;
  if (p->on_info) p->on_info(p->info_ctx, &it);
  if (info) *info = it;
  *move = m;
}

/* Whether p's spec sets a limit of its own (depth=, nodes=, movetime=): on
 * a clock it then searches by it, and the clock only judges its time. */
static int own_limit(const player *p) {
  return player_config_isset(&p->config, "depth") || player_config_isset(&p->config, "nodes") ||
         player_config_isset(&p->config, "movetime");
}

/* What the clock's time management remembers between iterations. */
typedef struct clock_watch {
  int move, score; /* the last iteration's best move and score (move -1: none yet) */
  int changes;     /* changes of the best move, halved at each iteration: recent ones weigh */
} clock_watch;

/* After iteration d under a clock: whether to stop. The aim grows while the
 * best move changes or its score drops (time_budget_scaled); an iteration
 * costs a few times the last, so a new one is not begun past 0.45 of the
 * aim (it could not finish). */
static int clock_enough(const time_budget *b, clock_watch *w, int d, int move, int score, double t0) {
  int drop = w->move >= 0 ? w->score - score : 0;
  w->changes = w->changes / 2 + (w->move >= 0 && move != w->move ? 2 : 0);
  w->move = move;
  w->score = score;
  if (d < 2) return 0;
  double used = (clock_now() - t0) * 1000.0;
  return used > 0.45 * time_budget_scaled(b, w->changes, drop);
}

/* A move without a search: the book's, or the one that converts a win the
 * tables prove (players/convert.h). 1 when one was played (*move, *info). */
static int play_known(mm *s, player *p, const game *g, const player_limits *lim, double t0,
                      int *move, player_info *info) {
  int bm, bs;
  if (lim && lim->infinite) return 0;
  if (s->book_on && book_probe(s->book, &g->pos, &bm, &bs) && (g->legal >> bm & 1u)) {
    /* A book move: played at once, reported as the book's search. */
    play_at_once(p, t0, book_get_info(s->book)->depth, bs, bm, move, info);
    return 1;
  }
  if (s->tb.db && !convert_move(s->tb.db, &g->v, &g->pos, g->hist, g->hist_len,
                                MINIMAX_CONVERT_BUDGET, &bm)) {
    /* Won by the tables' lower bound: the move that forces it soonest, at
     * once, scored as a table win one ply on. */
    play_at_once(p, t0, 1, PLAYER_WIN - 201, bm, move, info);
    return 1;
  }
  return 0;
}

/* The root moves and the limits of this search into s (and *maxdepth,
 * *limit, *clock_budget): the moves fight.h keeps where the tables decide
 * them all (searched with the tables off), else every legal one; the
 * move's limits, a clock's budget, or the player's own. */
static void root_setup(mm *s, const player *p, const game *g, const player_limits *lim, double t0,
                       int *maxdepth, long long *limit, time_budget *clock_budget) {
  int lost = 0;
  s->root_moves = s->tb.db && !(lim && lim->infinite) ? fight_moves(&s->tb, g, &lost) : 0;
  s->tb_off = s->root_moves != 0;
  s->keyed = s->tt_history;
  if (!s->root_moves) s->root_moves = g->legal;
  s->root_some = s->root_moves != g->legal;
  int movetime = s->movetime_ms;
  *maxdepth = s->depth;
  *limit = s->nodes_limit;
  *clock_budget = (time_budget){0, 0};
  s->infinite = lim && lim->infinite;
  if (s->infinite) {
    *maxdepth = MAXPLY - 2;
    movetime = 0;
    *limit = 0;
  } else if (lim && (lim->depth || lim->nodes || lim->movetime_ms)) {
    /* Limits of this move replace the player's own. */
    *maxdepth = lim->depth ? lim->depth : MAXPLY - 2;
    *limit = lim->nodes;
    movetime = lim->movetime_ms;
  } else if (time_budget_applies(lim) && !own_limit(p)) {
    /* A clock: as deep as its budget allows, never past its hard limit. */
    *maxdepth = MAXPLY - 2;
    *limit = 0;
    *clock_budget = time_budget_of(lim, g);
    movetime = (int)clock_budget->hard_ms;
    if (movetime < 1) movetime = 1;
  } else if ((s->movetime_ms || s->nodes_limit) && !player_config_isset(&p->config, "depth")) {
    /* A time or node limit without an explicit depth searches as deep as it can. */
    *maxdepth = MAXPLY - 2;
  }
  s->deadline = movetime ? t0 + movetime / 1000.0 : 0;
}

/* Starts the threads on a search of g's position set up in s, with a node
 * limit (0: none) for all of them together; 0, or -1 with err (the threads
 * parked). */
static int search_begin(mm *s, const game *g, long long limit, char *err, size_t errlen) {
  /* One thread checks its limit at every node; more count them together. */
  s->limit_all = s->threads > 1 ? limit : 0;
  atomic_store(&s->halt, 0);
  atomic_store(&s->nodes_all, 0);
  for (int d = 0; d < MAXPLY; d++) atomic_store_explicit(&s->at_depth[d], 0, memory_order_relaxed);
  int oom = 0;
  for (int i = 0; i < s->threads; i++) {
    s->th[i].limit = s->threads > 1 ? 0 : limit;
    oom |= thread_begin(&s->th[i], g);
  }
  if (oom) {
    helpers_park(s);
    error_set(err, errlen, "minimax: out of memory");
    return -1;
  }
  if (s->threads > 1 && helpers_wake(s, err, errlen)) {
    helpers_park(s);
    return -1;
  }
  return 0;
}

/* After a loss the tables prove: the threads stop and start again on the
 * same root with the tables off (fight.h), with what is left of the node
 * limit; *spent gains the nodes searched so far. 0 when the search goes
 * on, 1 when nothing is left of the limit, -1 on an error (err). */
static int fight_on(mm *s, const game *g, long long limit, long long *spent, char *err,
                    size_t errlen) {
  helpers_park(s);
  *spent += total_nodes(s);
  s->tb_off = 1;
  if (limit && *spent >= limit) return 1;
  return search_begin(s, g, limit ? limit - *spent : 0, err, errlen);
}

/* Prepares the main thread alone (the helpers parked) for a search on
 * what is left of the move's nodes after *spent and those counted so far,
 * which *spent then takes in; 0, or -1 when nothing is left or out of
 * memory (nothing changed). */
static int main_alone(mm *s, const game *g, long long limit, long long *spent) {
  mm_thread *th = &s->th[0];
  long long used = *spent + total_nodes(s);
  if ((limit && used >= limit) || thread_begin(th, g)) return -1;
  *spent = used; /* the node count starts again */
  th->limit = limit && s->threads == 1 ? limit - used : 0;
  s->limit_all = s->threads > 1 && limit ? limit - used : 0;
  atomic_store(&s->halt, 0);
  atomic_store(&s->nodes_all, 0);
  return 0;
}

/* After a search that reached its deepest iteration, or stopped on a win,
 * with time or nodes left: under a repetition rule with hash keys that
 * leave out the history (tt_history=0, the default: faster,
 * docs/STRENGTH.md row 14), either can be false. In the endings that
 * cycles decide, entries whose scores rest on repetitions of other paths
 * cut the tree short (iteration 126 within a few ms, no line deeper than
 * its seldepth, often 20-odd plies) or prove a win that is not there.
 * What is left goes to the search again with the history in its keys
 * (exact, test_search_repetition; its entries apart), on the main thread:
 * when it proves a win, or its last whole iteration is at least as deep as
 * the first search's longest line, its move, score and line replace the
 * first's. 1 when they did. */
static int exact_at_cap(mm *s, const game *g, long long limit, long long *spent, int seldepth,
                        int *move, int *score, int *pv, int *pvlen) {
  if (s->keyed || !s->v->repetition) return 0;
  s->keyed = 1;
  if (main_alone(s, g, limit, spent)) {
    s->keyed = 0;
    return 0;
  }
  mm_thread *th = &s->th[0];
  int done = 0, won = 0, sc, line[MAXPLY], len = 0;
  for (int d = 1; d <= MAXPLY - 2 && !won; d++) {
    sc = search_root(th, d);
    if (th->aborted || th->pvlen[0] < 1) break;
    done = d;
    *score = sc;
    won = sc > WIN_BOUND; /* proven: it will not change with depth */
    len = th->pvlen[0];
    memcpy(line, th->pv[0], (size_t)len * sizeof *line);
  }
  int taken = (done >= seldepth || won) && len > 0;
  if (taken) {
    *pvlen = len;
    memcpy(pv, line, (size_t)len * sizeof *pv);
    *move = pv[0];
  }
  s->keyed = taken;
  free(th->keys);
  th->keys = th->above = NULL;
  return taken;
}

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
    int sc = -search(th, &c, d - 1, -INF, -best, 2, taken ? top + 1 : t->irrev, top + 1);
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
  t->value = -search(th, &t->child, d - 1, -INF, INF, 1, t->irrev, top);
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
    /* For the mover at c: still a loss (lost), or a win (drawn)? */
    int a = lost ? -WIN_BOUND - 1 : 0;
    int sc = search(th, &c, d - 2, a, a + 1, 2, taken ? top + 1 : t->irrev, top + 1);
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
static int trap_choose(mm *s, const game *g, int best, int best_move, long long limit,
                       long long *spent) {
  const int lost = best < -WIN_BOUND;
  if ((!lost && best != 0) || __builtin_popcount(s->root_moves) < 2) return best_move;
  if (main_alone(s, g, limit, spent)) return best_move;
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
    if (stopped || (lost ? c->value >= -WIN_BOUND : c->value > 0)) {
      n = 0;
      break;
    }
    /* A draw is tied with the best only by another draw. */
    if (lost || c->value == 0) {
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

static player_status choose(player *p, const game *g, const player_limits *lim, int *move,
                            player_info *info, char *err, size_t errlen) {
  mm *s = p->data;
  mm_thread *m = &s->th[0]; /* the main thread: it decides the move and reports */
  double t0 = clock_now();
  s->v = &g->v;
  s->p = p;
  s->age++;
  s->noise_seed = rng_mix(p->seed, p->game_seed);
  if (play_known(s, p, g, lim, t0, move, info)) return PLAYER_OK;
  int maxdepth;
  long long limit;
  time_budget clock_budget;
  root_setup(s, p, g, lim, t0, &maxdepth, &limit, &clock_budget);
  s->game_plies = g->plies;
  s->root = &g->pos;
  s->root_top = g->hist_len - 1;
  if (search_begin(s, g, limit, err, errlen)) return PLAYER_ERROR;

  int best_move = __builtin_ctz(s->root_moves), best_score = 0, done_depth = 0;
  long long spent = 0; /* nodes of the search with the tables on, when it fights on */
  int proven = 0;      /* the loss they proved, shown as the score while it fights on */
  int pv[MAXPLY], pvlen = 0;
  clock_watch tm = {-1, 0, 0};
  for (int d = 1; d <= maxdepth; d++) {
    int sc = search_root(m, d);
    if (m->aborted) {
      /* An unfinished iteration whose first root move was searched to the
       * end has a best move at least as well founded as the last completed
       * iteration's (the first move tried is that iteration's best): play
       * it, with its line. */
      if (m->pvlen[0] > 0) {
        pvlen = m->pvlen[0];
        memcpy(pv, m->pv[0], (size_t)pvlen * sizeof *pv);
        best_move = pv[0];
        best_score = m->root_score;
      }
      break;
    }
    best_score = sc;
    done_depth = d;
    pvlen = m->pvlen[0];
    memcpy(pv, m->pv[0], (size_t)pvlen * sizeof *pv);
    if (pvlen > 0) best_move = pv[0];
    if (p->on_info) {
      player_info it = {0};
      it.depth = d;
      it.seldepth = m->seldepth;
      it.score = proven && sc <= WIN_BOUND ? proven : sc;
      it.nodes = spent + total_nodes(s);
      it.seconds = clock_now() - t0;
      it.pvlen = pvlen < PLAYER_PV_MAX ? pvlen : PLAYER_PV_MAX;
      memcpy(it.pv, pv, (size_t)it.pvlen * sizeof *pv);
      p->on_info(p->info_ctx, &it);
    }
    /* A proven win will not change with depth: it is played. A loss the
     * tables prove is fought on: the search starts again with them off, for
     * the rest of the move's time or nodes (fight.h), for the move that
     * makes the opponent's win hardest to find; a loss found with the tables
     * off may be put off longer by a deeper search (reductions). */
    if (sc > WIN_BOUND && !s->infinite) break;
    if (sc < -WIN_BOUND && !s->tb_off && !s->infinite) {
      proven = sc;
      int f = fight_on(s, g, limit, &spent, err, errlen);
      if (f < 0) return PLAYER_ERROR;
      if (f > 0) break;
      tm = (clock_watch){-1, 0, 0};
      d = 0;
      continue;
    }
    if (clock_budget.hard_ms > 0 && clock_enough(&clock_budget, &tm, d, best_move, sc, t0)) break;
  }
  helpers_park(s);
  /* What is left of a limit (never on a bare depth: the searches below
   * would have no end), on a clock its soft aim: cap_exact=1 and traps=1. */
  const int spare = !s->infinite && (s->deadline > 0 || limit);
  if (spare && clock_budget.hard_ms > 0) s->deadline = t0 + clock_budget.soft_ms / 1000.0;
  /* Its score is the one reported, even over a loss the first search
   * proved (which fought on): that proof may rest on the same entries. */
  if (spare && s->cap_exact && (done_depth == MAXPLY - 2 || best_score > WIN_BOUND) &&
      exact_at_cap(s, g, limit, &spent, m->seldepth, &best_move, &best_score, pv, &pvlen))
    proven = 0;
  if (spare && s->traps && done_depth == MAXPLY - 2 &&
      (best_score < -WIN_BOUND || best_score == 0)) {
    int t = trap_choose(s, g, best_score, best_move, limit, &spent);
    if (t != best_move) {
      best_move = t;
      pv[0] = t;
      pvlen = 1;
    }
  }
  *move = best_move;
  if (info) {
    info->depth = done_depth;
    info->seldepth = m->seldepth;
    info->score = proven && best_score <= WIN_BOUND ? proven : best_score;
    info->scored = 1;
    info->nodes = spent + total_nodes(s);
    info->seconds = clock_now() - t0;
    info->pvlen = pvlen < PLAYER_PV_MAX ? pvlen : PLAYER_PV_MAX;
    memcpy(info->pv, pv, (size_t)info->pvlen * sizeof *pv);
  }
  return PLAYER_OK;
}

static int new_game(player *p, const variant *v, char *err, size_t errlen) {
  mm *s = p->data;
  mmtt_clear(&s->tt);
  s->age = 0;
  s->book_on = s->book && book_matches(s->book, v);
  /* The built-in table was fitted on abapa's tables: it applies to the
   * variants of its board (6 houses of 4 seeds); a file applies to any. */
  s->ending_on = s->ending && (!s->ending_builtin || (v->houses == 6 && v->total == 48));
  /* eval=auto takes the built-in network on the board it was trained for
   * and the linear evaluation elsewhere; a network asked for by name must
   * fit the variant. */
  if (s->net && s->net_auto)
    s->ev = s->net->houses == v->houses && s->net->seeds == v->total ? s->net : NULL;
  else if (s->net && eval_net_check_variant(s->net, v, err, errlen)) return -1;
  else s->ev = s->net;
  return tablebase_new_game(&s->tb, v, err, errlen);
}

static void destroy(player *p) {
  mm *s = p->data;
  if (!s) return;
  tablebase_free(&s->tb);
  book_free(s->book);
  free(s->ending);
  if (s->net) eval_net_free(s->net);
  free(s->net);
  thread_team_free(s->helpers); /* parked: choose returned */
  mmtt_free(&s->tt);
  free(s->th);
  free(s);
  p->data = NULL;
}

/* The options that are parameters too (player.h: PLAYER_OPTION_OF,
 * PLAYER_PARAM_OF): each described once for the option table and the
 * parameter list. */
#define OPT_DEPTH(X) X("depth", PLAYER_OPT_INT, "8", 1, MAXPLY - 2, "search depth in plies", 1, 20)
#define OPT_NODES(X) X("nodes", PLAYER_OPT_INT, "0", 0, 1e15, "node limit per move (0 = none)", 0, 1e7)
#define OPT_MOVETIME(X) \
  X("movetime", PLAYER_OPT_INT, "0", 0, 1e8, "time per move in ms (0 = none)", 0, 10000)
#define OPT_NOISE(X)                                                                               \
  X("noise", PLAYER_OPT_REAL, "0", 0, 100,                                                         \
    "seeded random noise added to the evaluation, in seeds (weaker play)", 0, 10)

/* The parameters: every evaluation weight by its feature name (any value
 * a weights file may hold; the tuner explores the feature's range), then
 * the numeric limits of the option table. */
static const player_param_info params_list[] = {
#define MM_PARAM(id, name, help, def, lo, hi) {#name, help, -1e6, 1e6, lo, hi, 0},
    EVAL_FEATURES(MM_PARAM)
#undef MM_PARAM
    OPT_DEPTH(PLAYER_PARAM_OF),
    OPT_NODES(PLAYER_PARAM_OF),
    OPT_MOVETIME(PLAYER_PARAM_OF),
    OPT_NOISE(PLAYER_PARAM_OF),
    {NULL, NULL, 0, 0, 0, 0, 0}};

static const player_param_info *params(const player *p) {
  (void)p;
  return params_list;
}

/* name and value were checked by player_set_param against params_list. */
static int set_param(player *p, const char *name, double value, char *err, size_t errlen) {
  mm *s = p->data;
  int i = eval_find(name);
  if (i >= 0 && s->net && !s->net_auto) {
    error_set(err, errlen, "minimax: the weight '%s' does not apply with a network (eval=linear)",
              name);
    return -1;
  }
  if (i >= 0 && s->net) { /* eval=auto: a weight set asks for the linear evaluation */
    eval_net_free(s->net);
    free(s->net);
    s->net = NULL;
    s->ev = NULL;
  }
  if (i >= 0) s->w[i] = (int)lround(value);
  else if (!strcmp(name, "depth")) s->depth = (int)value;
  else if (!strcmp(name, "nodes")) s->nodes_limit = (long long)value;
  else if (!strcmp(name, "movetime")) s->movetime_ms = (int)value;
  else if (!strcmp(name, "noise")) s->noise = value;
  else {
    error_set(err, errlen, "minimax: no parameter '%s'", name);
    return -1;
  }
  return 0;
}

/* eval=: linear (s->net stays NULL), net (the built-in network), a network
 * file loaded and checked, or auto: the built-in network unless the spec
 * asks for the linear evaluation's parts (weights= or ending=). */
static int load_net(mm *s, const player_config *c, char *err, size_t errlen) {
  const char *opt = player_config_text(c, "eval");
  if (!opt || !strcmp(opt, "linear")) return 0;
  if (!strcmp(opt, "auto")) {
    if (player_config_isset(c, "weights") || player_config_isset(c, "ending")) return 0;
    s->net_auto = 1;
  }
  if (!(s->net = calloc(1, sizeof *s->net)))
    return error_set(err, errlen, "minimax: out of memory"), -1;
  char e[ERROR_MAX];
  if (strcmp(opt, "net") && strcmp(opt, "auto") ? eval_net_load(opt, s->net, e, sizeof e)
                                                : eval_net_default(s->net, e, sizeof e))
    return error_set(err, errlen, "minimax: eval=%s: %s", opt, e), -1;
  return 0;
}

static int create(player *p, char *err, size_t errlen) {
  static const player_hooks hooks = {new_game, choose, destroy, params, set_param};
  mm *s = player_setup(p, &hooks, sizeof *s, err, errlen);
  if (!s) return -1;
  const player_config *c = &p->config;
  s->depth = (int)player_config_int(c, "depth");
  s->nodes_limit = player_config_int(c, "nodes");
  s->movetime_ms = (int)player_config_int(c, "movetime");
  s->noise = player_config_real(c, "noise");
  s->lmr = (int)player_config_int(c, "lmr");
  s->qs = (int)player_config_int(c, "qs");
  s->tt_history = (int)player_config_int(c, "tt_history");
  s->tb_bounds = (int)player_config_int(c, "tb_bounds");
  s->traps = (int)player_config_int(c, "traps");
  s->cap_exact = (int)player_config_int(c, "cap_exact");
  const char *ef = player_config_text(c, "ending");
  if (ef && strcmp(ef, "off")) {
    if (!(s->ending = malloc(sizeof *s->ending))) {
      error_set(err, errlen, "minimax: out of memory");
      destroy(p);
      return -1;
    }
    if ((s->ending_builtin = !strcmp(ef, "on"))) eval_ending_default(s->ending);
    else if (eval_ending_load(ef, s->ending, err, errlen)) {
      destroy(p);
      return -1;
    }
  }
  if (tablebase_init(&s->tb, player_config_text(c, "egdb"), err, errlen)) {
    destroy(p);
    return -1;
  }
  eval_weights w;
  eval_default(&w);
  const char *wf = player_config_text(c, "weights");
  if (wf && eval_load(wf, &w, err, errlen)) {
    destroy(p);
    return -1;
  }
  for (int i = 0; i < EVAL_N; i++) s->w[i] = (int)lround(w.w[i]);
  if (load_net(s, c, err, errlen)) {
    destroy(p);
    return -1;
  }
  const char *bf = player_config_text(c, "book");
  if (bf && strcmp(bf, "off") && book_load(bf, &s->book, err, errlen)) {
    destroy(p);
    return -1;
  }
  for (int i = 0; i <= VARIANT_MAX_TOTAL; i++) s->zstore[i] = board_store_key(i);
  long long mb = player_config_int(c, "hash");
  if (mmtt_init(&s->tt, mb)) {
    error_set(err, errlen, "minimax: cannot allocate a %lld MiB hash table", mb);
    destroy(p);
    return -1;
  }
  s->threads = (int)player_config_int(c, "threads");
  if (s->threads > 1 && !s->tt.e) {
    error_set(err, errlen,
             "minimax: threads=%d needs a hash table (hash=0): the threads share nothing else",
             s->threads);
    destroy(p);
    return -1;
  }
  s->th = calloc((size_t)s->threads, sizeof *s->th);
  if (!s->th) {
    error_set(err, errlen, "minimax: out of memory");
    destroy(p);
    return -1;
  }
  for (int i = 0; i < s->threads; i++) s->th[i].s = s;
  return 0;
}

static const player_option options[] = {
    OPT_DEPTH(PLAYER_OPTION_OF),
    OPT_NODES(PLAYER_OPTION_OF),
    OPT_MOVETIME(PLAYER_OPTION_OF),
    {"hash", PLAYER_OPT_INT, "16", 0, 16384, NULL, "transposition table in MiB (0 = none)"},
    {"threads", PLAYER_OPT_INT, "1", 1, MINIMAX_THREADS_MAX, NULL,
     "search threads (lazy SMP: helpers search the same position, sharing the hash table); "
     "more than 1 is faster but not reproducible: the same game gives other moves"},
    {"weights", PLAYER_OPT_TEXT, NULL, 0, 0, NULL, "evaluation weights file (name value lines)"},
    {"eval", PLAYER_OPT_TEXT, "auto", 0, 0, NULL,
     "the static evaluation: auto (the built-in network on boards of 6 houses of 4 seeds, the "
     "linear one elsewhere or when weights=, ending= or a weight is set), linear (the weights, "
     "with ending=), net (the built-in network, for 6 houses of 4 seeds only), or a network file "
     "written by oware tune net (with a network, ending= and the weights do not apply)"},
    {"lmr", PLAYER_OPT_INT, "1", 0, 1, NULL,
     "late-move reductions (0 = off: the search then equals plain negamax at its depth)"},
    {"qs", PLAYER_OPT_INT, "8", 0, 64, NULL,
     "quiescence: plies of captures searched past the horizon (0 = off: the static "
     "evaluation there)"},
    {"tt_history", PLAYER_OPT_INT, "0", 0, 1, NULL,
     "1: the hash table's key takes in the positions since the last capture, so that a score a "
     "repetition decided is never reused after another history (exact; off by default: it lost "
     "an SPRT, docs/STRENGTH.md)"},
    {"traps", PLAYER_OPT_INT, "0", 0, 1, NULL,
     "1: a loss or a draw the search sees whole spends the rest of the move's time or nodes on "
     "the opponent's chances to go wrong (its replies judged exactly, then its own search at "
     "growing depths; off by default: it lost its SPRT, docs/STRENGTH.md row 41)"},
    {"cap_exact", PLAYER_OPT_INT, "0", 0, 1, NULL,
     "1: a search that reaches depth 126 or proves a win with time or nodes left is checked by "
     "the same search with the history in its hash keys (exact under the repetition rule), "
     "whose move and score replace the first's when it sees as deep or proves a win (off by "
     "default: no gain measured, docs/STRENGTH.md row 42)"},
    {"tb_bounds", PLAYER_OPT_INT, "1", 0, 1, NULL,
     "1: where the endgame tables bound a position's value without deciding it (a cycle can "
     "change it), the bounds narrow the search's window and the evaluation"},
    {"ending", PLAYER_OPT_TEXT, "on", 0, 0, NULL,
     "the evaluation's corrections in endings, fitted on the endgame tables: on (the built-in "
     "table, fitted on abapa's; in variants of 6 houses of 4 seeds), off, or a file written by "
     "oware egdb fit (in any variant)"},
    OPT_NOISE(PLAYER_OPTION_OF),
    {"egdb", PLAYER_OPT_TEXT, "auto", 0, 0, NULL, TABLEBASE_OPTION_HELP},
    {"book", PLAYER_OPT_TEXT, "off", 0, 0, NULL,
     "opening book file (oware book build): its move where it has the position; off = none"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

int minimax_spec_linear_by_default(const char *spec, char **out) {
  *out = NULL;
  if (!player_spec_is_type(spec, "minimax") || player_spec_has(spec, "eval")) return 0;
  return player_spec_append(spec, "eval=linear", out) ? -1 : 1;
}

const player_type player_minimax = {
    "minimax", "negamax alpha-beta, PVS, iterative deepening, transposition table", options,
    create, 0};
