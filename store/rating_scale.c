/* rating_scale.c: the Elo scale of stored fits: the anchor a fit's scope records, and stored fits of a run refitted on another scale. */
#include "store/rating_scale.h"
#include "core/error.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANCHOR_CLAUSE "; anchor "
#define ANCHOR_EQUALS " = "

void rating_scale_append(char *scope, size_t len, const rating_scale *s) {
  size_t n = strlen(scope);
  if (s->anchor[0] && n < len)
    snprintf(scope + n, len - n, ANCHOR_CLAUSE "%s" ANCHOR_EQUALS "%.15g", s->anchor, s->elo);
}

/* The last occurrence of needle in hay, or NULL. */
static const char *last_of(const char *hay, const char *needle) {
  const char *last = NULL;
  for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) last = p;
  return last;
}

void rating_scale_of_scope(const char *scope, rating_scale *s) {
  memset(s, 0, sizeof *s);
  /* The scope's own clauses before it never have "; anchor "; a name may. */
  const char *clause = strstr(scope, ANCHOR_CLAUSE);
  if (!clause) return;
  const char *name = clause + strlen(ANCHOR_CLAUSE), *eq = last_of(name, ANCHOR_EQUALS);
  if (!eq || eq == name || (size_t)(eq - name) >= sizeof s->anchor) return;
  char *end;
  errno = 0;
  double elo = strtod(eq + strlen(ANCHOR_EQUALS), &end);
  if (errno || *end || end == eq + strlen(ANCHOR_EQUALS) || !isfinite(elo)) return;
  memcpy(s->anchor, name, (size_t)(eq - name));
  s->anchor[eq - name] = 0;
  s->elo = elo;
}

size_t rating_scale_scope_length(const char *scope) {
  rating_scale s;
  rating_scale_of_scope(scope, &s);
  return s.anchor[0] ? (size_t)(strstr(scope, ANCHOR_CLAUSE) - scope) : strlen(scope);
}

int rating_scale_same(const rating_scale *a, const rating_scale *b) {
  return !strcmp(a->anchor, b->anchor) && a->elo == b->elo;
}

void rating_scale_describe(const rating_scale *s, char *buf, size_t len) {
  if (s->anchor[0]) snprintf(buf, len, "%s = %g", s->anchor, s->elo);
  else if (s->elo != 0) snprintf(buf, len, "the field's mean = %g", s->elo);
  else snprintf(buf, len, "the field's mean");
}

/* ---- A stored fit fitted again ---- */

/* The games of one fit, added to its pool in the run's order. */
typedef struct refit_games {
  rating_pool *pool;
  int index[STORE_MAX_PLAYERS]; /* run player -> pool player, -1: not in the fit */
  int variant;                  /* the scope's variant, -1: every variant */
  long long want, have;
} refit_games;

static int refit_game(void *ctx, const store_game *g) {
  refit_games *r = ctx;
  if (r->have == r->want || (r->variant >= 0 && g->variant_idx != r->variant)) return 0;
  r->have++;
  int s = r->index[g->south_idx], n = r->index[g->north_idx];
  if (s >= 0 && n >= 0) rating_pool_add(r->pool, s, n, g->winner == 0, g->winner < 0, g->winner == 1);
  return 0;
}

/* The run's variant that a scope names (" variant V", the clause before
 * any "; ..."), -1 when it names none. */
static int scope_variant(const store_run *run, const char *scope) {
  size_t end = strcspn(scope, ";");
  for (int v = 0; v < run->nvariants; v++) {
    char clause[256];
    int k = snprintf(clause, sizeof clause, " variant %s", run->variant[v]);
    if (k > 0 && (size_t)k <= end && !strncmp(scope + end - (size_t)k, clause, (size_t)k)) return v;
  }
  return -1;
}

/* The pool of one fit (rows[0 .. n-1]): its players in the run's order,
 * the run's first games_total games of its variant. 0, 1 when the run has
 * fewer games now (err says so), -1 with err. */
static int refit_pool(store *db, const store_run *run, const store_rating *rows, int n,
                      rating_pool *pool, char *err, size_t errlen) {
  refit_games g = {pool, {0}, scope_variant(run, rows[0].scope), rows[0].games_total, 0};
  for (int i = 0; i < run->nplayers && i < STORE_MAX_PLAYERS; i++) {
    g.index[i] = -1;
    for (int k = 0; k < n && g.index[i] < 0; k++)
      if (!strcmp(rows[k].player, run->player_name[i])) {
        g.index[i] = rating_pool_player(pool, rows[k].player);
        if (g.index[i] < 0) return error_set(err, errlen, "out of memory"), -1;
      }
  }
  if (store_games_foreach(db, run->id, refit_game, &g, err, errlen)) return -1;
  if (g.have < g.want) {
    error_set(err, errlen, "fit %lld is of %lld games; run %lld has %lld now",
              (long long)rows[0].batch, g.want, (long long)run->id, g.have);
    return 1;
  }
  return 0;
}

/* Whether the pool has a player of that name. */
static int in_pool(const rating_pool *p, const char *name) {
  for (int i = 0; i < p->n; i++)
    if (!strcmp(p->name[i], name)) return 1;
  return 0;
}

/* The new fit's estimates into the rows of its players. */
static void take_fit(const rating_result *res, store_rating *rows, int n) {
  for (int k = 0; k < n; k++)
    for (int i = 0; i < res->n; i++) {
      const rating_player *p = &res->player[i];
      if (strcmp(p->name, rows[k].player)) continue;
      rows[k].elo = p->elo;
      rows[k].lo = fmin(p->lo, p->hi);
      rows[k].hi = fmax(p->lo, p->hi);
      rows[k].bound = p->bounded;
    }
}

/* Fits one stored fit (rows[0 .. n-1]) again on scale s. 0, 1 when it
 * cannot be (err says why), -1 with err. */
static int refit(store *db, const store_run *run, const rating_scale *s, store_rating *rows,
                 int n, char *err, size_t errlen) {
  rating_pool pool;
  rating_result res = {0};
  rating_options opt = {s->anchor[0] ? s->anchor : NULL, s->elo, 0, 1, 0};
  const char *boot = strstr(rows[0].scope, "; bootstrap ");
  unsigned long long seed = 1;
  if (boot && sscanf(boot, "; bootstrap %d seed %llu", &opt.bootstrap, &seed) == 2)
    opt.seed = seed;
  rating_pool_init(&pool);
  int rc = refit_pool(db, run, rows, n, &pool, err, errlen);
  if (!rc && s->anchor[0] && !in_pool(&pool, s->anchor)) {
    error_set(err, errlen, "%s is not a player of fit %lld", s->anchor, (long long)rows[0].batch);
    rc = 1;
  }
  if (!rc && rating_fit(&pool, &opt, &res, err, errlen)) rc = -1;
  if (!rc) take_fit(&res, rows, n);
  rating_result_free(&res);
  rating_pool_free(&pool);
  return rc;
}

int rating_scale_apply(store *db, const store_run *run, const rating_scale *s,
                       store_rating *rows, int *n, int *refitted, char *err, size_t errlen) {
  int kept = 0, count = 0;
  for (int k = 0; k < *n;) {
    int m = 1; /* the fit: rows[k .. k+m-1] */
    while (k + m < *n && rows[k + m].batch == rows[k].batch) m++;
    rating_scale own;
    rating_scale_of_scope(rows[k].scope, &own);
    int rc = 0;
    if (!rating_scale_same(&own, s)) {
      rc = refit(db, run, s, rows + k, m, err, errlen);
      if (rc < 0) return -1;
      count += !rc;
    }
    if (!rc) memmove(rows + kept, rows + k, (size_t)m * sizeof *rows), kept += m;
    k += m;
  }
  *n = kept;
  if (refitted) *refitted = count;
  return 0;
}
