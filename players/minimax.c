/* minimax.c: the `minimax` player: settings, iterative deepening, the passes after a search. */
#include <math.h>
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
#include "players/minimax_search.h"
#include "players/time_budget.h"
#include "players/minimax_tt.h"
#include "players/player.h"
#include "players/tablebase.h"

#define MINIMAX_THREADS_MAX 64
/* Positions the search for a table win's converting move may visit. */
#define MINIMAX_CONVERT_BUDGET 100000

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
    movetime = time_budget_hard_ms(clock_budget);
  } else if ((s->movetime_ms || s->nodes_limit) && !player_config_isset(&p->config, "depth")) {
    /* A time or node limit without an explicit depth searches as deep as it can. */
    *maxdepth = MAXPLY - 2;
  }
  s->deadline = movetime ? t0 + movetime / 1000.0 : 0;
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
 * first's, and its depth the reported one when deeper (nothing of it
 * otherwise). 1 when they did. */
static int exact_at_cap(mm *s, const game *g, long long limit, long long *spent, int seldepth,
                        int *move, int *score, int *depth, int *pv, int *pvlen) {
  if (s->keyed || !s->v->repetition) return 0;
  s->keyed = 1;
  if (minimax_main_alone(s, g, limit, spent)) {
    s->keyed = 0;
    return 0;
  }
  mm_thread *th = &s->th[0];
  int done = 0, won = 0, sc, keyed_score = 0, line[MAXPLY], len = 0;
  for (int d = 1; d <= MAXPLY - 2 && !won; d++) {
    sc = minimax_search_root(th, d);
    if (th->aborted || th->pvlen[0] < 1) break;
    done = d;
    keyed_score = sc;
    won = sc > WIN_BOUND; /* proven: it will not change with depth */
    len = th->pvlen[0];
    memcpy(line, th->pv[0], (size_t)len * sizeof *line);
  }
  int taken = (done >= seldepth || won) && len > 0;
  if (taken) {
    *score = keyed_score;
    if (done > *depth) *depth = done;
    *pvlen = len;
    memcpy(pv, line, (size_t)len * sizeof *pv);
    *move = pv[0];
  }
  s->keyed = taken;
  free(th->keys);
  th->keys = th->above = NULL;
  return taken;
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
  if (minimax_search_begin(s, g, limit, err, errlen)) return PLAYER_ERROR;

  int best_move = __builtin_ctz(s->root_moves), best_score = 0, done_depth = 0;
  long long spent = 0; /* nodes of the search with the tables on, when it fights on */
  int proven = 0;      /* the loss they proved, shown as the score while it fights on */
  int pv[MAXPLY], pvlen = 0;
  clock_watch tm = {-1, 0, 0};
  for (int d = 1; d <= maxdepth; d++) {
    int sc = minimax_search_root_around(m, d, best_score);
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
    m->root_first = best_move;
    if (p->on_info) {
      player_info it = {0};
      it.depth = d;
      it.seldepth = m->seldepth;
      it.score = proven && sc <= WIN_BOUND ? proven : sc;
      it.nodes = spent + minimax_total_nodes(s);
      it.seconds = clock_now() - t0;
      it.pvlen = pvlen < PLAYER_PV_MAX ? pvlen : PLAYER_PV_MAX;
      memcpy(it.pv, pv, (size_t)it.pvlen * sizeof *pv);
      p->on_info(p->info_ctx, &it);
    }
    /* A proven win will not change with depth: it is played. A loss the
     * tables prove is fought on: the search starts again with them off, for
     * the rest of the move's time or nodes (fight.h), for the move that
     * makes the opponent's win hardest to find; a loss found with the tables
     * off, or without any, may be put off longer by a deeper search
     * (reductions): it goes on as it is. */
    if (sc > WIN_BOUND && !s->infinite) break;
    if (sc < -WIN_BOUND && s->tb.db && !s->tb_off && !s->infinite) {
      proven = sc;
      int f = minimax_fight_on(s, g, limit, &spent, err, errlen);
      if (f < 0) return PLAYER_ERROR;
      if (f > 0) break;
      tm = (clock_watch){-1, 0, 0};
      d = 0;
      continue;
    }
    if (clock_budget.hard_ms > 0 && clock_enough(&clock_budget, &tm, d, best_move, sc, t0)) break;
  }
  minimax_helpers_park(s);
  /* What is left of a limit (never on a bare depth: the searches below
   * would have no end), on a clock its soft aim: cap_exact=1 and traps=1. */
  const int spare = !s->infinite && (s->deadline > 0 || limit);
  int shown_depth = done_depth; /* reported: the check's when it replaces the result deeper */
  if (spare && clock_budget.hard_ms > 0) s->deadline = t0 + clock_budget.soft_ms / 1000.0;
  /* Its score is the one reported, even over a loss the first search
   * proved (which fought on): that proof may rest on the same entries. */
  if (spare && s->cap_exact && (done_depth == MAXPLY - 2 || best_score > WIN_BOUND) &&
      exact_at_cap(s, g, limit, &spent, m->seldepth, &best_move, &best_score, &shown_depth, pv,
                   &pvlen))
    proven = 0;
  if (spare && s->traps && done_depth == MAXPLY - 2 &&
      (best_score < -WIN_BOUND || best_score == minimax_draw_score(s, g->pos.side))) {
    int t = minimax_trap_choose(s, g, best_score, best_move, limit, &spent);
    if (t != best_move) {
      best_move = t;
      pv[0] = t;
      pvlen = 1;
    }
  }
  *move = best_move;
  if (info) {
    info->depth = shown_depth;
    info->seldepth = m->seldepth;
    info->score = proven && best_score <= WIN_BOUND ? proven : best_score;
    info->scored = 1;
    info->nodes = spent + minimax_total_nodes(s);
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

/* eval=: linear (s->net stays NULL), net, net2 or net3 (the built-in
 * networks), a network file loaded and checked, or auto: EVAL_NET_AUTO
 * (net3) unless the spec asks for the linear evaluation's parts (weights=
 * or ending=). */
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
  if (eval_net_named(strcmp(opt, "auto") ? opt : EVAL_NET_AUTO, s->net, e, sizeof e))
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
  s->rfp = (int)player_config_int(c, "rfp");
  s->fut = (int)player_config_int(c, "fut");
  s->asp = (int)player_config_int(c, "asp");
  s->iir = (int)player_config_int(c, "iir");
  s->hmalus = (int)player_config_int(c, "hmalus");
  s->contempt = (int)player_config_int(c, "contempt");
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
     "the static evaluation: auto (the built-in network net3 on boards of 6 houses of 4 seeds, "
     "the linear one elsewhere or when weights=, ending= or a weight is set), linear (the "
     "weights, with ending=), net, net2 or net3 (the built-in networks, for 6 houses of 4 seeds "
     "only: net trained on 4,000 games of the linear evaluation, net2 on 40,000 auale games of "
     "its own, net3, twice as wide, on 60,000), or a "
     "network file written by oware tune net (with a network, ending= and the weights do not "
     "apply)"},
    {"lmr", PLAYER_OPT_INT, "1", 0, 1, NULL,
     "late-move reductions (0 = off: with rfp=0 and iir=0 the search then equals plain negamax "
     "at its depth)"},
    {"rfp", PLAYER_OPT_INT, "150", 0, 10000, NULL,
     "reverse futility pruning: within 3 plies of the horizon, off the principal line, a node "
     "whose static evaluation beats beta by this many hundredths of a seed for each ply left is "
     "cut at once (0 = off: the search then equals plain negamax at its depth, with lmr=0 and "
     "iir=0)"},
    {"asp", PLAYER_OPT_INT, "50", 0, 10000, NULL,
     "aspiration windows: from depth 5 the root is searched first within this many hundredths "
     "of a seed of the score before, the window doubled on a fail (0 = off: the full window)"},
    {"iir", PLAYER_OPT_INT, "1", 0, 1, NULL,
     "internal iterative reduction: a node 4 plies or more from the horizon that the hash table "
     "has no move for is searched a ply shallower (0 = off: with lmr=0 and rfp=0 the search then "
     "equals plain negamax at its depth)"},
    {"hmalus", PLAYER_OPT_INT, "0", 0, 1, NULL,
     "history malus: at a cut by a move that captures nothing, the moves that capture nothing "
     "searched before it lose in the move-ordering history what it gains (0 = off: only the "
     "cutting move is credited)"},
    {"contempt", PLAYER_OPT_INT, "0", -10000, 10000, NULL,
     "a draw (by the rules or proven by the tables) is worth this many hundredths of a seed "
     "less to the side the player moves for, and as much more to its opponent: above 0 it "
     "plays on for a win where a draw is at hand (against a weaker opponent), below 0 it takes "
     "the draw (against a stronger one); the scores it reports count it (0 = off: a draw is "
     "even)"},
    {"fut", PLAYER_OPT_INT, "0", 0, 10000, NULL,
     "futility pruning: within 2 plies of the horizon, off the principal line, where the static "
     "evaluation and this many hundredths of a seed for each ply left do not reach alpha, the "
     "moves that capture nothing after the first are not searched (0 = off)"},
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
    {"cap_exact", PLAYER_OPT_INT, "1", 0, 1, NULL,
     "1 (the default): a search that reaches depth 126 or proves a win with time or nodes left "
     "is checked by the same search with the history in its hash keys (exact under the "
     "repetition rule), whose move and score replace the first's when it sees as deep or proves "
     "a win: the time the first search leaves in the endings that cycles decide is used "
     "(docs/STRENGTH.md rows 42 and 43); 0: the first search's result stands"},
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

/* A minimax spec without option key, as it must be written now: with
 * item added (the rules below). */
static int spec_without(const char *spec, const char *key, const char *item, char **out) {
  *out = NULL;
  if (!player_spec_is_type(spec, "minimax")) return 0;
  int has = player_spec_has(spec, key);
  if (has) return has < 0 ? -1 : 0;
  return player_spec_append(spec, item, out) ? -1 : 1;
}

int minimax_spec_linear_by_default(const char *spec, char **out) {
  return spec_without(spec, "eval", "eval=linear", out);
}

int minimax_spec_cap_off_by_default(const char *spec, char **out) {
  return spec_without(spec, "cap_exact", "cap_exact=0", out);
}

int minimax_spec_rfp_off_by_default(const char *spec, char **out) {
  return spec_without(spec, "rfp", "rfp=0", out);
}

int minimax_spec_asp_off_by_default(const char *spec, char **out) {
  return spec_without(spec, "asp", "asp=0", out);
}

int minimax_spec_iir_off_by_default(const char *spec, char **out) {
  return spec_without(spec, "iir", "iir=0", out);
}

/* A spec stored when eval=auto took the built-in network `was`, as it must
 * be written now: eval=WAS (players/minimax.h, the rules below). */
static int spec_auto_was(const char *spec, const char *was, char **out) {
  *out = NULL;
  if (!player_spec_is_type(spec, "minimax")) return 0;
  int linear = player_spec_has(spec, "weights");
  if (!linear) linear = player_spec_has(spec, "ending");
  if (linear) return linear < 0 ? -1 : 0; /* auto took (and takes) the linear evaluation there */
  char item[16];
  snprintf(item, sizeof item, "eval=%s", was);
  int has = player_spec_has(spec, "eval");
  if (has < 0) return -1;
  if (!has) return player_spec_append(spec, item, out) ? -1 : 1;
  /* eval=auto as given (an item read whole, its text with no escapes) */
  const size_t len = strlen(spec), wlen = strlen(item);
  char *got = malloc(len + 1);
  if (!got) return -1;
  int rc = 0;
  for (const char *p = strchr(spec, ':') + 1; *p; p += *p == ',') {
    const char *from = p;
    if (player_spec_item(spec, &p, got, NULL, 0)) break;
    if (strcmp(got, "eval=auto") || p - from != 9) continue;
    if (!(*out = malloc(len - 9 + wlen + 1))) {
      rc = -1;
      break;
    }
    const size_t at = (size_t)(from - spec);
    memcpy(*out, spec, at);
    memcpy(*out + at, item, wlen);
    memcpy(*out + at + wlen, p, len - (size_t)(p - spec) + 1);
    rc = 1;
    break;
  }
  free(got);
  return rc;
}

int minimax_spec_net1_by_default(const char *spec, char **out) {
  return spec_auto_was(spec, "net", out);
}

int minimax_spec_net2_by_default(const char *spec, char **out) {
  return spec_auto_was(spec, "net2", out);
}

const player_type player_minimax = {
    "minimax", "negamax alpha-beta, PVS, iterative deepening, transposition table", options,
    create, 0};
