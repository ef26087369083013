/* store.h: the SQLite store of runs, players, variants, series and games (docs/SCHEMA.md). */
#ifndef OWARE_STORE_H
#define OWARE_STORE_H

#include <stddef.h>
#include <stdint.h>

/* The schema version this code writes and reads (PRAGMA user_version), and
 * the application id that marks an oware database (PRAGMA application_id). */
#define STORE_SCHEMA_VERSION 4
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
/* Opens an existing database for reading only (the commands that only read:
 * runs, export, rate, chart, report, variants --run): a write-protected file
 * can be read, and nothing is ever written to it. Same checks as store_open;
 * a database of an older schema is an error (writing upgrades it). */
int store_open_readonly(const char *path, store **out, char *err, size_t errlen);
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

/* One iteration of a tuning run (`oware tune`). (Schema version 3.) */
typedef struct store_tuning {
  int64_t run_id;
  int iteration;       /* 0-based; -1 for the validation match */
  char kind[16];       /* "spsa", "texel" or "validation" */
  char weights[2048];  /* "name value name value …": the weights after the iteration */
  char step[2048];     /* spsa: "name c_k …" of the iteration; texel: K and the sample */
  long long wins, draws, losses; /* spsa: of the plus side; validation: of the tuned side */
  double value;        /* spsa: W − L; texel: mean squared error; validation: Elo gain */
  double lo, hi;       /* validation: the 95% interval of the Elo gain */
  long long games;     /* games played by the run so far */
  char created[32];    /* set by store_tuning_insert */
} store_tuning;

/* Stores one iteration (its own transaction). Storing an iteration twice is
 * an error. */
int store_tuning_insert(store *s, const store_tuning *t, char *err, size_t errlen);

/* Calls fn for each stored iteration of run_id, by iteration (validation last). */
int store_tuning_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_tuning *t),
                         void *ctx, char *err, size_t errlen);

/* One measured number of a variant study (`oware variants`). (Schema
 * version 4.) A test between two variants is stored under the first one,
 * with the other's index in the metric's name ("south_score_p_vs_2"). */
typedef struct store_metric {
  int variant_idx;
  char metric[64];   /* e.g. "south_win", "length_mean", "gs_available" */
  double value;
  double lo, hi;     /* the 95% interval, when has_interval */
  int has_interval;
  long long n;       /* what the value is over: games, positions, pairs */
} store_metric;

/* Replaces the study metrics of run_id by these n rows, in one transaction. */
int store_metrics_replace(store *s, int64_t run_id, const store_metric *m, int n, char *err,
                          size_t errlen);
/* Calls fn for each stored metric of run_id, by variant then name. */
int store_metrics_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_metric *m),
                          void *ctx, char *err, size_t errlen);

/* Runs, newest first: calls fn for each (for `oware runs`). */
int store_runs_foreach(store *s, int (*fn)(void *ctx, const store_run *r), void *ctx,
                       char *err, size_t errlen);

#endif
