/* test_clock.c: game clocks: the tc= parser (every form, bad input), the clock (increments, periods, the flag past the margin), a move's time budget, tc= in specs, the move records' text and comments, and a game played on clocks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "core/move_record.h"
#include "core/time_control.h"
#include "players/player.h"
#include "players/time_budget.h"
#include "run/game_clock.h"
#include "run/match.h"

static void parses(const char *text, int moves, long long base, long long inc, const char *back) {
  time_control tc;
  char err[256] = "", out[64];
  if (time_control_parse(text, &tc, err, sizeof err)) fail_msg("'%s': %s", text, err);
  assert_int_equal(tc.moves, moves);
  assert_int_equal(tc.base_ms, base);
  assert_int_equal(tc.inc_ms, inc);
  assert_true(time_control_on(&tc));
  time_control_format(&tc, out, sizeof out);
  assert_string_equal(out, back);
}

static void refused(const char *text, const char *says) {
  time_control tc = {7, 7, 7};
  char err[256] = "";
  assert_int_equal(time_control_parse(text, &tc, err, sizeof err), -1);
  if (!strstr(err, says)) fail_msg("'%s': message '%s' lacks '%s'", text, err, says);
  assert_int_equal(tc.base_ms, 7); /* untouched */
}

static void test_parse(void **state) {
  (void)state;
  parses("10+0.1", 0, 10000, 100, "10+0.1");
  parses("60+0.6", 0, 60000, 600, "60+0.6");
  parses("60", 0, 60000, 0, "60");
  parses("0.5", 0, 500, 0, "0.5");
  parses("40/60", 40, 60000, 0, "40/60");
  parses("40/60+0.5", 40, 60000, 500, "40/60+0.5");
  parses("1/0.25+0", 1, 250, 0, "1/0.25");
  parses("2.0005+0.0104", 0, 2001, 10, "2.001+0.01"); /* to the ms */
  refused("", "the base '' is not a number of seconds");
  refused("x", "the base 'x'");
  refused("10+", "the increment ''");
  refused("10+x", "the increment 'x' is not a number of seconds");
  refused("10+-1", "the increment '-1'");
  refused("0+1", "the base '0' is not a number of seconds of 0.001 or more");
  refused("0.0001+0", "the base '0.0001' is not a number of seconds of 0.001 or more"); /* 0 ms */
  refused("-5", "the base '-5'");
  refused("/60", "the moves '' before '/'");
  refused("0/60", "the moves '0' before '/' are not a whole number from 1 to 10000");
  refused("x/60", "the moves 'x'");
  refused("40/", "the base ''");
  refused("40/60/2", "the base '60/2'");
  refused("1e3", "the base '1e3'");
  refused("99999999", "at most 604800");
  refused("10+0.1+2", "the increment '0.1+2'");
}

static void test_clock_increments(void **state) {
  (void)state;
  time_control tc = {0, 1000, 100};
  game_clock c;
  game_clock_start(&c, &tc, 50);
  assert_true(game_clock_on(&c));
  assert_int_equal(game_clock_to_go(&c), 0);
  assert_int_equal(game_clock_spend(&c, 300), 0);
  assert_int_equal(c.left_ms, 800); /* 1000 - 300 + 100 */
  assert_int_equal(game_clock_spend(&c, 0), 0);
  assert_int_equal(c.left_ms, 900);
  /* Within the margin: played, the clock below 0 before the increment. */
  assert_int_equal(game_clock_spend(&c, 940), 0);
  assert_int_equal(c.left_ms, 60);
  /* Past time left + margin: the flag falls, the clock stays. */
  assert_int_equal(game_clock_spend(&c, 111), 1);
  assert_int_equal(c.left_ms, 60);
  assert_int_equal(game_clock_spend(&c, 110), 0); /* exactly at the margin: still in time */
  assert_int_equal(c.left_ms, 50);
  /* No clock: nothing is ever charged. */
  time_control none = {0, 0, 0};
  game_clock_start(&c, &none, 0);
  assert_false(game_clock_on(&c));
  assert_int_equal(game_clock_spend(&c, 1000000), 0);
}

static void test_clock_periods(void **state) {
  (void)state;
  time_control tc = {3, 600, 10}; /* 3 moves in 0.6 s, +0.01 a move */
  game_clock c;
  game_clock_start(&c, &tc, 0);
  assert_int_equal(game_clock_to_go(&c), 3);
  assert_int_equal(game_clock_spend(&c, 200), 0);
  assert_int_equal(game_clock_to_go(&c), 2);
  assert_int_equal(game_clock_spend(&c, 200), 0);
  assert_int_equal(game_clock_to_go(&c), 1);
  assert_int_equal(c.left_ms, 220);
  assert_int_equal(game_clock_spend(&c, 200), 0);
  /* The period's end: its base again, the count back to 3. */
  assert_int_equal(c.left_ms, 30 + 600);
  assert_int_equal(game_clock_to_go(&c), 3);
  assert_int_equal(game_clock_spend(&c, 631), 1); /* no margin: 1 ms over loses */
}

static void test_clock_limits(void **state) {
  (void)state;
  time_control a = {0, 5000, 50}, b = {40, 2000, 0};
  game_clock c[2];
  game_clock_start(&c[0], &a, 100);
  game_clock_start(&c[1], &b, 100);
  game_clock_spend(&c[1], 500);
  player_limits lim = {0};
  game_clock_limits(c, 1, &lim);
  assert_int_equal(lim.clock, 1);
  assert_int_equal(lim.time_ms, 1500);
  assert_int_equal(lim.opp_time_ms, 5000);
  assert_int_equal(lim.inc_ms, 0);
  assert_int_equal(lim.opp_inc_ms, 50);
  assert_int_equal(lim.movestogo, 39);
  /* The mover without a clock: no clock handed over. */
  time_control none = {0, 0, 0};
  game_clock_start(&c[0], &none, 100);
  player_limits l2 = {0};
  game_clock_limits(c, 0, &l2);
  assert_int_equal(l2.clock, 0);
}

/* g (freed by the caller) at abapa's start, lim a clock of 10 s + 0.1 s. */
static void start_on_clock(game *g, player_limits *lim) {
  variant v;
  char err[256];
  assert_int_equal(variant_parse("abapa", &v, err, sizeof err), 0);
  assert_int_equal(game_init(g, &v, NULL), 0);
  memset(lim, 0, sizeof *lim);
  lim->clock = 1;
  lim->time_ms = 10000;
  lim->inc_ms = 100;
}

/* The edges every budget keeps (of: time_budget_of or _even_of): little
 * time left, never past half of it, never 0; moves to go, the period's
 * time over them. lim is left with moves to go set. */
static void check_edges(time_budget (*of)(const player_limits *, const game *), player_limits *lim,
                        const game *g) {
  lim->movestogo = 0;
  lim->time_ms = 40;
  lim->inc_ms = 1000;
  time_budget b = of(lim, g);
  assert_true(b.hard_ms <= 20 && b.hard_ms >= 1 && b.soft_ms <= b.hard_ms);
  lim->time_ms = -50; /* past the clock within the margin */
  b = of(lim, g);
  assert_true(b.hard_ms >= 1 && b.hard_ms <= 1);
  lim->time_ms = 6000;
  lim->inc_ms = 0;
  lim->movestogo = 2;
  b = of(lim, g);
  assert_true(b.soft_ms > 1900 && b.soft_ms < 2000);
}

static void test_budget(void **state) {
  (void)state;
  game g;
  player_limits lim;
  start_on_clock(&g, &lim);
  assert_true(time_budget_applies(&lim));
  time_budget b = time_budget_of(&lim, &g);
  /* 48 seeds on the board: 34 moves expected, plus 3/4 of the increment. */
  assert_true(b.soft_ms > (10000 - 30) / 34.0 + 74 && b.soft_ms < (10000 - 30) / 34.0 + 76);
  assert_true(b.hard_ms <= 4 * b.soft_ms + 1e-9 && b.hard_ms <= 5000);
  assert_true(time_budget_scaled(&b, 0, 0) == b.soft_ms);
  assert_true(time_budget_scaled(&b, 2, 0) > b.soft_ms);
  assert_true(time_budget_scaled(&b, 2, 100) <= b.hard_ms);
  check_edges(time_budget_of, &lim, &g);
  /* A per-move limit beside the clock: the limit rules. */
  lim.movetime_ms = 100;
  assert_false(time_budget_applies(&lim));
  game_free(&g);
}

/* The even budget (mcts): a game that lasts as long as the median game
 * from each position spends about the same on every move and its whole
 * clock, where time_budget_of spends more early and less late. */
static void test_even_budget(void **state) {
  (void)state;
  game g;
  player_limits lim;
  start_on_clock(&g, &lim);
  time_budget b = time_budget_even_of(&lim, &g);
  /* 48 seeds: 8 + 1.2 x 48 = 65.6 moves to come, plus the whole increment. */
  assert_true(fabs(b.soft_ms - ((10000 - 30) / 65.6 + 100)) < 1e-6);
  assert_true(fabs(b.hard_ms - 2.5 * b.soft_ms) < 1e-6);
  /* A game of median length: moves to come 65.6 at the start, one fewer
   * each move (the seeds that say so on the board); each move spends its
   * aim and gains the increment. */
  double left = 10000, lo = 1e9, hi = 0, spent = 0;
  int moves = 0;
  for (double to_come = 65.6; to_come >= 10.4; to_come -= 1, moves++) {
    int seeds = (int)lround((to_come - 8) / 1.2);
    memset(g.pos.pit, 0, sizeof g.pos.pit);
    g.pos.pit[0] = seeds;
    lim.time_ms = (long long)left;
    b = time_budget_even_of(&lim, &g);
    lo = fmin(lo, b.soft_ms);
    hi = fmax(hi, b.soft_ms);
    spent += b.soft_ms;
    left += lim.inc_ms - b.soft_ms;
    assert_true(left > 0);
  }
  printf("[ clock    ] even budget: %d moves of %.1f..%.1f ms, %.0f ms of %d left\n", moves, lo, hi,
         left, 10000 + 100 * moves);
  assert_true(lo > 225 && hi < 280);
  assert_true(left < 11 * hi); /* what the last 10 moves to come need, no more */
  /* minimax's budget front-loads the same game. */
  lim.time_ms = 10000;
  g.pos.pit[0] = 48;
  assert_true(time_budget_of(&lim, &g).soft_ms > time_budget_even_of(&lim, &g).soft_ms + 100);
  check_edges(time_budget_even_of, &lim, &g);
  game_free(&g);
}

static void test_spec(void **state) {
  (void)state;
  player_config cfg;
  char err[512];
  assert_int_equal(player_parse_spec("minimax:depth=3,tc=40/60+0.5", &cfg, err, sizeof err), 0);
  assert_int_equal(cfg.tc.moves, 40);
  assert_int_equal(cfg.tc.base_ms, 60000);
  assert_int_equal(cfg.tc.inc_ms, 500);
  assert_int_equal(cfg.tc_margin_ms, PLAYER_TC_MARGIN_MS);
  player_config_free(&cfg);
  assert_int_equal(player_parse_spec("random", &cfg, err, sizeof err), 0);
  assert_false(time_control_on(&cfg.tc));
  player_config_free(&cfg);
  assert_int_equal(player_parse_spec("greedy:tc=10+0.1", &cfg, err, sizeof err), 0);
  assert_true(time_control_on(&cfg.tc));
  player_config_free(&cfg);
  assert_int_equal(player_parse_spec("mcts:tc=10+x", &cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "the increment 'x'"));
  assert_int_equal(player_parse_spec("mcts:tc=1,tc=2", &cfg, err, sizeof err), -1);
  assert_non_null(strstr(err, "option 'tc' is given twice"));
}

static void test_records(void **state) {
  (void)state;
  move_record m[3] = {{100, 35, 12}, {2345, -1250, 7}, {7, 0, 0}};
  char *t = move_record_text(m, 3);
  assert_non_null(t);
  assert_string_equal(t, "100/35/12 2345/-1250/7 7/0/0");
  move_record back[3];
  char err[256], c[MOVE_RECORD_COMMENT_MAX];
  assert_int_equal(move_record_parse(t, 3, back, err, sizeof err), 0);
  assert_memory_equal(back, m, sizeof m);
  assert_int_equal(move_record_parse(t, 2, back, err, sizeof err), -1);
  assert_non_null(strstr(err, "more records than the game's 2 moves"));
  assert_int_equal(move_record_parse(t, 4, back, err, sizeof err), -1);
  assert_non_null(strstr(err, "3 records where the game has 4 moves"));
  assert_int_equal(move_record_parse("1/2/3 x/1", 2, back, err, sizeof err), -1);
  assert_non_null(strstr(err, "move 2: 'x/1' is not MS/SCORE/DEPTH"));
  assert_int_equal(move_record_parse("-1/2/3", 1, back, err, sizeof err), -1);
  assert_int_equal(move_record_parse("", 0, back, err, sizeof err), 0);
  free(t);
  move_record_comment(&m[0], c, sizeof c);
  assert_string_equal(c, "{+0.35/12 0.10s}");
  move_record_comment(&m[1], c, sizeof c);
  assert_string_equal(c, "{-12.50/7 2.34s}");
  move_record_comment(&m[2], c, sizeof c);
  assert_string_equal(c, "{0.00s}");
  move_record win = {50, PLAYER_WIN - 7, 9}, loss = {50, -PLAYER_WIN + 4, 9};
  move_record_comment(&win, c, sizeof c);
  assert_string_equal(c, "{+M7/9 0.05s}");
  move_record_comment(&loss, c, sizeof c);
  assert_string_equal(c, "{-M4/9 0.05s}");
}

/* A game of minimax against mcts on 0.3+0.01 clocks: every move recorded,
 * nobody past its clock, each side's times within base + increments +
 * margin (1 s: on a loaded machine a thread can wait that long for the CPU,
 * docs/STRENGTH.md). */
static void test_game_on_clocks(void **state) {
  (void)state;
  char err[512];
  player *a = player_create("minimax:tc=0.3+0.01", err, sizeof err);
  player *b = player_create("mcts:tc=0.3+0.01", err, sizeof err);
  assert_non_null(a);
  assert_non_null(b);
  a->config.tc_margin_ms = b->config.tc_margin_ms = 1000;
  variant v;
  assert_int_equal(variant_parse("abapa", &v, err, sizeof err), 0);
  game g;
  outcome r;
  move_record *rec = NULL;
  assert_int_equal(match_play_recorded(a, b, &v, NULL, 1, NULL, NULL, &g, &r, &rec, err, sizeof err), 0);
  assert_true(r.end < OUTCOME_FORFEIT_TIMEOUT);
  assert_non_null(rec);
  long long used[2] = {0, 0};
  int n[2] = {0, 0};
  for (int i = 0; i < g.plies; i++) {
    used[i % 2] += rec[i].ms;
    n[i % 2]++;
    assert_true(rec[i].depth > 0);
  }
  for (int s = 0; s < 2; s++) assert_true(used[s] <= 300 + 10 * n[s] + 1000);
  free(rec);
  game_free(&g);
  player_free(a);
  player_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse),        cmocka_unit_test(test_clock_increments),
      cmocka_unit_test(test_clock_periods), cmocka_unit_test(test_clock_limits),
      cmocka_unit_test(test_budget), cmocka_unit_test(test_even_budget),       cmocka_unit_test(test_spec),
      cmocka_unit_test(test_records),      cmocka_unit_test(test_game_on_clocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
