/* analyse.c: replays a run's games against the endgame databases and measures each player's distance from perfect play; the analysis stored or computed (analyse_get). */
#include "run/analyse.h"
#include "core/error.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game.h"
#include "core/outfile.h"


/* Seeds a table build is suggested for when no variant has any. */
#define ANALYSE_SUGGESTED_SEEDS 12

/* ---- Opening the tables of every variant ---- */

typedef struct tables {
  int n;
  variant v[STORE_MAX_VARIANTS];
  egdb *db[STORE_MAX_VARIANTS];
} tables;

static void tables_close(tables *t) {
  for (int i = 0; i < t->n; i++) egdb_close(t->db[i]);
  t->n = 0;
}

/* Opens the tables of each of the run's variants (egdb_open's flags) and
 * settles the coverage: *seeds as asked, or the smallest largest table. */
static int tables_open(const store_run *run, const char *dir, int flags, int *seeds, tables *t,
                       char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  int have = -1; /* the largest table of any variant, for the suggestion */
  char missing[256] = "";
  for (int i = 0; i < run->nvariants; i++) {
    const char *name = run->variant[i];
    char key[128], e[ERROR_MAX];
    if (variant_parse(name, &t->v[i], e, sizeof e)) {
      error_set(err, errlen, "run %" PRId64 ": stored variant '%s': %s", run->id, name, e);
      goto fail;
    }
    if (egdb_variant_key(&t->v[i], key, sizeof key, e, sizeof e)) {
      error_set(err, errlen, "variant '%s': %s; its games cannot be analysed", name, e);
      goto fail;
    }
    int rc = egdb_open(dir, &t->v[i], *seeds, flags, &t->db[i], e, sizeof e);
    t->n = i + 1;
    if (rc == EGDB_EIO) {
      t->db[i] = NULL;
      if (!missing[0]) snprintf(missing, sizeof missing, "%s", name);
      continue;
    }
    if (rc) {
      error_set(err, errlen, "variant '%s': %s", name, e);
      goto fail;
    }
    int m = egdb_max_seeds(t->db[i]);
    if (m > have) have = m;
  }
  if (missing[0]) {
    int n = *seeds >= 0 ? *seeds : have >= 0 ? have : ANALYSE_SUGGESTED_SEEDS;
    error_set(err, errlen, "no endgame tables of variant '%s' in %s: build them with 'oware egdb build --variant "
        "%s --seeds %d --dir %s'",
        missing, dir, missing, n, dir);
    goto fail;
  }
  int cover = *seeds;
  for (int i = 0; i < t->n; i++) {
    int m = egdb_max_seeds(t->db[i]);
    if (*seeds >= 0 && m < *seeds) {
      error_set(err, errlen, "the endgame tables of variant '%s' in %s stop at %d seeds, not %d: build them with "
          "'oware egdb build --variant %s --seeds %d --dir %s'",
          run->variant[i], dir, m, *seeds, run->variant[i], *seeds, dir);
      goto fail;
    }
    if (cover < 0 || m < cover) cover = m;
  }
  *seeds = cover < 0 ? 0 : cover;
  return 0;
fail:
  tables_close(t);
  return -1;
}

/* ---- Replaying the games ---- */

typedef struct replay {
  analyse_result *r;
  tables *t;
  int cap;                         /* of r->mistake */
  char *err;
  size_t errlen;
} replay;

/* +1 win, 0 draw, −1 loss for the mover of b ending with w2 half seeds of
 * the n on the board. */
static int result_of(const board *b, int n, int w2) {
  int me = 2 * b->store[b->side] + w2, you = 2 * b->store[1 - b->side] + 2 * n - w2;
  return (me > you) - (me < you);
}

static int add_mistake(replay *rp, const analyse_mistake *m) {
  analyse_result *r = rp->r;
  if (r->nmistakes == rp->cap) {
    int cap = rp->cap ? 2 * rp->cap : 256;
    analyse_mistake *v = realloc(r->mistake, (size_t)cap * sizeof *v);
    if (!v) return -1;
    r->mistake = v;
    rp->cap = cap;
  }
  r->mistake[r->nmistakes++] = *m;
  return 0;
}

/* Judges the move m of the mover (player p) in b. Returns 0 (not covered,
 * or judged), 1 when it is a mistake that changed the result, -1 when out
 * of memory or the move is not legal. */
static int judge(replay *rp, const store_game *g, int ply, const variant *v, const egdb *db,
                 const board *b, int m, int p, int *covered) {
  analyse_result *r = rp->r;
  int n = v->total - b->store[0] - b->store[1];
  *covered = 0;
  if (n > r->seeds) return 0;
  egdb_value mv[VARIANT_MAX_PITS];
  uint32_t legal;
  if (egdb_probe_moves(db, b, &legal, mv)) return 0;
  if (!(legal >> m & 1)) {
    snprintf(rp->err, rp->errlen, "run %" PRId64 ", series %d, game %d, ply %d: move %c is not "
             "legal", g->run_id, g->series_no, g->game_no, ply + 1, notation_move_letter(v, m));
    return -1;
  }
  *covered = 1;
  analyse_player *ap = &r->player[p];
  ap->positions++;
  if (__builtin_popcount(legal) == 1) ap->forced++;
  const int split = egdb_split(db) && v->cycle == VARIANT_CYCLE_SPLIT;
  int best = -1, best2 = -1, played2, proven = 0;
  if (split) {
    for (uint32_t l = legal; l; l &= l - 1) {
      int k = __builtin_ctz(l);
      if (mv[k].split2 > best2) best2 = mv[k].split2, best = k;
    }
    played2 = mv[m].split2;
  } else {
    int lo = -1, hi = -1;
    for (uint32_t l = legal; l; l &= l - 1) {
      int k = __builtin_ctz(l);
      if (mv[k].lower > lo) lo = mv[k].lower, best = k;
      if (mv[k].upper > hi) hi = mv[k].upper;
    }
    best2 = 2 * lo;
    if (lo == hi && mv[m].lower == mv[m].upper) {
      played2 = 2 * mv[m].lower;
    } else if (mv[m].upper < lo) {
      played2 = 2 * mv[m].upper, proven = 1;
    } else {
      ap->cycle++;
      return 0;
    }
  }
  if (proven) ap->proven++;
  else ap->exact++;
  r->moves_at[p][n]++;
  if (played2 >= best2) {
    ap->kept += !proven;
    return 0;
  }
  analyse_mistake x;
  memset(&x, 0, sizeof x);
  x.series_no = g->series_no, x.variant_idx = g->variant_idx, x.game_no = g->game_no, x.ply = ply, x.player = p, x.seeds = n;
  notation_format_position(b, v, NULL, x.position, sizeof x.position);
  x.played = m, x.best = best, x.best2 = best2, x.played2 = played2;
  x.lost2 = best2 - played2;
  x.proven = proven;
  x.changed = result_of(b, n, best2) != result_of(b, n, played2);
  ap->lost2 += x.lost2;
  r->lost2_at[p][n] += x.lost2;
  if (add_mistake(rp, &x)) {
    snprintf(rp->err, rp->errlen, "out of memory");
    return -1;
  }
  return x.changed;
}

static int replay_game(void *ctx, const store_game *g) {
  replay *rp = ctx;
  const variant *v = &rp->t->v[g->variant_idx];
  const egdb *db = rp->t->db[g->variant_idx];
  board start;
  char e[ERROR_MAX];
  if (notation_parse_position(g->opening, v, &start, e, sizeof e)) {
    snprintf(rp->err, rp->errlen, "run %" PRId64 ", series %d, game %d: opening: %s", g->run_id,
             g->series_no, g->game_no, e);
    return -1;
  }
  game gm;
  if (game_init(&gm, v, &start)) {
    snprintf(rp->err, rp->errlen, "out of memory");
    return -1;
  }
  int seen[2] = {0, 0}, changed[2] = {0, 0}, rc = 0;
  for (int ply = 0; ply < g->plies && !rc; ply++) {
    int m = notation_move_index(v, g->moves[ply]), side = gm.pos.side, covered = 0;
    int p = side == 0 ? g->south_idx : g->north_idx;
    board b = gm.pos;
    int j = gm.winner == GAME_PLAYING ? judge(rp, g, ply, v, db, &b, m, p, &covered) : 0;
    if (j < 0) {
      rc = -1;
      break;
    }
    seen[side] |= covered;
    changed[side] |= j;
    if (game_play(&gm, m)) {
      snprintf(rp->err, rp->errlen, "run %" PRId64 ", series %d, game %d, ply %d: move %c is not "
               "legal%s", g->run_id, g->series_no, g->game_no, ply + 1, g->moves[ply],
               gm.winner != GAME_PLAYING ? " (the game is over)" : "");
      rc = -1;
    }
  }
  game_free(&gm);
  if (rc) return -1;
  for (int s = 0; s < 2; s++) {
    analyse_player *ap = &rp->r->player[s == 0 ? g->south_idx : g->north_idx];
    ap->games += seen[s];
    ap->changed += changed[s];
  }
  rp->r->run_games++;
  return 0;
}

static void now_iso8601(char *buf, size_t len) {
  time_t t = time(NULL);
  struct tm tm;
  if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm)) snprintf(buf, len, "?");
}

int analyse_run(store *db, int64_t run_id, const char *egdb_dir, int seeds, analyse_result **out,
                char *err, size_t errlen) {
  *out = NULL;
  if (seeds > EGDB_MAX_SEEDS) {
    error_set(err, errlen, "seeds %d: the tables hold at most %d", seeds, EGDB_MAX_SEEDS);
    return -1;
  }
  store_run run;
  store_run_init(&run);
  if (store_run_load(db, run_id, &run, err, errlen)) return -1;
  tables t;
  analyse_result *r = NULL;
  int rc = -1;
  if (tables_open(&run, egdb_dir, 0, &seeds, &t, err, errlen)) goto done;
  if (!(r = calloc(1, sizeof *r))) {
    error_set(err, errlen, "out of memory");
    goto close;
  }
  r->run_id = run_id;
  r->seeds = seeds;
  r->nplayers = run.nplayers;
  snprintf(r->egdb_dir, sizeof r->egdb_dir, "%s", egdb_dir);
  now_iso8601(r->created, sizeof r->created);
  replay rp = {r, &t, 0, err, errlen};
  err[0] = '\0';
  int frc = store_games_foreach(db, run_id, replay_game, &rp, err, errlen);
  if (frc || err[0]) goto close;
  *out = r;
  r = NULL;
  rc = 0;
close:
  tables_close(&t);
done:
  analyse_free(r);
  store_run_free(&run);
  return rc;
}

/* The coverage an analysis of run_id against the tables in dir would have
 * (seeds as asked, or, at -1, the largest table every variant has), from
 * the tables' headers: missing tables are the error a new analysis gives. */
static int coverage(store *db, int64_t run_id, const char *dir, int *seeds, char *err,
                    size_t errlen) {
  store_run run;
  store_run_init(&run);
  tables t;
  int rc = store_run_load(db, run_id, &run, err, errlen) ||
                   tables_open(&run, dir, EGDB_HEADER_ONLY, seeds, &t, err, errlen)
               ? -1
               : 0;
  if (!rc) tables_close(&t);
  store_run_free(&run);
  return rc;
}

int analyse_get(store *db, int64_t run_id, const char *egdb_dir, int seeds, int force, int save,
                analyse_result **out, int *computed, char *err, size_t errlen) {
  *out = NULL;
  *computed = 0;
  if (!force) {
    analyse_result *r;
    int rc = analyse_load(db, run_id, &r, err, errlen);
    if (rc < 0) return -1;
    if (rc == 0) {
      /* Kept when made of the run's games as they are, against the same
       * folder, at the coverage asked (by default, the one its tables give
       * now: more tables built since, or fewer, make a new one). */
      int want = seeds;
      if (r->run_games == store_games_count(db, run_id) && !strcmp(r->egdb_dir, egdb_dir)) {
        if (coverage(db, run_id, egdb_dir, &want, err, errlen)) {
          analyse_free(r);
          return -1;
        }
        if (want == r->seeds) {
          *out = r;
          return 0;
        }
      }
      analyse_free(r); /* more games, other tables, or another coverage */
    }
  }
  analyse_result *r;
  if (analyse_run(db, run_id, egdb_dir, seeds, &r, err, errlen)) return -1;
  if (save && analyse_save(db, r, err, errlen)) {
    analyse_free(r);
    return -1;
  }
  *out = r;
  *computed = 1;
  return 0;
}
