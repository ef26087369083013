/* output.c: error messages, standard output's final check, output paths checked early, names without control characters. */
#include "cli/output.h"
#include "core/error.h"
#include "core/name.h"
#include "players/player.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "oware %s: ", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return CLI_EXIT_USAGE;
}

int cli_close_stdout(const char *cmd) {
  int e = 0;
  errno = 0;
  if (fflush(stdout)) e = errno ? errno : EIO;
  if (!e && ferror(stdout)) {
    /* A write failed earlier and its reason is gone: the output is already
     * incomplete, so one more byte may be risked to learn the reason. */
    if (write(STDOUT_FILENO, "\n", 1) < 0) e = errno;
    else e = EIO;
  }
  errno = 0;
  if (fclose(stdout) && !e) e = errno ? errno : EIO;
  if (!e) return 0;
  fprintf(stderr, "oware %s: write error on standard output: %s\n", cmd, strerror(e));
  return -1;
}

int cli_check_output(const char *cmd, const char *opt, const char *path) {
  char err[ERROR_MAX];
  if (outfile_check(path, err, sizeof err)) {
    cli_error(cmd, "%s: %s", opt, err);
    return -1;
  }
  return 0;
}

int cli_check_stem(const char *cmd, const char *opt, const char *stem) {
  size_t n = strlen(stem);
  if (!n || stem[n - 1] == '/') {
    cli_error(cmd, "%s '%s': give a file stem (STEM.dat, .png and .svg are written), not %s", opt,
              stem, n ? "a folder" : "nothing");
    return -1;
  }
  char dat[4200];
  snprintf(dat, sizeof dat, "%s.dat", stem);
  return cli_check_output(cmd, opt, dat);
}

int cli_check_output_dir(const char *cmd, const char *opt, const char *dir) {
  struct stat st;
  if (!dir || !*dir) {
    cli_error(cmd, "%s: no folder given", opt);
    return -1;
  }
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode)) {
      cli_error(cmd, "%s: cannot write into '%s': it is not a folder", opt, dir);
      return -1;
    }
    if (access(dir, W_OK | X_OK)) {
      cli_error(cmd, "%s: cannot write into '%s': %s", opt, dir, strerror(errno));
      return -1;
    }
    return 0;
  }
  if (errno != ENOENT) {
    cli_error(cmd, "%s: cannot write into '%s': %s", opt, dir, strerror(errno));
    return -1;
  }
  /* It will be made: its parent must be a writable folder (checked as if
   * dir were a file to write in it). */
  char probe[1100];
  snprintf(probe, sizeof probe, "%s", dir);
  size_t n = strlen(probe);
  while (n > 1 && probe[n - 1] == '/') probe[--n] = '\0';
  char err[ERROR_MAX];
  if (outfile_check(probe, err, sizeof err)) {
    const char *why = strstr(err, "': ");
    cli_error(cmd, "%s: cannot make '%s'%s%s", opt, dir, why ? ": " : "", why ? why + 3 : "");
    return -1;
  }
  return 0;
}

int cli_check_name(const char *cmd, const char *what, const char *name) {
  char err[ERROR_MAX];
  if (!name_check(what, name, err, sizeof err)) return 0;
  cli_error(cmd, "%s", err);
  return -1;
}

_Static_assert(CLI_RUN_NAME_MAX == PLAYER_NAME_MAX - 1, "a run's name is as long as a player's");

int cli_check_run_name(const char *cmd, const char *name) {
  size_t n = strlen(name);
  if (!n) {
    cli_error(cmd, "the run name (--name) is empty; give 1 to %d bytes", CLI_RUN_NAME_MAX);
    return -1;
  }
  if (cli_check_name(cmd, "run name", name)) return -1;
  if (n > CLI_RUN_NAME_MAX) {
    int shown = 20; /* its start, cut between two UTF-8 characters */
    while (shown > 0 && ((unsigned char)name[shown] & 0xc0) == 0x80) shown--;
    cli_error(cmd, "the run name (--name) '%.*s…' is %zu bytes long; at most %d, as a player's name",
              shown, name, n, CLI_RUN_NAME_MAX);
    return -1;
  }
  return 0;
}

int cli_out_open(const char *cmd, outfile *o, const char *path) {
  char err[ERROR_MAX];
  if (outfile_open(o, path, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    return -1;
  }
  return 0;
}

int cli_out_commit(const char *cmd, outfile *o) {
  char err[ERROR_MAX];
  if (outfile_commit(o, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    return -1;
  }
  return 0;
}

void cli_out_abort(outfile *o) { outfile_abort(o); }
