/* main.c: the `oware` command: dispatches git-style subcommands. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "run/analyse.h"
#include "run/pairs.h"
#include "run/runner_mpi.h"
#include "run/study_store.h"
#include "tuner/calibrate_run.h"
#include "tuner/tuning_store.h"
#include "run/tournament.h"
#include "cli/cli.h"
#include "cli/output.h"
#include "tuner/net_search.h"
#include "tuner/texel.h"

typedef struct command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    {"perft", "count the legal move sequences from a position", cli_perft},
    {"replay", "play moves and print the position, legal moves and status", cli_replay},
    {"bench", "measure speed: 'bench core' (rules), 'search' (players), 'arena'", cli_bench},
    {"players", "list the player types and their options", cli_players},
    {"weights", "print the default evaluation weights (the weights-file format)", cli_weights},
    {"match", "play games between two players", cli_match},
    {"tournament", "round robin or gauntlet into the database; --resume a run", cli_tournament},
    {"runs", "list the runs stored in a database", cli_runs},
    {"export", "write a run's games as OGN, CSV or PGN", cli_export},
    {"chart", "draw a run's charts", cli_chart}, {"report", "write a run's HTML report", cli_report},
    {"tune", "tune evaluation weights by self-play: spsa or texel; train a network: net", cli_tune},
    {"rate", "Elo ratings of the players in the database", cli_rate}, {"sprt", "the SPRT log-likelihood ratio of given counts", cli_sprt},
    {"uci", "serve a player over the engine protocol on stdin/stdout", cli_uci},
    {"variants", "list the rule variants and their switches", cli_variants_list},
    {"study", "play rule variants against each other and compare them", cli_study},
    {"play", "play a game against a player in the terminal", cli_play},
    {"egdb", "endgame databases: build, probe, stats (perfect play with few seeds)", cli_egdb},
    {"solve", "a variant's start (or a position) under perfect play, on the endgame tables", cli_solve},
    {"analyse", "how far from perfect a run's players are in the endgames (egdb)", cli_analyse},
    {"book", "opening book: build it by our own searches of the first plies, show it", cli_book},
    {"calibrate", "find a player knob's values for difficulty levels (target Elos)", cli_calibrate},
};

static void usage(FILE *f) {
  fprintf(f, "usage: oware [--version] [--help] [--mpi] [--root-threads N] COMMAND [ARGS]\n\n"
             "commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "\n'oware COMMAND --help' describes a command. Under mpirun (or srun) rank 0 runs the\n"
             "command and the other ranks play its games; --mpi insists on MPI; --root-threads N\n"
             "gives rank 0 N game threads instead of the command's (0: it only hands out jobs and\n"
             "stores the games, on a core of its own) (docs/SCALING.md).\n");
}

static int run_command(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return CLI_EXIT_USAGE;
  }
  if (cli_is_help(argv[1]) || !strcmp(argv[1], "help")) {
    usage(stdout);
    return cli_close_stdout("help") ? CLI_EXIT_FAIL : CLI_EXIT_OK;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("oware %s\n", OWARE_VERSION);
    return cli_close_stdout("--version") ? CLI_EXIT_FAIL : CLI_EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(argv[1], commands[i].name)) {
      int rc = commands[i].run(argc - 2, argv + 2);
      /* What the command printed must have reached its destination. */
      if (cli_close_stdout(commands[i].name) && rc == CLI_EXIT_OK) rc = CLI_EXIT_FAIL;
      return rc;
    }
  fprintf(stderr, "oware: '%s' is not a command; 'oware --help' lists them\n", argv[1]);
  return CLI_EXIT_USAGE;
}

/* The options before the command: --mpi, --root-threads N; --help and
 * --version are left to run_command. 0 with *argc and *argv moved past them
 * (argv[0] kept), or an exit code after a message. */
static int global_options(int *argc, char ***argv, int *force, int *root_threads) {
  static const struct option lo[] = {{"mpi", no_argument, NULL, 'm'},
                                     {"root-threads", required_argument, NULL, 'r'},
                                     {NULL, 0, NULL, 0}};
  int c, at = 1;
  opterr = 0;
  optind = 0; /* glibc: start afresh */
  /* "+": stop at the command; --help, --version and the unknown stop too. */
  while ((c = getopt_long(*argc, *argv, "+:", lo, NULL)) != -1) {
    if (c == 'm') {
      *force = 1;
    } else if (c == 'r') {
      char *end;
      long n = strtol(optarg, &end, 10);
      if (!*optarg || *end || n < 0 || n > 1024) {
        fprintf(stderr, "oware: --root-threads: '%s' is not a number of threads [0..1024]\n",
                optarg);
        return CLI_EXIT_USAGE;
      }
      *root_threads = (int)n;
    } else if (c == ':') {
      fprintf(stderr, "oware: option '%s' needs a value\n", (*argv)[optind - 1]);
      return CLI_EXIT_USAGE;
    } else { /* --help, --version or an unknown option: run_command's */
      break;
    }
    at = optind;
  }
  (*argv)[at - 1] = (*argv)[0];
  *argc -= at - 1;
  *argv += at - 1;
  return 0;
}

/* Under mpirun or srun (or with --mpi), rank 0 runs the command and the
 * other ranks play its games (run/runner_mpi.h); otherwise MPI is not
 * touched and the same binary runs alone. */
int main(int argc, char **argv) {
  int force = 0, root_threads = -1;
  int grc = global_options(&argc, &argv, &force, &root_threads);
  if (grc) return grc;
  runner_mpi_role role;
  char err[ERROR_MAX];
  if (runner_mpi_init(&argc, &argv, force, &role, err, sizeof err)) {
    fprintf(stderr, "oware: %s\n", err);
    runner_mpi_finalize();
    return CLI_EXIT_FAIL;
  }
  if (root_threads >= 0 && role == RUNNER_MPI_NONE) {
    fprintf(stderr, "oware: --root-threads applies under mpirun or srun (or with --mpi)\n");
    runner_mpi_finalize();
    return CLI_EXIT_USAGE;
  }
  runner_mpi_limit(0, root_threads);
  int rc;
  if (role == RUNNER_MPI_WORKER) {
    static const runner_kind *const kinds[] = {&tournament_schedule_kind, &pairs_schedule_kind,
                                               &texel_schedule_kind, &tuner_net_search_kind};
    const int nkinds = (int)(sizeof kinds / sizeof *kinds);
    rc = runner_mpi_serve(kinds, nkinds, err, sizeof err) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    if (rc) fprintf(stderr, "oware: %s\n", err);
  } else {
    runner_set_default_backend(runner_mpi_backend());
    /* The drivers' own tables, in every database this program makes or
     * upgrades (docs/SCHEMA.md). */
    store_tables_register(&study_store_tables);
    store_tables_register(&analyse_store_tables);
    store_tables_register(&tuner_calibrate_tables);
    store_tables_register(&tuning_store_tables);
    rc = run_command(argc, argv);
  }
  runner_mpi_finalize();
  return rc;
}
