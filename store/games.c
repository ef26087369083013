/* games.c: games and series: committed in batches (the writer's hot path), read back in order with every row checked. */
#include "store/store.h"
#include "core/error.h"
#include "core/game.h"
#include "store/store_sql.h"
#include "core/move_record.h"
#include "core/notation.h"
#include "core/variant.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The columns run_id to opening of a game row, in the order of the table. */
#define FIELD(type, m) STORE_SQL_FIELD(type, store_game, m)
static const store_sql_field game_fields[] = {
    FIELD(INT64, run_id), FIELD(INT, series_no), FIELD(INT, game_no), FIELD(INT, variant_idx),
    FIELD(INT, round), FIELD(INT, a_idx), FIELD(INT, b_idx), FIELD(INT, south_idx),
    FIELD(INT, north_idx), FIELD(TEXT, opening),
};
#undef FIELD
enum { GAME_NFIELDS = sizeof game_fields / sizeof game_fields[0] };

/* A series row, in the order of the table. */
#define FIELD(type, m) STORE_SQL_FIELD(type, store_series, m)
static const store_sql_field series_fields[] = {
    FIELD(INT64, run_id), FIELD(INT, series_no), FIELD(INT, variant_idx), FIELD(INT, round),
    FIELD(INT, a_idx), FIELD(INT, b_idx), FIELD(INT, games), FIELD(INT, wins_a),
    FIELD(INT, wins_b), FIELD(INT, draws), FIELD(INT, winner),
};
#undef FIELD

static int bind_game(sqlite3_stmt *st, const store_game *g, char *seed) {
  int seedlen = store_sql_u64_text(g->seed, seed);
  int rc = store_sql_bind_fields(st, 1, game_fields, GAME_NFIELDS, g);
  if (!rc) rc = sqlite3_bind_text(st, 11, g->moves ? g->moves : "", -1, SQLITE_STATIC);
  if (!rc) rc = sqlite3_bind_int(st, 12, g->winner);
  if (!rc) rc = sqlite3_bind_double(st, 13, g->score2[0] / 2.0);
  if (!rc) rc = sqlite3_bind_double(st, 14, g->score2[1] / 2.0);
  if (!rc) rc = sqlite3_bind_int(st, 15, g->plies);
  if (!rc) rc = sqlite3_bind_text(st, 16, outcome_end_name(g->end), -1, SQLITE_STATIC);
  if (!rc) rc = store_sql_bind_text(st, 17, g->detail, sizeof g->detail);
  if (!rc) rc = sqlite3_bind_text(st, 18, seed, seedlen, SQLITE_STATIC);
  if (!rc) rc = sqlite3_bind_double(st, 19, g->seconds);
  if (!rc) rc = g->records ? sqlite3_bind_text(st, 20, g->records, -1, SQLITE_STATIC) : sqlite3_bind_null(st, 20);
  return rc;
}

int store_commit(store *s, const store_game *games, int n, const store_series *series, int m,
                 char *err, size_t errlen) {
  if (n <= 0 && m <= 0) return 0;
  char seed[24];
  for (int i = 0; i < n; i++)
    if (!strcmp(outcome_end_name(games[i].end), "?")) {
      error_set(err, errlen, "store: game %d of series %d of run %" PRId64 ": unknown end %d",
           games[i].game_no, games[i].series_no, games[i].run_id, (int)games[i].end);
      return -1;
    }
  if (store_sql_begin(s, err, errlen)) return -1;
  for (int i = 0; i < n; i++) {
    const store_game *g = &games[i];
    int rc = bind_game(s->game_insert, g, seed);
    if (rc == SQLITE_OK) rc = sqlite3_step(s->game_insert);
    if (rc != SQLITE_DONE) {
      if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        error_set(err, errlen, "store: game %d of series %d of run %" PRId64 " is already stored (%s)",
             g->game_no, g->series_no, g->run_id, sqlite3_errmsg(s->db));
      else if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
        error_set(err, errlen,
             "store: game %d of series %d of run %" PRId64 ": no such run, player or variant (%s)",
             g->game_no, g->series_no, g->run_id, sqlite3_errmsg(s->db));
      else
        error_set(err, errlen, "store: cannot store game %d of series %d of run %" PRId64 ": %s", g->game_no,
             g->series_no, g->run_id, sqlite3_errmsg(s->db));
      sqlite3_reset(s->game_insert);
      sqlite3_clear_bindings(s->game_insert);
      store_sql_rollback(s);
      return -1;
    }
    sqlite3_reset(s->game_insert);
  }
  /* Bound pointers are the caller's: forget them before returning. */
  sqlite3_clear_bindings(s->game_insert);
  for (int i = 0; i < m; i++) {
    int rc = store_sql_bind_fields(s->series_insert, 1, series_fields,
                                   sizeof series_fields / sizeof series_fields[0], &series[i]);
    if (!rc) rc = sqlite3_step(s->series_insert);
    sqlite3_reset(s->series_insert);
    if (rc != SQLITE_DONE) {
      error_set(err, errlen, "store: cannot store series %d of run %" PRId64 ": %s", series[i].series_no,
           series[i].run_id, sqlite3_errmsg(s->db));
      store_sql_rollback(s);
      return -1;
    }
  }
  if (store_sql_commit(s, err, errlen, "cannot commit the games")) {
    store_sql_rollback(s);
    return -1;
  }
  return 0;
}

int store_games_insert(store *s, const store_game *games, int n, char *err, size_t errlen) {
  return store_commit(s, games, n, NULL, 0, err, errlen);
}

int store_series_finish(store *s, const store_series *sr, char *err, size_t errlen) {
  return store_commit(s, NULL, 0, sr, 1, err, errlen);
}

/* "store: WHERE: WHAT", WHAT formatted into at most cap bytes; returns -1. */
static int row_fail(char *err, size_t errlen, const char *where, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int row_fail(char *err, size_t errlen, const char *where, size_t cap, const char *fmt, ...) {
  char what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, cap < sizeof what ? cap : sizeof what, fmt, ap);
  va_end(ap);
  error_set(err, errlen, "store: %s: %s", where, what);
  return -1;
}

/* A players row (idx) of the run being loaded. */
static int player_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  store_game_reader *r = ctx;
  long long idx = sqlite3_column_int64(st, 0);
  if (sqlite3_column_type(st, 0) != SQLITE_INTEGER || idx < 0 || idx >= STORE_MAX_PLAYERS) {
    error_set(err, errlen, "store: run %" PRId64 ": a stored player's idx '%.40s' is not an index 0..%d",
              r->run_id, (const char *)sqlite3_column_text(st, 0), STORE_MAX_PLAYERS - 1);
    return -1;
  }
  r->player[idx] = 1;
  if (idx + 1 > r->nplayers) r->nplayers = (int)idx + 1;
  return 0;
}

/* A variant row (idx, name) of the run being loaded. */
static int variant_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  store_game_reader *r = ctx;
  long long idx = sqlite3_column_int64(st, 0);
  const char *name = (const char *)sqlite3_column_text(st, 1);
  char verr[ERROR_MAX];
  if (sqlite3_column_type(st, 0) != SQLITE_INTEGER || idx < 0 || idx >= STORE_MAX_VARIANTS) {
    error_set(err, errlen, "store: run %" PRId64 ": a stored variant's idx '%.40s' is not an index 0..%d",
              r->run_id, (const char *)sqlite3_column_text(st, 0), STORE_MAX_VARIANTS - 1);
    return -1;
  }
  if (variant_parse(name ? name : "", &r->v[idx], verr, sizeof verr)) {
    error_set(err, errlen, "store: run %" PRId64 ": stored variant %lld: %s", r->run_id, idx, verr);
    return -1;
  }
  r->has_variant[idx] = 1;
  if (idx + 1 > r->nvariants) r->nvariants = (int)idx + 1;
  return 0;
}

/* Reads the players and variants of run_id into r, for checking its game
 * rows. */
static int reader_load(sqlite3 *db, int64_t run_id, store_game_reader *r, char *err,
                       size_t errlen) {
  static const char what[] = "cannot read the run's players and variants";
  memset(r, 0, sizeof *r);
  r->run_id = run_id;
  r->loaded = 1;
  return store_sql_foreach(db, "SELECT idx FROM players WHERE run_id = ?1", run_id, player_row, r,
                           err, errlen, what) ||
                 store_sql_foreach(db, "SELECT idx, name FROM variants WHERE run_id = ?1", run_id,
                                   variant_row, r, err, errlen, what)
             ? -1
             : 0;
}

/* Checks the moves of a game row: as many letters as plies, each a house
 * of its variant. */
static int moves_check(const store_game *g, const variant *v, const char *row, char *err,
                       size_t errlen) {
  size_t n = strlen(g->moves);
  if (g->plies < 0 || (size_t)g->plies != n)
    return row_fail(err, errlen, row, 400, "plies %d but %zu move letters", g->plies, n);
  for (size_t i = 0; i < n; i++)
    if (notation_move_index(v, g->moves[i]) < 0) {
      unsigned char c = (unsigned char)g->moves[i];
      return row_fail(err, errlen, row, 400, "move %zu is '%c', not a house letter of its variant",
                      i + 1, c >= 32 && c < 127 ? g->moves[i] : '?');
    }
  return 0;
}


/* Checks the players of a game row: each index a stored player of the run,
 * South and North the series' two players. */
static int players_check(const store_game *g, const store_game_reader *r, const char *row,
                         char *err, size_t errlen) {
  const int idx[4] = {g->a_idx, g->b_idx, g->south_idx, g->north_idx};
  static const char *const names[4] = {"a_idx", "b_idx", "south_idx", "north_idx"};
  for (int i = 0; i < 4; i++) {
    if (!r->nplayers)
      return row_fail(err, errlen, row, 400, "%s %d: the run has no players stored", names[i],
                      idx[i]);
    if (idx[i] < 0 || idx[i] >= r->nplayers)
      return row_fail(err, errlen, row, 400, "%s %d out of range 0..%d", names[i], idx[i],
                      r->nplayers - 1);
    if (!r->player[idx[i]])
      return row_fail(err, errlen, row, 400, "%s %d: the run has no player %d stored", names[i],
                      idx[i], idx[i]);
  }
  if (g->south_idx == g->north_idx || (g->south_idx != g->a_idx && g->south_idx != g->b_idx) ||
      (g->north_idx != g->a_idx && g->north_idx != g->b_idx))
    return row_fail(err, errlen, row, 400,
                    "south_idx %d and north_idx %d are not the series' players %d and %d",
                    g->south_idx, g->north_idx, g->a_idx, g->b_idx);
  return 0;
}

/* Checks the variant index of a game row against the run's stored variants. */
static int variant_check(const store_game *g, const store_game_reader *r, const char *row,
                         char *err, size_t errlen) {
  if (!r->nvariants)
    return row_fail(err, errlen, row, 400, "variant_idx %d: the run has no variants stored",
                    g->variant_idx);
  if (g->variant_idx < 0 || g->variant_idx >= r->nvariants)
    return row_fail(err, errlen, row, 400, "variant_idx %d out of range 0..%d", g->variant_idx,
                    r->nvariants - 1);
  if (!r->has_variant[g->variant_idx])
    return row_fail(err, errlen, row, 400, "variant_idx %d: the run has no variant %d stored",
                    g->variant_idx, g->variant_idx);
  return 0;
}

/* Checks the scores of a game row against its variant's seeds and, for a
 * game the rules ended, the winner against the scores: the rules give the
 * game to the higher score, and every end but majority scores every seed.
 * An adjudicated or forfeited game's winner is the decision stored. */
static int result_check(const store_game *g, const variant *v, const char *row, char *err,
                        size_t errlen) {
  const int s = g->score2[0], n = g->score2[1];
  if (s < 0 || n < 0 || s > 2 * v->total || n > 2 * v->total)
    return row_fail(err, errlen, row, 400, "scores %g-%g out of range 0..%d", s / 2.0, n / 2.0,
                    v->total);
  if (s + n > 2 * v->total)
    return row_fail(err, errlen, row, 400, "scores %g-%g add up to more than the variant's %d seeds",
                    s / 2.0, n / 2.0, v->total);
  if (outcome_is_forfeit(g->end) || outcome_is_adjudicated(g->end)) return 0;
  const char *end = outcome_end_name(g->end);
  int by_scores = s > n ? 0 : n > s ? 1 : -1;
  if (g->winner != by_scores)
    return row_fail(err, errlen, row, 400,
                    "winner %d (%s) but the scores %g-%g of a game ended by %s make it %s",
                    g->winner, game_winner_name(g->winner), s / 2.0, n / 2.0, end,
                    by_scores < 0 ? "a draw" : by_scores ? "North's" : "South's");
  if (g->end == OUTCOME_MAJORITY) {
    if (s <= 2 * v->half && n <= 2 * v->half && !(s == 2 * v->half && n == 2 * v->half))
      return row_fail(err, errlen, row, 400,
                      "scores %g-%g of a game ended by majority: neither has more than %d seeds",
                      s / 2.0, n / 2.0, v->half);
  } else if (s + n != 2 * v->total) {
    return row_fail(err, errlen, row, 400,
                    "scores %g-%g of a game ended by %s do not add up to the variant's %d seeds",
                    s / 2.0, n / 2.0, end, v->total);
  }
  return 0;
}

/* Checks that a game row has the variant and players of its series' first
 * game (games of a series are read in order), then remembers its series. */
static int series_check(const store_game *g, store_game_reader *r, const char *row, char *err,
                        size_t errlen) {
  if (r->in_series && r->series_run == g->run_id && r->series_no == g->series_no &&
      (g->variant_idx != r->variant_idx || g->a_idx != r->a_idx || g->b_idx != r->b_idx))
    return row_fail(err, errlen, row, 400,
                    "variant_idx %d, a_idx %d, b_idx %d, but its series' first game has variant_idx "
                    "%d, a_idx %d, b_idx %d",
                    g->variant_idx, g->a_idx, g->b_idx, r->variant_idx, r->a_idx, r->b_idx);
  r->in_series = 1;
  r->series_run = g->run_id;
  r->series_no = g->series_no;
  r->variant_idx = g->variant_idx;
  r->a_idx = g->a_idx;
  r->b_idx = g->b_idx;
  return 0;
}

int store_game_records(const store_game *g, move_record **out, char *err, size_t errlen) {
  *out = NULL;
  if (!g->records) return 0;
  move_record *m = malloc(((size_t)g->plies + 1) * sizeof *m);
  if (!m) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  if (move_record_parse(g->records, g->plies, m, err, errlen)) {
    free(m);
    return -1;
  }
  *out = m;
  return 1;
}

/* Checks the move records of a game row, when it has them: one a move. */
static int records_check(const store_game *g, const char *row, char *err, size_t errlen) {
  move_record *m;
  char perr[ERROR_MAX];
  int rc = store_game_records(g, &m, perr, sizeof perr);
  free(m);
  return rc < 0 ? row_fail(err, errlen, row, 400, "%s", perr) : 0;
}


/* Checks a game row read from the database (a database is input): every
 * index a stored one of its run, the same variant and players in every game
 * of a series, the result, the moves letters of its variant, the opening a
 * position of it. Returns 0, or -1 with a message naming the row. */
static int game_row_check(const store_game *g, store_game_reader *r, const char *row, char *err,
                          size_t errlen) {
  char perr[ERROR_MAX];
  if (g->series_no < 0)
    return row_fail(err, errlen, row, 400, "series_no %d is negative", g->series_no);
  if (g->game_no < 0) return row_fail(err, errlen, row, 400, "game_no %d is negative", g->game_no);
  if (g->round < 0) return row_fail(err, errlen, row, 400, "round %d is negative", g->round);
  if (variant_check(g, r, row, err, errlen) || players_check(g, r, row, err, errlen) ||
      series_check(g, r, row, err, errlen))
    return -1;
  if (g->winner < -1 || g->winner > 1)
    return row_fail(err, errlen, row, 400, "winner %d is not -1, 0 or 1", g->winner);
  if ((int)g->end < (int)OUTCOME_MAJORITY || (int)g->end >= OUTCOME_NENDS)
    return row_fail(err, errlen, row, 400, "end reason %d", (int)g->end);
  const variant *v = &r->v[g->variant_idx];
  if (result_check(g, v, row, err, errlen)) return -1;
  if (moves_check(g, v, row, err, errlen)) return -1;
  if (records_check(g, row, err, errlen)) return -1;
  board b;
  if (notation_parse_position(g->opening, v, &b, perr, sizeof perr))
    return row_fail(err, errlen, row, 400, "opening '%.60s': %s", g->opening, perr);
  return 0;
}

/* The columns of STORE_GAME_COLUMNS by name, and the column of the row's id. */
static const char *const game_column[] = {
    "run_id", "series_no", "game_no", "variant_idx", "round", "a_idx", "b_idx",
    "south_idx", "north_idx", "opening", "moves", "winner", "score_south", "score_north",
    "plies", "end_reason", "detail", "seed", "seconds", "move_records", "id"};
enum { GAME_COL_ID = 20 };

/* Column i is of another type than `want` ("an integer", "a number", "text"):
 * what it holds, named. Returns -1. */
static int type_fail(sqlite3_stmt *st, int i, const char *want, const char *row, char *err,
                     size_t errlen) {
  int t = sqlite3_column_type(st, i);
  if (t == SQLITE_NULL) return row_fail(err, errlen, row, 400, "%s is NULL, not %s", game_column[i], want);
  if (t == SQLITE_BLOB)
    return row_fail(err, errlen, row, 400, "%s is a blob of %d bytes, not %s", game_column[i],
                    sqlite3_column_bytes(st, i), want);
  if (t == SQLITE_FLOAT)
    return row_fail(err, errlen, row, 400, "%s is the real %.17g, not %s", game_column[i],
                    sqlite3_column_double(st, i), want);
  char text[48];
  store_sql_column_copy(st, i, text, sizeof text);
  for (char *p = text; *p; p++)
    if ((unsigned char)*p < 32 || (unsigned char)*p >= 127) *p = '?';
  return row_fail(err, errlen, row, 400, "%s is %s '%s', not %s", game_column[i],
                  t == SQLITE_TEXT ? "the text" : "the integer", text, want);
}

/* Integer column i into *out: an INTEGER that fits an int (the run_id and the
 * id: any INTEGER). */
static int column_int(sqlite3_stmt *st, int i, const char *row, void *out, char *err,
                      size_t errlen) {
  if (sqlite3_column_type(st, i) != SQLITE_INTEGER)
    return type_fail(st, i, "an integer", row, err, errlen);
  long long x = sqlite3_column_int64(st, i);
  if (i == 0 || i == GAME_COL_ID) {
    *(int64_t *)out = x;
    return 0;
  }
  if (x < INT_MIN || x > INT_MAX)
    return row_fail(err, errlen, row, 400, "%s %lld is beyond a 32-bit integer", game_column[i], x);
  *(int *)out = (int)x;
  return 0;
}

/* Text column i (NULL allowed when null_ok; then *out is NULL). */
static int column_text(sqlite3_stmt *st, int i, int null_ok, const char *row, const char **out,
                       char *err, size_t errlen) {
  int t = sqlite3_column_type(st, i);
  if (t != SQLITE_TEXT && !(null_ok && t == SQLITE_NULL))
    return type_fail(st, i, "text", row, err, errlen);
  *out = (const char *)sqlite3_column_text(st, i);
  if (!*out && t != SQLITE_NULL) {
    error_set(err, errlen, "store: %s: out of memory reading %s", row, game_column[i]);
    return -1;
  }
  return 0;
}

/* Real column i (an INTEGER or a REAL) into *out. */
static int column_real(sqlite3_stmt *st, int i, const char *row, double *out, char *err,
                       size_t errlen) {
  int t = sqlite3_column_type(st, i);
  if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) return type_fail(st, i, "a number", row, err, errlen);
  *out = sqlite3_column_double(st, i);
  return 0;
}

/* Reads a row of STORE_GAME_COLUMNS into g (text members point into the
 * row), every column checked for its type and range before it is narrowed. */
static int game_from_row(sqlite3_stmt *st, store_game *g, char *row, size_t rowlen, char *err,
                         size_t errlen) {
  int64_t id = 0;
  memset(g, 0, sizeof *g);
  snprintf(row, rowlen, "a game row");
  if (column_int(st, GAME_COL_ID, row, &id, err, errlen) || column_int(st, 0, row, &g->run_id, err, errlen))
    return -1;
  snprintf(row, rowlen, "run %" PRId64 " game row id %" PRId64, g->run_id, id);
  if (column_int(st, 1, row, &g->series_no, err, errlen) ||
      column_int(st, 2, row, &g->game_no, err, errlen))
    return -1;
  snprintf(row, rowlen, "run %" PRId64 " game %d (series %d)", g->run_id, g->game_no, g->series_no);
  int *const ints[] = {&g->variant_idx, &g->round, &g->a_idx, &g->b_idx, &g->south_idx, &g->north_idx};
  for (int i = 0; i < 6; i++)
    if (column_int(st, 3 + i, row, ints[i], err, errlen)) return -1;
  const char *opening, *end, *detail, *seed;
  if (column_text(st, 9, 0, row, &opening, err, errlen) ||
      column_text(st, 10, 0, row, &g->moves, err, errlen) ||
      column_int(st, 11, row, &g->winner, err, errlen))
    return -1;
  if (strlen(opening) >= sizeof g->opening)
    return row_fail(err, errlen, row, 400, "opening '%.60s...' is longer than %zu bytes", opening,
                    sizeof g->opening - 1);
  memcpy(g->opening, opening, strlen(opening) + 1);
  /* Scores are whole or half seeds: doubling them is exact. Anything else
   * (NaN, huge, a fraction) is refused before it is converted. */
  for (int k = 0; k < 2; k++) {
    double x = 0.0;
    if (column_real(st, 12 + k, row, &x, err, errlen)) return -1;
    x *= 2.0;
    if (!(x >= 0.0 && x <= 2.0 * VARIANT_MAX_TOTAL) || x != (double)(int)x)
      return row_fail(err, errlen, row, 400, "score_%s %g is not a score", k ? "north" : "south",
                      x / 2.0);
    g->score2[k] = (int)x;
  }
  if (column_int(st, 14, row, &g->plies, err, errlen) ||
      column_text(st, 15, 0, row, &end, err, errlen))
    return -1;
  if (outcome_end_parse(end, &g->end))
    return row_fail(err, errlen, row, 200, "unknown end reason '%s'", end);
  if (column_text(st, 16, 0, row, &detail, err, errlen)) return -1;
  snprintf(g->detail, sizeof g->detail, "%s", detail);
  if (column_text(st, 17, 0, row, &seed, err, errlen)) return -1;
  if (store_sql_parse_u64(seed, &g->seed))
    return row_fail(err, errlen, row, 200, "seed '%.40s' is not a decimal seed", seed);
  if (column_real(st, 18, row, &g->seconds, err, errlen)) return -1;
  if (!(g->seconds >= 0.0))
    return row_fail(err, errlen, row, 200, "seconds %g is negative", g->seconds);
  return column_text(st, 19, 1, row, &g->records, err, errlen);
}

int store_game_row(sqlite3 *db, sqlite3_stmt *st, store_game_reader *r, store_game *g, char *err,
                   size_t errlen) {
  char row[96];
  if (game_from_row(st, g, row, sizeof row, err, errlen)) return -1;
  if ((!r->loaded || g->run_id != r->run_id) && reader_load(db, g->run_id, r, err, errlen)) return -1;
  return game_row_check(g, r, row, err, errlen);
}

/* What store_games_foreach reads its rows with and hands them to. */
typedef struct games_reader {
  sqlite3 *db;
  store_game_reader r;
  store_game g;
  int (*fn)(void *ctx, const store_game *g);
  void *ctx;
} games_reader;

/* Every row is checked before fn sees it: a database is input. */
static int game_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  games_reader *r = ctx;
  if (store_game_row(r->db, st, &r->r, &r->g, err, errlen)) return -1;
  return r->fn(r->ctx, &r->g) ? 1 : 0;
}

int store_games_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_game *g),
                        void *ctx, char *err, size_t errlen) {
  games_reader *r = calloc(1, sizeof *r);
  int ret = -1;
  if (!r) error_set(err, errlen, "store: out of memory reading games");
  else {
    r->db = s->db;
    r->fn = fn;
    r->ctx = ctx;
    /* A statement of its own (not cached), so that fn may use the store. */
    ret = store_sql_foreach(s->db,
                            "SELECT " STORE_GAME_COLUMNS " FROM games WHERE run_id = ?1"
                            " ORDER BY series_no, game_no",
                            run_id, game_row, r, err, errlen, "cannot read games");
  }
  free(r);
  return ret;
}

long long store_games_count(store *s, int64_t run_id) {
  sqlite3_stmt *st = s->games_count;
  long long n = -1;
  if (sqlite3_bind_int64(st, 1, run_id) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_reset(st);
  return n;
}

