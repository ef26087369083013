/* cmd_report.c: `oware chart` (a run's charts with gnuplot) and `oware report` (its HTML and Markdown report). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/plot.h"
#include "arena/report.h"
#include "arena/store.h"
#include "cli/cli.h"
#include "cli/output.h"

#define DEFAULT_DB "results/oware.db"

static const char chart_help[] =
    "usage: oware chart --run N [--db PATH] [--kind KIND[,KIND...]|all] [--out DIR]\n"
    "                   [--size WxH]\n"
    "Draws the charts of run N with gnuplot, as PNG and SVG (default 800x500), into\n"
    "DIR (default results/run-N/): for each KIND a data file KIND.dat, and\n"
    "KIND.png and KIND.svg drawn by scripts/KIND.gp (restyle them there; the\n"
    "variable OWARE_SCRIPTS names another folder of scripts). Kinds:\n"
    "  elo      Elo ladder: each player's rating with its 95% interval (the latest\n"
    "           stored ratings, else a fit of the run's games)\n"
    "  ratings  stored ratings over the course of the run ('oware rate')\n"
    "  matrix   heat map of each pairing's score %\n"
    "  length   histogram of game lengths in plies, per variant or pairing\n"
    "  ends     end reasons (majority, no-move, repetition, ply-limit, forfeit)\n"
    "  tuning   weights against the iteration and the Elo of validation checkpoints\n"
    "  all      every kind (default)\n"
    "A kind with nothing to draw (a run without stored ratings or tuning\n"
    "iterations) is skipped with a message. When gnuplot is not installed, the\n"
    "data files are written and the images skipped, with one message.\n"
    "Exit codes: 0 done (including skips), 1 a chart failed or the database\n"
    "could not be read, 2 bad input.\n";

static const char report_help[] =
    "usage: oware report --run N [--db PATH] [--out DIR] [--size WxH]\n"
    "Writes the report of run N into DIR (default results/run-N/): index.html\n"
    "(open it in a browser; it needs no network), the same as report.md, the\n"
    "charts (as 'oware chart --kind all'), their data files and the games as\n"
    "run-N.ogn: the run's configuration, standings, ratings, statistics per\n"
    "pairing and end reasons. Without gnuplot the report has no images and says\n"
    "so. Exit codes: 0 written, 1 failed, 2 bad input.\n";

/* Options shared by chart and report. */
typedef struct args {
  const char *db, *out, *kind;
  long long run;
  plot_options opt;
} args;

static int parse_size(const char *cmd, const char *text, plot_options *opt) {
  char *end;
  long w = strtol(text, &end, 10), h = 0;
  if (end != text && (*end == 'x' || *end == 'X')) {
    const char *p = end + 1;
    h = strtol(p, &end, 10);
    if (end == p) h = 0;
  }
  if (*end || w < 100 || w > 10000 || h < 100 || h > 10000) {
    cli_error(cmd, "--size is '%s'; expected WIDTHxHEIGHT in pixels, 100 to 10000 each", text);
    return -1;
  }
  opt->width = (int)w;
  opt->height = (int)h;
  return 0;
}

/* 0 parsed, 1 help printed, -1 bad input (printed). */
static int parse_args(const char *cmd, const char *help, int with_kind, int argc, char **argv,
                      args *a) {
  memset(a, 0, sizeof *a);
  a->db = DEFAULT_DB;
  a->kind = "all";
  a->run = -1;
  const char *val;
  for (int i = 0; i < argc; i++) {
    int r;
    if (cli_is_help(argv[i])) {
      fputs(help, stdout);
      return 1;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--db", &val))) {
      if (r < 0) return -1;
      a->db = val;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--out", &val))) {
      if (r < 0) return -1;
      a->out = val;
    } else if (with_kind && (r = cli_opt(argc, argv, &i, cmd, "--kind", &val))) {
      if (r < 0) return -1;
      a->kind = val;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--size", &val))) {
      if (r < 0 || parse_size(cmd, val, &a->opt)) return -1;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--run", &val))) {
      if (r < 0 || cli_long(cmd, "--run", val, 1, (long long)(~0ULL >> 1), &a->run)) return -1;
    } else {
      cli_error(cmd, "unexpected argument '%s' (see --help)", argv[i]);
      return -1;
    }
  }
  if (a->run < 0) {
    cli_error(cmd, "--run N is needed ('oware runs' lists them)");
    return -1;
  }
  return 0;
}

int cli_chart(int argc, char **argv) {
  const char *cmd = "chart";
  args a;
  int p = parse_args(cmd, chart_help, 1, argc, argv, &a);
  if (p) return p > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  char err[2048], dir[1024];
  unsigned kinds;
  if (plot_kind_parse(a.kind, &kinds, err, sizeof err)) return cli_error(cmd, "--kind: %s", err);
  snprintf(dir, sizeof dir, "results/run-%lld", a.run);
  if (a.out && cli_check_output_dir(cmd, "--out", a.out)) return CLI_EXIT_USAGE;
  store *db;
  if (store_open_readonly(a.db, &db, err, sizeof err)) return cli_error(cmd, "%s", err);
  plot_result res;
  int rc =
      plot_charts(db, a.run, kinds, a.out ? a.out : dir, &a.opt, &res, stderr, err, sizeof err);
  store_close(db);
  if (rc < 0) {
    /* an unknown run is the user's mistake, the rest a failure */
    int usage = !strncmp(err, "no run", 6) || strstr(err, ": no run ");
    cli_error(cmd, "%s", err);
    return usage ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  }
  for (int k = 0; k < res.n; k++)
    if (res.chart[k].status == PLOT_FAILED) return CLI_EXIT_FAIL;
  return CLI_EXIT_OK;
}

int cli_report(int argc, char **argv) {
  const char *cmd = "report";
  args a;
  int p = parse_args(cmd, report_help, 0, argc, argv, &a);
  if (p) return p > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  char err[2048], dir[1024];
  snprintf(dir, sizeof dir, "results/run-%lld", a.run);
  if (a.out && cli_check_output_dir(cmd, "--out", a.out)) return CLI_EXIT_USAGE;
  store *db;
  if (store_open_readonly(a.db, &db, err, sizeof err)) return cli_error(cmd, "%s", err);
  int rc = report_write_opt(db, a.run, a.out ? a.out : dir, &a.opt, stderr, err, sizeof err);
  store_close(db);
  if (rc) {
    int usage = !strncmp(err, "no run", 6) || strstr(err, ": no run ");
    cli_error(cmd, "%s", err);
    return usage ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  }
  return CLI_EXIT_OK;
}
