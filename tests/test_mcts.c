/* test_mcts.c: the `mcts` player: legal whole games, determinism, limits, solver, rules, strength. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/thread.h"
#include "run/match.h"
#include "core/clock.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/rng.h"
#include "players/mcts.h"
#include "players/player.h"
#include "players/time_budget.h"
#include "spec_rules.h"

static int quick(void) {
  const char *q = getenv("OWARE_TEST_QUICK");
  return q && *q && strcmp(q, "0") != 0;
}

/* A player from spec; the caller frees it with player_free. */
static player *make(const char *spec) {
  char err[256];
  player *p = player_create(spec, err, sizeof err);
  if (!p) fail_msg("player_create(%s): %s", spec, err);
  return p;
}

static void parse_variant(const char *text, variant *v) {
  char err[256];
  if (variant_parse(text, v, err, sizeof err)) fail_msg("variant %s: %s", text, err);
}

/* Starts game g (freed by the caller) at position string pos under v. */
static void game_at(game *g, const variant *v, const char *pos) {
  char err[256];
  board b;
  if (notation_parse_position(pos, v, &b, err, sizeof err)) fail_msg("%s: %s", pos, err);
  assert_int_equal(game_init(g, v, &b), 0);
}

/* Asks p for a move at g with limits lim (may be NULL); checks it is legal. */
static int ask(player *p, const game *g, const player_limits *lim, player_info *info) {
  char err[256];
  int m;
  player_status st = player_choose(p, g, lim, &m, info, err, sizeof err);
  if (st != PLAYER_OK) fail_msg("%s: %s (%s)", p->name, player_status_name(st), err);
  assert_true(g->legal >> m & 1);
  return m;
}

/* ---- Whole games on every named variant and a small board. ---- */

static void test_legal_games(void **state) {
  static const char *const variants[] = {"abapa", "grandslam-forbidden", "grandslam-all",
                                         "grandslam-win", "auale", "awari",
                                         "houses=4,seeds=3", NULL};
  static const char *const opponents[] = {"random:seed=3", "greedy:seed=5"};
  static const char *const mine[] = {"mcts:playouts=300,seed=%d",
                                     "mcts:playouts=300,policy=capture,seed=%d",
                                     "mcts:playouts=300,solver=0,seed=%d",
                                     "mcts:playouts=300,memory=1,c=0.5,seed=%d"};
  int games = 0;
  for (int vi = 0; variants[vi]; vi++) {
    variant v;
    parse_variant(variants[vi], &v);
    for (int k = 0; k < 4; k++) {
      char spec[128];
      snprintf(spec, sizeof spec, mine[k], 11 + vi * 4 + k);
      player *m = make(spec), *o = make(opponents[k & 1]);
      int colour = (k >> 1) & 1;
      player *south = colour ? o : m, *north = colour ? m : o;
      game g;
      outcome r;
      char err[256];
      assert_int_equal(
          match_play(south, north, &v, NULL, (uint64_t)(100 + vi), &g, &r, err, sizeof err), 0);
      if (r.end > OUTCOME_PLY_LIMIT)
        fail_msg("%s vs %s on %s: %s: %s", south->name, north->name, variants[vi],
                 outcome_end_name(r.end), r.detail);
      assert_int_not_equal(g.end, BOARD_END_NONE);
      games++;
      game_free(&g);
      player_free(m);
      player_free(o);
    }
  }
  printf("[ mcts     ] %d whole games on 7 variants, every move legal\n", games);
}

/* ---- Determinism. ---- */

static void same_info(const player_info *a, const player_info *b) {
  assert_int_equal(a->playouts, b->playouts);
  assert_int_equal(a->score, b->score);
  assert_int_equal(a->pvlen, b->pvlen);
  assert_memory_equal(a->pv, b->pv, (size_t)a->pvlen * sizeof a->pv[0]);
}

static void test_deterministic(void **state) {
  variant v;
  variant_default(&v);
  static const char *const positions[] = {"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
                                          "2-1-1-2-0-0-3-1-5-3-1-11-0-18-N",
                                          "5-0-7-1-6-2-1-4-0-3-6-2-5-6-S", NULL};
  for (int i = 0; positions[i]; i++) {
    game g;
    game_at(&g, &v, positions[i]);
    player *a = make("mcts:playouts=3000,seed=9"), *b = make("mcts:playouts=3000,seed=9");
    player_info ia, ia2, ib;
    int ma = ask(a, &g, NULL, &ia), ma2 = ask(a, &g, NULL, &ia2), mb = ask(b, &g, NULL, &ib);
    assert_int_equal(ma, ma2);
    assert_int_equal(ma, mb);
    same_info(&ia, &ia2);
    same_info(&ia, &ib);
    player_free(a);
    player_free(b);
    game_free(&g);
  }
  /* Different seeds can differ: with few playouts from the start, not every
   * seed picks the same house. */
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  uint32_t chosen = 0;
  for (int seed = 1; seed <= 30; seed++) {
    char spec[64];
    snprintf(spec, sizeof spec, "mcts:playouts=20,seed=%d", seed);
    player *p = make(spec);
    chosen |= 1u << ask(p, &g, NULL, NULL);
    player_free(p);
  }
  assert_true(__builtin_popcount(chosen) >= 2);
  game_free(&g);
}

/* ---- Limits. ---- */

static void test_playout_limit(void **state) {
  variant v;
  variant_default(&v);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  static const struct {
    const char *spec;
    long long lim, want;
  } cases[] = {
      {"mcts:playouts=1234", 0, 1234},
      {"mcts:playouts=1", 0, 1},
      {"mcts:playouts=1234", 777, 777},
      {"mcts:playouts=500,movetime=100000", 0, 500},
      {"mcts:playouts=1234,policy=capture,solver=0", 0, 1234},
      /* 1 MiB of tree fills up: the search goes on from the leaves. */
      {"mcts:playouts=60000,memory=1", 0, 60000},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    player *p = make(cases[i].spec);
    player_limits lim = {0};
    lim.playouts = cases[i].lim;
    player_info info;
    ask(p, &g, cases[i].lim ? &lim : NULL, &info);
    assert_int_equal(info.playouts, cases[i].want);
    assert_int_equal(info.nodes, cases[i].want);
    assert_true(info.pvlen >= 1);
    assert_true(info.score >= -1000 && info.score <= 1000);
    player_free(p);
  }
  /* No repetition and a ply limit far away: lines are cut at the horizon. */
  variant nv;
  parse_variant("abapa,repetition=0,max_plies=1000000", &nv);
  game ng;
  assert_int_equal(game_init(&ng, &nv, NULL), 0);
  player *p = make("mcts:playouts=2000");
  player_info info;
  ask(p, &ng, NULL, &info);
  assert_int_equal(info.playouts, 2000);
  player_free(p);
  game_free(&ng);
  game_free(&g);
}

static void *stop_later(void *arg) {
  player *p = arg;
  const struct timespec t = {0, 50 * 1000000};
  nanosleep(&t, NULL);
  atomic_store(&p->stop, 1);
  return NULL;
}

static void test_movetime(void **state) {
  variant v;
  variant_default(&v);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  const double margin = 0.5; /* generous: sanitizers, a loaded machine */

  player *p = make("mcts:playouts=0,movetime=50");
  player_info info;
  double t0 = clock_now();
  ask(p, &g, NULL, &info);
  double took = clock_now() - t0;
  printf("[ mcts     ] movetime=50: %.3f s, %lld playouts\n", took, info.playouts);
  assert_true(took >= 0.045 && took < 0.05 + margin);
  assert_true(info.seconds <= took);
  assert_true(info.playouts > 0);

  /* The move's limit replaces the option; playouts= still applies too. */
  player_limits lim = {0};
  lim.movetime_ms = 30;
  t0 = clock_now();
  ask(p, &g, &lim, &info);
  took = clock_now() - t0;
  assert_true(took >= 0.025 && took < 0.03 + margin);
  player_free(p);

  /* movetime= alone searches for that time: the playouts' default (10000,
   * reached in a few tens of ms on an idle core, in a few hundred under a
   * sanitizer) does not stop it first. */
  p = make("mcts:movetime=1000");
  t0 = clock_now();
  ask(p, &g, NULL, &info);
  took = clock_now() - t0;
  printf("[ mcts     ] movetime=1000: %.3f s, %lld playouts\n", took, info.playouts);
  assert_true(took >= 0.995 && took < 1.0 + margin);
  player_free(p);

  p = make("mcts:playouts=300,movetime=100000");
  t0 = clock_now();
  ask(p, &g, NULL, &info);
  assert_int_equal(info.playouts, 300);
  assert_true(clock_now() - t0 < margin);
  player_free(p);

  /* infinite: until another thread sets stop, past the playout limit. The
   * limit is 2, so a starved core (a sanitizer beside other jobs) still
   * shows the search going on past it; 100 did not always. */
  p = make("mcts:playouts=2");
  memset(&lim, 0, sizeof lim);
  lim.infinite = 1;
  char terr[128];
  thread *th;
  t0 = clock_now();
  assert_non_null(th = thread_start(stop_later, p, terr, sizeof terr));
  ask(p, &g, &lim, &info);
  took = clock_now() - t0;
  thread_join(th);
  atomic_store(&p->stop, 0);
  printf("[ mcts     ] infinite, stopped after 50 ms: %.3f s, %lld playouts\n", took,
         info.playouts);
  assert_true(took >= 0.045 && took < 0.05 + margin);
  assert_true(info.playouts > 2);
  player_free(p);
  game_free(&g);
}

/* On a clock (tc=) with budget=even, a move stops before its aim when it
 * cannot change: at once when the root has one move (after the first look
 * at the clock, 16 x 32 playouts), and when the best move leads the others
 * by more visits than the time left to the aim at the rate so far could
 * give them (the move played is the one the aim would play; the time saved
 * goes to the moves to come). */
static void test_clock_stops(void **state) {
  (void)state;
  variant v;
  parse_variant("abapa", &v);
  player_limits lim = {0};
  lim.clock = 1;
  lim.time_ms = 20000;
  player_info info;
  player *p = make("mcts:budget=even,solver=0");
  game g;
  /* South's only move is its sixth house. */
  game_at(&g, &v, "0-0-0-0-0-4-4-4-4-4-4-4-10-10-S");
  assert_int_equal(ask(p, &g, &lim, &info), 5);
  printf("[ mcts     ] budget=even, one move: %.3f s, %lld playouts\n", info.seconds, info.playouts);
  assert_int_equal(info.playouts, 16 * 32);
  game_free(&g);

  /* South's sixth house sows 3 into North's 1, 1 and 2: it captures 7 and
   * wins the majority (25); its first house's seed captures nothing. With
   * every visit going there, it stops near half its aim. */
  game_at(&g, &v, "1-0-0-0-0-3-1-1-2-5-5-5-18-7-S");
  time_budget b = time_budget_even_of(&lim, &g);
  double aim = fmin(MCTS_AIM_STRETCH * b.soft_ms, b.hard_ms) / 1000;
  assert_int_equal(ask(p, &g, &lim, &info), 5);
  printf("[ mcts     ] budget=even, a clear best move: %.3f s of an aim of %.3f s\n", info.seconds,
         aim);
  assert_true(info.seconds < 0.75 * aim);
  game_free(&g);
  player_free(p);
}

/* ---- Solver. ---- */

/* Whether the side to move at b can force a win within d plies (d odd),
 * by brute force; repetition plays no part this shallow from a new game. */
static int wins_within(const board *b, const variant *v, int d) {
  uint32_t legal;
  if (d <= 0 || board_status(b, v, &legal) != BOARD_END_NONE) return 0;
  for (uint32_t l = legal; l; l &= l - 1) {
    board c = *b;
    board_play(&c, v, __builtin_ctz(l));
    uint32_t replies;
    board_end e = board_status(&c, v, &replies);
    int score2[2];
    if (e != BOARD_END_NONE) {
      board_final(&c, v, e, score2);
      if (score2[b->side] > score2[1 - b->side]) return 1;
      continue;
    }
    int all = d >= 3;
    for (uint32_t r = replies; r && all; r &= r - 1) {
      board x = c;
      board_play(&x, v, __builtin_ctz(r));
      board_end ex = board_status(&x, v, NULL);
      if (ex != BOARD_END_NONE) {
        board_final(&x, v, ex, score2);
        all = score2[b->side] > score2[1 - b->side];
      } else {
        all = wins_within(&x, v, d - 2);
      }
    }
    if (all) return 1;
  }
  return 0;
}

/* Moves of b after which the side to move wins within d plies (d odd). */
static uint32_t winning_moves(const board *b, const variant *v, int d) {
  uint32_t legal, w = 0;
  if (board_status(b, v, &legal) != BOARD_END_NONE) return 0;
  for (uint32_t l = legal; l; l &= l - 1) {
    int m = __builtin_ctz(l);
    board c = *b;
    board_play(&c, v, m);
    board_end e = board_status(&c, v, NULL);
    int score2[2];
    if (e != BOARD_END_NONE) {
      board_final(&c, v, e, score2);
      if (score2[b->side] > score2[1 - b->side]) w |= 1u << m;
    } else if (d >= 3) {
      /* every reply leaves a win within d - 2 */
      uint32_t replies = board_legal(&c, v), all = 1;
      for (uint32_t r = replies; r && all; r &= r - 1) {
        board x = c;
        board_play(&x, v, __builtin_ctz(r));
        board_end ex = board_status(&x, v, NULL);
        if (ex != BOARD_END_NONE) {
          board_final(&x, v, ex, score2);
          all = score2[b->side] > score2[1 - b->side];
        } else {
          all = (uint32_t)wins_within(&x, v, d - 2);
        }
      }
      if (all) w |= 1u << m;
    }
  }
  return w;
}

static void test_solver_wins(void **state) {
  variant v;
  variant_default(&v);
  static const struct {
    const char *pos;
    int plies; /* the win is forced in this many plies, not fewer */
    char move;
  } cases[] = {
      {"1-0-0-0-0-1-1-0-0-0-0-1-24-20-S", 1, 'F'},
      {"2-4-0-2-1-1-0-1-8-5-1-1-2-20-N", 1, 'c'},
      {"1-1-1-1-4-0-1-1-1-0-1-0-20-16-S", 1, 'E'},
      {"2-1-1-2-0-0-3-1-5-3-1-11-0-18-N", 3, 'c'},
      {"0-2-2-0-1-1-3-0-6-3-0-12-0-18-N", 3, 'c'},
      {"7-1-0-0-2-0-0-2-3-1-0-11-21-0-S", 3, 'A'},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    game g;
    game_at(&g, &v, cases[i].pos);
    /* The position is what it claims: one winning move, in exactly `plies`. */
    int want = notation_move_index(&v, cases[i].move);
    assert_int_equal(winning_moves(&g.pos, &v, cases[i].plies), 1u << want);
    if (cases[i].plies > 1) assert_int_equal(winning_moves(&g.pos, &v, cases[i].plies - 2), 0);
    assert_true(__builtin_popcount(g.legal) >= 3 || cases[i].plies == 1);

    for (int net = 0; net < 2; net++) { /* playouts, then the network at the leaves */
    player *p = make(net ? "mcts:playouts=50000,eval=net" : "mcts:playouts=50000");
    player_info info;
    int m = ask(p, &g, NULL, &info);
    if (m != want)
      fail_msg("%s: %s played %c, the win is %c", cases[i].pos, p->name,
               notation_move_letter(&v, m), cases[i].move);
    assert_true(info.score >= PLAYER_WIN - 1000); /* reported as proven */
    assert_true(info.playouts < 50000);           /* the proof ended the search */
    assert_true(info.pvlen >= cases[i].plies);
    assert_int_equal(info.pv[0], want);
    if (cases[i].plies == 1) assert_int_equal(info.score, PLAYER_WIN - 1);
    player_free(p);
    }
    game_free(&g);
  }
}

/* Moves that lose at once: after them the opponent has a win in 1. */
static uint32_t losing_moves(const board *b, const variant *v) {
  uint32_t lose = 0;
  for (uint32_t l = board_legal(b, v); l; l &= l - 1) {
    int m = __builtin_ctz(l);
    board c = *b;
    board_play(&c, v, m);
    if (winning_moves(&c, v, 1)) lose |= 1u << m;
  }
  return lose;
}

static void test_solver_avoids_loss(void **state) {
  variant v;
  variant_default(&v);
  static const char *const positions[] = {"0-4-0-2-1-1-0-1-8-5-1-0-2-23-S",
                                          "1-1-2-4-1-4-1-0-0-6-2-1-2-23-S",
                                          "0-1-0-0-2-2-0-0-0-1-0-2-17-23-S", NULL};
  for (int i = 0; positions[i]; i++) {
    game g;
    game_at(&g, &v, positions[i]);
    uint32_t lose = losing_moves(&g.pos, &v);
    assert_true(__builtin_popcount(lose) >= 2 && (g.legal & ~lose)); /* a trap, a way out */
    for (int seed = 1; seed <= 3; seed++) {
      char spec[64];
      snprintf(spec, sizeof spec, "mcts:playouts=3000,seed=%d", seed);
      player *p = make(spec);
      player_info info;
      int m = ask(p, &g, NULL, &info);
      if (lose >> m & 1)
        fail_msg("%s: played %c, which loses at once", positions[i],
                 notation_move_letter(&v, m));
      player_free(p);
    }
    game_free(&g);
  }
}

/* ---- The end rules inside the search. ---- */

/* Ply limit: with max_plies=1, South's first move ends the game and each
 * side keeps its own seeds: A and B keep 24-24 (draw), every other move
 * gives seeds away (loss). */
static void test_ply_limit(void **state) {
  variant v;
  parse_variant("abapa,max_plies=1", &v);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  player *p = make("mcts:playouts=2000");
  player_info info;
  int m = ask(p, &g, NULL, &info);
  assert_true(m == 0 || m == 1);
  assert_int_equal(info.score, 0);
  assert_int_equal(info.playouts, 2000);
  player_free(p);
  game_free(&g);
}

/* Replays g into a new game c (freed by the caller) and plays m there. */
static void replay_and_play(const game *g, int m, game *c) {
  assert_int_equal(game_init(c, &g->v, &g->start), 0);
  for (int i = 0; i < g->plies; i++) assert_int_equal(game_play(c, g->moves[i]), 0);
  assert_int_equal(game_play(c, m), 0);
}

/* Repetition with the game's history: random games (fixed seed) reach
 * positions where one move repeats an earlier position and ends the game,
 * which only the history before the root shows. The search must take such
 * a win and avoid such a loss. */
static void test_repetition_history(void **state) {
  static const char *const names[] = {"auale", "abapa"};
  int wins = 0, losses = 0;
  for (int vi = 0; vi < 2; vi++) {
    variant v;
    parse_variant(names[vi], &v);
    rng r;
    rng_seed(&r, 7);
    for (int gn = 0; gn < 400 && (wins < 6 * (vi + 1) || losses < 6 * (vi + 1)); gn++) {
      game g;
      assert_int_equal(game_init(&g, &v, NULL), 0);
      while (g.end == BOARD_END_NONE) {
        /* What each move does, by the game's own rules. */
        int rep = -1, rep_winner = GAME_PLAYING, other_ends = 0;
        for (uint32_t l = g.legal; l; l &= l - 1) {
          int m = __builtin_ctz(l);
          game c;
          replay_and_play(&g, m, &c);
          if (c.end == BOARD_END_REPETITION) {
            rep = m;
            rep_winner = c.winner;
          } else if (c.end != BOARD_END_NONE) {
            other_ends++;
          }
          game_free(&c);
        }
        if (rep >= 0 && !other_ends && __builtin_popcount(g.legal) >= 2 &&
            rep_winner != GAME_DRAW) {
          player *p = make("mcts:playouts=3000");
          player_info info;
          int m = ask(p, &g, NULL, &info);
          if (rep_winner == g.pos.side) {
            assert_int_equal(m, rep);
            assert_int_equal(info.score, PLAYER_WIN - 1);
            wins++;
          } else {
            /* A proven loss is played only when every move loses. */
            assert_true(m != rep || info.score <= -(PLAYER_WIN - 1000));
            losses++;
          }
          player_free(p);
        }
        uint32_t l = g.legal;
        for (uint32_t k = rng_below(&r, (uint32_t)__builtin_popcount(l)); k; k--) l &= l - 1;
        assert_int_equal(game_play(&g, __builtin_ctz(l)), 0);
      }
      game_free(&g);
    }
  }
  printf("[ mcts     ] repetition through the game's history: %d wins taken, %d losses avoided\n",
         wins, losses);
  assert_true(wins >= 3 && losses >= 3);
}

/* ---- Speed and strength. ---- */

static void test_speed(void **state) {
  variant v;
  variant_default(&v);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  static const char *const specs[] = {"mcts:playouts=%lld", "mcts:playouts=%lld,policy=capture"};
  const long long n = quick() ? 20000 : 300000;
  for (int i = 0; i < 2; i++) {
    char spec[64];
    snprintf(spec, sizeof spec, specs[i], n);
    player *p = make(spec);
    player_info info;
    ask(p, &g, NULL, &info);
    printf("[ mcts     ] %s from the start of abapa: %.0f playouts/s (%.3f s)\n", spec,
           (double)info.playouts / info.seconds, info.seconds);
    assert_int_equal(info.playouts, n);
    player_free(p);
  }
  game_free(&g);
}

static void test_strength(void **state) {
  variant v;
  variant_default(&v);
  const int games = quick() ? 20 : 100;
  player *m = make("mcts:playouts=2000,seed=17"), *o = make("greedy:seed=23");
  int wins = 0, draws = 0;
  double t0 = clock_now();
  for (int i = 0; i < games; i++) {
    game g;
    outcome r;
    char err[256];
    int colour = i & 1; /* mcts is South in even games */
    player *south = colour ? o : m, *north = colour ? m : o;
    assert_int_equal(match_play(south, north, &v, NULL, (uint64_t)(1000 + i), &g, &r, err,
                                sizeof err),
                     0);
    assert_true(r.end <= OUTCOME_PLY_LIMIT);
    if (r.winner == colour) wins++;
    else if (r.winner == GAME_DRAW) draws++;
    game_free(&g);
  }
  printf("[ mcts     ] mcts:playouts=2000 vs greedy: %d wins, %d draws, %d losses of %d "
         "games (%.1f s)\n",
         wins, draws, games - wins - draws, games, clock_now() - t0);
  assert_true(wins >= games * 85 / 100);
  player_free(m);
  player_free(o);
}

/* ---- Leaves valued by the network (eval=net|FILE). ---- */

/* The same seed gives the same search; the leaves are not playouts (another
 * search than eval=off's); another family and a bad file are refused by
 * name; and the network's leaves beat playouts at the same iterations. */
static void test_net_leaves(void **state) {
  (void)state;
  variant v, v5;
  variant_default(&v);
  parse_variant("abapa,houses=5", &v5);
  char err[512];
  game g;
  game_at(&g, &v, "5-0-7-1-6-2-1-4-0-3-6-2-5-6-S");
  player *a = make("mcts:playouts=4000,seed=3,eval=net");
  player *b = make("mcts:playouts=4000,seed=3,eval=net");
  player *o = make("mcts:playouts=4000,seed=3");
  player_info ia, ia2, ib, io;
  int ma = ask(a, &g, NULL, &ia), ma2 = ask(a, &g, NULL, &ia2), mb = ask(b, &g, NULL, &ib);
  ask(o, &g, NULL, &io);
  assert_int_equal(ma, ma2);
  assert_int_equal(ma, mb);
  same_info(&ia, &ia2);
  same_info(&ia, &ib);
  assert_int_equal(ia.playouts, 4000);
  assert_true(ia.score != io.score || ia.seldepth != io.seldepth);
  assert_int_equal(player_new_game(a, &v5, 1, err, sizeof err), -1);
  assert_non_null(strstr(err, "houses=6 seeds=48"));
  player_free(a);
  player_free(b);
  player_free(o);
  game_free(&g);
  assert_null(player_create("mcts:eval=/nonexistent/n.net", err, sizeof err));
  assert_non_null(strstr(err, "mcts: eval=/nonexistent/n.net"));

  const int games = quick() ? 20 : 60;
  player *n = make("mcts:playouts=1000,seed=5,eval=net,egdb=off"),
         *r = make("mcts:playouts=1000,seed=6,egdb=off");
  double points = 0;
  for (int i = 0; i < games; i++) {
    outcome res;
    int colour = i & 1; /* the network is South in even games */
    player *south = colour ? r : n, *north = colour ? n : r;
    board start;
    board_random_opening(&start, &v, 4, 700 + (uint64_t)(i / 2));
    assert_int_equal(match_play(south, north, &v, &start, (uint64_t)(2000 + i), &g, &res, err,
                                sizeof err),
                     0);
    points += res.winner == colour ? 1 : res.winner == GAME_DRAW ? 0.5 : 0;
    game_free(&g);
  }
  printf("[ mcts     ] mcts:playouts=1000 with the network at the leaves vs playouts: %.1f of %d\n",
         points, games);
  assert_true(points >= games * 0.7);
  player_free(n);
  player_free(r);
}

/* The specs of runs stored before movetime= lifted the playouts' default
 * are written to play as they did (store schema 10). */
static void test_spec_playouts_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"mcts:movetime=300", "mcts:movetime=300,playouts=10000"},
      {"mcts:tc=1+0.01,movetime=30,name=split,egdb=auto@53870a3f:-",
       "mcts:tc=1+0.01,movetime=30,name=split,egdb=auto@53870a3f:-,playouts=10000"},
      {"mcts:name=\"a,b\",movetime=5", "mcts:name=\"a,b\",movetime=5,playouts=10000"},
      {"mcts:movetime=300,playouts=0", NULL},
      {"mcts:playouts=500", NULL},
      {"mcts", NULL},
      {"mcts:name=x\\\\,movetime=3", "mcts:name=x\\\\,movetime=3,playouts=10000"},
      {"mcts:name=x\\,movetime=3", NULL},
      {"mctsx:movetime=3", NULL},
      {"minimax:movetime=300", NULL},
      {"engine:cmd=oware,arg=uci,arg=--player,arg=mcts:movetime=3", NULL},
  };
  check_spec_rule(mcts_spec_playouts_by_default, cases, sizeof cases / sizeof cases[0]);
}

/* The specs of runs stored before budget=even was the default (schema
 * 10) get budget=front, and only mcts specs without budget=. */
static void test_spec_front_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"mcts", "mcts:budget=front"},
      {"mcts:", "mcts:budget=front"},
      {"mcts:tc=10+0.1", "mcts:tc=10+0.1,budget=front"},
      {"mcts:name=\"a,budget=even\",tc=1", "mcts:name=\"a,budget=even\",tc=1,budget=front"},
      {"mcts:tc=10+0.1,budget=even", NULL},
      {"mcts:budget=front,playouts=5", NULL},
      {"minimax:tc=10+0.1", NULL},
      {"engine:cmd=oware,arg=uci,arg=--player,arg=mcts:tc=1", NULL},
  };
  check_spec_rule(mcts_spec_front_by_default, cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_legal_games),     cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_playout_limit),   cmocka_unit_test(test_movetime),
      cmocka_unit_test(test_solver_wins),     cmocka_unit_test(test_solver_avoids_loss),
      cmocka_unit_test(test_ply_limit),       cmocka_unit_test(test_repetition_history),
      cmocka_unit_test(test_speed),           cmocka_unit_test(test_strength),
      cmocka_unit_test(test_net_leaves),      cmocka_unit_test(test_spec_playouts_by_default),
      cmocka_unit_test(test_clock_stops),    cmocka_unit_test(test_spec_front_by_default),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
