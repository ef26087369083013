/* cli.h: what the subcommands of the `oware` command share: errors, numbers, files, runs (options: options.h). */
#ifndef OWARE_CLI_H
#define OWARE_CLI_H

#include <stdatomic.h>
#include <stddef.h>

#include "store/store.h"
#include "core/variant.h"
#include "cli/output.h" /* cli_error and the exit codes, below this file */

/* Whether argv[i] is "--help" or "-h". */
int cli_is_help(const char *arg);

/* A subcommand of a command that has several (`oware book build`): its name
 * and what runs it with the arguments after its name. */
typedef struct cli_subcommand {
  const char *name;
  int (*run)(int argc, char **argv);
} cli_subcommand;

/* Runs the subcommand argv[0] of cmd, one of sub[0..n), with the arguments
 * after it. Without arguments: help on stderr, CLI_EXIT_USAGE; argv[0]
 * --help: help on stdout, CLI_EXIT_OK; an unknown name: an error listing
 * the names. */
int cli_run_subcommand(const char *cmd, const char *help, const cli_subcommand *sub, int n,
                       int argc, char **argv);

/* Reads a whole number in [lo, hi]; prints an error naming opt otherwise. */
int cli_long(const char *cmd, const char *opt, const char *text, long long lo, long long hi,
             long long *out);

/* Warns on stderr that a player searching on more than one thread
 * (threads=N > 1, e.g. minimax) plays games the seed does not reproduce. */
struct player_config;
void cli_warn_threads(const char *cmd, const struct player_config *cfg);

/* This process's CPU time (every thread, user and system), in seconds
 * (the benchmarks). */
double cli_cpu_seconds(void);

/* qsort's comparison of doubles, ascending (the benchmarks' medians). */
int cli_cmp_double(const void *x, const void *y);

/* Removes a benchmark's scratch database at path (with its -wal and -shm
 * files) and its folder dir. */
void cli_remove_scratch_db(const char *path, const char *dir);

/* Warns on stderr that players on game clocks (tc=) play games that depend
 * on timing and the machine, which the seed does not reproduce. */
void cli_warn_clocks(const char *cmd);

/* Parses a variant string, printing the parser's message on error. */
int cli_variant(const char *cmd, const char *text, variant *v);

/* Parses --anchor NAME=ELO (`oware rate`, `oware report`, `oware chart`):
 * name gets NAME (room for RATING_NAME_MAX), elo ELO; prints the error
 * otherwise. 0 or -1. */
int cli_anchor(const char *cmd, const char *text, char *name, double *elo);

/* Reads a whole file into a NUL-terminated buffer (caller frees), or NULL
 * after printing an error. */
char *cli_read_file(const char *cmd, const char *path);

/* "prefix 'arg' 'arg' ..." with shell quoting, whole (malloc'ed; NULL when
 * out of memory): what a run stores as its command line, for people. */
char *cli_quote_args(const char *prefix, int argc, char **argv);

/* The default database, and the one way a command stores a new run in a
 * database: makes results/ for the default path (core/path.h), opens (creating) the
 * database and inserts run (setting run->id). Returns 0 with *db open,
 * CLI_EXIT_USAGE when the database cannot be opened (a path, a foreign or
 * newer file) or CLI_EXIT_FAIL when the run cannot be written, each after
 * printing the error; *db is then NULL or still open for the caller to close. */
#define CLI_DEFAULT_DB "results/oware.db"
int cli_store_new_run(const char *cmd, const char *db_path, store_run *run, store **db);
/* Opens an existing database to read and, when it can be, to write; one
 * this user may not write (the file or its folder read-only) is opened
 * read-only instead, with "oware CMD: UNSTORED: why" on stderr (unstored
 * says what the command then does not store) and *read_only set. 0, or the exit code after an error. */
int cli_store_open_or_read(const char *cmd, const char *db_path, const char *unstored, store **db,
                           int *read_only);

/* Ctrl-C and SIGTERM set *flag and print message; a second one exits at
 * once. cli_release_stop restores the default handlers. */
void cli_catch_stop(atomic_int *flag, const char *message);
void cli_release_stop(void);
/* The file (a copy of path is kept; NULL: none) that a second Ctrl-C
 * removes before it exits: the temporary file of an output written whole
 * (core/outfile.h), which would otherwise be left behind. Until
 * cli_release_stop or the next call. */
void cli_stop_remove(const char *path);

/* Shows a tournament's progress line (on a terminal) and its SPRT's course
 * on stderr as it is played (cmd_tournament.c). */
struct tournament;
struct cli_progress;
void cli_watch_tournament(struct tournament *t, struct cli_progress *line);

/* An egdb build's progress callback (egdb_progress_fn): draws on the
 * cli_progress ctx the positions of the tables finished of all of them, the
 * table and the phase; the time left is from the positions left
 * (cmd_egdb.c). */
struct egdb_progress;
int cli_egdb_progress(void *ctx, const struct egdb_progress *p);

/* Subcommands: each takes the arguments after its name. */
int cli_perft(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_bench_mpi(int argc, char **argv); /* cmd_bench_mpi.c */
int cli_bench_adjudicate(int argc, char **argv); /* cmd_bench_adjudicate.c */
int cli_variants_list(int argc, char **argv);
int cli_players(int argc, char **argv);
int cli_weights(int argc, char **argv);
int cli_match(int argc, char **argv);
int cli_uci(int argc, char **argv);
int cli_tournament(int argc, char **argv);
int cli_runs(int argc, char **argv);
int cli_export(int argc, char **argv);
int cli_chart(int argc, char **argv), cli_report(int argc, char **argv); /* cmd_report.c */
int cli_tune(int argc, char **argv);
/* cmd_tune_net.c: `oware tune net`, and `oware tune --resume` of such a run (db and run loaded). */
int cli_tune_net(int argc, char **argv);
int cli_tune_net_resume(store *db, const store_run *run, long long threads, int quiet,
                        const char *dbpath, int json);
int cli_rate(int argc, char **argv), cli_sprt(int argc, char **argv); /* cmd_rate.c */
/* cmd_study.c: `oware study` (also the old spelling `oware variants --players ...`:
 * cli_variants_list hands over), `oware calibrate`. */
int cli_study(int argc, char **argv);
int cli_calibrate(int argc, char **argv);
int cli_play(int argc, char **argv); /* cmd_play.c */
/* cmd_egdb.c: `oware egdb build|probe|stats`, and `oware bench egdb` (cmd_bench.c hands over). */
int cli_egdb(int argc, char **argv), cli_bench_egdb(int argc, char **argv);
int cli_egdb_fit(int argc, char **argv); /* cmd_egdb_fit.c */
int cli_solve(int argc, char **argv);     /* cmd_solve.c */
int cli_analyse(int argc, char **argv); /* cmd_analyse.c */
int cli_book(int argc, char **argv); /* cmd_book.c */

#endif
