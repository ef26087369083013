/* cmd_book.c: `oware book build|show`: the opening book built by our own searches, and what a book file holds. */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/notation.h"
#include "core/path.h"
#include "players/book.h"

/* The progress line (ctx): the positions searched of all. book_build calls
 * it under its lock, one call at a time. */
static void show_progress(void *ctx, long long done, long long total) {
  cli_progress_update(ctx, "searched", NULL, done, total, "positions");
}

static const char build_help[] =
    "usage: oware book build --plies P (--depth D | --nodes N) [--variant V] [--threads T]\n"
    "                        [--out FILE] [--quiet]\n"
    "Builds an opening book: every position before one of the first P moves of a\n"
    "game from the variant's start (each once, however it is reached) is searched\n"
    "by minimax to depth D (or N nodes), and its best move and score are written\n"
    "to FILE (whole or not at all). The searches are deterministic: the same\n"
    "command writes the same file whatever --threads. minimax:book=FILE and\n"
    "`oware uci` (OwnBook) play from it.\n";

static int book_build_cmd(int argc, char **argv) {
  const char *cmd = "book build", *vtext = "abapa", *out = NULL;
  long long plies = -1, depth = 0, nodes = 0, threads = 1;
  int quiet = 0, nargs, prc;
  char pbuf[4096], err[ERROR_MAX];
  cli_option opts[] = {
      CLI_O_INT("plies", &plies, 1, 16, "P", NULL,
                "the first P moves of a game (the positions grow about 6 times a ply)"),
      CLI_O_INT("depth", &depth, 1, 40, "D", NULL, "minimax depth of each search"),
      CLI_O_INT("nodes", &nodes, 1, 1000000000000LL, "N", NULL,
                "or a node budget of each search (with --depth: both limits)"),
      CLI_O_TEXT("variant", &vtext, "V", "abapa", "rule variant"),
      CLI_O_INT("threads", &threads, 1, 64, "T", "1", "worker threads (they share the positions)"),
      CLI_O_TEXT("out", &out, "FILE", NULL, "the book file (default ~/.cache/oware/book.bin)"),
      CLI_O_FLAG("quiet", &quiet, "no progress line"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, build_help, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc;
  if (plies < 0) return cli_error(cmd, "missing --plies P (see --help)");
  if (!depth && !nodes) return cli_error(cmd, "missing --depth D or --nodes N (see --help)");
  book_build_config c = {.plies = (int)plies, .depth = (int)depth, .nodes = nodes,
                         .threads = (int)threads};
  if (cli_variant(cmd, vtext, &c.v)) return CLI_EXIT_USAGE;
  if (!out) {
    book_default_path(pbuf, sizeof pbuf);
    path_mkdirs_parent(pbuf, err, sizeof err); /* an error shows when the book is written */
    out = pbuf;
  }
  cli_progress line;
  cli_progress_init(&line, quiet);
  cli_progress_begin(&line, "searched", 0, clock_now());
  book_build_stats st;
  int rc = book_build(&c, out, line.on ? show_progress : NULL, &line, &st, err, sizeof err);
  cli_progress_clear(&line);
  if (rc) {
    cli_error(cmd, "%s", err);
    return CLI_EXIT_FAIL;
  }
  printf("book %s: %lld positions of the first %lld plies, ", out, st.positions, plies);
  if (depth) printf("depth %lld", depth);
  if (depth && nodes) printf(", ");
  if (nodes) printf("%lld nodes", nodes);
  printf(" each; %lld nodes in %.1f s\n", st.nodes, st.seconds);
  return CLI_EXIT_OK;
}

static const char show_help[] =
    "usage: oware book show FILE [POSITION]\n"
    "Checks a book file and prints its header (variant, plies, depth, node budget,\n"
    "positions); with a POSITION (the position string of `oware replay`), the\n"
    "book's move and score there, or that the book does not have it.\n";

static int book_show_cmd(int argc, char **argv) {
  const char *cmd = "book show";
  char *pos[2], err[ERROR_MAX];
  int nargs, prc;
  cli_option opts[] = {CLI_END};
  cli_command_spec spec = {cmd, show_help, NULL, opts, 2};
  if (cli_parse(&spec, argc, argv, pos, &nargs, &prc)) return prc;
  if (nargs < 1) return cli_error(cmd, "missing FILE (see --help)");
  book *b;
  if (book_load(pos[0], &b, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    return CLI_EXIT_FAIL;
  }
  const book_info *in = book_get_info(b);
  printf("variant %s\nplies %d\ndepth %d\nnodes %lld\npositions %lld\n", in->variant_text,
         in->plies, in->depth, in->nodes, in->count);
  int rc = CLI_EXIT_OK;
  if (nargs == 2) {
    board p;
    int m, sc;
    if (notation_parse_position(pos[1], &in->v, &p, err, sizeof err)) {
      rc = cli_error(cmd, "%s", err);
    } else if (book_probe(b, &p, &m, &sc)) {
      printf("move %c score %d\n", notation_move_letter(&in->v, m), sc);
    } else {
      printf("not in the book\n");
    }
  }
  book_free(b);
  return rc;
}

static const char book_help[] =
    "usage: oware book build|show [ARGS]\n"
    "  build   search the positions of the first plies and write the book file\n"
    "  show    check a book file and print its header, or its move at a position\n"
    "'oware book SUBCOMMAND --help' describes one.\n";

int cli_book(int argc, char **argv) {
  static const cli_subcommand sub[] = {{"build", book_build_cmd}, {"show", book_show_cmd}};
  return cli_run_subcommand("book", book_help, sub, 2, argc, argv);
}
