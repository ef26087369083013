/* cmd_bench_mpi.c: `oware bench mpi`: what rank 0 can feed (jobs/s with random pairs) and the efficiency with minimax, at 2..N ranks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "run/pairs.h"
#include "run/runner_mpi.h"
#include "cli/cli.h"
#include "cli/json.h"
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
    "   threads in one process) shows what the machine gives without MPI.\n"
    "--json: one JSON object instead (docs/JSON.md).\n";

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

/* The figures of `bench mpi`, printed as they come (text) or at the end (JSON). */
typedef struct mpi_figures {
  int n;                                /* ranks */
  double feed_one;                      /* jobs/s of one rank, no MPI */
  double *feed, *feed_cpu;              /* games/s and rank 0's CPU s a job, at r ranks */
  double base, *eff, *control;          /* minimax games/s: 1 rank, r ranks, r threads */
} mpi_figures;

/* A feed row (r ranks) of the JSON. */
static void feed_row(cli_json_out *x, const mpi_figures *f, int r) {
  cli_json_num_at(x, "jobs_per_s", f->feed[r] / 2);
  cli_json_num_at(x, "games_per_s", f->feed[r]);
  cli_json_num_at(x, "rank0_cpu_seconds_a_job", f->feed_cpu[r]);
}

/* An efficiency row (r ranks) of the JSON. */
static void efficiency_row(cli_json_out *x, const mpi_figures *f, int r) {
  cli_json_num_at(x, "games_per_s", f->eff[r]);
  cli_json_num_at(x, "efficiency", f->eff[r] / (r * f->base));
  cli_json_num_at(x, "control_games_per_s", f->control[r]);
  cli_json_num_at(x, "control_efficiency", f->control[r] / (r * f->base));
}

/* ,"ranks":[{"ranks":r, and row's fields} for r = 2..n] into q. */
static void rank_rows(cli_json_out *q, const mpi_figures *f,
                      void (*row)(cli_json_out *x, const mpi_figures *f, int r)) {
  cli_json_out a, x;
  cli_json_key(q, "ranks");
  cli_json_open(&a, stdout, '[');
  for (int r = 2; r <= f->n; r++) {
    cli_json_item(&a);
    cli_json_open(&x, stdout, '{');
    cli_json_num_at(&x, "ranks", r);
    row(&x, f, r);
    cli_json_close(&x);
  }
  cli_json_close(&a);
}

static void print_json(const mpi_figures *f, long long random_pairs, long long pairs,
                       long long depth) {
  cli_json_out o, q;
  cli_json_open(&o, stdout, '{');
  cli_json_str_at(&o, "bench", "mpi");
  cli_json_num_at(&o, "ranks", f->n);
  cli_json_num_at(&o, "repeat", (double)repeat);
  cli_json_key(&o, "feed");
  cli_json_open(&q, stdout, '{');
  cli_json_num_at(&q, "random_pairs", (double)random_pairs);
  cli_json_num_at(&q, "jobs_per_s_1_rank", f->feed_one / 2);
  rank_rows(&q, f, feed_row);
  cli_json_close(&q);
  cli_json_key(&o, "efficiency");
  cli_json_open(&q, stdout, '{');
  cli_json_num_at(&q, "depth", (double)depth);
  cli_json_num_at(&q, "pairs", (double)pairs);
  cli_json_num_at(&q, "games_per_s_1_rank", f->base);
  rank_rows(&q, f, efficiency_row);
  cli_json_close(&q);
  cli_json_close(&o);
  putchar('\n');
}

/* The measurements at 1..f->n ranks into f, printed as they come (text)
 * or at the end (json). An exit code. */
static int bench_ranks(const char *cmd, mpi_figures *fp, long long random_pairs, long long pairs,
                       long long depth, int json) {
  mpi_figures f = *fp;
  if (!json)
    printf("feed: random game pairs (%lld), rank 0 hands out jobs only, one thread a rank\n",
           random_pairs);
  if ((f.feed_one = rate(cmd, "random", "random:seed=2", (int)random_pairs, 1, -1, 1, NULL)) < 0)
    return CLI_EXIT_FAIL;
  if (!json) printf("  1 rank (its own thread, no MPI): %9.0f jobs/s\n", f.feed_one / 2);
  for (int r = 2; r <= f.n; r++) {
    double cpu, g = rate(cmd, "random", "random:seed=2", (int)random_pairs, r, 0, 1, &cpu);
    if (g < 0) return CLI_EXIT_FAIL;
    f.feed[r] = g;
    f.feed_cpu[r] = cpu;
    if (!json)
      printf("  %d ranks (%d playing):          %9.0f jobs/s  (%.0f games/s); rank 0 CPU %.1f us a "
             "job: one core feeds %.0f jobs/s\n",
             r, r - 1, g / 2, g, 1e6 * cpu, cpu > 0 ? 1 / cpu : 0);
  }
  char a[64], b[64];
  snprintf(a, sizeof a, "minimax:depth=%lld,egdb=off", depth);
  snprintf(b, sizeof b, "minimax:depth=%lld,noise=1,egdb=off", depth);
  if (!json)
    printf("efficiency: minimax depth %lld game pairs (%lld), one thread a rank\n", depth, pairs);
  if ((f.base = rate(cmd, a, b, (int)pairs, 1, -1, 1, NULL)) < 0) return CLI_EXIT_FAIL;
  if (!json) printf("  1 rank:  %7.2f games/s\n", f.base);
  for (int r = 2; r <= f.n; r++) {
    double g = rate(cmd, a, b, (int)pairs, r, -1, 1, NULL);
    double t = g < 0 ? -1 : rate(cmd, a, b, (int)pairs, 1, -1, r, NULL);
    if (g < 0 || t < 0) return CLI_EXIT_FAIL;
    f.eff[r] = g;
    f.control[r] = t;
    if (!json)
      printf("  %d ranks: %7.2f games/s  efficiency %.2f   (control: %d threads in one process "
             "%7.2f games/s, efficiency %.2f)\n",
             r, g, g / (r * f.base), r, t, t / (r * f.base));
  }
  if (json) print_json(&f, random_pairs, pairs, depth);
  fflush(stdout);
  return CLI_EXIT_OK;
}

int cli_bench_mpi(int argc, char **argv) {
  const char *cmd = "bench mpi";
  long long random_pairs, pairs, depth;
  int nargs, rc, json = 0;
  cli_option opts[] = {
      CLI_O_INT("random-pairs", &random_pairs, 10, 100000000, "N", "20000",
                "game pairs of random players for each feed measurement"),
      CLI_O_INT("pairs", &pairs, 1, 1000000, "M", "48",
                "game pairs of minimax for each efficiency measurement"),
      CLI_O_INT("depth", &depth, 1, 30, "D", "8", "the minimax depth"),
      CLI_O_INT("repeat", &repeat, 1, 101, "R", "3", "runs of each measurement: the best counts"),
      CLI_O_FLAG("json", &json, "print one JSON object (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, mpi_usage, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  if (!runner_mpi_compiled())
    return cli_error(cmd, "MPI was not compiled in (build with Open MPI: libopenmpi-dev, -DOWARE_MPI=ON)"),
           CLI_EXIT_FAIL;
  mpi_figures f = {.n = runner_mpi_size()};
  if (f.n < 2)
    return cli_error(cmd, "run it under mpirun with 2 ranks or more: mpirun --oversubscribe -np 4 "
                          "oware bench mpi"),
           CLI_EXIT_USAGE;
  double *arrays = calloc(4 * ((size_t)f.n + 1), sizeof *arrays);
  if (!arrays) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  f.feed = arrays;
  f.feed_cpu = f.feed + f.n + 1;
  f.eff = f.feed_cpu + f.n + 1;
  f.control = f.eff + f.n + 1;
  rc = bench_ranks(cmd, &f, random_pairs, pairs, depth, json);
  free(arrays);
  return rc;
}
