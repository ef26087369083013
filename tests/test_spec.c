/* test_spec.c: the quoting rule of player specs: escaped and quoted commas, quotes and backslashes in option values, and their errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/game.h"
#include "players/player.h"

static void parse_ok(const char *spec, player_config *c) {
  char err[512] = "";
  int rc = player_parse_spec(spec, c, err, sizeof err);
  if (rc) fprintf(stderr, "spec %s: %s\n", spec, err);
  assert_int_equal(rc, 0);
}

static void list_is(const player_config *c, const char *opt, int k, const char *want) {
  char buf[256];
  assert_int_equal(player_config_list(c, opt, k, buf, sizeof buf), 0);
  assert_string_equal(buf, want);
}

static void test_escaped(void **state) {
  (void)state;
  player_config c;
  parse_ok("engine:cmd=./e\\,ng,option=Book=a\\,b.bin,arg=x\\\\y,arg=q\\\"t,name=n\\,m", &c);
  assert_string_equal(player_config_text(&c, "cmd"), "./e,ng");
  list_is(&c, "option", 0, "Book=a,b.bin");
  list_is(&c, "arg", 0, "x\\y");
  list_is(&c, "arg", 1, "q\"t");
  assert_string_equal(c.name, "n,m");
  player_config_free(&c);
}

static void test_quoted(void **state) {
  (void)state;
  player_config c;
  parse_ok("engine:cmd=\"./a,b\",option=\"Book=a,b.bin\",arg=\"say \\\"hi\\\", \\\\o/\","
           "name=\"x, y\"",
           &c);
  assert_string_equal(player_config_text(&c, "cmd"), "./a,b");
  list_is(&c, "option", 0, "Book=a,b.bin");
  list_is(&c, "arg", 0, "say \"hi\", \\o/");
  assert_string_equal(c.name, "x, y");
  player_config_free(&c);
  /* A quote that does not follow the first '=' is an ordinary character. */
  parse_ok("engine:cmd=./e,option=Name=\"v\",arg=a\"b", &c);
  list_is(&c, "option", 0, "Name=\"v\"");
  list_is(&c, "arg", 0, "a\"b");
  player_config_free(&c);
  /* Other backslashes stay. */
  parse_ok("engine:cmd=C:\\dir\\e", &c);
  assert_string_equal(player_config_text(&c, "cmd"), "C:\\dir\\e");
  player_config_free(&c);
  /* Numbers may be quoted too. */
  parse_ok("minimax:depth=\"3\"", &c);
  assert_int_equal(player_config_int(&c, "depth"), 3);
  player_config_free(&c);
}

static void test_errors(void **state) {
  (void)state;
  player_config c;
  char err[512];
  assert_int_equal(player_parse_spec("minimax:name=\"x,y", &c, err, sizeof err), -1);
  assert_non_null(strstr(err, "is never closed"));
  assert_int_equal(player_parse_spec("minimax:name=\"x\"y,depth=2", &c, err, sizeof err), -1);
  assert_non_null(strstr(err, "'y' after the closing quote"));
  /* An escaped comma is not a separator: depth gets "2,3", which is no number. */
  assert_int_equal(player_parse_spec("minimax:depth=2\\,3", &c, err, sizeof err), -1);
  assert_non_null(strstr(err, "option 'depth' is '2,3'"));
  assert_int_equal(player_parse_spec("minimax:depth=2,", &c, err, sizeof err), -1);
  assert_non_null(strstr(err, "trailing ','"));
}

/* The value reaches the engine: a whole spec with commas passed as one
 * argument to `oware uci --player`, which plays a game's first move. */
static void test_engine_argument(void **state) {
  (void)state;
  char err[512] = "";
  player *e = player_create("engine:cmd=" OWARE_BIN ",arg=uci,arg=--player,"
                            "arg=\"minimax:depth=2,hash=1,name=inner\",timeout=5000",
                            err, sizeof err);
  if (!e) fprintf(stderr, "%s\n", err);
  assert_non_null(e);
  variant v;
  variant_default(&v);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  assert_int_equal(player_new_game(e, &v, 1, err, sizeof err), 0);
  int m;
  assert_int_equal(player_choose(e, &g, NULL, &m, NULL, err, sizeof err), PLAYER_OK);
  assert_true(m >= 0 && m < 6);
  game_free(&g);
  player_free(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_escaped),
      cmocka_unit_test(test_quoted),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_engine_argument),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
