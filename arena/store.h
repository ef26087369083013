/* store.h: the SQLite store of runs, players, variants, series and games (docs/SCHEMA.md). */
#ifndef OWARE_STORE_H
#define OWARE_STORE_H

#include <stddef.h>
#include <stdint.h>

/* The schema version this code writes and reads (PRAGMA user_version), and
 * the application id that marks an oware database (PRAGMA application_id). */
#define STORE_SCHEMA_VERSION 1
#define STORE_APPLICATION_ID 0x4f574152 /* "OWAR" */

typedef struct store store;

#define STORE_MAX_PLAYERS 64
#define STORE_MAX_VARIANTS 16

/* A run: everything needed to play it again or resume it. */
typedef struct store_run {
  int64_t id;
  char name[128];
  char kind[32];       /* "round-robin" or "gauntlet" */
  char format[64];     /* series format, canonical (series_format_string) */
  char openings[512];  /* "random:PLIES" or "file:PATH" */
  int rounds;
  int threads;
  uint64_t seed;
  char command[2048];  /* the command line that started it */
  char status[16];     /* "running", "finished", "interrupted", "failed" */
  char started[32];    /* ISO 8601 UTC times; finished is "" while running */
  char finished[32];
  int nplayers;
  char player_name[STORE_MAX_PLAYERS][128];
  char player_spec[STORE_MAX_PLAYERS][512];
  int nvariants;
  char variant[STORE_MAX_VARIANTS][160]; /* canonical variant strings */
} store_run;

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
  char end[24];             /* majority, no-move, repetition, ply-limit, forfeit-… */
  char detail[256];         /* what a forfeiting player did, else "" */
  uint64_t seed;
  double seconds;
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
 * that says so. Returns 0, or -1 with err (and *out NULL). */
int store_open(const char *path, int create, store **out, char *err, size_t errlen);
void store_close(store *s);

/* Inserts a new run with its players and variants; sets run->id. */
int store_run_create(store *s, store_run *run, char *err, size_t errlen);
/* Loads run id. -1 with "no run N" when there is none. */
int store_run_load(store *s, int64_t id, store_run *run, char *err, size_t errlen);
/* Sets the status (and the finished time unless status is "running"). */
int store_run_status(store *s, int64_t id, const char *status, char *err, size_t errlen);

/* Inserts n games in one transaction: all or none. A game that is already
 * stored (same run, series and game number) is an error, never a duplicate. */
int store_games_insert(store *s, const store_game *games, int n, char *err, size_t errlen);
/* Inserts or replaces the summary row of a finished series. */
int store_series_finish(store *s, const store_series *sr, char *err, size_t errlen);

/* Calls fn for every stored game of run id, in (series_no, game_no) order.
 * g->moves points into a buffer valid during the call only. fn returns
 * non-zero to stop. */
int store_games_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_game *g),
                        void *ctx, char *err, size_t errlen);

/* Number of games stored for run id. */
long long store_games_count(store *s, int64_t run_id);

/* Runs, newest first: calls fn for each (for `oware runs`). */
int store_runs_foreach(store *s, int (*fn)(void *ctx, const store_run *r), void *ctx,
                       char *err, size_t errlen);

#endif
