/* study.c: rule-variant studies: replays a run's games per variant, measures them, compares the variants, draws and reports. */
#include "arena/study.h"
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

#include "arena/rating_store.h"
#include "arena/report.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/rng.h"

#define ERR(...) snprintf(err, errlen, __VA_ARGS__)
#define Z95 1.959963984540054
#define DEFAULT_BOOTSTRAP 1000

const char *study_end_name(int e) {
  if (e == STUDY_END_FORFEIT) return "forfeit";
  return e >= 0 && e < STUDY_END_FORFEIT ? match_end_name((match_end)(MATCH_MAJORITY + e)) : "?";
}

const char *const study_chart_names[STUDY_NCHARTS] = {
    "variants-outcomes", "variants-ends", "variants-grandslam", "variants-length",
    "variants-branching", "variants-choice", "variants-elo"};

static const char *const chart_titles[STUDY_NCHARTS] = {
    "Outcomes per variant (South moves first)", "How games end, per variant",
    "Grand slams per variant", "Game length per variant",
    "Branching: legal moves per position", "Real choices: positions with more than one legal move",
    "Elo of each player under each variant"};

static const char *const chart_ylabels[STUDY_NCHARTS] = {
    "% of games (95% interval)", "% of games (95% Wilson interval)",
    "% of positions (95% bootstrap interval over games)",
    "plies (mean: 95% t interval; median: IQR)",
    "legal moves (95% bootstrap interval over games)",
    "% of positions (95% bootstrap interval over games)",
    "Elo, mean 0 per variant (95% interval)"};

/* ================================================================ statistics */

void study_wilson(double k, long long n, study_interval *out) {
  if (n <= 0) {
    out->value = NAN, out->lo = 0, out->hi = 1;
    return;
  }
  double nn = (double)n, p = k / nn, z2n = Z95 * Z95 / nn;
  double centre = (p + z2n / 2) / (1 + z2n);
  double half = Z95 * sqrt(fmax(0.0, p * (1 - p)) / nn + z2n / (4 * nn)) / (1 + z2n);
  out->value = p;
  out->lo = fmax(0.0, centre - half);
  out->hi = fmin(1.0, centre + half);
  if (out->lo > p) out->lo = p; /* rounding at p = 0 or 1 */
  if (out->hi < p) out->hi = p;
}

double study_ztest(double k1, long long n1, double k2, long long n2, double *z) {
  *z = 0;
  if (n1 <= 0 || n2 <= 0) return 1.0;
  double p1 = k1 / (double)n1, p2 = k2 / (double)n2;
  double p = (k1 + k2) / (double)(n1 + n2);
  double var = p * (1 - p) * (1.0 / (double)n1 + 1.0 / (double)n2);
  if (!(var > 0)) return 1.0;
  *z = (p1 - p2) / sqrt(var);
  return fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(*z)));
}

void study_holm(const double *p, double *adj, int n) {
  if (n <= 0) return;
  int *idx = malloc((size_t)n * sizeof *idx);
  double *in = malloc((size_t)n * sizeof *in);
  if (!idx || !in) { /* no memory: Bonferroni, which Holm never exceeds */
    for (int i = 0; i < n; i++) adj[i] = fmin(1.0, p[i] * n);
    free(idx);
    free(in);
    return;
  }
  for (int i = 0; i < n; i++) idx[i] = i, in[i] = p[i];
  for (int i = 1; i < n; i++) /* insertion sort by p: n is small */
    for (int j = i; j > 0 && in[idx[j]] < in[idx[j - 1]]; j--) {
      int t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
  double run = 0;
  for (int r = 0; r < n; r++) {
    double a = fmin(1.0, (double)(n - r) * in[idx[r]]);
    if (a > run) run = a;
    adj[idx[r]] = run;
  }
  free(idx);
  free(in);
}

void study_balance(long long south_wins, long long north_wins, long long n, study_interval *out) {
  if (n <= 0) {
    out->value = NAN, out->lo = 0, out->hi = 1;
    return;
  }
  double ws = (double)south_wins / (double)n, wn = (double)north_wins / (double)n, d = ws - wn;
  double se = sqrt(fmax(0.0, ws + wn - d * d) / (double)n);
  double dlo = d - Z95 * se, dhi = d + Z95 * se;
  double far = fmax(fabs(dlo), fabs(dhi)), near = fmin(fabs(dlo), fabs(dhi));
  out->value = 1 - fabs(d);
  out->lo = fmax(0.0, 1 - far);
  out->hi = dlo <= 0 && dhi >= 0 ? 1.0 : 1 - near;
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

static int end_index(match_end end) {
  if (end >= MATCH_MAJORITY && end <= MATCH_PLY_LIMIT) return end - MATCH_MAJORITY;
  return end >= MATCH_FORFEIT_TIMEOUT && end < MATCH_NENDS ? STUDY_END_FORFEIT : -1;
}

static int load_fail(loader *l, const char *fmt, const store_game *g, const char *what) {
  char *err = l->err;
  size_t errlen = l->errlen;
  ERR(fmt, g->series_no, g->game_no, what);
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
  if (e < 0) return load_fail(l, "series %d game %d: unknown end reason '%s'", g, match_end_name(g->end));
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
  char perr[256];
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
  rating_result res;
  rating_pool_init(&pool);
  memset(&res, 0, sizeof res);
  rating_options ro;
  memset(&ro, 0, sizeof ro);
  int rc = -1;
  char ferr[512];
  if (rating_pool_load(&pool, db, &s->run.id, 1, s->run.variant[vi], ferr, sizeof ferr)) {
    ERR("variant %s: %s", sv->name, ferr);
    goto out;
  }
  if (pool.n < 2) {
    rc = 0; /* nothing to rate */
    goto out;
  }
  if (rating_fit(&pool, &ro, &res, ferr, sizeof ferr)) {
    ERR("variant %s: %s", sv->name, ferr);
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
    ERR("out of memory");
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
      t->p = study_ztest(ka, A->games, kb, B->games, &t->z);
      t = &s->draw_test[k];
      t->a = a, t->b = b;
      t->pa = A->games ? (double)A->draws / (double)A->games : NAN;
      t->pb = B->games ? (double)B->draws / (double)B->games : NAN;
      t->diff = t->pa - t->pb;
      t->p = study_ztest((double)A->draws, A->games, (double)B->draws, B->games, &t->z);
    }
  for (int pass = 0; pass < 2; pass++) {
    study_test *t = pass ? s->draw_test : s->score_test;
    for (int i = 0; i < nt; i++) p[i] = t[i].p;
    study_holm(p, adj, nt);
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
    ERR("out of memory");
    return -1;
  }
  int rc = -1;
  if (store_run_load(db, run_id, &s->run, err, errlen)) goto out;
  s->nvariants = s->run.nvariants;
  s->variant = calloc((size_t)(s->nvariants ? s->nvariants : 1), sizeof *s->variant);
  if (!s->variant) {
    ERR("out of memory");
    goto out;
  }
  s->bootstrap = opt && opt->bootstrap > 0 ? opt->bootstrap : DEFAULT_BOOTSTRAP;
  uint64_t seed = opt && opt->seed ? opt->seed : 1;
  for (int vi = 0; vi < s->nvariants; vi++) {
    char verr[256];
    if (variant_parse(s->run.variant[vi], &l->v[vi], verr, sizeof verr)) {
      ERR("run %lld, variant %s: %s", (long long)run_id, s->run.variant[vi], verr);
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
    if (!err[0]) ERR("cannot read the games of run %lld", (long long)run_id);
    goto out;
  }
  for (int vi = 0; vi < s->nvariants; vi++) {
    study_variant *sv = &s->variant[vi];
    long long n = sv->games;
    study_wilson((double)sv->south_wins, n, &sv->south_win);
    study_wilson((double)sv->draws, n, &sv->draw);
    study_wilson((double)sv->north_wins, n, &sv->north_win);
    study_wilson((double)(n - sv->draws), n, &sv->decisive);
    study_wilson((double)sv->south_wins + 0.5 * (double)sv->draws, n, &sv->south_score);
    study_balance(sv->south_wins, sv->north_wins, n, &sv->balance);
    for (int e = 0; e < STUDY_NENDS; e++) study_wilson((double)sv->ends[e], n, &sv->end_share[e]);
    length_stats(sv, &l->a[vi]);
    study_interval r[R_N];
    if (bootstrap_ratios(&l->a[vi], s->bootstrap, rng_mix(seed, (uint64_t)vi), r)) {
      ERR("out of memory");
      goto out;
    }
    sv->branching = r[R_BRANCHING];
    sv->choice_share = r[R_CHOICE];
    sv->gs_available_share = r[R_GS_AVAIL];
    sv->gs_played_share = r[R_GS_PLAYED];
    sv->gs_played_positions = r[R_GS_PLAYED_POS];
    study_wilson((double)sv->gs_games, n, &sv->gs_games_share);
    if (!(opt && opt->no_elo) && fit_variant(db, s, vi, err, errlen)) goto out;
  }
  if (make_tests(s) || find_swaps(s)) {
    ERR("out of memory");
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
static void metric(store_metric *m, int *n, int vi, const char *name, const study_interval *iv,
                   double value, long long count) {
  if (isnan(iv ? iv->value : value)) return;
  store_metric *x = &m[(*n)++];
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
  store_metric *m = calloc((size_t)cap, sizeof *m);
  if (!m) {
    ERR("out of memory");
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
  int rc = store_metrics_replace(db, s->run.id, m, n, err, errlen);
  free(m);
  return rc;
}

int study_store_ratings(store *db, const study *s, char *err, size_t errlen) {
  int n = s->run.nplayers;
  store_rating *rows = calloc((size_t)(n ? n : 1), sizeof *rows);
  if (!rows) {
    ERR("out of memory");
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

static void fmt_pct(char *buf, size_t len, const study_interval *x) {
  if (isnan(x->value)) snprintf(buf, len, "-");
  else snprintf(buf, len, "%.1f%% [%.1f, %.1f]", 100 * x->value, 100 * x->lo, 100 * x->hi);
}

/* Small shares (of positions) with two decimals. */
static void fmt_pct2(char *buf, size_t len, const study_interval *x) {
  if (isnan(x->value)) snprintf(buf, len, "-");
  else snprintf(buf, len, "%.2f%% [%.2f, %.2f]", 100 * x->value, 100 * x->lo, 100 * x->hi);
}

static void fmt_num(char *buf, size_t len, const study_interval *x, int decimals) {
  if (isnan(x->value)) snprintf(buf, len, "-");
  else if (isnan(x->lo)) snprintf(buf, len, "%.*f", decimals, x->value);
  else
    snprintf(buf, len, "%.*f [%.*f, %.*f]", decimals, x->value, decimals, x->lo, decimals,
             x->hi);
}

static void fmt_elo(char *buf, size_t len, const study_variant *sv, int i) {
  if (!sv->rated || !sv->rank[i]) snprintf(buf, len, "-");
  else
    snprintf(buf, len, "%+.0f [%+.0f, %+.0f]%s #%d", sv->elo[i], sv->elo_lo[i], sv->elo_hi[i],
             sv->bounded[i] ? "*" : "", sv->rank[i]);
}

/* One table row: a label, then one cell per variant. */
typedef void (*cell_fn)(char *buf, size_t len, const study_variant *sv, int arg);

static void row(FILE *out, const study *s, const char *label, cell_fn f, int arg, int w) {
  fprintf(out, "%-28s", label);
  for (int vi = 0; vi < s->nvariants; vi++) {
    char cell[96];
    f(cell, sizeof cell, &s->variant[vi], arg);
    fprintf(out, " %*s", w, cell);
  }
  fputc('\n', out);
}

/* The cells of the metrics table (shared by the text, HTML and Markdown). */
enum {
  C_GAMES, C_SOUTH, C_DRAW, C_NORTH, C_SCORE, C_BALANCE, C_DECISIVE, C_LEN_MEAN, C_LEN_MEDIAN,
  C_LEN_SD, C_LEN_RANGE, C_END0, C_GS_GAMES = C_END0 + STUDY_NENDS, C_GS_AVAIL, C_GS_PLAYED,
  C_GS_PLAYED_POS, C_GS_COUNT, C_BRANCHING, C_CHOICE, C_POSITIONS, C_NROWS
};

static const char *const row_labels[C_NROWS] = {
    "games", "South wins", "draws", "North wins", "South score", "balance", "decisive",
    "length: mean (plies)", "length: median [IQR]", "length: sd", "length: min-max",
    "end: majority", "end: no-move", "end: repetition", "end: ply-limit", "end: forfeit",
    "games with a grand slam", "grand slam available", "grand slam played (of avail.)",
    "grand slam played (of pos.)", "grand slams played/avail.", "legal moves (mean)",
    "real choice (>1 legal)", "positions"};

static void cell(char *buf, size_t len, const study_variant *sv, int r) {
  switch (r) {
  case C_GAMES: snprintf(buf, len, "%lld", sv->games); break;
  case C_SOUTH: fmt_pct(buf, len, &sv->south_win); break;
  case C_DRAW: fmt_pct(buf, len, &sv->draw); break;
  case C_NORTH: fmt_pct(buf, len, &sv->north_win); break;
  case C_SCORE: fmt_pct(buf, len, &sv->south_score); break;
  case C_BALANCE: fmt_pct(buf, len, &sv->balance); break;
  case C_DECISIVE: fmt_pct(buf, len, &sv->decisive); break;
  case C_LEN_MEAN: fmt_num(buf, len, &sv->length, 1); break;
  case C_LEN_MEDIAN:
    if (!sv->games) snprintf(buf, len, "-");
    else snprintf(buf, len, "%.1f [%.1f, %.1f]", sv->length_median, sv->length_q1, sv->length_q3);
    break;
  case C_LEN_SD:
    if (!sv->games) snprintf(buf, len, "-");
    else snprintf(buf, len, "%.1f", sv->length_sd);
    break;
  case C_LEN_RANGE:
    if (!sv->games) snprintf(buf, len, "-");
    else snprintf(buf, len, "%d-%d", sv->length_min, sv->length_max);
    break;
  case C_GS_GAMES: fmt_pct(buf, len, &sv->gs_games_share); break;
  case C_GS_AVAIL: fmt_pct2(buf, len, &sv->gs_available_share); break;
  case C_GS_PLAYED_POS: fmt_pct2(buf, len, &sv->gs_played_positions); break;
  case C_GS_PLAYED: fmt_pct(buf, len, &sv->gs_played_share); break;
  case C_GS_COUNT:
    snprintf(buf, len, "%lld of %lld", sv->gs_played, sv->gs_available);
    break;
  case C_BRANCHING: fmt_num(buf, len, &sv->branching, 2); break;
  case C_CHOICE: fmt_pct(buf, len, &sv->choice_share); break;
  case C_POSITIONS: snprintf(buf, len, "%lld", sv->positions); break;
  default:
    if (r >= C_END0 && r < C_END0 + STUDY_NENDS) {
      int e = r - C_END0;
      if (!sv->games) snprintf(buf, len, "-");
      else snprintf(buf, len, "%lld (%.1f%%)", sv->ends[e], 100 * sv->end_share[e].value);
    } else {
      snprintf(buf, len, "?");
    }
  }
}

static void elo_cell(char *buf, size_t len, const study_variant *sv, int i) {
  fmt_elo(buf, len, sv, i);
}

static void order_line(char *buf, size_t len, const study *s, const study_variant *sv) {
  size_t n = 0;
  buf[0] = 0;
  for (int rank = 1; rank <= s->run.nplayers; rank++)
    for (int i = 0; i < s->run.nplayers; i++)
      if (sv->rank[i] == rank && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", rank > 1 ? " > " : "",
                              s->run.player_name[i]);
}

static void fmt_p(char *buf, size_t len, double p) {
  if (p < 0.0001) snprintf(buf, len, "%.1e", p);
  else snprintf(buf, len, "%.4f", p);
}

void study_print(FILE *out, const study *s) {
  int w = 24;
  for (int vi = 0; vi < s->nvariants; vi++) {
    int l = (int)strlen(s->variant[vi].name);
    if (l > w) w = l;
  }
  fprintf(out, "\nVariant study of run %lld: %lld games, %d players, %d variants\n",
          (long long)s->run.id, s->games, s->run.nplayers, s->nvariants);
  fprintf(out, "%-28s", "");
  for (int vi = 0; vi < s->nvariants; vi++) fprintf(out, " %*s", w, s->variant[vi].name);
  fputc('\n', out);
  for (int r = 0; r < C_NROWS; r++) row(out, s, row_labels[r], cell, r, w);
  fprintf(out, "Intervals 95%%: rates Wilson; South score Wilson on points; balance from the "
               "normal interval of wS-wN;\nmean length t; grand slams, legal moves and choice "
               "percentile bootstrap over games (%d resamples).\n"
               "Grand slam available: %% of positions where a non-empty house allowed by the "
               "feeding rule sows a grand slam\n(counted even where grandslam-forbidden removes "
               "it); played: %% of those positions where one was played.\n",
          s->bootstrap);
  /* Elo. */
  int any = 0;
  for (int vi = 0; vi < s->nvariants; vi++) any |= s->variant[vi].rated;
  if (any) {
    fprintf(out, "\nElo per variant (mean 0 under each, 95%% interval, #rank; * a bound):\n");
    fprintf(out, "%-28s", "player");
    for (int vi = 0; vi < s->nvariants; vi++) fprintf(out, " %*s", w, s->variant[vi].name);
    fputc('\n', out);
    for (int i = 0; i < s->run.nplayers; i++) {
      char label[40];
      snprintf(label, sizeof label, "%.28s", s->run.player_name[i]);
      row(out, s, label, elo_cell, i, w);
    }
    fprintf(out, "Strength order:\n");
    for (int vi = 0; vi < s->nvariants; vi++) {
      char line[2048];
      order_line(line, sizeof line, s, &s->variant[vi]);
      if (s->variant[vi].rated) fprintf(out, "  %-*s %s\n", w, s->variant[vi].name, line);
    }
    if (!s->nswaps) {
      fprintf(out, "The order is the same under every variant.\n");
    } else {
      int sig = 0;
      for (int k = 0; k < s->nswaps; k++) sig += s->swaps[k].significant;
      fprintf(out, "The order changes (%d swap%s, %d significant: LOS >= 95%% both ways):\n",
              s->nswaps, s->nswaps == 1 ? "" : "s", sig);
      for (int k = 0; k < s->nswaps; k++) {
        const study_swap *x = &s->swaps[k];
        fprintf(out, "  %s above %s under %s (LOS %.1f%%), below under %s (LOS %.1f%%)%s\n",
                s->run.player_name[x->i], s->run.player_name[x->j], s->variant[x->va].name,
                100 * x->los_a, s->variant[x->vb].name, 100 * x->los_b,
                x->significant ? "  significant" : "");
      }
    }
  }
  if (s->ntests) {
    fprintf(out, "\nDifferences between variants (pooled two-proportion z-test, two-sided; "
                 "Holm over the %d pairs):\n",
            s->ntests);
    fprintf(out, "%-*s %-*s %9s %8s %10s %10s   %9s %8s %10s %10s\n", w, "variant A", w,
            "variant B", "dScore", "z", "p", "p(Holm)", "dDraw", "z", "p", "p(Holm)");
    for (int k = 0; k < s->ntests; k++) {
      const study_test *a = &s->score_test[k], *d = &s->draw_test[k];
      char p1[24], h1[24], p2[24], h2[24];
      fmt_p(p1, sizeof p1, a->p);
      fmt_p(h1, sizeof h1, a->p_holm);
      fmt_p(p2, sizeof p2, d->p);
      fmt_p(h2, sizeof h2, d->p_holm);
      fprintf(out, "%-*s %-*s %+8.1f%% %8.2f %10s %10s   %+8.1f%% %8.2f %10s %10s\n", w,
              s->variant[a->a].name, w, s->variant[a->b].name, 100 * a->diff, a->z, p1, h1,
              100 * d->diff, d->z, p2, h2);
    }
    fprintf(out, "dScore: South's score under A minus under B; dDraw: the draw rates. The games "
                 "of two variants are treated\nas independent samples.\n");
  }
}

/* ================================================================ gnuplot */

int study_gnuplot(const char *script, const char *datafile, const char *outstem,
                  const char *title, const char *extra, const plot_options *opt, char *err,
                  size_t errlen) {
  return plot_script(script, datafile, outstem, title, extra, opt, err, errlen);
}

/* ================================================================ charts */

/* Writes s as a gnuplot double-quoted string ('"' becomes '\''). */
static void put_name(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) fputc(*s == '"' ? '\'' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
  fputc('"', f);
}

static void put_value(FILE *f, const study_interval *x, double scale) {
  if (isnan(x->value)) {
    fputs(" 0 0 0", f); /* not applicable: an empty bar */
    return;
  }
  double lo = isnan(x->lo) ? x->value : x->lo, hi = isnan(x->hi) ? x->value : x->hi;
  fprintf(f, " %.4f %.4f %.4f", scale * x->value, scale * lo, scale * hi);
}

/* The interval of metric r of a chart for a variant; 0 when the chart has no row r. */
static int chart_value(const study *s, int chart, int r, int vi, study_interval *x,
                       const char **label) {
  const study_variant *sv = &s->variant[vi];
  switch (chart) {
  case STUDY_CHART_OUTCOMES: {
    static const char *const l[] = {"South wins", "draws", "North wins", "South score",
                                    "balance", "decisive"};
    if (r >= 6) return 0;
    const study_interval *v[] = {&sv->south_win, &sv->draw, &sv->north_win, &sv->south_score,
                                 &sv->balance, &sv->decisive};
    *x = *v[r];
    *label = l[r];
    return 1;
  }
  case STUDY_CHART_ENDS:
    if (r >= STUDY_NENDS) return 0;
    *x = sv->end_share[r];
    *label = study_end_name(r);
    return 1;
  case STUDY_CHART_GRANDSLAM:
    if (r >= 2) return 0;
    *x = r == 0 ? sv->gs_available_share : sv->gs_played_positions;
    *label = r == 0 ? "positions with a grand slam available" : "positions where one was played";
    return 1;
  case STUDY_CHART_LENGTH:
    if (r >= 2) return 0;
    if (r == 0) {
      *x = sv->length;
      *label = "mean";
    } else {
      *x = (study_interval){sv->length_median, sv->length_q1, sv->length_q3};
      if (!sv->games) x->value = NAN;
      *label = "median (bar), quartiles (whiskers)";
    }
    return 1;
  case STUDY_CHART_BRANCHING:
    if (r >= 1) return 0;
    *x = sv->branching;
    *label = "legal moves per position";
    return 1;
  case STUDY_CHART_CHOICE:
    if (r >= 1) return 0;
    *x = sv->choice_share;
    *label = "positions with more than one legal move";
    return 1;
  case STUDY_CHART_ELO:
    if (r >= s->run.nplayers) return 0;
    *label = s->run.player_name[r];
    if (!sv->rated || !sv->rank[r]) *x = (study_interval){NAN, NAN, NAN};
    else *x = (study_interval){sv->elo[r], sv->elo_lo[r], sv->elo_hi[r]};
    return 1;
  }
  return 0;
}

static int chart_is_pct(int chart) {
  return chart == STUDY_CHART_OUTCOMES || chart == STUDY_CHART_ENDS ||
         chart == STUDY_CHART_GRANDSLAM || chart == STUDY_CHART_CHOICE;
}

static int write_chart_data(const study *s, int chart, const char *path, char *err,
                            size_t errlen) {
  outfile of; /* written whole or not at all */
  if (outfile_open(&of, path, err, errlen)) return -1;
  FILE *f = of.f;
  fprintf(f, "# oware chart data: variant study of run %lld, %s\n", (long long)s->run.id,
          chart_titles[chart]);
  fprintf(f, "# one line per metric: \"metric\", then per variant: value low high (95%%)\n");
  fputs("\"metric\"", f);
  for (int vi = 0; vi < s->nvariants; vi++) {
    fputc(' ', f);
    put_name(f, s->variant[vi].name);
    fputs(" \"lo\" \"hi\"", f);
  }
  fputc('\n', f);
  double scale = chart_is_pct(chart) ? 100.0 : 1.0;
  for (int r = 0;; r++) {
    study_interval x;
    const char *label = NULL;
    if (!chart_value(s, chart, r, 0, &x, &label)) break;
    put_name(f, label);
    for (int vi = 0; vi < s->nvariants; vi++) {
      chart_value(s, chart, r, vi, &x, &label);
      put_value(f, &x, scale);
    }
    fputc('\n', f);
  }
  return outfile_commit(&of, err, errlen);
}

int study_charts(const study *s, const char *outdir, const plot_options *opt,
                 study_charts_result *res, FILE *log, char *err, size_t errlen) {
  memset(res, 0, sizeof *res);
  if (plot_mkdirs(outdir, err, errlen)) return -1;
  int all = 1;
  for (int c = 0; c < STUDY_NCHARTS; c++) {
    char dat[4200], stem[4200], gerr[1024];
    snprintf(dat, sizeof dat, "%s/%s.dat", outdir, study_chart_names[c]);
    snprintf(stem, sizeof stem, "%s/%s", outdir, study_chart_names[c]);
    if (c == STUDY_CHART_ELO) {
      int any = 0;
      for (int vi = 0; vi < s->nvariants; vi++) any |= s->variant[vi].rated;
      if (!any) {
        snprintf(res->note[c], sizeof res->note[c], "no Elo: fewer than two rated players");
        continue;
      }
    }
    if (!s->games) {
      snprintf(res->note[c], sizeof res->note[c], "no games");
      all = 0;
      continue;
    }
    if (write_chart_data(s, c, dat, err, errlen)) return -1;
    if (res->gnuplot_missing) {
      snprintf(res->note[c], sizeof res->note[c], "gnuplot is not installed: data file only");
      all = 0;
      continue;
    }
    char extra[512];
    snprintf(extra, sizeof extra, "ylabel='%s'; ", chart_ylabels[c]);
    int rc = study_gnuplot("variants", dat, stem, chart_titles[c], extra, opt, gerr, sizeof gerr);
    if (rc == 0) {
      res->made[c] = 1;
    } else {
      all = 0;
      if (rc == 1) res->gnuplot_missing = 1;
      snprintf(res->note[c], sizeof res->note[c], "%.500s", gerr);
      if (log && (rc != 1 || c == 0)) /* gnuplot missing: said once */
        fprintf(log, "oware: chart %s not drawn: %s\n", study_chart_names[c], gerr);
    }
  }
  return all ? 0 : 1;
}

/* ================================================================ report */

static void md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|' || *s == '*' || *s == '_' || *s == '<' || *s == '>' || *s == '[' || *s == ']' ||
        *s == '`' || *s == '\\')
      fputc('\\', f);
    fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
  }
}

static const char css[] =
    "body{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",sans-serif;"
    "margin:2em auto;max-width:1100px;padding:0 1em;color:#222;line-height:1.4}"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;"
    "margin-top:1.6em}table{border-collapse:collapse;margin:.5em 0 1em;font-size:.92em}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}"
    "th{background:#f0f0f0}tbody tr:nth-child(even){background:#fafafa}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".sub{color:#555;margin-top:0}.note{background:#fff8e1;border-left:4px solid #f0b400;"
    "padding:.4em .8em}nav a{margin-right:1em}figure{margin:1em 0 2em}"
    "figure img{max-width:100%;height:auto;border:1px solid #ddd}"
    "figcaption{color:#444;font-size:.92em}footer{margin-top:3em;color:#777;font-size:.85em}";

/* A table with variants as columns: header. */
static void tables_head(FILE *h, FILE *m, const study *s, const char *first) {
  fprintf(h, "<table>\n<thead><tr><th>");
  report_html_escape(h, first);
  fprintf(h, "</th>");
  fprintf(m, "| ");
  md_text(m, first);
  for (int vi = 0; vi < s->nvariants; vi++) {
    fprintf(h, "<th>");
    report_html_escape(h, s->variant[vi].name);
    fprintf(h, "</th>");
    fprintf(m, " | ");
    md_text(m, s->variant[vi].name);
  }
  fprintf(h, "</tr></thead>\n<tbody>\n");
  fprintf(m, " |\n|---");
  for (int vi = 0; vi < s->nvariants; vi++) fprintf(m, "|---:");
  fprintf(m, "|\n");
}

static void tables_row(FILE *h, FILE *m, const study *s, const char *label, cell_fn f, int arg) {
  fprintf(h, "<tr><td>");
  report_html_escape(h, label);
  fprintf(h, "</td>");
  fprintf(m, "| ");
  md_text(m, label);
  for (int vi = 0; vi < s->nvariants; vi++) {
    char c[128];
    f(c, sizeof c, &s->variant[vi], arg);
    fprintf(h, "<td class=\"num\">");
    report_html_escape(h, c);
    fprintf(h, "</td>");
    fprintf(m, " | ");
    md_text(m, c);
  }
  fprintf(h, "</tr>\n");
  fprintf(m, " |\n");
}

static void both(FILE *h, FILE *m, const char *html, const char *md) {
  fputs(html, h);
  fputs(md, m);
}

int study_report(const study *s, const char *outdir, const study_charts_result *res,
                 char *err, size_t errlen) {
  if (plot_mkdirs(outdir, err, errlen)) return -1;
  char hp[4200], mp[4200], idx[4200];
  snprintf(hp, sizeof hp, "%s/variants.html", outdir);
  snprintf(mp, sizeof mp, "%s/variants.md", outdir);
  snprintf(idx, sizeof idx, "%s/index.html", outdir);
  int has_index = !access(idx, R_OK);
  outfile hf, mf = {0}; /* each written whole or not at all */
  if (outfile_open(&hf, hp, err, errlen)) return -1;
  if (outfile_open(&mf, mp, err, errlen)) {
    outfile_abort(&hf);
    return -1;
  }
  FILE *h = hf.f, *m = mf.f;
  char title[300];
  snprintf(title, sizeof title, "Variant study of run %lld (%s)", (long long)s->run.id,
           s->run.name);
  fprintf(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
  report_html_escape(h, title);
  fprintf(h, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
  report_html_escape(h, title);
  fprintf(h, "</h1>\n<p class=\"sub\">");
  fprintf(m, "# ");
  md_text(m, title);
  fprintf(m, "\n\n");
  char sub[1024];
  snprintf(sub, sizeof sub,
           "%lld games, %d players, %d variants, series %s, openings %s, seed %llu; run %s.",
           s->games, s->run.nplayers, s->nvariants, s->run.format, s->run.openings,
           (unsigned long long)s->run.seed, store_status_name(s->run.status));
  report_html_escape(h, sub);
  md_text(m, sub);
  fprintf(h, "</p>\n<p>Command: <code>");
  report_html_escape(h, s->run.command);
  fprintf(h, "</code></p>\n");
  fprintf(m, "\n\nCommand: `%s`\n\n", s->run.command);
  if (has_index) both(h, m, "<p>The run's own report (standings, ratings, pairings, games): "
                            "<a href=\"index.html\">index.html</a>.</p>\n",
                      "The run's own report (standings, ratings, pairings, games): "
                      "[index.html](index.html).\n\n");
  fprintf(h, "<p>Players: ");
  fprintf(m, "Players: ");
  for (int i = 0; i < s->run.nplayers; i++) {
    fprintf(h, "%s<code>", i ? ", " : "");
    report_html_escape(h, s->run.player_name[i]);
    fprintf(h, "</code>");
    fprintf(m, "%s`%s`", i ? ", " : "", s->run.player_name[i]);
  }
  fprintf(h, ".</p>\n");
  fprintf(m, ".\n\n");
  /* Metrics. */
  both(h, m, "<h2 id=\"metrics\">Metrics per variant</h2>\n", "## Metrics per variant\n\n");
  tables_head(h, m, s, "metric");
  for (int r = 0; r < C_NROWS; r++) tables_row(h, m, s, row_labels[r], cell, r);
  fprintf(h, "</tbody></table>\n");
  char method[1200];
  snprintf(method, sizeof method,
           "95%% intervals: win, draw, loss, decisive and end-reason rates Wilson; South's score "
           "Wilson on its points (a draw half a win); balance = 1 - |wS - wN| from the normal "
           "interval of wS - wN; mean length Student t; grand slams, legal moves and real choice "
           "percentile bootstrap over games (%d resamples; a game is the independent unit). "
           "A grand slam is available in a position when one of the mover's non-empty houses "
           "that the feeding rule allows would capture every seed of the opponent "
           "(board_is_grand_slam) - counted even where grandslam-forbidden makes it illegal; "
           "played is the share of those positions in which the move played was one.",
           s->bootstrap);
  fprintf(h, "<p class=\"note\">");
  report_html_escape(h, method);
  fprintf(h, "</p>\n");
  fprintf(m, "\n");
  md_text(m, method);
  fprintf(m, "\n\n");
  /* Elo. */
  int any = 0;
  for (int vi = 0; vi < s->nvariants; vi++) any |= s->variant[vi].rated;
  if (any) {
    both(h, m, "<h2 id=\"elo\">Elo under each variant</h2>\n", "## Elo under each variant\n\n");
    tables_head(h, m, s, "player");
    for (int i = 0; i < s->run.nplayers; i++)
      tables_row(h, m, s, s->run.player_name[i], elo_cell, i);
    fprintf(h, "</tbody></table>\n");
    fprintf(m, "\n");
    both(h, m, "<p>Bradley-Terry fit of each variant's games alone, mean 0, 95% interval from "
               "the covariance; #rank; * marks a bound.</p>\n<ul>\n",
         "Bradley-Terry fit of each variant's games alone, mean 0, 95% interval from the "
         "covariance; #rank; \\* marks a bound.\n\n");
    for (int vi = 0; vi < s->nvariants; vi++) {
      if (!s->variant[vi].rated) continue;
      char line[2048];
      order_line(line, sizeof line, s, &s->variant[vi]);
      fprintf(h, "<li><code>");
      report_html_escape(h, s->variant[vi].name);
      fprintf(h, "</code>: ");
      report_html_escape(h, line);
      fprintf(h, "</li>\n");
      fprintf(m, "- `%s`: ", s->variant[vi].name);
      md_text(m, line);
      fprintf(m, "\n");
    }
    fprintf(h, "</ul>\n<p>");
    fprintf(m, "\n");
    if (!s->nswaps) {
      both(h, m, "The strength order is the same under every variant.", 
           "The strength order is the same under every variant.");
    } else {
      for (int k = 0; k < s->nswaps; k++) {
        const study_swap *x = &s->swaps[k];
        char line[1200];
        snprintf(line, sizeof line,
                 "%s is above %s under %s (LOS %.1f%%) but below under %s (LOS %.1f%%)%s. ",
                 s->run.player_name[x->i], s->run.player_name[x->j], s->variant[x->va].name,
                 100 * x->los_a, s->variant[x->vb].name, 100 * x->los_b,
                 x->significant ? ", significant both ways" : ", not significant");
        report_html_escape(h, line);
        md_text(m, line);
      }
    }
    fprintf(h, "</p>\n");
    fprintf(m, "\n\n");
  }
  /* Tests. */
  if (s->ntests) {
    both(h, m, "<h2 id=\"tests\">Differences between variants</h2>\n",
         "## Differences between variants\n\n");
    both(h, m,
         "<table>\n<thead><tr><th>A</th><th>B</th><th>South score A</th><th>B</th>"
         "<th>difference</th><th>z</th><th>p</th><th>p (Holm)</th><th>draws A</th><th>B</th>"
         "<th>difference</th><th>z</th><th>p</th><th>p (Holm)</th></tr></thead>\n<tbody>\n",
         "| A | B | South score A | B | difference | z | p | p (Holm) | draws A | B | difference "
         "| z | p | p (Holm) |\n"
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < s->ntests; k++) {
      const study_test *t[2] = {&s->score_test[k], &s->draw_test[k]};
      fprintf(h, "<tr><td>");
      report_html_escape(h, s->variant[t[0]->a].name);
      fprintf(h, "</td><td>");
      report_html_escape(h, s->variant[t[0]->b].name);
      fprintf(h, "</td>");
      fprintf(m, "| ");
      md_text(m, s->variant[t[0]->a].name);
      fprintf(m, " | ");
      md_text(m, s->variant[t[0]->b].name);
      for (int q = 0; q < 2; q++) {
        char p[24], ph[24];
        fmt_p(p, sizeof p, t[q]->p);
        fmt_p(ph, sizeof ph, t[q]->p_holm);
        fprintf(h,
                "<td class=\"num\">%.1f%%</td><td class=\"num\">%.1f%%</td><td class=\"num\">"
                "%+.1f%%</td><td class=\"num\">%.2f</td><td class=\"num\">%s</td>"
                "<td class=\"num\">%s</td>",
                100 * t[q]->pa, 100 * t[q]->pb, 100 * t[q]->diff, t[q]->z, p, ph);
        fprintf(m, " | %.1f%% | %.1f%% | %+.1f%% | %.2f | %s | %s", 100 * t[q]->pa,
                100 * t[q]->pb, 100 * t[q]->diff, t[q]->z, p, ph);
      }
      fprintf(h, "</tr>\n");
      fprintf(m, " |\n");
    }
    fprintf(h, "</tbody></table>\n");
    both(h, m,
         "<p>Pooled two-proportion z-test, two-sided p = 2&middot;Q(|z|); South's score treats a "
         "draw as half a win (conservative). Holm's adjustment over the pairs of variants. The "
         "games of two variants are treated as independent samples.</p>\n",
         "\nPooled two-proportion z-test, two-sided p = 2·Q(|z|); South's score treats a draw "
         "as half a win (conservative). Holm's adjustment over the pairs of variants. The games "
         "of two variants are treated as independent samples.\n\n");
  }
  /* Charts. */
  both(h, m, "<h2 id=\"charts\">Charts</h2>\n", "## Charts\n\n");
  for (int c = 0; c < STUDY_NCHARTS; c++) {
    if (res && res->made[c]) {
      fprintf(h, "<figure><img src=\"%s.png\" alt=\"", study_chart_names[c]);
      report_html_escape(h, chart_titles[c]);
      fprintf(h, "\"><figcaption>");
      report_html_escape(h, chart_titles[c]);
      fprintf(h,
              " (<a href=\"%s.svg\">SVG</a>, <a href=\"%s.dat\">data</a>)</figcaption></figure>\n",
              study_chart_names[c], study_chart_names[c]);
      fprintf(m, "![%s](%s.png)\n\n", chart_titles[c], study_chart_names[c]);
    } else {
      const char *why = res && res->note[c][0] ? res->note[c] : "not drawn";
      fprintf(h, "<p class=\"note\">");
      report_html_escape(h, chart_titles[c]);
      fprintf(h, ": ");
      report_html_escape(h, why);
      fprintf(h, "</p>\n");
      fprintf(m, "%s: ", chart_titles[c]);
      md_text(m, why);
      fprintf(m, "\n\n");
    }
  }
  time_t now = time(NULL);
  struct tm tm;
  char when[32] = "";
  if (gmtime_r(&now, &tm)) strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  fprintf(h, "<footer>Written by oware %s on %s.</footer>\n</body>\n</html>\n", OWARE_VERSION,
          when);
  fprintf(m, "---\nWritten by oware %s on %s.\n", OWARE_VERSION, when);
  if (outfile_commit(&hf, err, errlen)) {
    outfile_abort(&mf);
    return -1;
  }
  return outfile_commit(&mf, err, errlen);
}

/* ================================================================ openings */

int study_write_openings(const char *path, const variant *v, int nv, int plies, int count,
                         uint64_t seed, char *err, size_t errlen) {
  for (int k = 1; k < nv; k++)
    if (v[k].houses != v[0].houses || v[k].seeds != v[0].seeds) {
      ERR("shared openings need the same houses and seeds under every variant");
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
