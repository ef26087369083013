/* analyse.h: how far from perfect each player of a run is: its moves in the positions the endgame databases cover, compared with the best (docs/EGDB.md). */
#ifndef OWARE_ANALYSE_H
#define OWARE_ANALYSE_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"
#include "core/notation.h"
#include "egdb/egdb.h"

/*
 * Every stored game of a run is replayed from its opening. At each move
 * where the seeds on the board are at most the coverage N, the value of the
 * move played is compared with the value of the position (its best move),
 * from the mover's side, in half seeds:
 *   - exact: the position and the move have lower = upper (or the variant
 *     is cycle = split and its split table is used, which is exact there):
 *     the move keeps the value, or loses best − played;
 *   - proven: bounds differ somewhere, but the move's upper bound is below
 *     the position's lower bound: a proven loss of at least that much;
 *   - cycle: bounds differ and nothing is proven; counted apart.
 * A mistake (an exact loss or a proven one) changed the game's result when
 * the outcome for the mover (win, draw or loss: its store plus the value
 * against the opponent's store plus the rest) differs before and after it.
 */

/* One player's totals. Decided moves = exact + proven; mistakes = (exact −
 * kept) + proven. */
typedef struct analyse_player {
  long long games;     /* games in which it moved in a covered position */
  long long positions; /* covered positions in which it moved */
  long long forced;    /* of those, with a single legal move */
  long long exact;     /* position and move exact */
  long long kept;      /* of the exact ones, the moves that keep the value */
  long long cycle;     /* cycle-sensitive and undecided */
  long long proven;    /* cycle-sensitive moves that provably lose */
  long long lost2;     /* half seeds thrown away by its mistakes, in all */
  long long changed;   /* games whose result one of its mistakes changed */
} analyse_player;

/* One mistake. */
typedef struct analyse_mistake {
  int series_no, game_no, ply; /* the game, and the move's 0-based ply */
  int variant_idx;             /* the game's variant (index into the run's) */
  int player;                  /* the run's player index of the mover */
  int seeds;                   /* seeds on the board before the move */
  char position[NOTATION_POSITION_MAX]; /* the position before it (oware egdb probe) */
  int played, best;            /* house indices; best: the first move of best value */
  int best2, played2;          /* values in half seeds of the board's seeds (proven: the
                                  position's lower bound and the move's upper bound) */
  int lost2;                   /* best2 − played2 > 0 */
  int proven;                  /* 1: a proven loss in a cycle-sensitive position */
  int changed;                 /* 1: the result for the mover changed */
} analyse_mistake;

/* A run's analysis. */
typedef struct analyse_result {
  int64_t run_id;
  int seeds;                   /* coverage N: positions with at most N seeds on the board */
  long long run_games;         /* games of the run analysed */
  char egdb_dir[1024];         /* where the tables were */
  char created[32];            /* ISO 8601 UTC */
  int nplayers;
  analyse_player player[STORE_MAX_PLAYERS];
  /* Decided moves and half seeds lost, by player and seeds on the board. */
  long long moves_at[STORE_MAX_PLAYERS][EGDB_MAX_SEEDS + 1];
  long long lost2_at[STORE_MAX_PLAYERS][EGDB_MAX_SEEDS + 1];
  int nmistakes;
  analyse_mistake *mistake;    /* in (series, game, ply) order */
} analyse_result;

/* Derived figures of p (run/analyse_result.c): decided moves, mistakes, the share of decided moves
 * that keep the value (NaN with none) and the mean seeds lost per decided
 * move (NaN with none). */
long long analyse_decided(const analyse_player *p);
long long analyse_mistakes(const analyse_player *p);
double analyse_kept_share(const analyse_player *p);
double analyse_lost_per_move(const analyse_player *p);

/* Analyses run run_id against the tables in egdb_dir, up to `seeds` seeds
 * on the board (-1: the largest table every variant of the run has). A
 * variant the tables cannot represent, or missing tables, is an error that
 * says what to build ("oware egdb build --variant V --seeds N"); a stored
 * move that is not legal is an error naming the game and ply. *out is
 * malloc'd: free it with analyse_free. 0, or -1 with err. Nothing is
 * stored. */
int analyse_run(store *db, int64_t run_id, const char *egdb_dir, int seeds, analyse_result **out,
                char *err, size_t errlen);
/* (run/analyse_result.c) */
void analyse_free(analyse_result *r);

/* ---- Stored (run/analyse_store.c; tables analysis, analysis_seeds,
 * analysis_mistakes of schema 6, docs/SCHEMA.md) ---- */

/* The analysis tables: registered by the program (cli/main.c), so that
 * every new database has them; created when first written otherwise. */
extern const store_tables analyse_store_tables;

/* Replaces the stored analysis of r->run_id by r, in one transaction. */
int analyse_save(store *db, const analyse_result *r, char *err, size_t errlen);
/* Reads the stored analysis of run_id: 0 with *out (free with
 * analyse_free), 1 when none is stored, -1 with err (a malformed row is
 * named). */
int analyse_load(store *db, int64_t run_id, analyse_result **out, char *err, size_t errlen);

/* The stored analysis when there is one of the run's current games, made
 * against the tables in the same egdb_dir and of the coverage asked (seeds
 * -1: the one those tables give now, read from their headers, so that
 * missing tables are an error here too), else (or with force) a new one,
 * computed and stored when `save` is set (a database opened read-only:
 * computed only; run/analyse.c composes: analyse_store.c only stores and
 * loads). *computed says which. */
int analyse_get(store *db, int64_t run_id, const char *egdb_dir, int seeds, int force, int save,
                analyse_result **out, int *computed, char *err, size_t errlen);


#endif
