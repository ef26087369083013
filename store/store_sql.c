/* store_sql.c: the SQL helpers the store's files (and the drivers' tables) share: checked calls, binding, columns, seeds, times. */
#include "store/store_sql.h"
#include "core/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int store_sql_fail(sqlite3 *db, char *err, size_t errlen, const char *what) {
  error_set(err, errlen, "store: %s: %s", what, sqlite3_errmsg(db));
  return -1;
}

int store_sql_exec(sqlite3 *db, const char *sql, char *err, size_t errlen) {
  char *msg = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    error_set(err, errlen, "store: %.60s: %s", sql, msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
  }
  return 0;
}

int store_sql_prepare(sqlite3 *db, const char *sql, int persistent, sqlite3_stmt **st, char *err,
                      size_t errlen) {
  if (sqlite3_prepare_v3(db, sql, -1, persistent ? SQLITE_PREPARE_PERSISTENT : 0, st, NULL) !=
      SQLITE_OK) {
    error_set(err, errlen, "store: cannot prepare \"%.60s\": %s", sql, sqlite3_errmsg(db));
    *st = NULL;
    return -1;
  }
  return 0;
}

int store_sql_query_int(sqlite3 *db, const char *sql, long long *out) {
  sqlite3_stmt *st;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (rc != SQLITE_OK) return rc;
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *out = sqlite3_column_int64(st, 0);
    rc = SQLITE_OK;
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_ERROR;
  }
  sqlite3_finalize(st);
  return rc;
}

int store_sql_step_done(sqlite3 *db, sqlite3_stmt *st, char *err, size_t errlen,
                        const char *what) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc != SQLITE_DONE) return store_sql_fail(db, err, errlen, what);
  return 0;
}

int store_sql_begin(store *s, char *err, size_t errlen) {
  return store_sql_step_done(s->db, s->begin, err, errlen, "cannot start a transaction");
}

int store_sql_commit(store *s, char *err, size_t errlen, const char *what) {
  return store_sql_step_done(s->db, s->commit, err, errlen, what);
}

void store_sql_rollback(store *s) {
  if (!sqlite3_get_autocommit(s->db)) {
    sqlite3_step(s->rollback);
    sqlite3_reset(s->rollback);
  }
}

int store_sql_bind_text(sqlite3_stmt *st, int i, const char *text, size_t cap) {
  size_t n = text ? strnlen(text, cap) : 0;
  return sqlite3_bind_text(st, i, text ? text : "", (int)n, SQLITE_STATIC);
}

int store_sql_bind_string(sqlite3_stmt *st, int i, const char *text) {
  return sqlite3_bind_text(st, i, text ? text : "", -1, SQLITE_STATIC);
}

void store_sql_column_copy(sqlite3_stmt *st, int i, char *dst, size_t cap) {
  const unsigned char *t = sqlite3_column_text(st, i);
  snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

char *store_sql_column_dup(sqlite3_stmt *st, int i) {
  const unsigned char *t = sqlite3_column_text(st, i);
  return strdup(t ? (const char *)t : "");
}

int store_sql_parse_u64(const char *text, uint64_t *out) {
  if (!text || !*text) return -1;
  for (const char *p = text; *p; p++)
    if (*p < '0' || *p > '9') return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || *end) return -1;
  *out = (uint64_t)v;
  return 0;
}

/* snprintf costs more than the rest of binding a game. */
int store_sql_u64_text(uint64_t v, char *buf) {
  char tmp[20];
  int n = 0, len = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) buf[len++] = tmp[--n];
  buf[len] = '\0';
  return len;
}

void store_sql_now(char *buf, size_t len) {
  time_t t = time(NULL);
  struct tm tm;
  if (t == (time_t)-1 || !gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
    snprintf(buf, len, "1970-01-01T00:00:00Z");
}

int store_sql_strings_add(char ***v, int n, const char *text) {
  char *c = strdup(text ? text : "");
  char **nv = c ? realloc(*v, (size_t)(n + 1) * sizeof *nv) : NULL;
  if (!nv) {
    free(c);
    return -1;
  }
  nv[n] = c;
  *v = nv;
  return 0;
}
