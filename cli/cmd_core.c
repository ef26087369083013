/* cmd_core.c: the rules commands: `oware perft`, `oware replay`, `oware variants` (the list). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/perft.h"

static const char perft_usage[] =
    "usage: oware perft [options] DEPTH\n"
    "Prints 'perft D COUNT' for D = 1..DEPTH: the number of legal move sequences\n"
    "of length D. A position over by majority or with no legal move has no\n"
    "successors; repetition and the ply limit are not applied.\n";

int cli_perft(int argc, char **argv) {
  const char *cmd = "perft", *vtext, *pos = NULL;
  long long depth = -1;
  int timed = 0, npos, rc;
  char *args[1];
  cli_option opts[] = {
      CLI_O_TEXT("variant", &vtext, "V", "abapa", "rule variant, e.g. 'abapa,seeds=5'"),
      CLI_O_TEXT("position", &pos, "POS", NULL,
                 "start from a position string (default: the start)"),
      CLI_O_FLAG("time", &timed, "also print the seconds each depth took, on stderr"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, perft_usage, NULL, opts, 1};
  if (cli_parse(&spec, argc, argv, args, &npos, &rc)) return rc;
  if (npos && cli_long(cmd, "DEPTH", args[0], 0, 40, &depth)) return CLI_EXIT_USAGE;
  if (depth < 0) return cli_error(cmd, "missing DEPTH (see --help)");
  variant v;
  board b;
  char err[ERROR_MAX];
  if (cli_variant(cmd, vtext, &v)) return CLI_EXIT_USAGE;
  if (pos) {
    if (notation_parse_position(pos, &v, &b, err, sizeof err)) return cli_error(cmd, "%s", err);
  } else {
    board_start(&b, &v);
  }
  for (int d = 1; d <= depth; d++) {
    double t0 = clock_now();
    uint64_t n = perft_count(&b, &v, d);
    double t1 = clock_now();
    printf("perft %d %llu\n", d, (unsigned long long)n);
    fflush(stdout);
    if (timed)
      fprintf(stderr, "perft %d took %.3f s\n", d, t1 - t0);
  }
  return CLI_EXIT_OK;
}

static const char replay_usage[] =
    "usage: oware replay [options] [MOVES...]\n"
    "Plays the moves (letters, separate or together: 'F d E e' or 'FdEe') and prints\n"
    "  position <position string>   (after the final transfer once the game is over)\n"
    "  legal <letters, or ->\n"
    "  status playing | status over <reason> <S>-<N> <south|north|draw>\n"
    "An illegal move exits with code 2 and a message naming it.\n";

/* The start of a replay: an OGN file's game, or a variant and position. 0,
 * or -1 after an error. */
static int replay_start(const char *cmd, const char *ogn, const char *vtext, const char *pos,
                        variant *v, board *start, notation_ogn *rec) {
  char err[ERROR_MAX];
  if (ogn) {
    if (vtext || pos) {
      cli_error(cmd, "--ogn carries its own variant and position; drop --variant/--position");
      return -1;
    }
    char *text = cli_read_file(cmd, ogn);
    if (!text) return -1;
    size_t used;
    int r = notation_ogn_read(text, &used, rec, err, sizeof err);
    free(text);
    if (r <= 0) {
      cli_error(cmd, "%s: %s", ogn, r == 0 ? "no game in the file" : err);
      return -1;
    }
    *v = rec->v;
    *start = rec->start;
  } else {
    if (cli_variant(cmd, vtext ? vtext : "abapa", v)) return -1;
    if (pos) {
      if (notation_parse_position(pos, v, start, err, sizeof err)) {
        cli_error(cmd, "%s", err);
        return -1;
      }
    } else {
      board_start(start, v);
    }
  }
  return 0;
}

/* Plays the moves from start and prints where they lead. The exit code. */
static int replay_play(const char *cmd, const variant *v, const board *start, const int *moves,
                       int nmoves) {
  game g;
  if (game_init(&g, v, start)) {
    cli_error(cmd, "out of memory");
    return CLI_EXIT_FAIL;
  }
  for (int i = 0; i < nmoves; i++) {
    int r = game_play(&g, moves[i]);
    if (r) {
      char legal[64];
      notation_format_legal(v, g.legal, legal, sizeof legal);
      if (r == -2) cli_error(cmd, "out of memory");
      else if (g.end != BOARD_END_NONE)
        cli_error(cmd, "move %d (%c) comes after the end of the game (%s)", i + 1,
                  notation_move_letter(v, moves[i]), board_end_name(g.end));
      else
        cli_error(cmd, "move %d (%c) is illegal; legal moves: %s", i + 1,
                  notation_move_letter(v, moves[i]), legal);
      game_free(&g);
      return CLI_EXIT_USAGE;
    }
  }
  board shown;
  char ptext[NOTATION_POSITION_MAX], legal[64];
  game_shown_position(&g, &shown);
  notation_format_position(&shown, v, g.end == BOARD_END_NONE ? NULL : g.score2, ptext,
                           sizeof ptext);
  notation_format_legal(v, g.legal, legal, sizeof legal);
  printf("position %s\nlegal %s\n", ptext, legal);
  if (g.end == BOARD_END_NONE) {
    printf("status playing\n");
  } else {
    char a[16], b[16];
    notation_format_half(g.score2[0], a, sizeof a);
    notation_format_half(g.score2[1], b, sizeof b);
    printf("status over %s %s-%s %s\n", board_end_name(g.end), a, b, game_winner_name(g.winner));
  }
  game_free(&g);
  return CLI_EXIT_OK;
}

int cli_replay(int argc, char **argv) {
  const char *cmd = "replay", *vtext = NULL, *pos = NULL, *ogn = NULL;
  char err[ERROR_MAX];
  size_t cap = 1;
  for (int i = 0; i < argc; i++) cap += strlen(argv[i]) + 1;
  char *movetext = calloc(cap, 1);
  char **args = malloc(((size_t)argc + 1) * sizeof *args);
  if (!movetext || !args) {
    free(movetext);
    free(args);
    return cli_error(cmd, "out of memory");
  }
  int rc = CLI_EXIT_USAGE, nargs;
  int *moves = NULL, nmoves = 0;
  notation_ogn rec = {0};
  cli_option opts[] = {
      CLI_O_TEXT("variant", &vtext, "V", NULL, "rule variant (default abapa)"),
      CLI_O_TEXT("position", &pos, "POS", NULL, "start from a position string"),
      CLI_O_TEXT("ogn", &ogn, "FILE",  NULL,
                 "start with the first game of an OGN file (its variant, FEN and moves); MOVES "
                 "are played after it"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, replay_usage, NULL, opts, argc};
  if (cli_parse(&spec, argc, argv, args, &nargs, &rc)) goto out;
  rc = CLI_EXIT_USAGE;
  for (int i = 0; i < nargs; i++) {
    strcat(movetext, args[i]);
    strcat(movetext, " ");
  }
  variant v;
  board start;
  if (replay_start(cmd, ogn, vtext, pos, &v, &start, &rec)) goto out;
  int maxmoves = (int)strlen(movetext) + rec.nmoves + 1;
  moves = malloc((size_t)maxmoves * sizeof *moves);
  if (!moves) {
    cli_error(cmd, "out of memory");
    goto out;
  }
  for (int i = 0; i < rec.nmoves; i++) moves[nmoves++] = rec.moves[i];
  int n = notation_parse_moves(movetext, &v, moves + nmoves, maxmoves - nmoves, err, sizeof err);
  if (n < 0) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  nmoves += n;
  rc = replay_play(cmd, &v, &start, moves, nmoves);
out:
  notation_ogn_free(&rec);
  free(moves);
  free(movetext);
  free(args);
  return rc;
}

static const char variants_help[] =
    "usage: oware variants\n"
    "The named rule variants and their switches. A variant study (players playing\n"
    "several variants, compared) is `oware study` (see 'oware study --help').\n";

int cli_variants_list(int argc, char **argv) {
  if (argc == 1 && cli_is_help(argv[0])) {
    fputs(variants_help, stdout);
    return CLI_EXIT_OK;
  }
  for (int i = 0; i < argc; i++) /* the old spelling of a study: `oware variants --players ...` */
    if (strcmp(argv[i], "--list")) {
      fprintf(stderr, "oware variants: a variant study is now 'oware study' (the same options)\n");
      return cli_study(argc, argv);
    }
  static const char *const lap[] = {"skip", "fill"};
  static const char *const feed[] = {"must", "none"};
  static const char *const cyc[] = {"own", "split"};
  printf("%-20s %6s %5s %4s %-9s %-7s %10s %5s %9s\n", "variant", "houses", "seeds", "lap",
         "grand_slam", "feeding", "repetition", "cycle", "max_plies");
  for (int i = 0; variant_names[i]; i++) {
    variant v;
    char err[ERROR_MAX];
    variant_parse(variant_names[i], &v, err, sizeof err);
    printf("%-20s %6d %5d %4s %-10s %-7s %10d %5s %9d\n", variant_names[i], v.houses, v.seeds,
           lap[v.lap], variant_grand_slam_name(v.grand_slam), feed[v.feeding], v.repetition,
           cyc[v.cycle], v.max_plies);
  }
  printf("\nAny switch can be set on top of a variant: 'abapa,seeds=5,repetition=2'.\n"
         "houses=3..8 seeds=1..12 lap=skip|fill grand_slam=nothing|forbidden|all|win\n"
         "feeding=must|none repetition=0|2..100 cycle=own|split max_plies=0..1000000\n");
  return CLI_EXIT_OK;
}
