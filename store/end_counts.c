/* end_counts.c: how the games of runs ended, counted by end reason in all and per player with its score (what `oware rate` says of them). */
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

/* Prepares "HEAD WHERE (?1 IS NULL OR v.name = ?1) [AND g.run_id IN
 * (runs)]TAIL" with variant_name bound to ?1: HEAD selects from games g
 * joined with variants v (and whatever else it needs). 0, or -1 with err. */
static int prepare_filtered(store *s, const char *head, const char *tail, const int64_t *runs,
                            int nruns, const char *variant_name, sqlite3_stmt **st, char *err,
                            size_t errlen) {
  size_t len = strlen(head) + strlen(tail) + 64 + 24 * (size_t)nruns, at;
  char *sql = malloc(len);
  if (!sql) return error_set(err, errlen, "store: out of memory"), -1;
  at = (size_t)snprintf(sql, len, "%s WHERE (?1 IS NULL OR v.name = ?1)", head);
  for (int i = 0; i < nruns; i++)
    at += (size_t)snprintf(sql + at, len - at, "%s%" PRId64, i ? "," : " AND g.run_id IN (",
                           runs[i]);
  snprintf(sql + at, len - at, "%s%s", nruns ? ")" : "", tail);
  int rc = store_sql_prepare(store_sqlite(s), sql, 0, st, err, errlen);
  free(sql);
  if (rc) return -1;
  if (variant_name && sqlite3_bind_text(*st, 1, variant_name, -1, SQLITE_STATIC) != SQLITE_OK) {
    sqlite3_finalize(*st);
    return store_sql_fail(store_sqlite(s), err, errlen, "cannot count end reasons");
  }
  return 0;
}

int store_end_counts(store *s, const int64_t *runs, int nruns, const char *variant_name,
                     long long counts[OUTCOME_NENDS], char *err, size_t errlen) {
  memset(counts, 0, OUTCOME_NENDS * sizeof *counts);
  sqlite3_stmt *st;
  if (prepare_filtered(s, "SELECT g.end_reason, count(*) FROM games g JOIN variants v ON v.run_id "
                          "= g.run_id AND v.idx = g.variant_idx",
                       " GROUP BY g.end_reason", runs, nruns, variant_name, &st, err, errlen))
    return -1;
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

typedef struct score_scan {
  store_end_score *rows;
  int n, cap;
} score_scan;

/* A (name, end_reason, wins, draws, losses, own wins, own draws, own
 * losses) row. */
static int score_row(void *ctx, sqlite3_stmt *st, char *err, size_t errlen) {
  score_scan *sc = ctx;
  const char *name = (const char *)sqlite3_column_text(st, 0);
  const char *end = (const char *)sqlite3_column_text(st, 1);
  outcome_end e;
  if (outcome_end_parse(end, &e))
    return error_set(err, errlen, "store: a game's end reason '%s' is unknown", end ? end : "NULL"),
           -1;
  if (sc->n == sc->cap) {
    int cap = sc->cap ? 2 * sc->cap : 16;
    store_end_score *r = realloc(sc->rows, (size_t)cap * sizeof *r);
    if (!r) return error_set(err, errlen, "store: out of memory"), -1;
    sc->rows = r;
    sc->cap = cap;
  }
  store_end_score *r = &sc->rows[sc->n++];
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", name ? name : "");
  r->end = e;
  long long *v[] = {&r->wins, &r->draws, &r->losses, &r->own_wins, &r->own_draws, &r->own_losses};
  for (int i = 0; i < 6; i++) *v[i] = sqlite3_column_int64(st, 2 + i);
  return 0;
}

int store_end_scores(store *s, const int64_t *runs, int nruns, const char *variant_name,
                     store_end_score **rows, int *n, char *err, size_t errlen) {
  *rows = NULL;
  *n = 0;
  /* r: the game's result for the player (1 won, 0 drawn, -1 lost); own:
   * the last ply was its move (a South move is a capital letter). */
  sqlite3_stmt *st;
  if (prepare_filtered(
          s,
          "SELECT name, end_reason, sum(r = 1), sum(r = 0), sum(r = -1), sum(own AND r = 1), "
          "sum(own AND r = 0), sum(own AND r = -1) FROM (SELECT p.name AS name, g.end_reason AS "
          "end_reason, CASE WHEN g.winner < 0 THEN 0 WHEN (g.winner = 0) = (p.idx = g.south_idx) "
          "THEN 1 ELSE -1 END AS r, g.moves <> '' AND (substr(g.moves, -1) = upper(substr(g.moves, "
          "-1))) = (p.idx = g.south_idx) AS own FROM games g JOIN variants v ON v.run_id = g.run_id "
          "AND v.idx = g.variant_idx JOIN players p ON p.run_id = g.run_id AND (p.idx = g.south_idx "
          "OR p.idx = g.north_idx)",
          ") GROUP BY name, end_reason ORDER BY name, end_reason", runs, nruns, variant_name, &st,
          err, errlen))
    return -1;
  score_scan sc = {0};
  if (store_sql_rows(store_sqlite(s), st, score_row, &sc, err, errlen,
                     "cannot count the players' end reasons")) {
    free(sc.rows);
    return -1;
  }
  *rows = sc.rows;
  *n = sc.n;
  return 0;
}
