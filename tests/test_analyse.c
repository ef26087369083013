/* test_analyse.c: run/analyse.c and analyse_store.c: a hand-checked mistake, the stored rows read back, malformed rows, missing tables and unsupported variants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "run/analyse.h"
#include "store/store.h"
#include "core/variant.h"
#include "tests/fixture.h"

static char tmpdir[64], egdir[128], dbpath[128];

static int setup(void **state) {
  (void)state;
  if (fixture_mkdtemp(tmpdir, sizeof tmpdir, "analyse")) return -1;
  snprintf(egdir, sizeof egdir, "%s/eg", tmpdir);
  snprintf(dbpath, sizeof dbpath, "%s/t.db", tmpdir);
  return fixture_egdb("abapa", egdir, 6, 1);
}

static int teardown(void **state) {
  (void)state;
  return fixture_remove(tmpdir);
}

/*
 * The hand-checked game, abapa, from 0-0-0-0-1-1-1-0-0-0-0-0-22-23-S (3
 * seeds on the board: South E=1 F=1, North a=1; stores 22-23).
 * - South's E: F=2; North's only move a gives b=1; South's F sows a=1 b=2
 *   and captures 2 (North keeps a: no grand slam); South's row is empty
 *   and North's a cannot reach it: no move, North keeps its 1. E is worth
 *   2 of the 3 seeds to South: 24-24, a draw.
 * - South's F: a=2 would take all of North's seeds, a grand slam, which
 *   captures nothing in abapa. North plays a (b=1 c=1), South must play E
 *   (F=1), North b (c=2), South must play F (a=1): South's row is empty and
 *   North cannot feed it, so North keeps all 3. F is worth 0: 22-26, lost.
 * The game is F a E b F: South throws away 2 seeds (4 half seeds) at ply 0
 * and turns a draw into a loss; every other move is perfect (North's b and
 * c both keep all 3; the rest are forced).
 */
#define HAND_OPENING "0-0-0-0-1-1-1-0-0-0-0-0-22-23-S"
#define HAND_MOVES "FaEbF"

static int64_t make_run(store *db, const char *variant_name, int with_game) {
  store_run run;
  store_run_init(&run);
  char err[512];
  assert_int_equal(store_run_set(&run.name, "hand"), 0);
  assert_int_equal(store_run_set(&run.format, "games:1"), 0);
  assert_int_equal(store_run_set(&run.openings, "random:0"), 0);
  assert_int_equal(store_run_set(&run.command, "test"), 0);
  run.rounds = 1;
  run.threads = 1;
  run.seed = 1;
  assert_int_equal(store_run_add_player(&run, "south", "random"), 0);
  assert_int_equal(store_run_add_player(&run, "north", "random"), 0);
  assert_int_equal(store_run_add_variant(&run, variant_name), 0);
  if (store_run_create(db, &run, err, sizeof err)) fail_msg("%s", err);
  int64_t id = run.id;
  store_run_free(&run);
  if (with_game) {
    store_game g;
    memset(&g, 0, sizeof g);
    g.run_id = id;
    g.a_idx = g.south_idx = 0;
    g.b_idx = g.north_idx = 1;
    snprintf(g.opening, sizeof g.opening, "%s", HAND_OPENING);
    g.moves = HAND_MOVES;
    g.plies = 5;
    g.winner = 1;
    g.score2[0] = 44, g.score2[1] = 52;
    g.end = OUTCOME_NO_MOVE;
    g.seed = 7;
    if (store_games_insert(db, &g, 1, err, sizeof err)) fail_msg("%s", err);
  }
  return id;
}

/* A fresh database at dbpath. */
static store *fresh_db(void) {
  store *db;
  char err[1024];
  unlink(dbpath);
  if (store_open(dbpath, 1, &db, err, sizeof err)) fail_msg("%s", err);
  return db;
}

/* The hand-checked game stored in a fresh database (*db) as run *id, and
 * its analysis. */
static analyse_result *analysed_hand_game(store **db, int64_t *id) {
  char err[1024];
  *db = fresh_db();
  *id = make_run(*db, "abapa", 1);
  analyse_result *r;
  if (analyse_run(*db, *id, egdir, -1, &r, err, sizeof err)) fail_msg("%s", err);
  return r;
}

static void test_hand_mistake(void **state) {
  (void)state;
  store *db;
  int64_t id;
  analyse_result *r = analysed_hand_game(&db, &id);
  char err[1024];
  assert_int_equal(r->seeds, 6);
  assert_int_equal(r->run_games, 1);
  const analyse_player *s = &r->player[0], *n = &r->player[1];
  assert_int_equal(s->games, 1);
  assert_int_equal(s->positions, 3);
  assert_int_equal(s->forced, 2);
  assert_int_equal(s->exact, 3);
  assert_int_equal(s->kept, 2);
  assert_int_equal(s->cycle, 0);
  assert_int_equal(s->proven, 0);
  assert_int_equal(analyse_mistakes(s), 1);
  assert_int_equal(s->lost2, 4);
  assert_int_equal(s->changed, 1);
  assert_int_equal(n->positions, 2);
  assert_int_equal(n->forced, 1);
  assert_int_equal(n->kept, 2);
  assert_int_equal(n->lost2, 0);
  assert_int_equal(n->changed, 0);
  assert_int_equal(r->nmistakes, 1);
  const analyse_mistake *m = &r->mistake[0];
  assert_int_equal(m->ply, 0);
  assert_int_equal(m->player, 0);
  assert_int_equal(m->seeds, 3);
  assert_string_equal(m->position, HAND_OPENING);
  assert_int_equal(m->played, 5); /* F */
  assert_int_equal(m->best, 4);   /* E */
  assert_int_equal(m->best2, 4);
  assert_int_equal(m->played2, 0);
  assert_int_equal(m->lost2, 4);
  assert_int_equal(m->proven, 0);
  assert_int_equal(m->changed, 1);
  assert_int_equal(r->moves_at[0][3], 3); /* decided moves, the forced ones too */
  assert_int_equal(r->lost2_at[0][3], 4);
  assert_true(analyse_kept_share(s) > 0.66 && analyse_kept_share(s) < 0.67);
  assert_true(analyse_lost_per_move(s) > 0.66 && analyse_lost_per_move(s) < 0.67);

  /* Stored and read back the same; a second save replaces, not adds. */
  if (analyse_save(db, r, err, sizeof err)) fail_msg("%s", err);
  if (analyse_save(db, r, err, sizeof err)) fail_msg("%s", err);
  analyse_result *b;
  assert_int_equal(analyse_load(db, id, &b, err, sizeof err), 0);
  assert_int_equal(b->seeds, r->seeds);
  assert_int_equal(b->run_games, r->run_games);
  assert_string_equal(b->egdb_dir, egdir);
  assert_memory_equal(b->player, r->player, sizeof r->player);
  assert_memory_equal(b->moves_at, r->moves_at, sizeof r->moves_at);
  assert_memory_equal(b->lost2_at, r->lost2_at, sizeof r->lost2_at);
  assert_int_equal(b->nmistakes, 1);
  assert_memory_equal(&b->mistake[0], &r->mistake[0], sizeof *m);
  analyse_free(b);

  /* analyse_get reads the stored one; with force it computes again. */
  int computed = -1;
  assert_int_equal(analyse_get(db, id, egdir, -1, 0, 1, &b, &computed, err, sizeof err), 0);
  assert_int_equal(computed, 0);
  analyse_free(b);
  assert_int_equal(analyse_get(db, id, egdir, -1, 1, 1, &b, &computed, err, sizeof err), 0);
  assert_int_equal(computed, 1);
  analyse_free(b);
  /* Another coverage is computed afresh. */
  assert_int_equal(analyse_get(db, id, egdir, 2, 0, 1, &b, &computed, err, sizeof err), 0);
  assert_int_equal(computed, 1);
  assert_int_equal(b->seeds, 2);
  assert_int_equal(b->player[0].positions, 0); /* the game never gets down to 2 seeds */
  analyse_free(b);
  /* The default coverage is the one the tables give now (6), not whatever
   * is stored (2): computed afresh, then read back. */
  assert_int_equal(analyse_get(db, id, egdir, -1, 0, 1, &b, &computed, err, sizeof err), 0);
  assert_int_equal(computed, 1);
  assert_int_equal(b->seeds, 6);
  analyse_free(b);
  assert_int_equal(analyse_get(db, id, egdir, -1, 0, 1, &b, &computed, err, sizeof err), 0);
  assert_int_equal(computed, 0);
  analyse_free(b);
  /* Another folder is other tables: missing ones are the error, not the
   * stored analysis of the first folder. */
  char nowhere[160];
  snprintf(nowhere, sizeof nowhere, "%s/none", tmpdir);
  assert_int_equal(analyse_get(db, id, nowhere, -1, 0, 1, &b, &computed, err, sizeof err), -1);
  assert_non_null(strstr(err, "no endgame tables"));
  assert_int_equal(analyse_get(db, id, nowhere, 6, 0, 1, &b, &computed, err, sizeof err), -1);
  analyse_free(r);
  /* A run without an analysis. */
  int64_t other = make_run(db, "abapa", 0);
  assert_int_equal(analyse_load(db, other, &b, err, sizeof err), 1);
  store_close(db);
}

/* A malformed stored row is an error naming it. */
static void test_bad_rows(void **state) {
  (void)state;
  static const char *const bad[][2] = {
      {"UPDATE analysis SET kept = exact + 1 WHERE player_idx = 0", NULL},
      {"UPDATE analysis_seeds SET moves = moves + 1", "do not add up"},
      {"DELETE FROM analysis_mistakes", "mistakes stored for player 0"},
      {"UPDATE analysis_mistakes SET best2 = best2 + 40, lost2 = lost2 + 40", "malformed"},
      {"UPDATE analysis SET lost2 = lost2 + 2 WHERE player_idx = 0", "do not add up"},
      {"DELETE FROM analysis WHERE player_idx = 1", "analysis of 1 players, the run has 2"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    store *db;
    int64_t id;
    analyse_result *r = analysed_hand_game(&db, &id);
    char err[1024];
    if (analyse_save(db, r, err, sizeof err)) fail_msg("%s", err);
    analyse_free(r);
    store_close(db);
    sqlite3 *raw;
    assert_int_equal(sqlite3_open(dbpath, &raw), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(raw, bad[k][0], NULL, NULL, &msg);
    sqlite3_free(msg);
    sqlite3_close(raw);
    if (!bad[k][1]) { /* the schema's CHECK refuses it already */
      assert_int_not_equal(rc, SQLITE_OK);
      continue;
    }
    assert_int_equal(rc, SQLITE_OK);
    if (store_open(dbpath, 0, &db, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(analyse_load(db, id, &r, err, sizeof err), -1);
    if (!strstr(err, bad[k][1])) fail_msg("'%s': %s", bad[k][0], err);
    store_close(db);
  }
}

static void test_errors(void **state) {
  (void)state;
  store *db = fresh_db();
  char err[1024];
  analyse_result *r;
  /* No such run. */
  assert_int_equal(analyse_run(db, 99, egdir, -1, &r, err, sizeof err), -1);
  assert_non_null(strstr(err, "no run 99"));
  int64_t id = make_run(db, "abapa", 1);
  /* No tables there: says what to build. */
  char nowhere[160];
  snprintf(nowhere, sizeof nowhere, "%s/none", tmpdir);
  assert_int_equal(analyse_run(db, id, nowhere, -1, &r, err, sizeof err), -1);
  assert_non_null(strstr(err, "no endgame tables of variant 'abapa'"));
  assert_non_null(strstr(err, "oware egdb build --variant abapa --seeds 12"));
  /* Fewer tables than asked. */
  assert_int_equal(analyse_run(db, id, egdir, 9, &r, err, sizeof err), -1);
  assert_non_null(strstr(err, "stop at 6 seeds, not 9"));
  assert_non_null(strstr(err, "oware egdb build --variant abapa --seeds 9"));
  /* A variant the tables cannot hold. */
  int64_t gw = make_run(db, "grandslam-win", 0);
  assert_int_equal(analyse_run(db, gw, egdir, -1, &r, err, sizeof err), -1);
  assert_non_null(strstr(err, "variant 'grandslam-win'"));
  assert_non_null(strstr(err, "cannot be analysed"));
  /* Only abapa's tables were built: awari's are missing. */
  int64_t aw = make_run(db, "awari", 0);
  assert_int_equal(analyse_run(db, aw, egdir, -1, &r, err, sizeof err), -1);
  assert_non_null(strstr(err, "no endgame tables of variant 'awari'"));
  store_close(db);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hand_mistake),
      cmocka_unit_test(test_bad_rows),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
