/* match.c: plays one game between two players; a player's failure is its loss. */
#include "arena/match.h"

#include <stdio.h>
#include <string.h>

#include "core/clock.h"

/* The one table of end names (index 0 is BOARD_END_NONE: no end). */
static const char *const end_names[MATCH_NENDS] = {
    "playing",         "majority",      "no-move",          "repetition",    "ply-limit",
    "forfeit-timeout", "forfeit-illegal", "forfeit-crash", "forfeit-protocol", "forfeit-error"};

const char *match_end_name(match_end e) {
  return (unsigned)e < MATCH_NENDS ? end_names[e] : "?";
}

int match_end_parse(const char *name, match_end *out) {
  for (int i = MATCH_MAJORITY; name && i < MATCH_NENDS; i++)
    if (!strcmp(name, end_names[i])) {
      *out = (match_end)i;
      return 0;
    }
  return -1;
}

static match_end forfeit_of(player_status s) {
  switch (s) {
  case PLAYER_TIMEOUT: return MATCH_FORFEIT_TIMEOUT;
  case PLAYER_ILLEGAL: return MATCH_FORFEIT_ILLEGAL;
  case PLAYER_CRASH: return MATCH_FORFEIT_CRASH;
  case PLAYER_PROTOCOL: return MATCH_FORFEIT_PROTOCOL;
  default: return MATCH_FORFEIT_ERROR;
  }
}

static void forfeit(match_result *r, const game *g, int loser, player_status s,
                    const char *why) {
  r->end = forfeit_of(s);
  r->winner = 1 - loser;
  r->score2[0] = 2 * g->pos.store[0];
  r->score2[1] = 2 * g->pos.store[1];
  snprintf(r->detail, sizeof r->detail, "%s", why);
}

int match_play(player *south, player *north, const variant *v, const board *start,
               uint64_t game_seed, game *g, match_result *r, char *err, size_t errlen) {
  player *side[2] = {south, north};
  double t0 = clock_now();
  memset(r, 0, sizeof *r);
  if (game_init(g, v, start)) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  char why[256];
  for (int s = 0; s < 2; s++) {
    if (player_new_game(side[s], v, game_seed, why, sizeof why)) {
      forfeit(r, g, s, PLAYER_ERROR, why);
      goto done;
    }
  }
  while (g->end == BOARD_END_NONE) {
    int mover = g->pos.side, m;
    player_status st = player_choose(side[mover], g, NULL, &m, NULL, why, sizeof why);
    if (st != PLAYER_OK) {
      forfeit(r, g, mover, st, why);
      goto done;
    }
    if (game_play(g, m) == -2) {
      snprintf(err, errlen, "out of memory");
      game_free(g);
      return -1;
    }
  }
  r->end = (match_end)g->end;
  r->winner = g->winner;
  r->score2[0] = g->score2[0];
  r->score2[1] = g->score2[1];
done:
  r->plies = g->plies;
  r->seconds = clock_now() - t0;
  return 0;
}
