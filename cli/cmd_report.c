/* cmd_report.c: `oware chart` (a run's charts with gnuplot) and `oware report` (its HTML and Markdown report). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "report/plot.h"
#include "report/report.h"
#include "store/store.h"
#include "stats/elo_fit.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/output.h"

#define DEFAULT_DB "results/oware.db"

static const char chart_usage[] =
    "usage: oware chart --run N [options]\n"
    "Draws the charts of run N with gnuplot, as PNG and SVG, into DIR: for each\n"
    "KIND a data file KIND.dat, and KIND.png and KIND.svg drawn by scripts/KIND.gp\n"
    "(restyle them there; the variable OWARE_SCRIPTS names another folder of\n"
    "scripts). Kinds:\n"
    "  elo      Elo ladder: each player's rating with its 95% interval (the latest\n"
    "           stored ratings, else a fit of the run's games)\n"
    "  ratings  stored ratings over the course of the run ('oware rate'), all on\n"
    "           one scale (--anchor, else the latest fit's anchor, else the mean)\n"
    "  matrix   heat map of each pairing's score %\n"
    "  length   histogram of game lengths in plies, per variant or pairing\n"
    "  ends     end reasons (majority, no-move, repetition, ply-limit, forfeit)\n"
    "  tuning   weights against the iteration and the Elo of validation checkpoints\n"
    "  time     each player's mean time per move against its move number\n"
    "  all      every kind\n"
    "A kind with nothing to draw (a run without stored ratings, tuning\n"
    "iterations or move records) is skipped with a message. When gnuplot is not installed, the\n"
    "data files are written and the images skipped, with one message.\n";

static const char chart_after[] =
    "Exit codes: 0 done (including skips), 1 a chart failed or the database\n"
    "could not be read, 2 bad input.\n";

static const char report_usage[] =
    "usage: oware report --run N [options]\n"
    "Writes the report of run N into DIR: index.html (open it in a browser; it\n"
    "needs no network), the same as report.md, the charts (as 'oware chart --kind\n"
    "all'), their data files and the games as run-N.ogn: the run's configuration,\n"
    "standings, ratings, statistics per pairing, end reasons and each player's\n"
    "score by end (as 'oware rate' prints it). Without gnuplot\n"
    "the report has no images and says so. Every Elo of the report is on one scale:\n"
    "relative to the player --anchor names, else to the anchor of the latest stored\n"
    "fit ('oware rate --anchor'), else to the field's mean; stored fits on another\n"
    "scale are fitted again on it from the same games.\n";

/* Options shared by chart and report. */
typedef struct args {
  const char *db, *out, *kind, *anchor;
  long long run;
  plot_options opt;
  char anchor_name[RATING_NAME_MAX];
} args;

static int parse_size(const cli_option *o, const char *text, char *err, size_t errlen) {
  plot_options *opt = o->target;
  char *end;
  long w = strtol(text, &end, 10), h = 0;
  if (end != text && (*end == 'x' || *end == 'X')) {
    const char *p = end + 1;
    h = strtol(p, &end, 10);
    if (end == p) h = 0;
  }
  if (*end || w < 100 || w > 10000 || h < 100 || h > 10000) {
    snprintf(err, errlen, "--size is '%s'; expected WIDTHxHEIGHT in pixels, 100 to 10000 each",
             text);
    return -1;
  }
  opt->width = (int)w;
  opt->height = (int)h;
  return 0;
}

/* 0 parsed, 1 help printed, -1 bad input (printed). */
static int parse_args(const char *cmd, const char *usage, const char *after, int with_kind,
                      int argc, char **argv, args *a) {
  memset(a, 0, sizeof *a);
  a->run = -1;
  int nargs, rc;
  cli_option opts[] = {
      CLI_O_INT("run", &a->run, 1, (long long)(~0ULL >> 1), "N", NULL, "the run ('oware runs')"),
      CLI_O_TEXT("db", &a->db, "PATH", DEFAULT_DB, "the SQLite database"),
      CLI_O_TEXT("out", &a->out, "DIR", NULL, "the folder (default results/run-N/)"),
      CLI_O_CALL("size", parse_size, &a->opt, "WxH", "image size in pixels (default 800x500)"),
      CLI_O_TEXT("anchor", &a->anchor, "NAME=ELO", NULL,
                 "every Elo relative to NAME at ELO (as 'oware rate --anchor'; default: the "
                 "latest stored fit's anchor, else the field's mean)"),
      CLI_O_TEXT("kind", &a->kind, "KIND[,KIND...]|all", "all", "the charts to draw"),
      CLI_END,
  };
  if (!with_kind) opts[5] = (cli_option)CLI_END;
  cli_command_spec spec = {cmd, usage, after, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc ? -1 : 1;
  if (a->run < 0) {
    cli_error(cmd, "--run N is needed ('oware runs' lists them)");
    return -1;
  }
  if (a->anchor) {
    if (cli_anchor(cmd, a->anchor, a->anchor_name, &a->opt.anchor_elo)) return -1;
    a->opt.anchor = a->anchor_name;
  }
  return 0;
}

/* Whether a failure to chart or report is the user's mistake (an unknown
 * run or anchor) rather than a failure. */
static int usage_error(const char *err) {
  return !strncmp(err, "no run", 6) || strstr(err, ": no run ") ||
         !strncmp(err, "unknown anchor", 14);
}

int cli_chart(int argc, char **argv) {
  const char *cmd = "chart";
  args a;
  int p = parse_args(cmd, chart_usage, chart_after, 1, argc, argv, &a);
  if (p) return p > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  char err[ERROR_MAX], dir[1024];
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
    cli_error(cmd, "%s", err);
    return usage_error(err) ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  }
  for (int k = 0; k < res.n; k++)
    if (res.chart[k].status == PLOT_FAILED) return CLI_EXIT_FAIL;
  return CLI_EXIT_OK;
}

int cli_report(int argc, char **argv) {
  const char *cmd = "report";
  args a;
  int p = parse_args(cmd, report_usage, "Exit codes: 0 written, 1 failed, 2 bad input.\n", 0,
                     argc, argv, &a);
  if (p) return p > 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  char err[ERROR_MAX], dir[1024];
  snprintf(dir, sizeof dir, "results/run-%lld", a.run);
  if (a.out && cli_check_output_dir(cmd, "--out", a.out)) return CLI_EXIT_USAGE;
  store *db;
  if (store_open_readonly(a.db, &db, err, sizeof err)) return cli_error(cmd, "%s", err);
  int rc = report_write_opt(db, a.run, a.out ? a.out : dir, &a.opt, stderr, err, sizeof err);
  store_close(db);
  if (rc) {
    cli_error(cmd, "%s", err);
    return usage_error(err) ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  }
  return CLI_EXIT_OK;
}
