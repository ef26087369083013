/* tables.c: the drivers' own tables, registered with the store: created with a new database, with an upgraded one, or when a driver first needs them. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <pthread.h>

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static const store_tables *registry[STORE_MAX_TABLES];
static int nregistry;

int store_tables_register(const store_tables *t) {
  int rc = 0, i;
  pthread_mutex_lock(&registry_lock);
  for (i = 0; i < nregistry && registry[i] != t; i++) continue;
  if (i == nregistry) {
    if (nregistry < STORE_MAX_TABLES) registry[nregistry++] = t;
    else rc = -1;
  }
  pthread_mutex_unlock(&registry_lock);
  return rc;
}

/* A copy of the registry (a store may be opened while another thread
 * registers): the number of entries. */
static int registered(const store_tables **out) {
  pthread_mutex_lock(&registry_lock);
  int n = nregistry;
  for (int i = 0; i < n; i++) out[i] = registry[i];
  pthread_mutex_unlock(&registry_lock);
  return n;
}

/* Whether the tables of t are there: 1, 0, or -1 with err. */
static int present(sqlite3 *db, const store_tables *t, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (store_sql_prepare(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
                        0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_text(st, 1, t->table, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  int n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
  if (n < 0) store_sql_fail(db, err, errlen, "cannot read the schema");
  sqlite3_finalize(st);
  return n < 0 ? -1 : n > 0;
}

/* Creates the tables of t unless they are there (in a write transaction). */
static int create_missing(sqlite3 *db, const store_tables *t, char *err, size_t errlen) {
  int rc = present(db, t, err, errlen);
  if (rc) return rc < 0 ? -1 : 0;
  if (store_sql_exec(db, t->sql, err, errlen)) {
    error_append(err, errlen, " (the tables of %s)", t->owner);
    return -1;
  }
  return 0;
}

int store_sql_create_registered(sqlite3 *db, char *err, size_t errlen) {
  const store_tables *t[STORE_MAX_TABLES];
  int n = registered(t);
  for (int i = 0; i < n; i++)
    if (create_missing(db, t[i], err, errlen)) return -1;
  return 0;
}

int store_sql_registered_present(sqlite3 *db, char *err, size_t errlen) {
  const store_tables *t[STORE_MAX_TABLES];
  int n = registered(t);
  for (int i = 0; i < n; i++) {
    int rc = present(db, t[i], err, errlen);
    if (rc <= 0) return rc;
  }
  return 1;
}

int store_tables_ensure(store *s, const store_tables *t, char *err, size_t errlen) {
  int rc = present(s->db, t, err, errlen);
  if (rc) return rc < 0 ? -1 : 0;
  if (sqlite3_db_readonly(s->db, "main") == 1) return 1;
  /* Inside the caller's transaction, or in one of its own. */
  if (!sqlite3_get_autocommit(s->db)) return create_missing(s->db, t, err, errlen);
  if (store_sql_begin(s, err, errlen)) return -1;
  if (create_missing(s->db, t, err, errlen) ||
      store_sql_commit(s, err, errlen, "cannot commit the new tables")) {
    store_sql_rollback(s);
    return -1;
  }
  return 0;
}
