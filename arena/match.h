/* match.h: one game between two players under a variant, with forfeits for misbehaving players. */
#ifndef OWARE_MATCH_H
#define OWARE_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "players/player.h"

/* How a game ended: the rules' reasons, or a forfeit by one player. */
typedef enum {
  MATCH_MAJORITY = BOARD_END_MAJORITY,
  MATCH_NO_MOVE = BOARD_END_NO_MOVE,
  MATCH_REPETITION = BOARD_END_REPETITION,
  MATCH_PLY_LIMIT = BOARD_END_PLY_LIMIT,
  MATCH_FORFEIT_TIMEOUT,
  MATCH_FORFEIT_ILLEGAL,
  MATCH_FORFEIT_CRASH,
  MATCH_FORFEIT_PROTOCOL,
  MATCH_FORFEIT_ERROR
} match_end;
#define MATCH_NENDS (MATCH_FORFEIT_ERROR + 1)

/* "majority", …, "forfeit-timeout", "forfeit-illegal", "forfeit-crash", …
 * (the one table of end names; "?" out of range). */
const char *match_end_name(match_end e);
/* The end named (a real end: not "playing"): 0, or -1 when unknown. */
int match_end_parse(const char *name, match_end *out);

typedef struct match_result {
  match_end end;
  int winner;      /* BOARD_SOUTH, BOARD_NORTH or GAME_DRAW */
  int score2[2];   /* final scores in half seeds (stores at a forfeit) */
  int plies;
  double seconds;
  char detail[256]; /* for a forfeit: what the player did wrong */
} match_result;

/* Plays a game from `start` (NULL: the variant's start) with the two
 * players, both told of the new game with game_seed first. g receives the
 * game (game_init'ed here; the caller frees it with game_free). Returns 0,
 * or -1 with err when the game could not be played at all (out of memory,
 * a player that cannot start a game is a forfeit, not an error). */
int match_play(player *south, player *north, const variant *v, const board *start,
               uint64_t game_seed, game *g, match_result *r, char *err, size_t errlen);

#endif
