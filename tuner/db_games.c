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
  char err[512];
  const store_run *run; /* the run being read */
} reader;

static int read_game(void *ctx, const store_game *g) {
  reader *d = ctx;
  if (g->variant_idx < 0 || g->variant_idx >= d->run->nvariants ||
      strcmp(d->run->variant[g->variant_idx], d->vname) || outcome_is_forfeit(g->end))
    return 0;
  board start;
  char e[256];
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

static int read_run(void *ctx, const store_run *r) {
  reader *d = ctx;
  d->run = r;
  d->runs++;
  if (store_games_foreach(d->db, r->id, read_game, d, d->err, sizeof d->err)) d->failed = 1;
  return d->failed;
}

int tuner_db_games(const char *path, const variant *v, tuner_db_game_fn fn, void *ctx,
                   long long *games, long long *runs, char *err, size_t errlen) {
  reader d;
  memset(&d, 0, sizeof d);
  d.v = v;
  d.fn = fn;
  d.ctx = ctx;
  variant_format(v, d.vname, sizeof d.vname);
  if (store_open_readonly(path, &d.db, d.err, sizeof d.err))
    return error_set(err, errlen, "%s", d.err), -1;
  int rc = store_runs_foreach(d.db, read_run, &d, d.err, sizeof d.err);
  store_close(d.db);
  if (rc || d.failed) return error_set(err, errlen, "%s: %s", path, d.err), -1;
  *games = d.games;
  *runs = d.runs;
  return 0;
}
