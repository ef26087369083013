/* rating_store.c: loads a rating pool from the store's pair counts; turns a fit into store rows. */
#include "store/rating_store.h"
#include "core/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Collects run ids (store_runs_foreach gives them newest first). */
typedef struct id_list {
  int64_t *v;
  int n, cap, failed;
} id_list;

static int collect_id(void *ctx, const store_run *r) {
  id_list *l = ctx;
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    int64_t *v = realloc(l->v, (size_t)cap * sizeof *v);
    if (!v) {
      l->failed = 1;
      return 1;
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = r->id;
  return 0;
}

static int named_in(const store_pair_count *pc, int n, const char *name) {
  for (int k = 0; k < n; k++)
    if (!strcmp(pc[k].a, name) || !strcmp(pc[k].b, name)) return 1;
  return 0;
}

int rating_pool_load(rating_pool *p, store *db, const int64_t *runs, int nruns,
                     const char *vname, char *err, size_t errlen) {
  store_pair_count *pc = NULL;
  store_run *run = NULL;
  id_list all = {0};
  int n = 0, ret = -1;
  if (store_pair_counts(db, runs, nruns, vname, &pc, &n, err, errlen)) return -1;
  /* The players in the order of the runs' player lists (the first run
   * first), so that a run's player A comes before B; only those with games. */
  if (!nruns) {
    if (store_runs_foreach(db, collect_id, &all, err, errlen)) goto done;
    if (all.failed) goto oom;
    for (int i = 0; i < all.n / 2; i++) {
      int64_t t = all.v[i];
      all.v[i] = all.v[all.n - 1 - i];
      all.v[all.n - 1 - i] = t;
    }
    runs = all.v;
    nruns = all.n;
  }
  if (n && !(run = calloc(1, sizeof *run))) goto oom;
  for (int r = 0; n && r < nruns; r++) {
    if (store_run_load(db, runs[r], run, err, errlen)) goto done;
    for (int i = 0; i < run->nplayers; i++)
      if (named_in(pc, n, run->player_name[i]) && rating_pool_player(p, run->player_name[i]) < 0)
        goto oom;
    store_run_free(run);
  }
  for (int k = 0; k < n; k++) {
    int i = rating_pool_player(p, pc[k].a), j = rating_pool_player(p, pc[k].b);
    if (i < 0 || j < 0) goto oom;
    if (rating_pool_add(p, i, j, pc[k].wins, pc[k].draws, pc[k].losses) ||
        rating_pool_add_pairs(p, i, j, pc[k].penta, pc[k].pairs_wl)) {
      error_set(err, errlen, "rating: bad counts for %s vs %s", pc[k].a, pc[k].b);
      goto done;
    }
  }
  ret = 0;
  goto done;
oom:
  error_set(err, errlen, "rating: out of memory");
done:
  free(pc);
  store_run_free(run);
  free(run);
  free(all.v);
  return ret;
}

void rating_to_store(const rating_result *r, int64_t run_id, const char *scope,
                     store_rating *rows) {
  for (int k = 0; k < r->n; k++) {
    const rating_player *p = &r->player[r->order[k]];
    store_rating *s = &rows[k];
    memset(s, 0, sizeof *s);
    s->run_id = run_id;
    snprintf(s->scope, sizeof s->scope, "%s", scope ? scope : "");
    snprintf(s->player, sizeof s->player, "%s", p->name);
    s->elo = p->elo;
    s->lo = p->lo < p->hi ? p->lo : p->hi;
    s->hi = p->lo < p->hi ? p->hi : p->lo;
    s->games = p->games;
    s->score = p->score;
    s->draws = p->draw_ratio;
    s->games_total = r->games;
    s->bound = p->bounded;
  }
}
