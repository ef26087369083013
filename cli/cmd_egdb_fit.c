/* cmd_egdb_fit.c: `oware egdb fit`: the evaluation's corrections in endings, fitted on the endgame tables. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/error.h"
#include "players/tablebase.h"
#include "tuner/ending_fit.h"

static const char fit_help[] =
    "usage: oware egdb fit --from-db FILE [--variant V] [--dir D] [--seeds N] [--width W]\n"
    "                      [--cycle-label mean|game|row] [--weights FILE] [--out FILE]\n"
    "Fits the evaluation's corrections in endings (minimax's ending=) on the\n"
    "endgame tables: every position with 1..N seeds on the board in the games of\n"
    "the database is looked up in the tables, and, per range of W seed counts, a\n"
    "tempo and a weight per feature are fitted by least squares to what the\n"
    "evaluation misses of the tables' value. Prints, per range, the positions,\n"
    "the share the tables leave cycle-sensitive, and the evaluation's error and\n"
    "R^2 before and after; writes the table (the file minimax:ending=FILE reads).\n";

int cli_egdb_fit(int argc, char **argv) {
  const char *cmd = "egdb fit", *vtext = "abapa", *dir = NULL, *from = NULL, *out = NULL,
             *wfile = NULL;
  long long seeds = -1, width = 4;
  int label = TUNER_ENDING_MEAN;
  static const char *const labels[] = {"mean", "game", "row", NULL};
  cli_option opts[] = {
      CLI_O_TEXT("from-db", &from, "FILE", NULL, "the games (a database of oware runs)"),
      CLI_O_TEXT("variant", &vtext, "V", "abapa", "the variant of the games and the tables"),
      CLI_O_TEXT("dir", &dir, "D", NULL, "folder of the tables (default ~/.cache/oware/egdb)"),
      CLI_O_INT("seeds", &seeds, 1, VARIANT_MAX_TOTAL, "N", NULL,
                "positions with 1..N seeds on the board (default: as far as the tables go)"),
      CLI_O_INT("width", &width, 1, VARIANT_MAX_TOTAL, "W", "4", "seed counts a range"),
      CLI_O_CHOICE("cycle-label", &label, labels, "mean",
                   "a cycle-sensitive position's value: the mean of its bounds, what its game "
                   "gave the side to move within them, or its own row within them"),
      CLI_O_TEXT("weights", &wfile, "FILE", NULL,
                 "the weights the corrections add to (default: the built-in ones)"),
      CLI_O_TEXT("out", &out, "FILE", NULL, "write the table there (whole, or not at all)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, fit_help, NULL, opts, 0};
  char *posv[1];
  int prc, nargs;
  if (cli_parse(&spec, argc, argv, posv, &nargs, &prc)) return prc;
  if (!from) return cli_error(cmd, "missing --from-db FILE (see --help)");
  tuner_ending_config c;
  memset(&c, 0, sizeof c);
  if (cli_variant(cmd, vtext, &c.v)) return CLI_EXIT_USAGE;
  char dbuf[4096], err[ERROR_MAX];
  if (!dir) {
    tablebase_default_dir(dbuf, sizeof dbuf);
    dir = dbuf;
  } else if (!*dir) {
    dir = "."; /* the current folder, as the tables' paths read it */
  }
  eval_default(&c.w);
  if (wfile && eval_load(wfile, &c.w, err, sizeof err)) return cli_error(cmd, "%s", err);
  if (out && cli_check_output(cmd, "--out", out)) return CLI_EXIT_FAIL;
  c.from_db = from;
  c.egdb_dir = dir;
  c.seeds = (int)seeds;
  c.width = (int)width;
  c.cycle_label = label;
  static tuner_ending_result r;
  if (tuner_ending_fit(&c, &r, err, sizeof err)) return cli_error(cmd, "%s", err);
  printf("%lld positions with 1 to %d seeds on the board, from %lld games of %lld runs\n",
         r.positions, r.seeds, r.games, r.runs);
  printf("%-7s %9s %7s %13s %13s\n", "seeds", "positions", "cycle", "rmse", "R^2");
  for (int i = 0; i < r.table.n; i++) {
    const tuner_ending_range *g = &r.range[i];
    char range[32];
    snprintf(range, sizeof range, "%d..%d", r.table.lo[i], r.table.hi[i]);
    printf("%-7s %9lld %6.1f%% %6.0f->%-6.0f %6.3f->%-6.3f\n", range, g->positions,
           100 * g->cycle_share, g->rmse0, g->rmse, g->r2_0, g->r2);
  }
  char comment[512];
  snprintf(comment, sizeof comment,
           "oware egdb fit --from-db %s --variant %s --seeds %d --width %d --cycle-label %s\n"
           "%lld positions from %lld games", from, vtext, r.seeds, (int)width, labels[label],
           r.positions, r.games);
  eval_ending_write(stdout, &r.table, comment); /* a write error: main's check of stdout */
  if (out) {
    outfile o;
    if (cli_out_open(cmd, &o, out)) return CLI_EXIT_FAIL;
    if (eval_ending_write(o.f, &r.table, comment) < 0) {
      cli_out_abort(&o);
      return cli_error(cmd, "cannot write %s", out);
    }
    if (cli_out_commit(cmd, &o)) return CLI_EXIT_FAIL;
  }
  return CLI_EXIT_OK;
}
