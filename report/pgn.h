/* pgn.h: PGN records for rating tools (Ordo, BayesElo) written from stored games; PGN or OGN files read back as games to rate or store. */
#ifndef OWARE_PGN_H
#define OWARE_PGN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats/elo_fit.h"
#include "store/store.h"
#include "core/notation.h"

/* Writes game g of run r as one PGN record (docs/PGN.md): the Seven Tag
 * Roster (Event = the run's name, Site, Date, Round "round.series.game",
 * White = South, Black = North, Result 1-0 / 0-1 / 1/2-1/2), then Variant,
 * StartPosition, Termination (the end reason), Score (final seeds, South
 * first) and PlyCount, and the moves as house letters with move numbers.
 * The stored moves are replayed under the run's variant first. Returns 0,
 * or -1 with a message (a stored move that is not legal, a write error). */
int pgn_write_stored(FILE *f, const store_run *r, const store_game *g, char *err,
                     size_t errlen);

#define PGN_NO_RESULT (-2)

/* One game read from a PGN or OGN file. */
typedef struct pgn_game {
  int line;                          /* line of the file where the record starts */
  char event[128], round[48];
  char south[128], north[128];       /* White / Black, or OGN's South / North */
  char variant[160];                 /* canonical (variant_format) */
  char opening[NOTATION_POSITION_MAX];/* the start position string */
  char *moves;                       /* the house letters, together; owned */
  int plies;
  int winner;                        /* 0 South, 1 North, -1 draw, PGN_NO_RESULT ('*') */
  int score2[2];                     /* final scores in half seeds */
  char end[24];                      /* Termination, else the rules' end, else "unknown" */
  int series, game_no, round_no;     /* the series a game belongs to (pairs), from Round */
} pgn_game;

typedef struct pgn_file {
  pgn_game *games;
  int n;
  int no_result; /* of the n, games whose result is '*' (neither rated nor stored) */
  char source_hash[17]; /* FNV-1a of the text read (core/hash.h): kept with an import */
} pgn_file;

/* Reads every record of text, PGN or OGN, in any mix: tags `[Name "value"]`
 * (White/Black or South/North, Result as 1-0, 0-1, 1/2-1/2, *, or OGN's
 * final seeds "25-23"; Variant; StartPosition or FEN), then movetext of
 * house letters with move numbers, {comments}, ;comments, $NAGs and
 * (variations) skipped. Every record is replayed: a move that is not legal,
 * a Result that the moves contradict, a missing player name or result, an
 * unknown variant or a bad position is an error naming the record and its
 * line. Records are put into series by their Round tag ("r.s.g", as
 * `oware export` writes it, within one Event); records without one make a
 * series with the next record when it swaps the same two players' colours.
 * Games 2k and 2k+1 of a series are a game pair, as in the database.
 * Returns 0, or -1 with a message (out is then empty). */
int pgn_file_read(const char *text, pgn_file *out, char *err, size_t errlen);
void pgn_file_free(pgn_file *f);

/* Adds the file's games with a result to the pool: players in the order
 * they first appear, counts and game pairs as rating_pool_load would count
 * the same games stored as a run. Returns 0, or -1 with a message. */
int pgn_file_pool(const pgn_file *f, rating_pool *p, char *err, size_t errlen);

/* The file's games with a result by player and end reason (each record's
 * end; one this oware does not know counts as forfeit-error, as
 * pgn_file_store keeps it), as
 * store_end_scores gives a run's: *n rows in *rows (malloc'd, the caller
 * frees it; NULL when none), ordered by name then end. 0, or -1 out of
 * memory (nothing allocated). */
int pgn_file_end_scores(const pgn_file *f, store_end_score **rows, int *n);

/* The setting under which an imported run keeps its file's source_hash. */
#define PGN_SOURCE_KEY "source_hash"

/* Stores the file's games with a result as a new finished run of kind
 * "imported" named `name`, with `command` as its command line and the
 * file's source_hash as its setting PGN_SOURCE_KEY; sets *run_id. At most STORE_MAX_PLAYERS players and STORE_MAX_VARIANTS
 * variants. Returns 0, or -1 with a message (nothing is stored then). */
int pgn_file_store(const pgn_file *f, store *db, const char *name, const char *command,
                   int64_t *run_id, char *err, size_t errlen);

#endif
