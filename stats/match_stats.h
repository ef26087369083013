/* match_stats.h: results between two players (W/D/L, game pairs) and their statistics: Elo, nElo, LOS (docs/STATISTICS.md). */
#ifndef OWARE_MATCH_STATS_H
#define OWARE_MATCH_STATS_H

/* ------------------------------------------------------ two-player counts */

/* Results between a first and a second player, from the first one's side. */
typedef struct rating_match {
  long long wins, draws, losses; /* games */
  long long penta[5];            /* game pairs (same opening, colours swapped) by the first
                                    player's points in the pair: 0, ½, 1, 1½, 2 =
                                    LL, LD, WL+DD, WD, WW */
  long long pairs_wl;            /* of penta[2], the pairs of a win and a loss (the rest are
                                    two draws) */
} rating_match;

/* result: +1 the first player won, 0 draw, -1 lost. add_pair adds both games
 * of a pair to the W/D/L counts and the pair to the pentanomial counts. */
void rating_match_add_game(rating_match *m, int result);
void rating_match_add_pair(rating_match *m, int first_game, int second_game);

/* What fastchess prints for a match. Every value is finite; with no games
 * they are 0 (score 0.5, LOS 0.5). Elo errors are 95% half-widths. */
typedef struct rating_match_stats {
  long long games, pairs;
  double points, score, draw_ratio; /* points of the first player; score = points / games */
  double elo, elo_err;              /* trinomial (W/D/L), logistic Elo */
  double penta_elo, penta_err;      /* pentanomial (game pairs), logistic Elo; 0 when no pairs */
  double nelo, nelo_err;            /* normalized Elo: from the pairs when there are any, else
                                       from the games */
  double los;                       /* likelihood of superiority, 0..1 (from the pairs when
                                       there are any) */
  double wl_dd_ratio;               /* pairs_wl / (penta[2] - pairs_wl), 0 when no DD pair */
  double pairs_ratio;               /* (WD + WW) / (LL + LD), 0 when no pair was lost */
} rating_match_stats;

void rating_match_compute(const rating_match *m, rating_match_stats *s);

#endif
