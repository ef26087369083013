/* adjudicate.h: games ended early, as engine testers end them: by the endgame tables, by both players' scores near zero (a draw), by one player's hopeless score (it resigns). */
#ifndef OWARE_ADJUDICATE_H
#define OWARE_ADJUDICATE_H

#include <stddef.h>

#include "core/board.h"
#include "core/outcome.h"
#include "core/variant.h"
#include "players/player.h"
#include "players/tablebase.h"

/* The longest rules text (a pinned egdb=auto@... or a folder included). */
#define ADJUDICATE_TEXT_MAX 4096

/* The rules of --adjudicate, "RULE;RULE;...", each at most once:
 *   egdb[=TABLES]             the tables decide (TABLES: auto, the default, a
 *                             folder, or auto@PINS as a run stores it)
 *   draw=PLIES,SCORE,MOVES    a draw once PLIES plies are played and both
 *                             sides' scores stayed within +-SCORE
 *                             centiseeds for MOVES moves each in a row
 *   resign=SCORE,MOVES        a side whose score stayed at or below -SCORE
 *                             for MOVES moves of its own in a row loses
 *   maxplies=PLIES            a draw once PLIES plies are played
 *                             (cutechess's -maxmoves) */
typedef struct adjudicate_rules {
  int egdb;                        /* the egdb rule is on */
  char tables[ADJUDICATE_TEXT_MAX]; /* its tables, as tablebase_init reads them */
  int draw_plies, draw_score, draw_moves;   /* draw_moves 0: no draw rule */
  int resign_score, resign_moves;           /* resign_moves 0: no resign rule */
  int max_plies;                            /* 0: no maxplies rule */
} adjudicate_rules;

/* Parses text into r (cleared first). 0, or -1 with err naming the rule and
 * what is wrong with it. */
int adjudicate_parse(const char *text, adjudicate_rules *r, char *err, size_t errlen);

/* r as the canonical text adjudicate_parse reads back (rules in the order
 * egdb, draw, resign, maxplies). 0, or -1 when len is too small. */
int adjudicate_format(const adjudicate_rules *r, char *buf, size_t len);

/* For a new run of the nv variants vs: egdb=auto becomes egdb=auto@PINS,
 * the default folder's tables now (players/tablebase.h), so that the run
 * and its resume adjudicate by the same tables or refuse to. 0, or -1 with
 * err. */
int adjudicate_pin(adjudicate_rules *r, const variant *vs, int nv, char *err, size_t errlen);

/* The rules with the tables of a run's variants open: made once for a run,
 * then read by every worker at once (probes write nothing shared). */
typedef struct adjudicator adjudicator;

/* Opens the tables of the egdb rule for the nv variants. With the egdb rule
 * it is an error when no variant has tables (or a folder or pin cannot be
 * read). 0 with *out (adjudicate_close frees it), or -1 with err. */
int adjudicate_open(const adjudicate_rules *r, const variant *vs, int nv, adjudicator **out,
                    char *err, size_t errlen);
void adjudicate_close(adjudicator *a);

/* One game's watch: its tables and the counters of the score rules. */
typedef struct adjudicate_game {
  const adjudicate_rules *rules; /* NULL: no adjudication */
  const tablebase *tb;           /* the game's variant's tables, NULL when none */
  int draw_run;                  /* plies in a row with a score within +-draw_score */
  int resign_run[2];             /* each side's moves in a row at or below -resign_score */
} adjudicate_game;

/* Starts watching a game of variant v (a may be NULL: nothing is adjudicated). */
void adjudicate_start(const adjudicator *a, const variant *v, adjudicate_game *gs);

/* Before a move, in position b (the game not over): 1 when the tables
 * decide the game there, a result no cycle rule can change (r: end
 * adjudicated-egdb, winner, detail, final scores = the stores plus the
 * tables' split of the seeds left: the exact value, lower = upper or the
 * split table under cycle=split; for a cycle-sensitive value whose result
 * is the same either way, the bound that decides it, lower for a win of
 * the mover, upper for a loss), else 0. */
int adjudicate_position(const adjudicate_game *gs, const board *b, const variant *v, outcome *r);

/* After `mover` played, reporting info, with `plies` plies played and the
 * position b now (the game not over): counts the score rules; 1 when one
 * ends the game, or maxplies does (r: adjudicated-draw, or
 * adjudicated-resign with the mover the loser; scores the stores), else 0. A move without a score (info->scored
 * 0) breaks both rules' runs. */
int adjudicate_move(adjudicate_game *gs, int plies, int mover, const player_info *info,
                    const board *b, outcome *r);

#endif
