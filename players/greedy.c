/* greedy.c: the `greedy` player: the move that captures most now, ties broken at random. */
#include "core/rng.h"
#include "players/player.h"

static player_status choose(player *p, const game *g, const player_limits *lim, int *move,
                            player_info *info, char *err, size_t errlen) {
  rng r;
  rng_seed(&r, player_position_seed(p, g));
  int best = -1, ties = 0;
  for (uint32_t l = g->legal; l; l &= l - 1) {
    int m = __builtin_ctz(l);
    board b = g->pos;
    int taken = board_play(&b, &g->v, m);
    if (taken > best) {
      best = taken;
      ties = 1;
      *move = m;
    } else if (taken == best && rng_below(&r, (uint32_t)++ties) == 0) {
      *move = m; /* reservoir sampling: each tie equally likely */
    }
  }
  /* Its score, the seeds the move takes, comes from a search of one ply:
   * depth 1 (depth 0 says no search was made, and a game's records would
   * drop the score: core/move_record.h). */
  if (info) info->score = 100 * best, info->scored = 1, info->depth = 1;
  return PLAYER_OK;
}

static int create(player *p, char *err, size_t errlen) {
  p->choose = choose;
  return 0;
}

static const player_option options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL}};

const player_type player_greedy = {"greedy", "the move that captures most now; ties at random",
                                   options, create, 0};
