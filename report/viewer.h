/* viewer.h: the report's game viewer: an HTML section with the games, a script and a style inline, to step through any game of a run. */
#ifndef OWARE_VIEWER_H
#define OWARE_VIEWER_H

#include <stddef.h>
#include <stdio.h>

#include "store/store.h"

/* The viewer holds at most this many games (the first of the run); the run's
 * OGN file holds them all. */
#define VIEWER_MAX_GAMES 10000

/* Writes the viewer section (id "games") of run r to the page h: a list to
 * pick a game (series.game: South vs North, result, end), a board drawn
 * with both rows and both stores, buttons and the arrow keys (Home/End too)
 * to step through the moves, the last move's house and the houses it
 * captured marked, and the end reason at the last step; when the run kept
 * move records, each move's comment as PGN writes it ({+0.35/12 0.10s})
 * and a curve of the searched scores from South's side with the step
 * marked. The games go into
 * the page as JSON (start position, moves, result, end, the final position
 * after the rules' transfer, and the position after each move with the houses
 * it captured, as core/ played them): the script only draws, it holds no rule
 * of the game. No file, font or network is used. *shown gets the number of games
 * in the viewer. Returns 0, or -1 with err (the store, a stored game that
 * does not replay). */
int viewer_write(FILE *h, store *db, const store_run *r, long long *shown, char *err,
                 size_t errlen);

#endif
