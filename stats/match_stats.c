/* match_stats.c: two-player counts (W/D/L and game pairs) and fastchess's match statistics: Elo, nElo, LOS (docs/STATISTICS.md). */
#include "stats/match_stats.h"

#include <math.h>
#include <string.h>

#include "stats/stats_common.h"

/* ================================================================ matches */

void rating_match_add_game(rating_match *m, int result) {
  if (result > 0) m->wins++;
  else if (result < 0) m->losses++;
  else m->draws++;
}

void rating_match_add_pair(rating_match *m, int first_game, int second_game) {
  rating_match_add_game(m, first_game);
  rating_match_add_game(m, second_game);
  int half = (first_game > 0 ? 2 : first_game == 0 ? 1 : 0) +
             (second_game > 0 ? 2 : second_game == 0 ? 1 : 0);
  m->penta[half]++;
  if (half == 2 && first_game != 0) m->pairs_wl++;
}

/* fastchess's statistics of one category set (trinomial k = 3, pentanomial
 * k = 5): score, Elo ± and nElo ± and LOS. `samples` games or pairs;
 * nelo_scale is 1 for games, sqrt(2) for pairs (σ per game = σ_pair·√2). */
static void category_stats(const long long *counts, int k, double *score, double *elo,
                           double *elo_err, double *nelo, double *nelo_err, double *los) {
  double a[5], c[5], n = 0;
  int zero = 0;
  for (int i = 0; i < k; i++) {
    a[i] = (double)i / (k - 1);
    c[i] = (double)counts[i];
    n += c[i];
    zero += counts[i] == 0;
  }
  double mu, var;
  stats_moments(a, c, k, &mu, &var);
  /* Degenerate (one category only, or a score of 0 or 1): fishtest's
   * regularization, an empty category counts 1e-3. */
  if ((var <= 0 || mu <= 0 || mu >= 1) && zero) {
    for (int i = 0; i < k; i++)
      if (c[i] == 0) c[i] = REGULARIZE;
    stats_moments(a, c, k, &mu, &var);
  }
  double z = stats_z95(), sd = sqrt(var / n);
  double ub = mu + z * sd, lb = mu - z * sd;
  double sigma_game = k == 5 ? sqrt(2.0 * var) : sqrt(var);
  *score = mu;
  *elo = stats_elo_of_score(mu);
  *elo_err = (stats_elo_of_score(ub) - stats_elo_of_score(lb)) / 2.0;
  if (sigma_game > 0) {
    *nelo = (mu - 0.5) / sigma_game * NELO_PER_T;
    *nelo_err = (ub - lb) / 2.0 / sigma_game * NELO_PER_T;
  } else {
    *nelo = *nelo_err = 0;
  }
  *los = sd > 0 ? stats_phi((mu - 0.5) / sd) : (mu > 0.5 ? 1.0 : mu < 0.5 ? 0.0 : 0.5);
}

void rating_match_compute(const rating_match *m, rating_match_stats *s) {
  memset(s, 0, sizeof *s);
  s->games = m->wins + m->draws + m->losses;
  for (int k = 0; k < 5; k++) s->pairs += m->penta[k];
  s->points = (double)m->wins + 0.5 * (double)m->draws;
  s->score = 0.5;
  s->los = 0.5;
  if (s->games > 0) {
    long long wdl[3] = {m->losses, m->draws, m->wins};
    double score;
    s->score = s->points / (double)s->games;
    s->draw_ratio = (double)m->draws / (double)s->games;
    category_stats(wdl, 3, &score, &s->elo, &s->elo_err, &s->nelo, &s->nelo_err, &s->los);
  }
  if (s->pairs > 0) {
    double score;
    category_stats(m->penta, 5, &score, &s->penta_elo, &s->penta_err, &s->nelo, &s->nelo_err,
                   &s->los);
    long long dd = m->penta[2] - m->pairs_wl;
    s->wl_dd_ratio = dd > 0 ? (double)m->pairs_wl / (double)dd : 0;
    long long lost = m->penta[0] + m->penta[1];
    s->pairs_ratio = lost > 0 ? (double)(m->penta[3] + m->penta[4]) / (double)lost : 0;
  }
}

