/* store.c: opening a store (a file checked to be ours, created, or upgraded; WAL, foreign keys) and closing it (docs/SCHEMA.md).
 *
 * One store handle is one SQLite connection and is used by one thread at a
 * time (the runner's writer thread). Every sqlite3 call is checked; every
 * error message starts with "store: " and carries sqlite3_errmsg. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How long a statement waits for another connection's lock (a second
 * process on the same file) before it gives up with "database is locked". */
#define STORE_BUSY_MS 10000

/* WAL pages (4 KiB each) after which a commit checkpoints the WAL into the
 * database. SQLite's default, 1000, makes a writer of small batches stop
 * for two fsyncs every few thousand games; 10000 (a WAL of up to ~40 MiB)
 * checkpoints a tenth as often and copies each hot page once. */
#define STORE_WAL_PAGES 10000

/* What a file holds, read without writing anything. */
typedef struct identity {
  long long app_id, version, objects;
} identity;

static int identify(sqlite3 *db, const char *path, identity *id, char *err, size_t errlen) {
  int rc = store_sql_query_int(db, "PRAGMA application_id", &id->app_id);
  if (rc == SQLITE_OK) rc = store_sql_query_int(db, "PRAGMA user_version", &id->version);
  if (rc == SQLITE_OK) rc = store_sql_query_int(db, "SELECT count(*) FROM sqlite_master", &id->objects);
  if (rc == SQLITE_OK) return 0;
  if ((rc & 0xff) == SQLITE_NOTADB) {
    error_set(err, errlen, "store: not an SQLite database: %s", path);
  } else {
    int sys = sqlite3_system_errno(db);
    if (sys)
      error_set(err, errlen, "store: cannot read %s: %s (%s)", path, sqlite3_errmsg(db), strerror(sys));
    else
      error_set(err, errlen, "store: cannot read %s: %s", path, sqlite3_errmsg(db));
  }
  return -1;
}

static int is_empty(const identity *id) {
  return id->app_id == 0 && id->version == 0 && id->objects == 0;
}

/* Creates the schema in an empty database. Returns 0 when done, 1 when
 * another connection initialised the file first (look again), -1. */
static int initialise(sqlite3 *db, const char *path, char *err, size_t errlen) {
  char sql[128];
  identity id;
  if (store_sql_exec(db, "BEGIN IMMEDIATE", err, errlen)) return -1;
  if (identify(db, path, &id, err, errlen)) goto fail;
  if (!is_empty(&id)) {
    store_sql_exec(db, "ROLLBACK", NULL, 0);
    return 1;
  }
  if (store_sql_create_schema(db, err, errlen)) goto fail;
  snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
           STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
  if (store_sql_exec(db, sql, err, errlen)) goto fail;
  if (store_sql_exec(db, "COMMIT", err, errlen)) goto fail;
  return 0;
fail:
  if (!sqlite3_get_autocommit(db)) store_sql_exec(db, "ROLLBACK", NULL, 0);
  return -1;
}

/* A file of this schema made by a program that registered no driver's
 * tables (store_tables_register) gets the registered ones now. */
static int registered_tables(sqlite3 *db, char *err, size_t errlen) {
  int rc = store_sql_registered_present(db, err, errlen);
  if (rc) return rc < 0 ? -1 : 0;
  if (store_sql_exec(db, "BEGIN IMMEDIATE", err, errlen)) return -1;
  if (store_sql_create_registered(db, err, errlen) || store_sql_exec(db, "COMMIT", err, errlen)) {
    if (!sqlite3_get_autocommit(db)) store_sql_exec(db, "ROLLBACK", NULL, 0);
    return -1;
  }
  return 0;
}

/* Checks that the file is ours (initialising a new one); never writes to a
 * database that is not. */
static int claim(sqlite3 *db, const char *path, int create, char *err, size_t errlen) {
  for (int attempt = 0; attempt < 3; attempt++) {
    identity id;
    if (identify(db, path, &id, err, errlen)) return -1;
    if (is_empty(&id)) {
      if (!create) {
        error_set(err, errlen, "store: empty database (not created by oware): %s", path);
        return -1;
      }
      /* WAL is set before the schema: journal_mode cannot change inside a
       * transaction, and it is a property of the file from then on. */
      char *msg = NULL;
      if (sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, &msg) != SQLITE_OK) {
        error_set(err, errlen, "store: cannot set WAL mode on %s: %s", path, msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
      }
      int rc = initialise(db, path, err, errlen);
      if (rc <= 0) return rc;
      continue; /* someone else initialised it meanwhile: look again */
    }
    if (id.app_id != STORE_APPLICATION_ID) {
      error_set(err, errlen, "store: not an oware database (application id 0x%08llx): %s",
           (unsigned long long)(uint32_t)id.app_id, path);
      return -1;
    }
    if (id.version > STORE_SCHEMA_VERSION) {
      error_set(err, errlen, "store: written by a newer oware (schema %lld, this one reads %d): %s", id.version,
           STORE_SCHEMA_VERSION, path);
      return -1;
    }
    if (id.version < 1) {
      error_set(err, errlen, "store: oware database without a schema version (user_version %lld): %s",
           id.version, path);
      return -1;
    }
    if (id.version < STORE_SCHEMA_VERSION) return store_sql_migrate(db, path, err, errlen);
    return registered_tables(db, err, errlen);
  }
  error_set(err, errlen, "store: cannot initialise %s: it keeps changing under us", path);
  return -1;
}

/* Per-connection settings, once the file is known to be ours. */
static int configure(sqlite3 *db, const char *path, char *err, size_t errlen) {
  sqlite3_stmt *st;
  char sql[96];
  if (store_sql_prepare(db, "PRAGMA journal_mode=WAL", 0, &st, err, errlen)) return -1;
  int rc = sqlite3_step(st);
  if (rc != SQLITE_ROW) {
    error_set(err, errlen, "store: cannot set WAL mode on %s: %s", path, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return -1;
  }
  const char *mode = (const char *)sqlite3_column_text(st, 0);
  int ok = mode && (!strcmp(mode, "wal") || !strcmp(mode, "memory"));
  if (!ok)
    error_set(err, errlen, "store: cannot set WAL mode on %s: journal mode stays '%s'", path,
         mode ? mode : "?");
  sqlite3_finalize(st);
  if (!ok) return -1;
  snprintf(sql, sizeof sql, "PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=%d",
           STORE_WAL_PAGES);
  if (store_sql_exec(db, sql, err, errlen)) return -1;
  if (store_sql_exec(db, "PRAGMA foreign_keys=ON", err, errlen)) return -1;
  long long fk = 0;
  if (store_sql_query_int(db, "PRAGMA foreign_keys", &fk) != SQLITE_OK || fk != 1) {
    error_set(err, errlen, "store: this SQLite does not enforce foreign keys");
    return -1;
  }
  return 0;
}

static const char game_insert_sql[] =
    "INSERT INTO games (run_id, series_no, game_no, variant_idx, round, a_idx, b_idx,"
    " south_idx, north_idx, opening, moves, winner, score_south, score_north, plies,"
    " end_reason, detail, seed, seconds)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,"
    " ?19)";

static const char series_insert_sql[] =
    "INSERT OR REPLACE INTO series (run_id, series_no, variant_idx, round, a_idx, b_idx,"
    " games, wins_a, wins_b, draws, winner)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";

static int prepare_cached(store *s, char *err, size_t errlen) {
  return store_sql_prepare(s->db, "BEGIN IMMEDIATE", 1, &s->begin, err, errlen) ||
         store_sql_prepare(s->db, "COMMIT", 1, &s->commit, err, errlen) ||
         store_sql_prepare(s->db, "ROLLBACK", 1, &s->rollback, err, errlen) ||
         store_sql_prepare(s->db, game_insert_sql, 1, &s->game_insert, err, errlen) ||
         store_sql_prepare(s->db, series_insert_sql, 1, &s->series_insert, err, errlen) ||
         store_sql_prepare(s->db, "SELECT count(*) FROM games WHERE run_id = ?1", 1, &s->games_count, err,
                 errlen);
}

static int open_mode(const char *path, int create, int readonly, store **out, char *err,
                     size_t errlen);

int store_open(const char *path, int create, store **out, char *err, size_t errlen) {
  return open_mode(path, create, 0, out, err, errlen);
}

int store_open_readonly(const char *path, store **out, char *err, size_t errlen) {
  int rc = open_mode(path, 0, 1, out, err, errlen);
  if (rc != 1) return rc;
  /* An older schema: upgraded once (its runs stay listed and exportable)
   * when the file can be written, then read. */
  store *w;
  if (access(path, W_OK)) {
    error_set(err, errlen, "store: %s has an older schema and cannot be upgraded: %s", path, strerror(errno));
    return -1;
  }
  if (open_mode(path, 0, 0, &w, err, errlen)) return -1;
  store_close(w);
  return open_mode(path, 0, 1, out, err, errlen) ? -1 : 0;
}

static int open_mode(const char *path, int create, int readonly, store **out, char *err,
                     size_t errlen) {
  *out = NULL;
  if (!path || !*path) {
    error_set(err, errlen, "store: no database path given");
    return -1;
  }
  store *s = calloc(1, sizeof *s);
  if (!s || !(s->path = strdup(path))) {
    free(s);
    error_set(err, errlen, "store: out of memory opening %s", path);
    return -1;
  }
  int flags = (readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX |
              (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path, &s->db, flags, NULL);
  if (rc != SQLITE_OK) {
    if (!s->db) {
      error_set(err, errlen, "store: cannot open %s: out of memory", path);
    } else {
      int sys = sqlite3_system_errno(s->db);
      if (sys)
        error_set(err, errlen, "store: cannot open %s: %s (%s)", path, sqlite3_errmsg(s->db), strerror(sys));
      else
        error_set(err, errlen, "store: cannot open %s: %s", path, sqlite3_errmsg(s->db));
    }
    goto fail;
  }
  /* READWRITE falls back to read-only on a write-protected file. */
  if (!readonly && sqlite3_db_readonly(s->db, "main") == 1) {
    error_set(err, errlen, "store: cannot write %s: the file is read-only", path);
    goto fail;
  }
  if (sqlite3_extended_result_codes(s->db, 1) != SQLITE_OK ||
      sqlite3_busy_timeout(s->db, STORE_BUSY_MS) != SQLITE_OK) {
    store_sql_fail(s->db, err, errlen, path);
    goto fail;
  }
  if (readonly) {
    /* Reading only: the file is checked, never changed (no migration, no
     * journal mode), so a write-protected database can be read. */
    identity id;
    if (identify(s->db, path, &id, err, errlen)) goto fail;
    if (is_empty(&id)) {
      error_set(err, errlen, "store: empty database (not created by oware): %s", path);
      goto fail;
    }
    if (id.app_id != STORE_APPLICATION_ID) {
      error_set(err, errlen, "store: not an oware database (application id 0x%08llx): %s",
           (unsigned long long)(uint32_t)id.app_id, path);
      goto fail;
    }
    if (id.version < STORE_SCHEMA_VERSION && id.version >= 1) {
      sqlite3_close(s->db);
      free(s->path);
      free(s);
      return 1; /* older: the caller upgrades it */
    }
    if (id.version != STORE_SCHEMA_VERSION) {
      error_set(err, errlen, "store: written by a newer oware (schema %lld, this one reads %d): %s",
           id.version, STORE_SCHEMA_VERSION, path);
      goto fail;
    }
    if (store_sql_exec(s->db, "PRAGMA foreign_keys=ON", err, errlen) || prepare_cached(s, err, errlen))
      goto fail;
  } else if (claim(s->db, path, create, err, errlen) || configure(s->db, path, err, errlen) ||
             prepare_cached(s, err, errlen)) {
    goto fail;
  }
  *out = s;
  return 0;
fail:
  store_close(s);
  return -1;
}

sqlite3 *store_sqlite(store *s) { return s->db; }

void store_close(store *s) {
  if (!s) return;
  /* Every statement of the connection (the cached ones) is finalized, so
   * close cannot be busy; the last connection checkpoints the WAL into the
   * database here. */
  sqlite3_stmt *st;
  while (s->db && (st = sqlite3_next_stmt(s->db, NULL))) sqlite3_finalize(st);
  sqlite3_close(s->db);
  free(s->path);
  free(s);
}
