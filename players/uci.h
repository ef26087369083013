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
 * Returns 0 after `quit` or the end of `in`; -1 with a message in err when
 * the player cannot be created or `out` cannot be written. */
int uci_serve(const char *spec, FILE *in, FILE *out, char *err, size_t errlen);

#endif
