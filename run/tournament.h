/* tournament.h: round robins and gauntlets over players and variants, played by a thread pool into the store. */
#ifndef OWARE_TOURNAMENT_H
#define OWARE_TOURNAMENT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/sprt.h"
#include "run/adjudicate.h"
#include "run/series.h"
#include "store/settings.h"
#include "store/store.h"
#include "core/board.h"
#include "core/time_control.h"
#include "core/variant.h"

/* Where a run is (for a progress line). */
typedef struct tournament_progress {
  long long stored, total; /* games stored, games the run holds when complete */
  long long fresh;         /* games played by this call */
  double seconds;          /* since this call started */
  int final;               /* the last report of the call */
} tournament_progress;

/* What the caller is told as the run goes (every hook may be NULL). */
typedef struct tournament_observer {
  void *ctx;
  void (*progress)(void *ctx, const tournament_progress *p);
  /* After each game pair that the SPRT counts, in schedule order. */
  void (*sprt)(void *ctx, const rating_sprt_result *r, long long pairs);
} tournament_observer;

struct runner_backend;

/* The most games one run may hold (its schedule is checked before the run
 * is stored). */
#define TOURNAMENT_MAX_GAMES 20000000

/* What a run is, parsed from its stored configuration (store_run). */
typedef struct tournament {
  store_run run;                         /* as stored: the single source of truth */
  variant variants[STORE_MAX_VARIANTS];  /* parsed run.variant[] */
  series_format format;                  /* parsed run.format */
  int opening_plies;                     /* random:PLIES, or -1 for a file */
  board *opening_file[STORE_MAX_VARIANTS]; /* file:PATH: positions per variant */
  int opening_count;
  int opening_after;                     /* file:PATH+random:N: N, else 0 */
  tournament_observer observer;
  const struct runner_backend *backend;  /* NULL: local threads (run/runner.h) */
  /* The schedule. */
  int nseries;
  int pairs_per_series;                  /* openings a series may use */
  /* SPRT of player 1 (A) against player 2 (B): the run stops when it decides. */
  int sprt_on;
  rating_sprt sprt;
  rating_match sprt_match;               /* A's results so far */
  rating_sprt_result sprt_result;
  int ratings_every;                     /* store the pool's ratings every this many games (0: only at the end) */
  /* The run's adjudication (setting "adjudicate"; run/adjudicate.h), its
   * tables opened by tournament_prepare. */
  int adjudicate_on;
  adjudicate_rules adjudicate;
  adjudicator *adjudicator;
  /* Game clocks (settings tc and tc-margin): the clock of every player
   * whose spec sets no tc= (none when its base is 0), and how far past its
   * clock a move may come. */
  time_control tc;
  int tc_margin_ms;
  int tc_settings;                       /* the two were read (a run without: the players' own) */
} tournament;

/* What a new tournament is given: its settings (tournament_settings, the
 * options of `oware tournament`). The SPRT is kept in run_config; the rest
 * are the run's columns, players and variants (SETTINGS_COLUMN). */
typedef struct tournament_config {
  const char *players;      /* "SPEC;SPEC;..." */
  const char *players_file; /* or a file of them, a spec a line */
  int kind;                 /* in tournament_kinds: round-robin, gauntlet */
  const char *format, *variants, *openings, *name, *sprt;
  const char *adjudicate;   /* --adjudicate RULES (run/adjudicate.h), or NULL */
  const char *tc;           /* the clock of the players whose spec sets none (core/time_control.h) */
  long long rounds, seed;
  long long tc_margin;      /* ms past a clock before a move forfeits */
} tournament_config;

/* The names of tournament_config.kind (the store's names of those kinds). */
extern const char *const tournament_kinds[];
extern const settings_key tournament_settings[];

/* Appends the players of text to the run: "SPEC;SPEC;..." or, with lines,
 * a spec a line; blanks trimmed, empty items and # comments skipped; a
 * level:NAME is kept as the spec it stands for (a resume does not read the
 * levels file again); the names must differ. 0, or -1 with err ("player 3:
 * ..."). */
int tournament_add_players(store_run *r, const char *text, int lines, char *err, size_t errlen);
/* Appends the variants "V;V;..." to the run, canonical and distinct. 0, or
 * -1 with err. */
int tournament_add_variants(store_run *r, const char *text, char *err, size_t errlen);

/* A new tournament of c in t (zeroed by the caller, who may have set its
 * observer; free it with tournament_free whatever the return): its players (players: c->players, or the text of
 * c->players_file, a spec a line), variants, kind, format (with an SPRT,
 * parsed into t, games:2 becomes games:20000), rounds, threads, seed,
 * openings, name, command (a record for people; may be NULL) and settings;
 * then tournament_prepare. Ready for store_run_create. 0, -1 with err for
 * bad input, -2 when out of memory. */
int tournament_describe(const tournament_config *c, const char *players, int threads,
                        const char *command, tournament *t, char *err, size_t errlen);

/* Parses the run's fields (variants, format, openings, kind, players) and
 * checks every player spec (creating each player once: an engine that does
 * not start is caught here). For a new run (run.id 0) it also reads a
 * file:PATH openings file into run.position and the weights files the
 * players name into run.files, which store_run_create stores with the run.
 * Returns 0, or -1 with a message. */
int tournament_prepare(tournament *t, char *err, size_t errlen);
void tournament_free(tournament *t);

/* For a stored run about to be resumed (t->run loaded, before
 * tournament_prepare): reads back its openings from the store (a resume
 * never reads the openings file again) and checks that the weights files
 * its players name have not changed. 0, or -1 with err naming the file. */
int tournament_restore(tournament *t, store *db, char *err, size_t errlen);

/* A stored run made ready to be played on, from the store alone: run_id
 * loaded into t (zeroed; tournament_free it whatever the return) with its
 * SPRT (setting "sprt"); unless it is finished: checked resumable, locked
 * (store_run_lock), its threads set to threads (0: the run's), restored
 * and prepared, marked running. Returns 0 (the caller plays it and then
 * unlocks it), 1 when the run is finished (not locked, nothing to play),
 * -1 with err for bad input (no such run, a run that cannot be resumed,
 * its SPRT, files or players), -2 with err when its lock is held by
 * another process or the store fails (nothing is left locked on an error). */
int tournament_reopen(store *db, int64_t run_id, int threads, tournament *t, char *err,
                      size_t errlen);

/* tournament_reopen, then tournament_play, then the lock released: a run
 * resumed with no command line. Returns as tournament_play (0 also for a
 * run that was finished), or -1 with err. */
int tournament_resume(store *db, int64_t run_id, int threads, atomic_int *stop, tournament *t,
                      char *err, size_t errlen);

/* Whether a player of t plays on a game clock (its tc= or the run's --tc):
 * its games then depend on timing, and a resume plays new ones. */
int tournament_has_clock(const tournament *t);
/* Openings from a file without +random: whose positions a series' pairs
 * take again from the first (the run may play more pairs a pairing than
 * the file holds): the file's count, else 0. A player whose moves depend on
 * the position alone (minimax by depth or nodes, no noise) then plays a
 * repeated pair again exactly. */
int tournament_openings_repeat(const tournament *t);

/* Parses "random:PLIES", "file:PATH" (*plies -1) or "file:PATH+random:N"
 * (also *after = N: random plies played from each of the file's positions,
 * drawn anew for every game pair, so that a file shorter than the run
 * does not repeat its games; after NULL refuses that form). */
int tournament_parse_openings(const char *text, int *plies, int *after, char *path,
                              size_t pathlen, char *err, size_t errlen);

/* Plays the run (or what is left of it: games already stored are not
 * played again) on the runner with run.threads workers, storing the games
 * in schedule order (the store always holds a prefix of what is left), so
 * that an SPRT decides at the same game pair whatever the threads: the
 * games after its decision are not stored. *stop set from a signal handler
 * ends it cleanly: the games in progress are abandoned (a resume plays
 * them). Returns 0 when the run is complete or decided, 1 when stopped, -1
 * on error (with err). Sets the run's status in the store. */
int tournament_play(tournament *t, store *db, atomic_int *stop, char *err, size_t errlen);

/* The start position of game `game_no` of series `series_no`, which side
 * player A has, and the game's seed: the schedule, exposed for tests and
 * reports. The opening and the seed depend on the game's round, pairing and
 * number, not on its variant: every variant plays the same openings (where
 * the boards are alike) with the same seeds. */
void tournament_game_setup(const tournament *t, int series_no, int game_no, board *start,
                           int *a_is_south, uint64_t *seed);

/* Prints the standings (games, wins, draws, losses, points, score %) and
 * the cross table of run id from the store. */
int tournament_print_standings(store *db, int64_t run_id, FILE *out, char *err, size_t errlen);

/* The tournament schedule rebuilt in another process (the MPI backend). */
struct runner_kind;
extern const struct runner_kind tournament_schedule_kind;

#endif
