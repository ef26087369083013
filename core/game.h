/* game.h: a game in progress: moves, history for the repetition rule, ply count, result. */
#ifndef OWARE_GAME_H
#define OWARE_GAME_H

#include "core/board.h"
#include "core/variant.h"

#define GAME_DRAW (-1)
#define GAME_PLAYING (-2)

typedef struct game {
  variant v;
  board start;     /* where the game began */
  board pos;       /* the position now (before any final transfer) */
  int plies;       /* moves played */
  uint8_t *moves;  /* house indices, plies of them; owned, freed by game_free */
  int moves_cap;
  uint64_t *hist;  /* keys of the positions since the last capture, pos's last */
  int hist_len, hist_cap;
  uint64_t seen[4]; /* 256-bit filter of hist's keys: a miss means a first occurrence */
  uint32_t legal;  /* legal moves now; 0 once the game is over */
  board_end end;   /* BOARD_END_NONE while playing */
  int score2[2];   /* final scores in half seeds, once over */
  int winner;      /* BOARD_SOUTH, BOARD_NORTH, GAME_DRAW or GAME_PLAYING */
} game;

/* Starts a game from `start` (NULL: the variant's start position); the start
 * may already be over. Returns 0, or -1 when memory runs out. */
int game_init(game *g, const variant *v, const board *start);

/* "south", "north", "draw" or "playing" for a winner (BOARD_SOUTH,
 * BOARD_NORTH, GAME_DRAW, GAME_PLAYING; a stored game's 0, 1, -1 are the
 * same values): the word of `oware replay`, CSV exports and --json. */
const char *game_winner_name(int winner);

/* Releases the arrays of g. */
void game_free(game *g);

/* Plays house m and applies the end rules in their order (majority, no
 * move, repetition, ply limit). Returns 0; -1 when m is not legal or the
 * game is over (nothing changes); -2 when memory runs out. */
int game_play(game *g, int m);

/* Ends the game at once for `why` (e.g. adjudication) with its transfer. */
void game_end_now(game *g, board_end why);

/* The position to show: after the final transfer once the game is over. */
void game_shown_position(const game *g, board *out);

/* How many times the current position has occurred since the last capture. */
int game_occurrences(const game *g);

#endif
