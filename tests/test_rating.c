/* test_rating.c: ratings from the store (loading, saving, schema 2, migration, pair counts), their printing, `oware rate` and `oware sprt`; the statistics themselves are in test_stats.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "report/rating_print.h"
#include "store/rating_scale.h"
#include "store/rating_store.h"
#include "store/store.h"
#include "core/clock.h"
#include "core/rng.h"

#define ERRLEN 1024

static char tmpdir[64];

static void path_in_tmp(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%s", tmpdir, name);
}

#include "tests/rating_checks.h"


/* One game from the model: expected score F(Δ), draws 4δF(1−F). */
static int sim_game(rng *g, double diff, double delta) {
  double F = 1.0 / (1.0 + pow(10.0, -diff / 400.0));
  double D = delta * 4 * F * (1 - F), W = F - D / 2;
  double u = rng_double(g);
  return u < W ? 1 : u < W + D ? 0 : -1;
}

/* ---------------------------------------------------------------- printing */

/* The printers on degenerate fits and matches: every line is written and
 * holds no "nan" or "inf" (the numbers come from stats/, tested in
 * test_stats.c). */
static void test_print(void **state) {
  (void)state;
  char path[256];
  path_in_tmp(path, sizeof path, "print.txt");
  FILE *out = fopen(path, "w+");
  assert_non_null(out);
  rating_pool p;
  rating_result r;
  rating_pool_init(&p);
  fit_ok(&p, NULL, &r); /* no player */
  rating_print_table(out, &r);
  rating_print_los(out, &r);
  rating_result_free(&r);
  int a = pool_named(&p, "winner"), b = pool_named(&p, "loser"), c = pool_named(&p, "idle");
  assert_int_equal(rating_pool_add(&p, a, b, 10, 0, 0), 0); /* only wins: bounded */
  (void)c;
  fit_ok(&p, NULL, &r);
  rating_print_table(out, &r);
  rating_print_los(out, &r);
  rating_result_free(&r);
  rating_pool_free(&p);
  rating_sprt sp;
  rating_sprt_default(&sp);
  rating_match none = {0}, wins = {10, 0, 0, {0, 0, 0, 0, 5}, 0};
  rating_match mixed = {80, 100, 60, {5, 30, 50, 40, 10}, 20};
  rating_match_print(out, "new", "old", &none, &sp);
  rating_match_print(out, "new", "old", &wins, &sp);
  rating_match_print(out, "new", "old", &mixed, NULL);
  rewind(out);
  char line[512];
  int lines = 0, bounded = 0, results = 0;
  while (fgets(line, sizeof line, out)) {
    lines++;
    if (strstr(line, "nan") || strstr(line, "inf")) fail_msg("not finite: %s", line);
    bounded += strstr(line, "* bounded estimate") != NULL;
    results += !strncmp(line, "Results of new vs old:", 22);
  }
  fclose(out);
  assert_true(lines > 10);
  assert_int_equal(bounded, 1);
  assert_int_equal(results, 3);
}

/* ---------------------------------------------------------------- store */

static store *open_ok(const char *path) {
  store *s = NULL;
  char err[ERRLEN] = "";
  if (store_open(path, 1, &s, err, sizeof err)) fail_msg("store_open(%s): %s", path, err);
  return s;
}

static int64_t make_run(store *s, int nplayers, const char *const *names, const char *variant2) {
  store_run *r = calloc(1, sizeof *r);
  assert_non_null(r);
  store_run_set(&r->name, "t");
  r->kind = STORE_ROUND_ROBIN;
  store_run_set(&r->format, "games:2");
  store_run_set(&r->openings, "random:2");
  r->rounds = 1;
  r->threads = 1;
  r->seed = 1;
  for (int i = 0; i < nplayers; i++) store_run_add_player(r, names[i], "random");
  store_run_add_variant(r, "abapa");
  if (variant2) store_run_add_variant(r, variant2);
  char err[ERRLEN] = "";
  if (store_run_create(s, r, err, sizeof err)) fail_msg("store_run_create: %s", err);
  int64_t id = r->id;
  store_run_free(r);
  free(r);
  return id;
}

/* A game of series `series` (players a, b) where a scored `a_result`
 * (+1, 0, −1); a is South in even games. */
static void make_game(store_game *g, int64_t run, int series, int game_no, int a, int b,
                      int a_result, int variant_idx) {
  memset(g, 0, sizeof *g);
  g->run_id = run;
  g->series_no = series;
  g->game_no = game_no;
  g->variant_idx = variant_idx;
  g->a_idx = a;
  g->b_idx = b;
  int a_south = game_no % 2 == 0;
  g->south_idx = a_south ? a : b;
  g->north_idx = a_south ? b : a;
  snprintf(g->opening, sizeof g->opening, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  g->moves = "";
  g->winner = a_result == 0 ? -1 : (a_result > 0) == a_south ? 0 : 1;
  /* A result the rows' checks accept: a win by majority 25-23, a draw
   * 24-24 by repetition (in half seeds). */
  g->score2[0] = g->winner == 0 ? 50 : g->winner == 1 ? 46 : 48;
  g->score2[1] = 96 - g->score2[0];
  g->end = g->winner < 0 ? OUTCOME_REPETITION : OUTCOME_MAJORITY;
  g->seed = 7;
}

static void insert_ok(store *s, const store_game *g, int n) {
  char err[ERRLEN] = "";
  if (store_games_insert(s, g, n, err, sizeof err)) fail_msg("store_games_insert: %s", err);
}

static int collect_rating(void *ctx, const store_rating *r) {
  store_rating *v = ctx;
  int k = 0;
  while (v[k].player[0]) k++;
  v[k] = *r;
  return 0;
}

/* Ratings round trip; batches; filtering by run. */
static void test_store_ratings(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "ratings.db");
  store *s = open_ok(path);
  static const char *const names[] = {"alpha", "beta"};
  int64_t run = make_run(s, 2, names, NULL);
  store_rating rows[3];
  memset(rows, 0, sizeof rows);
  for (int i = 0; i < 2; i++) {
    rows[i].run_id = run;
    snprintf(rows[i].scope, sizeof rows[i].scope, "run %lld", (long long)run);
    snprintf(rows[i].player, sizeof rows[i].player, "%s", names[i]);
    rows[i].elo = i ? -12.5 : 12.5;
    rows[i].lo = rows[i].elo - 20;
    rows[i].hi = rows[i].elo + 21;
    rows[i].games = 40;
    rows[i].score = i ? 0.45 : 0.55;
    rows[i].draws = 0.25;
    rows[i].games_total = 40;
    rows[i].bound = i;
  }
  assert_int_equal(store_ratings_insert(s, rows, 2, err, sizeof err), 0);
  assert_int_equal(rows[0].batch, 1);
  assert_int_equal(rows[1].batch, 1);
  assert_true(strlen(rows[0].created) == 20);
  rows[2] = rows[0];
  rows[2].run_id = 0; /* pooled */
  snprintf(rows[2].scope, sizeof rows[2].scope, "all runs");
  assert_int_equal(store_ratings_insert(s, &rows[2], 1, err, sizeof err), 0);
  assert_int_equal(rows[2].batch, 2);
  /* A NaN is refused (NOT NULL), and nothing of the batch is kept. */
  store_rating badrow[2] = {rows[0], rows[1]};
  badrow[1].elo = NAN;
  assert_int_equal(store_ratings_insert(s, badrow, 2, err, sizeof err), -1);
  printf("  NaN: %s\n", err);
  store_close(s);

  s = open_ok(path);
  store_rating got[8];
  memset(got, 0, sizeof got);
  assert_int_equal(store_ratings_foreach(s, 0, collect_rating, got, err, sizeof err), 0);
  assert_string_equal(got[0].player, "alpha");
  assert_string_equal(got[1].player, "beta");
  assert_string_equal(got[2].scope, "all runs");
  assert_int_equal(got[2].run_id, 0);
  assert_true(got[3].player[0] == 0);
  assert_true(got[1].elo == -12.5 && got[1].lo == -32.5 && got[1].hi == 8.5 &&
              got[1].games == 40 && got[1].score == 0.45 && got[1].draws == 0.25 &&
              got[1].games_total == 40 && got[1].bound == 1 && got[1].batch == 1 &&
              got[1].run_id == run);
  assert_string_equal(got[1].created, rows[1].created);
  memset(got, 0, sizeof got);
  assert_int_equal(store_ratings_foreach(s, run, collect_rating, got, err, sizeof err), 0);
  assert_true(got[1].player[0] && !got[2].player[0]);
  /* Deleting the run deletes its ratings (not the pooled one). */
  store_close(s);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db, "PRAGMA foreign_keys=ON; DELETE FROM runs", NULL, NULL, NULL),
                   SQLITE_OK);
  sqlite3_stmt *st;
  assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM ratings", -1, &st, NULL),
                   SQLITE_OK);
  assert_int_equal(sqlite3_step(st), SQLITE_ROW);
  assert_int_equal(sqlite3_column_int(st, 0), 1);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

/* The schema of version 1, as store.c created it before version 2. */
static const char v1_schema[] =
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL,"
    " format TEXT NOT NULL, openings TEXT NOT NULL,"
    " rounds INTEGER NOT NULL CHECK (rounds >= 0), threads INTEGER NOT NULL CHECK (threads >= 0),"
    " seed TEXT NOT NULL CHECK (seed <> '' AND seed NOT GLOB '*[^0-9]*'), command TEXT NOT NULL,"
    " status TEXT NOT NULL, started TEXT NOT NULL, finished TEXT);"
    "CREATE TABLE players (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " idx INTEGER NOT NULL CHECK (idx >= 0), name TEXT NOT NULL, spec TEXT NOT NULL,"
    " PRIMARY KEY (run_id, idx)) WITHOUT ROWID;"
    "CREATE TABLE variants (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " idx INTEGER NOT NULL CHECK (idx >= 0), name TEXT NOT NULL, PRIMARY KEY (run_id, idx))"
    " WITHOUT ROWID;"
    "CREATE TABLE series (run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " series_no INTEGER NOT NULL CHECK (series_no >= 0), variant_idx INTEGER NOT NULL,"
    " round INTEGER NOT NULL, a_idx INTEGER NOT NULL, b_idx INTEGER NOT NULL,"
    " games INTEGER NOT NULL CHECK (games >= 0), wins_a INTEGER NOT NULL CHECK (wins_a >= 0),"
    " wins_b INTEGER NOT NULL CHECK (wins_b >= 0), draws INTEGER NOT NULL CHECK (draws >= 0),"
    " winner INTEGER NOT NULL CHECK (winner BETWEEN -1 AND 1), PRIMARY KEY (run_id, series_no),"
    " FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx),"
    " FOREIGN KEY (run_id, a_idx) REFERENCES players(run_id, idx),"
    " FOREIGN KEY (run_id, b_idx) REFERENCES players(run_id, idx),"
    " CHECK (wins_a + wins_b + draws = games)) WITHOUT ROWID;"
    "CREATE TABLE games (id INTEGER PRIMARY KEY,"
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " series_no INTEGER NOT NULL CHECK (series_no >= 0), game_no INTEGER NOT NULL CHECK (game_no >= 0),"
    " variant_idx INTEGER NOT NULL, round INTEGER NOT NULL, a_idx INTEGER NOT NULL,"
    " b_idx INTEGER NOT NULL, south_idx INTEGER NOT NULL, north_idx INTEGER NOT NULL,"
    " opening TEXT NOT NULL, moves TEXT NOT NULL,"
    " winner INTEGER NOT NULL CHECK (winner BETWEEN -1 AND 1), score_south REAL NOT NULL,"
    " score_north REAL NOT NULL, plies INTEGER NOT NULL CHECK (plies >= 0),"
    " end_reason TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '', seed TEXT NOT NULL,"
    " seconds REAL NOT NULL, UNIQUE (run_id, series_no, game_no),"
    " FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx),"
    " FOREIGN KEY (run_id, south_idx) REFERENCES players(run_id, idx),"
    " FOREIGN KEY (run_id, north_idx) REFERENCES players(run_id, idx),"
    " CHECK ((south_idx = a_idx AND north_idx = b_idx) OR"
    " (south_idx = b_idx AND north_idx = a_idx)));"
    "PRAGMA application_id = 1331118418; PRAGMA user_version = 1;"
    "INSERT INTO runs VALUES (1, 'old', 'round-robin', 'games:2', 'random:2', 1, 1, '5', 'x',"
    " 'finished', '2025-01-01T00:00:00Z', '2025-01-01T00:01:00Z');"
    "INSERT INTO players VALUES (1, 0, 'p', 'random'), (1, 1, 'q', 'greedy');"
    "INSERT INTO variants VALUES (1, 0, 'abapa');"
    "INSERT INTO games (run_id, series_no, game_no, variant_idx, round, a_idx, b_idx, south_idx,"
    " north_idx, opening, moves, winner, score_south, score_north, plies, end_reason, seed,"
    " seconds) VALUES (1, 0, 0, 0, 0, 0, 1, 0, 1, '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', 'Aa', 0, 30, 18, 2,"
    " 'majority', '1', 0.5),"
    " (1, 0, 1, 0, 0, 0, 1, 1, 0, '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', 'Bb', -1, 24, 24, 2, 'repetition',"
    " '2', 0.5);";

static long long sql_int(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
    fail_msg("%s: %s", sql, sqlite3_errmsg(db));
  assert_int_equal(sqlite3_step(st), SQLITE_ROW);
  long long v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return v;
}

static void make_v1(const char *path, const char *extra) {
  unlink(path);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  char *msg = NULL;
  if (sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, &msg) != SQLITE_OK ||
      sqlite3_exec(db, v1_schema, NULL, NULL, &msg) != SQLITE_OK ||
      (extra && sqlite3_exec(db, extra, NULL, NULL, &msg) != SQLITE_OK))
    fail_msg("v1 database: %s", msg);
  sqlite3_close(db);
}

/* A version 1 file is upgraded in place, in one transaction. */
static void test_migration(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "v1.db");
  make_v1(path, NULL);
  store *s = open_ok(path);
  store_run run;
  assert_int_equal(store_run_load(s, 1, &run, err, sizeof err), 0);
  assert_string_equal(run.player_name[1], "q");
  store_run_free(&run);
  assert_int_equal(store_games_count(s, 1), 2);
  /* The old games rate; the ratings store. */
  rating_pool p;
  rating_pool_init(&p);
  int64_t one = 1;
  assert_int_equal(rating_pool_load(&p, s, &one, 1, NULL, err, sizeof err), 0);
  assert_int_equal(p.n, 2);
  rating_match m;
  rating_pool_match(&p, 0, 1, &m);
  assert_true(m.wins == 1 && m.draws == 1 && m.losses == 0 && m.penta[3] == 1);
  rating_pool_free(&p);
  assert_int_equal(rating_print_run(s, 1, stdout, 1, NULL, err, sizeof err), 0);
  store_close(s);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sql_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM ratings"), 2);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'ratings_by_run'"),
                   1);
  sqlite3_close(db);

  /* An upgrade that fails (a table of that name is in the way) changes
   * nothing: still version 1, the intruder intact. */
  make_v1(path, "CREATE TABLE ratings (x); INSERT INTO ratings VALUES (42);");
  store *bad = (store *)1;
  assert_int_equal(store_open(path, 0, &bad, err, sizeof err), -1);
  printf("  failed upgrade: %s\n", err);
  assert_non_null(strstr(err, "ratings"));
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(sql_int(db, "PRAGMA user_version"), 1);
  assert_int_equal(sql_int(db, "SELECT x FROM ratings"), 42);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM sqlite_master WHERE name = 'ratings_by_run'"),
                   0);
  sqlite3_close(db);
}

/* store_pair_counts: W/D/L and pairs per pair of names, pooled over runs,
 * by variant; unknown runs. */
static void test_pair_counts(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "pairs.db");
  store *s = open_ok(path);
  static const char *const n1[] = {"zeta", "alpha", "mid"};
  static const char *const n2[] = {"alpha", "zeta"};
  int64_t r1 = make_run(s, 3, n1, "awari"), r2 = make_run(s, 2, n2, NULL);
  store_game g[16];
  /* Run 1, series 0: zeta (0) vs alpha (1): pairs WL, WD; a lone game 4 (W). */
  make_game(&g[0], r1, 0, 0, 0, 1, 1, 0);
  make_game(&g[1], r1, 0, 1, 0, 1, -1, 0);
  make_game(&g[2], r1, 0, 2, 0, 1, 1, 0);
  make_game(&g[3], r1, 0, 3, 0, 1, 0, 0);
  make_game(&g[4], r1, 0, 4, 0, 1, 1, 0);
  /* Run 1, series 1: alpha (1) vs mid (2), variant awari: DD, LL. */
  make_game(&g[5], r1, 1, 0, 1, 2, 0, 1);
  make_game(&g[6], r1, 1, 1, 1, 2, 0, 1);
  make_game(&g[7], r1, 1, 2, 1, 2, -1, 1);
  make_game(&g[8], r1, 1, 3, 1, 2, -1, 1);
  /* Run 2: alpha (0) vs zeta (1): pair LD. */
  make_game(&g[9], r2, 0, 0, 0, 1, -1, 0);
  make_game(&g[10], r2, 0, 1, 0, 1, 0, 0);
  insert_ok(s, g, 11);
  store_pair_count *pc;
  int n;
  int64_t both[2] = {r1, r2};
  assert_int_equal(store_pair_counts(s, both, 2, NULL, &pc, &n, err, sizeof err), 0);
  assert_int_equal(n, 2);
  /* alpha–mid: alpha 2 draws 2 losses; pairs DD and LL. */
  assert_string_equal(pc[0].a, "alpha");
  assert_string_equal(pc[0].b, "mid");
  assert_true(pc[0].wins == 0 && pc[0].draws == 2 && pc[0].losses == 2);
  assert_true(pc[0].penta[0] == 1 && pc[0].penta[2] == 1 && pc[0].pairs_wl == 0);
  /* alpha–zeta: run 1 from zeta's side W L W D W (alpha: 1 W, 1 D, 3 L),
   * run 2 alpha L D. Pairs (alpha's side): LW → 1 (WL), LD, LD. */
  assert_string_equal(pc[1].a, "alpha");
  assert_string_equal(pc[1].b, "zeta");
  assert_true(pc[1].wins == 1 && pc[1].draws == 2 && pc[1].losses == 4);
  assert_true(pc[1].penta[0] == 0 && pc[1].penta[1] == 2 && pc[1].penta[2] == 1 &&
              pc[1].penta[3] == 0 && pc[1].penta[4] == 0 && pc[1].pairs_wl == 1);
  free(pc);
  /* Every run (nruns 0) is the same here; the variant filter. */
  assert_int_equal(store_pair_counts(s, NULL, 0, "awari", &pc, &n, err, sizeof err), 0);
  assert_int_equal(n, 1);
  assert_string_equal(pc[0].b, "mid");
  free(pc);
  assert_int_equal(store_pair_counts(s, &r2, 1, "awari", &pc, &n, err, sizeof err), 0);
  assert_int_equal(n, 0);
  assert_null(pc);
  int64_t bad[2] = {r1, 99};
  assert_int_equal(store_pair_counts(s, bad, 2, NULL, &pc, &n, err, sizeof err), -1);
  assert_non_null(strstr(err, "no run 99"));
  /* The pool of both runs. */
  rating_pool p;
  rating_pool_init(&p);
  assert_int_equal(rating_pool_load(&p, s, both, 2, NULL, err, sizeof err), 0);
  assert_int_equal(p.n, 3);
  /* In the order of the first run's players, not of the names. */
  assert_string_equal(p.name[0], "zeta");
  assert_string_equal(p.name[1], "alpha");
  assert_string_equal(p.name[2], "mid");
  rating_result r;
  fit_ok(&p, NULL, &r);
  rating_print_table(stdout, &r);
  rating_result_free(&r);
  rating_pool_free(&p);
  store_close(s);
}

/* ------------------------------------------------------------------ CLI */

/* Runs the oware binary with args; returns the exit code, output in out. */
static int run_oware(const char *args, char *out, size_t outlen) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", OWARE_BIN, args);
  FILE *f = popen(cmd, "r");
  assert_non_null(f);
  size_t n = fread(out, 1, outlen - 1, f);
  out[n] = 0;
  int st = pclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_cli(void **state) {
  (void)state;
  char path[256], args[1024], err[ERRLEN] = "";
  static char out[65536];
  path_in_tmp(path, sizeof path, "cli.db");
  store *s = open_ok(path);
  static const char *const names[] = {"strong", "middle", "weak"};
  int64_t run = make_run(s, 3, names, NULL);
  rng g;
  rng_seed(&g, 11);
  store_game games[600];
  int k = 0;
  for (int a = 0; a < 3; a++)
    for (int b = a + 1; b < 3; b++)
      for (int i = 0; i < 200; i++)
        make_game(&games[k++], run, a * 3 + b, i, a, b, sim_game(&g, 150.0 * (b - a), 0.3), 0);
  insert_ok(s, games, k);
  store_close(s);
  (void)err;

  snprintf(args, sizeof args, "rate --db '%s'", path);
  assert_int_equal(run_oware(args, out, sizeof out), 0);
  printf("%s", out);
  assert_non_null(strstr(out, "strong"));
  assert_non_null(strstr(out, "Likelihood of superiority"));
  assert_true(strstr(out, "strong") < strstr(out, "middle") &&
              strstr(out, "middle") < strstr(out, "weak"));
  snprintf(args, sizeof args, "rate --db '%s' --run %lld --anchor weak=1000 --bootstrap 200 --seed 3",
           path, (long long)run);
  assert_int_equal(run_oware(args, out, sizeof out), 0);
  assert_non_null(strstr(out, "1000.0"));
  assert_non_null(strstr(out, "bootstrap"));
  snprintf(args, sizeof args, "rate --db '%s' --all --variant abapa", path);
  assert_int_equal(run_oware(args, out, sizeof out), 0);
  snprintf(args, sizeof args, "rate --db '%s' --all --variant awari", path);
  assert_int_equal(run_oware(args, out, sizeof out), 0);
  assert_non_null(strstr(out, "No games"));
  /* Stored: three fits of three players (the empty one stores nothing). */
  s = open_ok(path);
  store_rating got[16];
  memset(got, 0, sizeof got);
  assert_int_equal(store_ratings_foreach(s, 0, collect_rating, got, err, sizeof err), 0);
  assert_true(got[8].player[0] && !got[9].player[0]);
  assert_int_equal(got[0].run_id, run);
  assert_int_equal(got[6].run_id, 0);
  assert_string_equal(got[3].player, "strong");
  assert_close(got[5].elo, 1000, 0.01);
  store_close(s);
  /* Bad input: exit 2 with a message naming it. */
  static const char *const bad[][2] = {
      {"--run 99", "no run 99"},          {"--anchor nobody=0", "nobody"},
      {"--anchor weak", "NAME=ELO"},      {"--anchor weak=x", "Elo"},
      {"--bootstrap -1", "--bootstrap"},  {"--run 1 --all", "--all"},
      {"--variant nonsense=3", ""},       {"--frob", "--frob"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    snprintf(args, sizeof args, "rate --db '%s' %s", path, bad[i][0]);
    int rc = run_oware(args, out, sizeof out);
    if (rc != 2 || !strstr(out, bad[i][1]))
      fail_msg("oware %s: exit %d, '%s' (expected 2 and '%s')", args, rc, out, bad[i][1]);
  }
  snprintf(args, sizeof args, "rate --db '%s/missing.db'", tmpdir);
  assert_int_equal(run_oware(args, out, sizeof out), 2);

  /* oware sprt. */
  assert_int_equal(run_oware("sprt --elo0 -3 --elo1 1 --model logistic --penta "
                             "10789,19328,33806,19402,10543",
                             out, sizeof out),
                   0);
  printf("%s", out);
  assert_non_null(strstr(out, "LLR 2.1311\n"));
  assert_non_null(strstr(out, "bounds -2.9444 2.9444\n"));
  assert_non_null(strstr(out, "decision continue\n"));
  assert_int_equal(run_oware("sprt --elo0 0 --elo1 10 --wdl 120,300,80 --model normalized", out,
                             sizeof out),
                   0);
  assert_non_null(strstr(out, "LLR 1.6145\n"));
  assert_int_equal(run_oware("sprt --elo0 0 --elo1 5 --alpha 0.05 --beta 0.05 --penta 0,0,0,0,400",
                             out, sizeof out),
                   0);
  assert_non_null(strstr(out, "H1 accepted"));
  static const char *const sbad[][2] = {
      {"--elo0 0 --elo1 5 --penta 1,2,3,4", "--penta"},
      {"--elo0 0 --elo1 5 --penta 1,2,3,4,x", "--penta"},
      {"--elo0 0 --elo1 5 --wdl 1,-2,3", "--wdl"},
      {"--elo0 0 --elo1 5", "--penta"},
      {"--elo0 0 --elo1 5 --wdl 1,2,3 --penta 1,2,3,4,5", "either"},
      {"--elo0 5 --elo1 0 --wdl 1,2,3", "less than"},
      {"--elo0 0 --elo1 5 --model bayes --wdl 1,2,3", "--model"},
      {"--elo1 5 --wdl 1,2,3", "--elo0"},
      {"--elo0 0 --elo1 5 --alpha 2 --wdl 1,2,3", "alpha"},
  };
  for (size_t i = 0; i < sizeof sbad / sizeof *sbad; i++) {
    snprintf(args, sizeof args, "sprt %s", sbad[i][0]);
    int rc = run_oware(args, out, sizeof out);
    if (rc != 2 || !strstr(out, sbad[i][1]))
      fail_msg("oware %s: exit %d, '%s' (expected 2 and '%s')", args, rc, out, sbad[i][1]);
  }
}

/* ------------------------------------------------------------ performance */

/* 1,000,000 games of 50 players: aggregate in SQL and fit. Only with
 * OWARE_RATING_BENCH=1 in the environment (it takes a while to write). */
static void test_bench_million(void **state) {
  (void)state;
  if (!getenv("OWARE_RATING_BENCH")) {
    printf("  (skipped: set OWARE_RATING_BENCH=1 to rate 1,000,000 games of 50 players)\n");
    return;
  }
  enum { NP = 50, TOTAL = 1000000, BATCH = 20000 };
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "million.db");
  store *s = open_ok(path);
  static char names[NP][16];
  const char *np[NP];
  for (int i = 0; i < NP; i++) {
    snprintf(names[i], sizeof names[i], "player%02d", i);
    np[i] = names[i];
  }
  int64_t run = make_run(s, NP, np, NULL);
  store_game *g = malloc(BATCH * sizeof *g);
  assert_non_null(g);
  rng r;
  rng_seed(&r, 1);
  int pairs = NP * (NP - 1) / 2, per = TOTAL / pairs + 1, k = 0, done = 0, series = 0;
  double t0 = clock_now();
  for (int a = 0; a < NP && done < TOTAL; a++)
    for (int b = a + 1; b < NP && done < TOTAL; b++, series++)
      for (int i = 0; i < per && done < TOTAL; i++, done++) {
        make_game(&g[k++], run, series, i, a, b, sim_game(&r, 10.0 * (b - a), 0.3), 0);
        if (k == BATCH) {
          insert_ok(s, g, k);
          k = 0;
        }
      }
  if (k) insert_ok(s, g, k);
  free(g);
  double t1 = clock_now();
  rating_pool p;
  rating_pool_init(&p);
  assert_int_equal(rating_pool_load(&p, s, &run, 1, NULL, err, sizeof err), 0);
  double t2 = clock_now();
  rating_result res;
  fit_ok(&p, NULL, &res);
  double t3 = clock_now();
  rating_result b;
  rating_options opt = {NULL, 0, 1000, 1, 0};
  fit_ok(&p, &opt, &b);
  double t4 = clock_now();
  printf("  %d games written in %.1f s; aggregated in %.2f s; fitted in %.3f s (%d Newton steps);"
         " 1000 bootstrap fits in %.2f s\n",
         done, t1 - t0, t2 - t1, t3 - t2, res.iterations, t4 - t3);
  assert_int_equal(res.games, TOTAL);
  assert_true(t2 - t1 < 30 && t3 - t2 < 5);
  rating_result_free(&b);
  rating_result_free(&res);
  rating_pool_free(&p);
  store_close(s);
}

/* A fit's scale in its scope: written and read back, names with '=' and
 * " = " in them, other clauses before it, and scopes without one. */
static void test_scale_scope(void **state) {
  (void)state;
  static const char *const names[] = {"greedy", "minimax:depth=2", "a = b", "x; anchor y = 3"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    rating_scale s = {.elo = -12.5}, back;
    snprintf(s.anchor, sizeof s.anchor, "%s", names[i]);
    char scope[256] = "run 3 variant abapa; bootstrap 100 seed 2";
    size_t before = strlen(scope);
    rating_scale_append(scope, sizeof scope, &s);
    rating_scale_of_scope(scope, &back);
    assert_string_equal(back.anchor, names[i]);
    assert_true(rating_scale_same(&s, &back));
    assert_int_equal(rating_scale_scope_length(scope), before);
  }
  static const char *const mean[] = {"run 3", "run 3 (in progress)", "all runs; bootstrap 9 seed 1",
                                     "run 1; anchor greedy = x", "run 1; anchor  = 3"};
  for (size_t i = 0; i < sizeof mean / sizeof *mean; i++) {
    rating_scale back, zero = {0};
    rating_scale_of_scope(mean[i], &back);
    assert_true(rating_scale_same(&back, &zero));
    assert_int_equal(rating_scale_scope_length(mean[i]), strlen(mean[i]));
  }
  char text[200];
  rating_scale m = {0}, g = {"greedy", 0};
  rating_scale_describe(&m, text, sizeof text);
  assert_string_equal(text, "the field's mean");
  rating_scale_describe(&g, text, sizeof text);
  assert_string_equal(text, "greedy = 0");
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/test_rating.XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_print),              cmocka_unit_test(test_store_ratings),      cmocka_unit_test(test_migration),
      cmocka_unit_test(test_pair_counts),        cmocka_unit_test(test_cli),
      cmocka_unit_test(test_bench_million),     cmocka_unit_test(test_scale_scope),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  char cmd[192];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  return failed;
}
