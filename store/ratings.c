/* ratings.c: the ratings of fits (table ratings): stored a fit at a time, read back by run. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <string.h>

/* The columns of a ratings row, in the order of the table (a NULL run_id
 * reads as 0: several runs pooled). */
#define RATING_COLUMNS                                                                             \
  "batch, run_id, scope, player, elo, lo, hi, games, score, draws, games_total, bound, created"
#define FIELD(type, m) STORE_SQL_FIELD(type, store_rating, m)
static const store_sql_field rating_fields[] = {
    FIELD(INT64, batch), FIELD(INT64, run_id), FIELD(TEXT, scope), FIELD(TEXT, player), FIELD(REAL, elo),
    FIELD(REAL, lo), FIELD(REAL, hi), FIELD(INT64, games), FIELD(REAL, score),
    FIELD(REAL, draws), FIELD(INT64, games_total), FIELD(INT, bound), FIELD(TEXT, created),
};
#undef FIELD
/* The fields bound as they are: scope to games_total (?3 to ?11). */
enum { RATING_FIRST_PLAIN = 2, RATING_NPLAIN = 9, RATING_NFIELDS = sizeof rating_fields / sizeof rating_fields[0] };

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
                        "INSERT INTO ratings (" RATING_COLUMNS ")"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                        0, &st, err, errlen))
    goto fail;
  for (int i = 0; i < n; i++) {
    const store_rating *x = &r[i];
    int rc = sqlite3_bind_int64(st, 1, batch);
    if (!rc) rc = x->run_id ? sqlite3_bind_int64(st, 2, x->run_id) : sqlite3_bind_null(st, 2);
    if (!rc) rc = store_sql_bind_fields(st, 1 + RATING_FIRST_PLAIN, rating_fields + RATING_FIRST_PLAIN,
                                        RATING_NPLAIN, x);
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

/* What store_ratings_foreach hands its rows to. */
typedef struct rating_reader {
  int (*fn)(void *ctx, const store_rating *r);
  void *ctx;
} rating_reader;

static int rating_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  (void)err, (void)errlen;
  const rating_reader *r = ctx;
  store_rating x;
  memset(&x, 0, sizeof x);
  store_sql_read_fields(st, 0, rating_fields, RATING_NFIELDS, &x);
  return r->fn(r->ctx, &x) ? 1 : 0;
}

int store_ratings_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_rating *r),
                          void *ctx, char *err, size_t errlen) {
  rating_reader r = {fn, ctx};
  return store_sql_foreach(s->db,
                           "SELECT " RATING_COLUMNS " FROM ratings"
                           " WHERE ?1 = 0 OR run_id = ?1 ORDER BY batch, id",
                           run_id, rating_row, &r, err, errlen, "cannot read ratings");
}
