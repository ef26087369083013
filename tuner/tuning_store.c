/* tuning_store.c: the iterations of tuning runs (table tuning, declared here and registered with the store): written by tuner/, read by tuner/ to resume and by report/ for the tuning chart. */
#include "tuner/tuning_store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <stdlib.h>
#include <string.h>

/* Version 3 adds the iterations of tuning runs (`oware tune`): one row per
 * iteration, the validation match as iteration -1. */
#define TUNING_SQL                                                                                 \
  "CREATE TABLE tuning (\n"                                                                       \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  iteration INTEGER NOT NULL CHECK (iteration >= -1),\n"                                       \
  "  kind TEXT NOT NULL,\n"                                                                       \
  "  weights TEXT NOT NULL,\n"                                                                    \
  "  step TEXT NOT NULL,\n"                                                                       \
  "  wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,\n"                   \
  "  value REAL NOT NULL, lo REAL NOT NULL, hi REAL NOT NULL,\n"                                  \
  "  games INTEGER NOT NULL CHECK (games >= 0),\n"                                                \
  "  created TEXT NOT NULL,\n"                                                                    \
  "  PRIMARY KEY (run_id, iteration)\n"                                                           \
  ");\n"

const store_tables tuning_store_tables = {"tuner/tuning_store.c", "tuning", TUNING_SQL};

/* The columns of a tuning row after run_id, in the order of the table. */
#define TUNING_COLUMNS                                                                             \
  "iteration, kind, weights, step, wins, draws, losses, value, lo, hi, games, created"
#define FIELD(type, m) STORE_SQL_FIELD(type, tuning_row, m)
static const store_sql_field tuning_fields[] = {
    FIELD(INT, iteration), FIELD(TEXT, kind), FIELD(TEXT, weights), FIELD(TEXT, step),
    FIELD(INT64, wins), FIELD(INT64, draws), FIELD(INT64, losses), FIELD(REAL, value),
    FIELD(REAL, lo), FIELD(REAL, hi), FIELD(INT64, games), FIELD(TEXT, created),
};
#undef FIELD
enum { TUNING_NFIELDS = sizeof tuning_fields / sizeof tuning_fields[0] };

int tuning_store_insert(store *s, const tuning_row *t, char *err, size_t errlen) {
  char created[sizeof t->created];
  store_sql_now(created, sizeof created);
  sqlite3_stmt *st;
  if (store_tables_ensure(s, &tuning_store_tables, err, errlen)) return -1;
  if (store_sql_prepare(s->db,
                        "INSERT INTO tuning (run_id, " TUNING_COLUMNS ")"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                        0, &st, err, errlen))
    return -1;
  /* Every column but created, which is now. */
  int rc = sqlite3_bind_int64(st, 1, t->run_id);
  if (!rc) rc = store_sql_bind_fields(st, 2, tuning_fields, TUNING_NFIELDS - 1, t);
  if (!rc) rc = store_sql_bind_text(st, 1 + TUNING_NFIELDS, created, sizeof created);
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

/* What tuning_store_foreach's rows are read into and handed to. */
typedef struct tuning_reader {
  tuning_row x;
  int (*fn)(void *ctx, const tuning_row *t);
  void *ctx;
} tuning_reader;

static int read_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  (void)err, (void)errlen;
  tuning_reader *r = ctx;
  int64_t run_id = r->x.run_id;
  memset(&r->x, 0, sizeof r->x);
  r->x.run_id = run_id;
  store_sql_read_fields(st, 0, tuning_fields, TUNING_NFIELDS, &r->x);
  return r->fn(r->ctx, &r->x) ? 1 : 0;
}

int tuning_store_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const tuning_row *t),
                         void *ctx, char *err, size_t errlen) {
  int present = store_tables_ensure(s, &tuning_store_tables, err, errlen);
  if (present) return present < 0 ? -1 : 0; /* read-only without the table: no rows */
  tuning_reader *r = malloc(sizeof *r);
  if (!r) {
    error_set(err, errlen, "store: out of memory");
    return -1;
  }
  r->x.run_id = run_id;
  r->fn = fn;
  r->ctx = ctx;
  int ret = store_sql_foreach(s->db,
                              "SELECT " TUNING_COLUMNS " FROM tuning WHERE run_id = ?1"
                              " ORDER BY iteration = -1, iteration",
                              run_id, read_row, r, err, errlen,
                              "cannot read the tuning iterations");
  free(r);
  return ret;
}
