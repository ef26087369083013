/* cmd_players.c: `oware players`, `oware weights` and `oware match`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "run/adjudicate.h"
#include "run/match.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/notation.h"
#include "core/rng.h"
#include "core/time_control.h"
#include "players/eval.h"
#include "players/level.h"
#include "players/player.h"

/* `oware players level`: what level:NAME takes, the default levels file and its levels. */
static int print_levels(void) {
  printf("level:NAME[,file=F][,name=N][,seed=S]\n"
         "  a difficulty level by name: the spec stored for NAME in the levels file F\n"
         "  (default: $OWARE_LEVELS, the installed levels.txt, the source tree's\n"
         "  data/levels.txt; docs/LEVELS.md), named NAME.\n"
         "level:elo=N[,file=F][,name=N][,seed=S]\n"
         "  a player at Elo N (a whole number) between the levels of F: their knob\n"
         "  interpolated between the two levels around N, named eloN.\n");
  char path[4096], err[ERROR_MAX];
  if (level_default_path(path, sizeof path, err, sizeof err)) {
    printf("  default file: none (%s)\n", err);
    return CLI_EXIT_OK;
  }
  level_file f;
  if (level_load(path, &f, err, sizeof err)) {
    printf("  default file: %s\n", path);
    return cli_error("players", "%s", err);
  }
  printf("  default file: %s, %d level%s\n", path, f.n, f.n == 1 ? "" : "s");
  for (int i = 0; i < f.n; i++) {
    const level_entry *e = &f.entry[i];
    printf("    %-10s %-32s", e->name, e->spec);
    if (e->columns >= 5) printf(" %7.1f [%7.1f, %7.1f]", e->elo, e->lo, e->hi);
    if (e->columns >= 6) printf("  target %.0f", e->target);
    printf("\n");
  }
  double lo, hi;
  if (level_elo_range(&f, &lo, &hi, err, sizeof err)) printf("  level:elo=N: none (%s)\n", err);
  else printf("  level:elo=N: from %.0f to %.0f\n", ceil(lo), floor(hi));
  level_file_free(&f);
  return CLI_EXIT_OK;
}

int cli_players(int argc, char **argv) {
  const char *only = NULL;
  char *args[1];
  int nargs, rc;
  cli_option opts[] = {CLI_END};
  cli_command_spec spec = {
      "players",
      "usage: oware players [TYPE]\n"
      "Lists every player type (or one) with its options: name, type, default, help\n"
      "and range. A player is given as a spec: type:key=value,key=value\n"
      "e.g. 'minimax:depth=10,weights=w.txt' or 'mcts:playouts=2000,seed=7'.\n"
      "The levels (level:NAME, level:elo=N) and those of the default file are\n"
      "listed last; 'oware players level' shows them alone.\n",
      NULL, opts, 1};
  if (cli_parse(&spec, argc, argv, args, &nargs, &rc)) return rc;
  if (nargs) only = args[0];
  if (only && !strcmp(only, "level")) return print_levels();
  if (only && !player_find_type(only))
    return cli_error("players", "unknown player type '%s'", only);
  player_print_help(stdout, only);
  if (only) return CLI_EXIT_OK;
  printf("\n");
  return print_levels();
}

int cli_weights(int argc, char **argv) {
  const char *file = NULL;
  int nargs, rc;
  cli_option opts[] = {
      CLI_O_TEXT("check", &file, "FILE", NULL, "read FILE over the defaults and print the result"),
      CLI_END,
  };
  cli_command_spec spec = {
      "weights",
      "usage: oware weights [--check FILE]\n"
      "Prints the default evaluation weights in the weights-file format\n"
      "('name value' lines, # comments), which minimax:weights=FILE loads.\n",
      NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  eval_weights w;
  eval_default(&w);
  char err[ERROR_MAX];
  if (file && eval_load(file, &w, err, sizeof err)) return cli_error("weights", "%s", err);
  return eval_write(stdout, &w) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

static const char match_usage[] =
    "usage: oware match --south SPEC --north SPEC [options]\n"
    "Plays N games one after the other, colours alternating (the --south player\n"
    "is South in odd games), prints each result and the total. Game k's seed is\n"
    "derived from --seed and k, so a match replays exactly (not so on game\n"
    "clocks, tc= or --tc: a warning says so; a move more than --tc-margin ms past\n"
    "its clock loses the game, forfeit-time).\n"
    "--adjudicate 'egdb;draw=PLIES,SCORE,MOVES;resign=SCORE,MOVES;maxplies=PLIES'\n"
    "(any of them) ends games early as in 'oware tournament' (see its help): by\n"
    "the endgame tables (egdb=DIR a folder), a draw on both players' scores near\n"
    "zero, a resignation on one player's hopeless score, a draw after PLIES\n"
    "plies; the end reason is adjudicated-egdb, -draw or -resign.\n"
    "--json prints one JSON object instead (docs/JSON.md): the players, each\n"
    "game (not with --quiet) and the total.\n"
    "Ctrl-C (or SIGTERM) abandons the game in progress, writes the games played\n"
    "(--ogn) and the total; a second one quits at once, writing no --ogn file.\n"
    "Exit codes: 0 finished, 1 failed, 2 bad input, 130 interrupted.\n";

/* The adjudication of --adjudicate (NULL: none) for the games of v into
 * *adj (NULL without one). 0, or the exit code after an error. */
static int match_adjudicator(const char *cmd, const char *text, const variant *v,
                             adjudicator **adj) {
  *adj = NULL;
  if (!text) return 0;
  adjudicate_rules *r = malloc(sizeof *r);
  char err[ERROR_MAX];
  if (!r) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  int bad = adjudicate_parse(text, r, err, sizeof err) || adjudicate_open(r, v, 1, adj, err, sizeof err);
  free(r);
  return bad ? cli_error(cmd, "%s", err) : 0;
}

/* Set by Ctrl-C and SIGTERM (cli_catch_stop): the match stops. */
static atomic_int match_stop;

/* What each game of `oware match` is printed with. */
typedef struct match_out {
  const char *cmd;
  int quiet;
  int json;         /* --json: each game an object of the "games" array */
  uint64_t seed;    /* the match's (game k's is rng_mix(seed, k)) */
  FILE *out;        /* --ogn, or NULL */
  const char *ogn;
  player *const *pl;
  int failed;
} match_out;

/* A game of `oware match --json` (docs/JSON.md), after a comma unless the first. */
static void match_game_json(long long k, const player *south, const player *north, const game *g,
                            const outcome *r, uint64_t seed) {
  printf("%s\n{\"game\":%lld,\"south\":", k ? "," : "", k + 1);
  cli_json_str(stdout, south->name);
  fputs(",\"north\":", stdout);
  cli_json_str(stdout, north->name);
  fputs(",\"score\":[", stdout);
  cli_json_num(stdout, r->score2[0] / 2.0);
  putchar(',');
  cli_json_num(stdout, r->score2[1] / 2.0);
  printf("],\"winner\":\"%s\",\"end\":\"%s\",\"plies\":%d,\"detail\":",
         game_winner_name(r->winner), outcome_end_name(r->end), r->plies);
  if (r->detail[0]) cli_json_str(stdout, r->detail);
  else fputs("null", stdout);
  fputs(",\"moves\":\"", stdout);
  for (int i = 0; i < g->plies; i++) putchar(notation_move_letter(&g->v, g->moves[i]));
  printf("\",\"seed\":\"%llu\"}", (unsigned long long)seed);
}

/* A game's line (or JSON object), and its OGN record. */
static int match_game(void *ctx, long long k, int a, const game *g, const outcome *r) {
  match_out *m = ctx;
  const player *south = m->pl[a], *north = m->pl[1 - a];
  char s0[16], s1[16];
  notation_format_half(r->score2[0], s0, sizeof s0);
  notation_format_half(r->score2[1], s1, sizeof s1);
  if (m->json && !m->quiet) {
    match_game_json(k, south, north, g, r, rng_mix(m->seed, (uint64_t)k));
  } else if (!m->quiet) {
    printf("game %lld: %s (S) - %s (N) %s-%s %s, %s, %d plies%s%s\n", k + 1, south->name,
           north->name, s0, s1,
           r->winner == GAME_DRAW ? "draw" : r->winner == BOARD_SOUTH ? "south wins" : "north wins",
           outcome_end_name(r->end), r->plies, r->detail[0] ? ": " : "", r->detail);
    fflush(stdout);
  }
  if (!m->out) return 0;
  char round[32], date[16] = "????.??.??";
  snprintf(round, sizeof round, "%lld", k + 1);
  notation_meta meta = {.event = "oware match", .site = "?", .date = date, .round = round,
                        .south = south->name, .north = north->name, .ended = r};
  if (notation_ogn_write(m->out, g, &meta)) {
    cli_error(m->cmd, "cannot write '%s': %s", m->ogn, strerror(errno));
    return m->failed = 1;
  }
  return 0;
}

int cli_match(int argc, char **argv) {
  const char *cmd = "match", *spec[2] = {NULL, NULL}, *vtext, *ogn = NULL, *tc = NULL,
             *adjudicate = NULL;
  long long games, seed, margin;
  int quiet = 0, json = 0, nargs, prc;
  cli_option opts[] = {
      CLI_O_TEXT("south", &spec[0], "SPEC", NULL, "the first player (South in odd games)"),
      CLI_O_TEXT("north", &spec[1], "SPEC", NULL, "the second player"),
      CLI_O_TEXT("variant", &vtext, "V", "abapa", "rule variant"),
      CLI_O_INT("games", &games, 1, 100000000, "N", "2", "games to play"),
      CLI_O_INT("seed", &seed, 0, (long long)(~0ULL >> 1), "S", "1", "the match's seed"),
      CLI_O_TEXT("ogn", &ogn, "FILE", NULL, "write the games in OGN"),
      CLI_O_TEXT("tc", &tc, "BASE+INC|MOVES/BASE[+INC]", NULL,
                 "game clock of a player whose spec sets no tc= (seconds: 10+0.1, 40/60)"),
      CLI_O_INT("tc-margin", &margin, 0, 3600000, "MS", "100",
                "ms a move may come past its clock before it loses on time"),
      CLI_O_TEXT("adjudicate", &adjudicate, "RULE[;RULE...]", NULL,
                 "end games early: egdb[=DIR], draw=PLIES,SCORE,MOVES, resign=SCORE,MOVES, "
                 "maxplies=PLIES"),
      CLI_O_FLAG("quiet", &quiet, "print the total only"),
      CLI_O_FLAG("json", &json, "print one JSON object instead (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec pspec = {cmd, match_usage, NULL, opts, 0};
  if (cli_parse(&pspec, argc, argv, NULL, &nargs, &prc)) return prc;
  if (!spec[0] || !spec[1]) return cli_error(cmd, "both --south and --north are needed");
  variant v;
  if (cli_variant(cmd, vtext, &v)) return CLI_EXIT_USAGE;
  if (ogn && cli_check_output(cmd, "--ogn", ogn)) return CLI_EXIT_USAGE;
  char err[ERROR_MAX];
  time_control clock = {0, 0, 0};
  if (tc && time_control_parse(tc, &clock, err, sizeof err))
    return cli_error(cmd, "--tc: %s", err);
  adjudicator *adj;
  if ((prc = match_adjudicator(cmd, adjudicate, &v, &adj))) return prc;
  player *pl[2] = {NULL, NULL};
  for (int k = 0; k < 2; k++) {
    pl[k] = player_create(spec[k], err, sizeof err);
    if (!pl[k]) {
      cli_error(cmd, "--%s: %s", k ? "north" : "south", err);
      player_free(pl[0]);
      adjudicate_close(adj);
      return CLI_EXIT_USAGE;
    }
    cli_warn_threads(cmd, &pl[k]->config);
    if (!time_control_on(&pl[k]->config.tc)) pl[k]->config.tc = clock;
    pl[k]->config.tc_margin_ms = (int)margin;
  }
  if (time_control_on(&pl[0]->config.tc) || time_control_on(&pl[1]->config.tc)) cli_warn_clocks(cmd);
  /* From here Ctrl-C and SIGTERM set match_stop, which match_games watches. */
  cli_catch_stop(&match_stop, "\noware match: stopping, the game in progress abandoned (Ctrl-C "
                              "again to quit at once)\n");
  FILE *out = NULL;
  outfile of = {0}; /* the OGN file is written whole at the end, or not at all */
  if (ogn) {
    if (cli_out_open(cmd, &of, ogn)) {
      cli_release_stop();
      player_free(pl[0]);
      player_free(pl[1]);
      adjudicate_close(adj);
      return CLI_EXIT_USAGE;
    }
    out = of.f;
    cli_stop_remove(of.tmp); /* a second Ctrl-C leaves no temporary file */
  }
  match_out mo = {cmd, quiet, json, (uint64_t)seed, out, ogn, pl, 0};
  match_totals t;
  int rc = CLI_EXIT_OK;
  if (json) {
    fputs("{\"players\":[", stdout);
    cli_json_str(stdout, pl[0]->name);
    putchar(',');
    cli_json_str(stdout, pl[1]->name);
    char vname[256];
    variant_format(&v, vname, sizeof vname);
    printf("],\"variant\":");
    cli_json_str(stdout, vname);
    printf(",\"seed\":\"%lld\"%s", seed, quiet ? "" : ",\"games\":[");
  }
  int res = match_games(pl, &v, games, (uint64_t)seed, adj, &match_stop, match_game, &mo, &t, err,
                        sizeof err);
  if (res < 0) {
    cli_error(cmd, "%s", err);
    rc = CLI_EXIT_FAIL;
  }
  if (mo.failed) rc = CLI_EXIT_FAIL;
  if (out && rc) cli_out_abort(&of);
  else if (out && cli_out_commit(cmd, &of)) rc = CLI_EXIT_FAIL;
  if (!rc && res > 0 && atomic_load(&match_stop)) rc = 130; /* the games played written all the same */
  if (json) {
    /* Whole even after an error (the exit code and standard error say it). */
    printf("%s,\"total\":{\"games\":%lld,\"of\":%lld,\"wins\":[%d,%d],\"draws\":%d,\"points\":[",
           quiet ? "" : "]", t.games, games, t.wins[0], t.wins[1], t.draws);
    cli_json_num(stdout, t.wins[0] + 0.5 * t.draws);
    putchar(',');
    cli_json_num(stdout, t.wins[1] + 0.5 * t.draws);
    printf("]},\"complete\":%s}\n", t.games == games ? "true" : "false");
  } else {
    printf("total: %s %d wins, %s %d wins, %d draws; %s scores %.1f of %lld", pl[0]->name,
           t.wins[0], pl[1]->name, t.wins[1], t.draws, pl[0]->name, t.wins[0] + 0.5 * t.draws,
           t.games);
    if (t.games < games) printf(" (the match stopped after %lld of %lld games)", t.games, games);
    putchar('\n');
  }
  cli_release_stop();
  player_free(pl[0]);
  player_free(pl[1]);
  adjudicate_close(adj);
  return rc;
}
