/* play.h: a game between a person and a player: moves by letter, undo, hints, the board as text, the game saved as OGN. */
#ifndef OWARE_PLAY_H
#define OWARE_PLAY_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/game.h"
#include "core/variant.h"
#include "players/player.h"

typedef struct play_config {
  const char *opponent;   /* the player's spec (player_create) */
  const char *hint;       /* the spec of the player that gives hints; NULL: PLAY_DEFAULT_HINT */
  const char *human_name; /* the person's name in the record; NULL: "you" */
  variant v;
  const board *start;     /* NULL: the variant's start position */
  int human;              /* BOARD_SOUTH or BOARD_NORTH */
  uint64_t seed;          /* the game seed told to both players */
} play_config;

#define PLAY_DEFAULT_HINT "minimax:depth=12"

typedef struct play_session play_session;

/* Creates both players and starts the game. Returns 0, or -1 with err (a
 * bad spec, a player that cannot start). */
int play_new(const play_config *c, play_session **out, char *err, size_t errlen);
void play_free(play_session *s);

/* The game so far (read only). */
const game *play_game(const play_session *s);
/* The person's side. */
int play_human(const play_session *s);
/* The opponent's name (its spec unless name= was given). */
const char *play_opponent_name(const play_session *s);

/* Plays the person's move: the letter of one of the person's houses, in
 * either case ('a' and 'A' are both the leftmost house of the person's
 * row). Returns 0, or -1 with a message when it is not the person's turn,
 * the game is over, or the letter is not a house or not a legal move (the
 * message lists the legal moves). */
int play_move(play_session *s, char letter, char *err, size_t errlen);

/* The opponent plays its move (it must be its turn); *move gets it.
 * Returns 0, or -1 with err when the player fails (the game is unchanged). */
int play_reply(play_session *s, int *move, char *err, size_t errlen);

/* Takes back the opponent's last reply and the person's move before it (or
 * only the person's last move when no reply followed). Returns the plies
 * taken back: 0 when the person has not moved. */
int play_undo(play_session *s);

/* The hint player's choice for the person's move; *move gets it, info its
 * search report. Returns 0, or -1 with err. */
int play_hint(play_session *s, int *move, player_info *info, char *err, size_t errlen);

/* The board as text, seen from South: North's row on top, right to left
 * (f … a), South's row below, left to right (A … F), each store beside its
 * row; the last move's house in brackets and the houses it captured marked
 * with '*'; then the stores, the last move and captures, whose turn it is
 * or how the game ended. */
void play_draw(const play_session *s, char *buf, size_t len);

/* Writes the game so far as one OGN record to path, whole or not at all (a
 * temporary file in the same folder, then renamed). Returns 0, or -1 with
 * err. */
int play_save(const play_session *s, const char *path, char *err, size_t errlen);

#endif
