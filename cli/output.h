/* output.h: what the commands write besides their results: error messages and exit codes, standard output's final check, output paths and names checked. */
#ifndef OWARE_CLI_OUTPUT_H
#define OWARE_CLI_OUTPUT_H

#include "core/outfile.h"

/* Exit codes: 0 success, 1 runtime failure, 2 bad input. */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* Prints "oware CMD: message" to stderr; returns CLI_EXIT_USAGE. */
int cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Flushes and closes standard output; when anything written to it was lost
 * prints "oware CMD: write error on standard output: REASON" and returns -1. */
int cli_close_stdout(const char *cmd);

/* Checks before the work starts that the file path (given with option opt,
 * e.g. "--out") can be written. Returns 0, or -1 after printing an error. */
int cli_check_output(const char *cmd, const char *opt, const char *path);

/* The same for a folder that a command makes (one level) and writes into. */
int cli_check_output_dir(const char *cmd, const char *opt, const char *dir);

/* A chart's file stem (opt, e.g. "--chart"): STEM.dat, .png and .svg are
 * written, so it names a file, not a folder (empty, or ending in '/', is
 * refused), and STEM.dat can be written. 0, or -1 after printing an error. */
int cli_check_stem(const char *cmd, const char *opt, const char *stem);

/* Refuses a name (of a run, a player) holding a control character: prints
 * "oware CMD: WHAT 'NAME' holds a control character (…)" and returns -1. */
int cli_check_name(const char *cmd, const char *what, const char *name);

/* A run's name (--name, or the command's default): not empty, at most
 * CLI_RUN_NAME_MAX bytes (a player's name's limit, PLAYER_NAME_MAX - 1),
 * and a name by cli_check_name. 0, or -1 after printing an error. */
#define CLI_RUN_NAME_MAX 127
int cli_check_run_name(const char *cmd, const char *name);

/* Opens path for writing whole (core/outfile.h), or prints an error and
 * returns -1. cli_out_commit renames it into place (-1 after printing an
 * error naming the file and the reason); cli_out_abort drops it. */
int cli_out_open(const char *cmd, outfile *o, const char *path);
int cli_out_commit(const char *cmd, outfile *o);
void cli_out_abort(outfile *o);

#endif
