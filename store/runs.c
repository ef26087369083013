/* runs.c: a run's rows: created with its players, variants, settings, positions and files in one transaction; loaded, listed, its status set. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs a prepared insert once per item: bind(st, i) binds item i. */
static int insert_rows(store *s, const char *sql, int n, int (*bind)(sqlite3_stmt *, int64_t, int, const store_run *),
                       int64_t id, const store_run *run, const char *what, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (n <= 0) return 0;
  if (store_sql_prepare(s->db, sql, 0, &st, err, errlen)) return -1;
  for (int i = 0; i < n; i++) {
    if (bind(st, id, i, run) || sqlite3_step(st) != SQLITE_DONE) {
      error_set(err, errlen, "store: cannot insert %s %d of the run: %s", what, i, sqlite3_errmsg(s->db));
      sqlite3_finalize(st);
      return -1;
    }
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  return 0;
}

static int bind_player(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  return sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int(st, 2, i) ||
         store_sql_bind_string(st, 3, r->player_name[i]) || store_sql_bind_string(st, 4, r->player_spec[i]);
}

static int bind_variant(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  return sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int(st, 2, i) ||
         store_sql_bind_string(st, 3, r->variant[i]);
}

static int bind_position(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  return sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int(st, 2, i) ||
         store_sql_bind_string(st, 3, r->position[i]);
}

int store_run_create(store *s, store_run *run, char *err, size_t errlen) {
  if (run->nplayers < 0 || run->nplayers > STORE_MAX_PLAYERS) {
    error_set(err, errlen, "store: run has %d players (at most %d)", run->nplayers, STORE_MAX_PLAYERS);
    return -1;
  }
  if (run->nvariants < 0 || run->nvariants > STORE_MAX_VARIANTS) {
    error_set(err, errlen, "store: run has %d variants (at most %d)", run->nvariants, STORE_MAX_VARIANTS);
    return -1;
  }
  if ((unsigned)run->kind >= STORE_NKINDS) {
    error_set(err, errlen, "store: unknown run kind %d", (int)run->kind);
    return -1;
  }
  for (int i = 0; i < run->nconfig; i++)
    if ((unsigned)run->config[i].type > STORE_REAL || !run->config[i].key) {
      error_set(err, errlen, "store: setting %d of the run has no key or an unknown type", i);
      return -1;
    }
  char started[sizeof run->started], seed[24];
  store_sql_now(started, sizeof started);
  store_sql_u64_text(run->seed, seed);
  sqlite3_stmt *st = NULL;
  int64_t id;
  if (store_sql_begin(s, err, errlen)) return -1;
  if (store_sql_prepare(s->db,
              "INSERT INTO runs (name, kind, format, openings, rounds, threads, seed, command,"
              " status, started, finished) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'running', ?9,"
              " NULL)",
              0, &st, err, errlen))
    goto fail;
  if (store_sql_bind_string(st, 1, run->name) || store_sql_bind_string(st, 2, store_kind_name(run->kind)) ||
      store_sql_bind_string(st, 3, run->format) || store_sql_bind_string(st, 4, run->openings) ||
      sqlite3_bind_int(st, 5, run->rounds) || sqlite3_bind_int(st, 6, run->threads) ||
      store_sql_bind_text(st, 7, seed, sizeof seed) || store_sql_bind_string(st, 8, run->command) ||
      store_sql_bind_text(st, 9, started, sizeof started) || sqlite3_step(st) != SQLITE_DONE) {
    store_sql_fail(s->db, err, errlen, "cannot insert the run");
    goto fail;
  }
  id = sqlite3_last_insert_rowid(s->db);
  sqlite3_finalize(st);
  st = NULL;
  if (insert_rows(s, "INSERT INTO players (run_id, idx, name, spec) VALUES (?1, ?2, ?3, ?4)",
                  run->nplayers, bind_player, id, run, "player", err, errlen) ||
      insert_rows(s, "INSERT INTO variants (run_id, idx, name) VALUES (?1, ?2, ?3)",
                  run->nvariants, bind_variant, id, run, "variant", err, errlen) ||
      insert_rows(s, "INSERT INTO run_config (run_id, key, type, value) VALUES (?1, ?2, ?3, ?4)",
                  run->nconfig, store_sql_bind_config, id, run, "setting", err, errlen) ||
      insert_rows(s, "INSERT INTO run_openings (run_id, idx, position) VALUES (?1, ?2, ?3)",
                  run->npositions, bind_position, id, run, "opening", err, errlen) ||
      insert_rows(s, "INSERT INTO run_files (run_id, path, hash, content) VALUES (?1, ?2, ?3, ?4)",
                  run->nfiles, store_sql_bind_file, id, run, "file", err, errlen))
    goto fail;
  if (store_sql_commit(s, err, errlen, "cannot commit the run")) goto fail;
  run->id = id;
  run->status = STORE_RUNNING;
  memcpy(run->started, started, sizeof started);
  run->finished[0] = '\0';
  return 0;
fail:
  sqlite3_finalize(st);
  store_sql_rollback(s);
  return -1;
}

/* A run's rows of one table being read into it. */
typedef struct member_reader {
  int64_t id;
  store_run *run;
} member_reader;

/* 0 when column 0 of st is the index of the next member (have) and below
 * max; else -1 with "store: run ID: WHAT index I out of order or range". */
static int member_index(const member_reader *m, sqlite3_stmt *st, int have, int max,
                        const char *what, char *err, size_t errlen) {
  int idx = sqlite3_column_int(st, 0);
  if (idx == have && idx < max) return 0;
  error_set(err, errlen, "store: run %" PRId64 ": %s index %d out of order or range", m->id, what, idx);
  return -1;
}

static int member_oom(const member_reader *m, char *err, size_t errlen) {
  error_set(err, errlen, "store: out of memory reading run %" PRId64, m->id);
  return -1;
}

static int player_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  const member_reader *m = ctx;
  if (member_index(m, st, m->run->nplayers, STORE_MAX_PLAYERS, "player", err, errlen)) return -1;
  const char *name = (const char *)sqlite3_column_text(st, 1);
  const char *spec = (const char *)sqlite3_column_text(st, 2);
  return store_run_add_player(m->run, name, spec) ? member_oom(m, err, errlen) : 0;
}

static int variant_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  const member_reader *m = ctx;
  if (member_index(m, st, m->run->nvariants, STORE_MAX_VARIANTS, "variant", err, errlen)) return -1;
  if (store_run_add_variant(m->run, (const char *)sqlite3_column_text(st, 1)))
    return member_oom(m, err, errlen);
  return 0;
}

static int config_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  const member_reader *m = ctx;
  const char *key = (const char *)sqlite3_column_text(st, 0);
  const char *type = (const char *)sqlite3_column_text(st, 1);
  const char *value = (const char *)sqlite3_column_text(st, 2);
  store_config *c = store_sql_config_slot(m->run, key ? key : "");
  if (!c) return member_oom(m, err, errlen);
  if (store_sql_config_parse(c, type, value)) {
    error_set(err, errlen, "store: run %" PRId64 ": setting '%s' has a bad type or value (%s '%s')", m->id,
         key ? key : "", type ? type : "NULL", value ? value : "NULL");
    return -1;
  }
  return 0;
}

/* The run's players, variants and settings. */
static int load_members(store *s, int64_t id, store_run *run, char *err, size_t errlen) {
  member_reader m = {id, run};
  char what[64];
  snprintf(what, sizeof what, "cannot read run %" PRId64, id);
  if (store_sql_foreach(s->db, "SELECT idx, name, spec FROM players WHERE run_id = ?1 ORDER BY idx", id,
                        player_row, &m, err, errlen, what) ||
      store_sql_foreach(s->db, "SELECT idx, name FROM variants WHERE run_id = ?1 ORDER BY idx", id,
                        variant_row, &m, err, errlen, what))
    return -1;
  return store_sql_foreach(s->db, "SELECT key, type, value FROM run_config WHERE run_id = ?1 ORDER BY key",
                           id, config_row, &m, err, errlen, what);
}

#define RUN_COLUMNS                                                                                \
  "id, name, kind, format, openings, rounds, threads, seed, command, status, started, finished"

/* Fills run (zeroed here) from a row of RUN_COLUMNS. An unknown kind or
 * status is an error naming the run. */
static int run_from_row(sqlite3_stmt *st, store_run *run, char *err, size_t errlen) {
  memset(run, 0, sizeof *run);
  run->id = sqlite3_column_int64(st, 0);
  if (!(run->name = store_sql_column_dup(st, 1)) || !(run->format = store_sql_column_dup(st, 3)) ||
      !(run->openings = store_sql_column_dup(st, 4)) || !(run->command = store_sql_column_dup(st, 8))) {
    error_set(err, errlen, "store: out of memory reading run %" PRId64, run->id);
    return -1;
  }
  const char *kind = (const char *)sqlite3_column_text(st, 2);
  if (store_kind_parse(kind, &run->kind)) {
    error_set(err, errlen, "store: run %" PRId64 ": unknown kind '%s'", run->id, kind ? kind : "NULL");
    return -1;
  }
  const char *status = (const char *)sqlite3_column_text(st, 9);
  if (store_status_parse(status, &run->status)) {
    error_set(err, errlen, "store: run %" PRId64 ": unknown status '%s'", run->id, status ? status : "NULL");
    return -1;
  }
  run->rounds = sqlite3_column_int(st, 5);
  run->threads = sqlite3_column_int(st, 6);
  if (store_sql_parse_u64((const char *)sqlite3_column_text(st, 7), &run->seed)) {
    error_set(err, errlen, "store: run %" PRId64 ": bad seed '%s'", run->id,
         sqlite3_column_text(st, 7) ? (const char *)sqlite3_column_text(st, 7) : "");
    return -1;
  }
  store_sql_column_copy(st, 10, run->started, sizeof run->started);
  store_sql_column_copy(st, 11, run->finished, sizeof run->finished);
  return 0;
}

int store_run_load(store *s, int64_t id, store_run *run, char *err, size_t errlen) {
  sqlite3_stmt *st;
  memset(run, 0, sizeof *run);
  if (store_sql_prepare(s->db, "SELECT " RUN_COLUMNS " FROM runs WHERE id = ?1", 0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, id);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  if (rc == SQLITE_DONE) {
    sqlite3_finalize(st);
    error_set(err, errlen, "store: no run %" PRId64, id);
    return -1;
  }
  if (rc != SQLITE_ROW) {
    error_set(err, errlen, "store: cannot read run %" PRId64 ": %s", id, sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return -1;
  }
  rc = run_from_row(st, run, err, errlen);
  sqlite3_finalize(st);
  if (rc || load_members(s, id, run, err, errlen)) {
    store_run_free(run);
    return -1;
  }
  return 0;
}

int store_run_status(store *s, int64_t id, store_status status, char *err, size_t errlen) {
  if ((unsigned)status >= STORE_NSTATUS) {
    error_set(err, errlen, "store: unknown run status %d", (int)status);
    return -1;
  }
  char finished[32];
  store_sql_now(finished, sizeof finished);
  sqlite3_stmt *st;
  if (store_sql_prepare(s->db,
              "UPDATE runs SET status = ?2, finished = CASE WHEN ?2 = 'running' THEN NULL ELSE ?3"
              " END WHERE id = ?1",
              0, &st, err, errlen))
    return -1;
  if (sqlite3_bind_int64(st, 1, id) || store_sql_bind_string(st, 2, store_status_name(status)) ||
      store_sql_bind_text(st, 3, finished, sizeof finished) || sqlite3_step(st) != SQLITE_DONE) {
    error_set(err, errlen, "store: cannot set the status of run %" PRId64 ": %s", id, sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return -1;
  }
  int changed = sqlite3_changes(s->db);
  sqlite3_finalize(st);
  if (changed == 0) {
    error_set(err, errlen, "store: no run %" PRId64, id);
    return -1;
  }
  return 0;
}

/* What store_runs_foreach reads its rows with and hands them to. */
typedef struct runs_reader {
  store *s;
  int (*fn)(void *ctx, const store_run *r);
  void *ctx;
} runs_reader;

static int runs_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  const runs_reader *r = ctx;
  store_run run;
  int ret = -1;
  if (!run_from_row(st, &run, err, errlen) && !load_members(r->s, run.id, &run, err, errlen))
    ret = r->fn(r->ctx, &run) ? 1 : 0;
  store_run_free(&run);
  return ret;
}

int store_runs_foreach(store *s, int (*fn)(void *ctx, const store_run *r), void *ctx, char *err,
                       size_t errlen) {
  sqlite3_stmt *st;
  runs_reader r = {s, fn, ctx};
  if (store_sql_prepare(s->db, "SELECT " RUN_COLUMNS " FROM runs ORDER BY id DESC", 0, &st, err, errlen))
    return -1;
  return store_sql_rows(s->db, st, runs_row, &r, err, errlen, "cannot list runs");
}

/* The openings of a run being read. */
typedef struct openings_reader {
  int64_t id;
  char **v;
  int k;
} openings_reader;

static int opening_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  openings_reader *o = ctx;
  if (sqlite3_column_int64(st, 0) != o->k) {
    error_set(err, errlen, "store: run %" PRId64 ": opening %lld out of order (expected %d)", o->id,
         (long long)sqlite3_column_int64(st, 0), o->k);
    return -1;
  }
  if (store_sql_strings_add(&o->v, o->k, (const char *)sqlite3_column_text(st, 1))) {
    error_set(err, errlen, "store: out of memory reading the openings of run %" PRId64, o->id);
    return -1;
  }
  o->k++;
  return 0;
}

int store_run_openings(store *s, int64_t id, char ***out, int *n, char *err, size_t errlen) {
  openings_reader o = {id, NULL, 0};
  char what[80];
  snprintf(what, sizeof what, "cannot read the openings of run %" PRId64, id);
  *out = NULL;
  *n = 0;
  if (store_sql_foreach(s->db, "SELECT idx, position FROM run_openings WHERE run_id = ?1 ORDER BY idx", id,
                        opening_row, &o, err, errlen, what)) {
    store_strings_free(o.v, o.k);
    return -1;
  }
  *out = o.v;
  *n = o.k;
  return 0;
}

int store_run_find(store *s, store_kind kind, const char *key, const char *value,
                   int64_t *run_id, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (store_sql_prepare(s->db,
                        "SELECT r.id FROM runs r JOIN run_config c ON c.run_id = r.id"
                        " WHERE r.kind = ?1 AND c.key = ?2 AND c.type = 'text' AND c.value = ?3"
                        " ORDER BY r.id DESC LIMIT 1",
                        0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_text(st, 1, store_kind_name(kind), -1, SQLITE_STATIC);
  if (!rc) rc = sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
  if (!rc) rc = sqlite3_bind_text(st, 3, value, -1, SQLITE_STATIC);
  if (!rc) rc = sqlite3_step(st);
  int ret = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
  if (ret == 1) *run_id = sqlite3_column_int64(st, 0);
  if (ret < 0) store_sql_fail(s->db, err, errlen, "cannot look for a run");
  sqlite3_finalize(st);
  return ret;
}
