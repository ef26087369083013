/* test_options.c: cli/options.c: both value forms, errors (unknown, missing, out of range), repeats, "--", help. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

/* A table with one option of each type. */
typedef struct vals {
  int quiet, model;
  long long games;
  double alpha;
  const char *variant;
  int calls;
  char last[32];
} vals;

static const char *const models[] = {"normalized", "logistic", NULL};

static int count_call(const cli_option *o, const char *value, char *err, size_t errlen) {
  vals *v = o->target;
  if (!strcmp(value, "bad")) {
    snprintf(err, errlen, "--size is 'bad'; expected WxH");
    return -1;
  }
  v->calls++;
  snprintf(v->last, sizeof v->last, "%s", value);
  return 0;
}

typedef struct fixture {
  vals v;
  cli_option opts[7];
  cli_command_spec spec;
  char *pos[4];
  int npos;
  char err[512];
} fixture;

static void setup(fixture *f) {
  memset(f, 0, sizeof *f);
  cli_option opts[] = {
      CLI_O_FLAG("quiet", &f->v.quiet, "print less"),
      CLI_O_INT("games", &f->v.games, 1, 1000, "N", "20", "games to play"),
      CLI_O_REAL("alpha", &f->v.alpha, 0.001, 0.5, "A", "0.05", "the false positive rate"),
      CLI_O_TEXT("variant", &f->v.variant, "V", "abapa", "the rule variant"),
      CLI_O_CHOICE("model", &f->v.model, models, "normalized", "the Elo model"),
      CLI_O_CALL("size", count_call, &f->v, "WxH", "the picture size"),
      CLI_END,
  };
  memcpy(f->opts, opts, sizeof opts);
  f->spec = (cli_command_spec){"test", "usage: oware test [options] [ARGS]\nTests.\n",
                               "After the options.\n", f->opts, 2};
}

/* Parses the NULL-terminated arguments. */
static int parse(fixture *f, ...) {
  char *argv[32];
  int argc = 0;
  va_list ap;
  va_start(ap, f);
  for (char *a; (a = va_arg(ap, char *));) argv[argc++] = a;
  va_end(ap);
  return cli_options_parse(&f->spec, argc, argv, f->pos, &f->npos, f->err, sizeof f->err);
}

static void defaults_apply(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  assert_int_equal(parse(&f, NULL), 0);
  assert_int_equal(f.v.games, 20);
  assert_true(f.v.alpha == 0.05);
  assert_string_equal(f.v.variant, "abapa");
  assert_int_equal(f.v.model, 0);
  assert_int_equal(f.v.quiet, 0);
  assert_int_equal(f.npos, 0);
  assert_int_equal(f.opts[1].given, 0);
}

static void both_forms_equal(void **state) {
  (void)state;
  fixture a, b;
  setup(&a);
  setup(&b);
  assert_int_equal(parse(&a, "--games=7", "--alpha=0.1", "--variant=auale", "--model=logistic",
                         "--size=640x400", "--quiet", "x", NULL),
                   0);
  assert_int_equal(parse(&b, "--games", "7", "--alpha", "0.1", "--variant", "auale", "--model",
                         "logistic", "--size", "640x400", "--quiet", "x", NULL),
                   0);
  assert_int_equal(a.v.games, 7);
  assert_int_equal(b.v.games, 7);
  assert_true(a.v.alpha == 0.1 && b.v.alpha == 0.1);
  assert_string_equal(a.v.variant, "auale");
  assert_string_equal(b.v.variant, "auale");
  assert_int_equal(a.v.model, 1);
  assert_int_equal(b.v.model, 1);
  assert_string_equal(a.v.last, "640x400");
  assert_string_equal(b.v.last, "640x400");
  assert_int_equal(a.v.quiet, 1);
  assert_int_equal(b.v.quiet, 1);
  assert_int_equal(a.npos, 1);
  assert_int_equal(b.npos, 1);
  assert_string_equal(a.pos[0], "x");
  assert_string_equal(b.pos[0], "x");
  /* The option after a "=" value is read as an option, not skipped. */
  setup(&a);
  assert_int_equal(parse(&a, "--games=7", "--alpha", "0.2", NULL), 0);
  assert_true(a.v.alpha == 0.2);
}

static void unknown_option(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  assert_int_equal(parse(&f, "--bogus", "3", NULL), 2);
  assert_non_null(strstr(f.err, "unknown option '--bogus'"));
  setup(&f);
  assert_int_equal(parse(&f, "--bogus=3", NULL), 2);
  assert_non_null(strstr(f.err, "'--bogus=3'"));
  setup(&f);
  assert_int_equal(parse(&f, "-x", NULL), 2);
  assert_non_null(strstr(f.err, "unknown option '-x'"));
  /* No abbreviations (getopt_long's unique prefixes): a stored command line
   * must not change meaning when an option is added. */
  setup(&f);
  assert_int_equal(parse(&f, "--gam", "3", NULL), 2);
  assert_non_null(strstr(f.err, "unknown option '--gam'"));
  setup(&f);
  assert_int_equal(parse(&f, "--qui", NULL), 2);
  assert_non_null(strstr(f.err, "unknown option '--qui'"));
  setup(&f);
  assert_int_equal(parse(&f, "--var=x", NULL), 2);
  assert_non_null(strstr(f.err, "unknown option '--var=x'"));
  setup(&f);
  assert_int_equal(parse(&f, "--quiet=1", NULL), 2);
  assert_non_null(strstr(f.err, "--quiet takes no value"));
}

static void missing_value(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  assert_int_equal(parse(&f, "--games", NULL), 2);
  assert_non_null(strstr(f.err, "--games needs a value"));
  setup(&f);
  assert_int_equal(parse(&f, "x", "--variant", NULL), 2);
  assert_non_null(strstr(f.err, "--variant needs a value"));
}

static void out_of_range(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  assert_int_equal(parse(&f, "--games", "0", NULL), 2);
  assert_string_equal(f.err, "--games is '0'; expected a whole number from 1 to 1000");
  setup(&f);
  assert_int_equal(parse(&f, "--games=12x", NULL), 2);
  assert_non_null(strstr(f.err, "'12x'"));
  setup(&f);
  assert_int_equal(parse(&f, "--alpha=0.9", NULL), 2);
  assert_string_equal(f.err, "--alpha is '0.9'; expected a number from 0.001 to 0.5");
  setup(&f);
  assert_int_equal(parse(&f, "--alpha", "nan", NULL), 2);
  setup(&f);
  assert_int_equal(parse(&f, "--model", "elo", NULL), 2);
  assert_string_equal(f.err, "--model is 'elo'; expected normalized or logistic");
  setup(&f);
  assert_int_equal(parse(&f, "--size", "bad", NULL), 2);
  assert_string_equal(f.err, "--size is 'bad'; expected WxH");
  /* Negative numbers are values, not options. */
  setup(&f);
  assert_int_equal(parse(&f, "--games", "-3", NULL), 2);
  assert_non_null(strstr(f.err, "'-3'"));
}

static void repeated_option(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  assert_int_equal(parse(&f, "--games", "3", "--games=5", "--size", "a", "--size=b", NULL), 0);
  assert_int_equal(f.v.games, 5); /* the last wins */
  assert_int_equal(f.opts[1].given, 2);
  assert_int_equal(f.v.calls, 2); /* a callback sees each */
  assert_string_equal(f.v.last, "b");
  /* A second parse starts afresh (getopt's state, the counts). */
  assert_int_equal(parse(&f, "--quiet", NULL), 0);
  assert_int_equal(f.opts[1].given, 0);
  assert_int_equal(f.v.games, 20);
}

static void double_dash(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  assert_int_equal(parse(&f, "a", "--quiet", "--", "--games", NULL), 0);
  assert_int_equal(f.v.quiet, 1);
  assert_int_equal(f.v.games, 20);
  assert_int_equal(f.npos, 2);
  assert_string_equal(f.pos[0], "a");
  assert_string_equal(f.pos[1], "--games");
  setup(&f);
  assert_int_equal(parse(&f, "--", "-", "x", "y", NULL), 2); /* maxpos is 2 */
  assert_non_null(strstr(f.err, "unexpected argument 'y'"));
  setup(&f);
  assert_int_equal(parse(&f, "a", "b", "c", NULL), 2);
  assert_non_null(strstr(f.err, "unexpected argument 'c'"));
}

static void help_shown(void **state) {
  (void)state;
  fixture f;
  setup(&f);
  assert_int_equal(parse(&f, "--games", "3", "--help", NULL), CLI_HELP_SHOWN);
  setup(&f);
  assert_int_equal(parse(&f, "-h", NULL), CLI_HELP_SHOWN);
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  assert_non_null(m);
  cli_options_help(m, &f.spec);
  fclose(m);
  assert_non_null(strstr(text, "usage: oware test"));
  assert_non_null(strstr(text, "After the options."));
  for (const cli_option *o = f.opts; o->name; o++) {
    char want[64];
    snprintf(want, sizeof want, "\n  --%s", o->name);
    assert_non_null(strstr(text, want));
    assert_non_null(strstr(text, o->help));
  }
  assert_non_null(strstr(text, "--games N"));
  assert_non_null(strstr(text, "(default 20)"));
  assert_non_null(strstr(text, "[1..1000]"));
  assert_non_null(strstr(text, "--model normalized|logistic"));
  assert_non_null(strstr(text, "--help"));
  free(text);
}

/* Options made from a settings table (store/settings.h): one per setting,
 * with its range and default; a positive real rejects 0. */
typedef struct tuned {
  const char *player;
  long long pairs;
  double c_end, scale;
  int report;
} tuned;

static void settings_rows(void **state) {
  (void)state;
  static const settings_key table[] = {
      SETTINGS_K_TEXT("player", tuned, player, "SPEC", NULL, "the player", SETTINGS_REQUIRED),
      SETTINGS_K_INT("pairs", tuned, pairs, 1, 100, "K", "8", "pairs", 0),
      SETTINGS_K_REAL("c-end", tuned, c_end, 0, 0, "X", NULL, "c_end", SETTINGS_POSITIVE),
      SETTINGS_K_REAL("scale", tuned, scale, 0.5, 2, "X", "1", "scale", 0),
      SETTINGS_K_FLAG("report", tuned, report, "report"),
      SETTINGS_END,
  };
  tuned t;
  memset(&t, 0, sizeof t);
  cli_option opts[6];
  assert_int_equal(cli_settings_options(table, &t, opts, 4), -1);
  assert_int_equal(cli_settings_options(table, &t, opts, 5), 5);
  opts[5] = (cli_option)CLI_END;
  cli_command_spec spec = {"test", "usage\n", NULL, opts, 0};
  char *argv[] = {(char *)"--player", (char *)"greedy", (char *)"--c-end=0.5",
                  (char *)"--report", (char *)"--scale",  (char *)"2"};
  char err[512];
  int npos;
  assert_int_equal(cli_options_parse(&spec, 6, argv, NULL, &npos, err, sizeof err), 0);
  assert_string_equal(t.player, "greedy");
  assert_int_equal(t.pairs, 8);
  assert_true(t.c_end == 0.5 && t.scale == 2 && t.report == 1);
  char *bad[] = {(char *)"--c-end", (char *)"0"};
  assert_int_equal(cli_options_parse(&spec, 2, bad, NULL, &npos, err, sizeof err), 2);
  assert_string_equal(err, "--c-end is '0'; expected a positive number");
  char *range[] = {(char *)"--pairs", (char *)"0"};
  assert_int_equal(cli_options_parse(&spec, 2, range, NULL, &npos, err, sizeof err), 2);
  assert_string_equal(err, "--pairs is '0'; expected a whole number from 1 to 100");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(defaults_apply), cmocka_unit_test(both_forms_equal),
      cmocka_unit_test(unknown_option), cmocka_unit_test(missing_value),
      cmocka_unit_test(out_of_range),   cmocka_unit_test(repeated_option),
      cmocka_unit_test(double_dash),    cmocka_unit_test(help_shown),
      cmocka_unit_test(settings_rows),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
