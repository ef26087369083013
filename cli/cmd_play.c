/* cmd_play.c: `oware play`: a person against a player in the terminal (cli/play.h does the game). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/play.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/error.h"
#include "core/notation.h"
#include "players/player.h"

static const char play_usage[] =
    "usage: oware play [options]\n"
    "Plays a game against a player (any spec of 'oware players') in the terminal.\n"
    "The board is drawn from South's side: North's row on top (f ... a), South's\n"
    "below (A ... F), each store beside its row; the last move's house is in\n"
    "[brackets] and the houses it captured are marked '*'. At the prompt type:\n"
    "  a letter     your move: the house's letter (either case: A or a is your\n"
    "               leftmost house)\n"
    "  undo         take back your last move and the reply to it\n"
    "  hint         what a stronger player would play (--hint)\n"
    "  save         write the game so far to the --save FILE\n"
    "  board        draw the board again\n"
    "  quit         stop (the end of the input does the same)\n"
    "  help         this text\n"
    "With --save FILE the game is written as OGN after every move and at the end,\n"
    "each time whole (a temporary file, then renamed).\n";

static const char play_after[] =
    "Exit codes: 0 the game ended or you quit, 1 a player failed or the file\n"
    "could not be written, 2 bad options.\n";

static const char commands[] = "a letter, undo, hint, save, board, quit, help";

static int save(const char *cmd, play_session *s, const char *path) {
  char err[ERROR_MAX];
  if (!path) return 0;
  if (play_save(s, path, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    return -1;
  }
  return 0;
}

static void draw(play_session *s) {
  char buf[4096];
  play_draw(s, buf, sizeof buf);
  fputs(buf, stdout);
}

/* The hint's line. */
static void show_hint(play_session *s) {
  int m;
  char err[ERROR_MAX];
  player_info info = {0};
  if (play_hint(s, &m, &info, err, sizeof err)) {
    printf("No hint: %s\n", err);
    return;
  }
  printf("Hint: %c", notation_move_letter(&play_game(s)->v, m));
  if (info.depth) {
    if (info.score >= PLAYER_WIN - 1000) printf(" (wins in %d plies)", PLAYER_WIN - info.score);
    else if (info.score <= -(PLAYER_WIN - 1000))
      printf(" (loses in %d plies)", PLAYER_WIN + info.score);
    else printf(" (%+.2f seeds at depth %d)", info.score / 100.0, info.depth);
  }
  printf(".\n");
}

static int line_command(const char *cmd, play_session *s, const char *save_path,
                        const cli_command_spec *spec, char *line, char *err, size_t errlen);

/* One line typed by the person: a move or a command. 0 to go on, 1 to
 * stop (quit, end of input), -1 when the game could not be saved. */
static int human_turn(const char *cmd, play_session *s, const char *save_path,
                      const cli_command_spec *spec) {
  char err[ERROR_MAX];
  printf("Your move (%s): ", commands);
  fflush(stdout);
  /* One line is one command, whatever its length. */
  char *buf = NULL;
  size_t cap = 0;
  if (getline(&buf, &cap, stdin) < 0) {
    free(buf);
    printf("\n");
    return 1;
  }
  int rc = line_command(cmd, s, save_path, spec, buf, err, sizeof err);
  free(buf);
  return rc;
}

/* What line asks for: a move or a command. human_turn's return. */
static int line_command(const char *cmd, play_session *s, const char *save_path,
                        const cli_command_spec *spec, char *line, char *err, size_t errlen) {
  /* Input that is not typed at a terminal is echoed: a transcript reads
   * like the session it replays. */
  if (!isatty(STDIN_FILENO)) printf("%s%s", line, strchr(line, '\n') ? "" : "\n");
  char *w = line;
  while (isspace((unsigned char)*w)) w++;
  size_t n = strlen(w);
  while (n && isspace((unsigned char)w[n - 1])) w[--n] = 0;
  if (!n) return 0;
  if (n == 1 && isalpha((unsigned char)*w)) {
    if (play_move(s, *w, err, errlen)) {
      printf("%s\n", err);
      return 0;
    }
    draw(s);
    return save(cmd, s, save_path) ? -1 : 0;
  }
  if (!strcmp(w, "undo")) {
    int k = play_undo(s);
    if (!k) printf("Nothing to take back.\n");
    else printf("Took back %d move%s.\n", k, k == 1 ? "" : "s");
    draw(s);
    return k && save(cmd, s, save_path) ? -1 : 0;
  }
  if (!strcmp(w, "hint")) {
    show_hint(s);
  } else if (!strcmp(w, "save")) {
    if (!save_path) printf("No file to save to: start with --save FILE.\n");
    else if (!save(cmd, s, save_path)) printf("Saved to %s.\n", save_path);
  } else if (!strcmp(w, "board")) {
    draw(s);
  } else if (!strcmp(w, "quit")) {
    return 1;
  } else if (!strcmp(w, "help")) {
    cli_options_help(stdout, spec);
  } else {
    printf("'%s' is not a move or a command (%s).\n", w, commands);
  }
  return 0;
}

/* The game until it ends or the person stops. The exit code. */
static int play_loop(const char *cmd, play_session *s, int human, const char *save_path,
                     const cli_command_spec *spec) {
  char err[ERROR_MAX];
  draw(s);
  for (;;) {
    const game *g = play_game(s);
    if (g->end != BOARD_END_NONE) return CLI_EXIT_OK;
    if (g->pos.side == human) {
      int r = human_turn(cmd, s, save_path, spec);
      if (r) return r < 0 ? CLI_EXIT_FAIL : CLI_EXIT_OK;
      continue;
    }
    int m;
    if (play_reply(s, &m, err, sizeof err)) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
    printf("%s plays %c.\n", play_opponent_name(s), notation_move_letter(&g->v, m));
    draw(s);
    if (save(cmd, s, save_path)) return CLI_EXIT_FAIL;
  }
}

int cli_play(int argc, char **argv) {
  const char *cmd = "play", *opponent, *hint, *save_path = NULL, *variant_text = NULL,
             *start_text = NULL, *name = NULL;
  int human = BOARD_SOUTH, nargs, prc;
  long long seed;
  static const char *const sides[] = {"south", "north", NULL};
  cli_option opts[] = {
      CLI_O_TEXT("opponent", &opponent, "SPEC", "minimax:depth=4", "the player you play against"),
      CLI_O_CHOICE("side", &human, sides, "south", "your side (South moves first)"),
      CLI_O_TEXT("variant", &variant_text, "V", NULL, "the rules (default abapa)"),
      CLI_O_TEXT("start", &start_text, "POSITION", NULL, "start from this position string"),
      CLI_O_TEXT("hint", &hint, "SPEC", PLAY_DEFAULT_HINT, "the player that gives hints"),
      CLI_O_TEXT("save", &save_path, "FILE", NULL, "write the game to FILE as OGN"),
      CLI_O_INT("seed", &seed, 0, (long long)(~0ULL >> 1), "S", "1",
                "the game seed told to the players"),
      CLI_O_TEXT("name", &name, "NAME", "you", "your name in the record"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, play_usage, play_after, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc;
  /* Your name goes into the record as a player's does: 1 to 127 bytes. */
  if (name && (!*name || strlen(name) >= PLAYER_NAME_MAX))
    return cli_error(cmd, "--name '%.40s%s': give 1 to %d bytes", name, strlen(name) > 40 ? "…" : "",
                     PLAYER_NAME_MAX - 1);
  if (name && cli_check_name(cmd, "--name", name)) return CLI_EXIT_USAGE;
  /* The record can be written: known before the first move, not after it. */
  if (save_path && cli_check_output(cmd, "--save", save_path)) return CLI_EXIT_USAGE;
  play_config c = {opponent, hint, name, {0}, NULL, human, (uint64_t)seed};
  variant_default(&c.v);
  if (variant_text && cli_variant(cmd, variant_text, &c.v)) return CLI_EXIT_USAGE;
  board start;
  char err[ERROR_MAX];
  if (start_text) {
    if (notation_parse_position(start_text, &c.v, &start, err, sizeof err))
      return cli_error(cmd, "--start: %s", err);
    c.start = &start;
  }
  play_session *s;
  if (play_new(&c, &s, err, sizeof err)) return cli_error(cmd, "%s", err);
  printf("You play %s against %s. Moves by letter; also: undo, hint, save, board, quit, help.\n",
         human == BOARD_SOUTH ? "South" : "North", play_opponent_name(s));
  int rc = play_loop(cmd, s, human, save_path, &spec);
  if (rc == CLI_EXIT_OK && save_path) {
    if (save(cmd, s, save_path)) rc = CLI_EXIT_FAIL;
    else printf("Game saved to %s.\n", save_path);
  }
  play_free(s);
  if (fflush(stdout)) rc = CLI_EXIT_FAIL;
  return rc;
}
