/* test_store.c: the SQLite store: round trips, all-or-nothing batches, foreign and newer files, kills, throughput. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/store.h"
#include "store/store_sql.h"

#define ERRLEN 1024

/* The temporary directory of the whole test program, removed at the end. */
static char tmpdir[64];

static void path_in_tmp(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void remove_db(const char *path) {
  char p[512];
  unlink(path);
  snprintf(p, sizeof p, "%s-wal", path);
  unlink(p);
  snprintf(p, sizeof p, "%s-shm", path);
  unlink(p);
  snprintf(p, sizeof p, "%s-journal", path);
  unlink(p);
}

static void expect_contains(const char *msg, const char *part) {
  if (!strstr(msg, part)) fail_msg("message '%s' does not contain '%s'", msg, part);
}

/* Reads a whole file; *len gets its size. The caller frees. */
static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long n = ftell(f);
  assert_true(n >= 0);
  rewind(f);
  unsigned char *buf = malloc((size_t)n + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static void sql_exec(sqlite3 *db, const char *sql) {
  char *msg = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) fail_msg("%s: %s", sql, msg);
}

static long long sql_int(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
    fail_msg("%s: %s", sql, sqlite3_errmsg(db));
  assert_int_equal(sqlite3_step(st), SQLITE_ROW);
  long long v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return v;
}

static store *open_ok(const char *path, int create) {
  store *s = NULL;
  char err[ERRLEN] = "";
  if (store_open(path, create, &s, err, sizeof err)) fail_msg("store_open(%s): %s", path, err);
  assert_non_null(s);
  return s;
}

/* store_open must fail with a message containing every given part. */
static void open_bad(const char *path, int create, const char *part1, const char *part2) {
  store *s = (store *)1;
  char err[ERRLEN] = "";
  if (store_open(path, create, &s, err, sizeof err) != -1)
    fail_msg("store_open(%s) accepted what it should refuse", path);
  assert_null(s);
  printf("  store_open(%s): %s\n", path, err);
  expect_contains(err, part1);
  if (part2) expect_contains(err, part2);
}

/* A run of nplayers players and two variants. */
static void sample_run(store_run *r, int nplayers) {
  memset(r, 0, sizeof *r);
  assert_int_equal(store_run_set(&r->name, "gauntlet of minimax"), 0);
  r->kind = STORE_GAUNTLET;
  assert_int_equal(store_run_set(&r->format, "first-to:3,lead:2,cap:20"), 0);
  assert_int_equal(store_run_set(&r->openings, "random:4"), 0);
  r->rounds = 3;
  r->threads = 8;
  r->seed = UINT64_MAX;
  assert_int_equal(
      store_run_set(&r->command, "oware tournament --seed 18446744073709551615 'a b'"), 0);
  r->status = STORE_FAILED; /* ignored: a new run is running */
  for (int i = 0; i < nplayers; i++) {
    char name[32], spec[64];
    snprintf(name, sizeof name, "player-%d", i);
    snprintf(spec, sizeof spec, "minimax:depth=%d,weights=w \"%d\".txt", i + 1, i);
    assert_int_equal(store_run_add_player(r, name, spec), 0);
  }
  assert_int_equal(store_run_add_variant(r, "abapa"), 0);
  assert_int_equal(store_run_add_variant(r, "awari,seeds=5,repetition=2"), 0);
}

static int64_t create_run(store *s, int nplayers) {
  store_run r;
  char err[ERRLEN] = "";
  sample_run(&r, nplayers);
  if (store_run_create(s, &r, err, sizeof err)) fail_msg("store_run_create: %s", err);
  assert_true(r.id > 0);
  int64_t id = r.id;
  store_run_free(&r);
  return id;
}

/* A deterministic pseudo-random generator for the test data. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void) {
  uint64_t x = rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * 0x2545f4914f6cdd1dull;
}

/* Game number `no` of series `series` of run: plausible random fields.
 * moves must hold nmoves+1 bytes. */
static void sample_game(store_game *g, int64_t run, int series, int no, char *moves, int nmoves) {
  static const char letters[] = "ABCDEFabcdef";
  memset(g, 0, sizeof *g);
  g->run_id = run;
  g->series_no = series;
  g->game_no = no;
  g->variant_idx = series % 2;
  g->round = series / 3;
  g->a_idx = 0;
  g->b_idx = 1;
  g->south_idx = no % 2 ? 1 : 0;
  g->north_idx = no % 2 ? 0 : 1;
  /* The opening is a position of the game's variant (abapa; awari,seeds=5,…). */
  snprintf(g->opening, sizeof g->opening, "%s",
           g->variant_idx ? "5-5-5-5-5-5-5-5-5-5-5-5-0-0-S" : "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
  for (int i = 0; i < nmoves; i++) moves[i] = letters[next_rand() % 12];
  moves[nmoves] = '\0';
  g->moves = moves;
  /* A majority end as the rules give it: the winner's store above half the
   * variant's seeds (24 of abapa's 48, 30 of the 60 of 5 seeds a house), the
   * other's what may be left. */
  int total = g->variant_idx ? 60 : 48, half = total / 2;
  g->winner = (int)(next_rand() % 2);
  int won = half + 1 + (int)(next_rand() % (uint64_t)(total - half));
  g->score2[g->winner] = 2 * won;
  g->score2[!g->winner] = 2 * (won % (total - won + 1));
  g->plies = nmoves;
  g->end = OUTCOME_MAJORITY;
  g->seed = next_rand();
  g->seconds = (double)(next_rand() % 100000) / 1000.0;
}

static void insert_ok(store *s, const store_game *g, int n) {
  char err[ERRLEN] = "";
  if (store_games_insert(s, g, n, err, sizeof err)) fail_msg("store_games_insert: %s", err);
}

/* ------------------------------------------------------------------------ */

static void test_create_open_reopen(void **state) {
  (void)state;
  char path[256], err[ERRLEN];
  path_in_tmp(path, sizeof path, "create.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  assert_int_equal(store_games_count(s, 1), 0);
  store_close(s);

  sqlite3 *db;
  assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  assert_int_equal(sql_int(db, "PRAGMA application_id"), STORE_APPLICATION_ID);
  assert_int_equal(sql_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
  assert_int_equal(
      sql_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
                  "('runs', 'players', 'variants', 'series', 'games')"),
      5);
  /* WAL is a property of the file: header bytes 18 and 19 are 2. */
  sqlite3_close(db);
  size_t len;
  unsigned char *bytes = slurp(path, &len);
  assert_true(len >= 100);
  assert_int_equal(bytes[18], 2);
  assert_int_equal(bytes[19], 2);
  free(bytes);

  /* Reopen, with and without create, and the run is still there. */
  s = open_ok(path, 0);
  int64_t id = create_run(s, 2);
  store_close(s);
  s = open_ok(path, 1);
  store_run r;
  if (store_run_load(s, id, &r, err, sizeof err)) fail_msg("store_run_load: %s", err);
  assert_string_equal(r.name, "gauntlet of minimax");
  store_run_free(&r);
  /* Two handles on one file at once. */
  store *s2 = open_ok(path, 0);
  assert_int_equal(store_games_count(s2, id), 0);
  store_close(s2);
  store_close(s);
  remove_db(path);
}

static void test_run_roundtrip(void **state) {
  (void)state;
  char path[256], err[ERRLEN];
  path_in_tmp(path, sizeof path, "run.db");
  remove_db(path);
  store *s = open_ok(path, 1);

  store_run in, out;
  sample_run(&in, STORE_MAX_PLAYERS);
  /* Long strings (schema 4 cut the command line at 2048 bytes), quotes and
   * non-ASCII text survive whole. */
  free(in.name);
  in.name = malloc(5001);
  memset(in.name, 'n', 5000);
  in.name[5000] = '\0';
  free(in.command);
  in.command = malloc(100001);
  memset(in.command, 'c', 100000);
  in.command[100000] = '\0';
  assert_int_equal(store_run_set(&in.player_name[5], "O'Brien \"ö\" ; DROP TABLE runs"), 0);
  for (int i = 2; i < STORE_MAX_VARIANTS; i++) {
    char v[32];
    snprintf(v, sizeof v, "abapa,seeds=%d", i + 1);
    assert_int_equal(store_run_add_variant(&in, v), 0);
  }
  char before[32];
  time_t t0 = time(NULL);
  if (store_run_create(s, &in, err, sizeof err)) fail_msg("store_run_create: %s", err);
  assert_int_equal(in.id, 1);
  assert_int_equal(in.status, STORE_RUNNING);
  assert_string_equal(in.finished, "");
  /* started is ISO 8601 UTC, now. */
  struct tm tm;
  gmtime_r(&t0, &tm);
  strftime(before, sizeof before, "%Y-%m-%dT", &tm);
  assert_int_equal(strlen(in.started), 20);
  assert_int_equal(strncmp(in.started, before, strlen(before)), 0);
  assert_int_equal(in.started[19], 'Z');

  if (store_run_load(s, in.id, &out, err, sizeof err)) fail_msg("store_run_load: %s", err);
  assert_int_equal(out.id, in.id);
  assert_string_equal(out.name, in.name);
  assert_int_equal(out.kind, STORE_GAUNTLET);
  assert_string_equal(out.format, in.format);
  assert_string_equal(out.openings, in.openings);
  assert_int_equal(out.rounds, in.rounds);
  assert_int_equal(out.threads, in.threads);
  assert_true(out.seed == UINT64_MAX);
  assert_int_equal(strlen(out.command), 100000);
  assert_string_equal(out.command, in.command);
  assert_int_equal(strlen(out.name), 5000);
  assert_int_equal(out.status, STORE_RUNNING);
  assert_string_equal(out.started, in.started);
  assert_string_equal(out.finished, "");
  assert_int_equal(out.nplayers, STORE_MAX_PLAYERS);
  for (int i = 0; i < out.nplayers; i++) {
    assert_string_equal(out.player_name[i], in.player_name[i]);
    assert_string_equal(out.player_spec[i], in.player_spec[i]);
  }
  assert_int_equal(out.nvariants, STORE_MAX_VARIANTS);
  for (int i = 0; i < out.nvariants; i++) assert_string_equal(out.variant[i], in.variant[i]);
  store_run_free(&in);
  store_run_free(&out);

  /* Other seeds at the edges. */
  const uint64_t seeds[] = {0, 1, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX - 1};
  for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
    sample_run(&in, 2);
    in.seed = seeds[i];
    if (store_run_create(s, &in, err, sizeof err)) fail_msg("store_run_create: %s", err);
    if (store_run_load(s, in.id, &out, err, sizeof err)) fail_msg("store_run_load: %s", err);
    assert_true(out.seed == seeds[i]);
    store_run_free(&in);
    store_run_free(&out);
  }
  store_close(s);

  /* The seed is the decimal text, readable in the sqlite3 shell. */
  sqlite3 *db;
  assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  sqlite3_stmt *st;
  assert_int_equal(sqlite3_prepare_v2(db, "SELECT seed, typeof(seed) FROM runs WHERE id = 1", -1,
                                      &st, NULL),
                   SQLITE_OK);
  assert_int_equal(sqlite3_step(st), SQLITE_ROW);
  assert_string_equal((const char *)sqlite3_column_text(st, 0), "18446744073709551615");
  assert_string_equal((const char *)sqlite3_column_text(st, 1), "text");
  sqlite3_finalize(st);
  sqlite3_close(db);

  /* Missing runs and too many players. */
  s = open_ok(path, 0);
  err[0] = '\0';
  assert_int_equal(store_run_load(s, 999, &out, err, sizeof err), -1);
  assert_string_equal(err, "store: no run 999");
  sample_run(&in, 2);
  in.nplayers = STORE_MAX_PLAYERS + 1;
  assert_int_equal(store_run_create(s, &in, err, sizeof err), -1);
  expect_contains(err, "players");
  in.nplayers = 2;
  store_run_free(&in);
  store_close(s);
  remove_db(path);
}

/* Collects games from store_games_foreach. */
typedef struct collected {
  int n, stop_after;
  store_game g[64];
  char moves[64][1001];
  char records[64][256];
} collected;

static int collect(void *ctx, const store_game *g) {
  collected *c = ctx;
  assert_true(c->n < 64);
  c->g[c->n] = *g;
  assert_non_null(g->moves);
  assert_true(strlen(g->moves) <= 1000);
  strcpy(c->moves[c->n], g->moves);
  c->g[c->n].moves = c->moves[c->n];
  if (g->records) {
    assert_true(strlen(g->records) < sizeof c->records[0]);
    strcpy(c->records[c->n], g->records);
    c->g[c->n].records = c->records[c->n];
  }
  c->n++;
  return c->stop_after && c->n >= c->stop_after;
}

static void assert_game_equal(const store_game *a, const store_game *b) {
  assert_true(a->run_id == b->run_id);
  assert_int_equal(a->series_no, b->series_no);
  assert_int_equal(a->game_no, b->game_no);
  assert_int_equal(a->variant_idx, b->variant_idx);
  assert_int_equal(a->round, b->round);
  assert_int_equal(a->a_idx, b->a_idx);
  assert_int_equal(a->b_idx, b->b_idx);
  assert_int_equal(a->south_idx, b->south_idx);
  assert_int_equal(a->north_idx, b->north_idx);
  assert_string_equal(a->opening, b->opening);
  assert_string_equal(a->moves, b->moves);
  assert_int_equal(a->winner, b->winner);
  assert_int_equal(a->score2[0], b->score2[0]);
  assert_int_equal(a->score2[1], b->score2[1]);
  assert_int_equal(a->plies, b->plies);
  assert_int_equal(a->end, b->end);
  assert_string_equal(a->detail, b->detail);
  assert_true(a->seed == b->seed);
  assert_true(a->seconds == b->seconds);
  assert_int_equal(!a->records, !b->records);
  if (a->records) assert_string_equal(a->records, b->records);
}

static void test_games_roundtrip(void **state) {
  (void)state;
  char path[256], err[ERRLEN];
  path_in_tmp(path, sizeof path, "games.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  int64_t run = create_run(s, 3);

  static char moves[4][1001];
  store_game in[4];
  sample_game(&in[0], run, 0, 0, moves[0], 0);
  in[0].plies = 0;
  in[0].score2[0] = 47; /* 23.5 - 24.5 under cycle=split */
  in[0].score2[1] = 49;
  in[0].winner = 1;
  in[0].end = OUTCOME_REPETITION;
  in[0].seed = UINT64_MAX;
  in[0].seconds = 0.1;
  sample_game(&in[1], run, 0, 1, moves[1], 1000);
  snprintf(in[1].opening, sizeof in[1].opening, "0-1-2-3-4-5-6-7-8-9-3-0-0-0-N");
  in[1].end = OUTCOME_FORFEIT_ILLEGAL;
  snprintf(in[1].detail, sizeof in[1].detail, "played 'G' in 4-4-4-… (not a legal move)");
  in[1].seed = 0;
  in[1].winner = -1;
  in[1].score2[0] = 1;
  in[1].score2[1] = 95;
  sample_game(&in[2], run, 1, 0, moves[2], 1);
  in[2].south_idx = 2;
  in[2].north_idx = 0;
  in[2].a_idx = 0;
  in[2].b_idx = 2;
  in[2].seconds = 1234.5678901234;
  in[2].records = "1234/-35/7"; /* schema 8: each move's ms, score and depth */
  sample_game(&in[3], run, 2, 0, moves[3], 123);
  in[3].score2[0] = 0;
  in[3].score2[1] = 96;
  in[3].winner = 1;
  insert_ok(s, in, 4);
  assert_int_equal(store_games_count(s, run), 4);
  assert_int_equal(store_games_count(s, run + 1), 0);

  collected *c = calloc(1, sizeof *c);
  assert_non_null(c);
  if (store_games_foreach(s, run, collect, c, err, sizeof err)) fail_msg("foreach: %s", err);
  assert_int_equal(c->n, 4);
  for (int i = 0; i < 4; i++) assert_game_equal(&c->g[i], &in[i]);
  assert_int_equal(strlen(c->g[0].moves), 0);
  assert_int_equal(strlen(c->g[1].moves), 1000);
  assert_int_equal(strlen(c->g[2].moves), 1);
  move_record *rec;
  assert_int_equal(store_game_records(&c->g[2], &rec, err, sizeof err), 1);
  assert_true(rec[0].ms == 1234 && rec[0].score == -35 && rec[0].depth == 7);
  free(rec);
  assert_int_equal(store_game_records(&c->g[1], &rec, err, sizeof err), 0); /* none recorded */
  assert_null(rec);
  free(c);

  /* Scores are REAL halves in the database. */
  sqlite3 *db;
  assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM games WHERE series_no = 0 AND game_no = 0 AND "
                               "score_south = 23.5 AND score_north = 24.5 AND "
                               "typeof(score_south) = 'real'"),
                   1);
  assert_int_equal(
      sql_int(db, "SELECT count(*) FROM games WHERE seed = '18446744073709551615'"), 1);
  sqlite3_close(db);

  /* A batch of none is nothing; a game of a player the run does not have
   * is refused. */
  insert_ok(s, in, 0);
  store_game bad;
  char m[8];
  sample_game(&bad, run, 5, 0, m, 5);
  bad.south_idx = bad.a_idx = 7;
  assert_int_equal(store_games_insert(s, &bad, 1, err, sizeof err), -1);
  printf("  %s\n", err);
  expect_contains(err, "game 0 of series 5 of run 1");
  expect_contains(err, "FOREIGN KEY");
  sample_game(&bad, run + 10, 5, 0, m, 5);
  assert_int_equal(store_games_insert(s, &bad, 1, err, sizeof err), -1);
  expect_contains(err, "no such run");
  sample_game(&bad, run, 5, 0, m, 5);
  bad.winner = 2;
  assert_int_equal(store_games_insert(s, &bad, 1, err, sizeof err), -1);
  expect_contains(err, "CHECK constraint");
  assert_int_equal(store_games_count(s, run), 4);

  /* A series summary, then its replacement. */
  store_series sr = {run, 0, 0, 0, 0, 1, 2, 1, 0, 1, 0};
  if (store_series_finish(s, &sr, err, sizeof err)) fail_msg("series: %s", err);
  sr.games = 3;
  sr.wins_b = 1;
  sr.winner = -1;
  if (store_series_finish(s, &sr, err, sizeof err)) fail_msg("series: %s", err);
  sr.wins_a = 5; /* wins + draws != games */
  assert_int_equal(store_series_finish(s, &sr, err, sizeof err), -1);
  expect_contains(err, "series 0 of run 1");
  store_close(s);
  assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM series"), 1);
  assert_int_equal(sql_int(db, "SELECT games * 100 + wins_a * 10 + wins_b FROM series"), 311);
  assert_int_equal(sql_int(db, "SELECT winner FROM series"), -1);
  sqlite3_close(db);
  remove_db(path);
}

static void test_duplicate_game(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "dup.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  int64_t run = create_run(s, 2);
  static char moves[10][101];
  store_game g[10];
  for (int i = 0; i < 5; i++) sample_game(&g[i], run, 3, i, moves[i], 100);
  insert_ok(s, g, 5);

  /* Five new games, then one already stored: none of the batch is written. */
  for (int i = 5; i < 10; i++) sample_game(&g[i], run, 4, i - 5, moves[i], 100);
  store_game batch[6];
  memcpy(batch, &g[5], 5 * sizeof g[0]);
  batch[5] = g[2];
  assert_int_equal(store_games_insert(s, batch, 6, err, sizeof err), -1);
  printf("  %s\n", err);
  expect_contains(err, "game 2 of series 3 of run 1 is already stored");
  assert_int_equal(store_games_count(s, run), 5);

  /* A duplicate inside one batch. */
  batch[5] = batch[1];
  assert_int_equal(store_games_insert(s, batch, 6, err, sizeof err), -1);
  expect_contains(err, "game 1 of series 4 of run 1 is already stored");
  assert_int_equal(store_games_count(s, run), 5);

  /* The store still works after a failed batch. */
  insert_ok(s, batch, 5);
  assert_int_equal(store_games_count(s, run), 10);
  store_close(s);
  remove_db(path);
}

static void test_foreach_order_and_stop(void **state) {
  (void)state;
  char path[256], err[ERRLEN];
  path_in_tmp(path, sizeof path, "order.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  int64_t run1 = create_run(s, 2), run2 = create_run(s, 2);
  /* Inserted in a scrambled order, over two runs. */
  static char moves[40][21];
  store_game g[40];
  int k = 0;
  for (int series = 9; series >= 0; series -= 3)
    for (int no = 0; no < 4; no++) {
      int game_no = (no * 3) % 4; /* 0 3 2 1 */
      sample_game(&g[k], k % 2 ? run1 : run2, series, game_no, moves[k], 20);
      k++;
    }
  insert_ok(s, g, k);
  for (int i = 0; i < k; i++) g[i].run_id = run1;
  for (int i = 0; i < k; i++) g[i].game_no += 10;
  insert_ok(s, g, k);
  assert_int_equal(store_games_count(s, run1), 8 + 16);
  assert_int_equal(store_games_count(s, run2), 8);

  collected *c = calloc(1, sizeof *c);
  assert_non_null(c);
  if (store_games_foreach(s, run1, collect, c, err, sizeof err)) fail_msg("foreach: %s", err);
  assert_int_equal(c->n, 24);
  for (int i = 0; i < c->n; i++) {
    assert_true(c->g[i].run_id == run1);
    if (i) {
      int prev = c->g[i - 1].series_no * 1000 + c->g[i - 1].game_no;
      assert_true(prev < c->g[i].series_no * 1000 + c->g[i].game_no);
    }
  }
  /* Early stop: fn returns non-zero after the third game. */
  memset(c, 0, sizeof *c);
  c->stop_after = 3;
  assert_int_equal(store_games_foreach(s, run2, collect, c, err, sizeof err), 0);
  assert_int_equal(c->n, 3);
  assert_int_equal(c->g[0].series_no, 0);
  assert_int_equal(c->g[0].game_no, 0);
  assert_int_equal(c->g[1].series_no, 0);
  assert_int_equal(c->g[1].game_no, 2);
  assert_int_equal(c->g[2].series_no, 3);
  /* No games: no call. */
  memset(c, 0, sizeof *c);
  assert_int_equal(store_games_foreach(s, 77, collect, c, err, sizeof err), 0);
  assert_int_equal(c->n, 0);
  free(c);
  store_close(s);
  remove_db(path);
}

typedef struct run_list {
  int n, stop_after;
  int64_t id[16];
  int nplayers[16];
} run_list;

static int list_run(void *ctx, const store_run *r) {
  run_list *l = ctx;
  assert_true(l->n < 16);
  l->nplayers[l->n] = r->nplayers;
  l->id[l->n++] = r->id;
  return l->stop_after && l->n >= l->stop_after;
}

static void test_status_and_runs(void **state) {
  (void)state;
  char path[256], err[ERRLEN];
  path_in_tmp(path, sizeof path, "status.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  int64_t a = create_run(s, 2), b = create_run(s, 3), c = create_run(s, 4);
  store_run r;

  if (store_run_status(s, b, STORE_FINISHED, err, sizeof err)) fail_msg("status: %s", err);
  if (store_run_load(s, b, &r, err, sizeof err)) fail_msg("load: %s", err);
  assert_int_equal(r.status, STORE_FINISHED);
  assert_int_equal(strlen(r.finished), 20);
  assert_true(strcmp(r.finished, r.started) >= 0);
  store_run_free(&r);
  if (store_run_load(s, a, &r, err, sizeof err)) fail_msg("load: %s", err);
  assert_int_equal(r.status, STORE_RUNNING);
  assert_string_equal(r.finished, "");
  store_run_free(&r);

  /* Interrupted, then resumed (finished is cleared), then failed. */
  if (store_run_status(s, c, STORE_INTERRUPTED, err, sizeof err)) fail_msg("status: %s", err);
  if (store_run_load(s, c, &r, err, sizeof err)) fail_msg("load: %s", err);
  assert_int_equal(r.status, STORE_INTERRUPTED);
  assert_int_not_equal(r.finished[0], '\0');
  store_run_free(&r);
  if (store_run_status(s, c, STORE_RUNNING, err, sizeof err)) fail_msg("status: %s", err);
  if (store_run_load(s, c, &r, err, sizeof err)) fail_msg("load: %s", err);
  assert_int_equal(r.status, STORE_RUNNING);
  assert_string_equal(r.finished, "");
  store_run_free(&r);
  if (store_run_status(s, c, STORE_FAILED, err, sizeof err)) fail_msg("status: %s", err);

  assert_int_equal(store_run_status(s, a, (store_status)9, err, sizeof err), -1);
  expect_contains(err, "unknown run status");
  assert_int_equal(store_run_status(s, 42, STORE_FINISHED, err, sizeof err), -1);
  assert_string_equal(err, "store: no run 42");

  /* Newest first, with their players; early stop. */
  run_list l = {0};
  if (store_runs_foreach(s, list_run, &l, err, sizeof err)) fail_msg("runs: %s", err);
  assert_int_equal(l.n, 3);
  assert_true(l.id[0] == c && l.id[1] == b && l.id[2] == a);
  assert_int_equal(l.nplayers[0], 4);
  assert_int_equal(l.nplayers[2], 2);
  memset(&l, 0, sizeof l);
  l.stop_after = 1;
  assert_int_equal(store_runs_foreach(s, list_run, &l, err, sizeof err), 0);
  assert_int_equal(l.n, 1);
  store_close(s);
  remove_db(path);
}

static void test_foreign_database(void **state) {
  (void)state;
  char path[256], wal[300];
  path_in_tmp(path, sizeof path, "foreign.db");
  remove_db(path);
  snprintf(wal, sizeof wal, "%s-wal", path);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sql_exec(db, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);"
               "INSERT INTO notes (text) VALUES ('mine, not oware''s');");
  sqlite3_close(db);
  size_t n1, n2;
  unsigned char *before = slurp(path, &n1);
  open_bad(path, 1, "not an oware database (application id 0x00000000)", path);
  open_bad(path, 0, "not an oware database", path);
  unsigned char *after = slurp(path, &n2);
  assert_int_equal(n1, n2);
  assert_memory_equal(before, after, n1);
  assert_false(file_exists(wal));
  free(before);
  free(after);

  /* Another program's application id, even with no table. */
  remove_db(path);
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sql_exec(db, "PRAGMA application_id = 305419896"); /* 0x12345678 */
  sqlite3_close(db);
  before = slurp(path, &n1);
  open_bad(path, 1, "not an oware database (application id 0x12345678)", path);
  after = slurp(path, &n2);
  assert_int_equal(n1, n2);
  assert_memory_equal(before, after, n1);
  free(before);
  free(after);
  remove_db(path);
}

static void test_newer_schema(void **state) {
  (void)state;
  char path[256];
  path_in_tmp(path, sizeof path, "newer.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  create_run(s, 2);
  store_close(s);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sql_exec(db, "PRAGMA user_version = 99");
  sqlite3_close(db);
  size_t n1, n2;
  unsigned char *before = slurp(path, &n1);
  char want[96];
  snprintf(want, sizeof want, "written by a newer oware (schema 99, this one reads %d)",
           STORE_SCHEMA_VERSION);
  open_bad(path, 1, want, path);
  unsigned char *after = slurp(path, &n2);
  assert_int_equal(n1, n2);
  assert_memory_equal(before, after, n1);
  free(before);
  free(after);

  /* Our id with no schema version at all. */
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sql_exec(db, "PRAGMA user_version = 0");
  sqlite3_close(db);
  open_bad(path, 1, "without a schema version", path);
  remove_db(path);
}

static void test_not_sqlite(void **state) {
  (void)state;
  char path[256];
  path_in_tmp(path, sizeof path, "text.db");
  remove_db(path);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  for (int i = 0; i < 100; i++) fprintf(f, "This is a text file, line %d, not a database.\n", i);
  fclose(f);
  size_t n1, n2;
  unsigned char *before = slurp(path, &n1);
  open_bad(path, 1, "not an SQLite database", path);
  open_bad(path, 0, "not an SQLite database", path);
  unsigned char *after = slurp(path, &n2);
  assert_int_equal(n1, n2);
  assert_memory_equal(before, after, n1);
  free(before);
  free(after);

  /* A short text file (less than a database header). */
  f = fopen(path, "w");
  assert_non_null(f);
  fputs("hello\n", f);
  fclose(f);
  open_bad(path, 1, "not an SQLite database", path);
  remove_db(path);

  /* An empty file: a new database when create is set, else refused. */
  f = fopen(path, "w");
  assert_non_null(f);
  fclose(f);
  open_bad(path, 0, "empty database", path);
  store *s = open_ok(path, 1);
  store_close(s);
  remove_db(path);
}

/* In a child running as an unprivileged user (root ignores permissions),
 * or directly when not root: store_open must refuse path. */
static void refuse_unprivileged(const char *path, int create, const char *part) {
  if (geteuid() != 0) {
    open_bad(path, create, part, path);
    return;
  }
  fflush(stdout);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    if (setgid(65534) || setuid(65534)) _exit(3);
    store *s = NULL;
    char err[ERRLEN] = "";
    int rc = store_open(path, create, &s, err, sizeof err);
    printf("  (as uid 65534) store_open(%s): %s\n", path, err);
    fflush(stdout);
    _exit(rc == -1 && !s && strstr(err, part) && strstr(err, path) ? 0 : 1);
  }
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  if (WEXITSTATUS(status) == 3) {
    printf("  cannot drop root privileges: read-only checks skipped\n");
    return;
  }
  assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_unwritable(void **state) {
  (void)state;
  char dir[256], path[300];
  open_bad("/nonexistent/dir/x.db", 1, "cannot open /nonexistent/dir/x.db", NULL);
  open_bad("/nonexistent/dir/x.db", 0, "/nonexistent/dir/x.db", NULL);

  /* A read-only directory: no new database in it... */
  path_in_tmp(dir, sizeof dir, "ro");
  assert_int_equal(mkdir(dir, 0755), 0);
  snprintf(path, sizeof path, "%s/x.db", dir);
  assert_int_equal(chmod(tmpdir, 0755), 0);
  assert_int_equal(chmod(dir, 0555), 0);
  refuse_unprivileged(path, 1, "cannot create");
  assert_false(file_exists(path));

  /* ...nor the use of one already there for writing (WAL needs -wal and
   * -shm files), which says the folder is why. */
  assert_int_equal(chmod(dir, 0755), 0);
  store *s = open_ok(path, 1);
  store_close(s);
  assert_int_equal(chmod(path, 0666), 0);
  assert_int_equal(chmod(dir, 0555), 0);
  refuse_unprivileged(path, 0, "is read-only (writing makes");

  /* A read-only file in a writable directory. */
  assert_int_equal(chmod(dir, 0777), 0);
  assert_int_equal(chmod(path, 0444), 0);
  refuse_unprivileged(path, 1, "read-only");

  assert_int_equal(chmod(dir, 0755), 0);
  assert_int_equal(chmod(tmpdir, 0700), 0);
  remove_db(path);
  assert_int_equal(rmdir(dir), 0);
}

static void test_create0_missing(void **state) {
  (void)state;
  char path[256];
  path_in_tmp(path, sizeof path, "missing.db");
  remove_db(path);
  open_bad(path, 0, "cannot open", path);
  assert_false(file_exists(path));
}

/* Games of batch b (batch games each) of a kill test. */
static void kill_batch(store_game *g, int64_t run, int b, int batch, char (*moves)[101]) {
  for (int i = 0; i < batch; i++) sample_game(&g[i], run, b, i, moves[i], 100);
}

/* The WAL of the kill test, and the size past which the timer kills. */
static char kill_wal[300];
static off_t kill_wal_size;

/* Every millisecond while the big batch is written: once the WAL has grown
 * by a megabyte (uncommitted pages spilled from the cache, so the file
 * holds part of a transaction), die. stat and raise are signal-safe. */
static void on_alarm(int sig) {
  struct stat st;
  (void)sig;
  if (stat(kill_wal, &st) == 0 && st.st_size > kill_wal_size + (1 << 20)) raise(SIGKILL);
}

/* A child that stores `done` batches of `batch` games, then dies by SIGKILL:
 * at once (big == 0) or in the middle of a batch of big games. */
static void kill_child(const char *path, int done, int batch, int big) {
  store *s = NULL;
  char err[ERRLEN];
  static char moves[20000][101];
  static store_game g[20000];
  if (store_open(path, 0, &s, err, sizeof err)) _exit(2);
  for (int b = 0; b < done; b++) {
    kill_batch(g, 1, b, batch, moves);
    if (store_games_insert(s, g, batch, err, sizeof err)) _exit(2);
  }
  if (!big) raise(SIGKILL);
  struct stat st;
  snprintf(kill_wal, sizeof kill_wal, "%s-wal", path);
  if (stat(kill_wal, &st)) _exit(2);
  kill_wal_size = st.st_size;
  kill_batch(g, 1, done, big, moves);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGALRM, &sa, NULL)) _exit(2);
  struct itimerval t = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_REAL, &t, NULL);
  store_games_insert(s, g, big, err, sizeof err);
  _exit(4); /* the batch finished before the timer: the test proves nothing */
}

static void kill_case(int done, int batch, int big) {
  char path[256];
  path_in_tmp(path, sizeof path, "kill.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  int64_t run = create_run(s, 2);
  assert_int_equal(run, 1);
  store_close(s);

  fflush(stdout);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) kill_child(path, done, batch, big);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (WIFEXITED(status)) fail_msg("child exited with %d instead of dying", WEXITSTATUS(status));
  assert_true(WIFSIGNALED(status));
  assert_int_equal(WTERMSIG(status), SIGKILL);

  /* The WAL the child left behind holds its commits, and only those. */
  char wal[300];
  snprintf(wal, sizeof wal, "%s-wal", path);
  assert_true(file_exists(wal));
  struct stat ws;
  assert_int_equal(stat(wal, &ws), 0);
  s = open_ok(path, 0);
  long long n = store_games_count(s, run);
  printf("  killed after %d batches of %d%s: WAL of %lld bytes, %lld games stored\n", done,
         batch, big ? " and inside a batch of 20000" : "", (long long)ws.st_size, n);
  assert_int_equal(n, (long long)done * batch);
  /* The run goes on where it stopped. */
  static char moves[100][101];
  store_game next[100];
  kill_batch(next, run, done, 100, moves);
  insert_ok(s, next, 100);
  assert_int_equal(store_games_count(s, run), n + 100);
  store_close(s);
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sqlite3_stmt *st;
  assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
  assert_int_equal(sqlite3_step(st), SQLITE_ROW);
  assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
  sqlite3_finalize(st);
  assert_int_equal(sql_int(db, "SELECT count(DISTINCT series_no) FROM games"), done + 1);
  sqlite3_close(db);
  remove_db(path);
}

/* Settings, positions and files are stored with the run, in its transaction. */
static void test_settings_openings_files(void **state) {
  (void)state;
  char path[256], wpath[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "config.db");
  path_in_tmp(wpath, sizeof wpath, "w.txt");
  remove_db(path);
  FILE *f = fopen(wpath, "w");
  assert_non_null(f);
  fputs("store 100\nseeds 3\n", f);
  fclose(f);
  store *s = open_ok(path, 1);
  store_run in;
  sample_run(&in, 2);
  assert_int_equal(store_config_set_text(&in, "sprt", "elo0=0,elo1=5"), 0);
  assert_int_equal(store_config_set_int(&in, "iterations", 30), 0);
  assert_int_equal(store_config_set_int(&in, "big", -9007199254740993LL), 0);
  assert_int_equal(store_config_set_real(&in, "c-end", 0.1), 0);
  assert_int_equal(store_config_set_int(&in, "iterations", 31), 0); /* replaces */
  assert_int_equal(store_run_add_position(&in, "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N"), 0);
  assert_int_equal(store_run_add_position(&in, "5-5-5-4-4-0-5-5-5-0-5-5-0-0-S"), 0);
  assert_int_equal(store_run_add_file(&in, wpath, err, sizeof err), 0);
  assert_int_equal(store_run_add_file(&in, wpath, err, sizeof err), 0); /* once */
  assert_int_equal(in.nfiles, 1);
  assert_int_equal(store_run_add_file(&in, "/nonexistent/w.txt", err, sizeof err), -1);
  expect_contains(err, "cannot read /nonexistent/w.txt");
  if (store_run_create(s, &in, err, sizeof err)) fail_msg("store_run_create: %s", err);

  store_run out;
  if (store_run_load(s, in.id, &out, err, sizeof err)) fail_msg("store_run_load: %s", err);
  const char *text = NULL;
  long long i = 0;
  double x = 0;
  assert_int_equal(store_config_get_text(&out, "sprt", &text, err, sizeof err), 0);
  assert_string_equal(text, "elo0=0,elo1=5");
  assert_int_equal(store_config_get_int(&out, "iterations", &i, err, sizeof err), 0);
  assert_int_equal(i, 31);
  assert_int_equal(store_config_get_int(&out, "big", &i, err, sizeof err), 0);
  assert_true(i == -9007199254740993LL);
  assert_int_equal(store_config_get_real(&out, "c-end", &x, err, sizeof err), 0);
  assert_true(x == 0.1);
  /* Not set is not an error; another type is. */
  i = 77;
  assert_int_equal(store_config_get_int(&out, "pairs", &i, err, sizeof err), 1);
  assert_int_equal(i, 77);
  assert_int_equal(store_config_get_int(&out, "sprt", &i, err, sizeof err), -1);
  expect_contains(err, "setting 'sprt' is text, not integer");
  assert_int_equal(store_run_resumable(&out, err, sizeof err), 0);
  store_run_free(&out);
  store_run_free(&in);

  char **pos = NULL;
  int n = 0;
  if (store_run_openings(s, 1, &pos, &n, err, sizeof err)) fail_msg("openings: %s", err);
  assert_int_equal(n, 2);
  assert_string_equal(pos[1], "5-5-5-4-4-0-5-5-5-0-5-5-0-0-S");
  store_strings_free(pos, n);

  /* The weights file: kept whole; a change is found and named. */
  unsigned char *data = NULL;
  size_t len = 0;
  assert_int_equal(store_run_file(s, 1, wpath, &data, &len, err, sizeof err), 0);
  assert_int_equal(len, 18);
  assert_memory_equal(data, "store 100\nseeds 3\n", 18);
  free(data);
  assert_int_equal(store_run_file(s, 1, "other.txt", &data, &len, err, sizeof err), 1);
  if (store_run_files_check(s, 1, err, sizeof err)) fail_msg("files_check: %s", err);
  f = fopen(wpath, "w");
  assert_non_null(f);
  fputs("store 101\nseeds 3\n", f);
  fclose(f);
  assert_int_equal(store_run_files_check(s, 1, err, sizeof err), -1);
  printf("  %s\n", err);
  expect_contains(err, "run 1: ");
  expect_contains(err, "w.txt has changed since the run started");
  unlink(wpath);
  assert_int_equal(store_run_files_check(s, 1, err, sizeof err), -1);
  expect_contains(err, "cannot read");
  store_close(s);

  /* A setting of an unknown type in the file is an error naming it. */
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sql_exec(db, "UPDATE run_config SET type = 'blob' WHERE key = 'iterations'");
  sqlite3_close(db);
  s = open_ok(path, 0);
  assert_int_equal(store_run_load(s, 1, &out, err, sizeof err), -1);
  expect_contains(err, "run 1: setting 'iterations' has a bad type or value");
  store_close(s);
  remove_db(path);
}

/* A batch of games and the series rows it finishes is one transaction. */
static void test_commit_with_series(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "commit.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  int64_t run = create_run(s, 2);
  static char moves[4][16];
  store_game g[2];
  sample_game(&g[0], run, 0, 0, moves[0], 5);
  sample_game(&g[1], run, 0, 1, moves[1], 5);
  store_series sr = {run, 0, 0, 0, 0, 1, 2, 1, 0, 1, 0};
  /* A bad series row (no variant 9) takes its games down with it. */
  sr.variant_idx = 9;
  assert_int_equal(store_commit(s, g, 2, &sr, 1, err, sizeof err), -1);
  printf("  %s\n", err);
  expect_contains(err, "series 0 of run 1");
  assert_int_equal(store_games_count(s, run), 0);
  sr.variant_idx = 0;
  if (store_commit(s, g, 2, &sr, 1, err, sizeof err)) fail_msg("commit: %s", err);
  assert_int_equal(store_games_count(s, run), 2);
  store_close(s);
  sqlite3 *db;
  assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM series WHERE run_id = 1 AND games = 2"), 1);
  sqlite3_close(db);

  /* A process killed between the commit of a series' last game and its
   * series row cannot lose the row: they are one commit. The child
   * commits and is killed at once; the parent finds both or neither. */
  s = open_ok(path, 0);
  int64_t run2 = create_run(s, 2);
  store_close(s);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    store *c = NULL;
    char e[ERRLEN];
    if (store_open(path, 0, &c, e, sizeof e)) _exit(2);
    store_game h[2];
    char mv[2][16];
    sample_game(&h[0], run2, 0, 0, mv[0], 5);
    sample_game(&h[1], run2, 0, 1, mv[1], 5);
    store_series r2 = {run2, 0, 0, 0, 0, 1, 2, 1, 0, 1, 0};
    if (store_commit(c, h, 2, &r2, 1, e, sizeof e)) _exit(3);
    raise(SIGKILL);
    _exit(4);
  }
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM games WHERE run_id = 2"), 2);
  assert_int_equal(sql_int(db, "SELECT count(*) FROM series WHERE run_id = 2"), 1);
  sqlite3_close(db);
  remove_db(path);
}

/* The run lock: a second process is refused at once while the first lives,
 * and takes the lock over once it is dead. */
static void test_run_lock(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "lock.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  int64_t run = create_run(s, 2);
  assert_int_equal(store_run_lock(s, run, err, sizeof err), 0);
  assert_int_equal(store_run_lock(s, run, err, sizeof err), 0); /* ours already */
  assert_int_equal(store_run_unlock(s, run, err, sizeof err), 0);
  assert_int_equal(store_run_lock(s, 99, err, sizeof err), -1);
  expect_contains(err, "no run 99");
  store_close(s);

  int up[2], down[2];
  assert_int_equal(pipe(up), 0);
  assert_int_equal(pipe(down), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) { /* holds the lock until told, then dies without unlocking */
    store *c = NULL;
    char e[ERRLEN], b = 0;
    if (store_open(path, 0, &c, e, sizeof e) || store_run_lock(c, run, e, sizeof e)) _exit(2);
    if (write(up[1], "L", 1) != 1 || read(down[0], &b, 1) != 1) _exit(3);
    _exit(0);
  }
  char b = 0;
  assert_int_equal(read(up[0], &b, 1), 1);
  s = open_ok(path, 0);
  assert_int_equal(store_run_lock(s, run, err, sizeof err), 1);
  printf("  %s\n", err);
  char who[64];
  snprintf(who, sizeof who, "run %lld is being played by pid %d on host ", (long long)run,
           (int)pid);
  expect_contains(err, who);
  expect_contains(err, " since 20");
  assert_int_equal(write(down[1], "x", 1), 1);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  /* The owner is dead: taken over. */
  if (store_run_lock(s, run, err, sizeof err)) fail_msg("lock: %s", err);
  /* A lock of another host is held. */
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  sql_exec(db, "UPDATE run_locks SET host = 'elsewhere', pid = 1");
  sqlite3_close(db);
  assert_int_equal(store_run_lock(s, run, err, sizeof err), 1);
  expect_contains(err, "on host elsewhere");
  store_close(s);
  close(up[0]);
  close(up[1]);
  close(down[0]);
  close(down[1]);
  remove_db(path);
}

static int count_games(void *ctx, const store_game *g) {
  (void)g;
  (*(int *)ctx)++;
  return 0;
}

/* A malformed row read back is an error that names it. */
static void test_bad_rows(void **state) {
  (void)state;
  char path[256], err[ERRLEN] = "";
  path_in_tmp(path, sizeof path, "bad.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  int64_t run = create_run(s, 2);
  static char moves[3][16];
  store_game g[3];
  for (int i = 0; i < 3; i++) sample_game(&g[i], run, 2, i, moves[i], 5);
  insert_ok(s, g, 3);
  store_close(s);
  static const struct {
    const char *sql, *message;
  } cases[] = {
      {"PRAGMA foreign_keys=OFF; UPDATE games SET variant_idx = 40 WHERE game_no = 1",
       "run 1 game 1 (series 2): variant_idx 40 out of range 0..1"},
      {"PRAGMA foreign_keys=OFF; UPDATE games SET south_idx = 5000, a_idx = 5000 WHERE game_no = 2",
       "run 1 game 2 (series 2): a_idx 5000 out of range 0..1"},
      {"UPDATE games SET end_reason = 'resigned' WHERE game_no = 0",
       "run 1 game 0 (series 2): unknown end reason 'resigned'"},
      {"UPDATE games SET seed = 'x' WHERE game_no = 0",
       "run 1 game 0 (series 2): seed 'x' is not a decimal seed"},
      {"UPDATE games SET move_records = '1/2/3 4/5/6' WHERE game_no = 1",
       "run 1 game 1 (series 2): moves' records: 2 records where the game has 5 moves"},
      {"UPDATE games SET move_records = '1/2/3 4/5/6 7/x/8 1/1/1 2/2/2' WHERE game_no = 2",
       "run 1 game 2 (series 2): moves' records: move 3: '7/x/8' is not MS/SCORE/DEPTH"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char copy[300];
    snprintf(copy, sizeof copy, "%s.%zu", path, k);
    remove_db(copy);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char vac[400];
    snprintf(vac, sizeof vac, "VACUUM INTO '%s'", copy);
    sql_exec(db, vac);
    sqlite3_close(db);
    assert_int_equal(sqlite3_open(copy, &db), SQLITE_OK);
    sql_exec(db, cases[k].sql);
    sqlite3_close(db);
    s = open_ok(copy, 0);
    int n = 0;
    assert_int_equal(store_games_foreach(s, run, count_games, &n, err, sizeof err), -1);
    printf("  %s\n", err);
    expect_contains(err, cases[k].message);
    /* The aggregate for rating reads every row through the same check (it
     * used to skip bad rows, then to check only the indices). */
    store_pair_count *pc = NULL;
    int npc = 0;
    assert_int_equal(store_pair_counts(s, NULL, 0, NULL, &pc, &npc, err, sizeof err), -1);
    printf("  %s\n", err);
    expect_contains(err, cases[k].message);
    free(pc);
    store_close(s);
    remove_db(copy);
  }
  /* An unknown status or kind of a run. */
  sqlite3 *db;
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sql_exec(db, "UPDATE runs SET status = 'paused'");
  sqlite3_close(db);
  s = open_ok(path, 0);
  store_run r;
  assert_int_equal(store_run_load(s, run, &r, err, sizeof err), -1);
  assert_string_equal(err, "store: run 1: unknown status 'paused'");
  store_close(s);
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  sql_exec(db, "UPDATE runs SET status = 'running', kind = 'swiss'");
  sqlite3_close(db);
  s = open_ok(path, 0);
  assert_int_equal(store_run_load(s, run, &r, err, sizeof err), -1);
  assert_string_equal(err, "store: run 1: unknown kind 'swiss'");
  store_close(s);
  remove_db(path);
}

static void test_kill(void **state) {
  (void)state;
  kill_case(7, 50, 0);
  kill_case(5, 100, 20000);
}

static double now(int clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_throughput(void **state) {
  (void)state;
  enum { TOTAL = 20000 };
  static const int batches[] = {1, 10, 200};
  static char moves[TOTAL][112]; /* 90 to 110 letters */
  static store_game g[TOTAL];
  char path[256];
  path_in_tmp(path, sizeof path, "speed.db");
  for (size_t k = 0; k < sizeof batches / sizeof batches[0]; k++) {
    int batch = batches[k];
    remove_db(path);
    store *s = open_ok(path, 1);
    int64_t run = create_run(s, 2);
    for (int i = 0; i < TOTAL; i++)
      sample_game(&g[i], run, i / 100, i % 100, moves[i], 90 + (int)(next_rand() % 21));
    double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < TOTAL; i += batch) insert_ok(s, &g[i], batch);
    double t = now(CLOCK_MONOTONIC) - t0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    assert_int_equal(store_games_count(s, run), TOTAL);
    store_close(s);
    printf("  batches of %3d: %7.0f games/s (%d games in %.3f s, %.3f s of CPU)\n", batch,
           TOTAL / t, TOTAL, t, c);
  }
  remove_db(path);
}

/* A driver's own tables: created when it first needs them, with every new
 * or reopened database once registered, read as none from a read-only file
 * without them. */
static void test_driver_tables(void **state) {
  (void)state;
  static const store_tables mine = {"test_store.c", "drv_rows",
                                    "CREATE TABLE drv_rows (\n"
                                    "  run_id INTEGER NOT NULL REFERENCES runs(id),\n"
                                    "  x INTEGER NOT NULL\n"
                                    ");\n"};
  static const store_tables later = {"test_store.c", "drv_later",
                                     "CREATE TABLE drv_later (y INTEGER);\n"
                                     "CREATE TABLE drv_later2 (z INTEGER);\n"};
  char path[256], err[ERRLEN] = "";
  const char *count = "SELECT count(*) FROM sqlite_master WHERE name IN ('drv_rows', 'drv_later',"
                      " 'drv_later2')";
  path_in_tmp(path, sizeof path, "drv.db");
  remove_db(path);
  store *s = open_ok(path, 1);
  assert_int_equal(sql_int(store_sqlite(s), count), 0);
  assert_int_equal(store_tables_ensure(s, &mine, err, sizeof err), 0);
  assert_int_equal(store_tables_ensure(s, &mine, err, sizeof err), 0);
  assert_int_equal(sql_int(store_sqlite(s), count), 1);
  store_close(s);
  /* Read-only: there, or missing (1) and nothing written. */
  assert_int_equal(store_open_readonly(path, &s, err, sizeof err), 0);
  assert_int_equal(store_tables_ensure(s, &mine, err, sizeof err), 0);
  assert_int_equal(store_tables_ensure(s, &later, err, sizeof err), 1);
  store_close(s);
  /* Registered: the next opening for writing creates them. */
  assert_int_equal(store_tables_register(&later), 0);
  assert_int_equal(store_tables_register(&later), 0);
  s = open_ok(path, 0);
  assert_int_equal(sql_int(store_sqlite(s), count), 3);
  store_close(s);
  remove_db(path);
  s = open_ok(path, 1);
  assert_int_equal(sql_int(store_sqlite(s), count), 2);
  store_close(s);
  remove_db(path);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/test_store.XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_create_open_reopen), cmocka_unit_test(test_run_roundtrip),
      cmocka_unit_test(test_games_roundtrip),    cmocka_unit_test(test_duplicate_game),
      cmocka_unit_test(test_foreach_order_and_stop), cmocka_unit_test(test_status_and_runs),
      cmocka_unit_test(test_foreign_database),   cmocka_unit_test(test_newer_schema),
      cmocka_unit_test(test_not_sqlite),         cmocka_unit_test(test_unwritable),
      cmocka_unit_test(test_create0_missing),    cmocka_unit_test(test_kill),
      cmocka_unit_test(test_throughput),        cmocka_unit_test(test_settings_openings_files),
      cmocka_unit_test(test_commit_with_series), cmocka_unit_test(test_run_lock),
      cmocka_unit_test(test_bad_rows),          cmocka_unit_test(test_driver_tables),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  char cmd[192];
  snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' && rm -rf '%s'", tmpdir, tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  return failed;
}
