/* store_sql.h: inside store/ and for the drivers that keep tables of their own in the store: the connection, and the SQL helpers the store's files share. */
#ifndef OWARE_STORE_SQL_H
#define OWARE_STORE_SQL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "core/variant.h"
#include "store/store.h"

/* One store handle is one SQLite connection, used by one thread at a time
 * (the runner's writer thread). */
struct store {
  sqlite3 *db;
  char *path;
  /* Prepared once, used for every batch: the writer's hot path. */
  sqlite3_stmt *begin, *commit, *rollback, *game_insert, *series_insert, *games_count;
};

/* The connection of s, for the drivers' files that keep tables of their own
 * in the store (one thread at a time, as the store itself). */
sqlite3 *store_sqlite(store *s);

/* ---- store_sql.c: every sqlite3 call checked, every message "store: …" ---- */

/* "store: WHAT: <sqlite3_errmsg>"; returns -1. */
int store_sql_fail(sqlite3 *db, char *err, size_t errlen, const char *what);
/* Runs sql (one or more statements without rows). */
int store_sql_exec(sqlite3 *db, const char *sql, char *err, size_t errlen);
/* Prepares sql (persistent: kept for the handle's life). */
int store_sql_prepare(sqlite3 *db, const char *sql, int persistent, sqlite3_stmt **st, char *err,
                      size_t errlen);
/* Runs a one-row integer query ("PRAGMA user_version"). Returns the
 * sqlite3 result code, SQLITE_OK with *out set on success. */
int store_sql_query_int(sqlite3 *db, const char *sql, long long *out);
/* Runs a cached statement that returns no row (BEGIN, COMMIT, ROLLBACK). */
int store_sql_step_done(sqlite3 *db, sqlite3_stmt *st, char *err, size_t errlen,
                        const char *what);
/* BEGIN IMMEDIATE and COMMIT on the handle's cached statements. */
int store_sql_begin(store *s, char *err, size_t errlen);
int store_sql_commit(store *s, char *err, size_t errlen, const char *what);
/* Ends a failed write transaction, if SQLite has not already done so. */
void store_sql_rollback(store *s);
/* Binds text of at most cap bytes (NULL: ""), not copied. */
int store_sql_bind_text(sqlite3_stmt *st, int i, const char *text, size_t cap);
/* Binds a whole string (NULL: ""), not copied. */
int store_sql_bind_string(sqlite3_stmt *st, int i, const char *text);
/* Copies a column into a fixed buffer: NULL is "", too long is truncated. */
void store_sql_column_copy(sqlite3_stmt *st, int i, char *dst, size_t cap);
/* A copy of a text column (NULL is ""); NULL when out of memory. */
char *store_sql_column_dup(sqlite3_stmt *st, int i);
/* A decimal seed as stored: 0, or -1 when it is not one. */
int store_sql_parse_u64(const char *text, uint64_t *out);
/* The decimal digits of v into buf (at least 21 bytes); returns the length. */
int store_sql_u64_text(uint64_t v, char *buf);
/* The time now, ISO 8601 UTC. */
void store_sql_now(char *buf, size_t len);
/* Appends a copy of text to the array *v of n strings: 0, or -1 when out of
 * memory. */
int store_sql_strings_add(char ***v, int n, const char *text);

/* A row reader for store_sql_rows and store_sql_foreach: reads the row st
 * stands on. Returns 0 for the next row, 1 to stop (not an error), or -1
 * on an error it has written into err. */
typedef int (*store_sql_row_fn)(void *ctx, sqlite3_stmt *st, char *err, size_t errlen);
/* Calls row for each row of the prepared st, then finalizes st. An SQLite
 * error is "store: WHAT: <sqlite3_errmsg>". 0, or -1. */
int store_sql_rows(sqlite3 *db, sqlite3_stmt *st, store_sql_row_fn row, void *ctx, char *err,
                   size_t errlen, const char *what);
/* Prepares sql with id bound to ?1 and calls row for each of its rows, as
 * store_sql_rows. */
int store_sql_foreach(sqlite3 *db, const char *sql, int64_t id, store_sql_row_fn row, void *ctx,
                      char *err, size_t errlen, const char *what);

/* A member of a row struct as a column: its SQL type, where it is in the
 * struct and its size (a text member is a char array, copied up to its
 * size). A table of them describes a row once for binding and reading. */
typedef enum store_sql_type { STORE_SQL_INT, STORE_SQL_INT64, STORE_SQL_REAL, STORE_SQL_TEXT } store_sql_type;
typedef struct store_sql_field {
  store_sql_type type;
  size_t offset, size;
} store_sql_field;
/* STORE_SQL_FIELD(INT64, tuning_row, wins): an int (INT), an int64_t or
 * long long (INT64), a double (REAL) or a char array (TEXT). */
#define STORE_SQL_FIELD(type, T, member)                                                          \
  { STORE_SQL_##type, offsetof(T, member), sizeof(((T *)0)->member) }
/* Binds the n members f of row to ?first, ?first+1, …: the first SQLite
 * error code, or SQLITE_OK. Text is not copied. */
int store_sql_bind_fields(sqlite3_stmt *st, int first, const store_sql_field *f, int n,
                          const void *row);
/* Reads columns first, first+1, … into the n members f of row. */
void store_sql_read_fields(sqlite3_stmt *st, int first, const store_sql_field *f, int n, void *row);

/* ---- games.c: a game row read and checked (a database is input) ---- */

/* The columns store_game_row reads, in its order: select them as they are. */
#define STORE_GAME_COLUMNS                                                                         \
  "run_id, series_no, game_no, variant_idx, round, a_idx, b_idx, south_idx, north_idx, opening," \
  " moves, winner, score_south, score_north, plies, end_reason, detail, seed, seconds,"          \
  " move_records, id"

/* What store_game_row checks a row against: its run's players and variants
 * (loaded when the run changes) and the series being read (every game of a
 * series has its variant and players). Zero it before the first row. */
typedef struct store_game_reader {
  int loaded;                                  /* 0: no run loaded yet */
  int64_t run_id;                              /* the run loaded */
  int nplayers, nvariants;                     /* one past the highest index stored */
  unsigned char player[STORE_MAX_PLAYERS];     /* 1: a players row of that index */
  unsigned char has_variant[STORE_MAX_VARIANTS];
  variant v[STORE_MAX_VARIANTS];
  int in_series;                               /* 1: the fields below hold the last row's series */
  int64_t series_run;
  int series_no, variant_idx, a_idx, b_idx;
} store_game_reader;

/* Reads the game row st stands on (STORE_GAME_COLUMNS) into g, the text
 * members pointing into the row, and checks it: every column of its type and
 * in range, the indices against the run's stored players and variants and the
 * series' first game, the moves and opening of its variant, the winner and
 * the scores against each other and the variant's seeds. 0, or -1 with a
 * message naming the row and what is wrong. */
int store_game_row(sqlite3 *db, sqlite3_stmt *st, store_game_reader *r, store_game *g, char *err,
                   size_t errlen);

/* ---- run.c: a setting's value as stored in run_config ---- */

/* Binds setting i of r as a run_config row of run id (?1 to ?4). */
int store_sql_bind_config(sqlite3_stmt *st, int64_t id, int i, const store_run *r);
/* The setting of key in r, created empty when missing; NULL when out of
 * memory. */
store_config *store_sql_config_slot(store_run *r, const char *key);
/* Parses a stored setting into c (key already set). -1 on a bad row. */
int store_sql_config_parse(store_config *c, const char *type, const char *value);

/* ---- run_files.c ---- */

/* Binds file i of r as a run_files row of run id (?1 to ?4). */
int store_sql_bind_file(sqlite3_stmt *st, int64_t id, int i, const store_run *r);

/* ---- schema.c, tables.c, migrate.c: what a new file gets, and upgrades ---- */

/* Creates the newest schema (and the registered drivers' tables) in an
 * empty database, inside the caller's transaction. */
int store_sql_create_schema(sqlite3 *db, char *err, size_t errlen);
/* Upgrades a database of an older schema to STORE_SCHEMA_VERSION in one
 * transaction (docs/SCHEMA.md). */
int store_sql_migrate(sqlite3 *db, const char *path, char *err, size_t errlen);
/* A players' rule for the specs stored before a default changed
 * (tablebase_spec_off_by_default, minimax_spec_linear_by_default): 1 with
 * *out (malloc'ed) the spec as it must be written now, 0 unchanged, -1 out
 * of memory. */
typedef int (*store_spec_rule)(const char *spec, char **out);
/* Within an upgrade's step that rewrites specs by rule (migrate.c), before
 * it rewrites the run settings: every calibration's anchor and pool
 * settings rewritten by rule (they are players), and its stored pairings
 * (calibration_pairs) named as it will replay them: its players by rule,
 * its base's knob values on the base as the step leaves it (rewritten by
 * rule when base_where, a condition on its row of run_config, selects it). */
int store_sql_calibrations_rewrite(sqlite3 *db, store_spec_rule rule, const char *base_where,
                                   char *err, size_t errlen);
/* The upgrade's step 14 → 15, inside its transaction: the repair of the
 * steps before, which rewrote a calibration's players and base but not its
 * anchor and pool settings nor its stored pairings: those named by the
 * players' specs (the settings still say the specs given, the players'
 * names) and on its base as it is, so that it resumes. */
int store_sql_migrate_calibrations(sqlite3 *db, char *err, size_t errlen);
/* Creates the registered drivers' tables that the database lacks, inside
 * the caller's write transaction. */
int store_sql_create_registered(sqlite3 *db, char *err, size_t errlen);
/* Whether every registered driver's tables are in the database: 1, 0 when
 * one is missing, -1 on error. */
int store_sql_registered_present(sqlite3 *db, char *err, size_t errlen);
/* The tables that schema 2, 3 and 5 added, as store_sql_migrate's steps
 * create them (schema.c). */
extern const char store_sql_ratings[], store_sql_v5[];

#endif
