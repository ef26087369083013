/* store.h: the SQLite store of runs, players, variants, series and games (docs/SCHEMA.md). */
#ifndef OWARE_STORE_H
#define OWARE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/move_record.h"
#include "core/outcome.h"

/* The schema version this code writes and reads (PRAGMA user_version), and
 * the application id that marks an oware database (PRAGMA application_id). */
#define STORE_SCHEMA_VERSION 18
#define STORE_APPLICATION_ID 0x4f574152 /* "OWAR" */

typedef struct store store;

/* Limits of a run (policy, not storage: the tables have none). */
#define STORE_MAX_PLAYERS 64
#define STORE_MAX_VARIANTS 16

/* A run's status. The database keeps the name (store_status_name). */
typedef enum {
  STORE_RUNNING,     /* "running" */
  STORE_FINISHED,    /* "finished" */
  STORE_INTERRUPTED, /* "interrupted" */
  STORE_FAILED       /* "failed" */
} store_status;
#define STORE_NSTATUS 4

/* What a run is. The database keeps the name (store_kind_name). */
typedef enum {
  STORE_ROUND_ROBIN, /* "round-robin": a tournament, or a variant study */
  STORE_GAUNTLET,    /* "gauntlet" */
  STORE_SPSA,        /* "spsa": a tuning run */
  STORE_TEXEL,       /* "texel": a tuning run */
  STORE_IMPORTED,    /* "imported": games read from PGN or OGN (report/pgn.h) */
  STORE_CALIBRATION, /* "calibration": a difficulty calibration (tuner/calibrate_run.h) */
  STORE_NET          /* "net": a network trained (tuner/net_run.h) */
} store_kind;
#define STORE_NKINDS 7

/* The one table of names of each enum: the name, or "?" out of range. */
const char *store_status_name(store_status st);
const char *store_kind_name(store_kind k);
/* Name to value: 0, or -1 for an unknown name. */
int store_status_parse(const char *name, store_status *out);
int store_kind_parse(const char *name, store_kind *out);

/* One setting of a run (table run_config): a typed value under a key. */
typedef enum { STORE_TEXT, STORE_INT, STORE_REAL } store_type;
typedef struct store_config {
  char *key;
  store_type type;
  char *text;       /* STORE_TEXT */
  long long i;      /* STORE_INT */
  double r;         /* STORE_REAL */
} store_config;

/* A file a run depends on (a weights file named in a player spec), kept
 * whole with the run (table run_files). */
typedef struct store_file {
  char *path;          /* as named in the spec */
  unsigned char *data; /* its content, len bytes */
  size_t len;
} store_file;

/* A run: everything needed to play it again or resume it. Every pointer is
 * malloc'ed and owned by the struct: start from a zeroed one (or
 * store_run_init), fill it with the setters below, free it with
 * store_run_free. Never copy one by value (two owners). */
typedef struct store_run {
  int64_t id;
  char *name;
  store_kind kind;
  char *format;        /* series format, canonical (series_format_string) */
  char *openings;      /* "random:PLIES" or "file:PATH" */
  int rounds;
  int threads;
  uint64_t seed;
  char *command;       /* the command line that started it: a record for people, never parsed */
  store_status status;
  char started[32];    /* ISO 8601 UTC times; finished is "" while running */
  char finished[32];
  int nplayers;
  char **player_name, **player_spec;
  int nvariants;
  char **variant;      /* canonical variant strings */
  /* The settings (run_config): written by store_run_create, read by
   * store_run_load and store_runs_foreach. */
  int nconfig;
  store_config *config;
  /* The positions of a file:PATH openings run, in file order (run_openings):
   * written by store_run_create; read with store_run_openings (not by
   * store_run_load: there may be many). */
  int npositions;
  char **position;
  /* Files the run depends on (run_files): written by store_run_create;
   * compared with the disk by store_run_files_check. */
  int nfiles;
  store_file *files;
} store_run;

void store_run_init(store_run *r);
/* Frees everything the run owns and zeroes it (NULL is fine). */
void store_run_free(store_run *r);
/* Copies text into *field (a char * of a store_run), freeing the old one.
 * 0, or -1 when out of memory. */
int store_run_set(char **field, const char *text);
/* Append a player (name and spec), a variant, a position (run_openings). 0
 * or -1 when out of memory. */
int store_run_add_player(store_run *r, const char *name, const char *spec);
int store_run_add_variant(store_run *r, const char *text);
int store_run_add_position(store_run *r, const char *position);
/* Reads the file at path and keeps it with the run (it is stored by
 * store_run_create). A path already added is not added twice. -1 with err
 * when it cannot be read. */
int store_run_add_file(store_run *r, const char *path, char *err, size_t errlen);

/* Sets a setting of the run before store_run_create (replacing one of the
 * same key). Keys are documented in docs/SCHEMA.md. 0, or -1 when out of
 * memory. */
int store_config_set_text(store_run *r, const char *key, const char *value);
int store_config_set_int(store_run *r, const char *key, long long value);
int store_config_set_real(store_run *r, const char *key, double value);
/* Reads a setting: 0 with *out set; 1 when the run has no such key (*out
 * untouched); -1 with err when it has one of another type ("run 3: setting
 * 'pairs' is text, not an integer"). A text stays owned by the run. */
int store_config_get_text(const store_run *r, const char *key, const char **out, char *err,
                          size_t errlen);
int store_config_get_int(const store_run *r, const char *key, long long *out, char *err,
                         size_t errlen);
int store_config_get_real(const store_run *r, const char *key, double *out, char *err,
                          size_t errlen);

/* 0 when the run can be resumed, else -1 with why (a run migrated from
 * schema 4 whose openings file was never stored: setting "not_resumable"). */
int store_run_resumable(const store_run *r, char *err, size_t errlen);

/* One finished game and where it belongs. */
typedef struct store_game {
  int64_t run_id;
  int series_no;   /* index of the series in the run's schedule */
  int game_no;     /* 0-based game number inside the series */
  int variant_idx; /* index into store_run.variant */
  int round;
  int a_idx, b_idx;         /* the series' players (A and B) */
  int south_idx, north_idx; /* who had which side in this game */
  char opening[128];        /* position string the game started from */
  const char *moves;        /* move letters, written together; owned by the caller */
  int winner;               /* 0 South, 1 North, -1 draw */
  int score2[2];            /* final scores in half seeds */
  int plies;
  outcome_end end;            /* stored as outcome_end_name */
  char detail[256];         /* what a forfeiting player did, else "" */
  uint64_t seed;
  double seconds;
  /* What is known of each move (core/move_record.h's text: time, score,
   * depth a move), NULL when not recorded (games before schema 8, imported
   * ones); owned by the caller, checked against plies on reading. */
  const char *records;
} store_game;

/* A finished series. */
typedef struct store_series {
  int64_t run_id;
  int series_no, variant_idx, round, a_idx, b_idx;
  int games, wins_a, wins_b, draws;
  int winner; /* 0 A, 1 B, -1 drawn */
} store_series;

/* Opens (creating when create is set and the file does not exist) the
 * database at path in WAL mode. A file that is not an SQLite database, an
 * SQLite database of another program, or one of a newer schema is an error
 * that says so; so is a file or folder this user may not write ("cannot
 * write PATH: its folder DIR is read-only …: copy the database to a folder
 * that can be written"). Returns 0, or -1 with err (and *out NULL). */
int store_open(const char *path, int create, store **out, char *err, size_t errlen);
/* Opens an existing database for reading only (the commands that only read:
 * runs, export, rate, chart, report, study --run, --from-db): a read-only
 * file, or one in a read-only folder (opened immutable when its -wal holds
 * no changes), can be read, and nothing is ever written to it. Same checks
 * as store_open. A database of an older schema is upgraded first when it
 * can be written, else an error saying so; changes in PATH-wal that cannot
 * be read (no PATH-shm, none can be made) are an error, never skipped
 * (docs/SCHEMA.md, "Reading a database you may not write"). */
int store_open_readonly(const char *path, store **out, char *err, size_t errlen);
void store_close(store *s);

/* Inserts a new run with its players, variants, settings, positions and
 * files, all in one transaction; sets run->id, status, started. */
int store_run_create(store *s, store_run *run, char *err, size_t errlen);
/* Loads run id with its players, variants and settings into run (whose old
 * content is not freed: pass a zeroed or freed one; store_run_free it
 * after). -1 with "no run N" when there is none, or with the bad row named
 * when a row is malformed. */
int store_run_load(store *s, int64_t id, store_run *run, char *err, size_t errlen);
/* Sets the status (and the finished time unless it is STORE_RUNNING). */
int store_run_status(store *s, int64_t id, store_status status, char *err, size_t errlen);
/* The stored positions of run id (run_openings), in order: *out (malloc'ed
 * array of malloc'ed strings; free with store_strings_free, or hand them to
 * a loaded run as run->position / run->npositions, which store_run_free
 * frees) gets *n of them, 0 when the run has none. */
int store_run_openings(store *s, int64_t id, char ***out, int *n, char *err, size_t errlen);
void store_strings_free(char **v, int n);
/* Compares each file stored with run id (run_files) with the file on disk
 * at its path: 0 when all are the same; -1 with "run 3: weights file w.txt
 * has changed since the run started (stored 123 bytes, hash …; now …)" or
 * that it cannot be read. */
int store_run_files_check(store *s, int64_t id, char *err, size_t errlen);
/* The stored content of the file `path` of run id: 0 with *data (malloc'ed,
 * the caller frees) and *len; 1 when the run has no such file; -1 on error. */
int store_run_file(store *s, int64_t id, const char *path, unsigned char **data, size_t *len,
                   char *err, size_t errlen);

/* The run lock: one process plays a run at a time. Taken atomically (an
 * IMMEDIATE transaction on run_locks) with this process's pid, host name and
 * the time. Returns 0 when taken (or already ours; a lock whose owner is not
 * alive on this host is taken over), 1 when another live process holds it
 * (err: "run 3 is being played by pid 1234 on host h since 2026-…"; a lock
 * of another host is held until unlocked), -1 on error. */
int store_run_lock(store *s, int64_t id, char *err, size_t errlen);
/* Releases the lock if this process holds it. */
int store_run_unlock(store *s, int64_t id, char *err, size_t errlen);

/* Commits n games and m finished series in one transaction: all or none.
 * A game that is already stored (same run, series and game number) is an
 * error, never a duplicate; a series row replaces one of the same number. */
int store_commit(store *s, const store_game *games, int n, const store_series *series, int m,
                 char *err, size_t errlen);
/* store_commit of games only. */
int store_games_insert(store *s, const store_game *games, int n, char *err, size_t errlen);
/* Inserts or replaces the summary row of a finished series (its own
 * transaction: prefer store_commit with the series' last game). */
int store_series_finish(store *s, const store_series *sr, char *err, size_t errlen);

/* Calls fn for every stored game of run id, in (series_no, game_no) order.
 * g->moves points into a buffer valid during the call only. fn returns
 * non-zero to stop. Every row is checked first (indices in range for the
 * run's players and variants, a known end reason, winner, seed): a
 * malformed row is an error that names it ("run 1, series 2, game 0:
 * variant_idx 40 out of range (1 variant)"). */
int store_games_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_game *g),
                        void *ctx, char *err, size_t errlen);

/* The move records of a game row (g->records, as store_games_foreach gives
 * it): 1 with *out a malloc'ed array of g->plies records (time in ms, the
 * mover's score and depth), 0 with *out NULL when the game has none, -1
 * with err when they do not read. */
int store_game_records(const store_game *g, move_record **out, char *err, size_t errlen);

/* Number of games stored for run id. */
long long store_games_count(store *s, int64_t run_id);

/* A player's rating from one fit (`oware rate`, or a tournament as it goes).
 * Ratings of one fit share `batch`. (Schema version 2.) */
typedef struct store_rating {
  int64_t run_id;     /* the run rated, or 0 when several runs were pooled */
  int64_t batch;      /* set by store_ratings_insert: one id per fit */
  char scope[256];    /* what was rated, e.g. "run 3", "runs 1,2 variant abapa", "all" */
  char player[128];
  double elo, lo, hi; /* estimate and 95% interval */
  long long games;    /* games of this player in the fit */
  double score;       /* points / games */
  double draws;       /* draws / games */
  long long games_total; /* games in the whole fit (where a run was, for charts over time) */
  int bound;          /* only wins or only losses: the estimate is a marked bound */
  char created[32];   /* ISO 8601 UTC, set by store_ratings_insert */
} store_rating;

/* Stores the n ratings of one fit in one transaction; gives them a new batch
 * id and the current time. */
int store_ratings_insert(store *s, store_rating *r, int n, char *err, size_t errlen);

/* Calls fn for every stored rating of run_id (0: of every run), in the
 * order they were stored (batch, then rank). */
int store_ratings_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_rating *r),
                          void *ctx, char *err, size_t errlen);

/* Results between two players, pooled by name over the runs asked for. */
typedef struct store_pair_count {
  char a[128], b[128];   /* the two names, a before b in strcmp order */
  long long wins, draws, losses; /* games, from a's side */
  long long penta[5];    /* game pairs (games 2k and 2k+1 of a series, both stored) by a's
                            points in the pair: 0, ½, 1, 1½, 2 */
  long long pairs_wl;    /* of penta[2], the pairs of a win and a loss */
} store_pair_count;

/* Aggregates games per pair of player names, in one pass over the games in
 * index order (docs/SCHEMA.md): the games of runs[0..nruns-1] (nruns 0:
 * every run), of variant `variant` (canonical string) only unless it is NULL. *out (malloc'd, the caller frees; NULL
 * when *n is 0) gets *n pairs sorted by (a, b). An unknown run is an error
 * ("no run N"). */
int store_pair_counts(store *s, const int64_t *runs, int nruns, const char *variant,
                      store_pair_count **out, int *n, char *err, size_t errlen);

/* How the games of runs[0..nruns-1] (nruns 0: every run; of variant
 * `variant` only unless it is NULL) ended: counts[e] games with end reason
 * e (store/end_counts.c). A reason this oware does not know is an error.
 * 0, or -1 with err. */
int store_end_counts(store *s, const int64_t *runs, int nruns, const char *variant,
                     long long counts[OUTCOME_NENDS], char *err, size_t errlen);
/* Of counts (as store_end_counts gives them), the games that an
 * adjudication ended (adjudicated-*); *games gets all of them. */
long long store_end_adjudicated(const long long counts[OUTCOME_NENDS], long long *games);

/* One player's games of one end reason (store_end_scores), by its result,
 * and of them those that ended on its own move: the last ply of the game's
 * moves was its own (a repetition it made, a capture of the majority, a
 * move that left the opponent none). Players are matched by name over
 * runs, as the ratings match them. */
typedef struct store_end_score {
  char name[128];
  outcome_end end;
  long long wins, draws, losses;
  long long own_wins, own_draws, own_losses;
} store_end_score;
/* Each player's games of runs[0..nruns-1] (nruns 0: every run; of variant
 * `variant` only unless it is NULL) by end reason, as *n rows in *rows
 * (malloc'd; the caller frees it; NULL when none), ordered by name then
 * end reason. A reason this oware does not know is an error. 0, or -1
 * with err (nothing allocated). */
int store_end_scores(store *s, const int64_t *runs, int nruns, const char *variant,
                     store_end_score **rows, int *n, char *err, size_t errlen);

/* Runs, newest first: calls fn for each (for `oware runs`); r is valid
 * during the call only. */
/* The newest run of kind `kind` whose setting `key` is the text `value`:
 * 1 with *run_id, 0 when there is none, -1 with err. */
int store_run_find(store *s, store_kind kind, const char *key, const char *value,
                   int64_t *run_id, char *err, size_t errlen);

int store_runs_foreach(store *s, int (*fn)(void *ctx, const store_run *r), void *ctx,
                       char *err, size_t errlen);

/* A driver's own tables (store/tables.c). Whoever owns a table declares it:
 * a driver that keeps rows of its own (the study's metrics,
 * run/study_store.c; the endgame analysis, run/analyse_store.c) declares
 * its tables beside its code and registers them here; the store knows none
 * of them (docs/SCHEMA.md). None has changed since it was added; a change
 * will add its per-version upgrade steps to this struct. */
typedef struct store_tables {
  const char *owner; /* who declares them, for messages: "run/analyse_store.c" */
  const char *table; /* the first table sql creates: when it is there, all are */
  const char *sql;   /* their CREATE statements, newest schema */
} store_tables;
#define STORE_MAX_TABLES 16

/* Makes t known to every store opened from then on: a new database gets its
 * tables, and so does an older one when it is upgraded, or one of this
 * schema without them (made by a program that registered none) when it is
 * opened for writing. A program registers the drivers it has before it
 * opens a store (cli/main.c); registering t again is harmless. 0, or -1
 * when STORE_MAX_TABLES are registered already. */
int store_tables_register(const store_tables *t);
/* Makes sure the tables of t are in the database of s, registered or not:
 * a driver calls it before it uses them. 0 when they are there (created now
 * when missing); 1 when they are missing and s is read-only (a reader finds
 * no rows); -1 with err. */
int store_tables_ensure(store *s, const store_tables *t, char *err, size_t errlen);

#endif
