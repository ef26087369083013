/* test_search_repetition.c: minimax's value under the repetition rule equals a brute force over the game with its whole history (issue 22 point 1), its traps in losses and draws seen whole (point 4), and its draws under contempt=N. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/game.h"
#include "core/notation.h"
#include "core/rng.h"
#include "players/eval.h"
#include "players/player.h"

/* The brute force: a fixed-depth negamax that plays every move on a copy of
 * the game itself (core/game.c), so the end rules are the game's own:
 * captures, no-move ends and the repetition end counted over the whole
 * history, with the cycle's transfer. At the horizon: minimax's static
 * evaluation with the default weights (ending=off). */
typedef struct brute {
  int w[EVAL_N];
  game *stack; /* a game per ply, their arrays reused */
  long long rep_ends;
  long long horizon; /* leaves scored by the evaluation */
  long long nodes, budget; /* past a budget (0: none), the value is not looked for */
  int resolve_only;        /* the horizon scores 0: only resolved values are wanted */
  int contempt, root_side; /* a draw scores -contempt for root_side to move, +contempt else */
} brute;

/* dst becomes a copy of src (dst's arrays grown as needed). */
static void game_copy(game *dst, const game *src) {
  uint8_t *moves = dst->moves;
  uint64_t *hist = dst->hist;
  int mcap = dst->moves_cap, hcap = dst->hist_cap;
  if (mcap < src->moves_cap) {
    mcap = src->moves_cap;
    moves = realloc(moves, (size_t)mcap);
  }
  if (hcap < src->hist_cap) {
    hcap = src->hist_cap;
    hist = realloc(hist, (size_t)hcap * sizeof *hist);
  }
  assert_non_null(moves);
  assert_non_null(hist);
  *dst = *src;
  dst->moves = moves;
  dst->moves_cap = mcap;
  dst->hist = hist;
  dst->hist_cap = hcap;
  memcpy(moves, src->moves, (size_t)src->plies);
  memcpy(hist, src->hist, (size_t)src->hist_len * sizeof *hist);
}

static int brute_value(brute *s, const game *g, int depth, int ply) {
  if (s->budget && ++s->nodes > s->budget) return 0;
  if (g->end != BOARD_END_NONE) {
    s->rep_ends += g->end == BOARD_END_REPETITION;
    int side = g->pos.side, d = g->score2[side] - g->score2[1 - side];
    return d > 0   ? PLAYER_WIN - ply
           : d < 0 ? -PLAYER_WIN + ply
                   : (side == s->root_side ? -s->contempt : s->contempt);
  }
  if (depth == 0) {
    s->horizon++;
    if (s->resolve_only) return 0;
    int f[EVAL_N];
    eval_compute(&g->pos, &g->v, f);
    return eval_dot(s->w, f);
  }
  int best = -PLAYER_WIN - 1;
  game *c = &s->stack[ply];
  for (uint32_t l = g->legal; l; l &= l - 1) {
    game_copy(c, g);
    assert_int_equal(game_play(c, __builtin_ctz(l)), 0);
    int sc = -brute_value(s, c, depth - 1, ply + 1);
    if (sc > best) best = sc;
  }
  return best;
}

/* Plays a random legal move of g. */
static void play_random(game *g, rng *r) {
  uint32_t l = g->legal;
  for (uint32_t j = rng_below(r, (uint32_t)__builtin_popcount(l)); j; j--) l &= l - 1;
  game_play(g, __builtin_ctz(l));
}

/* A game of variant v played at random until at most 8 seeds are left on
 * the board, then `extra` more plies, so that the history holds positions
 * the search can repeat. 0 when the game ended first. */
static int small_position(game *g, const variant *v, rng *r, int extra) {
  if (game_init(g, v, NULL)) fail_msg("out of memory");
  while (g->end == BOARD_END_NONE && v->total - g->pos.store[0] - g->pos.store[1] > 8)
    play_random(g, r);
  for (int i = 0; i < extra && g->end == BOARD_END_NONE; i++) play_random(g, r);
  return g->end == BOARD_END_NONE;
}

static player *make(const char *spec) {
  char err[512];
  player *p = player_create(spec, err, sizeof err);
  if (!p) fail_msg("player_create(%s): %s", spec, err);
  return p;
}

/* s gets minimax's default weights (ending=off) and a stack of n games. */
static void brute_init(brute *s, int n) {
  eval_weights w;
  eval_default(&w);
  for (int i = 0; i < EVAL_N; i++) s->w[i] = (int)w.w[i];
  s->stack = calloc((size_t)n, sizeof *s->stack);
  assert_non_null(s->stack);
}

static void brute_free(brute *s, int n) {
  for (int i = 0; i < n; i++) game_free(&s->stack[i]);
  free(s->stack);
}

/* *v: abapa on a small board under rules (text names it); a player of
 * spec, its game begun. */
static player *rule_player(const char *sizes, const char *rules, const char *spec, variant *v,
                           char *text, size_t len) {
  char err[256];
  snprintf(text, len, "abapa,%s,%s", sizes, rules);
  if (variant_parse(text, v, err, sizeof err)) fail_msg("%s", err);
  player *p = make(spec);
  if (player_new_game(p, v, 1, err, sizeof err)) fail_msg("%s", err);
  return p;
}

/* Fails unless p's value of g at depth d is want. */
static void expect_score(player *p, const game *g, int d, int want, const char *rules) {
  player_limits lim = {.depth = d};
  player_info info;
  int m;
  char err[256];
  assert_int_equal(player_choose(p, g, &lim, &m, &info, err, sizeof err), PLAYER_OK);
  if (info.score != want) {
    char pos[NOTATION_POSITION_MAX];
    notation_format_position(&g->pos, &g->v, NULL, pos, sizeof pos);
    fail_msg("%s, %s, %s (%d positions in its history since the last capture) at depth %d: "
             "minimax %d, brute force %d",
             rules, p->name, pos, g->hist_len, d, info.score, want);
  }
}

typedef struct board_case {
  const char *board; /* switches of the board: houses, seeds */
  int depth;         /* where the brute force still finishes quickly */
  int games;
} board_case;

typedef struct tally {
  int positions, resolved;
} tally;

/* The positions of one board under one rule: each against minimax without
 * a table; those the brute force resolves to the end (no leaf at the
 * horizon) also against minimax with one, kept from game to game. With a
 * table, an entry of a deeper search may answer for a shallower one, so a
 * value at a fixed depth is comparable only where depth no longer counts;
 * the entries of other paths and other games, with other histories, do
 * count, and are what is checked. */
static void check_rules(brute *s, const board_case *bc, const char *rules, rng *r, tally *t) {
  char text[128], err[256];
  snprintf(text, sizeof text, "abapa,%s,%s", bc->board, rules);
  variant v;
  if (variant_parse(text, &v, err, sizeof err)) fail_msg("%s", err);
  /* No reductions, no pruning and no quiescence: minimax's value is plain
   * negamax's at its depth (docs/PLAYERS.md). */
  player *plain = make("minimax:hash=0,lmr=0,rfp=0,qs=0,ending=off,egdb=off");
  player *tt = make("minimax:hash=1,tt_history=1,lmr=0,rfp=0,iir=0,qs=0,ending=off,egdb=off");
  if (player_new_game(plain, &v, 1, err, sizeof err) || player_new_game(tt, &v, 1, err, sizeof err))
    fail_msg("%s", err);
  for (int n = 0; n < bc->games; n++) {
    game g;
    if (small_position(&g, &v, r, 2 + (int)rng_below(r, 12))) {
      long long horizon = s->horizon;
      int want = brute_value(s, &g, bc->depth, 0);
      expect_score(plain, &g, bc->depth, want, text);
      t->positions++;
      if (s->horizon == horizon) {
        expect_score(tt, &g, bc->depth, want, text);
        t->resolved++;
      }
    }
    game_free(&g);
  }
  player_free(plain);
  player_free(tt);
}

static void test_repetition_exact(void **state) {
  (void)state;
  const board_case boards[] = {{"houses=6,seeds=1", 9, 250},
                               {"houses=5,seeds=1", 10, 250},
                               {"houses=4,seeds=1", 12, 250},
                               {"houses=3,seeds=1", 14, 500}};
  const char *rules[] = {"repetition=2,cycle=own", "repetition=2,cycle=split",
                         "repetition=3,cycle=own", "repetition=3,cycle=split"};
  brute s = {0};
  brute_init(&s, 32);
  rng r;
  rng_seed(&r, 2222);
  tally t = {0};
  for (size_t bi = 0; bi < sizeof boards / sizeof *boards; bi++)
    for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++)
      check_rules(&s, &boards[bi], rules[ri], &r, &t);
  brute_free(&s, 32);
  printf("repetition in the search: %d positions equal to the brute force without a hash table, "
         "%d resolved ones with it too; %lld repetition ends inside the brute force\n",
         t.positions, t.resolved, s.rep_ends);
  assert_true(t.positions >= 3000 && t.resolved >= 500 && s.rep_ends >= 10000);
}

/* The reference of test_traps, from the brute force: in g, resolved within
 * the brute force's budget and lost or drawn for the mover, the root moves that give the
 * opponent the most chances to go wrong (lost: the fewest replies that keep
 * its win, a move that ends the game keeping it whole; drawn: among the
 * drawing moves, the most replies that lose for it), as a mask; 0 when the
 * position is neither lost nor drawn or a move's tree reaches the horizon. */
static uint32_t ref_traps(brute *s, const game *g, int *lost) {
  /* The shallowest even depth that resolves g, within the budget. */
  int d, best = 0, resolved = 0;
  for (d = 4; d <= 40 && !resolved; d += 2) {
    long long horizon = s->horizon;
    s->nodes = 0;
    best = brute_value(s, g, d, 0);
    if (s->nodes > s->budget) return 0;
    resolved = s->horizon == horizon;
  }
  *lost = best < -PLAYER_WIN + 1000;
  if (!resolved || (!*lost && best != 0)) return 0;
  game c, gc;
  memset(&c, 0, sizeof c);
  memset(&gc, 0, sizeof gc);
  uint32_t keep = 0;
  int top = -1;
  for (uint32_t l = g->legal; l; l &= l - 1) {
    int m = __builtin_ctz(l);
    game_copy(&c, g);
    game_play(&c, m);
    if (!*lost && -brute_value(s, &c, d - 1, 1) != 0) continue;
    int kept = 0, wrong = 0;
    for (uint32_t r = c.end == BOARD_END_NONE ? c.legal : 0; r; r &= r - 1) {
      game_copy(&gc, &c);
      game_play(&gc, __builtin_ctz(r));
      int sc = brute_value(s, &gc, d - 2, 2);
      kept += *lost ? sc < -PLAYER_WIN + 1000 : sc <= 0;
      wrong += *lost ? sc >= -PLAYER_WIN + 1000 : sc > 0;
    }
    int key = *lost ? -(c.end == BOARD_END_NONE ? kept : VARIANT_MAX_PITS + 1) : wrong;
    if (key > top) {
      top = key;
      keep = 0;
    }
    if (key == top) keep |= 1u << m;
  }
  game_free(&c);
  game_free(&gc);
  return keep;
}

/* Where minimax (traps=1) sees a loss or a draw whole with nodes to spare,
 * it plays a move the reference keeps: the replies were judged by its own exact
 * search, with the game's history (repetitions on the path count). Before,
 * it played the longest loss or the first draw, whatever the replies. */
static void test_traps(void **state) {
  (void)state;
  /* The sanitizer builds (OWARE_TEST_QUICK) look at a quarter of the games. */
  const int games = getenv("OWARE_TEST_QUICK") ? 45 : 180;
  const board_case boards[] = {{"houses=3,seeds=1", 0, games}, {"houses=4,seeds=1", 0, games}};
  const char *rules[] = {"repetition=2,cycle=own", "repetition=3,cycle=split"};
  brute s = {.budget = 20000, .resolve_only = 1};
  brute_init(&s, 48);
  rng r;
  rng_seed(&r, 2230);
  int checked[2] = {0, 0}, narrowed = 0;
  for (size_t bi = 0; bi < sizeof boards / sizeof *boards; bi++)
    for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++) {
      char text[128], err[256];
      variant v;
      player *p = rule_player(boards[bi].board, rules[ri],
                              "minimax:hash=1,tt_history=1,traps=1,ending=off,egdb=off", &v, text,
                              sizeof text);
      /* With contempt a draw scores otherwise, and is still told apart. */
      player *pc = rule_player(boards[bi].board, rules[ri],
                               "minimax:hash=1,tt_history=1,traps=1,ending=off,egdb=off,contempt=30",
                               &v, text, sizeof text);
      for (int n = 0; n < boards[bi].games; n++) {
        game g;
        int lost;
        uint32_t want;
        /* Every position of the game's next plies, with the history each has. */
        int live = small_position(&g, &v, &r, 2);
        for (int ply = 0; live && ply < 16; ply++, play_random(&g, &r), live = g.end == BOARD_END_NONE) {
          if (__builtin_popcount(g.legal) < 2 || !(want = ref_traps(&s, &g, &lost)))
            continue;
          player_limits lim = {.nodes = 300000};
          player_info info;
          int m;
          for (int k = 0; k < 2; k++) {
            assert_int_equal(player_choose(k ? pc : p, &g, &lim, &m, &info, err, sizeof err),
                             PLAYER_OK);
            if (!(want >> m & 1u)) {
              char pos[NOTATION_POSITION_MAX];
              notation_format_position(&g.pos, &v, NULL, pos, sizeof pos);
              fail_msg("%s, %s (%s, %d positions since the last capture): minimax%s plays house "
                       "%d, the reference keeps %#x of %#x",
                       text, pos, lost ? "lost" : "drawn", g.hist_len, k ? " (contempt=30)" : "",
                       m, want, g.legal);
            }
          }
          checked[lost]++;
          narrowed += want != g.legal;
        }
        game_free(&g);
      }
      player_free(p);
      player_free(pc);
    }
  brute_free(&s, 48);
  printf("traps: %d lost and %d drawn positions seen whole, %d with fewer moves kept\n", checked[1],
         checked[0], narrowed);
  const int wanted = getenv("OWARE_TEST_QUICK") ? 5 : 50;
  assert_true(checked[1] >= wanted && checked[0] >= wanted && narrowed >= wanted);
}

/* Whether a search's score has the brute force's value: equal, or a loss
 * or a win both (how soon is not these tests'). */
static int same_result(int score, int want) {
  return score == want || (abs(want) > PLAYER_WIN - 1000 && (long long)score * want > 0 &&
                           abs(score) > PLAYER_WIN - 1000);
}

/* minimax as it comes (its hash table keyed without the history,
 * tt_history=0, and cap_exact=1, the defaults), with nodes to spare: where
 * its first search reaches iteration 126 or proves a win (entries whose
 * scores repetitions of other paths decided can bring either at once), the
 * search again with the history in its keys gives the value, and it
 * equals the brute force's on every position the brute force resolves.
 * With cap_exact=0 (the default up to store schema 11) the first search's
 * value stands, and some differ (209 against a win at 0-1-0-0-0-1-0-0-4-2-S):
 * the test counts them, to show it would fail without. */
static void test_exact_at_cap(void **state) {
  (void)state;
  /* The sanitizer builds (OWARE_TEST_QUICK) look at a fifth of the games. */
  const int q = getenv("OWARE_TEST_QUICK") ? 5 : 1;
  const board_case boards[] = {{"houses=4,seeds=1", 12, 150 / q}, {"houses=3,seeds=1", 14, 300 / q}};
  const char *rules[] = {"repetition=2,cycle=own", "repetition=3,cycle=split"};
  brute s = {0};
  brute_init(&s, 32);
  rng r;
  rng_seed(&r, 2231);
  int checked = 0, off_differs = 0;
  for (size_t bi = 0; bi < sizeof boards / sizeof *boards; bi++)
    for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++) {
      char text[128], err[256];
      variant v;
      player *p = rule_player(boards[bi].board, rules[ri], "minimax:hash=1,ending=off,egdb=off",
                              &v, text, sizeof text);
      player *off = rule_player(boards[bi].board, rules[ri],
                                "minimax:hash=1,cap_exact=0,ending=off,egdb=off", &v, text,
                                sizeof text);
      for (int n = 0; n < boards[bi].games; n++) {
        game g;
        int live = small_position(&g, &v, &r, 2);
        for (int ply = 0; live && ply < 12; ply++, play_random(&g, &r), live = g.end == BOARD_END_NONE) {
          long long horizon = s.horizon;
          int want = brute_value(&s, &g, boards[bi].depth, 0);
          if (s.horizon != horizon) continue;
          player_limits lim = {.nodes = 2000000};
          player_info info, info_off;
          int m;
          assert_int_equal(player_choose(p, &g, &lim, &m, &info, err, sizeof err), PLAYER_OK);
          assert_int_equal(player_choose(off, &g, &lim, &m, &info_off, err, sizeof err),
                           PLAYER_OK);
          if (!same_result(info.score, want)) {
            char pos[NOTATION_POSITION_MAX];
            notation_format_position(&g.pos, &v, NULL, pos, sizeof pos);
            fail_msg("%s, %s (%d positions since the last capture): minimax %d (depth %d), "
                     "brute force %d",
                     text, pos, g.hist_len, info.score, info.depth, want);
          }
          off_differs += !same_result(info_off.score, want);
          checked++;
        }
        game_free(&g);
      }
      player_free(p);
      player_free(off);
    }
  brute_free(&s, 32);
  printf("exact at the cap: %d resolved positions, minimax's value the brute force's "
         "(cap_exact=0: %d differ)\n",
         checked, off_differs);
  assert_true(checked >= 300 / q);
  assert_true(off_differs > 0);
}

/* contempt=N: every draw the search meets (by the rules, a repetition's
 * included) scores N hundredths of a seed below even for the root's side
 * and as much above for its opponent, as in the brute force; a player that
 * searches for South and then for North (one hash table: the entries of
 * the two are kept apart) gives the brute force's value on every position
 * it resolves. Without the draws' new score, the values differ where a
 * draw decides (counted). */
static void test_contempt(void **state) {
  (void)state;
  const int q = getenv("OWARE_TEST_QUICK") ? 4 : 1;
  const board_case boards[] = {{"houses=4,seeds=1", 10, 120 / q}, {"houses=3,seeds=1", 12, 240 / q}};
  const char *rules[] = {"repetition=2,cycle=own", "repetition=3,cycle=split"};
  const int contempt = 30; /* hundredths of a seed */
  brute s = {0};
  brute_init(&s, 32);
  rng r;
  rng_seed(&r, 2232);
  int checked = 0, moved = 0, resolved = 0, sides[2] = {0, 0};
  for (size_t bi = 0; bi < sizeof boards / sizeof *boards; bi++)
    for (size_t ri = 0; ri < sizeof rules / sizeof *rules; ri++) {
      char text[128];
      variant v;
      player *plain = rule_player(boards[bi].board, rules[ri],
                                  "minimax:hash=0,lmr=0,rfp=0,qs=0,ending=off,egdb=off,contempt=30",
                                  &v, text, sizeof text);
      player *tt = rule_player(
          boards[bi].board, rules[ri],
          "minimax:hash=1,tt_history=1,lmr=0,rfp=0,iir=0,qs=0,ending=off,egdb=off,contempt=30", &v,
          text, sizeof text);
      for (int n = 0; n < boards[bi].games; n++) {
        game g;
        if (small_position(&g, &v, &r, 2 + (int)rng_below(&r, 12))) {
          long long horizon = s.horizon;
          s.root_side = g.pos.side;
          s.contempt = 0;
          int even = brute_value(&s, &g, boards[bi].depth, 0);
          s.contempt = contempt * s.w[EVAL_STORE] / 100;
          int want = brute_value(&s, &g, boards[bi].depth, 0);
          expect_score(plain, &g, boards[bi].depth, want, text);
          checked++;
          moved += want != even;
          if (s.horizon == horizon) { /* resolved at both: the hash table's values are exact */
            expect_score(tt, &g, boards[bi].depth, want, text);
            resolved++;
            sides[g.pos.side]++;
          }
        }
        game_free(&g);
      }
      player_free(plain);
      player_free(tt);
    }
  brute_free(&s, 32);
  printf("contempt: %d positions equal to the brute force (%d of them with a value a draw "
         "moved), %d resolved ones with a hash table (South %d, North %d to move)\n",
         checked, moved, resolved, sides[0], sides[1]);
  assert_true(checked >= 500 / q && moved >= 50 / q && sides[0] >= 20 / q && sides[1] >= 20 / q);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_repetition_exact),
      cmocka_unit_test(test_traps),
      cmocka_unit_test(test_exact_at_cap),
      cmocka_unit_test(test_contempt),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
