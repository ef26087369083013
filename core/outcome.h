/* outcome.h: how a game between two players ended (the rules' end or a player's forfeit), with the score; the one table of end names. */
#ifndef OWARE_OUTCOME_H
#define OWARE_OUTCOME_H

#include "core/board.h"

/* How a game ended: the rules' reasons, or a forfeit by one player. */
typedef enum {
  OUTCOME_MAJORITY = BOARD_END_MAJORITY,
  OUTCOME_NO_MOVE = BOARD_END_NO_MOVE,
  OUTCOME_REPETITION = BOARD_END_REPETITION,
  OUTCOME_PLY_LIMIT = BOARD_END_PLY_LIMIT,
  OUTCOME_FORFEIT_TIMEOUT,
  OUTCOME_FORFEIT_ILLEGAL,
  OUTCOME_FORFEIT_CRASH,
  OUTCOME_FORFEIT_PROTOCOL,
  OUTCOME_FORFEIT_ERROR,
  OUTCOME_FORFEIT_TIME, /* a move past the mover's game clock plus the margin (tc=) */
  /* Ended early by the run's adjudication (run/adjudicate.h): the endgame
   * tables' value, both players' scores near zero, one player's score
   * hopeless. */
  OUTCOME_ADJUDICATED_EGDB,
  OUTCOME_ADJUDICATED_DRAW,
  OUTCOME_ADJUDICATED_RESIGN
} outcome_end;
#define OUTCOME_NENDS (OUTCOME_ADJUDICATED_RESIGN + 1)

/* "majority", …, "forfeit-timeout", "forfeit-illegal", "forfeit-crash", …,
 * "forfeit-time", "adjudicated-egdb", "adjudicated-draw", "adjudicated-resign"
 * (the one table of end names; "?" out of range). */
const char *outcome_end_name(outcome_end e);
/* The end named (a real end: not "playing"): 0, or -1 when unknown. */
int outcome_end_parse(const char *name, outcome_end *out);
/* Whether e is a forfeit (forfeit-*), or an adjudication (adjudicated-*). */
int outcome_is_forfeit(outcome_end e);
int outcome_is_adjudicated(outcome_end e);

typedef struct outcome {
  outcome_end end;
  int winner;      /* BOARD_SOUTH, BOARD_NORTH or GAME_DRAW */
  int score2[2];   /* final scores in half seeds (stores at a forfeit) */
  int plies;
  double seconds;
  char detail[256]; /* for a forfeit: what the player did wrong */
} outcome;

#endif
