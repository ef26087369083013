/* cmd_uci.c: `oware uci`: serves a player over the engine protocol on stdin/stdout. */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/error.h"
#include "players/player.h"
#include "players/uci.h"

/* No per-move limit of its own: a go with a clock (wtime/btime) is shared
 * out by the player itself; a bare go searches to minimax's default depth. */
#define DEFAULT_SPEC "minimax"

static const char uci_usage[] =
    "usage: oware uci [--player SPEC] [--book FILE] [--egdb-dir DIR]\n"
    "Serves a player over the engine protocol (Aualé's dialect of UCI) on stdin\n"
    "and stdout, so that a GUI such as Aualé, or another harness (an 'engine:'\n"
    "player), can use it.\n";

static const char uci_after[] =
    "Commands:\n"
    "  uci                        -> id, option lines (the player's options, seed\n"
    "                                and Variant), uciok\n"
    "  isready                    -> readyok\n"
    "  ucinewgame\n"
    "  setoption name N value V   e.g. 'setoption name Variant value auale'\n"
    "                             OwnBook true: the player's book= is --book's file;\n"
    "                             UseLeaves true: its egdb= is --egdb-dir\n"
    "  position startpos|fen 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S [moves FdEe]\n"
    "  go [depth N] [movetime MS] [nodes N] [infinite] [wtime/btime/winc/binc MS]\n"
    "     [movestogo N]           -> info lines, bestmove X (0000: no move)\n"
    "                             a clock (wtime/winc South's, btime/binc North's)\n"
    "                             is handed to the player, which shares its time\n"
    "                             out as under tc= (minimax, mcts; an engine passes\n"
    "                             it on); a spec with depth, nodes, playouts or\n"
    "                             movetime of its own, a plug-in, or a go with\n"
    "                             depth or nodes, keeps those limits, held to the\n"
    "                             clock's share of the move\n"
    "  stop, quit\n"
    "Errors of the other side are answered 'info string error: ...'.\n";

int cli_uci(int argc, char **argv) {
  const char *cmd = "uci", *spec, *book = NULL, *egdb_dir = NULL;
  int nargs, rc;
  cli_option opts[] = {
      CLI_O_TEXT("player", &spec, "SPEC", DEFAULT_SPEC, "the player to serve"),
      CLI_O_TEXT("book", &book, "FILE", NULL,
                 "the opening book OwnBook turns on (default ~/.cache/oware/book.bin)"),
      CLI_O_TEXT("egdb-dir", &egdb_dir, "DIR", NULL,
                 "the endgame databases UseLeaves turns on (default ~/.cache/oware/egdb)"),
      CLI_END,
  };
  cli_command_spec pspec = {cmd, uci_usage, uci_after, opts, 0};
  if (cli_parse(&pspec, argc, argv, NULL, &nargs, &rc)) return rc;
  char err[ERROR_MAX];
  player_config cfg;
  if (player_parse_spec(spec, &cfg, err, sizeof err)) return cli_error(cmd, "--player: %s", err);
  player_config_free(&cfg);
  if (uci_serve(spec, book, egdb_dir, stdin, stdout, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    return CLI_EXIT_FAIL;
  }
  return CLI_EXIT_OK;
}
