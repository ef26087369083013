/* cmd_analyse.c: `oware analyse`: how far from perfect each player of a run is, in the endgames the databases cover. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "report/analyse_chart.h"
#include "store/store.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/notation.h"
#include "players/tablebase.h"

static const char usage[] =
    "usage: oware analyse --run N [--db PATH] [--egdb-dir D] [--seeds S] [--force] [--json]\n"
    "                     [--chart STEM] [--mistakes K]\n"
    "Replays every game of run N and, in each position with at most S seeds on the\n"
    "board (default: the largest table every variant of the run has), compares the\n"
    "move played with perfect play from the endgame databases ('oware egdb build').\n"
    "For each player: the covered positions it moved in, the decided moves (the\n"
    "move's value is exact, or provably worse than the best), the share of those\n"
    "that keep the value, the mean seeds thrown away per decided move, its mistakes,\n"
    "the games whose result a mistake changed (win, draw or loss by perfect play\n"
    "before and after it) and the cycle-sensitive moves left undecided (their value\n"
    "depends on the repetition rule). The analysis is stored in the database and\n"
    "read back next time; --force computes it again (it is recomputed anyway when\n"
    "the run has more games, or another --seeds is asked). docs/EGDB.md.\n";

static const char after[] =
    "Exit codes: 0 done, 1 failed (tables missing, a database or chart error),\n"
    "2 bad input (options, no such run).\n";

static void print_table(const analyse_result *r, const store_run *run, int computed) {
  printf("Endgame accuracy of run %lld: positions with at most %d seeds on the board, %lld "
         "games\n(tables in %s; %s %s)\n",
         (long long)r->run_id, r->seeds, r->run_games, r->egdb_dir,
         computed ? "computed" : "stored", r->created);
  int w = 6;
  for (int p = 0; p < r->nplayers; p++) {
    int l = (int)strlen(run->player_name[p]);
    if (l > w) w = l < 40 ? l : 40;
  }
  printf("%-*s %9s %7s %8s %7s %10s %8s %7s %7s %6s\n", w, "player", "positions", "forced",
         "decided", "kept%", "lost/move", "mistakes", "seeds", "changed", "cycle");
  for (int p = 0; p < r->nplayers; p++) {
    const analyse_player *a = &r->player[p];
    double share = analyse_kept_share(a), lost = analyse_lost_per_move(a);
    char sh[16] = "-", lo[16] = "-", ch[32];
    if (!isnan(share)) snprintf(sh, sizeof sh, "%.1f", 100 * share);
    if (!isnan(lost)) snprintf(lo, sizeof lo, "%.3f", lost);
    snprintf(ch, sizeof ch, "%lld/%lld", a->changed, a->games);
    printf("%-*.*s %9lld %7lld %8lld %7s %10s %8lld %7.1f %7s %6lld\n", w, w,
           run->player_name[p], a->positions, a->forced, analyse_decided(a), sh, lo,
           analyse_mistakes(a), a->lost2 / 2.0, ch, a->cycle);
  }
  printf("decided: exact moves and proven losses; kept%%: decided moves that keep the value; "
         "lost/move: seeds\nthrown away per decided move; seeds: in all; changed: games whose "
         "result a mistake changed,\nof the games with a covered position; cycle: "
         "cycle-sensitive moves left undecided.\n");
}

static void print_mistakes(const analyse_result *r, const store_run *run, int k) {
  if (k <= 0 || !r->nmistakes) return;
  printf("\nMistakes (the first %d of %d):\n", k < r->nmistakes ? k : r->nmistakes, r->nmistakes);
  for (int i = 0; i < r->nmistakes && i < k; i++) {
    const analyse_mistake *m = &r->mistake[i];
    variant v;
    char verr[256];
    if (m->variant_idx < 0 || m->variant_idx >= run->nvariants ||
        variant_parse(run->variant[m->variant_idx], &v, verr, sizeof verr))
      variant_default(&v);
    char b2[16], p2[16], l2[16];
    notation_format_half(m->best2, b2, sizeof b2);
    notation_format_half(m->played2, p2, sizeof p2);
    notation_format_half(m->lost2, l2, sizeof l2);
    printf("  series %d game %d ply %d  %s  %s played %c (%s%s) instead of %c (%s): %s lost%s%s\n",
           m->series_no, m->game_no, m->ply + 1, m->position, run->player_name[m->player],
           notation_move_letter(&v, m->played), m->proven ? "at most " : "", p2,
           notation_move_letter(&v, m->best), b2, l2, m->proven ? " (proven)" : "",
           m->changed ? ", result changed" : "");
  }
}

static void print_json(const analyse_result *r, const store_run *run, int computed) {
  printf("{\"run\":%lld,\"seeds\":%d,\"games\":%lld,\"egdb_dir\":", (long long)r->run_id,
         r->seeds, r->run_games);
  cli_json_str(stdout, r->egdb_dir);
  printf(",\"computed\":%s,\"created\":", computed ? "true" : "false");
  cli_json_str(stdout, r->created);
  fputs(",\"players\":[", stdout);
  for (int p = 0; p < r->nplayers; p++) {
    const analyse_player *a = &r->player[p];
    fputs(p ? ",{\"name\":" : "{\"name\":", stdout);
    cli_json_str(stdout, run->player_name[p]);
    printf(",\"games\":%lld,\"positions\":%lld,\"forced\":%lld,\"exact\":%lld,\"kept\":%lld,"
           "\"proven\":%lld,\"cycle\":%lld,\"decided\":%lld,\"mistakes\":%lld,\"changed\":%lld,"
           "\"seeds_lost\":",
           a->games, a->positions, a->forced, a->exact, a->kept, a->proven, a->cycle,
           analyse_decided(a), analyse_mistakes(a), a->changed);
    cli_json_num(stdout, a->lost2 / 2.0);
    fputs(",\"kept_share\":", stdout);
    cli_json_num(stdout, analyse_kept_share(a));
    fputs(",\"lost_per_move\":", stdout);
    cli_json_num(stdout, analyse_lost_per_move(a));
    fputc('}', stdout);
  }
  fputs("]}\n", stdout);
}

int cli_analyse(int argc, char **argv) {
  const char *cmd = "analyse", *dbpath = NULL, *dir = NULL, *chart = NULL;
  long long run_id = -1, seeds = -1, nmistakes = 0;
  int force = 0, json = 0, nargs, rc;
  cli_option opts[] = {
      CLI_O_INT("run", &run_id, 1, (long long)(~0ULL >> 1), "N", NULL, "the run ('oware runs')"),
      CLI_O_TEXT("db", &dbpath, "PATH", CLI_DEFAULT_DB, "the SQLite database"),
      CLI_O_TEXT("egdb-dir", &dir, "D", NULL,
                 "folder of the endgame tables (default ~/.cache/oware/egdb)"),
      CLI_O_INT("seeds", &seeds, 0, EGDB_MAX_SEEDS, "S", NULL,
                "positions with at most S seeds (default: every table all variants have)"),
      CLI_O_FLAG("force", &force, "compute the analysis again even if one is stored"),
      CLI_O_FLAG("json", &json, "print the result as JSON (docs/JSON.md)"),
      CLI_O_TEXT("chart", &chart, "STEM", NULL,
                 "draw seeds lost per move by seeds on the board: STEM.dat, .png, .svg"),
      CLI_O_INT("mistakes", &nmistakes, 0, 1000000, "K", "0", "list the first K mistakes"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, usage, after, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  if (run_id < 0) return cli_error(cmd, "--run N is needed ('oware runs' lists them)");
  char dbuf[4096], err[ERROR_MAX];
  if (!dir) {
    tablebase_default_dir(dbuf, sizeof dbuf);
    dir = dbuf;
  }
  if (chart && cli_check_stem(cmd, "--chart", chart)) return CLI_EXIT_USAGE;
  /* A database this user may not write is analysed all the same, the
   * analysis not stored (as rate does with its ratings), which is said. */
  store *db;
  int read_only;
  if ((rc = cli_store_open_or_read(cmd, dbpath, "the analysis is not stored", &db, &read_only)))
    return rc;
  store_run run;
  store_run_init(&run);
  analyse_result *r = NULL;
  int computed = 0, ret = CLI_EXIT_FAIL;
  if (store_run_load(db, run_id, &run, err, sizeof err)) {
    ret = cli_error(cmd, "%s", err);
    goto done;
  }
  if (analyse_get(db, run_id, dir, (int)seeds, force, !read_only, &r, &computed, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    goto done;
  }
  if (json) {
    print_json(r, &run, computed);
  } else {
    print_table(r, &run, computed);
    print_mistakes(r, &run, (int)nmistakes);
  }
  ret = CLI_EXIT_OK;
  if (chart) {
    int c = analyse_chart(r, run.player_name, chart, NULL, err, sizeof err);
    if (c < 0) {
      cli_error(cmd, "chart: %s", err);
      ret = CLI_EXIT_FAIL;
    } else if (c > 0) {
      fprintf(stderr, "oware %s: %s; wrote %s.dat only\n", cmd, err, chart);
    } else if (!json) {
      printf("chart: %s.png, %s.svg\n", chart, chart);
    }
  }
done:
  analyse_free(r);
  store_run_free(&run);
  store_close(db);
  return ret;
}
