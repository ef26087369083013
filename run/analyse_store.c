/* analyse_store.c: a run's endgame analysis in the store (tables analysis, analysis_seeds, analysis_mistakes, declared here and registered with the store; docs/SCHEMA.md), written whole and checked on reading. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/analyse.h"
#include "core/error.h"
#include "store/store_sql.h"

/* Version 6 of the schema added the endgame analysis of a run (`oware
 * analyse`): one row per player, its moves and losses by seeds on the
 * board, and one row per mistake. */
#define ANALYSIS_SQL                                                                               \
  "CREATE TABLE analysis (\n"                                                                     \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  player_idx INTEGER NOT NULL,\n"                                                              \
  "  seeds INTEGER NOT NULL CHECK (seeds BETWEEN 0 AND 32),\n"                                    \
  "  run_games INTEGER NOT NULL CHECK (run_games >= 0),\n"                                        \
  "  games INTEGER NOT NULL CHECK (games >= 0),\n"                                                \
  "  positions INTEGER NOT NULL CHECK (positions >= 0),\n"                                        \
  "  forced INTEGER NOT NULL CHECK (forced BETWEEN 0 AND positions),\n"                           \
  "  exact INTEGER NOT NULL CHECK (exact >= 0),\n"                                                \
  "  kept INTEGER NOT NULL CHECK (kept BETWEEN 0 AND exact),\n"                                   \
  "  cycle INTEGER NOT NULL CHECK (cycle >= 0),\n"                                                \
  "  proven INTEGER NOT NULL CHECK (proven >= 0),\n"                                              \
  "  lost2 INTEGER NOT NULL CHECK (lost2 >= 0),\n"                                                \
  "  changed INTEGER NOT NULL CHECK (changed BETWEEN 0 AND games),\n"                             \
  "  egdb_dir TEXT NOT NULL,\n"                                                                   \
  "  created TEXT NOT NULL,\n"                                                                    \
  "  PRIMARY KEY (run_id, player_idx),\n"                                                         \
  "  FOREIGN KEY (run_id, player_idx) REFERENCES players(run_id, idx),\n"                         \
  "  CHECK (exact + cycle + proven = positions)\n"                                                \
  ") WITHOUT ROWID;\n"                                                                            \
  "CREATE TABLE analysis_seeds (\n"                                                               \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  player_idx INTEGER NOT NULL,\n"                                                              \
  "  seeds INTEGER NOT NULL CHECK (seeds BETWEEN 0 AND 32),\n"                                    \
  "  moves INTEGER NOT NULL CHECK (moves > 0),\n"                                                 \
  "  lost2 INTEGER NOT NULL CHECK (lost2 >= 0),\n"                                                \
  "  PRIMARY KEY (run_id, player_idx, seeds),\n"                                                  \
  "  FOREIGN KEY (run_id, player_idx) REFERENCES players(run_id, idx)\n"                          \
  ") WITHOUT ROWID;\n"                                                                            \
  "CREATE TABLE analysis_mistakes (\n"                                                            \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  series_no INTEGER NOT NULL,\n"                                                               \
  "  game_no INTEGER NOT NULL,\n"                                                                 \
  "  ply INTEGER NOT NULL CHECK (ply >= 0),\n"                                                    \
  "  player_idx INTEGER NOT NULL,\n"                                                              \
  "  seeds INTEGER NOT NULL CHECK (seeds BETWEEN 1 AND 32),\n"                                    \
  "  position TEXT NOT NULL,\n"                                                                   \
  "  played INTEGER NOT NULL CHECK (played BETWEEN 0 AND 15),\n"                                  \
  "  best INTEGER NOT NULL CHECK (best BETWEEN 0 AND 15),\n"                                      \
  "  best2 INTEGER NOT NULL,\n"                                                                   \
  "  played2 INTEGER NOT NULL CHECK (played2 >= 0),\n"                                            \
  "  lost2 INTEGER NOT NULL CHECK (lost2 > 0 AND lost2 = best2 - played2),\n"                     \
  "  proven INTEGER NOT NULL CHECK (proven BETWEEN 0 AND 1),\n"                                   \
  "  changed INTEGER NOT NULL CHECK (changed BETWEEN 0 AND 1),\n"                                 \
  "  PRIMARY KEY (run_id, series_no, game_no, ply),\n"                                            \
  "  FOREIGN KEY (run_id, series_no, game_no) REFERENCES games(run_id, series_no, game_no)\n"     \
  "    ON DELETE CASCADE,\n"                                                                      \
  "  FOREIGN KEY (run_id, player_idx) REFERENCES players(run_id, idx)\n"                          \
  ") WITHOUT ROWID;\n"

const store_tables analyse_store_tables = {"run/analyse_store.c", "analysis", ANALYSIS_SQL};

/* ---- Writing ---- */

static int bind_ints(sqlite3_stmt *st, int from, int n, const long long *v) {
  for (int i = 0; i < n; i++)
    if (sqlite3_bind_int64(st, from + i, v[i]) != SQLITE_OK) return -1;
  return 0;
}

static int step_reset(sqlite3_stmt *st) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? 0 : -1;
}

static int save_rows(sqlite3 *db, const analyse_result *r, sqlite3_stmt *sp, sqlite3_stmt *ss,
                     sqlite3_stmt *sm) {
  for (int p = 0; p < r->nplayers; p++) {
    const analyse_player *a = &r->player[p];
    long long v[] = {r->run_id, p,           r->seeds,  r->run_games, a->games,
                     a->positions, a->forced, a->exact, a->kept,      a->cycle,
                     a->proven,    a->lost2,  a->changed};
    if (bind_ints(sp, 1, 13, v) ||
        sqlite3_bind_text(sp, 14, r->egdb_dir, -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_bind_text(sp, 15, r->created, -1, SQLITE_STATIC) != SQLITE_OK || step_reset(sp))
      return -1;
    for (int n = 0; n <= r->seeds && n <= EGDB_MAX_SEEDS; n++) {
      if (!r->moves_at[p][n]) continue;
      long long w[] = {r->run_id, p, n, r->moves_at[p][n], r->lost2_at[p][n]};
      if (bind_ints(ss, 1, 5, w) || step_reset(ss)) return -1;
    }
  }
  for (int i = 0; i < r->nmistakes; i++) {
    const analyse_mistake *m = &r->mistake[i];
    long long v[] = {r->run_id, m->series_no, m->game_no, m->ply,     m->player,  m->seeds};
    long long w[] = {m->played, m->best,      m->best2,   m->played2, m->lost2,   m->proven,
                     m->changed};
    if (bind_ints(sm, 1, 6, v) ||
        sqlite3_bind_text(sm, 7, m->position, -1, SQLITE_STATIC) != SQLITE_OK ||
        bind_ints(sm, 8, 7, w) || step_reset(sm))
      return -1;
  }
  (void)db;
  return 0;
}

int analyse_save(store *s, const analyse_result *r, char *err, size_t errlen) {
  sqlite3 *db = store_sqlite(s);
  sqlite3_stmt *sp = NULL, *ss = NULL, *sm = NULL, *del = NULL;
  int ret = -1;
  if (store_tables_ensure(s, &analyse_store_tables, err, errlen)) return -1;
  if (store_sql_exec(db, "BEGIN IMMEDIATE", err, errlen)) return -1;
  static const char *const clear[] = {"DELETE FROM analysis_mistakes WHERE run_id = ?1",
                                      "DELETE FROM analysis_seeds WHERE run_id = ?1",
                                      "DELETE FROM analysis WHERE run_id = ?1"};
  for (int k = 0; k < 3; k++) {
    if (store_sql_prepare(db, clear[k], 0, &del, err, errlen)) goto done;
    if (sqlite3_bind_int64(del, 1, r->run_id) != SQLITE_OK || sqlite3_step(del) != SQLITE_DONE) {
      store_sql_fail(db, err, errlen, "cannot replace the stored analysis");
      goto done;
    }
    sqlite3_finalize(del);
    del = NULL;
  }
  if (store_sql_prepare(db,
              "INSERT INTO analysis (run_id, player_idx, seeds, run_games, games, positions,"
              " forced, exact, kept, cycle, proven, lost2, changed, egdb_dir, created)"
              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
              0, &sp, err, errlen) ||
      store_sql_prepare(db,
              "INSERT INTO analysis_seeds (run_id, player_idx, seeds, moves, lost2)"
              " VALUES (?1, ?2, ?3, ?4, ?5)",
              0, &ss, err, errlen) ||
      store_sql_prepare(db,
              "INSERT INTO analysis_mistakes (run_id, series_no, game_no, ply, player_idx, seeds,"
              " position, played, best, best2, played2, lost2, proven, changed)"
              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
              0, &sm, err, errlen))
    goto done;
  if (save_rows(db, r, sp, ss, sm)) {
    store_sql_fail(db, err, errlen, "cannot store the analysis");
    goto done;
  }
  if (store_sql_exec(db, "COMMIT", err, errlen)) goto done;
  ret = 0;
done:
  sqlite3_finalize(del);
  sqlite3_finalize(sp);
  sqlite3_finalize(ss);
  sqlite3_finalize(sm);
  if (ret && !sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  return ret;
}

/* ---- Reading: every row is checked (a database is input) ---- */

/* What the loaders read into: the result and what its rows are checked
 * against. */
typedef struct analysis_reader {
  analyse_result *r;
  int rows;                          /* analysis rows read */
  int cap;                           /* room in r->mistake */
  long long lost[STORE_MAX_PLAYERS]; /* half seeds lost by player, from analysis_seeds */
} analysis_reader;

/* "store: run ID: WHAT" for a row that does not hold together; returns -1. */
static int bad(char *err, size_t errlen, int64_t run_id, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bad(char *err, size_t errlen, int64_t run_id, const char *fmt, ...) {
  char what[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  error_set(err, errlen, "store: run %" PRId64 ": %s", run_id, what);
  return -1;
}

#define BAD(...) return bad(err, errlen, r->run_id, __VA_ARGS__)

/* Runs the SELECT sql of the run's rows (its ?1) with row. */
static int select_rows(sqlite3 *db, const char *sql, analysis_reader *ar, store_sql_row_fn row,
                       char *err, size_t errlen) {
  return store_sql_foreach(db, sql, ar->r->run_id, row, ar, err, errlen, "cannot read the analysis");
}

static int player_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  analysis_reader *ar = ctx;
  analyse_result *r = ar->r;
  long long x[12];
  for (int i = 0; i < 12; i++) x[i] = sqlite3_column_int64(st, i);
  if (x[0] != ar->rows || x[0] >= r->nplayers)
    BAD("analysis row of player %lld: not one of players 0..%d in order", x[0], r->nplayers - 1);
  if (x[1] < 0 || x[1] > EGDB_MAX_SEEDS) BAD("analysis: seeds %lld out of range", x[1]);
  if (ar->rows && (x[1] != r->seeds || x[2] != r->run_games))
    BAD("analysis of player %lld: seeds or games differ from player 0's", x[0]);
  r->seeds = (int)x[1];
  r->run_games = x[2];
  analyse_player *a = &r->player[x[0]];
  a->games = x[3], a->positions = x[4], a->forced = x[5], a->exact = x[6], a->kept = x[7];
  a->cycle = x[8], a->proven = x[9], a->lost2 = x[10], a->changed = x[11];
  for (int i = 2; i < 12; i++)
    if (x[i] < 0) BAD("analysis of player %lld: a negative count", x[0]);
  if (a->kept > a->exact || a->forced > a->positions || a->changed > a->games ||
      a->exact + a->cycle + a->proven != a->positions || a->games > r->run_games)
    BAD("analysis of player %lld: inconsistent counts", x[0]);
  store_sql_column_copy(st, 12, r->egdb_dir, sizeof r->egdb_dir);
  store_sql_column_copy(st, 13, r->created, sizeof r->created);
  ar->rows++;
  return 0;
}

/* The players' rows: 0, 1 when there are none (no analysis stored), -1. */
static int load_players(sqlite3 *db, analysis_reader *ar, char *err, size_t errlen) {
  if (select_rows(db,
                  "SELECT player_idx, seeds, run_games, games, positions, forced, exact, kept,"
                  " cycle, proven, lost2, changed, egdb_dir, created FROM analysis"
                  " WHERE run_id = ?1 ORDER BY player_idx",
                  ar, player_row, err, errlen))
    return -1;
  if (ar->rows && ar->rows != ar->r->nplayers) {
    error_set(err, errlen, "store: run %" PRId64 ": analysis of %d players, the run has %d",
              ar->r->run_id, ar->rows, ar->r->nplayers);
    return -1;
  }
  return ar->rows ? 0 : 1;
}

static int seeds_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  analysis_reader *ar = ctx;
  analyse_result *r = ar->r;
  long long p = sqlite3_column_int64(st, 0), n = sqlite3_column_int64(st, 1),
            moves = sqlite3_column_int64(st, 2), l2 = sqlite3_column_int64(st, 3);
  if (p < 0 || p >= r->nplayers || n < 0 || n > r->seeds || moves <= 0 || l2 < 0 ||
      l2 > moves * 2 * n)
    BAD("analysis_seeds row (player %lld, seeds %lld, moves %lld, lost2 %lld) out of range", p,
        n, moves, l2);
  r->moves_at[p][n] = moves;
  r->lost2_at[p][n] = l2;
  ar->lost[p] += l2;
  return 0;
}

static int load_seeds(sqlite3 *db, analysis_reader *ar, char *err, size_t errlen) {
  analyse_result *r = ar->r;
  if (select_rows(db, "SELECT player_idx, seeds, moves, lost2 FROM analysis_seeds WHERE run_id = ?1",
                  ar, seeds_row, err, errlen))
    return -1;
  for (int p = 0; p < r->nplayers; p++) {
    long long moves = 0;
    for (int n = 0; n <= EGDB_MAX_SEEDS; n++) moves += r->moves_at[p][n];
    if (moves != analyse_decided(&r->player[p]) || ar->lost[p] != r->player[p].lost2) {
      error_set(err, errlen, "store: run %" PRId64 ": analysis_seeds of player %d do not add up to its totals",
           r->run_id, p);
      return -1;
    }
  }
  return 0;
}

static int mistake_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  analysis_reader *ar = ctx;
  analyse_result *r = ar->r;
  if (r->nmistakes == ar->cap) {
    ar->cap = ar->cap ? 2 * ar->cap : 256;
    analyse_mistake *v = realloc(r->mistake, (size_t)ar->cap * sizeof *v);
    if (!v) BAD("out of memory reading the analysis");
    r->mistake = v;
  }
  analyse_mistake *m = &r->mistake[r->nmistakes];
  memset(m, 0, sizeof *m);
  int x[13];
  for (int i = 0; i < 13; i++) x[i] = sqlite3_column_int(st, i);
  m->series_no = x[0], m->game_no = x[1], m->ply = x[2], m->player = x[3], m->seeds = x[4];
  store_sql_column_copy(st, 5, m->position, sizeof m->position);
  m->played = x[6], m->best = x[7], m->best2 = x[8], m->played2 = x[9], m->lost2 = x[10];
  m->proven = x[11], m->changed = x[12];
  m->variant_idx = sqlite3_column_int(st, 13);
  if (m->player < 0 || m->player >= r->nplayers || m->seeds < 1 || m->seeds > r->seeds ||
      m->played < 0 || m->played >= VARIANT_MAX_PITS || m->best < 0 ||
      m->best >= VARIANT_MAX_PITS || m->played2 < 0 || m->lost2 <= 0 ||
      m->lost2 != m->best2 - m->played2 || m->best2 > 2 * m->seeds || m->proven < 0 ||
      m->proven > 1 || m->changed < 0 || m->changed > 1 || m->ply < 0 || !m->position[0])
    BAD("analysis_mistakes row of series %d, game %d, ply %d is malformed", m->series_no,
        m->game_no, m->ply);
  r->nmistakes++;
  return 0;
}

static int load_mistakes(sqlite3 *db, analysis_reader *ar, char *err, size_t errlen) {
  analyse_result *r = ar->r;
  if (select_rows(db,
                  "SELECT m.series_no, m.game_no, m.ply, m.player_idx, m.seeds, m.position,"
                  " m.played, m.best, m.best2, m.played2, m.lost2, m.proven, m.changed,"
                  " g.variant_idx"
                  " FROM analysis_mistakes m JOIN games g ON g.run_id = m.run_id AND"
                  " g.series_no = m.series_no AND g.game_no = m.game_no WHERE m.run_id = ?1"
                  " ORDER BY m.series_no, m.game_no, m.ply",
                  ar, mistake_row, err, errlen))
    return -1;
  long long count[STORE_MAX_PLAYERS] = {0};
  for (int i = 0; i < r->nmistakes; i++) count[r->mistake[i].player]++;
  for (int p = 0; p < r->nplayers; p++)
    if (count[p] != analyse_mistakes(&r->player[p])) {
      error_set(err, errlen, "store: run %" PRId64 ": %lld mistakes stored for player %d, its totals say %lld",
           r->run_id, count[p], p, analyse_mistakes(&r->player[p]));
      return -1;
    }
  return 0;
}

#undef BAD

int analyse_load(store *s, int64_t run_id, analyse_result **out, char *err, size_t errlen) {
  *out = NULL;
  store_run run;
  store_run_init(&run);
  if (store_run_load(s, run_id, &run, err, errlen)) return -1;
  int present = store_tables_ensure(s, &analyse_store_tables, err, errlen);
  if (present) {
    store_run_free(&run);
    return present < 0 ? -1 : 1; /* a read-only file without the tables: none stored */
  }
  analyse_result *r = calloc(1, sizeof *r);
  if (!r) {
    store_run_free(&run);
    error_set(err, errlen, "store: out of memory reading the analysis");
    return -1;
  }
  r->run_id = run_id;
  r->nplayers = run.nplayers;
  store_run_free(&run);
  sqlite3 *db = store_sqlite(s);
  analysis_reader ar = {.r = r};
  int rc = load_players(db, &ar, err, errlen);
  if (!rc) rc = load_seeds(db, &ar, err, errlen);
  if (!rc) rc = load_mistakes(db, &ar, err, errlen);
  if (rc) {
    analyse_free(r);
    return rc;
  }
  *out = r;
  return 0;
}
