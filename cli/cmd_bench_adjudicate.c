/* cmd_bench_adjudicate.c: `oware bench adjudicate`: one round robin played out and the same adjudicated by the endgame tables, side by side: wall and CPU time, the games the tables ended, both runs' ratings with their intervals. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "run/tournament.h"
#include "store/rating_store.h"
#include "store/store.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "cli/options.h"

static const char adjudicate_usage[] =
    "usage: oware bench adjudicate [options]\n"
    "The same round robin (players, openings and seeds) played out and with\n"
    "--adjudicate egdb, R times each in turn (build the tables first, e.g.\n"
    "'oware egdb build --seeds 16'; --tables DIR reads another folder): the\n"
    "median wall and CPU seconds of each and their ratios, the plies played, the\n"
    "games the tables ended, then each player's Elo with its 95% interval in\n"
    "both runs (pool average 0) and whether the two intervals overlap. Give\n"
    "exact players (fixed depth or playouts, one search thread): each run then\n"
    "plays the same games every time. --json: one JSON object instead (docs/JSON.md).\n";

#define DEFAULT_PLAYERS                                                                    \
  "minimax:depth=3,egdb=off,name=mm3;minimax:depth=5,egdb=off,name=mm5;"                   \
  "mcts:playouts=1000,egdb=off,name=mcts1k;greedy:name=greedy"

typedef struct bench_args {
  const char *players, *tables;
  long long games, threads, repeat, seed;
} bench_args;

/* One run's figures. */
typedef struct bench_run {
  double wall, cpu;
  long long games, plies, adjudicated;
  rating_result res; /* of the last run */
} bench_run;

static int add_plies(void *ctx, const store_game *g) {
  *(long long *)ctx += g->plies;
  return 0;
}

/* What the store holds of run id: games, plies, games the tables ended,
 * the ratings. 0, or -1 with err. */
static int read_back(store *db, int64_t id, bench_run *out, char *err, size_t errlen) {
  long long ends[OUTCOME_NENDS];
  rating_pool pool;
  rating_options opt = {0};
  out->plies = out->games = 0;
  if (store_end_counts(db, &id, 1, NULL, ends, err, errlen) ||
      store_games_foreach(db, id, add_plies, &out->plies, err, errlen))
    return -1;
  for (int e = 0; e < OUTCOME_NENDS; e++) out->games += ends[e];
  out->adjudicated = ends[OUTCOME_ADJUDICATED_EGDB];
  rating_pool_init(&pool);
  rating_result_free(&out->res);
  int rc = rating_pool_load(&pool, db, &id, 1, NULL, err, errlen) ||
           rating_fit(&pool, &opt, &out->res, err, errlen);
  rating_pool_free(&pool);
  return rc ? -1 : 0;
}

/* Plays the round robin once into a temporary database (adjudicate: the
 * rules, or NULL), timed. 0, or -1 after an error. */
static int play_once(const char *cmd, const bench_args *a, const char *adjudicate, double *wall,
                     double *cpu, bench_run *out) {
  char dir[] = "/tmp/oware-bench-XXXXXX", path[64], err[ERROR_MAX], format[32];
  if (!mkdtemp(dir)) return cli_error(cmd, "cannot make a temporary folder"), -1;
  snprintf(path, sizeof path, "%s/bench.db", dir);
  snprintf(format, sizeof format, "games:%lld", a->games);
  tournament *t = calloc(1, sizeof *t);
  store *db = NULL;
  tournament_config c;
  int rc = -1;
  if (!t || settings_defaults(tournament_settings, &c, err, sizeof err)) goto out;
  c.players = a->players, c.format = format, c.seed = a->seed, c.adjudicate = adjudicate;
  c.name = adjudicate ? "bench adjudicated" : "bench played out";
  atomic_int stop;
  atomic_init(&stop, 0);
  if (tournament_describe(&c, a->players, (int)a->threads, "oware bench adjudicate", t, err,
                          sizeof err) ||
      store_open(path, 1, &db, err, sizeof err) || store_run_create(db, &t->run, err, sizeof err))
    goto out;
  double t0 = clock_now(), c0 = cli_cpu_seconds();
  if (tournament_play(t, db, &stop, err, sizeof err)) goto out;
  *wall = clock_now() - t0;
  *cpu = cli_cpu_seconds() - c0;
  rc = read_back(db, t->run.id, out, err, sizeof err);
out:
  if (rc) cli_error(cmd, "%s", t ? err : "out of memory");
  if (db) store_close(db);
  if (t) tournament_free(t);
  free(t);
  cli_remove_scratch_db(path, dir);
  return rc;
}

static double median(double *v, long long n) {
  qsort(v, (size_t)n, sizeof *v, cli_cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void print_run(const char *what, const bench_run *r) {
  printf("%-12s wall %8.1f s  CPU %8.1f s  %lld games, %lld plies", what, r->wall, r->cpu,
         r->games, r->plies);
  if (r->adjudicated) printf(", %lld ended by the tables", r->adjudicated);
  putchar('\n');
}

/* Whether two 95% intervals overlap. */
static int overlap(const rating_player *p, const rating_player *q) {
  return p->lo <= q->hi && q->lo <= p->hi;
}

/* 1 when every player's intervals in the two runs overlap (matched by name). */
static int all_overlap(const bench_run *played, const bench_run *adj) {
  for (int k = 0; k < played->res.n; k++)
    for (int i = 0; i < adj->res.n; i++)
      if (!strcmp(adj->res.player[i].name, played->res.player[k].name) &&
          !overlap(&played->res.player[k], &adj->res.player[i]))
        return 0;
  return 1;
}

/* Each player's Elo in both runs (matched by name), and whether the
 * intervals overlap. */
static void print_ratings(const bench_run *played, const bench_run *adj) {
  printf("\n%-24s %24s %24s  %s\n", "player", "played out (95%)", "adjudicated (95%)",
         "intervals overlap");
  for (int k = 0; k < played->res.n; k++) {
    const rating_player *p = &played->res.player[played->res.order[k]], *q = NULL;
    for (int i = 0; i < adj->res.n; i++)
      if (!strcmp(adj->res.player[i].name, p->name)) q = &adj->res.player[i];
    if (!q) continue;
    printf("%-24.24s %+9.1f [%+7.1f %+7.1f] %+9.1f [%+7.1f %+7.1f]  %s\n", p->name, p->elo,
           p->lo, p->hi, q->elo, q->lo, q->hi, overlap(p, q) ? "yes" : "NO");
  }
  printf("every player's intervals overlap: %s\n", all_overlap(played, adj) ? "yes" : "no");
}

/* A run's figures as a JSON object: wall, cpu, games, plies, adjudicated,
 * and its players' Elos (rank order). */
static void json_run(const bench_run *r) {
  cli_json_out o, a, q;
  cli_json_open(&o, stdout, '{');
  cli_json_num_at(&o, "wall_seconds", r->wall);
  cli_json_num_at(&o, "cpu_seconds", r->cpu);
  cli_json_num_at(&o, "games", (double)r->games);
  cli_json_num_at(&o, "plies", (double)r->plies);
  cli_json_num_at(&o, "adjudicated", (double)r->adjudicated);
  cli_json_key(&o, "players");
  cli_json_open(&a, stdout, '[');
  for (int k = 0; k < r->res.n; k++) {
    const rating_player *p = &r->res.player[r->res.order[k]];
    cli_json_item(&a);
    cli_json_open(&q, stdout, '{');
    cli_json_str_at(&q, "name", p->name);
    cli_json_num_at(&q, "elo", p->elo);
    cli_json_num_at(&q, "lo", p->lo);
    cli_json_num_at(&q, "hi", p->hi);
    cli_json_close(&q);
  }
  cli_json_close(&a);
  cli_json_close(&o);
}

int cli_bench_adjudicate(int argc, char **argv) {
  const char *cmd = "bench adjudicate";
  bench_args a;
  int nargs, rc, json = 0;
  cli_option opts[] = {
      CLI_O_TEXT("players", &a.players, "'SPEC;SPEC;...'", DEFAULT_PLAYERS, "the round robin"),
      CLI_O_INT("games", &a.games, 2, 100000, "N", "40", "games per pairing (games:N)"),
      CLI_O_INT("threads", &a.threads, 1, 256, "T", "1", "threads of each run"),
      CLI_O_INT("repeat", &a.repeat, 1, 101, "R", "1", "runs of each, in turn"),
      CLI_O_INT("seed", &a.seed, 0, INT64_MAX, "S", "1", "the round robin's seed"),
      CLI_O_TEXT("tables", &a.tables, "DIR", NULL,
                 "the endgame tables (default: the default folder, as egdb=auto)"),
      CLI_O_FLAG("json", &json, "print one JSON object (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, adjudicate_usage, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  char rules[4200];
  snprintf(rules, sizeof rules, "egdb%s%s", a.tables ? "=" : "", a.tables ? a.tables : "");
  double wall[2][101], cpu[2][101];
  bench_run run[2];
  memset(run, 0, sizeof run);
  rc = CLI_EXIT_OK;
  for (long long k = 0; k < a.repeat && rc == CLI_EXIT_OK; k++)
    for (int i = 0; i < 2 && rc == CLI_EXIT_OK; i++)
      if (play_once(cmd, &a, i ? rules : NULL, &wall[i][k], &cpu[i][k], &run[i]))
        rc = CLI_EXIT_FAIL;
  if (rc == CLI_EXIT_OK) {
    for (int i = 0; i < 2; i++) {
      run[i].wall = median(wall[i], a.repeat);
      run[i].cpu = median(cpu[i], a.repeat);
    }
    if (json) {
      cli_json_out o;
      cli_json_open(&o, stdout, '{');
      cli_json_str_at(&o, "bench", "adjudicate");
      cli_json_str_at(&o, "players", a.players);
      cli_json_num_at(&o, "games_per_pairing", (double)a.games);
      cli_json_num_at(&o, "threads", (double)a.threads);
      cli_json_num_at(&o, "repeat", (double)a.repeat);
      cli_json_key(&o, "played_out");
      json_run(&run[0]);
      cli_json_key(&o, "adjudicated");
      json_run(&run[1]);
      cli_json_num_at(&o, "wall_ratio", run[1].wall / run[0].wall);
      cli_json_num_at(&o, "cpu_ratio", run[1].cpu / run[0].cpu);
      cli_json_num_at(&o, "plies_ratio", (double)run[1].plies / (double)run[0].plies);
      cli_json_bool_at(&o, "intervals_overlap", all_overlap(&run[0], &run[1]));
      cli_json_close(&o);
      putchar('\n');
    } else {
      printf("round robin of %s, games:%lld, %lld thread(s), medians of %lld run(s) each\n",
             a.players, a.games, a.threads, a.repeat);
      print_run("played out", &run[0]);
      print_run("adjudicated", &run[1]);
      printf("adjudicated / played out: wall %.2f, CPU %.2f, plies %.2f\n",
             run[1].wall / run[0].wall, run[1].cpu / run[0].cpu,
             (double)run[1].plies / (double)run[0].plies);
      print_ratings(&run[0], &run[1]);
    }
    if (fflush(stdout)) rc = CLI_EXIT_FAIL;
  }
  for (int i = 0; i < 2; i++) rating_result_free(&run[i].res);
  return rc;
}
