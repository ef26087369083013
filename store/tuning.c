/* tuning.c: the iterations of tuning runs (table tuning): written by tuner/, read by tuner/ to resume and by report/ for the tuning chart. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <stdlib.h>
#include <string.h>

int store_tuning_insert(store *s, const store_tuning *t, char *err, size_t errlen) {
  char created[sizeof t->created];
  store_sql_now(created, sizeof created);
  sqlite3_stmt *st;
  if (store_sql_prepare(s->db,
              "INSERT INTO tuning (run_id, iteration, kind, weights, step, wins, draws, losses,"
              " value, lo, hi, games, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
              " ?11, ?12, ?13)",
              0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, t->run_id);
  if (!rc) rc = sqlite3_bind_int(st, 2, t->iteration);
  if (!rc) rc = store_sql_bind_text(st, 3, t->kind, sizeof t->kind);
  if (!rc) rc = store_sql_bind_text(st, 4, t->weights, sizeof t->weights);
  if (!rc) rc = store_sql_bind_text(st, 5, t->step, sizeof t->step);
  if (!rc) rc = sqlite3_bind_int64(st, 6, t->wins);
  if (!rc) rc = sqlite3_bind_int64(st, 7, t->draws);
  if (!rc) rc = sqlite3_bind_int64(st, 8, t->losses);
  if (!rc) rc = sqlite3_bind_double(st, 9, t->value);
  if (!rc) rc = sqlite3_bind_double(st, 10, t->lo);
  if (!rc) rc = sqlite3_bind_double(st, 11, t->hi);
  if (!rc) rc = sqlite3_bind_int64(st, 12, t->games);
  if (!rc) rc = store_sql_bind_text(st, 13, created, sizeof created);
  if (!rc) rc = sqlite3_step(st);
  int ret = 0;
  if (rc != SQLITE_DONE) {
    error_set(err, errlen, "store: cannot store tuning iteration %d of run %lld: %s", t->iteration,
         (long long)t->run_id, sqlite3_errmsg(s->db));
    ret = -1;
  }
  sqlite3_finalize(st);
  return ret;
}

int store_tuning_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_tuning *t),
                         void *ctx, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (store_sql_prepare(s->db,
              "SELECT iteration, kind, weights, step, wins, draws, losses, value, lo, hi, games,"
              " created FROM tuning WHERE run_id = ?1"
              " ORDER BY iteration = -1, iteration",
              0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, run_id), ret = 0;
  if (rc != SQLITE_OK) {
    ret = store_sql_fail(s->db, err, errlen, "cannot read the tuning iterations");
    goto done;
  }
  store_tuning *x = malloc(sizeof *x);
  if (!x) {
    error_set(err, errlen, "store: out of memory");
    ret = -1;
    goto done;
  }
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    memset(x, 0, sizeof *x);
    x->run_id = run_id;
    x->iteration = sqlite3_column_int(st, 0);
    store_sql_column_copy(st, 1, x->kind, sizeof x->kind);
    store_sql_column_copy(st, 2, x->weights, sizeof x->weights);
    store_sql_column_copy(st, 3, x->step, sizeof x->step);
    x->wins = sqlite3_column_int64(st, 4);
    x->draws = sqlite3_column_int64(st, 5);
    x->losses = sqlite3_column_int64(st, 6);
    x->value = sqlite3_column_double(st, 7);
    x->lo = sqlite3_column_double(st, 8);
    x->hi = sqlite3_column_double(st, 9);
    x->games = sqlite3_column_int64(st, 10);
    store_sql_column_copy(st, 11, x->created, sizeof x->created);
    if (fn(ctx, x)) break;
  }
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    ret = store_sql_fail(s->db, err, errlen, "cannot read the tuning iterations");
  free(x);
done:
  sqlite3_finalize(st);
  return ret;
}

