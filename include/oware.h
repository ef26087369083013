/* oware.h: the embeddable oware library: games under any variant (take-back, copies), moves by letter, players from specs (limits per call, analyses), the shipped levels; plug-in player types. */
#ifndef OWARE_H
#define OWARE_H

/* A small, stable C interface (docs/LIBRARY.md). Link with
 * `pkg-config --cflags --libs oware`. Every function that can fail returns
 * -1 (or NULL) and writes a message into the caller's err buffer (errlen
 * bytes; err may be NULL); nothing here prints or exits. Houses are letters:
 * South's A, B, ... (A = South's leftmost), North's a, b, ...; positions are
 * strings such as 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S (docs/RULES.md). */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when this interface changes: 2 added take-back, copies, moves
 * under a limit given per call, analysis and the shipped levels; every call
 * of 1 is kept unchanged (docs/LIBRARY.md). A plug-in built for any version
 * from 1 up loads (struct oware_plugin is the same since 1). */
#define OWARE_API_VERSION 2

/* "0.1.0": the library's version. */
const char *oware_version(void);

/* ------------------------------------------------------------------ games */

typedef struct oware_game oware_game;

/* A new game under variant (a name such as "abapa" or "awari", with
 * switches: "abapa,seeds=5"; NULL: abapa) from position (NULL: the start).
 * NULL with a message on a bad variant or position. */
oware_game *oware_game_new(const char *variant, const char *position, char *err, size_t errlen);
void oware_game_free(oware_game *g);

/* Plays the house of letter m for the side to move. 0, or -1 with a message
 * (not a house, not legal, the game is over). */
int oware_game_play(oware_game *g, char m, char *err, size_t errlen);

/* The legal moves as letters ("ABDF"; "" once over) into buf. Returns their
 * count. */
int oware_game_legal(const oware_game *g, char *buf, size_t len);

/* 0 when South is to move, 1 when North is. */
int oware_game_side(const oware_game *g);

/* 1 once the game is over. */
int oware_game_over(const oware_game *g);

/* The result: 0 South won, 1 North won, -1 a draw, -2 still playing.
 * score (may be NULL) gets the final seeds (or the stores while playing);
 * *reason (may be NULL) "majority", "no-move", "repetition", "ply-limit"
 * or "playing". */
int oware_game_result(const oware_game *g, double score[2], const char **reason);

/* The position now (after the final transfer once over) into buf. */
void oware_game_position(const oware_game *g, char *buf, size_t len);

/* The moves played, as letters written together ("FdEe"), into buf.
 * Returns the number of moves. */
int oware_game_moves(const oware_game *g, char *buf, size_t len);

/* The canonical variant string into buf. */
void oware_game_variant(const oware_game *g, char *buf, size_t len);

/* Takes back the last move (an ended game plays on from before it). 0, or
 * -1 with a message (g is NULL, or at its start). (API 2) */
int oware_game_undo(oware_game *g, char *err, size_t errlen);

/* A copy of g with its history, so that the copy's repetition rule and
 * take-backs are g's; the copy is another game to the players. NULL with a
 * message (g is NULL, out of memory). (API 2) */
oware_game *oware_game_copy(const oware_game *g, char *err, size_t errlen);

/* ---------------------------------------------------------------- players */

typedef struct oware_player oware_player;

/* A player from a spec, as `oware players` lists them: "greedy",
 * "minimax:depth=6", "mcts:playouts=5000", "engine:cmd=...",
 * "plugin:path=./x.so,...", or a level by name: "level:hard",
 * "level:easy,file=levels.txt" (the levels file of `oware calibrate`; without
 * file=, $OWARE_LEVELS or the installed one). NULL with a message on a bad
 * spec, an unknown level or an unreadable levels file. */
oware_player *oware_player_new(const char *spec, char *err, size_t errlen);
void oware_player_free(oware_player *p);

/* The player's name (name= of its spec, else the spec). */
const char *oware_player_name(const oware_player *p);

/* Asks the player for its move in g (not over): *m gets the letter. The
 * player is told of a new game when g is another game than last time, or
 * the same game taken back. 0, or -1 with a message (the player failed). */
int oware_player_move(oware_player *p, const oware_game *g, char *m, char *err, size_t errlen);

/* The longest principal variation oware_player_analyse gives, in moves. */
#define OWARE_PV_MAX 64

/* What a player found for its move (API 2). Random reports nothing but its
 * move; greedy a score only; minimax and mcts all of it. */
typedef struct oware_analysis {
  char move;           /* the move chosen, a letter */
  int score;           /* centiseeds for the side to move (minimax; mcts: the
                        * win rate as 2000 * (rate - 0.5)); a game end seen
                        * ahead is +-1000000 less its plies; a result the
                        * endgame tables prove at ply n, +-(1000000 - 200 - n) */
  int end_in;          /* 0, or n > 0 when the mover wins at the latest n plies
                        * ahead, -n when it loses in n (the game's end seen;
                        * 0 for a result the tables prove: no distance) */
  int depth;           /* the depth completed (mcts: the pv's length) */
  int seldepth;        /* the deepest ply reached */
  long long nodes;     /* minimax nodes, mcts playouts */
  double seconds;      /* the time the search took */
  char pv[OWARE_PV_MAX + 1]; /* the principal variation as letters ("FdE"),
                        * from the move chosen; "" when not reported */
} oware_analysis;

/* oware_player_move with limits for this one move, as UCI's `go`: movetime_ms
 * (milliseconds), nodes (minimax nodes, mcts playouts), depth (minimax
 * plies); 0 for all three: the player's own (its spec's) limits; any of them
 * set replace the player's own that its type understands. 0, or -1 with a
 * message (a NULL handle, a negative limit, the game over, the player
 * failed). (API 2) */
int oware_player_move_limit(oware_player *p, const oware_game *g, int movetime_ms, long long nodes,
                            int depth, char *m, char *err, size_t errlen);

/* oware_player_move_limit that also fills *a with what the player found:
 * the move, score, depth, nodes and principal variation. 0, or -1 with a
 * message as oware_player_move_limit. (API 2) */
int oware_player_analyse(oware_player *p, const oware_game *g, int movetime_ms, long long nodes,
                         int depth, oware_analysis *a, char *err, size_t errlen);

/* ----------------------------------------------------------------- levels */

/* A levels file (docs/LEVELS.md): the shipped difficulty levels with the Elo
 * each was calibrated at. (API 2) */
typedef struct oware_levels oware_levels;

/* One level; the strings live as long as the oware_levels. The Elo columns
 * are NAN when the file's line has none (a level not yet calibrated). */
typedef struct oware_level {
  const char *name;   /* "easy": "level:easy" plays it (from the default file) */
  const char *spec;   /* the player spec it stands for (oware_player_new takes it) */
  double elo, lo, hi; /* the Elo measured at calibration and its interval */
  double target;      /* the Elo it was calibrated towards */
} oware_level;

/* Reads the levels file at path (NULL: the default one, which "level:NAME"
 * reads: $OWARE_LEVELS, else the installed file). NULL with a message (no
 * file found, unreadable, malformed). */
oware_levels *oware_levels_open(const char *path, char *err, size_t errlen);
void oware_levels_free(oware_levels *l);

/* The file's path, as read; NULL for a NULL handle. */
const char *oware_levels_path(const oware_levels *l);

/* How many levels the file has (easiest first, as the file lists them); 0
 * for a NULL handle. */
int oware_levels_count(const oware_levels *l);

/* The i-th level (0 ... count - 1) into *out. 0, or -1 with a message. */
int oware_levels_get(const oware_levels *l, int i, oware_level *out, char *err, size_t errlen);

/* The index of the level called name, or -1 with a message listing the
 * file's levels. */
int oware_levels_find(const oware_levels *l, const char *name, char *err, size_t errlen);

/* The range of Elo where "level:elo=N" makes a level (between calibrated
 * levels of the file). 0, or -1 with a message (the file has none). */
int oware_levels_elo_range(const oware_levels *l, double *lo, double *hi, char *err,
                           size_t errlen);

/* --------------------------------------------------------------- plug-ins */

/* A plug-in is a shared object that exports, under the name
 * OWARE_PLUGIN_SYMBOL, one `const oware_plugin`; `plugin:path=FILE.so,...`
 * then makes its players (in the oware binary and wherever this library
 * runs). It needs this header only: it links nothing of ours. */
typedef struct oware_plugin_option {
  const char *name;
  const char *def;  /* default as text; NULL: none */
  const char *help;
} oware_plugin_option;

typedef struct oware_plugin {
  int api_version;                    /* OWARE_API_VERSION (1 or more) */
  const char *name;                   /* the type's name, e.g. "mine" */
  const char *summary;                /* one line for `oware players` */
  const oware_plugin_option *options; /* terminated by {NULL}; values are text */
  /* Makes a player; options[i] is the value of the i-th option (its default
   * when not given, NULL when it has none); seed is the spec's seed=.
   * Returns the player's state, or NULL with a message in err. */
  void *(*create)(const char *const *options, unsigned long long seed, char *err,
                  size_t errlen);
  /* Chooses a move: variant (canonical string), position (the position
   * string), legal (the legal letters) and moves (the game's letters so far,
   * from start, its start position). Writes one of legal's letters to *m and
   * returns 0, or returns -1 with a message (the player forfeits). */
  int (*choose)(void *state, const char *variant, const char *start, const char *moves,
                const char *position, const char *legal, char *m, char *err, size_t errlen);
  void (*destroy)(void *state); /* may be NULL */
} oware_plugin;

#define OWARE_PLUGIN_SYMBOL "oware_plugin_v2"

#ifdef __cplusplus
}
#endif

#endif
