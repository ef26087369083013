/* web_api.c: what the JavaScript API needs beyond include/oware.h: the variants' names, perft counts and a game as OGN text, over core/. */
#include "web/web_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/variant.h"

/* The variant and start position of the texts. 0, or -1 with a message. */
static int start_of(const char *vtext, const char *position, variant *v, board *b, char *err,
                    size_t errlen) {
  if (variant_parse(vtext ? vtext : "abapa", v, err, errlen)) return -1;
  if (!position) {
    board_start(b, v);
    return 0;
  }
  return notation_parse_position(position, v, b, err, errlen) ? -1 : 0;
}

const char *web_api_variant_name(int i) {
  int n = 0;
  while (variant_names[n]) n++;
  return i >= 0 && i < n ? variant_names[i] : NULL;
}

int web_api_perft(const char *vtext, const char *position, int depth, double *count, char *err,
                  size_t errlen) {
  variant v;
  board b;
  if (start_of(vtext, position, &v, &b, err, errlen)) return -1;
  if (depth < 0 || depth > 20) return error_set(err, errlen, "perft depth %d: 0 to 20", depth), -1;
  *count = (double)perft_count(&b, &v, depth);
  return 0;
}

/* The game from b under v after the letters of text into g. 0, or -1 with
 * a message (g is then freed). */
static int game_of(const variant *v, const board *b, const char *text, game *g, char *err,
                   size_t errlen) {
  int max = (int)strlen(text) + 1, *moves = malloc((size_t)max * sizeof *moves);
  if (!moves || game_init(g, v, b)) {
    free(moves);
    return error_set(err, errlen, "out of memory"), -1;
  }
  int n = notation_parse_moves(text, v, moves, max, err, errlen);
  for (int i = 0; n > 0 && i < n; i++)
    if (game_play(g, moves[i])) {
      error_set(err, errlen, "move %d (%c) is not legal", i + 1, notation_move_letter(v, moves[i]));
      n = -1;
    }
  free(moves);
  if (n < 0) game_free(g);
  return n < 0 ? -1 : 0;
}

int web_api_ogn(const char *vtext, const char *position, const char *moves, const char *south,
                const char *north, const char *event, const char *date, char *out, size_t len,
                char *err, size_t errlen) {
  variant v;
  board b;
  game g;
  if (start_of(vtext, position, &v, &b, err, errlen) ||
      game_of(&v, &b, moves ? moves : "", &g, err, errlen))
    return -1;
  notation_meta meta = {.event = event, .date = date, .south = south, .north = north};
  FILE *f = fmemopen(out, len, "w");
  int rc = f ? notation_ogn_write(f, &g, &meta) : -1;
  long n = f ? ftell(f) : -1;
  if (f && fclose(f)) rc = -1;
  game_free(&g);
  if (rc || n < 0 || (size_t)n + 1 >= len)
    return error_set(err, errlen, "the OGN text does not fit in %zu bytes", len), -1;
  out[n] = 0;
  return (int)n;
}
