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

int store_sql_rows(sqlite3 *db, sqlite3_stmt *st, store_sql_row_fn row, void *ctx, char *err,
                   size_t errlen, const char *what) {
  int rc, ret = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && !(ret = row(ctx, st, err, errlen))) {
  }
  if (ret == 0 && rc != SQLITE_DONE) ret = store_sql_fail(db, err, errlen, what);
  sqlite3_finalize(st);
  return ret < 0 ? -1 : 0;
}

int store_sql_foreach(sqlite3 *db, const char *sql, int64_t id, store_sql_row_fn row, void *ctx,
                      char *err, size_t errlen, const char *what) {
  sqlite3_stmt *st;
  if (store_sql_prepare(db, sql, 0, &st, err, errlen)) return -1;
  if (sqlite3_bind_int64(st, 1, id) != SQLITE_OK) {
    store_sql_fail(db, err, errlen, what);
    sqlite3_finalize(st);
    return -1;
  }
  return store_sql_rows(db, st, row, ctx, err, errlen, what);
}

int store_sql_bind_fields(sqlite3_stmt *st, int first, const store_sql_field *f, int n,
                          const void *row) {
  int rc = SQLITE_OK;
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    const char *p = (const char *)row + f[i].offset;
    int iv;
    long long lv;
    double dv;
    switch (f[i].type) {
    case STORE_SQL_INT:
      memcpy(&iv, p, sizeof iv);
      rc = sqlite3_bind_int(st, first + i, iv);
      break;
    case STORE_SQL_INT64:
      memcpy(&lv, p, sizeof lv);
      rc = sqlite3_bind_int64(st, first + i, lv);
      break;
    case STORE_SQL_REAL:
      memcpy(&dv, p, sizeof dv);
      rc = sqlite3_bind_double(st, first + i, dv);
      break;
    case STORE_SQL_TEXT:
      rc = store_sql_bind_text(st, first + i, p, f[i].size);
      break;
    }
  }
  return rc;
}

void store_sql_read_fields(sqlite3_stmt *st, int first, const store_sql_field *f, int n, void *row) {
  for (int i = 0; i < n; i++) {
    char *p = (char *)row + f[i].offset;
    int iv;
    long long lv;
    double dv;
    switch (f[i].type) {
    case STORE_SQL_INT:
      iv = sqlite3_column_int(st, first + i);
      memcpy(p, &iv, sizeof iv);
      break;
    case STORE_SQL_INT64:
      lv = sqlite3_column_int64(st, first + i);
      memcpy(p, &lv, sizeof lv);
      break;
    case STORE_SQL_REAL:
      dv = sqlite3_column_double(st, first + i);
      memcpy(p, &dv, sizeof dv);
      break;
    case STORE_SQL_TEXT:
      store_sql_column_copy(st, first + i, p, f[i].size);
      break;
    }
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
