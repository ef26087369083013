/* cli.c: errors, numbers, files and new runs shared by the subcommands. */
#include "cli/cli.h"
#include "core/error.h"
#include "core/path.h"
#include "players/player.h"
#include "stats/elo_fit.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_is_help(const char *arg) { return !strcmp(arg, "--help") || !strcmp(arg, "-h"); }

int cli_run_subcommand(const char *cmd, const char *help, const cli_subcommand *sub, int n,
                       int argc, char **argv) {
  if (argc < 1 || cli_is_help(argv[0])) {
    fputs(help, argc ? stdout : stderr);
    return argc ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  }
  char names[256] = "";
  for (int i = 0; i < n; i++) {
    if (!strcmp(argv[0], sub[i].name)) return sub[i].run(argc - 1, argv + 1);
    size_t len = strlen(names);
    snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "", sub[i].name);
  }
  return cli_error(cmd, "unknown subcommand '%s' (%s)", argv[0], names);
}

void cli_warn_threads(const char *cmd, const player_config *cfg) {
  for (int i = 0; cfg->type->options[i].name; i++)
    if (!strcmp(cfg->type->options[i].name, "threads")) {
      long long n = player_config_int(cfg, "threads");
      if (n > 1)
        fprintf(stderr,
                "oware %s: warning: player '%s' searches on %lld threads: its moves depend on "
                "timing, so the same seed will not give the same games\n",
                cmd, cfg->name, n);
      return;
    }
}

void cli_warn_clocks(const char *cmd) {
  fprintf(stderr, "oware %s: warning: players play on game clocks (tc=): their moves depend on "
                  "timing and on the machine, so the same seed will not give the same games\n",
          cmd);
}

int cli_long(const char *cmd, const char *opt, const char *text, long long lo, long long hi,
             long long *out) {
  char *end;
  errno = 0;
  long long x = strtoll(text, &end, 10);
  if (errno || end == text || *end || x < lo || x > hi) {
    cli_error(cmd, "%s is '%s'; expected a whole number from %lld to %lld", opt, text, lo, hi);
    return -1;
  }
  *out = x;
  return 0;
}

double cli_cpu_seconds(void) {
  struct rusage u;
  if (getrusage(RUSAGE_SELF, &u)) return 0;
  return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec +
         (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

int cli_cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

void cli_remove_scratch_db(const char *path, const char *dir) {
  char f[4200];
  const char *suffix[] = {"", "-wal", "-shm"};
  for (int i = 0; i < 3; i++) {
    snprintf(f, sizeof f, "%s%s", path, suffix[i]);
    remove(f);
  }
  rmdir(dir);
}

int cli_variant(const char *cmd, const char *text, variant *v) {
  char err[ERROR_MAX];
  if (variant_parse(text, v, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    return -1;
  }
  return 0;
}

int cli_anchor(const char *cmd, const char *text, char *name, double *elo) {
  const char *eq = strrchr(text, '=');
  char *end;
  if (!eq || eq == text || (size_t)(eq - text) >= RATING_NAME_MAX)
    return cli_error(cmd, "--anchor is '%s'; expected NAME=ELO", text), -1;
  errno = 0;
  *elo = strtod(eq + 1, &end);
  if (errno || end == eq + 1 || *end || !isfinite(*elo))
    return cli_error(cmd, "--anchor is '%s'; the Elo after '=' is not a number", text), -1;
  memcpy(name, text, (size_t)(eq - text));
  name[eq - text] = 0;
  return 0;
}

char *cli_read_file(const char *cmd, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    cli_error(cmd, "cannot open '%s': %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    cli_error(cmd, "cannot read '%s': it is a folder, not a file", path);
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t r = fread(buf + n, 1, cap - n - 1, f);
    n += r;
    if (n + 1 < cap) break;
    char *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    int e = errno;
    free(buf);
    cli_error(cmd, "cannot read '%s': %s", path, !buf ? "out of memory" : strerror(e));
    return NULL;
  }
  buf[n] = '\0';
  if (memchr(buf, '\0', n)) {
    free(buf);
    cli_error(cmd, "'%s' is not a text file", path);
    return NULL;
  }
  return buf;
}

char *cli_quote_args(const char *prefix, int argc, char **argv) {
  size_t len = strlen(prefix) + 1;
  for (int i = 0; i < argc; i++) len += 3 + 4 * strlen(argv[i]);
  char *buf = malloc(len);
  if (!buf) return NULL;
  size_t n = (size_t)snprintf(buf, len, "%s", prefix);
  for (int i = 0; i < argc; i++) {
    buf[n++] = ' ';
    buf[n++] = '\'';
    for (const char *c = argv[i]; *c; c++) {
      if (*c == '\'') {
        memcpy(buf + n, "'\\''", 4);
        n += 4;
      } else {
        buf[n++] = *c;
      }
    }
    buf[n++] = '\'';
    buf[n] = 0;
  }
  return buf;
}

static atomic_int *stop_target;
static const char *stop_message;
/* The temporary file the second Ctrl-C removes (cli_stop_remove); a copy,
 * so that the handler never reads memory its owner freed. */
static char stop_file[4096];
static volatile sig_atomic_t stop_file_set;

static void on_stop_signal(int sig) {
  if (atomic_load(stop_target)) { /* the second Ctrl-C: at once */
    if (stop_file_set) unlink(stop_file);
    _exit(128 + sig);
  }
  atomic_store(stop_target, 1);
  ssize_t w = write(STDERR_FILENO, stop_message, strlen(stop_message));
  (void)w;
}

void cli_stop_remove(const char *path) {
  stop_file_set = 0;
  if (!path || strlen(path) >= sizeof stop_file) return;
  memcpy(stop_file, path, strlen(path) + 1);
  stop_file_set = 1;
}

void cli_catch_stop(atomic_int *flag, const char *message) {
  stop_target = flag;
  stop_message = message;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

void cli_release_stop(void) {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  stop_file_set = 0;
}

/* Removes a database file (and its WAL files) that this command created. */
static void remove_created(const char *path) {
  char side[1100];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-journal", path);
  unlink(side);
}

int cli_store_new_run(const char *cmd, const char *db_path, store_run *run, store **db) {
  char err[ERROR_MAX];
  *db = NULL;
  /* Names go into listings and OGN tags: one line of printable text each. */
  if (cli_check_run_name(cmd, run->name)) return CLI_EXIT_USAGE;
  for (int i = 0; i < run->nplayers; i++)
    if (cli_check_name(cmd, "player name", run->player_name[i])) return CLI_EXIT_USAGE;
  /* results/ for the default path; an error shows when the database cannot be created. */
  if (!strcmp(db_path, CLI_DEFAULT_DB)) path_mkdirs_parent(db_path, err, sizeof err);
  /* A database that this command creates and cannot write (a full disk) is
   * removed again: no 0-byte or half-made file is left behind. */
  struct stat st;
  int existed = stat(db_path, &st) == 0;
  if (store_open(db_path, 1, db, err, sizeof err)) {
    if (!existed) remove_created(db_path);
    return cli_error(cmd, "%s", err);
  }
  if (store_run_create(*db, run, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    if (!existed) {
      store_close(*db);
      *db = NULL;
      remove_created(db_path);
    }
    return CLI_EXIT_FAIL;
  }
  return 0;
}

int cli_store_open_or_read(const char *cmd, const char *db_path, const char *unstored, store **db,
                           int *read_only) {
  char err[ERROR_MAX], why[ERROR_MAX];
  *read_only = 0;
  if (!store_open(db_path, 0, db, why, sizeof why)) return 0;
  if (!strstr(why, "read-only")) return cli_error(cmd, "%s", why);
  if (store_open_readonly(db_path, db, err, sizeof err)) return cli_error(cmd, "%s", err);
  fprintf(stderr, "oware %s: %s: %s\n", cmd, unstored, why);
  *read_only = 1;
  return 0;
}
