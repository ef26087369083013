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
#include <sys/stat.h>
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

/* A file that is not empty: 0 when it is an oware database of this schema,
 * 1 of an older one (upgraded when written), else -1 with err. */
static int schema_age(const identity *id, const char *path, char *err, size_t errlen) {
  if (id->app_id != STORE_APPLICATION_ID)
    return error_set(err, errlen, "store: not an oware database (application id 0x%08llx): %s",
                     (unsigned long long)(uint32_t)id->app_id, path),
           -1;
  if (id->version > STORE_SCHEMA_VERSION)
    return error_set(err, errlen,
                     "store: written by a newer oware (schema %lld, this one reads %d): %s",
                     id->version, STORE_SCHEMA_VERSION, path),
           -1;
  if (id->version < 1)
    return error_set(err, errlen,
                     "store: oware database without a schema version (user_version %lld): %s",
                     id->version, path),
           -1;
  return id->version < STORE_SCHEMA_VERSION;
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
    int age = schema_age(&id, path, err, errlen);
    if (age < 0) return -1;
    if (age > 0) return store_sql_migrate(db, path, err, errlen);
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
    " end_reason, detail, seed, seconds, move_records)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,"
    " ?19, ?20)";

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

/* ---- Why a database cannot be written where it is, and reading it all the same ---- */

/* The folder of path ("." for a bare name) into dir. */
static void folder_of(const char *path, char *dir, size_t n) {
  const char *slash = strrchr(path, '/');
  if (!slash) snprintf(dir, n, ".");
  else if (slash == path) snprintf(dir, n, "/");
  else snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

/* 1 when this user may not write p (permissions, or a read-only mount). */
static int denied(const char *p) {
  return access(p, W_OK) && (errno == EACCES || errno == EROFS || errno == EPERM);
}

/* 1 when PATH-wal and PATH-shm are both there and this user may write them
 * (then writing needs no new file beside the database). */
static int sidecars_writable(const char *path) {
  static const char *const suffix[] = {"-wal", "-shm"};
  char side[1100];
  for (int i = 0; i < 2; i++) {
    snprintf(side, sizeof side, "%s%s", path, suffix[i]);
    if (access(side, W_OK)) return 0;
  }
  return 1;
}

/* Why path cannot be written, and what to do, into why: 1 when the file or
 * its folder is read-only for this user, else 0 (why untouched). Writing
 * needs both: SQLite makes PATH-wal and PATH-shm beside the database (a
 * read-only folder does when they are there and writable). */
static int unwritable(const char *path, char *why, size_t n) {
  char dir[1024];
  folder_of(path, dir, sizeof dir);
  int exists = access(path, F_OK) == 0, file = exists && denied(path),
      folder = denied(dir) && !sidecars_writable(path);
  if (file && folder)
    snprintf(why, n, "the file and its folder %s are read-only: copy the database to a folder "
             "that can be written", dir);
  else if (file)
    snprintf(why, n, "the file is read-only: make it writable (chmod u+w) or copy it");
  else if (folder && exists)
    snprintf(why, n, "its folder %s is read-only (writing makes %s-wal and %s-shm beside it): "
             "copy the database to a folder that can be written", dir, path, path);
  else if (folder)
    snprintf(why, n, "its folder %s is read-only: put the database in a folder that can be "
             "written", dir);
  return file || folder;
}

/* After a failed opening for writing: when SQLite could not open or write
 * the file and the file or its folder is read-only, err says that instead
 * of SQLite's words. */
static void explain_unwritable(sqlite3 *db, const char *path, char *err, size_t errlen) {
  int code = db ? sqlite3_errcode(db) & 0xff : SQLITE_CANTOPEN;
  char why[ERROR_MAX];
  if ((code == SQLITE_READONLY || code == SQLITE_CANTOPEN) && unwritable(path, why, sizeof why))
    error_set(err, errlen, "store: cannot %s %s: %s", access(path, F_OK) ? "create" : "write",
              path, why);
}

/* 1 when PATH-wal holds changes not yet in the database (a writer is
 * running, or one was killed): reading needs it, and PATH-shm with it. */
static int wal_pending(const char *path) {
  char wal[1100];
  struct stat st;
  snprintf(wal, sizeof wal, "%s-wal", path);
  return stat(wal, &st) == 0 && st.st_size > 0;
}

/* The URI that opens path as immutable (SQLite then makes no -wal or -shm
 * file and takes no lock): "file:" and the path, '%', '?' and '#' escaped.
 * Malloc'ed; NULL when out of memory. */
static char *immutable_uri(const char *path) {
  static const char tail[] = "?immutable=1";
  size_t n = strlen("file://") + 3 * strlen(path) + sizeof tail;
  char *uri = malloc(n);
  if (!uri) return NULL;
  size_t k = (size_t)snprintf(uri, n, path[0] == '/' ? "file://" : "file:");
  for (const char *p = path; *p; p++) {
    if (strchr("%?#", *p)) k += (size_t)snprintf(uri + k, n - k, "%%%02X", (unsigned char)*p);
    else uri[k++] = *p;
  }
  memcpy(uri + k, tail, sizeof tail);
  return uri;
}

/* sqlite3_open_v2 of name (path, or a URI of it) into s->db, with extended
 * result codes and the busy timeout. -1 with err naming path. */
static int db_connect(store *s, const char *name, const char *path, int flags, char *err,
                      size_t errlen) {
  if (sqlite3_open_v2(name, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
    if (!s->db) return error_set(err, errlen, "store: cannot open %s: out of memory", path), -1;
    int sys = sqlite3_system_errno(s->db);
    if (sys)
      error_set(err, errlen, "store: cannot open %s: %s (%s)", path, sqlite3_errmsg(s->db),
                strerror(sys));
    else
      error_set(err, errlen, "store: cannot open %s: %s", path, sqlite3_errmsg(s->db));
    return -1;
  }
  if (sqlite3_extended_result_codes(s->db, 1) != SQLITE_OK ||
      sqlite3_busy_timeout(s->db, STORE_BUSY_MS) != SQLITE_OK)
    return store_sql_fail(s->db, err, errlen, path);
  return 0;
}

/* Opens path for reading and identifies it, writing nothing. A WAL
 * database needs PATH-shm (made when missing): where it cannot be made (a
 * read-only folder) and PATH-wal holds nothing, the file alone is the
 * database and is opened immutable; with changes in PATH-wal it cannot be
 * read there, which err says. */
static int connect_readonly(store *s, const char *path, identity *id, char *err,
                            size_t errlen) {
  if (db_connect(s, path, path, SQLITE_OPEN_READONLY, err, errlen)) return -1;
  if (!identify(s->db, path, id, err, errlen)) return 0;
  int code = sqlite3_errcode(s->db) & 0xff;
  if (code != SQLITE_READONLY && code != SQLITE_CANTOPEN) return -1;
  char dir[1024];
  folder_of(path, dir, sizeof dir);
  if (wal_pending(path))
    return error_set(err, errlen,
                     "store: cannot read %s: its write-ahead log %s-wal holds changes, and "
                     "%s-shm, needed to read them, cannot be made or opened in its folder %s: "
                     "copy the database with its -wal file to a folder that can be written, or "
                     "have someone who can write %s open it there",
                     path, path, path, dir, dir),
           -1;
  char *uri = immutable_uri(path);
  if (!uri) return error_set(err, errlen, "store: out of memory opening %s", path), -1;
  sqlite3_close(s->db);
  s->db = NULL;
  int rc = db_connect(s, uri, path, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, err, errlen) ||
           identify(s->db, path, id, err, errlen);
  free(uri);
  return rc ? -1 : 0;
}

/* Opens path for reading (never writing the file: no migration, no
 * journal mode) into s. 0, 1 when it is of an older schema, -1 with err. */
static int open_reading(store *s, const char *path, char *err, size_t errlen) {
  identity id;
  if (connect_readonly(s, path, &id, err, errlen)) return -1;
  if (is_empty(&id))
    return error_set(err, errlen, "store: empty database (not created by oware): %s", path), -1;
  int age = schema_age(&id, path, err, errlen);
  if (age) return age;
  return store_sql_exec(s->db, "PRAGMA foreign_keys=ON", err, errlen) ||
                 prepare_cached(s, err, errlen)
             ? -1
             : 0;
}

/* Opens path for writing into s (created when create is set), checked,
 * upgraded, configured. 0, or -1 with err. */
static int open_writing(store *s, const char *path, int create, char *err, size_t errlen) {
  int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  if (db_connect(s, path, path, flags, err, errlen)) return -1;
  /* Said now rather than at the first write: READWRITE falls back to
   * read-only on a write-protected file, and SQLite reads through a -shm
   * file that it may not write. */
  char why[ERROR_MAX];
  int blocked = unwritable(path, why, sizeof why);
  if (!blocked && sqlite3_db_readonly(s->db, "main") == 1)
    blocked = snprintf(why, sizeof why, "the file is read-only") > 0;
  if (blocked) return error_set(err, errlen, "store: cannot write %s: %s", path, why), -1;
  return claim(s->db, path, create, err, errlen) || configure(s->db, path, err, errlen) ||
                 prepare_cached(s, err, errlen)
             ? -1
             : 0;
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
  int rc = readonly ? open_reading(s, path, err, errlen)
                    : open_writing(s, path, create, err, errlen);
  if (rc < 0 && !readonly) explain_unwritable(s->db, path, err, errlen);
  if (rc) {
    store_close(s);
    return rc;
  }
  *out = s;
  return 0;
}

int store_open(const char *path, int create, store **out, char *err, size_t errlen) {
  return open_mode(path, create, 0, out, err, errlen);
}

int store_open_readonly(const char *path, store **out, char *err, size_t errlen) {
  int rc = open_mode(path, 0, 1, out, err, errlen);
  if (rc != 1) return rc;
  /* An older schema: upgraded once (its runs stay listed and exportable)
   * when the file can be written, then read. */
  char why[ERROR_MAX];
  if (unwritable(path, why, sizeof why))
    return error_set(err, errlen,
                     "store: %s has an older schema: it is upgraded once, by any oware command "
                     "that opens it where it can be written, before it can be read; it cannot "
                     "be written here: %s",
                     path, why),
           -1;
  store *w;
  if (open_mode(path, 0, 0, &w, err, errlen)) return -1;
  store_close(w);
  return open_mode(path, 0, 1, out, err, errlen) ? -1 : 0;
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
