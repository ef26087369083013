/* replay.c: store_replay_game, the one replay of a stored game that the exports, the report and the viewer share. */
#include "store/replay.h"

#include "core/error.h"
#include "core/notation.h"
#include "core/outcome.h"

/* Whether the replayed game gm ends as g is stored: a game the rules ended
 * with the stored end, winner and scores; an adjudicated or forfeited one
 * not over by the rules before the decision (its winner and scores are the
 * decision's). 0, or -1 with what differs in why. */
static int replay_result_check(const store_game *g, const game *gm, char *why, size_t len) {
  if (outcome_is_forfeit(g->end) || outcome_is_adjudicated(g->end)) {
    if (gm->end == BOARD_END_NONE) return 0;
    error_set(why, len, "it is over by the rules (%s) before the stored %s",
              outcome_end_name((outcome_end)gm->end), outcome_end_name(g->end));
    return -1;
  }
  if (gm->end == BOARD_END_NONE) {
    error_set(why, len, "its moves do not end it, but it is stored as ended by %s",
              outcome_end_name(g->end));
    return -1;
  }
  if ((int)gm->end != (int)g->end) {
    error_set(why, len, "the rules end it by %s, not by the stored %s",
              outcome_end_name((outcome_end)gm->end), outcome_end_name(g->end));
    return -1;
  }
  if (gm->winner != g->winner || gm->score2[0] != g->score2[0] || gm->score2[1] != g->score2[1]) {
    error_set(why, len, "the rules give %g-%g (%s), not the stored %g-%g (%s)",
              gm->score2[0] / 2.0, gm->score2[1] / 2.0, game_winner_name(gm->winner),
              g->score2[0] / 2.0, g->score2[1] / 2.0, game_winner_name(g->winner));
    return -1;
  }
  return 0;
}

int store_replay_game(const store_run *r, const store_game *g, variant *v, game *gm, char *err,
                      size_t errlen) {
  char why[ERROR_MAX];
  board start;
  if (g->variant_idx < 0 || g->variant_idx >= r->nvariants) {
    error_set(err, errlen, "series %d game %d: no variant %d in the run", g->series_no, g->game_no,
              g->variant_idx);
    return -1;
  }
  if (g->south_idx < 0 || g->south_idx >= r->nplayers || g->north_idx < 0 ||
      g->north_idx >= r->nplayers) {
    error_set(err, errlen, "series %d game %d: no player %d or %d in the run", g->series_no,
              g->game_no, g->south_idx, g->north_idx);
    return -1;
  }
  if (variant_parse(r->variant[g->variant_idx], v, why, sizeof why) ||
      notation_parse_position(g->opening, v, &start, why, sizeof why)) {
    error_set(err, errlen, "series %d game %d: %s", g->series_no, g->game_no, why);
    return -1;
  }
  if (game_init(gm, v, &start)) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  for (const char *m = g->moves; *m; m++)
    if (game_play(gm, notation_move_index(v, *m))) {
      error_set(err, errlen, "series %d game %d: stored move %ld (%c) is not legal", g->series_no,
                g->game_no, (long)(m - g->moves) + 1, *m);
      game_free(gm);
      return -1;
    }
  if (replay_result_check(g, gm, why, sizeof why)) {
    error_set(err, errlen, "series %d game %d does not replay as stored: %s", g->series_no,
              g->game_no, why);
    game_free(gm);
    return -1;
  }
  return 0;
}
