/* study_store.c: a variant study's metrics in the store (table variant_metrics, declared here and registered with the store; docs/SCHEMA.md). */
#include "run/study_store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <string.h>

/* Version 4 of the schema added the metrics of variant studies (`oware
 * variants`). */
const store_tables study_store_tables = {
    "run/study_store.c", "variant_metrics",
    "CREATE TABLE variant_metrics (\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  variant_idx INTEGER NOT NULL,\n"
    "  metric TEXT NOT NULL,\n"
    "  value REAL NOT NULL,\n"
    "  lo REAL, hi REAL,\n"
    "  n INTEGER NOT NULL CHECK (n >= 0),\n"
    "  created TEXT NOT NULL,\n"
    "  PRIMARY KEY (run_id, variant_idx, metric),\n"
    "  FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx)\n"
    ");\n"};

int study_store_replace(store *s, int64_t run_id, const study_metric *m, int n, char *err,
                        size_t errlen) {
  char created[32];
  store_sql_now(created, sizeof created);
  sqlite3 *db = store_sqlite(s);
  sqlite3_stmt *del = NULL, *st = NULL;
  if (store_tables_ensure(s, &study_store_tables, err, errlen)) return -1;
  if (store_sql_begin(s, err, errlen)) return -1;
  if (store_sql_prepare(db, "DELETE FROM variant_metrics WHERE run_id = ?1", 0, &del, err, errlen) ||
      store_sql_prepare(db,
              "INSERT INTO variant_metrics (run_id, variant_idx, metric, value, lo, hi, n, created)"
              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
              0, &st, err, errlen))
    goto fail;
  if (sqlite3_bind_int64(del, 1, run_id) != SQLITE_OK || sqlite3_step(del) != SQLITE_DONE) {
    store_sql_fail(db, err, errlen, "cannot replace the study's metrics");
    goto fail;
  }
  for (int i = 0; i < n; i++) {
    const study_metric *x = &m[i];
    int rc = sqlite3_bind_int64(st, 1, run_id);
    if (!rc) rc = sqlite3_bind_int(st, 2, x->variant_idx);
    if (!rc) rc = store_sql_bind_text(st, 3, x->metric, sizeof x->metric);
    if (!rc) rc = sqlite3_bind_double(st, 4, x->value);
    if (!rc) rc = x->has_interval ? sqlite3_bind_double(st, 5, x->lo) : sqlite3_bind_null(st, 5);
    if (!rc) rc = x->has_interval ? sqlite3_bind_double(st, 6, x->hi) : sqlite3_bind_null(st, 6);
    if (!rc) rc = sqlite3_bind_int64(st, 7, x->n);
    if (!rc) rc = store_sql_bind_text(st, 8, created, sizeof created);
    if (!rc) rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
      error_set(err, errlen, "store: cannot store metric %s of variant %d: %s", x->metric, x->variant_idx,
           sqlite3_errmsg(db));
      goto fail;
    }
    sqlite3_reset(st);
  }
  sqlite3_finalize(del);
  sqlite3_finalize(st);
  del = st = NULL;
  if (store_sql_commit(s, err, errlen, "cannot commit the study's metrics")) goto fail;
  return 0;
fail:
  sqlite3_finalize(del);
  sqlite3_finalize(st);
  store_sql_rollback(s);
  return -1;
}

/* The columns variant_idx to n of variant_metrics (lo and hi may be NULL). */
#define FIELD(type, m) STORE_SQL_FIELD(type, study_metric, m)
static const store_sql_field metric_fields[] = {
    FIELD(INT, variant_idx), FIELD(TEXT, metric), FIELD(REAL, value),
    FIELD(REAL, lo), FIELD(REAL, hi), FIELD(INT64, n),
};
#undef FIELD

/* What study_store_foreach hands its rows to. */
typedef struct metric_reader {
  int (*fn)(void *ctx, const study_metric *m);
  void *ctx;
} metric_reader;

static int metric_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  (void)err, (void)errlen;
  const metric_reader *r = ctx;
  study_metric x;
  memset(&x, 0, sizeof x);
  store_sql_read_fields(st, 0, metric_fields, sizeof metric_fields / sizeof metric_fields[0], &x);
  x.has_interval = sqlite3_column_type(st, 3) != SQLITE_NULL;
  return r->fn(r->ctx, &x) ? 1 : 0;
}

int study_store_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const study_metric *m),
                        void *ctx, char *err, size_t errlen) {
  int present = store_tables_ensure(s, &study_store_tables, err, errlen);
  if (present) return present < 0 ? -1 : 0; /* a read-only file without them: no metrics */
  metric_reader r = {fn, ctx};
  return store_sql_foreach(store_sqlite(s),
                           "SELECT variant_idx, metric, value, lo, hi, n FROM variant_metrics"
                           " WHERE run_id = ?1 ORDER BY variant_idx, metric",
                           run_id, metric_row, &r, err, errlen, "cannot read the study's metrics");
}
