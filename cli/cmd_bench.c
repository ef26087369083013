/* cmd_bench.c: `oware bench`: speed measurements with fixed seeds (one thread, but for smp and arena). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/json.h"
#include "cli/options.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/game.h"
#include "core/perft.h"
#include "store/store.h"
#include "run/tournament.h"
#include "core/notation.h"
#include "core/rng.h"
#include "players/player.h"

/* Plays `games` random games under v from `seed`; returns the plies played. */
static long long random_games(const variant *v, long long games, uint64_t seed) {
  rng r;
  game g;
  long long plies = 0;
  rng_seed(&r, seed);
  if (game_init(&g, v, NULL)) return -1;
  for (long long i = 0; i < games; i++) {
    if (i) {
      game_free(&g);
      if (game_init(&g, v, NULL)) return -1;
    }
    while (g.end == BOARD_END_NONE) {
      if (game_play(&g, rng_pick_bit(&r, g.legal))) {
        game_free(&g);
        return -1;
      }
    }
    plies += g.plies;
  }
  game_free(&g);
  return plies;
}

/* The yardstick: a plain C random-playout loop for abapa alone (6 houses,
 * 4 seeds, feeding, laps, grand slam capturing nothing, majority, no
 * repetition rule, no key), as anyone would write it. Returns the plies. */
static long long plain_games(long long games, uint64_t seed) {
  rng r;
  long long plies = 0;
  rng_seed(&r, seed);
  for (long long g = 0; g < games; g++) {
    int p[12], st[2] = {0, 0}, side = 0;
    for (int i = 0; i < 12; i++) p[i] = 4;
    for (int ply = 0; ply < 1000; ply++) {
      int base = side * 6, ob = 6 - base, opp = 0, mv[6], n = 0;
      for (int i = 0; i < 6; i++) opp += p[ob + i];
      for (int i = 0; i < 6; i++)
        if (p[base + i] && (opp || p[base + i] >= 6 - i)) mv[n++] = base + i;
      if (!n) break;
      int m = mv[rng_below(&r, (uint32_t)n)], c = p[m], q = m;
      p[m] = 0;
      while (c) {
        if (++q == 12) q = 0;
        if (q == m) continue;
        p[q]++;
        c--;
      }
      if (q >= ob && q < ob + 6) {
        int t = 0, k = q, rest = 0;
        while (k >= ob && (p[k] == 2 || p[k] == 3)) t += p[k--];
        for (int i = 0; i < 6; i++) rest += p[ob + i];
        if (t && t != rest) {
          for (int i = k + 1; i <= q; i++) p[i] = 0;
          st[side] += t;
        }
      }
      side ^= 1;
      plies++;
      if (st[0] > 24 || st[1] > 24) break;
    }
  }
  return plies;
}

static const char core_usage[] =
    "usage: oware bench core [options]\n"
    "Plays N random games from a fixed seed on one thread under the full rules\n"
    "(legal moves, captures, repetition and ply limit), R times, and prints the\n"
    "median plies per second and games per second; each run is paired with a run\n"
    "of a plain C playout loop for abapa alone (no key, no repetition rule), the\n"
    "yardstick, and the ratio of medians is printed; then times perft D from the\n"
    "start position, R times. --json: one JSON object instead (docs/JSON.md).\n";

static int bench_core(int argc, char **argv) {
  const char *cmd = "bench core", *vtext;
  long long games, repeat, pdepth;
  int nargs, rc, json = 0;
  cli_option opts[] = {
      CLI_O_TEXT("variant", &vtext, "V", "abapa", "rule variant of the games"),
      CLI_O_INT("games", &games, 1, 100000000, "N", "100000", "random games a run"),
      CLI_O_INT("repeat", &repeat, 1, 101, "R", "5", "runs"),
      CLI_O_INT("perft", &pdepth, 0, 14, "D", "9", "perft depth timed"),
      CLI_O_FLAG("json", &json, "print one JSON object (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, core_usage, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  variant v;
  if (cli_variant(cmd, vtext, &v)) return CLI_EXIT_USAGE;
  if (!v.repetition && !v.max_plies)
    return cli_error(cmd, "with repetition=0 and max_plies=0 a random game may never end");
  double *pps = malloc((size_t)repeat * sizeof *pps), *gps = malloc((size_t)repeat * sizeof *gps);
  double *pt = malloc((size_t)repeat * sizeof *pt);
  double *plain = malloc((size_t)repeat * sizeof *plain);
  if (!pps || !gps || !pt || !plain) return CLI_EXIT_FAIL;
  long long plies = 0;
  for (long long k = 0; k < repeat; k++) {
    double t0 = clock_now();
    plies = random_games(&v, games, 0xbe7c4ULL);
    double t = clock_now() - t0;
    if (plies < 0) return cli_error(cmd, "out of memory");
    pps[k] = (double)plies / t;
    gps[k] = (double)games / t;
    t0 = clock_now();
    long long pp = plain_games(games, 0xbe7c4ULL);
    plain[k] = (double)pp / (clock_now() - t0);
  }
  qsort(plain, (size_t)repeat, sizeof *plain, cli_cmp_double);
  qsort(pps, (size_t)repeat, sizeof *pps, cli_cmp_double);
  qsort(gps, (size_t)repeat, sizeof *gps, cli_cmp_double);
  char vname[160];
  variant_format(&v, vname, sizeof vname);
  uint64_t n = 0;
  if (pdepth > 0) {
    board b;
    board_start(&b, &v);
    for (long long k = 0; k < repeat; k++) {
      double t0 = clock_now();
      n = perft_count(&b, &v, (int)pdepth);
      pt[k] = clock_now() - t0;
    }
    qsort(pt, (size_t)repeat, sizeof *pt, cli_cmp_double);
  }
  const double mpps = pps[repeat / 2], mplain = plain[repeat / 2];
  const double mpt = pdepth > 0 ? pt[repeat / 2] : 0;
  if (json) {
    cli_json_out o, q;
    cli_json_open(&o, stdout, '{');
    cli_json_str_at(&o, "bench", "core");
    cli_json_str_at(&o, "variant", vname);
    cli_json_num_at(&o, "games", (double)games);
    cli_json_num_at(&o, "plies", (double)plies);
    cli_json_num_at(&o, "repeat", (double)repeat);
    cli_json_num_at(&o, "plies_per_s", mpps);
    cli_json_num_at(&o, "games_per_s", gps[repeat / 2]);
    cli_json_num_at(&o, "plain_plies_per_s", mplain);
    cli_json_num_at(&o, "ratio", mpps / mplain);
    cli_json_key(&o, "perft");
    if (pdepth > 0) {
      cli_json_open(&q, stdout, '{');
      cli_json_num_at(&q, "depth", (double)pdepth);
      cli_json_num_at(&q, "leaves", (double)n);
      cli_json_num_at(&q, "seconds", mpt);
      cli_json_num_at(&q, "leaves_per_s", (double)n / mpt);
      cli_json_close(&q);
    } else {
      fputs("null", stdout);
    }
    cli_json_close(&o);
    putchar('\n');
  } else {
    printf("variant %s\n", vname);
    printf("random games %lld, plies %lld (%.1f a game), median of %lld runs\n", games, plies,
           (double)plies / (double)games, repeat);
    printf("plies/s %.0f\n", mpps);
    printf("games/s %.0f\n", gps[repeat / 2]);
    printf("plain-loop plies/s %.0f (abapa only, no key, no repetition)\n", mplain);
    printf("ratio %.2f of the plain loop\n", mpps / mplain);
    if (pdepth > 0)
      printf("perft %lld %llu in %.3f s (median), %.0f leaves/s\n", pdepth, (unsigned long long)n,
             mpt, (double)n / mpt);
  }
  free(pps);
  free(gps);
  free(pt);
  free(plain);
  return CLI_EXIT_OK;
}

/* The bench positions: the start and eight middle games of abapa reached by
 * random play (fixed, so that the node count is a signature of the search). */
static const char *const bench_positions[] = {
    "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",  "0-3-0-14-2-9-2-3-4-0-1-0-0-10-S",
    "10-2-2-1-0-12-4-8-8-1-0-0-0-0-N", "6-0-3-8-2-0-1-10-8-0-8-0-2-0-N",
    "4-0-6-1-0-2-12-0-5-3-7-3-2-3-N",  "0-9-1-7-3-2-2-2-0-3-3-6-3-7-S",
    "0-8-0-8-0-1-1-3-2-9-9-0-2-5-N",   "1-12-1-2-1-1-3-1-2-0-1-2-19-2-S",
    "4-0-0-9-0-3-8-7-1-0-6-10-0-0-N",  NULL};

#define BENCH_DEPTH 12
#define BENCH_DEPTH_TEXT "12" /* the same, for the help */

/* One bench position's search. */
typedef struct bench_position {
  int move, score;
  long long nodes;
  double seconds;
} bench_position;

/* Searches every bench position with spec at depth; returns the total nodes
 * and the seconds taken, or -1 after printing an error. each (NULL: not
 * wanted) receives each position's search. */
static long long bench_minimax(const char *cmd, const char *spec, int depth, double *secs,
                               bench_position *each) {
  char err[ERROR_MAX];
  player *p = player_create(spec, err, sizeof err);
  if (!p) {
    cli_error(cmd, "%s", err);
    return -1;
  }
  variant v;
  variant_default(&v);
  long long total = 0;
  *secs = 0;
  for (int i = 0; bench_positions[i]; i++) {
    board b;
    game g;
    if (notation_parse_position(bench_positions[i], &v, &b, err, sizeof err) ||
        game_init(&g, &v, &b)) {
      cli_error(cmd, "bench position %d: %s", i + 1, err);
      player_free(p);
      return -1;
    }
    player_limits lim = {.depth = depth};
    player_info info;
    int m;
    player_new_game(p, &v, 0, err, sizeof err);
    double t0 = clock_now();
    player_status st = player_choose(p, &g, &lim, &m, &info, err, sizeof err);
    double t = clock_now() - t0;
    game_free(&g);
    if (st != PLAYER_OK) {
      cli_error(cmd, "%s", err);
      player_free(p);
      return -1;
    }
    *secs += t;
    total += info.nodes;
    if (each) each[i] = (bench_position){m, info.score, info.nodes, t};
  }
  player_free(p);
  return total;
}

static const char search_usage[] =
    "usage: oware bench search [options]\n"
    "On one thread: minimax (default settings, hash 16 MiB, egdb=off) searches the nine\n"
    "bench positions to depth D; prints the total node count (the signature of\n"
    "the search: it changes only when the search does) and the median nodes per\n"
    "second of R runs; the depth minimax completes within 1 s from the start\n"
    "position; and MCTS playouts per second from the start position (N playouts\n"
    "a move), then its iterations per second with the built-in network at the\n"
    "leaves (eval=net) in place of playouts.\n"
    "--eval E,E,...: instead, the evaluations side by side (auto, the default; linear;\n"
    "net; or a network file of oware tune net): for each, the node count at depth D, the median nodes per\n"
    "second and time to depth D of R runs, and the depth in 1 s from the start.\n"
    "--settings S;S;...: the same for minimax settings (each a list of name=value, as\n"
    "after \"minimax:\", e.g. \";rfp=0\": empty, the defaults, shown as (defaults)).\n"
    "--json: one JSON object instead (docs/JSON.md).\n";

/* One move of spec from abapa's start within lim: its info and the wall
 * seconds it took; -1 after printing an error. */
static int move_from_start(const char *cmd, const char *spec, const player_limits *lim,
                           player_info *info, double *seconds) {
  char err[ERROR_MAX];
  variant v;
  variant_default(&v);
  game g;
  if (game_init(&g, &v, NULL)) return -1;
  player *p = player_create(spec, err, sizeof err);
  if (!p) {
    game_free(&g);
    return cli_error(cmd, "%s", err), -1;
  }
  player_limits l = *lim;
  int m;
  double t0 = clock_now();
  player_status st = player_choose(p, &g, &l, &m, info, err, sizeof err);
  *seconds = clock_now() - t0;
  player_free(p);
  game_free(&g);
  return st != PLAYER_OK ? (cli_error(cmd, "%s", err), -1) : 0;
}

/* The depth minimax (spec) completes in 1 s from the start, with its nodes
 * per second; -1 after printing an error. */
static int depth_in_one_second(const char *cmd, const char *spec, double *nps) {
  player_limits lim = {.movetime_ms = 1000};
  player_info info;
  double t;
  if (move_from_start(cmd, spec, &lim, &info, &t)) return -1;
  *nps = (double)info.nodes / t;
  return info.depth;
}

/* --eval (settings 0: a list of evaluations, by commas) or --settings (1:
 * of minimax settings, by semicolons): each item's nodes, nodes/s, time to
 * depth and depth in 1 s, a line each (the runs of all items interleaved,
 * so that a change in the machine's load falls on all of them). */
static int bench_side_by_side(const char *cmd, const char *list, int settings, int depth,
                              int repeat, int json) {
  char specs[8][640], names[8][512];
  int n = 0;
  const char *sep = settings ? ";" : ",";
  for (const char *p = list; *p && n < 8; n++) {
    size_t l = strcspn(p, sep);
    snprintf(names[n], sizeof names[n], "%.*s", (int)(l < 511 ? l : 511), p);
    /* The bench sets the search's limits itself (--depth, then 1 s): a
     * setting of its own would measure another search under its label. */
    static const char *const limits[] = {"depth", "nodes", "movetime", "tc", NULL};
    for (const char *q = names[n]; settings && *q; q += strcspn(q, ","), q += *q == ',')
      for (int k = 0; limits[k]; k++) {
        size_t kl = strlen(limits[k]);
        if (!strncmp(q, limits[k], kl) && q[kl] == '=')
          return cli_error(cmd, "--settings '%s': %s= is the bench's own (--depth, then 1 s a move); "
                           "settings are the search's other options", names[n], limits[k]);
      }
    /* settings after egdb=off: a later name replaces an earlier one */
    snprintf(specs[n], sizeof specs[n], "minimax:egdb=off%s%.511s",
             !settings ? ",eval=" : names[n][0] ? "," : "", names[n]);
    p += l + (p[l] == *sep);
  }
  double secs[8][101], nps[8][101];
  long long nodes[8];
  for (int k = 0; k < repeat; k++)
    for (int e = 0; e < n; e++) {
      nodes[e] = bench_minimax(cmd, specs[e], depth, &secs[e][k], NULL);
      if (nodes[e] < 0) return CLI_EXIT_FAIL;
      nps[e][k] = (double)nodes[e] / secs[e][k];
    }
  int d1[8];
  double one_nps[8];
  for (int e = 0; e < n; e++) {
    if ((d1[e] = depth_in_one_second(cmd, specs[e], &one_nps[e])) < 0) return CLI_EXIT_FAIL;
    qsort(secs[e], (size_t)repeat, sizeof(double), cli_cmp_double);
    qsort(nps[e], (size_t)repeat, sizeof(double), cli_cmp_double);
  }
  if (json) {
    cli_json_out o, a, q;
    cli_json_open(&o, stdout, '{');
    cli_json_str_at(&o, "bench", settings ? "search settings" : "search eval");
    cli_json_num_at(&o, "depth", depth);
    cli_json_num_at(&o, "repeat", repeat);
    cli_json_key(&o, "rows");
    cli_json_open(&a, stdout, '[');
    for (int e = 0; e < n; e++) {
      cli_json_item(&a);
      cli_json_open(&q, stdout, '{');
      cli_json_str_at(&q, settings ? "settings" : "eval", names[e]);
      cli_json_str_at(&q, "spec", specs[e]);
      cli_json_num_at(&q, "nodes", (double)nodes[e]);
      cli_json_num_at(&q, "nodes_per_s", nps[e][repeat / 2]);
      cli_json_num_at(&q, "seconds", secs[e][repeat / 2]);
      cli_json_num_at(&q, "depth_in_1s", d1[e]);
      cli_json_close(&q);
    }
    cli_json_close(&a);
    cli_json_close(&o);
    putchar('\n');
    return CLI_EXIT_OK;
  }
  printf("%-24s %12s %12s %14s %12s\n", settings ? "settings" : "eval", "nodes", "nodes/s",
         "s to depth", "depth in 1s");
  for (int e = 0; e < n; e++)
    printf("%-24s %12lld %12.0f %14.4f %12d\n", names[e][0] ? names[e] : "(defaults)", nodes[e],
           nps[e][repeat / 2], secs[e][repeat / 2], d1[e]);
  printf("(depth %d, median of %d runs; nodes/s and seconds over the nine bench positions)\n",
         depth, repeat);
  return CLI_EXIT_OK;
}

static int bench_search(int argc, char **argv) {
  const char *cmd = "bench search";
  long long depth, repeat, playouts;
  int nodes_only = 0, json = 0, nargs, rc;
  const char *evals = NULL, *settings = NULL;
  cli_option opts[] = {
      CLI_O_INT("depth", &depth, 1, 30, "D", BENCH_DEPTH_TEXT, "search depth"),
      CLI_O_INT("repeat", &repeat, 1, 101, "R", "3", "runs"),
      CLI_O_INT("mcts-playouts", &playouts, 1, 100000000, "N", "50000", "MCTS playouts a move"),
      CLI_O_FLAG("nodes-only", &nodes_only, "print the node count alone (for the signature test)"),
      CLI_O_TEXT("eval", &evals, "E,E,...", NULL,
                 "compare evaluations side by side (linear or network files, at most 8)"),
      CLI_O_TEXT("settings", &settings, "S;S;...", NULL,
                 "compare minimax settings side by side (at most 8)"),
      CLI_O_FLAG("json", &json, "print one JSON object (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, search_usage, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  if (evals && settings) return cli_error(cmd, "--eval and --settings: give one"), CLI_EXIT_USAGE;
  if (json && nodes_only) return cli_error(cmd, "--json and --nodes-only: give one"), CLI_EXIT_USAGE;
  if (evals) return bench_side_by_side(cmd, evals, 0, (int)depth, (int)repeat, json);
  if (settings) return bench_side_by_side(cmd, settings, 1, (int)depth, (int)repeat, json);
  double secs;
  if (nodes_only) {
    long long n = bench_minimax(cmd, "minimax:egdb=off", (int)depth, &secs, NULL);
    if (n < 0) return CLI_EXIT_FAIL;
    printf("%lld\n", n);
    return CLI_EXIT_OK;
  }
  double *nps = malloc((size_t)repeat * sizeof *nps);
  if (!nps) return CLI_EXIT_FAIL;
  long long nodes = 0;
  bench_position each[sizeof bench_positions / sizeof *bench_positions];
  for (long long k = 0; k < repeat; k++) {
    nodes = bench_minimax(cmd, "minimax:egdb=off", (int)depth, &secs, k == 0 ? each : NULL);
    if (nodes < 0) {
      free(nps);
      return CLI_EXIT_FAIL;
    }
    nps[k] = (double)nodes / secs;
  }
  qsort(nps, (size_t)repeat, sizeof *nps, cli_cmp_double);
  const double mnps = nps[repeat / 2];
  free(nps);

  /* The depth completed within 1 s from the start (movetime 1000 ms), then
   * MCTS with playouts and with the network at its leaves. */
  player_limits second = {.movetime_ms = 1000}, none = {0};
  player_info one, pl, net;
  double t1, tp, tn;
  char pspec[64], nspec[64];
  snprintf(pspec, sizeof pspec, "mcts:playouts=%lld,egdb=off", playouts);
  snprintf(nspec, sizeof nspec, "mcts:playouts=%lld,egdb=off,eval=net", playouts);
  if (move_from_start(cmd, "minimax:egdb=off", &second, &one, &t1) ||
      move_from_start(cmd, pspec, &none, &pl, &tp) || move_from_start(cmd, nspec, &none, &net, &tn))
    return CLI_EXIT_FAIL;
  variant v;
  variant_default(&v);
  if (json) {
    cli_json_out o, a, q;
    cli_json_open(&o, stdout, '{');
    cli_json_str_at(&o, "bench", "search");
    cli_json_num_at(&o, "depth", (double)depth);
    cli_json_num_at(&o, "repeat", (double)repeat);
    cli_json_num_at(&o, "nodes", (double)nodes);
    cli_json_num_at(&o, "nodes_per_s", mnps);
    cli_json_key(&o, "positions");
    cli_json_open(&a, stdout, '[');
    for (int i = 0; bench_positions[i]; i++) {
      char best[2] = {notation_move_letter(&v, each[i].move), 0};
      cli_json_item(&a);
      cli_json_open(&q, stdout, '{');
      cli_json_str_at(&q, "position", bench_positions[i]);
      cli_json_str_at(&q, "best", best);
      cli_json_num_at(&q, "score", each[i].score);
      cli_json_num_at(&q, "nodes", (double)each[i].nodes);
      cli_json_num_at(&q, "seconds", each[i].seconds);
      cli_json_close(&q);
    }
    cli_json_close(&a);
    cli_json_key(&o, "one_second");
    cli_json_open(&q, stdout, '{');
    cli_json_num_at(&q, "depth", one.depth);
    cli_json_num_at(&q, "nodes", (double)one.nodes);
    cli_json_num_at(&q, "nodes_per_s", (double)one.nodes / t1);
    cli_json_close(&q);
    cli_json_key(&o, "mcts");
    cli_json_open(&q, stdout, '{');
    cli_json_num_at(&q, "playouts", (double)pl.playouts);
    cli_json_num_at(&q, "seconds", tp);
    cli_json_num_at(&q, "playouts_per_s", (double)pl.playouts / tp);
    cli_json_num_at(&q, "net_iterations", (double)net.playouts);
    cli_json_num_at(&q, "net_seconds", tn);
    cli_json_num_at(&q, "net_iterations_per_s", (double)net.playouts / tn);
    cli_json_close(&q);
    cli_json_close(&o);
    putchar('\n');
    return CLI_EXIT_OK;
  }
  for (int i = 0; bench_positions[i]; i++)
    printf("position %d %-34s best %c score %6d nodes %10lld %.3f s\n", i + 1, bench_positions[i],
           notation_move_letter(&v, each[i].move), each[i].score, each[i].nodes, each[i].seconds);
  printf("minimax depth %lld: nodes %lld\n", depth, nodes);
  printf("minimax nodes/s %.0f (median of %lld)\n", mnps, repeat);
  printf("minimax depth in 1 s from the start: %d (%lld nodes, %.0f nodes/s)\n", one.depth,
         one.nodes, (double)one.nodes / t1);
  printf("mcts playouts/s %.0f (%lld playouts from the start in %.3f s)\n",
         (double)pl.playouts / tp, pl.playouts, tp);
  printf("mcts eval=net iterations/s %.0f (%lld iterations from the start in %.3f s)\n",
         (double)net.playouts / tn, net.playouts, tn);
  return CLI_EXIT_OK;
}

static const char smp_usage[] =
    "usage: oware bench smp [options]\n"
    "minimax (default settings, hash 16 MiB, egdb=off) searches the nine bench positions to\n"
    "depth D with threads=T for each T of the list, R times, the thread counts in\n"
    "turn within a run (so that they share the machine's load alike). Prints, for\n"
    "each T, the median time to depth D over the nine positions, the median nodes\n"
    "per second of all threads together, and the speed-up in time to depth over\n"
    "the first T of the list; the cores the process got (CPU time over wall\n"
    "time: below T, the machine's other work took the rest) and the CPU time\n"
    "(all threads). Searches with T > 1 are not reproducible: the node\n"
    "counts change from run to run. --json: one JSON object instead (docs/JSON.md).\n";

#define SMP_MAX 8 /* thread counts in the list */

/* "1,2,4" into t[]; the count, or -1 after printing an error. */
static int parse_thread_list(const char *cmd, const char *text, int t[SMP_MAX]) {
  int n = 0;
  const char *p = text;
  for (;;) {
    char *end;
    long x = strtol(p, &end, 10);
    if (end == p || x < 1 || x > 64 || (*end && *end != ',')) {
      cli_error(cmd, "--threads '%s': expected thread counts from 1 to 64 separated by commas",
                text);
      return -1;
    }
    if (n == SMP_MAX) {
      cli_error(cmd, "--threads '%s': at most %d thread counts", text, SMP_MAX);
      return -1;
    }
    t[n++] = (int)x;
    if (!*end) return n;
    p = end + 1;
  }
}

static int bench_smp(int argc, char **argv) {
  const char *cmd = "bench smp", *list;
  long long depth, repeat;
  int nargs, rc, json = 0;
  cli_option opts[] = {
      CLI_O_TEXT("threads", &list, "T,T...", "1,2", "thread counts compared"),
      CLI_O_INT("depth", &depth, 1, 30, "D", "16", "search depth"),
      CLI_O_INT("repeat", &repeat, 1, 101, "R", "3", "runs"),
      CLI_O_FLAG("json", &json, "print one JSON object (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, smp_usage, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  int t[SMP_MAX];
  int nt = parse_thread_list(cmd, list, t);
  if (nt < 0) return CLI_EXIT_USAGE;
  double secs[SMP_MAX][101], nps[SMP_MAX][101], cores[SMP_MAX][101], cpu[SMP_MAX][101];
  for (long long k = 0; k < repeat; k++)
    for (int i = 0; i < nt; i++) {
      char mspec[64];
      snprintf(mspec, sizeof mspec, "minimax:threads=%d,egdb=off", t[i]);
      clock_t c0 = clock();
      long long nodes = bench_minimax(cmd, mspec, (int)depth, &secs[i][k], NULL);
      if (nodes < 0) return CLI_EXIT_FAIL;
      nps[i][k] = (double)nodes / secs[i][k];
      cpu[i][k] = (double)(clock() - c0) / CLOCKS_PER_SEC;
      cores[i][k] = cpu[i][k] / secs[i][k];
    }
  cli_json_out o, a, q;
  if (json) {
    cli_json_open(&o, stdout, '{');
    cli_json_str_at(&o, "bench", "smp");
    cli_json_num_at(&o, "depth", (double)depth);
    cli_json_num_at(&o, "repeat", (double)repeat);
    cli_json_key(&o, "threads");
    cli_json_open(&a, stdout, '[');
  } else {
    printf("minimax, 9 positions to depth %lld, medians of %lld runs:\n", depth, repeat);
  }
  double base = 0;
  for (int i = 0; i < nt; i++) {
    qsort(secs[i], (size_t)repeat, sizeof secs[i][0], cli_cmp_double);
    qsort(nps[i], (size_t)repeat, sizeof nps[i][0], cli_cmp_double);
    qsort(cores[i], (size_t)repeat, sizeof cores[i][0], cli_cmp_double);
    qsort(cpu[i], (size_t)repeat, sizeof cpu[i][0], cli_cmp_double);
    double sec = secs[i][repeat / 2];
    if (i == 0) base = sec;
    if (json) {
      cli_json_item(&a);
      cli_json_open(&q, stdout, '{');
      cli_json_num_at(&q, "threads", t[i]);
      cli_json_num_at(&q, "seconds", sec);
      cli_json_num_at(&q, "nodes_per_s", nps[i][repeat / 2]);
      cli_json_num_at(&q, "speedup", base / sec);
      cli_json_num_at(&q, "cores_used", cores[i][repeat / 2]);
      cli_json_num_at(&q, "cpu_seconds", cpu[i][repeat / 2]);
      cli_json_close(&q);
    } else {
      printf("threads %2d: %.3f s to depth %lld, %.0f nodes/s, speed-up %.2f, cores used %.2f, "
             "CPU %.3f s\n",
             t[i], sec, depth, nps[i][repeat / 2], base / sec, cores[i][repeat / 2],
             cpu[i][repeat / 2]);
    }
  }
  if (json) {
    cli_json_close(&a);
    cli_json_close(&o);
    putchar('\n');
  }
  return CLI_EXIT_OK;
}

/* Plays a tournament into a fresh temporary database; returns games/s. */
static double bench_tournament(const char *cmd, const char *players, const char *format,
                               int threads, long long *games) {
  char dir[] = "/tmp/oware-bench-XXXXXX", path[64], err[ERROR_MAX];
  if (!mkdtemp(dir)) {
    cli_error(cmd, "cannot make a temporary folder");
    return -1;
  }
  snprintf(path, sizeof path, "%s/bench.db", dir);
  tournament *t = calloc(1, sizeof *t);
  store *db = NULL;
  double rate = -1;
  if (!t) goto out;
  store_run *r = &t->run;
  char list[1024];
  snprintf(list, sizeof list, "%s", players);
  int oom = 0;
  for (char *save = NULL, *tok = strtok_r(list, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
    char pname[16];
    snprintf(pname, sizeof pname, "p%d", r->nplayers);
    oom |= store_run_add_player(r, pname, tok);
  }
  r->kind = STORE_ROUND_ROBIN;
  oom |= store_run_add_variant(r, "abapa") || store_run_set(&r->format, format) ||
         store_run_set(&r->openings, "random:2") || store_run_set(&r->name, "bench");
  if (oom) goto out;
  r->rounds = 1;
  r->threads = threads;
  r->seed = 1;
  atomic_int stop;
  atomic_init(&stop, 0);
  if (tournament_prepare(t, err, sizeof err) || store_open(path, 1, &db, err, sizeof err) ||
      store_run_create(db, r, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  double t0 = clock_now();
  if (tournament_play(t, db, &stop, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  double el = clock_now() - t0;
  *games = store_games_count(db, r->id);
  rate = (double)*games / el;
out:
  if (db) store_close(db);
  if (t) tournament_free(t);
  free(t);
  cli_remove_scratch_db(path, dir);
  return rate;
}

static const char arena_usage[] =
    "usage: oware bench arena [options]\n"
    "1. The same tournament (4 minimax players, depth 6, 288 games) with 1 thread\n"
    "   and with 2, R times each, side by side: median games/s and the ratio\n"
    "   (threads pay off when it is close to 2).\n"
    "2. The store: a round robin of 5 random players, N games in all, on 2\n"
    "   threads, every game stored with its moves: games/s end to end.\n"
    "--json: one JSON object instead (docs/JSON.md).\n";

static int bench_arena(int argc, char **argv) {
  const char *cmd = "bench arena";
  long long repeat, random_games;
  int nargs, rc, json = 0;
  cli_option opts[] = {
      CLI_O_INT("repeat", &repeat, 1, 101, "R", "3", "runs of the tournament on 1 and 2 threads"),
      CLI_O_INT("random-games", &random_games, 20, 10000000, "N", "20000",
                "games of the store benchmark"),
      CLI_O_FLAG("json", &json, "print one JSON object (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, arena_usage, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  const char *mm = "minimax:depth=6,egdb=off,name=a;minimax:depth=6,egdb=off,noise=1,name=b;"
                   "minimax:depth=6,egdb=off,noise=2,name=c;minimax:depth=6,egdb=off,noise=3,name=d";
  double one[101], two[101];
  long long games = 0;
  for (long long k = 0; k < repeat; k++) {
    one[k] = bench_tournament(cmd, mm, "games:48", 1, &games);
    two[k] = bench_tournament(cmd, mm, "games:48", 2, &games);
    if (one[k] < 0 || two[k] < 0) return CLI_EXIT_FAIL;
  }
  qsort(one, (size_t)repeat, sizeof *one, cli_cmp_double);
  qsort(two, (size_t)repeat, sizeof *two, cli_cmp_double);
  const long long mm_games = games;
  char format[32];
  snprintf(format, sizeof format, "games:%lld", random_games / 10);
  long long stored = 0;
  double rate = bench_tournament(cmd, "random;random:seed=2;random:seed=3;random:seed=4;random:seed=5",
                                 format, 2, &stored);
  if (rate < 0) return CLI_EXIT_FAIL;
  if (json) {
    cli_json_out o, q;
    cli_json_open(&o, stdout, '{');
    cli_json_str_at(&o, "bench", "arena");
    cli_json_num_at(&o, "repeat", (double)repeat);
    cli_json_key(&o, "minimax");
    cli_json_open(&q, stdout, '{');
    cli_json_num_at(&q, "games", (double)mm_games);
    cli_json_num_at(&q, "games_per_s_1_thread", one[repeat / 2]);
    cli_json_num_at(&q, "games_per_s_2_threads", two[repeat / 2]);
    cli_json_num_at(&q, "ratio", two[repeat / 2] / one[repeat / 2]);
    cli_json_close(&q);
    cli_json_key(&o, "store");
    cli_json_open(&q, stdout, '{');
    cli_json_num_at(&q, "games", (double)stored);
    cli_json_num_at(&q, "threads", 2);
    cli_json_num_at(&q, "games_per_s", rate);
    cli_json_close(&q);
    cli_json_close(&o);
    putchar('\n');
    return CLI_EXIT_OK;
  }
  printf("minimax tournament (%lld games): 1 thread %.1f games/s, 2 threads %.1f games/s, "
         "ratio %.2f (medians of %lld)\n",
         mm_games, one[repeat / 2], two[repeat / 2], two[repeat / 2] / one[repeat / 2], repeat);
  printf("random round robin, %lld games stored with their moves, 2 threads: %.0f games/s\n",
         stored, rate);
  return CLI_EXIT_OK;
}

static const char bench_help[] =
    "usage: oware bench core|search|smp|arena|egdb|mpi|adjudicate [options]   (see 'oware bench core "
    "--help')\n";

int cli_bench(int argc, char **argv) {
  if (argc == 0 || cli_is_help(argv[0])) {
    fputs(bench_help, argc ? stdout : stderr);
    return argc ? CLI_EXIT_OK : CLI_EXIT_USAGE;
  }
  if (!strcmp(argv[0], "core")) return bench_core(argc - 1, argv + 1);
  if (!strcmp(argv[0], "search")) return bench_search(argc - 1, argv + 1);
  if (!strcmp(argv[0], "smp")) return bench_smp(argc - 1, argv + 1);
  if (!strcmp(argv[0], "arena")) return bench_arena(argc - 1, argv + 1);
  if (!strcmp(argv[0], "egdb")) return cli_bench_egdb(argc - 1, argv + 1);
  if (!strcmp(argv[0], "mpi")) return cli_bench_mpi(argc - 1, argv + 1);
  if (!strcmp(argv[0], "adjudicate")) return cli_bench_adjudicate(argc - 1, argv + 1);
  return cli_error("bench",
                   "unknown benchmark '%s'; available: core, search, smp, arena, egdb, mpi, adjudicate",
                   argv[0]);
}
