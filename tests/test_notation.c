/* test_notation.c: core parsers and writers (variant, position, moves, OGN), good and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/board.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/rng.h"
#include "core/variant.h"

#define ERRLEN 512

/* Expectations checked, printed at the end. */
static long checks;

/* Fails unless msg contains each of the NULL-terminated strings after it. */
static void expect_substrings(int line, const char *call, const char *msg, va_list ap) {
  const char *s;
  if (!msg[0]) fail_msg("line %d: %s: empty error message", line, call);
  while ((s = va_arg(ap, const char *))) {
    checks++;
    if (!strstr(msg, s))
      fail_msg("line %d: %s: message '%s' does not contain '%s'", line, call, msg, s);
  }
}

static variant parse_variant_ok(int line, const char *text) {
  variant v;
  char err[ERRLEN] = "";
  checks++;
  if (variant_parse(text, &v, err, sizeof err))
    fail_msg("line %d: variant_parse(\"%s\") failed: %s", line, text, err);
  return v;
}
#define VARIANT(text) parse_variant_ok(__LINE__, text)

/* variant_parse(text) must give -1 and a message with every substring. */
static void variant_bad(int line, const char *text, ...) {
  variant v;
  char err[ERRLEN] = "", call[256];
  snprintf(call, sizeof call, "variant_parse(\"%s\")", text);
  checks++;
  if (variant_parse(text, &v, err, sizeof err) != -1)
    fail_msg("line %d: %s accepted bad input", line, call);
  va_list ap;
  va_start(ap, text);
  expect_substrings(line, call, err, ap);
  va_end(ap);
}
#define VARIANT_BAD(...) variant_bad(__LINE__, __VA_ARGS__, (const char *)NULL)

static void position_bad(int line, const char *vtext, const char *text, ...) {
  variant v = parse_variant_ok(line, vtext);
  board b;
  char err[ERRLEN] = "", call[256];
  snprintf(call, sizeof call, "notation_parse_position(\"%s\") [%s]", text, vtext);
  checks++;
  if (notation_parse_position(text, &v, &b, err, sizeof err) != -1)
    fail_msg("line %d: %s accepted bad input", line, call);
  va_list ap;
  va_start(ap, text);
  expect_substrings(line, call, err, ap);
  va_end(ap);
}
#define POSITION_BAD(vtext, ...) position_bad(__LINE__, vtext, __VA_ARGS__, (const char *)NULL)

static void moves_bad(int line, const char *vtext, const char *text, ...) {
  variant v = parse_variant_ok(line, vtext);
  int moves[64];
  char err[ERRLEN] = "", call[256];
  snprintf(call, sizeof call, "notation_parse_moves(\"%s\") [%s]", text, vtext);
  checks++;
  if (notation_parse_moves(text, &v, moves, 64, err, sizeof err) != -1)
    fail_msg("line %d: %s accepted bad input", line, call);
  va_list ap;
  va_start(ap, text);
  expect_substrings(line, call, err, ap);
  va_end(ap);
}
#define MOVES_BAD(vtext, ...) moves_bad(__LINE__, vtext, __VA_ARGS__, (const char *)NULL)

static void ogn_bad(int line, const char *text, ...) {
  notation_ogn o;
  size_t used = 0;
  char err[ERRLEN] = "", call[512];
  snprintf(call, sizeof call, "notation_ogn_read(\"%.400s\")", text);
  checks++;
  if (notation_ogn_read(text, &used, &o, err, sizeof err) != -1) {
    notation_ogn_free(&o);
    fail_msg("line %d: %s accepted bad input", line, call);
  }
  va_list ap;
  va_start(ap, text);
  expect_substrings(line, call, err, ap);
  va_end(ap);
}
#define OGN_BAD(...) ogn_bad(__LINE__, __VA_ARGS__, (const char *)NULL)

/* Reads one record that must parse; the caller frees it. */
static void ogn_ok(int line, const char *text, notation_ogn *o, size_t *used) {
  char err[ERRLEN] = "";
  size_t u;
  checks++;
  int r = notation_ogn_read(text, used ? used : &u, o, err, sizeof err);
  if (r != 1) fail_msg("line %d: notation_ogn_read(\"%s\") gave %d: %s", line, text, r, err);
}

static void expect_moves(int line, const int *got, int n, const char *letters, const variant *v) {
  int want = (int)strlen(letters);
  checks++;
  if (n != want) fail_msg("line %d: %d moves, expected %d (%s)", line, n, want, letters);
  for (int i = 0; i < n; i++) {
    checks++;
    if (notation_move_letter(v, got[i]) != letters[i])
      fail_msg("line %d: move %d is %c, expected %c", line, i + 1, notation_move_letter(v, got[i]),
               letters[i]);
  }
}

static void expect_same_variant(const variant *a, const variant *b, const char *what) {
  checks++;
  if (a->houses != b->houses || a->seeds != b->seeds || a->lap != b->lap ||
      a->grand_slam != b->grand_slam || a->feeding != b->feeding ||
      a->repetition != b->repetition || a->cycle != b->cycle || a->max_plies != b->max_plies ||
      a->pits != b->pits || a->total != b->total || a->half != b->half)
    fail_msg("%s: variants differ", what);
}

static void expect_same_board(const board *a, const board *b, const variant *v, const char *what) {
  checks++;
  if (memcmp(a->pit, b->pit, (size_t)v->pits) || a->store[0] != b->store[0] ||
      a->store[1] != b->store[1] || a->side != b->side || a->key != b->key) {
    char ta[NOTATION_POSITION_MAX], tb[NOTATION_POSITION_MAX];
    notation_format_position(a, v, NULL, ta, sizeof ta);
    notation_format_position(b, v, NULL, tb, sizeof tb);
    fail_msg("%s: positions differ: %s vs %s", what, ta, tb);
  }
}

/* A random legal move of g (which is not over). */
static int random_move(const game *g, rng *r) {
  uint32_t legal = g->legal;
  int k = (int)rng_below(r, (uint32_t)__builtin_popcount(legal));
  for (; k; k--) legal &= legal - 1;
  return __builtin_ctz(legal);
}

/* Plays random moves until the game is over or `plies` moves are played. */
static void play_random(game *g, rng *r, int plies) {
  for (int i = 0; i < plies && g->end == BOARD_END_NONE; i++)
    assert_int_equal(game_play(g, random_move(g, r)), 0);
}

/* ---- variant strings ---- */

static void test_variant_bad(void **state) {
  (void)state;
  VARIANT_BAD("", "empty");
  VARIANT_BAD("abapaa", "unknown variant 'abapaa'", "abapa, grandslam-forbidden",
              "auale, awari");
  VARIANT_BAD("ABAPA", "unknown variant 'ABAPA'");
  VARIANT_BAD(" abapa", "unknown variant ' abapa'");
  VARIANT_BAD("awari,seeds=5,foo=1", "unknown switch 'foo'", "houses", "max_plies");
  VARIANT_BAD("colour=red", "unknown switch 'colour'");
  VARIANT_BAD("=5", "unknown switch ''");
  VARIANT_BAD("houses=2", "'houses'", "'2'", "3..8");
  VARIANT_BAD("houses=9", "'houses'", "'9'", "3..8");
  VARIANT_BAD("abapa,houses=0", "'houses'", "3..8");
  VARIANT_BAD("seeds=0", "'seeds'", "'0'", "1..12");
  VARIANT_BAD("seeds=13", "'seeds'", "'13'", "1..12");
  VARIANT_BAD("seeds=-1", "'seeds'", "'-1'", "1..12");
  VARIANT_BAD("seeds=+4", "'seeds'", "'+4'");
  VARIANT_BAD("seeds=5x", "'seeds'", "'5x'", "1..12");
  VARIANT_BAD("seeds= 5", "'seeds'", "' 5'");
  VARIANT_BAD("seeds=", "'seeds'", "1..12");
  VARIANT_BAD("seeds=99999999999999999999999999999999999999999", "'seeds'", "1..12");
  VARIANT_BAD("houses=6=6", "'houses'", "'6=6'");
  VARIANT_BAD("repetition=1", "'repetition'", "'1'", "0 (off) or 2..100");
  VARIANT_BAD("repetition=101", "'repetition'", "'101'", "2..100");
  VARIANT_BAD("repetition=two", "'repetition'", "'two'");
  VARIANT_BAD("max_plies=1000001", "'max_plies'", "0..1000000");
  VARIANT_BAD("max_plies=-1", "'max_plies'", "'-1'");
  VARIANT_BAD("lap=jump", "'lap'", "'jump'", "skip|fill");
  VARIANT_BAD("lap=", "'lap'", "skip|fill");
  VARIANT_BAD("grand_slam=some", "'grand_slam'", "'some'", "nothing|forbidden|all|win");
  VARIANT_BAD("grand_slam=ALL", "'grand_slam'", "'ALL'");
  VARIANT_BAD("feeding=maybe", "'feeding'", "'maybe'", "must|none");
  VARIANT_BAD("cycle=half", "'cycle'", "'half'", "own|split");
  VARIANT_BAD("abapa,", "trailing ','");
  VARIANT_BAD("seeds=5,", "trailing ','");
  VARIANT_BAD("abapa,seeds=5,", "trailing ','");
  VARIANT_BAD("abapa,,seeds=5", "empty switch");
  VARIANT_BAD("seeds=5,,houses=4", "empty switch");
  VARIANT_BAD(",seeds=5", "variant");
  VARIANT_BAD(",", "variant");
  VARIANT_BAD("abapa,awari", "'awari'", "switch=value");
  VARIANT_BAD("abapa,seeds", "'seeds'", "switch=value");
  VARIANT_BAD("seeds", "unknown variant 'seeds'");
  VARIANT_BAD("abapa, seeds=5", "unknown switch ' seeds'");
  /* Issue 12, defect 1: neither repetition nor a ply limit: a game could cycle for ever. */
  VARIANT_BAD("houses=3,seeds=1,repetition=0,max_plies=0", "cycle for ever", "repetition",
              "max_plies");
  VARIANT_BAD("auale,max_plies=0,repetition=0", "cycle for ever");

  /* A failed parse leaves v alone; a tiny error buffer is still a C string. */
  variant v, before;
  variant_default(&v);
  v.seeds = 7;
  before = v;
  char small[8];
  assert_int_equal(variant_parse("houses=99", &v, small, sizeof small), -1);
  assert_int_equal(strlen(small), sizeof small - 1);
  expect_same_variant(&v, &before, "failed parse");
  assert_int_equal(variant_parse("nope", &v, small, 1), -1);
  assert_int_equal(small[0], '\0');
  checks += 3;
}

typedef struct preset_case {
  const char *name;
  variant_grand_slam gs;
  int repetition;
  variant_cycle cycle;
} preset_case;

static void test_variant_good(void **state) {
  (void)state;
  static const preset_case presets[] = {
      {"abapa", VARIANT_GS_NOTHING, 3, VARIANT_CYCLE_OWN},
      {"grandslam-forbidden", VARIANT_GS_FORBIDDEN, 3, VARIANT_CYCLE_OWN},
      {"grandslam-all", VARIANT_GS_ALL, 3, VARIANT_CYCLE_OWN},
      {"grandslam-win", VARIANT_GS_WIN, 3, VARIANT_CYCLE_OWN},
      {"auale", VARIANT_GS_NOTHING, 2, VARIANT_CYCLE_OWN},
      {"awari", VARIANT_GS_FORBIDDEN, 3, VARIANT_CYCLE_SPLIT},
  };
  int n = 0;
  for (size_t i = 0; i < sizeof presets / sizeof *presets; i++) {
    const preset_case *p = &presets[i];
    variant v = VARIANT(p->name);
    assert_int_equal(v.houses, 6);
    assert_int_equal(v.seeds, 4);
    assert_int_equal(v.lap, VARIANT_LAP_SKIP);
    assert_int_equal(v.grand_slam, p->gs);
    assert_int_equal(v.feeding, VARIANT_FEED_MUST);
    assert_int_equal(v.repetition, p->repetition);
    assert_int_equal(v.cycle, p->cycle);
    assert_int_equal(v.max_plies, 1000);
    assert_int_equal(v.pits, 12);
    assert_int_equal(v.total, 48);
    assert_int_equal(v.half, 24);
    checks += 11;
    char buf[160];
    variant_format(&v, buf, sizeof buf); /* a preset formats as its bare name */
    assert_string_equal(buf, p->name);
    assert_non_null(variant_names[i]);
    assert_string_equal(variant_names[i], p->name);
    checks += 3;
    n++;
  }
  assert_null(variant_names[n]);
  checks++;

  variant d;
  variant_default(&d);
  variant a = VARIANT("abapa");
  expect_same_variant(&a, &d, "abapa vs variant_default");

  variant v = VARIANT("abapa,seeds=5,repetition=2");
  assert_int_equal(v.seeds, 5);
  assert_int_equal(v.repetition, 2);
  assert_int_equal(v.houses, 6);
  assert_int_equal(v.total, 60);
  assert_int_equal(v.half, 30);
  v = VARIANT("houses=5"); /* bare switches go on top of abapa */
  assert_int_equal(v.houses, 5);
  assert_int_equal(v.pits, 10);
  assert_int_equal(v.total, 40);
  assert_int_equal(v.grand_slam, VARIANT_GS_NOTHING);
  assert_int_equal(v.repetition, 3);
  v = VARIANT("awari,grand_slam=nothing,cycle=own");
  assert_int_equal(v.grand_slam, VARIANT_GS_NOTHING);
  assert_int_equal(v.cycle, VARIANT_CYCLE_OWN);
  v = VARIANT("houses=3,seeds=1,lap=fill,grand_slam=win,feeding=none,repetition=0,cycle=split,"
              "max_plies=7");
  assert_int_equal(v.houses, 3);
  assert_int_equal(v.seeds, 1);
  assert_int_equal(v.lap, VARIANT_LAP_FILL);
  assert_int_equal(v.grand_slam, VARIANT_GS_WIN);
  assert_int_equal(v.feeding, VARIANT_FEED_NONE);
  assert_int_equal(v.repetition, 0);
  assert_int_equal(v.cycle, VARIANT_CYCLE_SPLIT);
  assert_int_equal(v.max_plies, 7);
  assert_int_equal(v.total, 6);
  v = VARIANT("grandslam-all,houses=8,seeds=12,repetition=100,max_plies=1000000");
  assert_int_equal(v.total, 192);
  assert_int_equal(v.half, 96);
  assert_int_equal(v.pits, 16);
  assert_int_equal(v.repetition, 100);
  assert_int_equal(v.max_plies, 1000000);
  v = VARIANT("seeds=3,seeds=5"); /* the last one wins */
  assert_int_equal(v.seeds, 5);
  checks += 29;
  assert_string_equal(variant_grand_slam_name(VARIANT_GS_FORBIDDEN), "forbidden");
  assert_string_equal(variant_grand_slam_name(VARIANT_GS_WIN), "win");
  checks += 2;
}

/* variant_format -> variant_parse gives back every switch, for every combination. */
static void test_variant_round_trip(void **state) {
  (void)state;
  static const int seeds[] = {1, 4, 5, 12};
  static const int reps[] = {0, 2, 3, 100};
  static const int plies[] = {0, 1000, 77};
  long n = 0;
  for (int h = VARIANT_MIN_HOUSES; h <= VARIANT_MAX_HOUSES; h++)
    for (int si = 0; si < 4; si++)
      for (int lap = 0; lap < 2; lap++)
        for (int gs = 0; gs < 4; gs++)
          for (int feed = 0; feed < 2; feed++)
            for (int ri = 0; ri < 4; ri++)
              for (int cyc = 0; cyc < 2; cyc++)
                for (int pi = 0; pi < 3; pi++) {
                  if (reps[ri] == 0 && plies[pi] == 0) continue; /* refused: no end */
                  variant v, w;
                  variant_default(&v);
                  v.houses = h;
                  v.seeds = seeds[si];
                  v.lap = (variant_lap)lap;
                  v.grand_slam = (variant_grand_slam)gs;
                  v.feeding = (variant_feeding)feed;
                  v.repetition = reps[ri];
                  v.cycle = (variant_cycle)cyc;
                  v.max_plies = plies[pi];
                  variant_finish(&v);
                  char buf[200], err[ERRLEN];
                  variant_format(&v, buf, sizeof buf);
                  if (variant_parse(buf, &w, err, sizeof err))
                    fail_msg("variant_format gave '%s', which does not parse: %s", buf, err);
                  expect_same_variant(&v, &w, buf);
                  /* Shortest form: it starts with a preset and sets no switch twice. */
                  int preset = 0;
                  for (int i = 0; variant_names[i]; i++) {
                    size_t l = strlen(variant_names[i]);
                    if (!strncmp(buf, variant_names[i], l) && (buf[l] == ',' || !buf[l]))
                      preset = 1;
                  }
                  if (!preset) fail_msg("variant_format gave '%s', not preset-first", buf);
                  n++;
                }
  assert_int_equal(n, 6 * 4 * 2 * 4 * 2 * (4 * 3 - 1) * 2);
  checks += 2 * n;
}

/* ---- position strings ---- */

static void test_position_bad(void **state) {
  (void)state;
  const char *a = "abapa";
  POSITION_BAD(a, "", "fields", "expected 15");
  POSITION_BAD(a, "4-4-4", "3 fields", "expected 15");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0-S", "14 fields", "expected 15");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-0-S", "16 fields", "expected 15");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S-", "16 fields", "expected 15");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-", "field 15", "side to move", "S or N");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-X", "field 15", "side to move", "'X'",
               "S or N");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-s", "field 15", "'s'", "S or N");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-SN", "field 15", "'SN'");
  /* A negative count: the '-' of "-1" is not a field separator. */
  POSITION_BAD(a, "4--1-4-4-4-4-4-4-4-4-4-4-0-0-S", "field 2", "house B", "-1");
  POSITION_BAD(a, "-4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "field 1", "house A", "-4");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0--3-S", "field 14", "North's store", "-3");
  POSITION_BAD(a, "4-x-4-4-4-4-4-4-4-4-4-4-0-0-S", "field 2", "house B", "'x'", "0 to 48");
  POSITION_BAD(a, "4-4-4-4-4-4-4a-4-4-4-4-4-0-0-S", "field 7", "house a", "'4a'");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4- 4-0-0-S", "field 12", "house f", "' 4'");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0.5-0-S", "field 13", "South's store", "'0.5'");
  POSITION_BAD(a, "49-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "field 1", "house A", "'49'", "0 to 48");
  POSITION_BAD(a, "0004-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "field 1", "house A");
  POSITION_BAD(a, "0-0-0-0-0-0-0-0-0-0-0-0-49-0-S", "field 13", "South's store", "'49'");
  POSITION_BAD(a, "0-0-0-0-0-0-0-0-0-0-0-0-0-999-S", "field 14", "North's store", "'999'");
  POSITION_BAD(a, "5-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "add up to 49", "48");
  POSITION_BAD(a, "4-4-4-4-4-4-4-4-4-4-4-4-0-1-N", "add up to 49", "48");
  POSITION_BAD(a, "0-0-0-0-0-0-0-0-0-0-0-0-0-0-S", "add up to 0", "48");
  /* Field counts follow the variant. */
  POSITION_BAD("houses=5", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "15 fields", "expected 13");
  POSITION_BAD("houses=8", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "15 fields", "expected 19");
  POSITION_BAD("houses=3,seeds=1", "1-1-1-1-1-1-0-0-S-", "10 fields", "expected 9");
  POSITION_BAD("houses=3,seeds=1", "1-1-1-1-1-7-0-0-S", "field 6", "house c", "'7'", "0 to 6");
  POSITION_BAD("seeds=5", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "add up to 48", "60");

  /* A tiny error buffer is still a C string. */
  variant v;
  variant_default(&v);
  board b;
  char small[6];
  assert_int_equal(notation_parse_position("4-4", &v, &b, small, sizeof small), -1);
  assert_int_equal(strlen(small), sizeof small - 1);
  checks += 2;
}

static void position_ok(int line, const char *vtext, const char *text, const int *pits,
                        int s0, int s1, int side) {
  variant v = parse_variant_ok(line, vtext);
  board b, want;
  char err[ERRLEN] = "", back[NOTATION_POSITION_MAX];
  checks++;
  if (notation_parse_position(text, &v, &b, err, sizeof err))
    fail_msg("line %d: notation_parse_position(\"%s\") [%s] failed: %s", line, text, vtext, err);
  const int stores[2] = {s0, s1};
  board_set(&want, &v, pits, stores, side);
  expect_same_board(&b, &want, &v, text);
  checks++;
  if (!board_ok(&b, &v)) fail_msg("line %d: board_ok fails on %s", line, text);
  notation_format_position(&b, &v, NULL, back, sizeof back);
  checks++;
  if (strcmp(back, text)) fail_msg("line %d: %s formats back as %s", line, text, back);
}

static void test_position_good(void **state) {
  (void)state;
  static const int start6[12] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4};
  position_ok(__LINE__, "abapa", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", start6, 0, 0, 0);
  static const int mid[12] = {0, 3, 0, 2, 0, 13, 2, 1, 0, 3, 2, 0};
  position_ok(__LINE__, "abapa", "0-3-0-2-0-13-2-1-0-3-2-0-10-12-N", mid, 10, 12, 1);
  static const int all[12] = {48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  position_ok(__LINE__, "awari", "48-0-0-0-0-0-0-0-0-0-0-0-0-0-N", all, 0, 0, 1);
  static const int none[12] = {0};
  position_ok(__LINE__, "auale", "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S", none, 24, 24, 0);
  static const int h3[6] = {1, 0, 2, 0, 0, 1};
  position_ok(__LINE__, "houses=3,seeds=1", "1-0-2-0-0-1-1-1-N", h3, 1, 1, 1);
  static const int h4[8] = {3, 3, 3, 3, 3, 3, 3, 3};
  position_ok(__LINE__, "houses=4,seeds=3", "3-3-3-3-3-3-3-3-0-0-S", h4, 0, 0, 0);
  static const int h5[10] = {5, 0, 5, 0, 5, 0, 5, 0, 5, 0};
  position_ok(__LINE__, "houses=5", "5-0-5-0-5-0-5-0-5-0-7-8-N", h5, 7, 8, 1);
  static const int h7[14] = {12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  position_ok(__LINE__, "houses=7,seeds=2", "12-0-0-0-0-0-0-0-0-0-0-0-0-1-9-6-S", h7, 9, 6, 0);
  static const int h8[16] = {192};
  position_ok(__LINE__, "houses=8,seeds=12",
              "192-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-N", h8, 0, 0, 1);
  static const int h8b[16] = {0};
  position_ok(__LINE__, "houses=8,seeds=12", "0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0-96-96-S", h8b,
              96, 96, 0);
}

/* format -> parse gives back random positions of every size. */
static void test_position_round_trip(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 20240601);
  for (int h = VARIANT_MIN_HOUSES; h <= VARIANT_MAX_HOUSES; h++)
    for (int s = VARIANT_MIN_SEEDS; s <= VARIANT_MAX_SEEDS; s++)
      for (int k = 0; k < 20; k++) {
        variant v;
        variant_default(&v);
        v.houses = h;
        v.seeds = s;
        variant_finish(&v);
        int cells[VARIANT_MAX_PITS + 2] = {0};
        for (int i = 0; i < v.total; i++) cells[rng_below(&r, (uint32_t)(v.pits + 2))]++;
        board b, c;
        board_set(&b, &v, cells, cells + v.pits, (int)rng_below(&r, 2));
        char text[NOTATION_POSITION_MAX], err[ERRLEN];
        notation_format_position(&b, &v, NULL, text, sizeof text);
        if (notation_parse_position(text, &v, &c, err, sizeof err))
          fail_msg("%s does not parse back: %s", text, err);
        expect_same_board(&b, &c, &v, text);
      }
  /* Positions reached in play. */
  static const char *const vs[] = {"abapa", "awari", "houses=4,seeds=3", "houses=8,seeds=7"};
  for (size_t i = 0; i < sizeof vs / sizeof *vs; i++) {
    variant v = VARIANT(vs[i]);
    game g;
    assert_int_equal(game_init(&g, &v, NULL), 0);
    while (g.end == BOARD_END_NONE) {
      char text[NOTATION_POSITION_MAX], err[ERRLEN];
      board c;
      notation_format_position(&g.pos, &v, NULL, text, sizeof text);
      if (notation_parse_position(text, &v, &c, err, sizeof err))
        fail_msg("%s does not parse back: %s", text, err);
      expect_same_board(&g.pos, &c, &v, text);
      assert_int_equal(game_play(&g, random_move(&g, &r)), 0);
    }
    game_free(&g);
  }
}

static void test_format_helpers(void **state) {
  (void)state;
  char buf[64];
  notation_format_half(47, buf, sizeof buf);
  assert_string_equal(buf, "23.5");
  notation_format_half(48, buf, sizeof buf);
  assert_string_equal(buf, "24");
  notation_format_half(1, buf, sizeof buf);
  assert_string_equal(buf, "0.5");
  notation_format_half(0, buf, sizeof buf);
  assert_string_equal(buf, "0");
  variant v = VARIANT("abapa");
  board b;
  board_start(&b, &v);
  const int score2[2] = {47, 49};
  notation_format_position(&b, &v, score2, buf, sizeof buf);
  assert_string_equal(buf, "4-4-4-4-4-4-4-4-4-4-4-4-23.5-24.5-S");
  notation_format_legal(&v, 0, buf, sizeof buf);
  assert_string_equal(buf, "-");
  notation_format_legal(&v, 0x3f, buf, sizeof buf);
  assert_string_equal(buf, "A B C D E F");
  notation_format_legal(&v, 1u << 6 | 1u << 11, buf, sizeof buf);
  assert_string_equal(buf, "a f");
  variant v8 = VARIANT("houses=8");
  notation_format_legal(&v8, 0xffff, buf, sizeof buf);
  assert_string_equal(buf, "A B C D E F G H a b c d e f g h");
  checks += 10;
  for (int h = VARIANT_MIN_HOUSES; h <= VARIANT_MAX_HOUSES; h++) {
    variant w;
    variant_default(&w);
    w.houses = h;
    variant_finish(&w);
    for (int m = 0; m < w.pits; m++) {
      char c = notation_move_letter(&w, m);
      assert_int_equal(c, m < h ? 'A' + m : 'a' + m - h);
      assert_int_equal(notation_move_index(&w, c), m);
      checks += 2;
    }
    assert_int_equal(notation_move_index(&w, (char)('A' + h)), -1);
    assert_int_equal(notation_move_index(&w, (char)('a' + h)), -1);
    assert_int_equal(notation_move_index(&w, '1'), -1);
    assert_int_equal(notation_move_index(&w, '@'), -1);
    assert_int_equal(notation_move_index(&w, '`'), -1);
    assert_int_equal(notation_move_index(&w, '\0'), -1);
    checks += 6;
  }
}

/* ---- move letters ---- */

static void moves_ok(int line, const char *vtext, const char *text, const char *letters) {
  variant v = parse_variant_ok(line, vtext);
  int moves[64];
  char err[ERRLEN] = "";
  int n = notation_parse_moves(text, &v, moves, 64, err, sizeof err);
  checks++;
  if (n < 0) fail_msg("line %d: notation_parse_moves(\"%s\") failed: %s", line, text, err);
  expect_moves(line, moves, n, letters, &v);
}

static void test_moves(void **state) {
  (void)state;
  moves_ok(__LINE__, "abapa", "F d E e", "FdEe");
  moves_ok(__LINE__, "abapa", "FdEe", "FdEe");
  moves_ok(__LINE__, "abapa", "  F\td\nE   e \r\n", "FdEe");
  moves_ok(__LINE__, "abapa", "Fd Ee", "FdEe");
  moves_ok(__LINE__, "abapa", "", "");
  moves_ok(__LINE__, "abapa", "   ", "");
  moves_ok(__LINE__, "abapa", "A B C D E F a b c d e f", "ABCDEFabcdef");
  moves_ok(__LINE__, "houses=8", "H h G g", "HhGg");
  moves_ok(__LINE__, "houses=3", "CcAa", "CcAa");
  variant v = VARIANT("abapa");
  int moves[12];
  assert_int_equal(notation_parse_moves("F d E e", &v, moves, 12, NULL, 0) >= 0, 1);
  assert_int_equal(moves[0], 5);
  assert_int_equal(moves[1], 9);
  assert_int_equal(moves[2], 4);
  assert_int_equal(moves[3], 10);
  checks += 5;

  MOVES_BAD("abapa", "G", "'G'", "character 1", "A-F", "a-f");
  MOVES_BAD("abapa", "F d G", "'G'", "character 5");
  MOVES_BAD("abapa", "FdEeg", "'g'", "character 5");
  MOVES_BAD("houses=5", "F", "'F'", "A-E", "a-e");
  MOVES_BAD("houses=5", "A a f", "'f'", "character 5", "A-E", "a-e");
  MOVES_BAD("houses=3", "D", "'D'", "A-C", "a-c");
  MOVES_BAD("houses=8", "I", "'I'", "A-H", "a-h");
  MOVES_BAD("abapa", "F 1", "'1'", "character 3");
  MOVES_BAD("abapa", "1. F", "'1'", "character 1");
  MOVES_BAD("abapa", "F,d", "','", "character 2");
  MOVES_BAD("abapa", "F.d", "'.'", "character 2");
  MOVES_BAD("abapa", "F-d", "'-'", "character 2");
  MOVES_BAD("abapa", "F;", "';'", "character 2");
  MOVES_BAD("abapa", "@", "'@'");
  MOVES_BAD("abapa", "`", "'`'");
  /* Room for only 3 moves. */
  char err[ERRLEN];
  assert_int_equal(notation_parse_moves("FdEe", &v, moves, 3, err, sizeof err), -1);
  assert_non_null(strstr(err, "more than 3"));
  assert_int_equal(notation_parse_moves("FdE", &v, moves, 3, err, sizeof err), 3);
  checks += 3;
}

/* ---- OGN ---- */

static void test_ogn_bad(void **state) {
  (void)state;
  OGN_BAD("[Event \"x]\n\nF d\n", "line 1", "malformed tag");
  OGN_BAD("[Event \"x\"]\n[Site \"y\"\n\nF d\n", "line 2", "malformed tag", "[Name \"value\"]");
  OGN_BAD("[Event \"x\"]\n[Site \"y\"]\n[ \"z\"]\n\nF d\n", "line 3", "malformed tag");
  OGN_BAD("[\"z\"]\n", "line 1", "malformed tag");
  OGN_BAD("[Event x]\n", "line 1", "malformed tag");
  OGN_BAD("[Event]\n", "line 1", "malformed tag");
  OGN_BAD("[Event \"x\"] junk\n", "line 1", "malformed tag");
  OGN_BAD("[Event \"x\\\"]\n", "line 1", "malformed tag"); /* the quote is escaped */
  OGN_BAD("\n\n[Event \"x\"\n", "line 3", "malformed tag");
  OGN_BAD("[Event \"x\"]\n[Variant \"foo\"]\n\nF d\n", "line 2", "Variant", "'foo'");
  OGN_BAD("[Variant \"abapa,seeds=13\"]\n", "line 1", "Variant", "'seeds'", "1..12");
  OGN_BAD("[Event \"x\"]\n[Site \"y\"]\n[FEN \"4-4-4-S\"]\n", "line 3", "FEN", "fields");
  OGN_BAD("[FEN \"5-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"]\n", "line 1", "FEN", "add up to 49");
  OGN_BAD("[Variant \"houses=5\"]\n[FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"]\n", "line 2", "FEN",
          "expected 13");
  OGN_BAD("[Event \"x\"]\n[Result \"abc\"]\n", "line 2", "Result", "'abc'");
  OGN_BAD("[Result \"25-\"]\n", "line 1", "Result", "'25-'");
  OGN_BAD("[Result \"-25\"]\n", "line 1", "Result");
  OGN_BAD("[Result \"25-20-3\"]\n", "line 1", "Result");
  OGN_BAD("[Result \"2.-5\"]\n", "line 1", "Result");
  OGN_BAD("[Result \"\"]\n", "line 1", "Result");
  OGN_BAD("[Event \"x\"]\n\nF d G e\n", "line 3", "'G'");
  OGN_BAD("[Event \"x\"]\n\nF d\nE e\nFx\n", "line 5", "'Fx'", "'x'");
  OGN_BAD("[Variant \"houses=5\"]\n\nE e F\n", "line 3", "'F'", "A-E");
  OGN_BAD("F d 1x E\n", "line 1", "'1x'", "'1'");
  OGN_BAD("[Event \"x\"]\n\nF d {a comment\nthat never ends\n", "line 3", "comment",
          "never closed");
  OGN_BAD("F {\n", "line 1", "comment");

  /* Limits: 24 tags, 255-character values, 31-character names. */
  char text[8192] = "";
  for (int i = 0; i < NOTATION_TAG_MAX + 1; i++)
    snprintf(text + strlen(text), sizeof text - strlen(text), "[T%d \"v\"]\n", i);
  OGN_BAD(text, "line 25", "more than 24 tags");
  snprintf(text, sizeof text, "[Event \"x\"]\n[Site \"%0300d\"]\n", 0);
  OGN_BAD(text, "line 2", "Site", "longer than 255");
  snprintf(text, sizeof text, "[%s \"x\"]\n", "AbcdefghijAbcdefghijAbcdefghijAb");
  OGN_BAD(text, "line 1", "malformed tag");
  notation_ogn o;
  snprintf(text, sizeof text, "[%s \"%0255d\"]\n", "AbcdefghijAbcdefghijAbcdefghijA", 7);
  ogn_ok(__LINE__, text, &o, NULL);
  assert_int_equal(strlen(notation_ogn_tag(&o, "AbcdefghijAbcdefghijAbcdefghijA")), 255);
  notation_ogn_free(&o);
  checks++;
}

static void test_ogn_good(void **state) {
  (void)state;
  notation_ogn o;
  size_t used;
  variant abapa = VARIANT("abapa");

  /* Tags, comments, move numbers and a result token. */
  const char *t1 = "[Event \"Club \\\"Open\\\" \\\\ 2024\"]\n"
                   "[Variant \"auale\"]\n"
                   "[South \"Kofi\"]\n"
                   "[Result \"*\"]\n"
                   "\n"
                   "1. F d {a quiet start} 2. E e\n"
                   "{a comment\nover two lines} 3. A {x}b *\n";
  ogn_ok(__LINE__, t1, &o, &used);
  assert_int_equal(used, strlen(t1));
  assert_int_equal(o.ntags, 4);
  assert_string_equal(notation_ogn_tag(&o, "Event"), "Club \"Open\" \\ 2024");
  assert_string_equal(notation_ogn_tag(&o, "South"), "Kofi");
  assert_string_equal(notation_ogn_tag(&o, "Result"), "*");
  assert_null(notation_ogn_tag(&o, "North"));
  assert_null(notation_ogn_tag(&o, "FEN"));
  assert_int_equal(o.v.repetition, 2);
  expect_moves(__LINE__, o.moves, o.nmoves, "FdEeAb", &o.v);
  board st;
  board_start(&st, &o.v);
  expect_same_board(&o.start, &st, &o.v, "start of t1");
  checks += 9;
  game g;
  char err[ERRLEN];
  assert_int_equal(notation_ogn_play(&o, &g, err, sizeof err), 0);
  assert_int_equal(g.plies, 6);
  assert_int_equal(g.end, BOARD_END_NONE);
  game_free(&g);
  notation_ogn_free(&o);
  assert_null(o.moves);
  checks += 4;

  /* No tags at all; moves together; CRLF line ends; a score token at the end. */
  ogn_ok(__LINE__, "FdEe 0-0\r\n", &o, NULL);
  expect_moves(__LINE__, o.moves, o.nmoves, "FdEe", &abapa);
  assert_int_equal(o.ntags, 0);
  notation_ogn_free(&o);
  ogn_ok(__LINE__, "[Event \"x\"]\r\n[Site \"y\"]\r\n\r\n1... F d 23.5-24.5\r\n", &o, NULL);
  assert_string_equal(notation_ogn_tag(&o, "Site"), "y");
  expect_moves(__LINE__, o.moves, o.nmoves, "Fd", &abapa);
  notation_ogn_free(&o);
  /* Tags without moves; a FEN and a variant with other letters. */
  ogn_ok(__LINE__, "[Variant \"houses=5,seeds=2\"]\n[FEN \"0-0-0-0-3-2-2-2-2-2-4-3-S\"]\n"
                   "[Result \"13-7\"]\n\nE d\n",
         &o, NULL);
  assert_int_equal(o.v.houses, 5);
  assert_int_equal(o.start.pit[4], 3);
  assert_int_equal(o.start.store[0], 4);
  assert_int_equal(o.start.store[1], 3);
  assert_int_equal(o.start.side, BOARD_SOUTH);
  expect_moves(__LINE__, o.moves, o.nmoves, "Ed", &o.v);
  notation_ogn_free(&o);
  ogn_ok(__LINE__, "[Event \"only tags\"]\n", &o, NULL);
  assert_int_equal(o.nmoves, 0);
  notation_ogn_free(&o);
  checks += 9;

  /* Blank space only: no record. */
  assert_int_equal(notation_ogn_read("  \n\n \t\n", &used, &o, err, sizeof err), 0);
  assert_int_equal(notation_ogn_read("", &used, &o, err, sizeof err), 0);
  checks += 2;

  /* Several games in one text, read in a loop. */
  const char *many = "[Event \"g1\"]\n[Result \"*\"]\n\nF d E e *\n\n"
                     "[Event \"g2\"]\n[Variant \"awari\"]\n\n1. A a\n2. B b\n\n\n"
                     "[Event \"g3\"]\n\n{only a comment}\n"
                     "[Event \"g4\"]\n\nC\n";
  static const char *const events[] = {"g1", "g2", "g3", "g4"};
  static const char *const movelists[] = {"FdEe", "AaBb", "", "C"};
  const char *p = many;
  int games = 0, r;
  while ((r = notation_ogn_read(p, &used, &o, err, sizeof err)) == 1) {
    assert_true(games < 4);
    assert_string_equal(notation_ogn_tag(&o, "Event"), events[games]);
    expect_moves(__LINE__, o.moves, o.nmoves, movelists[games], &o.v);
    assert_int_equal(o.v.grand_slam, games == 1 ? VARIANT_GS_FORBIDDEN : VARIANT_GS_NOTHING);
    notation_ogn_free(&o);
    assert_true(used > 0);
    p += used;
    games++;
    checks += 4;
  }
  assert_int_equal(r, 0);
  assert_int_equal(games, 4);
  checks += 2;
}

static void ogn_play_bad(int line, const char *text, ...) {
  notation_ogn o;
  game g;
  char err[ERRLEN] = "", call[256];
  ogn_ok(line, text, &o, NULL);
  snprintf(call, sizeof call, "notation_ogn_play(\"%s\")", text);
  checks++;
  if (notation_ogn_play(&o, &g, err, sizeof err) != -1) {
    game_free(&g);
    notation_ogn_free(&o);
    fail_msg("line %d: %s accepted an illegal move", line, call);
  }
  notation_ogn_free(&o);
  va_list ap;
  va_start(ap, text);
  expect_substrings(line, call, err, ap);
  va_end(ap);
}
#define OGN_PLAY_BAD(...) ogn_play_bad(__LINE__, __VA_ARGS__, (const char *)NULL)

static void test_ogn_play(void **state) {
  (void)state;
  OGN_PLAY_BAD("F F\n", "move 2", "(F)", "illegal", "a b c d e f");
  OGN_PLAY_BAD("1. F d 2. E d\n", "move 4", "(d)", "illegal", "a b c e f");
  OGN_PLAY_BAD("a\n", "move 1", "(a)", "A B C D E F");
  /* North's last seed goes to South, who cannot feed: over, no-move. */
  OGN_PLAY_BAD("[FEN \"0-0-0-0-0-0-0-0-0-0-0-1-24-23-N\"]\n\nf A\n", "move 2", "(A)",
               "after the end", "no-move");
  notation_ogn o;
  game g;
  char err[ERRLEN];
  ogn_ok(__LINE__, "[FEN \"0-0-0-0-0-0-0-0-0-0-0-1-24-23-N\"]\n\nf\n", &o, NULL);
  assert_int_equal(notation_ogn_play(&o, &g, err, sizeof err), 0);
  assert_int_equal(g.end, BOARD_END_NO_MOVE);
  assert_int_equal(g.score2[0], 50);
  assert_int_equal(g.score2[1], 46);
  assert_int_equal(g.winner, BOARD_SOUTH);
  game_free(&g);
  notation_ogn_free(&o);
  checks += 5;
}

/* Writes games to one stream, reads them back in a loop, and compares. */
typedef struct written {
  game g;
  notation_meta meta;
} written;

static void expect_same_game(const notation_ogn *o, const written *w, int idx) {
  char what[64], result[40], a[16], b[16];
  snprintf(what, sizeof what, "game %d", idx);
  const game *g = &w->g;
  expect_same_variant(&o->v, &g->v, what);
  expect_same_board(&o->start, &g->start, &g->v, what);
  checks++;
  if (o->nmoves != g->plies) fail_msg("%s: %d moves read, %d written", what, o->nmoves, g->plies);
  for (int i = 0; i < g->plies; i++) {
    checks++;
    if (o->moves[i] != g->moves[i]) fail_msg("%s: move %d differs", what, i + 1);
  }
  if (g->end == BOARD_END_NONE) {
    snprintf(result, sizeof result, "*");
  } else {
    notation_format_half(g->score2[0], a, sizeof a);
    notation_format_half(g->score2[1], b, sizeof b);
    snprintf(result, sizeof result, "%s-%s", a, b);
  }
  const char *res = notation_ogn_tag(o, "Result");
  checks++;
  if (!res || strcmp(res, result))
    fail_msg("%s: Result tag '%s', expected '%s'", what, res ? res : "(none)", result);
  const char *const names[] = {"Event", "Site", "Date", "Round", "South", "North"};
  const char *const vals[] = {w->meta.event, w->meta.site,  w->meta.date,
                              w->meta.round, w->meta.south, w->meta.north};
  for (int i = 0; i < 6; i++) {
    const char *t = notation_ogn_tag(o, names[i]);
    checks++;
    if (!t || strcmp(t, vals[i] ? vals[i] : "?"))
      fail_msg("%s: tag %s is '%s', expected '%s'", what, names[i], t ? t : "(none)",
               vals[i] ? vals[i] : "?");
  }
  /* Replaying gives the same end. */
  game h;
  char err[ERRLEN];
  if (notation_ogn_play(o, &h, err, sizeof err)) fail_msg("%s: replay failed: %s", what, err);
  checks += 5;
  assert_int_equal(h.plies, g->plies);
  assert_int_equal(h.end, g->end);
  assert_int_equal(h.winner, g->winner);
  if (g->end != BOARD_END_NONE) {
    assert_int_equal(h.score2[0], g->score2[0]);
    assert_int_equal(h.score2[1], g->score2[1]);
  }
  expect_same_board(&h.pos, &g->pos, &g->v, what);
  game_free(&h);
}

#define NGAMES 64

static void test_ogn_round_trip(void **state) {
  (void)state;
  static const char *const variants[] = {
      "abapa",
      "awari",
      "auale",
      "grandslam-all",
      "grandslam-win,houses=5",
      "houses=4,seeds=3,max_plies=40,cycle=split",
      "lap=fill,feeding=none,seeds=5",
      "houses=8,seeds=12,max_plies=300",
      "houses=3,seeds=2,repetition=0",
      "awari,max_plies=25",
  };
  const size_t nv = sizeof variants / sizeof *variants;
  static written w[NGAMES];
  static const notation_meta metas[] = {
      {.event = NULL},
      {.event = "Club \"Open\"",
       .site = "C:\\games\\",
       .date = "2024.06.01",
       .round = "3",
       .south = "Kofi \\\"K\\\" A.",
       .north = "Ama [x] {y}"},
      {.event = "",
       .site = "Accra",
       .date = "2024.??.??",
       .round = "1.2",
       .south = "minimax:depth=4",
       .north = "mcts:iters=1000,c=1.4"},
  };
  rng r;
  rng_seed(&r, 7);
  int halves = 0, fens = 0, over = 0, playing = 0;
  for (int i = 0; i < NGAMES; i++) {
    variant v = VARIANT(variants[(size_t)i % nv]);
    board start, *sp = NULL;
    if (i % 4 == 3) { /* start from a position reached in play */
      game pre;
      assert_int_equal(game_init(&pre, &v, NULL), 0);
      play_random(&pre, &r, 3 + (int)rng_below(&r, 20));
      if (pre.end == BOARD_END_NONE) {
        start = pre.pos;
        sp = &start;
        fens++;
      }
      game_free(&pre);
    }
    assert_int_equal(game_init(&w[i].g, &v, sp), 0);
    play_random(&w[i].g, &r, i % 5 == 1 ? (int)rng_below(&r, 30) : 100000);
    w[i].meta = metas[i % 3];
    if (w[i].g.end != BOARD_END_NONE) over++;
    else playing++;
    if (w[i].g.end != BOARD_END_NONE && w[i].g.score2[0] % 2) halves++;
  }
  /* Make sure a split result with half seeds is among them. */
  for (uint64_t seed = 1; !halves; seed++) {
    assert_true(seed < 1000);
    game_free(&w[0].g);
    variant v = VARIANT("awari,max_plies=31");
    assert_int_equal(game_init(&w[0].g, &v, NULL), 0);
    rng q;
    rng_seed(&q, seed);
    play_random(&w[0].g, &q, 100000);
    if (w[0].g.end != BOARD_END_NONE && w[0].g.score2[0] % 2) halves++;
  }
  assert_true(fens > 0 && over > 0 && playing > 0);

  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  for (int i = 0; i < NGAMES; i++) assert_int_equal(notation_ogn_write(f, &w[i].g, &w[i].meta), 0);
  assert_int_equal(fclose(f), 0);

  const char *p = buf;
  int n = 0, rc;
  notation_ogn o;
  char err[ERRLEN];
  size_t used;
  while ((rc = notation_ogn_read(p, &used, &o, err, sizeof err)) == 1) {
    if (n >= NGAMES) fail_msg("more records read than written");
    expect_same_game(&o, &w[n], n);
    if (w[n].g.end != BOARD_END_NONE) {
      const char *term = notation_ogn_tag(&o, "Termination");
      assert_non_null(term);
      assert_string_equal(term, board_end_name(w[n].g.end));
      checks += 2;
    }
    notation_ogn_free(&o);
    p += used;
    n++;
  }
  if (rc < 0) fail_msg("record %d does not read back: %s", n, err);
  assert_int_equal(n, NGAMES);
  checks += 2;
  free(buf);
  for (int i = 0; i < NGAMES; i++) game_free(&w[i].g);
  print_message("OGN round trip: %d games, %d from a FEN, %d over, %d with half seeds\n", NGAMES,
                fens, over, halves);
}

/* Writes g with meta.ended = e and checks its Result, Termination and Score
 * tags (score NULL: none) and the movetext's result token, then reads it
 * back. */
static void expect_ended(int line, const game *g, const outcome *e, const char *result,
                         const char *term, const char *score) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  notation_meta meta = {.south = "s", .north = "n", .ended = e};
  assert_int_equal(notation_ogn_write(f, g, &meta), 0);
  assert_int_equal(fclose(f), 0);
  notation_ogn o;
  ogn_ok(line, buf, &o, NULL);
  const char *const names[] = {"Result", "Termination", "Score"};
  const char *const want[] = {result, term, score};
  for (int i = 0; i < 3; i++) {
    const char *t = notation_ogn_tag(&o, names[i]);
    checks++;
    if (want[i] ? !t || strcmp(t, want[i]) : t != NULL)
      fail_msg("line %d: tag %s is '%s', expected '%s' in\n%s", line, names[i], t ? t : "(none)",
               want[i] ? want[i] : "(none)", buf);
  }
  /* The movetext ends with the Result. */
  size_t n = strlen(buf), r = strlen(result);
  while (n && buf[n - 1] == '\n') n--;
  checks++;
  if (n < r + 1 || strncmp(buf + n - r, result, r) || (buf[n - r - 1] != ' ' && buf[n - r - 1] != '\n'))
    fail_msg("line %d: the movetext does not end with %s in\n%s", line, result, buf);
  checks++;
  if (o.nmoves != g->plies) fail_msg("line %d: %d moves read, %d written", line, o.nmoves, g->plies);
  notation_ogn_free(&o);
  free(buf);
}

/* A game the rules did not end (an adjudication, a forfeit) keeps its
 * winner: Result 1-0, 0-1 or 1/2-1/2 and the seeds in a Score tag; one they
 * ended keeps its seeds as the Result. */
static void test_ogn_ended(void **state) {
  (void)state;
  variant v = VARIANT("abapa");
  rng r;
  rng_seed(&r, 3);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  play_random(&g, &r, 30);
  assert_int_equal(g.end, BOARD_END_NONE);
  char seeds[40];
  snprintf(seeds, sizeof seeds, "%d-%d", g.pos.store[0], g.pos.store[1]);
  int s2[2] = {2 * g.pos.store[0], 2 * g.pos.store[1]};
  /* The stored winner, whoever has more seeds on the board. */
  outcome e = {.end = OUTCOME_ADJUDICATED_RESIGN, .winner = BOARD_SOUTH, .score2 = {s2[0], s2[1]}};
  expect_ended(__LINE__, &g, &e, "1-0", "adjudicated-resign", seeds);
  e.winner = BOARD_NORTH;
  expect_ended(__LINE__, &g, &e, "0-1", "adjudicated-resign", seeds);
  e = (outcome){.end = OUTCOME_ADJUDICATED_DRAW, .winner = GAME_DRAW, .score2 = {s2[0], s2[1]}};
  expect_ended(__LINE__, &g, &e, "1/2-1/2", "adjudicated-draw", seeds);
  e = (outcome){.end = OUTCOME_ADJUDICATED_EGDB, .winner = BOARD_NORTH, .score2 = {47, 49}};
  expect_ended(__LINE__, &g, &e, "0-1", "adjudicated-egdb", "23.5-24.5");
  game_free(&g);
  /* A forfeit on time before any move: 0-0 on the board, a win all the same. */
  assert_int_equal(game_init(&g, &v, NULL), 0);
  e = (outcome){.end = OUTCOME_FORFEIT_TIME, .winner = BOARD_SOUTH};
  expect_ended(__LINE__, &g, &e, "1-0", "forfeit-time", "0-0");
  e = (outcome){.end = OUTCOME_FORFEIT_CRASH, .winner = BOARD_NORTH};
  expect_ended(__LINE__, &g, &e, "0-1", "forfeit-crash", "0-0");
  /* Ended by the rules: the seeds, with or without the outcome given. */
  play_random(&g, &r, 100000);
  assert_int_not_equal(g.end, BOARD_END_NONE);
  char a[16], b[16];
  notation_format_half(g.score2[0], a, sizeof a);
  notation_format_half(g.score2[1], b, sizeof b);
  snprintf(seeds, sizeof seeds, "%s-%s", a, b);
  e = (outcome){.end = (outcome_end)g.end, .winner = g.winner, .score2 = {g.score2[0], g.score2[1]}};
  expect_ended(__LINE__, &g, &e, seeds, board_end_name(g.end), NULL);
  expect_ended(__LINE__, &g, NULL, seeds, board_end_name(g.end), NULL);
  game_free(&g);
}

/* ---- garbage in: every parser answers 0/-1 with a message, never crashes ---- */

/* Replaces, inserts or deletes a few characters of s (room for cap) from alphabet. */
static void mutate(char *s, size_t cap, const char *alphabet, rng *r) {
  size_t na = strlen(alphabet);
  int edits = 1 + (int)rng_below(r, 4);
  for (int e = 0; e < edits; e++) {
    size_t len = strlen(s);
    size_t at = rng_below(r, (uint32_t)len + 1);
    char c = alphabet[rng_below(r, (uint32_t)na)];
    switch (rng_below(r, 3)) {
    case 0:
      if (at < len) s[at] = c;
      break;
    case 1:
      if (len + 1 < cap) {
        memmove(s + at + 1, s + at, len - at + 1);
        s[at] = c;
      }
      break;
    default:
      if (at < len) memmove(s + at, s + at + 1, len - at);
      break;
    }
  }
}

static void expect_prefix(const char *what, const char *input, const char *err,
                          const char *prefix) {
  checks++;
  if (strncmp(err, prefix, strlen(prefix)))
    fail_msg("%s(\"%s\"): message '%s' does not start with '%s'", what, input, err, prefix);
}

static void test_garbage(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 99);
  static const char *const vgood[] = {"abapa", "awari,seeds=5", "houses=3,lap=fill,cycle=split",
                                      "auale,repetition=0,max_plies=12"};
  int vok = 0, pok = 0, ook = 0;
  for (int i = 0; i < 20000; i++) {
    char text[128], err[ERRLEN];
    snprintf(text, sizeof text, "%s", vgood[i % 4]);
    mutate(text, sizeof text, "abdefghilmnoprstuwxz_=,-0123456789 ", &r);
    variant v, w;
    err[0] = '\0';
    if (variant_parse(text, &v, err, sizeof err) == 0) {
      vok++;
      char back[200];
      checks++;
      if (v.houses < VARIANT_MIN_HOUSES || v.houses > VARIANT_MAX_HOUSES ||
          v.seeds < VARIANT_MIN_SEEDS || v.seeds > VARIANT_MAX_SEEDS || v.repetition == 1 ||
          v.repetition < 0 || v.max_plies < 0 || v.total != 2 * v.houses * v.seeds)
        fail_msg("variant_parse(\"%s\") accepted an out-of-range variant", text);
      variant_format(&v, back, sizeof back);
      checks++;
      if (variant_parse(back, &w, err, sizeof err)) fail_msg("'%s' -> '%s': %s", text, back, err);
      expect_same_variant(&v, &w, text);
    } else {
      expect_prefix("variant_parse", text, err, "variant: ");
    }
  }
  variant v6 = VARIANT("abapa"), v4 = VARIANT("houses=4,seeds=2");
  for (int i = 0; i < 20000; i++) {
    const variant *v = i % 2 ? &v6 : &v4;
    char text[128], err[ERRLEN];
    snprintf(text, sizeof text, "%s",
             i % 2 ? "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S" : "2-2-2-2-2-2-2-2-0-0-N");
    mutate(text, sizeof text, "0123456789--SNsx. ", &r);
    board b;
    err[0] = '\0';
    if (notation_parse_position(text, v, &b, err, sizeof err) == 0) {
      pok++;
      checks++;
      if (!board_ok(&b, v)) fail_msg("notation_parse_position(\"%s\"): bad board", text);
    } else {
      expect_prefix("notation_parse_position", text, err, "position: ");
    }
  }
  for (int i = 0; i < 20000; i++) {
    char text[32], err[ERRLEN];
    int n = (int)rng_below(&r, 31), moves[32];
    for (int k = 0; k < n; k++) text[k] = (char)(1 + rng_below(&r, 255));
    text[n] = '\0';
    err[0] = '\0';
    int got = notation_parse_moves(text, &v6, moves, 32, err, sizeof err);
    if (got >= 0) {
      for (int k = 0; k < got; k++) {
        checks++;
        if (moves[k] < 0 || moves[k] >= v6.pits) fail_msg("move index %d out of range", moves[k]);
      }
    } else {
      expect_prefix("notation_parse_moves", text, err, "moves: ");
    }
  }
  static const char ogn[] = "[Event \"a \\\"b\\\"\"]\n[Variant \"auale\"]\n"
                            "[FEN \"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\"]\n[Result \"*\"]\n\n"
                            "1. F d {c} 2. E e\nA *\n\n[Event \"two\"]\n\nF\n";
  for (int i = 0; i < 20000; i++) {
    char text[512], err[ERRLEN];
    snprintf(text, sizeof text, "%s", ogn);
    mutate(text, sizeof text, "[]\"{}\\\n FdEeXSN12-.*", &r);
    const char *p = text;
    size_t used;
    notation_ogn o;
    int rc, records = 0;
    while ((rc = notation_ogn_read(p, &used, &o, err, sizeof err)) == 1) {
      ook++;
      checks++;
      if (!board_ok(&o.start, &o.v)) fail_msg("OGN record with a bad start: %s", text);
      for (int k = 0; k < o.nmoves; k++)
        if (o.moves[k] < 0 || o.moves[k] >= o.v.pits) fail_msg("OGN move out of range: %s", text);
      game g;
      if (notation_ogn_play(&o, &g, err, sizeof err) == 0) game_free(&g);
      else expect_prefix("notation_ogn_play", text, err, "move ");
      notation_ogn_free(&o);
      checks++;
      if (used == 0 || ++records > 10) fail_msg("notation_ogn_read does not advance: %s", text);
      p += used;
    }
    if (rc < 0) expect_prefix("notation_ogn_read", text, err, "OGN");
  }
  print_message("garbage: %d variants, %d positions, %d OGN records parsed\n", vok, pok, ook);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_variant_bad),
      cmocka_unit_test(test_variant_good),
      cmocka_unit_test(test_variant_round_trip),
      cmocka_unit_test(test_position_bad),
      cmocka_unit_test(test_position_good),
      cmocka_unit_test(test_position_round_trip),
      cmocka_unit_test(test_format_helpers),
      cmocka_unit_test(test_moves),
      cmocka_unit_test(test_ogn_bad),
      cmocka_unit_test(test_ogn_good),
      cmocka_unit_test(test_ogn_play),
      cmocka_unit_test(test_ogn_round_trip),
      cmocka_unit_test(test_ogn_ended),
      cmocka_unit_test(test_garbage),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  printf("test_notation: %ld checks\n", checks);
  return failed;
}
