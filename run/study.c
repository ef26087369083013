/* study.c: rule-variant studies: replays a run's games per variant, measures them with intervals, compares the variants, stores the metrics. */
#include "run/study.h"
#include "core/error.h"
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "store/rating_store.h"
#include "run/study_store.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/rng.h"

#define DEFAULT_BOOTSTRAP 1000

const char *study_end_name(int e) {
  if (e == STUDY_END_FORFEIT) return "forfeit";
  return e >= 0 && e < STUDY_END_FORFEIT ? outcome_end_name((outcome_end)(OUTCOME_MAJORITY + e)) : "?";
}

/* ================================================================ replay */

/* What one game contributes to its variant's ratios. */
typedef struct game_stat {
  int plies, legal_sum, choice, gs_available, gs_played;
} game_stat;

typedef struct acc {
  game_stat *g;
  long long n, cap;
} acc;

typedef struct loader {
  study *s;
  variant v[STORE_MAX_VARIANTS];
  variant v_pseudo[STORE_MAX_VARIANTS]; /* the same with grand_slam=nothing */
  acc a[STORE_MAX_VARIANTS];
  char *err;
  size_t errlen;
  int failed;
} loader;

static int end_index(outcome_end end) {
  if (end >= OUTCOME_MAJORITY && end <= OUTCOME_PLY_LIMIT) return end - OUTCOME_MAJORITY;
  return outcome_is_forfeit(end) ? STUDY_END_FORFEIT : -1;
}

static int load_fail(loader *l, const char *fmt, const store_game *g, const char *what) {
  char *err = l->err;
  size_t errlen = l->errlen;
  error_set(err, errlen, fmt, g->series_no, g->game_no, what);
  l->failed = 1;
  return 1;
}

static int load_game(void *ctx, const store_game *g) {
  loader *l = ctx;
  study *s = l->s;
  if (g->variant_idx < 0 || g->variant_idx >= s->nvariants)
    return load_fail(l, "series %d game %d: variant index out of range%s", g, "");
  int vi = g->variant_idx;
  study_variant *sv = &s->variant[vi];
  const variant *v = &l->v[vi];
  int e = end_index(g->end);
  if (e < 0) return load_fail(l, "series %d game %d: unknown end reason '%s'", g, outcome_end_name(g->end));
  acc *a = &l->a[vi];
  if (a->n == a->cap) {
    long long cap = a->cap ? 2 * a->cap : 256;
    game_stat *ng = realloc(a->g, (size_t)cap * sizeof *ng);
    if (!ng) return load_fail(l, "series %d game %d: out of memory%s", g, "");
    a->g = ng;
    a->cap = cap;
  }
  game_stat *st = &a->g[a->n];
  memset(st, 0, sizeof *st);
  /* Replay. */
  board start;
  char perr[ERROR_MAX];
  if (notation_parse_position(g->opening, v, &start, perr, sizeof perr))
    return load_fail(l, "series %d game %d: bad opening: %s", g, perr);
  game gm;
  if (game_init(&gm, v, &start)) return load_fail(l, "series %d game %d: out of memory%s", g, "");
  int ply = 0;
  for (const char *c = g->moves; *c; c++, ply++) {
    int m = notation_move_index(v, *c);
    if (m < 0 || gm.end != BOARD_END_NONE || !(gm.legal & (1u << m))) {
      char what[96];
      snprintf(what, sizeof what, "stored move %d (%c) is not legal", ply + 1, *c);
      game_free(&gm);
      return load_fail(l, "series %d game %d: %s", g, what);
    }
    int nlegal = __builtin_popcount(gm.legal);
    st->legal_sum += nlegal;
    st->choice += nlegal > 1;
    uint32_t pseudo = board_legal(&gm.pos, &l->v_pseudo[vi]);
    int avail = 0;
    for (uint32_t k = pseudo; k && !avail; k &= k - 1)
      avail = board_is_grand_slam(&gm.pos, v, __builtin_ctz(k));
    st->gs_available += avail;
    st->gs_played += board_is_grand_slam(&gm.pos, v, m);
    int rc = game_play(&gm, m);
    if (rc) {
      game_free(&gm);
      return load_fail(l, "series %d game %d: %s", g, rc == -2 ? "out of memory" : "replay failed");
    }
  }
  st->plies = ply;
  const char *bad = NULL;
  if (ply != g->plies) bad = "its move count differs from its stored plies";
  else if (e == STUDY_END_FORFEIT && gm.end != BOARD_END_NONE)
    bad = "it is over by the rules before the stored forfeit";
  else if (e != STUDY_END_FORFEIT && gm.end == BOARD_END_NONE)
    bad = "its moves do not end it, but it is stored as over by the rules";
  else if (e != STUDY_END_FORFEIT && (int)gm.end != (int)g->end)
    bad = "the rules end it for another reason than the stored one";
  else if (e != STUDY_END_FORFEIT &&
           (gm.winner != g->winner || gm.score2[0] != g->score2[0] || gm.score2[1] != g->score2[1]))
    bad = "the rules give another result than the stored one";
  game_free(&gm);
  if (bad) return load_fail(l, "series %d game %d does not replay as stored: %s", g, bad);
  a->n++;
  /* Outcome, length, end. */
  sv->games++;
  if (g->winner == 0) sv->south_wins++;
  else if (g->winner == 1) sv->north_wins++;
  else sv->draws++;
  sv->ends[e]++;
  sv->positions += st->plies;
  sv->legal_sum += st->legal_sum;
  sv->choice += st->choice;
  sv->gs_available += st->gs_available;
  sv->gs_played += st->gs_played;
  sv->gs_games += st->gs_available > 0;
  s->games++;
  return 0;
}

/* ================================================================ metrics */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void length_stats(study_variant *sv, const acc *a) {
  long long n = a->n;
  if (!n) {
    sv->length = (study_interval){NAN, NAN, NAN};
    sv->length_sd = sv->length_median = sv->length_q1 = sv->length_q3 = NAN;
    return;
  }
  double *x = malloc((size_t)n * sizeof *x);
  if (!x) {
    sv->length = (study_interval){NAN, NAN, NAN};
    sv->length_sd = sv->length_median = sv->length_q1 = sv->length_q3 = NAN;
    return;
  }
  for (long long i = 0; i < n; i++) x[i] = a->g[i].plies;
  qsort(x, (size_t)n, sizeof *x, cmp_double);
  double mean = gsl_stats_mean(x, 1, (size_t)n);
  double sd = n > 1 ? gsl_stats_sd_m(x, 1, (size_t)n, mean) : 0.0;
  sv->length.value = mean;
  if (n > 1) {
    double t = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1));
    sv->length.lo = mean - t * sd / sqrt((double)n);
    sv->length.hi = mean + t * sd / sqrt((double)n);
  } else {
    sv->length.lo = sv->length.hi = NAN;
  }
  sv->length_sd = sd;
  sv->length_median = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.5);
  sv->length_q1 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.25);
  sv->length_q3 = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)n, 0.75);
  sv->length_min = (int)x[0];
  sv->length_max = (int)x[n - 1];
  free(x);
}

/* The ratios over positions of a set of games. */
enum { R_BRANCHING, R_CHOICE, R_GS_AVAIL, R_GS_PLAYED, R_GS_PLAYED_POS, R_N };

static void ratio_sums(const game_stat *g, double num[R_N], double den[R_N]) {
  num[R_BRANCHING] += g->legal_sum, den[R_BRANCHING] += g->plies;
  num[R_CHOICE] += g->choice, den[R_CHOICE] += g->plies;
  num[R_GS_AVAIL] += g->gs_available, den[R_GS_AVAIL] += g->plies;
  num[R_GS_PLAYED] += g->gs_played, den[R_GS_PLAYED] += g->gs_available;
  num[R_GS_PLAYED_POS] += g->gs_played, den[R_GS_PLAYED_POS] += g->plies;
}

/* Percentile bootstrap over games of the ratios. */
static int bootstrap_ratios(const acc *a, int B, uint64_t seed, study_interval out[R_N]) {
  double num[R_N] = {0}, den[R_N] = {0};
  for (long long i = 0; i < a->n; i++) ratio_sums(&a->g[i], num, den);
  for (int r = 0; r < R_N; r++) {
    out[r].value = den[r] > 0 ? num[r] / den[r] : NAN;
    out[r].lo = out[r].hi = out[r].value;
  }
  if (a->n < 2 || B < 2) return 0;
  double *rs = malloc((size_t)B * R_N * sizeof *rs);
  if (!rs) return -1;
  int valid[R_N] = {0};
  rng g;
  rng_seed(&g, seed);
  for (int b = 0; b < B; b++) {
    double bn[R_N] = {0}, bd[R_N] = {0};
    for (long long i = 0; i < a->n; i++) {
      uint64_t k = (uint64_t)(rng_double(&g) * (double)a->n);
      if (k >= (uint64_t)a->n) k = (uint64_t)a->n - 1;
      ratio_sums(&a->g[k], bn, bd);
    }
    for (int r = 0; r < R_N; r++)
      if (bd[r] > 0) rs[r * B + valid[r]++] = bn[r] / bd[r];
  }
  for (int r = 0; r < R_N; r++) {
    if (valid[r] < 2 || isnan(out[r].value)) continue;
    double *x = rs + r * B;
    qsort(x, (size_t)valid[r], sizeof *x, cmp_double);
    out[r].lo = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)valid[r], 0.025);
    out[r].hi = gsl_stats_quantile_from_sorted_data(x, 1, (size_t)valid[r], 0.975);
    if (out[r].lo > out[r].value) out[r].lo = out[r].value;
    if (out[r].hi < out[r].value) out[r].hi = out[r].value;
  }
  free(rs);
  return 0;
}

static int fit_variant(store *db, study *s, int vi, char *err, size_t errlen) {
  study_variant *sv = &s->variant[vi];
  int n = s->run.nplayers;
  rating_pool pool;
  rating_pool_init(&pool);
  rating_result res = {0};
  rating_options ro = {0};
  int rc = -1;
  char ferr[ERROR_MAX];
  if (rating_pool_load(&pool, db, &s->run.id, 1, s->run.variant[vi], ferr, sizeof ferr)) {
    error_set(err, errlen, "variant %s: %s", sv->name, ferr);
    goto out;
  }
  if (pool.n < 2) {
    rc = 0; /* nothing to rate */
    goto out;
  }
  if (rating_fit(&pool, &ro, &res, ferr, sizeof ferr)) {
    error_set(err, errlen, "variant %s: %s", sv->name, ferr);
    goto out;
  }
  int map[STORE_MAX_PLAYERS]; /* run player -> result index */
  for (int i = 0; i < n; i++) {
    map[i] = -1;
    for (int k = 0; k < res.n; k++)
      if (!strcmp(res.player[k].name, s->run.player_name[i])) map[i] = k;
  }
  sv->los = malloc((size_t)n * (size_t)n * sizeof *sv->los);
  if (!sv->los) {
    error_set(err, errlen, "out of memory");
    goto out;
  }
  for (int i = 0; i < n; i++) {
    int k = map[i];
    sv->rank[i] = 0;
    sv->elo[i] = sv->elo_lo[i] = sv->elo_hi[i] = NAN;
    if (k >= 0 && res.player[k].games > 0) {
      sv->elo[i] = res.player[k].elo;
      sv->elo_lo[i] = res.player[k].lo;
      sv->elo_hi[i] = res.player[k].hi;
      sv->bounded[i] = res.player[k].bounded;
      sv->player_games[i] = res.player[k].games;
      sv->player_score[i] = res.player[k].score;
      sv->player_draws[i] = res.player[k].draw_ratio;
      sv->rank[i] = res.player[k].rank;
    }
    for (int j = 0; j < n; j++)
      sv->los[i * n + j] = k >= 0 && map[j] >= 0 ? res.los[k * res.n + map[j]] : 0.5;
  }
  sv->rated = 1;
  rc = 0;
out:
  rating_result_free(&res);
  rating_pool_free(&pool);
  return rc;
}

static int find_swaps(study *s) {
  int n = s->run.nplayers, cap = 0;
  for (int va = 0; va < s->nvariants; va++)
    for (int vb = va + 1; vb < s->nvariants; vb++) {
      const study_variant *A = &s->variant[va], *B = &s->variant[vb];
      if (!A->rated || !B->rated) continue;
      for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
          if (!A->rank[i] || !A->rank[j] || !B->rank[i] || !B->rank[j]) continue;
          double da = A->elo[i] - A->elo[j], db = B->elo[i] - B->elo[j];
          if (da == 0 || db == 0 || (da > 0) == (db > 0)) continue;
          int hi = da > 0 ? i : j, lo = da > 0 ? j : i;
          if (s->nswaps == cap) {
            cap = cap ? 2 * cap : 16;
            study_swap *ns = realloc(s->swaps, (size_t)cap * sizeof *ns);
            if (!ns) return -1;
            s->swaps = ns;
          }
          study_swap *w = &s->swaps[s->nswaps++];
          w->i = hi, w->j = lo, w->va = va, w->vb = vb;
          w->los_a = A->los[hi * n + lo];
          w->los_b = B->los[lo * n + hi];
          w->significant = w->los_a >= 0.95 && w->los_b >= 0.95;
        }
    }
  return 0;
}

static int make_tests(study *s) {
  int nv = s->nvariants, nt = nv * (nv - 1) / 2;
  s->ntests = nt;
  if (!nt) return 0;
  s->score_test = calloc((size_t)nt, sizeof *s->score_test);
  s->draw_test = calloc((size_t)nt, sizeof *s->draw_test);
  double *p = malloc((size_t)nt * sizeof *p), *adj = malloc((size_t)nt * sizeof *adj);
  if (!s->score_test || !s->draw_test || !p || !adj) {
    free(p);
    free(adj);
    return -1;
  }
  int k = 0;
  for (int a = 0; a < nv; a++)
    for (int b = a + 1; b < nv; b++, k++) {
      const study_variant *A = &s->variant[a], *B = &s->variant[b];
      double ka = (double)A->south_wins + 0.5 * (double)A->draws;
      double kb = (double)B->south_wins + 0.5 * (double)B->draws;
      study_test *t = &s->score_test[k];
      t->a = a, t->b = b;
      t->pa = A->games ? ka / (double)A->games : NAN;
      t->pb = B->games ? kb / (double)B->games : NAN;
      t->diff = t->pa - t->pb;
      t->p = proportion_ztest(ka, A->games, kb, B->games, &t->z);
      t = &s->draw_test[k];
      t->a = a, t->b = b;
      t->pa = A->games ? (double)A->draws / (double)A->games : NAN;
      t->pb = B->games ? (double)B->draws / (double)B->games : NAN;
      t->diff = t->pa - t->pb;
      t->p = proportion_ztest((double)A->draws, A->games, (double)B->draws, B->games, &t->z);
    }
  for (int pass = 0; pass < 2; pass++) {
    study_test *t = pass ? s->draw_test : s->score_test;
    for (int i = 0; i < nt; i++) p[i] = t[i].p;
    proportion_holm(p, adj, nt);
    for (int i = 0; i < nt; i++) t[i].p_holm = adj[i];
  }
  free(p);
  free(adj);
  return 0;
}

int study_compute(store *db, int64_t run_id, const study_options *opt, study **out, char *err,
                  size_t errlen) {
  *out = NULL;
  study *s = calloc(1, sizeof *s);
  loader *l = calloc(1, sizeof *l);
  if (!s || !l) {
    free(s);
    free(l);
    error_set(err, errlen, "out of memory");
    return -1;
  }
  int rc = -1;
  if (store_run_load(db, run_id, &s->run, err, errlen)) goto out;
  s->nvariants = s->run.nvariants;
  s->variant = calloc((size_t)(s->nvariants ? s->nvariants : 1), sizeof *s->variant);
  if (!s->variant) {
    error_set(err, errlen, "out of memory");
    goto out;
  }
  s->bootstrap = opt && opt->bootstrap > 0 ? opt->bootstrap : DEFAULT_BOOTSTRAP;
  uint64_t seed = opt && opt->seed ? opt->seed : 1;
  for (int vi = 0; vi < s->nvariants; vi++) {
    char verr[ERROR_MAX];
    if (variant_parse(s->run.variant[vi], &l->v[vi], verr, sizeof verr)) {
      error_set(err, errlen, "run %lld, variant %s: %s", (long long)run_id, s->run.variant[vi], verr);
      goto out;
    }
    l->v_pseudo[vi] = l->v[vi];
    l->v_pseudo[vi].grand_slam = VARIANT_GS_NOTHING;
    variant_finish(&l->v_pseudo[vi]);
    snprintf(s->variant[vi].name, sizeof s->variant[vi].name, "%s", s->run.variant[vi]);
  }
  l->s = s;
  l->err = err;
  l->errlen = errlen;
  err[0] = 0;
  if (store_games_foreach(db, run_id, load_game, l, err, errlen) || l->failed) {
    if (!err[0]) error_set(err, errlen, "cannot read the games of run %lld", (long long)run_id);
    goto out;
  }
  for (int vi = 0; vi < s->nvariants; vi++) {
    study_variant *sv = &s->variant[vi];
    long long n = sv->games;
    proportion_wilson((double)sv->south_wins, n, &sv->south_win);
    proportion_wilson((double)sv->draws, n, &sv->draw);
    proportion_wilson((double)sv->north_wins, n, &sv->north_win);
    proportion_wilson((double)(n - sv->draws), n, &sv->decisive);
    proportion_wilson((double)sv->south_wins + 0.5 * (double)sv->draws, n, &sv->south_score);
    proportion_balance(sv->south_wins, sv->north_wins, n, &sv->balance);
    for (int e = 0; e < STUDY_NENDS; e++) proportion_wilson((double)sv->ends[e], n, &sv->end_share[e]);
    length_stats(sv, &l->a[vi]);
    study_interval r[R_N];
    if (bootstrap_ratios(&l->a[vi], s->bootstrap, rng_mix(seed, (uint64_t)vi), r)) {
      error_set(err, errlen, "out of memory");
      goto out;
    }
    sv->branching = r[R_BRANCHING];
    sv->choice_share = r[R_CHOICE];
    sv->gs_available_share = r[R_GS_AVAIL];
    sv->gs_played_share = r[R_GS_PLAYED];
    sv->gs_played_positions = r[R_GS_PLAYED_POS];
    proportion_wilson((double)sv->gs_games, n, &sv->gs_games_share);
    if (!(opt && opt->no_elo) && fit_variant(db, s, vi, err, errlen)) goto out;
  }
  if (make_tests(s) || find_swaps(s)) {
    error_set(err, errlen, "out of memory");
    goto out;
  }
  rc = 0;
out:
  for (int vi = 0; vi < STORE_MAX_VARIANTS; vi++) free(l->a[vi].g);
  free(l);
  if (rc) study_free(s);
  else *out = s;
  return rc;
}

void study_free(study *s) {
  if (!s) return;
  for (int vi = 0; s->variant && vi < s->nvariants; vi++) free(s->variant[vi].los);
  free(s->variant);
  free(s->score_test);
  free(s->draw_test);
  free(s->swaps);
  store_run_free(&s->run);
  free(s);
}

/* Appends a metric row; a value that is not defined (a share of nothing)
 * is left out. */
static void metric(study_metric *m, int *n, int vi, const char *name, const study_interval *iv,
                   double value, long long count) {
  if (isnan(iv ? iv->value : value)) return;
  study_metric *x = &m[(*n)++];
  memset(x, 0, sizeof *x);
  x->variant_idx = vi;
  snprintf(x->metric, sizeof x->metric, "%s", name);
  x->value = iv ? iv->value : value;
  x->has_interval = iv && !isnan(iv->lo) && !isnan(iv->hi);
  if (iv) x->lo = iv->lo, x->hi = iv->hi;
  x->n = count;
}

int study_store_metrics(store *db, const study *s, char *err, size_t errlen) {
  int cap = s->nvariants * (40 + 4 * s->nvariants), n = 0;
  study_metric *m = calloc((size_t)cap, sizeof *m);
  if (!m) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  for (int vi = 0; vi < s->nvariants; vi++) {
    const study_variant *v = &s->variant[vi];
    metric(m, &n, vi, "south_win", &v->south_win, 0, v->games);
    metric(m, &n, vi, "draw", &v->draw, 0, v->games);
    metric(m, &n, vi, "north_win", &v->north_win, 0, v->games);
    metric(m, &n, vi, "decisive", &v->decisive, 0, v->games);
    metric(m, &n, vi, "south_score", &v->south_score, 0, v->games);
    metric(m, &n, vi, "balance", &v->balance, 0, v->games);
    metric(m, &n, vi, "length_mean", &v->length, 0, v->games);
    metric(m, &n, vi, "length_sd", NULL, v->length_sd, v->games);
    metric(m, &n, vi, "length_median", NULL, v->length_median, v->games);
    metric(m, &n, vi, "length_q1", NULL, v->length_q1, v->games);
    metric(m, &n, vi, "length_q3", NULL, v->length_q3, v->games);
    for (int e = 0; e < STUDY_NENDS; e++) {
      char name[48];
      snprintf(name, sizeof name, "end_%s", study_end_name(e));
      metric(m, &n, vi, name, &v->end_share[e], 0, v->games);
    }
    metric(m, &n, vi, "branching", &v->branching, 0, v->positions);
    metric(m, &n, vi, "choice", &v->choice_share, 0, v->positions);
    metric(m, &n, vi, "gs_available", &v->gs_available_share, 0, v->positions);
    metric(m, &n, vi, "gs_played", &v->gs_played_share, 0, v->gs_available);
    metric(m, &n, vi, "gs_games", &v->gs_games_share, 0, v->games);
  }
  for (int t = 0; t < s->ntests; t++) {
    const study_test *tests[2] = {&s->score_test[t], &s->draw_test[t]};
    const char *what[2] = {"south_score", "draw"};
    for (int k = 0; k < 2; k++) {
      char name[64];
      snprintf(name, sizeof name, "%s_z_vs_%d", what[k], tests[k]->b);
      metric(m, &n, tests[k]->a, name, NULL, tests[k]->z, s->variant[tests[k]->a].games);
      snprintf(name, sizeof name, "%s_p_vs_%d", what[k], tests[k]->b);
      metric(m, &n, tests[k]->a, name, NULL, tests[k]->p, s->variant[tests[k]->a].games);
    }
  }
  int rc = study_store_replace(db, s->run.id, m, n, err, errlen);
  free(m);
  return rc;
}

int study_store_ratings(store *db, const study *s, char *err, size_t errlen) {
  int n = s->run.nplayers;
  store_rating *rows = calloc((size_t)(n ? n : 1), sizeof *rows);
  if (!rows) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  int rc = 0;
  for (int vi = 0; vi < s->nvariants && !rc; vi++) {
    const study_variant *sv = &s->variant[vi];
    if (!sv->rated) continue;
    int k = 0;
    for (int rank = 1; rank <= n; rank++) /* rank order, as rating_to_store */
      for (int i = 0; i < n; i++) {
        if (sv->rank[i] != rank) continue;
        store_rating *r = &rows[k++];
        memset(r, 0, sizeof *r);
        r->run_id = s->run.id;
        snprintf(r->scope, sizeof r->scope, "run %lld variant %s", (long long)s->run.id, sv->name);
        snprintf(r->player, sizeof r->player, "%s", s->run.player_name[i]);
        r->elo = sv->elo[i];
        r->lo = sv->elo_lo[i];
        r->hi = sv->elo_hi[i];
        r->games = sv->player_games[i];
        r->score = sv->player_score[i];
        r->draws = sv->player_draws[i];
        r->games_total = sv->games;
        r->bound = sv->bounded[i];
      }
    if (k) rc = store_ratings_insert(db, rows, k, err, errlen);
  }
  free(rows);
  return rc;
}

/* ================================================================ printing */

int study_write_openings(const char *path, const variant *v, int nv, int plies, int count,
                         uint64_t seed, char *err, size_t errlen) {
  for (int k = 1; k < nv; k++)
    if (v[k].houses != v[0].houses || v[k].seeds != v[0].seeds) {
      error_set(err, errlen, "shared openings need the same houses and seeds under every variant");
      return -1;
    }
  outfile of; /* written whole or not at all */
  if (outfile_open(&of, path, err, errlen)) return -1;
  FILE *f = of.f;
  fprintf(f, "# %d openings of %d random plies, seed %llu, shared by every variant of a study\n",
          count, plies, (unsigned long long)seed);
  for (int i = 0; i < count; i++) {
    board b;
    /* board_random_opening under the first variant, then checked under all:
     * the first seed whose line no variant ends. */
    for (uint64_t attempt = 0;; attempt++) {
      board_random_opening(&b, &v[0], plies,
                           rng_mix(rng_mix(rng_mix(seed, 0x7374756479ULL), (uint64_t)i), attempt));
      int ok = 1;
      uint32_t legal;
      for (int k = 0; k < nv && ok; k++) ok = board_status(&b, &v[k], &legal) == BOARD_END_NONE;
      if (ok || attempt > 1000) break;
    }
    char pos[NOTATION_POSITION_MAX];
    notation_format_position(&b, &v[0], NULL, pos, sizeof pos);
    fprintf(f, "%s\n", pos);
  }
  return outfile_commit(&of, err, errlen);
}
