/* replay.c: store_replay_game, the one replay of a stored game that the exports, the report and the viewer share. */
#include "store/replay.h"

#include "core/error.h"
#include "core/notation.h"

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
  return 0;
}
