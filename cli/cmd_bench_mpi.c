/* cmd_bench_mpi.c: `oware bench mpi`: what rank 0 can feed (jobs/s with random pairs) and the efficiency with minimax, at 2..N ranks. */
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "run/pairs.h"
#include "run/runner_mpi.h"
#include "cli/cli.h"
#include "cli/options.h"

static const char mpi_usage[] =
    "usage: mpirun [--oversubscribe] -np N oware bench mpi [options]\n"
    "Run under mpirun (N ranks, 2 or more; each rank plays on one thread):\n"
    "1. Feed: game pairs of two random players (the cheapest jobs) with rank 0\n"
    "   only handing out jobs and taking games back, on ranks 0..n-1 for\n"
    "   n = 2..N: the jobs/s rank 0 takes, and rank 0's CPU time a job (what\n"
    "   one rank 0 core could feed, whatever the machine's load).\n"
    "2. Efficiency: game pairs of minimax at --depth on one rank (rank 0 alone,\n"
    "   one thread), then on n = 2..N ranks (rank 0 plays too): games/s and\n"
    "   games/s over n times the one-rank figure. On a machine with fewer cores\n"
    "   than ranks (--oversubscribe) it cannot pass cores/n; the control (n\n"
    "   threads in one process) shows what the machine gives without MPI.\n";

static long long repeat;

/* Plays the pairs on ranks 0..ranks-1 (root_threads on rank 0); games/s. */
static double rate_once(const char *cmd, const char *a, const char *b, int pairs, int ranks,
                        int root_threads, int threads) {
  pairs_job job;
  memset(&job, 0, sizeof job);
  job.spec_a = a;
  job.spec_b = b;
  variant_default(&job.v);
  job.pairs = pairs;
  job.threads = threads;
  job.opening_plies = 8;
  job.seed = 11;
  pairs_result res;
  char err[ERROR_MAX];
  runner_mpi_limit(ranks, root_threads);
  int rc = pairs_play(&job, NULL, &res, err, sizeof err);
  runner_mpi_limit(0, -1);
  if (rc) {
    cli_error(cmd, "%s", err);
    return -1;
  }
  return (double)(res.wins + res.draws + res.losses) / res.seconds;
}

/* The best games/s of `repeat` runs: the machine's other load only slows a run. */
static double rate(const char *cmd, const char *a, const char *b, int pairs, int ranks,
                   int root_threads, int threads, double *cpu_per_job) {
  double best = 0, cpu = 0;
  for (long long k = 0; k < repeat; k++) {
    double c0 = cli_cpu_seconds();
    double g = rate_once(cmd, a, b, pairs, ranks, root_threads, threads);
    if (g < 0) return -1;
    double c = (cli_cpu_seconds() - c0) / pairs;
    if (g > best) best = g;
    if (!k || c < cpu) cpu = c;
  }
  if (cpu_per_job) *cpu_per_job = cpu;
  return best;
}

int cli_bench_mpi(int argc, char **argv) {
  const char *cmd = "bench mpi";
  long long random_pairs, pairs, depth;
  int nargs, rc;
  cli_option opts[] = {
      CLI_O_INT("random-pairs", &random_pairs, 10, 100000000, "N", "20000",
                "game pairs of random players for each feed measurement"),
      CLI_O_INT("pairs", &pairs, 1, 1000000, "M", "48",
                "game pairs of minimax for each efficiency measurement"),
      CLI_O_INT("depth", &depth, 1, 30, "D", "8", "the minimax depth"),
      CLI_O_INT("repeat", &repeat, 1, 101, "R", "3", "runs of each measurement: the best counts"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, mpi_usage, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  if (!runner_mpi_compiled())
    return cli_error(cmd, "MPI was not compiled in (build with Open MPI: libopenmpi-dev, -DOWARE_MPI=ON)"),
           CLI_EXIT_FAIL;
  int n = runner_mpi_size();
  if (n < 2)
    return cli_error(cmd, "run it under mpirun with 2 ranks or more: mpirun --oversubscribe -np 4 "
                          "oware bench mpi"),
           CLI_EXIT_USAGE;
  printf("feed: random game pairs (%lld), rank 0 hands out jobs only, one thread a rank\n",
         random_pairs);
  double one = rate(cmd, "random", "random:seed=2", (int)random_pairs, 1, -1, 1, NULL);
  if (one < 0) return CLI_EXIT_FAIL;
  printf("  1 rank (its own thread, no MPI): %9.0f jobs/s\n", one / 2);
  for (int r = 2; r <= n; r++) {
    double cpu, g = rate(cmd, "random", "random:seed=2", (int)random_pairs, r, 0, 1, &cpu);
    if (g < 0) return CLI_EXIT_FAIL;
    printf("  %d ranks (%d playing):          %9.0f jobs/s  (%.0f games/s); rank 0 CPU %.1f us a "
           "job: one core feeds %.0f jobs/s\n",
           r, r - 1, g / 2, g, 1e6 * cpu, cpu > 0 ? 1 / cpu : 0);
  }
  char a[64], b[64];
  snprintf(a, sizeof a, "minimax:depth=%lld,egdb=off", depth);
  snprintf(b, sizeof b, "minimax:depth=%lld,noise=1,egdb=off", depth);
  printf("efficiency: minimax depth %lld game pairs (%lld), one thread a rank\n", depth, pairs);
  double base = rate(cmd, a, b, (int)pairs, 1, -1, 1, NULL);
  if (base < 0) return CLI_EXIT_FAIL;
  printf("  1 rank:  %7.2f games/s\n", base);
  for (int r = 2; r <= n; r++) {
    double g = rate(cmd, a, b, (int)pairs, r, -1, 1, NULL);
    double t = g < 0 ? -1 : rate(cmd, a, b, (int)pairs, 1, -1, r, NULL);
    if (g < 0 || t < 0) return CLI_EXIT_FAIL;
    printf("  %d ranks: %7.2f games/s  efficiency %.2f   (control: %d threads in one process "
           "%7.2f games/s, efficiency %.2f)\n",
           r, g, g / (r * base), r, t, t / (r * base));
  }
  fflush(stdout);
  return CLI_EXIT_OK;
}
