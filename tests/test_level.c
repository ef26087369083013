/* test_level.c: the levels file (columns, quoting, errors with file:line), its lines written and read back, and level:NAME specs resolved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "players/level.h"
#include "players/player.h"

static void parse_ok(const char *text, level_file *f) {
  char err[512] = "";
  int rc = level_parse(text, "t.txt", f, err, sizeof err);
  if (rc) fprintf(stderr, "%s\n", err);
  assert_int_equal(rc, 0);
}

/* text must fail with a message holding want. */
static void parse_bad(const char *text, const char *want) {
  level_file f;
  char err[512] = "";
  assert_int_equal(level_parse(text, "t.txt", &f, err, sizeof err), -1);
  if (!strstr(err, want)) fprintf(stderr, "got '%s', want '%s'\n", err, want);
  assert_non_null(strstr(err, want));
  assert_int_equal(f.n, 0);
  assert_null(f.entry);
}

static void test_columns(void **state) {
  (void)state;
  level_file f;
  parse_ok("# a comment\n\n  easy mcts:playouts=3 -291.6 -358.5 -224.7 -300 ok ok\r\n"
           "mine greedy\n"
           "\tspaced \"engine:cmd=./e -x,name=a \\\"b\\\" \\\\ c\"   12 -3 30 10\n"
           "   # indented comment\n"
           "last random 0 0 0 0 off",
           &f);
  assert_int_equal(f.n, 4);
  const level_entry *e = level_find(&f, "easy");
  assert_non_null(e);
  assert_string_equal(e->spec, "mcts:playouts=3");
  assert_int_equal(e->line, 3);
  assert_int_equal(e->columns, 8);
  assert_true(e->elo == -291.6 && e->lo == -358.5 && e->hi == -224.7 && e->target == -300);
  assert_string_equal(e->verdict, "ok");
  assert_string_equal(e->status, "ok");
  e = level_find(&f, "mine");
  assert_int_equal(e->columns, 2);
  assert_string_equal(e->spec, "greedy");
  e = level_find(&f, "spaced");
  assert_string_equal(e->spec, "engine:cmd=./e -x,name=a \"b\" \\ c");
  assert_int_equal(e->columns, 6);
  assert_true(e->elo == 12 && e->target == 10);
  assert_string_equal(level_find(&f, "last")->verdict, "off");
  assert_null(level_find(&f, "hard"));
  level_file_free(&f);
  parse_ok("", &f);
  assert_int_equal(f.n, 0);
  level_file_free(&f);
}

static void test_errors(void **state) {
  (void)state;
  parse_bad("easy\n", "t.txt:1: a level needs a name and a spec");
  parse_bad("# c\neasy greedy 1\n", "t.txt:2: the Elo columns are elo, lo and hi");
  parse_bad("easy greedy 1 0\n", "t.txt:1: the Elo columns");
  parse_bad("a greedy\nea$y greedy\n", "t.txt:2: the name must be");
  parse_bad("easy greedy x 0 1\n", "t.txt:1: the Elo is not a number");
  parse_bad("easy greedy 0 0 nan\n", "the high end is not a number");
  parse_bad("easy greedy 0 0 1 t\n", "the target is not a number");
  parse_bad("easy greedy 5 0 1\n", "t.txt:1: the Elo is not inside its interval");
  parse_bad("easy greedy 0 0 1 0 maybe\n", "the verdict is 'ok' or 'off'");
  parse_bad("easy greedy 0 0 1 0 ok ok extra\n", "more than 8 columns");
  parse_bad("easy \"greedy\n", "t.txt:1: the quote of the spec is never closed");
  parse_bad("easy \"greedy\"x\n", "text right after the closing quote");
  parse_bad("easy level:hard\n", "cannot be another level");
  parse_bad("easy \"\"\n", "the spec is empty");
  parse_bad("easy greedy\nhard mcts\n\neasy random\n",
            "t.txt:4: level 'easy' is defined twice (first on line 1)");
  parse_bad("easy greedy\n\x01\n", "t.txt:2: a control character");
}

/* A line written by level_format reads back the same. */
static void test_round_trip(void **state) {
  (void)state;
  const char *specs[] = {"mcts:playouts=24", "engine:cmd=\"./my engine\",option=a\\,b",
                         "engine:cmd=x\\\\y #1", "minimax:depth=3,name=Tab\tbed"};
  for (int i = 0; i < 4; i++) {
    level_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.name, sizeof e.name, "lvl-%d", i);
    snprintf(e.spec, sizeof e.spec, "%s", specs[i]);
    e.columns = 8;
    e.elo = 101.25, e.lo = 50, e.hi = 150.5, e.target = 100;
    strcpy(e.verdict, "ok");
    strcpy(e.status, "coarse");
    char line[4096];
    assert_true(level_format(&e, line, sizeof line) > 0);
    level_file f;
    parse_ok(line, &f);
    assert_int_equal(f.n, 1);
    assert_string_equal(f.entry[0].name, e.name);
    assert_string_equal(f.entry[0].spec, specs[i]);
    assert_true(f.entry[0].elo == 101.2 || f.entry[0].elo == 101.3);
    assert_true(f.entry[0].hi == 150.5 && f.entry[0].target == 100);
    assert_string_equal(f.entry[0].status, "coarse");
    level_file_free(&f);
  }
  level_entry e;
  memset(&e, 0, sizeof e);
  strcpy(e.name, "bad name");
  strcpy(e.spec, "greedy");
  e.columns = 2;
  char line[64];
  assert_int_equal(level_format(&e, line, sizeof line), -1);
  strcpy(e.name, "ok");
  strcpy(e.spec, "two\nlines");
  assert_int_equal(level_format(&e, line, sizeof line), -1);
  strcpy(e.spec, "greedy");
  assert_int_equal(level_format(&e, line, sizeof line), (int)strlen("ok greedy"));
  assert_int_equal(level_format(&e, line, 5), -1);
}

/* The longest spec, every character escaped, is written and reads back (the
 * parser's line limit once refused what level_format wrote: found by the
 * levels fuzzer). */
static void test_round_trip_longest(void **state) {
  (void)state;
  static level_entry e;
  memset(&e, 0, sizeof e);
  memset(e.name, 'n', LEVEL_NAME_MAX - 1);
  memset(e.spec, '"', LEVEL_SPEC_MAX - 1);
  e.columns = 8;
  e.elo = -1e6, e.lo = -1e6, e.hi = 1e6, e.target = 1e6;
  strcpy(e.verdict, "off");
  strcpy(e.status, "coarse");
  static char line[LEVEL_LINE_MAX + 1];
  assert_true(level_format(&e, line, sizeof line) > 2 * (LEVEL_SPEC_MAX - 1));
  level_file f;
  parse_ok(line, &f);
  assert_int_equal(f.n, 1);
  assert_string_equal(f.entry[0].spec, e.spec);
  level_file_free(&f);
  e.elo = e.lo = e.hi = 1e300; /* a line longer than any the parser reads: refused */
  static char big[2 * LEVEL_LINE_MAX];
  assert_int_equal(level_format(&e, big, sizeof big), -1);
}

static char path[64];

static int make_file(void **state) {
  (void)state;
  snprintf(path, sizeof path, "/tmp/test_level_%d.txt", (int)getpid());
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs("easy mcts:playouts=3 -200 -250 -150 -200 ok ok\n"
        "named \"minimax:depth=2,name=Deep Two\"\n"
        "bare greedy\n",
        f);
  return fclose(f);
}

static int remove_file(void **state) {
  (void)state;
  return unlink(path);
}

static void resolves(const char *spec, const char *want) {
  char out[1024], err[512] = "";
  int rc = level_resolve(spec, out, sizeof out, err, sizeof err);
  if (rc) fprintf(stderr, "%s: %s\n", spec, err);
  assert_int_equal(rc, 0);
  assert_string_equal(out, want);
}

static void fails(const char *spec, const char *want) {
  char out[1024], err[512] = "";
  assert_int_equal(level_resolve(spec, out, sizeof out, err, sizeof err), -1);
  if (!strstr(err, want)) fprintf(stderr, "%s: got '%s', want '%s'\n", spec, err, want);
  assert_non_null(strstr(err, want));
}

static void test_resolve(void **state) {
  (void)state;
  char spec[256], want[256];
  snprintf(spec, sizeof spec, "level:easy,file=%s", path);
  resolves(spec, "mcts:playouts=3,name=easy");
  snprintf(spec, sizeof spec, "level:bare,file=%s", path);
  resolves(spec, "greedy:name=bare");
  snprintf(spec, sizeof spec, "level:named,file=%s", path);
  resolves(spec, "minimax:depth=2,name=Deep Two");
  snprintf(spec, sizeof spec, "level:easy,seed=9,file=%s,name=a\\,b", path);
  resolves(spec, "mcts:playouts=3,name=a\\,b,seed=9");
  resolves("minimax:depth=4", "minimax:depth=4");
  /* The default file: $OWARE_LEVELS first. */
  setenv("OWARE_LEVELS", path, 1);
  resolves("level:easy", "mcts:playouts=3,name=easy");
  char where[1024], err[512];
  assert_int_equal(level_default_path(where, sizeof where, err, sizeof err), 0);
  assert_string_equal(where, path);
  fails("level:hard", "unknown level 'hard' in ");
  fails("level:hard", "; its levels: easy, named, bare");
  setenv("OWARE_LEVELS", "/nonexistent/levels.txt", 1);
  fails("level:easy", "levels file '/nonexistent/levels.txt': No such file");
  unsetenv("OWARE_LEVELS");
  fails("level:", "no level name");
  fails("level:e$y", "'e$y' is not a level name");
  snprintf(spec, sizeof spec, "level:easy,file=%s,depth=3", path);
  fails(spec, "unknown option 'depth'; options of level: file, name, seed");
  /* A key twice is an error, as in every spec; elo= only first. */
  snprintf(spec, sizeof spec, "level:easy,file=%s,name=x,name=y", path);
  fails(spec, "option 'name' is given twice");
  snprintf(spec, sizeof spec, "level:easy,file=%s,seed=1,seed=2", path);
  fails(spec, "option 'seed' is given twice");
  snprintf(spec, sizeof spec, "level:easy,file=%s,file=%s", path, path);
  fails(spec, "option 'file' is given twice");
  fails("level:elo=300,elo=400", "elo= comes first (level:elo=N) and once");
  snprintf(spec, sizeof spec, "level:easy,file=%s,", path);
  fails(spec, "trailing ','");
  fails("level:easy,file=", "file= needs a path");
  /* Too long for the caller's buffer. */
  char out[16];
  snprintf(spec, sizeof spec, "level:easy,file=%s", path);
  assert_int_equal(level_resolve(spec, out, sizeof out, err, sizeof err), -1);
  assert_non_null(strstr(err, "too long"));
  /* Through player_parse_spec: the player is the level's, named for it. */
  player_config c;
  assert_int_equal(player_parse_spec(spec, &c, err, sizeof err), 0);
  assert_string_equal(c.type->name, "mcts");
  assert_string_equal(c.name, "easy");
  assert_int_equal(player_config_int(&c, "playouts"), 3);
  player_config_free(&c);
  snprintf(want, sizeof want, "level:nope,file=%s", path);
  assert_int_equal(player_parse_spec(want, &c, err, sizeof err), -1);
  assert_non_null(strstr(err, "unknown level 'nope'"));
}

/* A stored spec that does not parse is named with the level's spec. */
static void test_bad_stored_spec(void **state) {
  (void)state;
  char p[64], spec[128], err[512];
  snprintf(p, sizeof p, "/tmp/test_level_bad_%d.txt", (int)getpid());
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs("odd mcts:depth=3\n", f);
  fclose(f);
  snprintf(spec, sizeof spec, "level:odd,file=%s", p);
  player_config c;
  assert_int_equal(player_parse_spec(spec, &c, err, sizeof err), -1);
  assert_non_null(strstr(err, "its spec 'mcts:depth=3,name=odd'"));
  assert_non_null(strstr(err, "unknown option 'depth'"));
  unlink(p);
}

/* Writes text to a levels file of its own; its path in p. */
static void levels_file(char *p, size_t len, const char *tag, const char *text) {
  snprintf(p, len, "/tmp/test_level_%s_%d.txt", tag, (int)getpid());
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* level:elo=N: the knob interpolated between the two levels around N (in
 * log when every value is positive), the spec of the level below with it,
 * named eloN; and every reason a file has no such levels. */
static void test_elo(void **state) {
  (void)state;
  char spec[512], want[512], p[128];
  snprintf(p, sizeof p, "%s/levels-curve.txt", OWARE_TEST_DATA);
  const int elo[] = {-200, -100, 0, 100, 150, 200};
  const char *playouts[] = {"4", "8", "16", "32", "45", "64"};
  for (int i = 0; i < 6; i++) {
    snprintf(spec, sizeof spec, "level:elo=%d,file=%s", elo[i], p);
    snprintf(want, sizeof want, "mcts:playouts=%s,egdb=off,name=elo%d", playouts[i], elo[i]);
    resolves(spec, want);
  }
  snprintf(spec, sizeof spec, "level:elo=-100,seed=4,file=%s,name=weak", p);
  resolves(spec, "mcts:playouts=8,egdb=off,name=weak,seed=4");
  snprintf(spec, sizeof spec, "level:elo=201,file=%s", p);
  fails(spec, "Elo 201 is outside the levels' range [-200, 200]");
  snprintf(spec, sizeof spec, "level:elo=1.5,file=%s", p);
  fails(spec, "elo=1.5 is not a whole number of Elo");
  fails("level:elo=,file=x", "elo= is not a whole number");
  level_file f;
  char err[512];
  double lo, hi;
  assert_int_equal(level_load(p, &f, err, sizeof err), 0);
  assert_int_equal(level_elo_range(&f, &lo, &hi, err, sizeof err), 0);
  assert_true(lo == -200 && hi == 200);
  level_file_free(&f);
  /* Files without levels to interpolate: each says why. */
  static const struct {
    const char *text, *why;
  } bad[] = {
      {"a mcts:playouts=4 0 -1 1\n", "fewer than two levels with a measured Elo"},
      {"a mcts:playouts=4 0 -1 1\nb minimax:depth=4 9 8 10\n", "not the same player"},
      {"a mcts:playouts=4,c=1 0 -1 1\nb mcts:playouts=8,c=2 9 8 10\n",
       "the levels differ in more than one option (playouts and c)"},
      {"a mcts:playouts=4 0 -1 1\nb mcts:memory=8 9 8 10\n", "other options"},
      {"a mcts:playouts=4 0 -1 1\nb mcts:playouts=8 9 8 10\nc mcts:playouts=16 5 4 6\n",
       "the levels' Elos do not rise or fall with playouts (b, c)"},
      {"a mcts:policy=random 0 -1 1\nb mcts:policy=capture 9 8 10\n",
       "level a: policy=random is not a number"},
      {"a mcts:playouts=4 0 -1 1\nb mcts:playouts=4,name=x 9 8 10\n", "the levels' specs do not differ"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    levels_file(p, sizeof p, "elo", bad[i].text);
    snprintf(spec, sizeof spec, "level:elo=5,file=%s", p);
    fails(spec, bad[i].why);
    unlink(p);
  }
  /* A knob along which the Elo falls (noise), not positive: linear. */
  levels_file(p, sizeof p, "noise", "weak minimax:depth=2,noise=40 -100 -110 -90\n"
                                    "strong minimax:depth=2,noise=0 100 90 110\n");
  snprintf(spec, sizeof spec, "level:elo=50,file=%s", p);
  resolves(spec, "minimax:depth=2,noise=10,name=elo50");
  unlink(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_columns),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_round_trip_longest),
      cmocka_unit_test_setup_teardown(test_resolve, make_file, remove_file),
      cmocka_unit_test(test_bad_stored_spec),
      cmocka_unit_test(test_elo),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
