/* minimax_search.c: minimax's search (alpha-beta, quiescence, tables, repetitions) and threads. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/rng.h"
#include "core/thread.h"
#include "players/minimax_search.h"

/* A search with the tables off (fight.h) keeps its scores apart from the
 * searches with them on: a table's proven result read back from the hash
 * table would hide the differences between lost moves that it searches for. */
#define TT_TABLES_OFF 0x6a09e667f3bcc909ULL
/* A search whose keys take in the history keeps its entries apart from
 * those of one whose keys do not: where the history is empty (after a
 * capture) the two keys would be equal, and the other's score there may
 * rest on repetitions of other paths below. */
#define TT_KEYED 0x3c6ef372fe94f82bULL
/* With contempt=N a draw scores for North as root otherwise than for
 * South: the entries of the two are kept apart. */
#define TT_CONTEMPT_NORTH 0xa54ff53a5f1d36f1ULL
/* Reverse futility pruning (rfp=) applies this near the horizon. */
#define RFP_DEPTH 3
/* Futility pruning (fut=) applies this near the horizon. */
#define FUT_DEPTH 2
/* Aspiration windows (asp=) from this depth on. */
#define ASP_DEPTH 5
/* Internal iterative reduction (iir=1) from this depth on. */
#define IIR_DEPTH 4

static inline uint64_t tt_key(const mm *s, const board *b) {
  return b->key ^ s->zstore[b->store[0]] ^ (s->tb_off ? TT_TABLES_OFF : 0) ^
         (s->keyed ? TT_KEYED : 0) ^ (s->contempt && s->root->side ? TT_CONTEMPT_NORTH : 0) ^
         s->tt_salt;
}

/* A seed in the evaluation's units: 100 with a network, the store's weight
 * with the linear evaluation. */
static inline int seed_unit(const mm *s) { return s->ev ? 100 : s->w[EVAL_STORE]; }
/* A margin given in hundredths of a seed (rfp=, fut=, asp=), in the evaluation's units. */
static inline int seed_hundredths(const mm *s, int n) {
  return (int)((long long)n * seed_unit(s) / 100);
}

int minimax_draw_score(const mm *s, int side) {
  if (!s->contempt) return 0;
  int c = seed_hundredths(s, s->contempt);
  return side == s->root->side ? -c : c;
}

/* Score of a game that ended in b for `why`, from the side to move. */
static int end_score(const mm *s, const board *b, board_end why, int ply) {
  int score2[2];
  board_final(b, s->v, why, score2);
  int d = score2[b->side] - score2[1 - b->side];
  return d > 0 ? PLAYER_WIN - ply : d < 0 ? -PLAYER_WIN + ply : minimax_draw_score(s, b->side);
}

/* What the endgame tables say of a node: bounds on its evaluation and on
 * its score (INF when none). */
typedef struct tb_window {
  int ev_lo, ev_hi; /* the final difference they prove, at the store's weight a seed */
  int lo, hi;       /* a draw's score where they prove at least (lo) or at most (hi) a draw */
} tb_window;

/* Probes b for a node at ply: 1 with *score when the tables decide it (a
 * game end's score); else 0, with the bounds of a cycle-sensitive position
 * in *tw when tb_bounds is on. */
static inline int tables_probe(const mm *s, const board *b, int ply, tb_window *tw, int *score) {
  int lo2, hi2;
  if (!tablebase_bounds(&s->tb, b, s->v, &lo2, &hi2)) return 0;
  if (lo2 > 0 || hi2 < 0 || (lo2 == 0 && hi2 == 0)) {
    *score = lo2 > 0   ? PLAYER_WIN - PLAYER_TABLE_PLIES - ply
             : hi2 < 0 ? -PLAYER_WIN + PLAYER_TABLE_PLIES + ply
                       : minimax_draw_score(s, b->side);
    return 1;
  }
  if (s->tb_bounds) {
    const int seed = seed_unit(s);
    tw->ev_lo = lo2 * seed / 2;
    tw->ev_hi = hi2 * seed / 2;
    if (lo2 == 0) tw->lo = minimax_draw_score(s, b->side);
    if (hi2 == 0) tw->hi = minimax_draw_score(s, b->side);
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

/* The static evaluation kept within the final difference the tables prove. */
static inline int evaluate_within(mm *s, const board *b, const tb_window *tw) {
  int e = evaluate(s, b);
  if (e < tw->ev_lo) e = tw->ev_lo;
  if (e > tw->ev_hi) e = tw->ev_hi;
  return e;
}

/* The stop flags and the clock, every 256 nodes (a fraction of a
 * millisecond even on a loaded machine). One thread checks its node limit on
 * entering a node, in search; threads > 1 add their nodes to the shared
 * count here, and the one that takes it past the limit halts them all. */
static void check_limits(mm_thread *th) {
  if ((th->nodes & 255) == 0) {
    mm *s = th->s;
    if (player_stopped(s->p) || atomic_load_explicit(&s->halt, memory_order_relaxed))
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

/* The move-ordering history of `side`'s move m gains `bonus` (a loss when
 * negative); all of it is halved when one entry passes 2^20 either way. */
static void history_credit(mm_thread *th, int side, int m, int bonus) {
  int *h = &th->history[side][m];
  *h += bonus;
  if (*h > (1 << 20) || *h < -(1 << 20))
    for (int a = 0; a < 2; a++)
      for (int j = 0; j < VARIANT_MAX_PITS; j++) th->history[a][j] /= 2;
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
    int sc = -minimax_search(th, &child, depth - 1, -beta, -alpha, ply + 1, top + 1, top + 1);
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

int minimax_search(mm_thread *th, const board *b, int depth, int alpha, int beta, int ply,
                   int irrev, int top) {
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
    int stand = evaluate_within(s, b, &tw);
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
  /* A root that does not use the table (hash=0, or root moves left out by
   * fight.h) still searches the last whole iteration's best move first: an
   * iteration the limit cuts short falls back on its first move. */
  if (ply == 0 && !use_tt) tt_move = th->root_first;

  /* Internal iterative reduction: a node far from the horizon that the hash
   * table has no move for (new, or its entry lost) has no good first move
   * to order by; a ply less costs little, and the next iteration, with the
   * move this one stores, searches it in full. */
  if (s->iir && use_tt && tt_move < 0 && depth >= IIR_DEPTH && ply > 0) depth--;

  /* Reverse futility: at a node of a null window (not on the principal
   * line) within RFP_DEPTH plies of the horizon, a static evaluation that
   * beats beta by rfp hundredths of a seed for each ply left is taken to
   * hold: the side to move keeps its lead, and the node is cut at once. */
  const int null_window = ply > 0 && beta - alpha == 1 && beta > -WIN_BOUND && beta < WIN_BOUND;
  int stand = -INF;
  if (s->rfp && null_window && depth <= RFP_DEPTH) {
    stand = evaluate_within(s, b, &tw);
    if (stand - (long long)seed_hundredths(s, s->rfp) * depth >= beta) return stand;
  }
  /* Futility: at such a node within FUT_DEPTH plies of the horizon, where
   * the static evaluation and fut hundredths of a seed for each ply left
   * stay at or below alpha, only the first move and the captures are
   * searched; the others are taken to be worth that much at most. */
  int futile = -INF;
  if (s->fut && null_window && depth <= FUT_DEPTH) {
    if (stand == -INF) stand = evaluate_within(s, b, &tw);
    int f = (int)(stand + (long long)seed_hundredths(s, s->fut) * depth);
    if (f <= alpha) futile = f;
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
  /* At the root, a move that plays on is preferred to one that ends the
   * game at the same score: of two draws, the one that leaves the opponent
   * a game to go wrong in (a repetition draw taken at once used to be
   * played wherever it came first). While the best move ends the game, a
   * move that does not is searched as if alpha were one lower, so that a
   * tie shows and replaces it. */
  int best_ends = 0;
  int quiet[VARIANT_MAX_PITS], nquiet = 0; /* hmalus=1: the moves searched that capture nothing */
  for (int i = 0; i < n; i++) {
    pick_best(move, order, i, n);
    board child = *b;
    int taken = board_play(&child, s->v, move[i]);
    if (futile > -INF && i > 0 && !taken) {
      if (futile > best) best = futile;
      continue;
    }
    int nirrev = taken ? top + 1 : irrev;
    path_push(th, top, &child, taken);
    uint32_t child_legal;
    const int ends =
        ply == 0 && node_end(th, &child, &child_legal, 1, nirrev, top + 1) != BOARD_END_NONE;
    const int a = alpha - (ply == 0 && best_ends && !ends); /* the alpha this move must beat */
    if (use_tt && depth >= 3) mmtt_prefetch(&s->tt, tt_key(s, &child) ^ th->above[top + 1]);
    if (s->hmalus && !taken) quiet[nquiet++] = move[i]; /* kept only for the malus */
    int sc;
    if (i == 0) {
      sc = -minimax_search(th, &child, depth - 1, -beta, -alpha, ply + 1, nirrev, top + 1);
    } else {
      /* Late-move reductions: a late quiet move (no capture, not a killer)
       * is first searched a ply shallower, and again at full depth only
       * when it beats alpha there. */
      int r = 0;
      if (s->lmr && depth >= 3 && i >= 2 && !taken && order[i] < (1 << 28))
        r = 1 + (depth >= 5 && i >= 3) + (depth >= 9 && i >= 4);
      sc = a + 1;
      if (r)
        sc = -minimax_search(th, &child, depth - 1 - r, -a - 1, -a, ply + 1, nirrev, top + 1);
      if (sc > a && !th->aborted)
        sc = -minimax_search(th, &child, depth - 1, -a - 1, -a, ply + 1, nirrev, top + 1);
      if (sc > a && sc < beta && !th->aborted)
        sc = -minimax_search(th, &child, depth - 1, -beta, -a, ply + 1, nirrev, top + 1);
    }
    path_pop(th, top);
    if (th->aborted) return 0;
    if (sc > best || (a < alpha && sc == best)) {
      best = sc;
      best_move = move[i];
      best_ends = ends;
      if (sc > a) {
        alpha = sc;
        if (ply == 0) th->root_score = sc;
        th->pv[ply][ply] = move[i];
        for (int j = ply + 1; j < th->pvlen[ply + 1]; j++) th->pv[ply][j] = th->pv[ply + 1][j];
        th->pvlen[ply] = th->pvlen[ply + 1] > ply + 1 ? th->pvlen[ply + 1] : ply + 1;
        if (alpha >= beta) {
          if (!taken) {
            history_credit(th, b->side, move[i], depth * depth);
            if (s->hmalus)
              for (int j = 0; j + 1 < nquiet; j++) /* the last is the cutting move */
                history_credit(th, b->side, quiet[j], -depth * depth);
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
int minimax_thread_begin(mm_thread *th, const game *g) {
  th->nodes = 0;
  th->flushed = 0;
  th->aborted = 0;
  th->seldepth = 0;
  th->root_first = -1;
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

/* One iteration of th from the root within (alpha, beta); the threads
 * count who searches which depth. */
static int root_window(mm_thread *th, int d, int alpha, int beta) {
  mm *s = th->s;
  atomic_fetch_add_explicit(&s->at_depth[d], 1, memory_order_relaxed);
  int sc = minimax_search(th, s->root, d, alpha, beta, 0, 0, s->root_top);
  atomic_fetch_sub_explicit(&s->at_depth[d], 1, memory_order_relaxed);
  return sc;
}

int minimax_search_root(mm_thread *th, int d) { return root_window(th, d, -INF, INF); }

int minimax_search_root_around(mm_thread *th, int d, int prev) {
  const mm *s = th->s;
  if (!s->asp || d < ASP_DEPTH || prev <= -WIN_BOUND || prev >= WIN_BOUND)
    return minimax_search_root(th, d);
  int delta = seed_hundredths(s, s->asp);
  if (delta < 1) delta = 1;
  int alpha = prev - delta, beta = prev + delta;
  for (;;) {
    int sc = root_window(th, d, alpha, beta);
    if (th->aborted) return sc;
    if (sc <= alpha) {
      delta *= 2;
      alpha = sc - delta > -WIN_BOUND ? sc - delta : -INF;
    } else if (sc >= beta) {
      delta *= 2;
      beta = sc + delta < WIN_BOUND ? sc + delta : INF;
    } else {
      return sc;
    }
  }
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
    minimax_search_root(th, d);
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
long long minimax_total_nodes(mm *s) {
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
void minimax_helpers_park(mm *s) {
  atomic_store(&s->halt, 1);
  if (s->helpers_busy) thread_team_wait(s->helpers);
  s->helpers_busy = 0;
  for (int i = 0; i < s->threads; i++) {
    free(s->th[i].keys);
    s->th[i].keys = s->th[i].above = NULL;
  }
}

/* Starts the threads on a search of g's position set up in s, with a node
 * limit (0: none) for all of them together; 0, or -1 with err (the threads
 * parked). */
int minimax_search_begin(mm *s, const game *g, long long limit, char *err, size_t errlen) {
  /* One thread checks its limit at every node; more count them together. */
  s->limit_all = s->threads > 1 ? limit : 0;
  atomic_store(&s->halt, 0);
  atomic_store(&s->nodes_all, 0);
  for (int d = 0; d < MAXPLY; d++) atomic_store_explicit(&s->at_depth[d], 0, memory_order_relaxed);
  int oom = 0;
  for (int i = 0; i < s->threads; i++) {
    s->th[i].limit = s->threads > 1 ? 0 : limit;
    oom |= minimax_thread_begin(&s->th[i], g);
  }
  if (oom) {
    minimax_helpers_park(s);
    error_set(err, errlen, "minimax: out of memory");
    return -1;
  }
  if (s->threads > 1 && helpers_wake(s, err, errlen)) {
    minimax_helpers_park(s);
    return -1;
  }
  return 0;
}

/* After a loss the tables prove: the threads stop and start again on the
 * same root with the tables off (fight.h), with what is left of the node
 * limit; *spent gains the nodes searched so far. 0 when the search goes
 * on, 1 when nothing is left of the limit, -1 on an error (err). */
int minimax_fight_on(mm *s, const game *g, long long limit, long long *spent, char *err,
                    size_t errlen) {
  minimax_helpers_park(s);
  *spent += minimax_total_nodes(s);
  s->tb_off = 1;
  if (limit && *spent >= limit) return 1;
  return minimax_search_begin(s, g, limit ? limit - *spent : 0, err, errlen);
}

/* Prepares the main thread alone (the helpers parked) for a search on
 * what is left of the move's nodes after *spent and those counted so far,
 * which *spent then takes in; 0, or -1 when nothing is left or out of
 * memory (nothing changed). */
int minimax_main_alone(mm *s, const game *g, long long limit, long long *spent) {
  mm_thread *th = &s->th[0];
  long long used = *spent + minimax_total_nodes(s);
  if ((limit && used >= limit) || minimax_thread_begin(th, g)) return -1;
  *spent = used; /* the node count starts again */
  th->limit = limit && s->threads == 1 ? limit - used : 0;
  s->limit_all = s->threads > 1 && limit ? limit - used : 0;
  atomic_store(&s->halt, 0);
  atomic_store(&s->nodes_all, 0);
  return 0;
}
