/* egdb_solve.h: a position solved on the endgame tables: its value, a line of perfect play, and what building the tables it needs takes. */
#ifndef OWARE_EGDB_SOLVE_H
#define OWARE_EGDB_SOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "core/variant.h"
#include "egdb/egdb.h"

/* The longest line egdb_solve gives. */
#define EGDB_SOLVE_MAX_LINE 4096

/* What solving a position with `seeds` seeds on the board needs: the tables
 * 0 .. seeds of the variant in a folder, those missing to be built. */
typedef struct egdb_solve_plan {
  int seeds;          /* seeds on the board: tables 0 .. seeds are needed */
  int have;           /* tables 0 .. have - 1 are in the folder (0: none) */
  uint64_t positions; /* positions of the tables to build (have .. seeds) */
  uint64_t memory;    /* working memory of the largest of them, layout as the build chooses */
  int lean;           /* that table would be built with the lean layout */
  uint64_t disk;      /* bytes their files take */
  uint64_t available; /* memory free now (egdb_memory_available) */
  uint64_t disk_free; /* bytes free in the folder's file system (0: not known) */
  double seconds;     /* the build's time, roughly (EGDB_SOLVE_RATE) */
  int fits;           /* 0: the build cannot be done here, why says why */
  char why[ERROR_MAX];
} egdb_solve_plan;

/* Positions a second one thread builds, roughly, with the fast layout (the
 * lean one takes about 2.4 times as long, the split table 1.4 times, a
 * table of more than EGDB_SOLVE_LARGE positions twice as long): what boards
 * of 3 to 7 houses, and abapa's tables 21..24, took on the 2-core machine
 * of docs/VARIANTS.md. */
#define EGDB_SOLVE_RATE 5e5
#define EGDB_SOLVE_LARGE (1u << 25)

/* Plans the tables 0 .. seeds of v in dir for `threads` build threads.
 * Returns 0 (plan->fits 0 with the reason when they cannot be built: more
 * seeds than EGDB_MAX_SEEDS, not enough memory or disk), or
 * EGDB_EUNSUPPORTED / EGDB_EARG with a message. */
int egdb_solve_plan_make(const variant *v, const char *dir, int seeds, int threads,
                         egdb_solve_plan *plan, char *err, size_t errlen);

/* What the line of a solved position plays for. */
typedef enum egdb_solve_goal {
  EGDB_SOLVE_EXACT, /* the exact value: every cycle rule gives it */
  EGDB_SOLVE_LOWER  /* cycle-sensitive: the mover's lower bound, which no cycle rule can take */
} egdb_solve_goal;

/* A position solved: the value from its mover's view and a line of perfect
 * play from it to the end of the game. */
typedef struct egdb_solve_result {
  egdb_value value;       /* the tables' value (egdb_probe) */
  egdb_solve_goal goal;
  int moves[EGDB_SOLVE_MAX_LINE]; /* house indices */
  int plies;
  board_end end;          /* NO_MOVE; REPETITION when neither side can force another capture
                             (the line stops at its first repeated position) */
  int score2[2];          /* final scores in half seeds: stores, captures, the end's transfer
                             (a repetition's by the variant's cycle rule) */
  int majority_ply;       /* plies after which a store first held more than half (0: at the
                             start; -1: never):
                             the majority rule would end the game there, same winner */
} egdb_solve_result;

/* Solves b on db. The line, seed count by seed count: the root's mover
 * plays for what the tables say it is sure of (the exact value, or its
 * lower bound) by the quickest forced way to the next capture or end, its
 * opponent for the most it can keep by the slowest; when the mover is sure
 * of none of the seeds left, the opponent is the one that forces; when
 * neither is, both play their best values until a position repeats. It
 * ends at the no-move end (majority does not stop it, as in the tables)
 * or at that repetition. Returns 0,
 * EGDB_EARG when db does not cover b's seeds, EGDB_EMEMORY, or
 * EGDB_ECORRUPT when the tables prove no line (values not a fixed point). */
int egdb_solve(const egdb *db, const board *b, egdb_solve_result *out, char *err, size_t errlen);

#endif
