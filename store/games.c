/* games.c: games and series: committed in batches (the writer's hot path), read back in order with every row checked. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"
#include "core/move_record.h"
#include "core/notation.h"
#include "core/variant.h"

#include <inttypes.h>
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

/* What a game row of a run may hold: the run's player count and variants. */
typedef struct row_rules {
  int64_t run_id;
  int nplayers, nvariants;
  variant v[STORE_MAX_VARIANTS];
} row_rules;

/* A variant row (idx, name) of the run into rr, in order. */
static int variant_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  row_rules *rr = ctx;
  int idx = sqlite3_column_int(st, 0);
  const char *name = (const char *)sqlite3_column_text(st, 1);
  char verr[ERROR_MAX];
  if (idx != rr->nvariants || idx >= STORE_MAX_VARIANTS) {
    error_set(err, errlen, "store: run %" PRId64 ": variant index %d out of order or range",
              rr->run_id, idx);
    return -1;
  }
  if (variant_parse(name ? name : "", &rr->v[idx], verr, sizeof verr)) {
    error_set(err, errlen, "store: run %" PRId64 ": stored variant %d: %s", rr->run_id, idx, verr);
    return -1;
  }
  rr->nvariants++;
  return 0;
}

/* Reads the run's players and variants for checking its game rows. */
static int row_rules_load(store *s, int64_t run_id, row_rules *rr, char *err, size_t errlen) {
  static const char what[] = "cannot read the run's players and variants";
  sqlite3_stmt *st = NULL;
  memset(rr, 0, sizeof *rr);
  rr->run_id = run_id;
  if (store_sql_prepare(s->db, "SELECT count(*) FROM players WHERE run_id = ?1", 0, &st, err, errlen))
    return -1;
  if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
    store_sql_fail(s->db, err, errlen, what);
    sqlite3_finalize(st);
    return -1;
  }
  long long np = sqlite3_column_int64(st, 0);
  rr->nplayers = np > STORE_MAX_PLAYERS ? STORE_MAX_PLAYERS : (int)np;
  sqlite3_finalize(st);
  return store_sql_foreach(s->db, "SELECT idx, name FROM variants WHERE run_id = ?1 ORDER BY idx",
                           run_id, variant_row, rr, err, errlen, what);
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

/* Checks the players of a game row: indices in range, South and North the
 * series' two players. */
static int players_check(const store_game *g, const row_rules *rr, const char *row, char *err,
                         size_t errlen) {
  const int idx[4] = {g->a_idx, g->b_idx, g->south_idx, g->north_idx};
  static const char *const names[4] = {"a_idx", "b_idx", "south_idx", "north_idx"};
  for (int i = 0; i < 4; i++)
    if (idx[i] < 0 || idx[i] >= rr->nplayers)
      return row_fail(err, errlen, row, 400, "%s %d out of range 0..%d", names[i], idx[i],
                      rr->nplayers - 1);
  if (g->south_idx == g->north_idx || (g->south_idx != g->a_idx && g->south_idx != g->b_idx) ||
      (g->north_idx != g->a_idx && g->north_idx != g->b_idx))
    return row_fail(err, errlen, row, 400,
                    "south_idx %d and north_idx %d are not the series' players %d and %d",
                    g->south_idx, g->north_idx, g->a_idx, g->b_idx);
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
 * index in range, the moves letters of its variant, the opening a position
 * of it. Returns 0, or -1 with a message naming the row. */
static int game_row_check(const store_game *g, const row_rules *rr, char *err, size_t errlen) {
  char row[96], perr[ERROR_MAX];
  snprintf(row, sizeof row, "run %" PRId64 " game %d (series %d)", g->run_id, g->game_no,
           g->series_no);
  if (g->series_no < 0)
    return row_fail(err, errlen, row, 400, "series_no %d is negative", g->series_no);
  if (g->game_no < 0) return row_fail(err, errlen, row, 400, "game_no %d is negative", g->game_no);
  if (g->round < 0) return row_fail(err, errlen, row, 400, "round %d is negative", g->round);
  if (g->variant_idx < 0 || g->variant_idx >= rr->nvariants)
    return row_fail(err, errlen, row, 400, "variant_idx %d out of range 0..%d", g->variant_idx,
                    rr->nvariants - 1);
  if (players_check(g, rr, row, err, errlen)) return -1;
  if (g->winner < -1 || g->winner > 1)
    return row_fail(err, errlen, row, 400, "winner %d is not -1, 0 or 1", g->winner);
  const variant *v = &rr->v[g->variant_idx];
  if (g->score2[0] < 0 || g->score2[1] < 0 || g->score2[0] > 2 * v->total ||
      g->score2[1] > 2 * v->total)
    return row_fail(err, errlen, row, 400, "scores %g-%g out of range 0..%d", g->score2[0] / 2.0,
                    g->score2[1] / 2.0, v->total);
  if ((int)g->end < (int)OUTCOME_MAJORITY || (int)g->end >= OUTCOME_NENDS)
    return row_fail(err, errlen, row, 400, "end reason %d", (int)g->end);
  if (moves_check(g, v, row, err, errlen)) return -1;
  if (records_check(g, row, err, errlen)) return -1;
  board b;
  if (notation_parse_position(g->opening, v, &b, perr, sizeof perr))
    return row_fail(err, errlen, row, 400, "opening '%.60s': %s", g->opening, perr);
  return 0;
}

#define GAME_COLUMNS                                                                               \
  "run_id, series_no, game_no, variant_idx, round, a_idx, b_idx, south_idx, north_idx, opening," \
  " moves, winner, score_south, score_north, plies, end_reason, detail, seed, seconds, move_records"

/* Reads a row of GAME_COLUMNS into g (moves point into the row); the
 * columns that need a conversion are checked here, the rest by
 * game_row_check. */
static int game_from_row(sqlite3_stmt *st, int64_t run_id, store_game *g, char *err,
                         size_t errlen) {
  memset(g, 0, sizeof *g);
  store_sql_read_fields(st, 0, game_fields, GAME_NFIELDS, g);
  const unsigned char *moves = sqlite3_column_text(st, 10);
  g->moves = moves ? (const char *)moves : "";
  g->winner = sqlite3_column_int(st, 11);
  /* Scores are whole or half seeds: doubling them is exact. Anything else
   * (NaN, huge, a fraction) is refused before it is converted. */
  for (int k = 0; k < 2; k++) {
    double x = sqlite3_column_double(st, 12 + k) * 2.0;
    if (!(x >= 0.0 && x <= 2.0 * VARIANT_MAX_TOTAL) || x != (double)(int)x) {
      error_set(err, errlen,
                "store: run %" PRId64 " game %d (series %d): score_%s %g is not a score", run_id,
                g->game_no, g->series_no, k ? "north" : "south", x / 2.0);
      return -1;
    }
    g->score2[k] = (int)x;
  }
  g->plies = sqlite3_column_int(st, 14);
  char where[96];
  snprintf(where, sizeof where, "run %" PRId64 ", series %d, game %d", run_id, g->series_no,
           g->game_no);
  const char *end = (const char *)sqlite3_column_text(st, 15);
  if (outcome_end_parse(end, &g->end))
    return row_fail(err, errlen, where, 200, "unknown end reason '%s'", end ? end : "NULL");
  store_sql_column_copy(st, 16, g->detail, sizeof g->detail);
  if (store_sql_parse_u64((const char *)sqlite3_column_text(st, 17), &g->seed))
    return row_fail(err, errlen, where, 200, "bad seed");
  g->seconds = sqlite3_column_double(st, 18);
  g->records = (const char *)sqlite3_column_text(st, 19);
  return 0;
}

/* What store_games_foreach reads its rows with and hands them to. */
typedef struct games_reader {
  row_rules rr;
  store_game g;
  int (*fn)(void *ctx, const store_game *g);
  void *ctx;
} games_reader;

/* Every row is checked before fn sees it: a database is input. */
static int game_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  games_reader *r = ctx;
  if (game_from_row(st, r->rr.run_id, &r->g, err, errlen) ||
      game_row_check(&r->g, &r->rr, err, errlen))
    return -1;
  return r->fn(r->ctx, &r->g) ? 1 : 0;
}

int store_games_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_game *g),
                        void *ctx, char *err, size_t errlen) {
  games_reader *r = malloc(sizeof *r);
  int ret = -1;
  if (!r) error_set(err, errlen, "store: out of memory reading games");
  else if (!row_rules_load(s, run_id, &r->rr, err, errlen)) {
    r->fn = fn;
    r->ctx = ctx;
    /* A statement of its own (not cached), so that fn may use the store. */
    ret = store_sql_foreach(s->db,
                            "SELECT " GAME_COLUMNS " FROM games WHERE run_id = ?1"
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

