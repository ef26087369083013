/* test_series.c: match formats: parsing, canonical strings, scripted series, a model check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "run/series.h"

#define DRAWN (-1)

static series_format parse_ok(const char *text) {
  series_format f;
  char err[256];
  if (series_parse(text, &f, err, sizeof err)) fail_msg("series_parse(%s): %s", text, err);
  return f;
}

/* 'A' = A won, 'B' = B won, 'D' = draw. */
static int result_of(char c) {
  switch (c) {
  case 'A': return 0;
  case 'B': return 1;
  case 'D': return DRAWN;
  default: fail_msg("bad result letter '%c'", c); return DRAWN;
  }
}

/* Plays the results seq under fmt: the series must stay open before game `end`, end exactly at
   game `end` with `winner`, and ignore the games of seq after it. */
static void expect_end(const char *fmt, const char *seq, int end, int winner) {
  series_format f = parse_ok(fmt);
  series_state s;
  series_start(&s);
  int n = (int)strlen(seq);
  assert_true(end >= 1 && end <= n);
  for (int g = 1; g <= n; g++) {
    series_state before = s;
    int done = series_add(&s, &f, result_of(seq[g - 1]));
    if (g < end && done)
      fail_msg("%s \"%s\": ended at game %d, expected game %d", fmt, seq, g, end);
    if (g == end && !done)
      fail_msg("%s \"%s\": still open after game %d", fmt, seq, g);
    if (g > end) {
      assert_int_equal(done, 1);
      assert_memory_equal(&before, &s, sizeof s);
    }
  }
  if (s.games != end || s.winner != winner)
    fail_msg("%s \"%s\": games %d winner %d, expected games %d winner %d", fmt, seq, s.games,
             s.winner, end, winner);
}

/* The series fmt is still open after the results seq. */
static void expect_open(const char *fmt, const char *seq) {
  series_format f = parse_ok(fmt);
  series_state s;
  series_start(&s);
  for (const char *c = seq; *c; c++)
    if (series_add(&s, &f, result_of(*c)))
      fail_msg("%s \"%s\": ended at game %d, expected still open", fmt, seq, s.games);
  assert_int_equal(s.winner, DRAWN);
}

static void test_start(void **state) {
  (void)state;
  series_state s;
  memset(&s, 0x5a, sizeof s);
  series_start(&s);
  assert_int_equal(s.games, 0);
  assert_int_equal(s.wins[0] + s.wins[1] + s.draws, 0);
  assert_int_equal(s.streak[0] + s.streak[1], 0);
  assert_int_equal(s.done, 0);
  assert_int_equal(s.winner, DRAWN);
}

static void test_best_of(void **state) {
  (void)state;
  expect_end("best-of:5", "AAA", 3, 0);   /* 3-0 */
  expect_end("best-of:5", "ABAA", 4, 0);  /* 3-1 */
  expect_end("best-of:5", "BABAB", 5, 1); /* 3-2 */
  expect_end("best-of:5", "BBABB", 4, 1); /* 1-3 after 4: A cannot reach 3 in the 1 game left */
  expect_open("best-of:5", "AA");
  expect_end("best-of:3", "AAB", 2, 0); /* 2-0 in best-of:3: B cannot reach 2 in one game */
  expect_end("best-of:3", "BB", 2, 1);
  expect_end("best-of:3", "ABA", 3, 0);
  expect_end("best-of:1", "B", 1, 1);
  expect_end("best-of:1", "D", 1, DRAWN);
  /* best-of:4 (even): 2-0 is not decided, B can still level at 2-2. */
  expect_open("best-of:4", "AA");
  expect_end("best-of:4", "AAA", 3, 0);
  expect_end("best-of:4", "ABAB", 4, DRAWN);
  expect_end("best-of:4", "AABB", 4, DRAWN);
  expect_end("best-of:4", "ABAA", 4, 0);
  /* Draws. best-of:3 "DDD": nobody ever has a win, after 3 games the wins are 0-0: drawn.
     best-of:3 "ADD": after game 1 (1-0, 2 left) B could still win both; after game 2 (1-0, 1
     left) B could still level 1-1 with a win in game 3, so 1 > 0 + 1 is false and the series
     goes on; after game 3 all N games are played and A has more wins: A wins after 3. */
  expect_end("best-of:3", "DDD", 3, DRAWN);
  expect_end("best-of:3", "ADD", 3, 0);
  expect_end("best-of:3", "DDA", 3, 0);
  expect_end("best-of:3", "ADB", 3, DRAWN);
  /* Draws use up games, so a lead decides earlier: best-of:5 "AADD" is 2-0 with 1 game left. */
  expect_end("best-of:5", "AADDD", 4, 0);
  expect_end("best-of:5", "DDDDD", 5, DRAWN);
  expect_end("best-of:5", "DDDAB", 5, DRAWN);
}

static void test_first_to(void **state) {
  (void)state;
  expect_end("first-to:3", "AAA", 3, 0);
  expect_end("first-to:3", "ADDBDAA", 7, 0); /* draws in between: 3-1 */
  expect_end("first-to:3", "DBDBDAB", 7, 1); /* 1-3 */
  expect_end("first-to:3", "ABABDDAB", 7, 0);
  expect_open("first-to:3", "ABABDDDD");
  expect_end("first-to:1", "DDDB", 4, 1);
  /* Antiguan: first-to:6,lead:3. */
  expect_end("first-to:6,lead:3", "AAA", 3, 0);            /* lead of 3 at 3-0 */
  expect_end("first-to:6,lead:3", "ADDADA", 6, 0);         /* 3-0 with draws in between */
  expect_end("first-to:6,lead:3", "ABAABAA", 7, 0);        /* lead of 3 at 5-2 */
  expect_end("first-to:6,lead:3", "BABBABB", 7, 1);        /* 2-5 */
  expect_end("first-to:6,lead:3", "ABABABABABB", 11, 1);   /* K reached at 5-6 */
  expect_end("first-to:6,lead:3", "ABABABABABA", 11, 0);   /* 6-5 */
  expect_end("first-to:6,lead:3", "ABABABABAADB", 10, 0);  /* 6-4: K and lead 2, K decides */
  expect_open("first-to:6,lead:3", "ABABABABAB");           /* 5-5, never 3 apart */
  /* The cap: the series is drawn whoever leads when it runs out. */
  expect_end("first-to:3,cap:5", "DDDDD", 5, DRAWN);
  expect_end("first-to:3,cap:5", "AADDD", 5, DRAWN);
  expect_end("first-to:3,cap:5", "AADDDA", 5, DRAWN);
  expect_end("first-to:3,cap:5", "AADDA", 5, 0); /* K reached in the last game allowed */
  expect_end("first-to:3,cap:3", "AAB", 3, DRAWN);
  expect_end("first-to:6,lead:3,cap:8", "AABBAABB", 8, DRAWN);
  expect_end("first-to:6,lead:3,cap:8", "AABBAABA", 8, DRAWN); /* 5-3 at the cap: drawn */
}

static void test_streak(void **state) {
  (void)state;
  expect_end("streak:3", "AAA", 3, 0);
  expect_end("streak:3", "BBB", 3, 1);
  expect_end("streak:3", "AADAAA", 6, 0); /* broken by a draw */
  expect_end("streak:3", "AADBBB", 6, 1);
  expect_end("streak:3", "AABAAA", 6, 0); /* broken by a loss */
  expect_end("streak:3", "AABBB", 5, 1);
  expect_open("streak:3", "AADAADABBDBBDAA");
  expect_end("streak:1", "DDA", 3, 0);
  expect_end("streak:3,cap:5", "AADAA", 5, DRAWN); /* the cap: drawn */
  expect_end("streak:3,cap:5", "AADAAA", 5, DRAWN);
  expect_end("streak:3,cap:5", "DDAAA", 5, 0); /* the run completes in the last game allowed */
  expect_end("streak:3,cap:3", "DDDDDD", 3, DRAWN);
}

static void test_games(void **state) {
  (void)state;
  expect_end("games:4", "AAAA", 4, 0); /* no early end even at 3-0 */
  expect_end("games:4", "AAAB", 4, 0);
  expect_end("games:4", "AABB", 4, DRAWN);
  expect_end("games:4", "ADDD", 4, 0);
  expect_end("games:4", "DDDD", 4, DRAWN);
  expect_end("games:4", "DBDDA", 4, 1);
  expect_end("games:1", "D", 1, DRAWN);
  expect_open("games:4", "AAA");
}

/* The counters follow every result, whatever the format. */
static void test_counters(void **state) {
  (void)state;
  series_format f = parse_ok("games:9");
  series_state s;
  series_start(&s);
  const char *seq = "AADBBBDA";
  for (const char *c = seq; *c; c++) series_add(&s, &f, result_of(*c));
  assert_int_equal(s.games, 8);
  assert_int_equal(s.wins[0], 3);
  assert_int_equal(s.wins[1], 3);
  assert_int_equal(s.draws, 2);
  assert_int_equal(s.streak[0], 1);
  assert_int_equal(s.streak[1], 0);
  assert_int_equal(s.done, 0);
}

static void test_after_end(void **state) {
  (void)state;
  series_format f = parse_ok("best-of:3");
  series_state s, copy;
  series_start(&s);
  assert_int_equal(series_add(&s, &f, 1), 0);
  assert_int_equal(series_add(&s, &f, 1), 1);
  copy = s;
  for (int r = -1; r <= 1; r++) {
    assert_int_equal(series_add(&s, &f, r), 1);
    assert_memory_equal(&copy, &s, sizeof s);
  }
}

static void test_max_games(void **state) {
  (void)state;
  static const struct {
    const char *fmt;
    int max;
  } cases[] = {
      {"best-of:5", 5},          {"best-of:4", 4},          {"best-of:1000", 1000},
      {"games:4", 4},            {"games:1000000", 1000000}, {"first-to:3", 100},
      {"first-to:3,cap:5", 5},   {"first-to:6,lead:3", 100}, {"first-to:6,cap:7,lead:3", 7},
      {"streak:3", 100},         {"streak:3,cap:7", 7},      {"streak:1000,cap:100000", 100000},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    series_format f = parse_ok(cases[i].fmt);
    if (series_max_games(&f) != cases[i].max)
      fail_msg("series_max_games(%s) = %d, expected %d", cases[i].fmt, series_max_games(&f),
               cases[i].max);
  }
}

static void test_parse_fields(void **state) {
  (void)state;
  series_format f = parse_ok("first-to:6,cap:50,lead:3");
  assert_int_equal(f.kind, SERIES_FIRST_TO);
  assert_int_equal(f.n, 6);
  assert_int_equal(f.lead, 3);
  assert_int_equal(f.cap, 50);
  f = parse_ok("streak:3");
  assert_int_equal(f.kind, SERIES_STREAK);
  assert_int_equal(f.n, 3);
  assert_int_equal(f.lead, 0);
  assert_int_equal(f.cap, 100);
  f = parse_ok("best-of:4");
  assert_int_equal(f.kind, SERIES_BEST_OF);
  assert_int_equal(f.n, 4);
  assert_int_equal(f.lead, 0);
  f = parse_ok("games:1000000");
  assert_int_equal(f.kind, SERIES_GAMES);
  assert_int_equal(f.n, 1000000);
  f = parse_ok("first-to:1,cap:1");
  assert_int_equal(f.cap, 1);
  f = parse_ok("first-to:100");
  assert_int_equal(f.cap, 100);
  f = parse_ok("first-to:3,lead:1000");
  assert_int_equal(f.lead, 1000);
}

/* Every bad string fails with a message that holds each of the given parts, and leaves f alone. */
static void test_parse_errors(void **state) {
  (void)state;
  static const struct {
    const char *text;
    const char *parts[4];
  } cases[] = {
      {"", {"empty", "best-of", "first-to", "games"}},
      {"bestof:3", {"unknown format 'bestof'", "best-of:N", "first-to:K", "streak:K"}},
      {"FIRST-TO:3", {"unknown format 'FIRST-TO'", "games:N"}},
      {"rounds", {"unknown format 'rounds'", "best-of"}},
      {",first-to:3", {"empty format name", "',first-to:3'", "best-of"}},
      {":3", {"empty format name", "':3'"}},
      {"cap:5,first-to:3", {"'cap:5'", "format goes first"}},
      {"best-of", {"'best-of'", "no number", "1..1000"}},
      {"best-of:", {"'best-of:'", "no number", "1..1000"}},
      {"best-of:x", {"'x'", "not a number", "1..1000"}},
      {"best-of:3x", {"'3x'", "not a number"}},
      {"best-of:-3", {"'-3'", "not a number"}},
      {"best-of:+3", {"'+3'", "not a number"}},
      {"first-to:3 ", {"'3 '", "not a number"}},
      {"best-of:0", {"'best-of:0'", "out of range", "1..1000"}},
      {"best-of:1001", {"'best-of:1001'", "out of range", "1..1000"}},
      {"best-of:99999999999999999999999", {"out of range", "1..1000"}},
      {"games:0", {"'games:0'", "1..1000000"}},
      {"games:1000001", {"'games:1000001'", "out of range", "1..1000000"}},
      {"first-to:0", {"'first-to:0'", "out of range", "1..1000"}},
      {"first-to:1001,cap:2000", {"'first-to:1001'", "1..1000"}},
      {"streak:0", {"'streak:0'", "1..1000"}},
      {"streak:1001", {"'streak:1001'", "1..1000"}},
      {"first-to:3,lead:0", {"'lead:0'", "out of range", "1..1000"}},
      {"first-to:3,lead:1001", {"'lead:1001'", "1..1000"}},
      {"first-to:3,lead:", {"'lead:'", "no number"}},
      {"first-to:3,lead", {"'lead'", "no number"}},
      {"first-to:3,lead:two", {"'two'", "not a number"}},
      {"first-to:3,cap:2", {"'cap:2'", "out of range", "3..100000"}},
      {"first-to:3,cap:100001", {"'cap:100001'", "3..100000"}},
      {"first-to:3,cap:x", {"'x'", "not a number"}},
      {"streak:4,cap:3", {"'cap:3'", "4..100000"}},
      {"first-to:200", {"first-to:200", "cap", "200..100000"}},
      {"streak:101", {"streak:101", "cap", "101..100000"}},
      {"best-of:3,cap:5", {"'cap:5'", "best-of takes no cap or lead"}},
      {"best-of:3,lead:2", {"'lead:2'", "best-of takes no cap or lead"}},
      {"games:10,cap:20", {"'cap:20'", "games takes no cap or lead"}},
      {"games:10,lead:2", {"'lead:2'", "games takes no cap or lead"}},
      {"games:10,rounds:2", {"'rounds:2'", "games takes no cap or lead"}},
      {"streak:3,lead:2", {"'lead:2'", "streak takes no lead"}},
      {"streak:3,foo:2", {"unknown item 'foo:2'", "cap:C"}},
      {"first-to:3,foo:4", {"unknown item 'foo:4'", "lead:M", "cap:C"}},
      {"first-to:3,first-to:4", {"unknown item 'first-to:4'"}},
      {"first-to:3,cap:5,cap:6", {"repeated item 'cap:6'"}},
      {"first-to:3,lead:2,cap:9,lead:2", {"repeated item 'lead:2'"}},
      {"streak:3,cap:5,cap:5", {"repeated item 'cap:5'"}},
      {"first-to:3,", {"trailing ','", "'first-to:3,'"}},
      {"best-of:3,", {"trailing ','", "'best-of:3,'"}},
      {"first-to:3,cap:5,", {"trailing ','"}},
      {"first-to:3,,cap:5", {"empty item", "'first-to:3,,cap:5'"}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    series_format f = {SERIES_GAMES, 77, 5, 9}, keep = f;
    char err[256] = "";
    if (series_parse(cases[i].text, &f, err, sizeof err) != -1)
      fail_msg("series_parse(\"%s\") accepted it", cases[i].text);
    assert_memory_equal(&f, &keep, sizeof f);
    for (int k = 0; k < 4 && cases[i].parts[k]; k++)
      if (!strstr(err, cases[i].parts[k]))
        fail_msg("series_parse(\"%s\"): message \"%s\" lacks \"%s\"", cases[i].text, err,
                 cases[i].parts[k]);
  }
  /* NULL text, and no room for a message. */
  series_format f;
  char err[64];
  assert_int_equal(series_parse(NULL, &f, err, sizeof err), -1);
  assert_non_null(strstr(err, "empty"));
  assert_int_equal(series_parse("nope", &f, NULL, 0), -1);
  char tiny[8];
  assert_int_equal(series_parse("best-of:0", &f, tiny, sizeof tiny), -1);
  assert_int_equal(strlen(tiny), sizeof tiny - 1);
}

/* Parses text, checks its canonical string and that the canonical string reads back the same. */
static void round_trip(const char *text, const char *canonical) {
  series_format f = parse_ok(text), g;
  char buf[128], buf2[128];
  series_format_string(&f, buf, sizeof buf);
  if (canonical && strcmp(buf, canonical))
    fail_msg("%s: canonical \"%s\", expected \"%s\"", text, buf, canonical);
  g = parse_ok(buf);
  if (memcmp(&f, &g, sizeof f)) fail_msg("%s -> %s reads back differently", text, buf);
  series_format_string(&g, buf2, sizeof buf2);
  assert_string_equal(buf, buf2);
}

static void test_round_trip(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"best-of:1", "best-of:1"},
      {"best-of:4", "best-of:4"},
      {"best-of:1000", "best-of:1000"},
      {"best-of:007", "best-of:7"},
      {"games:1", "games:1"},
      {"games:1000000", "games:1000000"},
      {"first-to:3", "first-to:3,cap:100"},
      {"first-to:6,lead:3", "first-to:6,lead:3,cap:100"},
      {"first-to:6,cap:50,lead:3", "first-to:6,lead:3,cap:50"},
      {"first-to:6,lead:3,cap:50", "first-to:6,lead:3,cap:50"},
      {"first-to:1,cap:1", "first-to:1,cap:1"},
      {"first-to:200,cap:200", "first-to:200,cap:200"},
      {"first-to:1000,lead:1000,cap:100000", "first-to:1000,lead:1000,cap:100000"},
      {"first-to:100", "first-to:100,cap:100"},
      {"streak:3", "streak:3,cap:100"},
      {"streak:3,cap:3", "streak:3,cap:3"},
      {"streak:1000,cap:100000", "streak:1000,cap:100000"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) round_trip(cases[i][0], cases[i][1]);
  char text[64];
  for (int n = 1; n <= 1000; n += 37) {
    snprintf(text, sizeof text, "best-of:%d", n);
    round_trip(text, text);
    snprintf(text, sizeof text, "games:%d", n * 997);
    round_trip(text, text);
    snprintf(text, sizeof text, "streak:%d,cap:%d", n, n + n % 7);
    round_trip(text, text);
    snprintf(text, sizeof text, "first-to:%d,lead:%d,cap:%d", n, 1001 - n, n * 100);
    round_trip(text, text);
    snprintf(text, sizeof text, "first-to:%d,cap:%d", n, 100000);
    round_trip(text, text);
  }
}

/* A short buffer gets a cut but terminated prefix of the canonical string. */
static void test_format_truncated(void **state) {
  (void)state;
  series_format f = parse_ok("first-to:6,lead:3,cap:100");
  char full[64], buf[64];
  series_format_string(&f, full, sizeof full);
  assert_string_equal(full, "first-to:6,lead:3,cap:100");
  for (size_t len = 1; len <= strlen(full) + 1; len++) {
    memset(buf, '#', sizeof buf);
    series_format_string(&f, buf, len);
    assert_int_equal(strlen(buf), len - 1);
    assert_memory_equal(buf, full, len - 1);
  }
  series_format_string(&f, NULL, 0);
}

/* ---- The plain model, straight from RULES.md "Match formats (series)". ----
   For each number of games g it counts everything again from the first game, then asks the
   table's question for the format. Returns the game at which the series ends (0 = still open
   after all len results) and sets *winner. */
static int model_end(const series_format *f, const int *r, int len, int *winner) {
  for (int g = 1; g <= len; g++) {
    int a = 0, b = 0;
    for (int i = 0; i < g; i++) {
      if (r[i] == 0) a++;
      if (r[i] == 1) b++;
    }
    int more = a > b ? 0 : b > a ? 1 : DRAWN;
    if (f->kind == SERIES_BEST_OF) {
      /* "one player has more wins than the other can still reach in N games" */
      int left = f->n - g;
      if (a > b + left) return *winner = 0, g;
      if (b > a + left) return *winner = 1, g;
      /* "or N games are played" */
      if (g == f->n) return *winner = more, g;
    } else if (f->kind == SERIES_FIRST_TO) {
      /* "a player has K wins", "or leads by M" */
      if (a >= f->n) return *winner = 0, g;
      if (b >= f->n) return *winner = 1, g;
      if (f->lead && a - b >= f->lead) return *winner = 0, g;
      if (f->lead && b - a >= f->lead) return *winner = 1, g;
      /* "also end after cap:C games ... a series that ends without a winner is drawn" */
      if (g == f->cap) return *winner = DRAWN, g;
    } else if (f->kind == SERIES_STREAK) {
      /* "a player wins K games in a row": the last game and the same result before it */
      int last = r[g - 1], run = 0;
      if (last != DRAWN)
        for (int i = g - 1; i >= 0 && r[i] == last; i--) run++;
      if (last != DRAWN && run >= f->n) return *winner = last, g;
      if (g == f->cap) return *winner = DRAWN, g;
    } else {
      /* "exactly N games" */
      if (g == f->n) return *winner = more, g;
    }
  }
  *winner = DRAWN;
  return 0;
}

/* Checks every result sequence of length 0..8 under f against the model. */
static long check_format(const series_format *f, const char *text) {
  enum { MAXLEN = 8 };
  int r[MAXLEN];
  long checked = 0;
  int max = series_max_games(f);
  for (int len = 0; len <= MAXLEN; len++) {
    int count = 1;
    for (int i = 0; i < len; i++) count *= 3;
    for (int code = 0; code < count; code++) {
      for (int i = 0, c = code; i < len; i++, c /= 3) r[i] = c % 3 - 1;
      series_state s;
      series_start(&s);
      int end = 0;
      for (int i = 0; i < len; i++) {
        series_state before = s;
        int done = series_add(&s, f, r[i]);
        assert_int_equal(done, s.done);
        if (before.done) {
          assert_int_equal(done, 1);
          assert_memory_equal(&before, &s, sizeof s);
          continue;
        }
        if (s.games > max) fail_msg("%s: %d games, more than max %d", text, s.games, max);
        assert_int_equal(s.games, i + 1);
        assert_int_equal(s.wins[0] + s.wins[1] + s.draws, s.games);
        if (done) end = i + 1;
      }
      if (len >= max && !s.done) fail_msg("%s: still open after %d games (max %d)", text, len, max);
      int want_winner, want_end = model_end(f, r, len, &want_winner);
      if (end != want_end || (end && s.winner != want_winner)) {
        char seq[MAXLEN + 1];
        for (int i = 0; i < len; i++) seq[i] = "DAB"[r[i] + 1];
        seq[len] = '\0';
        fail_msg("%s \"%s\": ends at %d winner %d; the model says %d winner %d", text, seq, end,
                 s.winner, want_end, want_winner);
      }
      if (!end) assert_int_equal(s.winner, DRAWN);
      checked++;
    }
  }
  return checked;
}

static void check_text(const char *text, long *formats, long *sequences) {
  series_format f = parse_ok(text);
  char canon[64];
  series_format_string(&f, canon, sizeof canon);
  series_format g = parse_ok(canon);
  assert_memory_equal(&f, &g, sizeof f);
  *sequences += check_format(&f, text);
  ++*formats;
}

static void test_against_model(void **state) {
  (void)state;
  long formats = 0, sequences = 0;
  char text[64];
  for (int n = 1; n <= 9; n++) {
    snprintf(text, sizeof text, "best-of:%d", n);
    check_text(text, &formats, &sequences);
  }
  for (int k = 1; k <= 5; k++)
    for (int lead = 0; lead <= 3; lead++) {
      const int caps[] = {0, k, k + 1, k + 3, 7, 8};
      for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        if (caps[c] && caps[c] < k) continue;
        int n = snprintf(text, sizeof text, "first-to:%d", k);
        if (lead) n += snprintf(text + n, sizeof text - (size_t)n, ",lead:%d", lead);
        if (caps[c]) snprintf(text + n, sizeof text - (size_t)n, ",cap:%d", caps[c]);
        check_text(text, &formats, &sequences);
      }
    }
  for (int k = 1; k <= 4; k++) {
    const int caps[] = {0, k, k + 1, k + 2, 6, 8};
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
      if (caps[c])
        snprintf(text, sizeof text, "streak:%d,cap:%d", k, caps[c]);
      else
        snprintf(text, sizeof text, "streak:%d", k);
      check_text(text, &formats, &sequences);
    }
  }
  for (int n = 1; n <= 6; n++) {
    snprintf(text, sizeof text, "games:%d", n);
    check_text(text, &formats, &sequences);
  }
  print_message("series model check: %ld formats, %ld result sequences\n", formats, sequences);
  assert_true(formats > 100);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_start),          cmocka_unit_test(test_best_of),
      cmocka_unit_test(test_first_to),       cmocka_unit_test(test_streak),
      cmocka_unit_test(test_games),          cmocka_unit_test(test_counters),
      cmocka_unit_test(test_after_end),      cmocka_unit_test(test_max_games),
      cmocka_unit_test(test_parse_fields),   cmocka_unit_test(test_parse_errors),
      cmocka_unit_test(test_round_trip),     cmocka_unit_test(test_format_truncated),
      cmocka_unit_test(test_against_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
