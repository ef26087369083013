/* study.h: rule-variant studies: computes and stores the per-variant metrics of a run's games (outcomes, lengths, end reasons, grand slams, branching, Elo) with 95% intervals and tests (docs/VARIANTS.md). */
#ifndef OWARE_STUDY_H
#define OWARE_STUDY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store/store.h"
#include "core/board.h"
#include "core/variant.h"
#include "stats/proportion.h"

/* An estimate and its 95% interval (stats/proportion.h); value is NaN when
 * it does not apply. */
typedef proportion_interval study_interval;

/* How games end, as the study groups them. */
enum {
  STUDY_END_MAJORITY,
  STUDY_END_NO_MOVE,
  STUDY_END_REPETITION,
  STUDY_END_PLY_LIMIT,
  STUDY_END_FORFEIT, /* every forfeit-* reason */
  STUDY_NENDS
};
/* "majority", "no-move", "repetition", "ply-limit", "forfeit". */
const char *study_end_name(int e);

/* Everything measured on the games of one variant of the run. */
typedef struct study_variant {
  char name[160];            /* canonical variant string */
  long long games;
  long long south_wins, draws, north_wins;
  /* Proportions of the games, Wilson 95% intervals. */
  study_interval south_win, draw, north_win, decisive;
  /* South's score (W + D/2) / n, Wilson interval on the points (a draw as
   * half a win: conservative, p(1−p) bounds the variance of the points). */
  study_interval south_score;
  /* 1 − |win rate South − win rate North|; from the normal interval of the
   * difference d = wS − wN (Var d = (wS + wN − d²) / n), mapped through 1 − |d|. */
  study_interval balance;
  /* Game length in plies: mean with its t interval, sample sd, quartiles. */
  study_interval length;
  double length_sd, length_median, length_q1, length_q3;
  int length_min, length_max;
  /* End reasons: counts and shares (Wilson). */
  long long ends[STUDY_NENDS];
  study_interval end_share[STUDY_NENDS];
  /* From replaying every game from its opening. A position is one in
   * which a move was played (the opening position and every later one
   * before the end). */
  long long positions;
  long long legal_sum;       /* legal moves, summed over the positions */
  long long choice;          /* positions with more than one legal move */
  long long gs_available;    /* positions where a grand-slam move was available (below) */
  long long gs_played;       /* moves played that were grand slams */
  long long gs_games;        /* games with at least one grand slam available */
  /* Ratios over positions, percentile bootstrap over games (a game is the
   * independent unit: positions of one game are not). */
  study_interval branching;    /* mean legal moves per position */
  study_interval choice_share; /* choice / positions */
  study_interval gs_available_share; /* gs_available / positions */
  study_interval gs_played_share;    /* gs_played / gs_available */
  study_interval gs_played_positions; /* gs_played / positions */
  study_interval gs_games_share;     /* gs_games / games (Wilson) */
  /* Elo of each player of the run under this variant (Bradley–Terry fit of
   * this variant's games only, mean 0, covariance intervals). */
  int rated;                 /* a fit was made (2+ players with games) */
  double elo[STORE_MAX_PLAYERS], elo_lo[STORE_MAX_PLAYERS], elo_hi[STORE_MAX_PLAYERS];
  int bounded[STORE_MAX_PLAYERS];
  long long player_games[STORE_MAX_PLAYERS];
  double player_score[STORE_MAX_PLAYERS], player_draws[STORE_MAX_PLAYERS]; /* of their games */
  int rank[STORE_MAX_PLAYERS]; /* 1 = strongest; 0 when the player has no games */
  double *los; /* nplayers × nplayers: P(row stronger than column); NULL unless rated */
} study_variant;

/* A two-proportion z-test between variants a < b (pooled variance,
 * two-sided): diff = p_a − p_b; p_holm is Holm's adjustment over all the
 * pairs of variants of the same test. */
typedef struct study_test {
  int a, b;
  double pa, pb, diff, z, p, p_holm;
} study_test;

/* A pair of players whose order differs between two variants. */
typedef struct study_swap {
  int i, j;        /* players: i above j under variant va, j above i under vb */
  int va, vb;
  double los_a, los_b; /* P(i > j) under va, P(j > i) under vb */
  int significant; /* both ≥ 0.95 */
} study_swap;

typedef struct study {
  store_run run;
  long long games;
  int nvariants;
  study_variant *variant;    /* [nvariants] */
  int ntests;                /* nvariants·(nvariants−1)/2, pairs (a, b) a < b in order */
  study_test *score_test;    /* South's score */
  study_test *draw_test;     /* draw rate */
  int nswaps;
  study_swap *swaps;         /* order changes (each pair of players and of variants once) */
  int bootstrap;             /* resamples behind the bootstrap intervals */
} study;

typedef struct study_options {
  int bootstrap;   /* resamples for the ratio intervals; 0: 1000 */
  uint64_t seed;   /* of the bootstrap's generator; 0: 1 */
  int no_elo;      /* skip the per-variant fits */
} study_options;

/* Reads run run_id and every one of its games, replays each game from its
 * opening (a stored move that is not legal, or a replay that does not end
 * as stored, is an error naming the game), and computes the metrics per
 * variant, the tests between variants and the Elo under each. Grand-slam
 * availability counts the pseudo-legal moves — the mover's non-empty
 * houses that the feeding rule allows, i.e. board_legal under the same
 * variant with grand_slam=nothing — on which board_is_grand_slam holds, so
 * that under grandslam-forbidden a grand slam that the rule removes still
 * counts as available. *out is malloc'd (study_free). 0, or -1 with err. */
int study_compute(store *db, int64_t run_id, const study_options *opt, study **out, char *err,
                  size_t errlen);
void study_free(study *s);

/* Stores the per-variant ratings (one fit per variant, scope "run N
 * variant V"). 0, or -1 with err. */
int study_store_ratings(store *db, const study *s, char *err, size_t errlen);

/* Stores every metric of every variant, and the tests between variants, in
 * the variant_metrics table (replacing the run's earlier ones). */
int study_store_metrics(store *db, const study *s, char *err, size_t errlen);

/* Writes count opening positions, one a line, to path: each is `plies`
 * random legal moves from the start of v[0] (from seed and its index),
 * playable — valid and not over — under every one of the nv variants,
 * which must share houses and seeds. The same arguments give the same
 * file. 0, or -1 with err. */
int study_write_openings(const char *path, const variant *v, int nv, int plies, int count,
                         uint64_t seed, char *err, size_t errlen);

#endif
