/* test_settings.c: a settings table (store/settings.c): defaults, a round trip through the store, a missing key, a wrong type, a value out of range. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "store/settings.h"
#include "store/store.h"

#define ERRLEN 1024

typedef struct demo {
  const char *player, *note;
  long long games;
  double scale, step;
  int quiet;
} demo;

#define T demo
static const settings_key demo_settings[] = {
    SETTINGS_K_TEXT("player", T, player, "SPEC", NULL, "the player", SETTINGS_REQUIRED),
    SETTINGS_K_TEXT("note", T, note, "TEXT", "none", "a note", 0),
    SETTINGS_K_INT("games", T, games, 1, 100, "N", "20", "games", 0),
    SETTINGS_K_REAL("scale", T, scale, 0.5, 2, "X", "1", "a scale", 0),
    SETTINGS_K_REAL("step", T, step, 0, 0, "X", NULL, "a step", SETTINGS_POSITIVE),
    SETTINGS_K_FLAG("quiet", T, quiet, "quiet"),
    SETTINGS_END,
};
#undef T

static char dir[] = "/tmp/oware-settings-XXXXXX";

static void test_defaults(void **state) {
  (void)state;
  demo d;
  char err[ERRLEN];
  memset(&d, 0xff, sizeof d);
  assert_int_equal(settings_defaults(demo_settings, &d, err, sizeof err), 0);
  assert_null(d.player);
  assert_string_equal(d.note, "none");
  assert_int_equal(d.games, 20);
  assert_true(d.scale == 1 && d.step == 0 && d.quiet == 0);
  assert_ptr_equal(settings_find(demo_settings, "scale"), &demo_settings[3]);
  assert_null(settings_find(demo_settings, "nosuch"));
  /* A default that does not parse is named. */
  static const settings_key bad[] = {
      SETTINGS_K_INT("games", demo, games, 1, 100, "N", "200", "games", 0), SETTINGS_END};
  assert_int_equal(settings_defaults(bad, &d, err, sizeof err), -1);
  assert_non_null(strstr(err, "'games'"));
}

/* Saved into a run, stored, loaded, read back: the same config. */
static void test_round_trip(void **state) {
  (void)state;
  char path[256], err[ERRLEN];
  snprintf(path, sizeof path, "%s/s.db", dir);
  store *db;
  if (store_open(path, 1, &db, err, sizeof err)) fail_msg("%s", err);
  demo in = {"minimax:depth=2", NULL, 42, 1.25, 0.003, 1};
  store_run *r = calloc(1, sizeof *r), *back = calloc(1, sizeof *back);
  assert_true(r && back);
  r->kind = STORE_SPSA;
  r->rounds = r->threads = 1;
  assert_int_equal(store_run_set(&r->name, "s") || store_run_set(&r->format, "iterations:1") ||
                       store_run_set(&r->openings, "random:2") ||
                       store_run_add_player(r, "p", "minimax:depth=2") ||
                       store_run_add_variant(r, "abapa"),
                   0);
  assert_int_equal(settings_save(demo_settings, &in, r, err, sizeof err), 0);
  /* An unset text is not stored; an unset positive real neither; a flag is 1. */
  const char *t;
  assert_int_equal(store_config_get_text(r, "note", &t, err, sizeof err), 1);
  long long q;
  assert_int_equal(store_config_get_int(r, "quiet", &q, err, sizeof err), 0);
  assert_int_equal(q, 1);
  if (store_run_create(db, r, err, sizeof err)) fail_msg("%s", err);
  if (store_run_load(db, r->id, back, err, sizeof err)) fail_msg("%s", err);
  demo out;
  memset(&out, 0, sizeof out);
  assert_int_equal(settings_load(demo_settings, back, &out, err, sizeof err), 0);
  assert_string_equal(out.player, "minimax:depth=2");
  assert_string_equal(out.note, "none"); /* not stored: its default */
  assert_int_equal(out.games, 42);
  assert_true(out.scale == 1.25 && out.step == 0.003 && out.quiet == 1);
  in.step = 0;
  in.quiet = 0;
  store_run_free(r);
  assert_int_equal(settings_save(demo_settings, &in, r, err, sizeof err), 0);
  assert_int_equal(store_config_get_real(r, "step", &out.step, err, sizeof err), 1);
  assert_int_equal(store_config_get_int(r, "quiet", &q, err, sizeof err), 1);
  store_run_free(r);
  store_run_free(back);
  free(r);
  free(back);
  store_close(db);
}

/* A required key missing, a key of another type, a value out of range:
 * each an error that names the setting. */
static void test_bad_runs(void **state) {
  (void)state;
  char err[ERRLEN];
  demo d;
  store_run r;
  store_run_init(&r);
  r.id = 7;
  assert_int_equal(store_config_set_int(&r, "games", 5), 0);
  assert_int_equal(settings_load(demo_settings, &r, &d, err, sizeof err), -1);
  assert_string_equal(err, "run 7: setting 'player' is missing");
  assert_int_equal(store_config_set_text(&r, "player", "greedy"), 0);
  assert_int_equal(settings_load(demo_settings, &r, &d, err, sizeof err), 0);
  assert_int_equal(d.games, 5);
  assert_true(d.scale == 1); /* missing, not required: the default */
  assert_int_equal(store_config_set_text(&r, "games", "5"), 0);
  assert_int_equal(settings_load(demo_settings, &r, &d, err, sizeof err), -1);
  assert_non_null(strstr(err, "setting 'games' is text"));
  assert_int_equal(store_config_set_int(&r, "games", 500), 0);
  assert_int_equal(settings_load(demo_settings, &r, &d, err, sizeof err), -1);
  assert_string_equal(err, "run 7: setting 'games' is 500; expected 1 to 100");
  assert_int_equal(store_config_set_int(&r, "games", 50), 0);
  assert_int_equal(store_config_set_real(&r, "step", -1), 0);
  assert_int_equal(settings_load(demo_settings, &r, &d, err, sizeof err), -1);
  assert_string_equal(err, "run 7: setting 'step' is -1; expected a positive number");
  assert_int_equal(store_config_set_real(&r, "step", 2), 0);
  assert_int_equal(store_config_set_int(&r, "scale", 1), 0);
  assert_int_equal(settings_load(demo_settings, &r, &d, err, sizeof err), -1);
  assert_non_null(strstr(err, "setting 'scale' is integer"));
  store_run_free(&r);
}

/* A choice is stored as its name and read back as its index; a column
 * setting is neither written nor read (the run's columns hold it). */
typedef struct pick {
  int kind;
  long long rounds;
} pick;

static const char *const kinds[] = {"round-robin", "gauntlet", NULL};

static void test_choice_and_column(void **state) {
  (void)state;
  static const settings_key table[] = {
      SETTINGS_K_CHOICE("kind", pick, kind, kinds, "round-robin", "the kind", 0),
      SETTINGS_K_INT("rounds", pick, rounds, 1, 9, "R", "1", "rounds", SETTINGS_COLUMN),
      SETTINGS_END,
  };
  char err[ERRLEN];
  pick p = {1, 5}, q;
  store_run r;
  store_run_init(&r);
  r.id = 4;
  assert_int_equal(settings_save(table, &p, &r, err, sizeof err), 0);
  assert_int_equal(r.nconfig, 1);
  const char *t;
  assert_int_equal(store_config_get_text(&r, "kind", &t, err, sizeof err), 0);
  assert_string_equal(t, "gauntlet");
  assert_int_equal(store_config_set_int(&r, "rounds", 7), 0); /* not read: a column */
  assert_int_equal(settings_load(table, &r, &q, err, sizeof err), 0);
  assert_true(q.kind == 1 && q.rounds == 1);
  assert_int_equal(store_config_set_text(&r, "kind", "swiss"), 0);
  assert_int_equal(settings_load(table, &r, &q, err, sizeof err), -1);
  assert_string_equal(err, "run 4: setting 'kind' is 'swiss'; expected round-robin or gauntlet");
  store_run_free(&r);
}

int main(void) {
  if (!mkdtemp(dir)) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_round_trip),
      cmocka_unit_test(test_bad_runs),
      cmocka_unit_test(test_choice_and_column),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) rc = rc ? rc : 1;
  return rc;
}
