/* end_counts.c: how the games of runs ended, counted by end reason (what `oware rate` says of adjudicated games). */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct end_scan {
  long long *counts;
} end_scan;

/* An (end_reason, count) row; an end this oware does not know is an error. */
static int end_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  end_scan *es = ctx;
  const char *name = (const char *)sqlite3_column_text(st, 0);
  outcome_end e;
  if (outcome_end_parse(name, &e))
    return error_set(err, errlen, "store: a game's end reason '%s' is unknown",
                     name ? name : "NULL"),
           -1;
  es->counts[e] += sqlite3_column_int64(st, 1);
  return 0;
}

int store_end_counts(store *s, const int64_t *runs, int nruns, const char *variant_name,
                     long long counts[OUTCOME_NENDS], char *err, size_t errlen) {
  memset(counts, 0, OUTCOME_NENDS * sizeof *counts);
  size_t len = 512 + 24 * (size_t)nruns, at;
  char *sql = malloc(len);
  if (!sql) return error_set(err, errlen, "store: out of memory"), -1;
  at = (size_t)snprintf(sql, len,
                        "SELECT g.end_reason, count(*) FROM games g JOIN variants v ON v.run_id "
                        "= g.run_id AND v.idx = g.variant_idx WHERE (?1 IS NULL OR v.name = ?1)");
  for (int i = 0; i < nruns; i++)
    at += (size_t)snprintf(sql + at, len - at, "%s%" PRId64, i ? "," : " AND g.run_id IN (",
                           runs[i]);
  snprintf(sql + at, len - at, "%s GROUP BY g.end_reason", nruns ? ")" : "");
  sqlite3_stmt *st;
  int rc = store_sql_prepare(store_sqlite(s), sql, 0, &st, err, errlen);
  free(sql);
  if (rc) return -1;
  if (variant_name && sqlite3_bind_text(st, 1, variant_name, -1, SQLITE_STATIC) != SQLITE_OK) {
    sqlite3_finalize(st);
    return store_sql_fail(store_sqlite(s), err, errlen, "cannot count end reasons");
  }
  end_scan es = {counts};
  return store_sql_rows(store_sqlite(s), st, end_row, &es, err, errlen, "cannot count end reasons");
}

long long store_end_adjudicated(const long long counts[OUTCOME_NENDS], long long *games) {
  long long adjudicated = 0;
  *games = 0;
  for (int e = 0; e < OUTCOME_NENDS; e++) {
    *games += counts[e];
    if (outcome_is_adjudicated((outcome_end)e)) adjudicated += counts[e];
  }
  return adjudicated;
}
