/* minimax_search.h: minimax's state, search and threads, private to players/minimax*.c. */
#ifndef OWARE_MINIMAX_SEARCH_H
#define OWARE_MINIMAX_SEARCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/thread.h"
#include "players/book.h"
#include "players/eval.h"
#include "players/eval_ending.h"
#include "players/eval_net.h"
#include "players/minimax_tt.h"
#include "players/player.h"
#include "players/tablebase.h"

#define MAXPLY 128
#define INF (PLAYER_WIN + 1)
#define WIN_BOUND (PLAYER_WIN - 1000)

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
  /* The last whole iteration's best move (-1: none yet), searched first at
   * a root without a hash table (hash=0, or fight.h's moves): an iteration
   * cut short by the limit has then searched it before any other. */
  int root_first;
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
  int rfp;        /* reverse futility: the margin a ply in hundredths of a seed (rfp=N; 0 = off) */
  int fut;        /* futility: the margin a ply in hundredths of a seed (fut=N; 0 = off) */
  int asp;        /* aspiration: the root's first window each side, hundredths of a seed (0 = off) */
  int iir;        /* iir=1: a node with no hash move from IIR_DEPTH on is searched a ply shallower */
  int hmalus;     /* hmalus=1: a quiet cut takes from the history of the quiet moves searched before it */
  int contempt;   /* contempt=N: a draw is worth N hundredths of a seed less to the root's side */
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

/* Repetition count of the position at keys[top] among positions since irrev. */
static inline int occurrences(const mm_thread *th, int irrev, int top) {
  int n = 1;
  uint64_t k = th->keys[top];
  for (int i = top - 2; i >= irrev; i -= 2) n += th->keys[i] == k;
  return n;
}

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

/* What a draw scores for `side` to move in the search of s: 0, or with
 * contempt=N that many hundredths of a seed below even for the root's
 * side and as much above for its opponent (minimax_search.c). */
int minimax_draw_score(const mm *s, int side);

/* The search of th at b, the node at ply (keys[top]; the stretch since the
 * last capture begins at irrev): negamax alpha-beta, fail-soft, its value
 * for the side to move (minimax_search.c). */
int minimax_search(mm_thread *th, const board *b, int depth, int alpha, int beta, int ply,
                   int irrev, int top);

/* One iteration of th from the root, to depth d. */
int minimax_search_root(mm_thread *th, int d);
/* The main thread's iteration at depth d around the score prev of the one
 * before: with asp=N a window of N hundredths of a seed each side, widened
 * on a fail until the score falls inside; the full window otherwise. */
int minimax_search_root_around(mm_thread *th, int d, int prev);

/* Prepares th for a search from g's position; -1 when out of memory. */
int minimax_thread_begin(mm_thread *th, const game *g);

/* The nodes of this search so far, all threads. */
long long minimax_total_nodes(mm *s);

/* Halts the helpers, waits until they are parked, frees every thread's keys. */
void minimax_helpers_park(mm *s);

/* Starts the threads on the search set up in s; 0, or -1 with err. */
int minimax_search_begin(mm *s, const game *g, long long limit, char *err, size_t errlen);

/* After a loss the tables prove: the search again with them off; 0 when
 * it goes on, 1 when nothing is left of the limit, -1 on an error. */
int minimax_fight_on(mm *s, const game *g, long long limit, long long *spent, char *err,
                     size_t errlen);

/* The main thread alone set up for a search on what is left of the move's
 * nodes; 0, or -1 when nothing is left or out of memory. */
int minimax_main_alone(mm *s, const game *g, long long limit, long long *spent);

/* traps=1: after a search that saw a loss or a draw whole, the root move
 * that gives the opponent the most chances to go wrong (minimax_traps.c). */
int minimax_trap_choose(mm *s, const game *g, int best, int best_move, long long limit,
                        long long *spent);

#endif
