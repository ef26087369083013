/* db_games.c: the finished games of one variant in a database, replayed from their openings. */
#include "tuner/db_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/match.h"
#include "core/error.h"
#include "core/notation.h"

typedef struct reader {
  store *db;
  const variant *v;
  char vname[160];
  tuner_db_game_fn fn;
  void *ctx;
  long long games, runs;
  int failed;
  char err[ERROR_MAX];
  const store_run *run; /* the run being read */
  const char *only;     /* "ID,ID,...", or NULL: every run */
  int found;            /* runs of only met */
} reader;

static int read_game(void *ctx, const store_game *g) {
  reader *d = ctx;
  if (g->variant_idx < 0 || g->variant_idx >= d->run->nvariants ||
      strcmp(d->run->variant[g->variant_idx], d->vname) || outcome_is_forfeit(g->end))
    return 0;
  board start;
  char e[ERROR_MAX];
  if (notation_parse_position(g->opening, d->v, &start, e, sizeof e)) {
    error_set(d->err, sizeof d->err, "run %lld, series %d, game %d: opening: %s",
             (long long)g->run_id, g->series_no, g->game_no, e);
    return d->failed = 1;
  }
  size_t n = strlen(g->moves);
  int *moves = malloc((n + 1) * sizeof *moves);
  if (!moves) {
    error_set(d->err, sizeof d->err, "out of memory");
    return d->failed = 1;
  }
  for (size_t i = 0; i < n; i++) {
    moves[i] = notation_move_index(d->v, g->moves[i]);
    if (moves[i] < 0) {
      error_set(d->err, sizeof d->err, "run %lld, series %d, game %d: move %zu, '%c', is not a "
               "house of the variant", (long long)g->run_id, g->series_no, g->game_no, i + 1,
               g->moves[i]);
      free(moves);
      return d->failed = 1;
    }
  }
  int rc = d->fn(d->ctx, &start, moves, (int)n, g->winner, d->games++);
  free(moves);
  if (rc < 0) {
    error_set(d->err, sizeof d->err, "out of memory");
    return d->failed = 1;
  }
  return 0;
}

/* Whether id is one of the list "ID,ID,..." (checked by check_only). */
static int listed(const char *only, long long id) {
  for (const char *p = only; *p;) {
    char *end;
    if (strtoll(p, &end, 10) == id) return 1;
    p = *end ? end + 1 : end;
  }
  return 0;
}

/* The number of runs in only, or -1 with err when it does not parse. */
static int check_only(const char *only, char *err, size_t errlen) {
  int n = 0;
  for (const char *p = only; *p; n++) {
    char *end;
    long long id = strtoll(p, &end, 10);
    if (end == p || id <= 0 || (*end && *end != ','))
      return error_set(err, errlen, "the runs '%s' are not a list of run numbers ID,ID,...", only),
             -1;
    p = *end ? end + 1 : end;
  }
  return n;
}

static int read_run(void *ctx, const store_run *r) {
  reader *d = ctx;
  if (d->only && !listed(d->only, (long long)r->id)) return 0;
  d->found++;
  d->run = r;
  d->runs++;
  if (store_games_foreach(d->db, r->id, read_game, d, d->err, sizeof d->err)) d->failed = 1;
  return d->failed;
}

int tuner_db_games(const char *path, const variant *v, tuner_db_game_fn fn, void *ctx,
                   long long *games, long long *runs, char *err, size_t errlen) {
  return tuner_db_games_of(path, NULL, v, fn, ctx, games, runs, err, errlen);
}

int tuner_db_games_of(const char *path, const char *only, const variant *v, tuner_db_game_fn fn,
                      void *ctx, long long *games, long long *runs, char *err, size_t errlen) {
  reader d;
  memset(&d, 0, sizeof d);
  int want = only && *only ? check_only(only, err, errlen) : 0;
  if (want < 0) return -1;
  d.only = want ? only : NULL;
  d.v = v;
  d.fn = fn;
  d.ctx = ctx;
  variant_format(v, d.vname, sizeof d.vname);
  if (store_open_readonly(path, &d.db, d.err, sizeof d.err))
    return error_set(err, errlen, "%s", d.err), -1;
  int rc = store_runs_foreach(d.db, read_run, &d, d.err, sizeof d.err);
  store_close(d.db);
  if (rc || d.failed) return error_set(err, errlen, "%s: %s", path, d.err), -1;
  if (d.found != want && want)
    return error_set(err, errlen, "%s: of the runs %s, %d %s not in it", path, only,
                     want - d.found, want - d.found == 1 ? "is" : "are"),
           -1;
  *games = d.games;
  *runs = d.runs;
  return 0;
}
