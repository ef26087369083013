/* uci.h: the server side of the engine protocol: serves any player over UCI-style text lines. */
#ifndef OWARE_UCI_H
#define OWARE_UCI_H

#include <stddef.h>
#include <stdio.h>

/* Serves the player of `spec` (player_create's format) over the engine
 * protocol (DESIGN.md, "Engine protocol"; the details are at the top of
 * uci.c): reads commands from `in` and answers on `out` until `quit` or the
 * end of `in`. The player type's options are offered as UCI options, plus
 * `seed` and `Variant` (default abapa); `setoption` re-creates the player
 * with the new spec. `go` searches in a thread of its own, so that `stop`,
 * `isready` and `quit` are answered during a search. Mistakes of the other
 * side (a bad option value, an illegal move, a malformed position) are
 * answered with `info string error: …` and change nothing. Every output line
 * is written whole and flushed, one writer at a time.
 * `setoption name OwnBook value true` sets the player's book= to `book_file`,
 * UseLeaves its egdb= to `egdb_dir` (NULL: book_default_path and
 * tablebase_default_dir), when the player takes those options.
 * Returns 0 after `quit` or the end of `in`; -1 with a message in err when
 * the player cannot be created or `out` cannot be written. */
int uci_serve(const char *spec, const char *book_file, const char *egdb_dir, FILE *in, FILE *out,
              char *err, size_t errlen);

/* The same server one line at a time (what uci_serve does with each line of
 * its input; the fuzzer and the tests drive it directly). */
typedef struct uci_server uci_server;
/* A server of spec's player answering on out; NULL with err when the player
 * cannot be created. */
uci_server *uci_server_new(const char *spec, FILE *out, char *err, size_t errlen);
/* The book file OwnBook and the endgame folder UseLeaves turn on (NULL: the
 * defaults, which uci_server_new sets). */
void uci_server_set_files(uci_server *s, const char *book_file, const char *egdb_dir);
/* Runs one command line (modified in place; a trailing newline is allowed).
 * Returns 0, 1 after `quit`, -1 once out cannot be written. */
int uci_server_line(uci_server *s, char *line);
/* Stops and waits for a search in progress, frees s. Returns 0, or -1 when
 * some output could not be written. */
int uci_server_free(uci_server *s);

#endif
