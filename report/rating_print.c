/* rating_print.c: ratings and match statistics as text; a run's ratings printed and saved at its end. */
#include "report/rating_print.h"
#include "core/error.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/rating_store.h"

double rating_print_zero(double x, int decimals) {
  return fabs(x) < 0.5 * pow(10, -decimals) ? 0.0 : x;
}

void rating_match_print(FILE *out, const char *first, const char *second, const rating_match *m,
                        const rating_sprt *sprt) {
  rating_match_stats s;
  rating_match_compute(m, &s);
  int penta = s.pairs > 0;
  fprintf(out, "Results of %s vs %s:\n", first, second);
  fprintf(out, "Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f\n",
          rating_print_zero(penta ? s.penta_elo : s.elo, 2), penta ? s.penta_err : s.elo_err,
          rating_print_zero(s.nelo, 2), s.nelo_err);
  if (penta) fprintf(out, "Elo (trinomial): %.2f +/- %.2f\n", rating_print_zero(s.elo, 2), s.elo_err);
  fprintf(out, "LOS: %.2f %%, DrawRatio: %.2f %%", s.los * 100.0,
          penta ? 100.0 * (double)m->penta[2] / (double)s.pairs : 100.0 * s.draw_ratio);
  if (penta) {
    if (m->penta[0] + m->penta[1] > 0) fprintf(out, ", PairsRatio: %.2f", s.pairs_ratio);
    else fprintf(out, ", PairsRatio: -");
  }
  fputc('\n', out);
  fprintf(out, "Games: %lld, Wins: %lld, Losses: %lld, Draws: %lld, Points: %.1f (%.2f %%)\n",
          s.games, m->wins, m->losses, m->draws, s.points, 100.0 * s.score);
  if (penta) {
    fprintf(out, "Ptnml(0-2): [%lld, %lld, %lld, %lld, %lld]", m->penta[0], m->penta[1],
            m->penta[2], m->penta[3], m->penta[4]);
    if (m->penta[2] - m->pairs_wl > 0) fprintf(out, ", WL/DD Ratio: %.2f\n", s.wl_dd_ratio);
    else fprintf(out, ", WL/DD Ratio: -\n");
    /* Series of an odd length leave games out of the pairs: say so, since
     * the headline (pentanomial) and the trinomial line then differ. */
    if (2 * s.pairs < s.games)
      fprintf(out, "Unpaired: %lld of the %lld games are in no pair (Elo, nElo and LOS above are "
                   "of the %lld pairs; the trinomial line counts every game)\n",
              s.games - 2 * s.pairs, s.games, s.pairs);
  }
  if (sprt) {
    rating_sprt_result r = rating_sprt_test(sprt, m, 0);
    fprintf(out, "LLR: %.2f (%.2f, %.2f) [%.2f, %.2f] %s Elo, %s\n", r.llr, r.lower, r.upper,
            sprt->elo0, sprt->elo1, sprt->model == RATING_MODEL_NORMALIZED ? "normalized" : "logistic",
            rating_decision_name(r.decision));
  }
}

static int name_width(const rating_result *r, int lo, int hi) {
  int w = lo;
  for (int i = 0; i < r->n; i++) {
    int l = (int)strlen(r->player[i].name);
    if (l > w) w = l;
  }
  return w > hi ? hi : w;
}

void rating_print_table(FILE *out, const rating_result *r) {
  int w = name_width(r, 4, 40), bounded = 0;
  fprintf(out, "%4s  %-*s %8s %7s %7s %8s %7s %7s\n", "Rank", w, "Name", "Elo", "-", "+", "Games",
          "Score", "Draw");
  for (int k = 0; k < r->n; k++) {
    const rating_player *p = &r->player[r->order[k]];
    bounded |= p->bounded;
    fprintf(out, "%4d  %-*.*s %8.1f%c%7.1f %7.1f %8lld %6.1f%% %6.1f%%\n", p->rank, w, w, p->name,
            rating_print_zero(p->elo, 1), p->bounded ? '*' : ' ', p->elo - p->lo, p->hi - p->elo, p->games,
            100.0 * p->score, 100.0 * p->draw_ratio);
  }
  fprintf(out, "%lld games; 95%% intervals from %s", r->games,
          r->bootstrap ? "the bootstrap" : "the covariance of the fit");
  if (r->bootstrap) fprintf(out, " (%d resamples)", r->bootstrap);
  fputs(".\n", out);
  if (bounded)
    fputs("* bounded estimate: only wins or only losses, or not connected to the rest of the pool\n"
          "  by wins both ways; held finite by virtual draws against the pool average\n"
          "  (docs/STATISTICS.md).\n",
          out);
}

void rating_end_numbers_of(const store_end_score *x, rating_end_numbers *out) {
  out->games = x->wins + x->draws + x->losses;
  out->own = x->own_wins + x->own_draws + x->own_losses;
  proportion_wilson(x->wins + 0.5 * x->draws, out->games, &out->score);
  proportion_wilson(x->own_wins + 0.5 * x->own_draws, out->own, &out->own_score);
}

const store_end_score *rating_end_find(const store_end_score *rows, int n, const char *name,
                                       int e) {
  for (int i = 0; i < n; i++)
    if ((int)rows[i].end == e && !strcmp(rows[i].name, name)) return &rows[i];
  return NULL;
}

/* "54.6% [43.4, 65.3]", or "-" without games. */
static void print_score(FILE *out, const proportion_interval *pi, long long games) {
  char text[48] = "-";
  if (games)
    snprintf(text, sizeof text, "%.1f%% [%.1f, %.1f]", 100.0 * pi->value, 100.0 * pi->lo,
             100.0 * pi->hi);
  fprintf(out, " %20s", text);
}

void rating_print_ends(FILE *out, const rating_result *r, const store_end_score *rows, int n) {
  if (n <= 0) return;
  int w = name_width(r, 4, 24);
  fprintf(out,
          "Score by end (95%% Wilson intervals; own: the games that ended on the player's own "
          "move):\n%-*s %-18s %6s %6s %6s %6s %20s %6s %20s\n",
          w, "Name", "End", "Games", "W", "D", "L", "Score", "Own", "Own score");
  for (int k = 0; k < r->n; k++) {
    const char *name = r->player[r->order[k]].name;
    int first = 1;
    for (int e = 0; e < OUTCOME_NENDS; e++) {
      const store_end_score *x = rating_end_find(rows, n, name, e);
      if (!x) continue;
      rating_end_numbers v;
      rating_end_numbers_of(x, &v);
      fprintf(out, "%-*.*s %-18s %6lld %6lld %6lld %6lld", w, w, first ? name : "",
              outcome_end_name((outcome_end)e), v.games, x->wins, x->draws, x->losses);
      print_score(out, &v.score, v.games);
      fprintf(out, " %6lld", v.own);
      print_score(out, &v.own_score, v.own);
      fputc('\n', out);
      first = 0;
    }
  }
}

void rating_print_los(FILE *out, const rating_result *r) {
  if (r->n < 2) return;
  int w = name_width(r, 4, 24);
  fprintf(out, "Likelihood of superiority (%%, row better than column):\n%4s  %-*s", "", w, "");
  for (int k = 0; k < r->n; k++) fprintf(out, " %5d", k + 1);
  fputc('\n', out);
  for (int a = 0; a < r->n; a++) {
    int i = r->order[a];
    fprintf(out, "%4d  %-*.*s", a + 1, w, w, r->player[i].name);
    for (int b = 0; b < r->n; b++) {
      int j = r->order[b];
      if (i == j) fprintf(out, " %5s", "-");
      else fprintf(out, " %5.1f", 100.0 * r->los[(size_t)i * r->n + j]);
    }
    fputc('\n', out);
  }
}

int rating_print_run(store *db, int64_t run_id, FILE *out, int save, const rating_sprt *sprt,
                     char *err, size_t errlen) {
  rating_pool pool;
  rating_result res;
  rating_pool_init(&pool);
  memset(&res, 0, sizeof res);
  int ret = -1;
  if (rating_pool_load(&pool, db, &run_id, 1, NULL, err, errlen)) goto done;
  if (pool.n == 0) {
    fprintf(out, "No games to rate in run %" PRId64 ".\n", run_id);
    ret = 0;
    goto done;
  }
  rating_options opt = {NULL, 0, 0, 1, 0};
  if (rating_fit(&pool, &opt, &res, err, errlen)) goto done;
  fprintf(out, "Ratings of run %" PRId64 " (Bradley-Terry maximum likelihood, Elo):\n", run_id);
  rating_print_table(out, &res);
  if (pool.n == 2) {
    /* The run's first player first (the one an SPRT tests). */
    store_run *run = calloc(1, sizeof *run);
    int a = res.order[0], b = res.order[1];
    if (run && !store_run_load(db, run_id, run, err, errlen) && run->nplayers > 0 &&
        !strcmp(run->player_name[0], pool.name[b])) {
      a = b;
      b = res.order[0];
    }
    store_run_free(run);
    free(run);
    rating_match m;
    rating_pool_match(&pool, a, b, &m);
    fputc('\n', out);
    rating_match_print(out, pool.name[a], pool.name[b], &m, sprt);
  } else {
    fputc('\n', out);
    rating_print_los(out, &res);
  }
  store_end_score *ends = NULL;
  int nends = 0;
  if (store_end_scores(db, &run_id, 1, NULL, &ends, &nends, err, errlen)) goto done;
  if (nends) fputc('\n', out);
  rating_print_ends(out, &res, ends, nends);
  free(ends);
  if (save) {
    store_rating *rows = calloc((size_t)res.n, sizeof *rows);
    char scope[64];
    snprintf(scope, sizeof scope, "run %" PRId64, run_id);
    if (!rows) {
      error_set(err, errlen, "rating: out of memory");
      goto done;
    }
    rating_to_store(&res, run_id, scope, rows);
    int rc = store_ratings_insert(db, rows, res.n, err, errlen);
    free(rows);
    if (rc) goto done;
  }
  ret = 0;
done:
  rating_result_free(&res);
  rating_pool_free(&pool);
  return ret;
}


int rating_print_section(store *db, int64_t run_id, FILE *out, char *err, size_t errlen) {
  fputc('\n', out);
  return rating_print_run(db, run_id, out, 1, NULL, err, errlen);
}

void rating_print_groups(FILE *out, const rating_pool *p) {
  int *group = malloc(((size_t)p->n + 1) * sizeof *group);
  int k = group ? rating_pool_groups(p, group) : -1;
  if (k > 1) {
    fprintf(out, "Not connected by results both ways: %d groups, between which the results go "
                 "one way only (Ordo refuses such a pool; docs/PGN.md):",
            k);
    for (int g = 0; g < k; g++) {
      fputs(g ? " |" : "", out);
      for (int i = 0, first = 1; i < p->n; i++)
        if (group[i] == g) fprintf(out, "%s %s", first ? "" : ",", p->name[i]), first = 0;
    }
    fputc('\n', out);
  }
  free(group);
}
