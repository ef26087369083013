/* ratings.c: the ratings of fits (table ratings): stored a fit at a time, read back by run. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <string.h>

int store_ratings_insert(store *s, store_rating *r, int n, char *err, size_t errlen) {
  if (n <= 0) return 0;
  char created[sizeof r->created];
  store_sql_now(created, sizeof created);
  sqlite3_stmt *st = NULL;
  long long batch = 0;
  if (store_sql_begin(s, err, errlen)) return -1;
  if (store_sql_query_int(s->db, "SELECT coalesce(max(batch), 0) + 1 FROM ratings", &batch) != SQLITE_OK) {
    store_sql_fail(s->db, err, errlen, "cannot number the ratings");
    goto fail;
  }
  if (store_sql_prepare(s->db,
              "INSERT INTO ratings (batch, run_id, scope, player, elo, lo, hi, games, score, draws,"
              " games_total, bound, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
              " ?12, ?13)",
              0, &st, err, errlen))
    goto fail;
  for (int i = 0; i < n; i++) {
    const store_rating *x = &r[i];
    int rc = sqlite3_bind_int64(st, 1, batch);
    if (!rc) rc = x->run_id ? sqlite3_bind_int64(st, 2, x->run_id) : sqlite3_bind_null(st, 2);
    if (!rc) rc = store_sql_bind_text(st, 3, x->scope, sizeof x->scope);
    if (!rc) rc = store_sql_bind_text(st, 4, x->player, sizeof x->player);
    if (!rc) rc = sqlite3_bind_double(st, 5, x->elo);
    if (!rc) rc = sqlite3_bind_double(st, 6, x->lo);
    if (!rc) rc = sqlite3_bind_double(st, 7, x->hi);
    if (!rc) rc = sqlite3_bind_int64(st, 8, x->games);
    if (!rc) rc = sqlite3_bind_double(st, 9, x->score);
    if (!rc) rc = sqlite3_bind_double(st, 10, x->draws);
    if (!rc) rc = sqlite3_bind_int64(st, 11, x->games_total);
    if (!rc) rc = sqlite3_bind_int(st, 12, x->bound ? 1 : 0);
    if (!rc) rc = store_sql_bind_text(st, 13, created, sizeof created);
    if (!rc) rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
      error_set(err, errlen, "store: cannot store the rating of %s: %s", x->player, sqlite3_errmsg(s->db));
      goto fail;
    }
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  st = NULL;
  if (store_sql_commit(s, err, errlen, "cannot commit the ratings")) goto fail;
  for (int i = 0; i < n; i++) {
    r[i].batch = batch;
    memcpy(r[i].created, created, sizeof created);
  }
  return 0;
fail:
  sqlite3_finalize(st);
  store_sql_rollback(s);
  return -1;
}

int store_ratings_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_rating *r),
                          void *ctx, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (store_sql_prepare(s->db,
              "SELECT batch, coalesce(run_id, 0), scope, player, elo, lo, hi, games, score, draws,"
              " games_total, bound, created FROM ratings WHERE ?1 = 0 OR run_id = ?1"
              " ORDER BY batch, id",
              0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, run_id), ret = 0;
  if (rc != SQLITE_OK) {
    ret = store_sql_fail(s->db, err, errlen, "cannot read ratings");
    goto done;
  }
  store_rating x;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    memset(&x, 0, sizeof x);
    x.batch = sqlite3_column_int64(st, 0);
    x.run_id = sqlite3_column_int64(st, 1);
    store_sql_column_copy(st, 2, x.scope, sizeof x.scope);
    store_sql_column_copy(st, 3, x.player, sizeof x.player);
    x.elo = sqlite3_column_double(st, 4);
    x.lo = sqlite3_column_double(st, 5);
    x.hi = sqlite3_column_double(st, 6);
    x.games = sqlite3_column_int64(st, 7);
    x.score = sqlite3_column_double(st, 8);
    x.draws = sqlite3_column_double(st, 9);
    x.games_total = sqlite3_column_int64(st, 10);
    x.bound = sqlite3_column_int(st, 11);
    store_sql_column_copy(st, 12, x.created, sizeof x.created);
    if (fn(ctx, &x)) goto done;
  }
  if (rc != SQLITE_DONE) ret = store_sql_fail(s->db, err, errlen, "cannot read ratings");
done:
  sqlite3_finalize(st);
  return ret;
}

