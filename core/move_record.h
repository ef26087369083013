/* move_record.h: what is known of each move of a game beside its house (the time it took, the mover's score and depth), and its text in the store. */
#ifndef OWARE_MOVE_RECORD_H
#define OWARE_MOVE_RECORD_H

#include <stddef.h>

/* One move: ms on the mover's clock (from the `go` to the answer), the
 * score the mover reported (centiseeds from its side; game ends at
 * +-(1000000 - plies), as players/player.h's PLAYER_WIN) and its depth
 * (0: the player reported no search, and the score means nothing). */
typedef struct move_record {
  long long ms;
  int score;
  int depth;
} move_record;

/* The text of n records: "MS/SCORE/DEPTH" a move, separated by spaces
 * ("" when n is 0). Returns a malloc'ed string, or NULL when out of memory. */
char *move_record_text(const move_record *m, int n);

/* A record as a PGN/OGN comment, in the form engine testers write:
 * "{+0.35/12 0.10s}" (the score in seeds from the mover's side, the depth,
 * the time in seconds), "{+M7/12 0.10s}" for a game end the mover sees in
 * 7 plies (-M7: against it), "{0.10s}" when the mover reported no search
 * (depth 0). buf: room for MOVE_RECORD_COMMENT_MAX. */
#define MOVE_RECORD_COMMENT_MAX 64
void move_record_comment(const move_record *m, char *buf, size_t len);

/* Reads the text of exactly n records into m (room for n). Returns 0, or
 * -1 with a message naming the bad item ("move 3: 'x/1' is not MS/SCORE/DEPTH"). */
int move_record_parse(const char *text, int n, move_record *m, char *err, size_t errlen);

#endif
