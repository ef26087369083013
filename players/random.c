/* random.c: the `random` player: a uniformly random legal move. */
#include "core/rng.h"
#include "players/player.h"

static player_status choose(player *p, const game *g, const player_limits *lim, int *move,
                            player_info *info, char *err, size_t errlen) {
  rng r;
  rng_seed(&r, player_position_seed(p, g));
  uint32_t legal = g->legal;
  for (uint32_t k = rng_below(&r, (uint32_t)__builtin_popcount(legal)); k; k--)
    legal &= legal - 1;
  *move = __builtin_ctz(legal);
  return PLAYER_OK;
}

static int create(player *p, char *err, size_t errlen) {
  p->choose = choose;
  return 0;
}

static const player_option options[] = {{NULL, 0, NULL, 0, 0, NULL, NULL}};

const player_type player_random = {"random", "a uniformly random legal move", options, create, 0};
