/* fuzz_moves.c: move lists (letters together or apart): no crash, indices in range, played into a game. */
#include "core/game.h"
#include "core/notation.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  variant v;
  char err[256] = "";
  if (variant_parse(data[0] & 1 ? "houses=8,seeds=3" : "abapa", &v, err, sizeof err)) abort();
  char *text = fuzz_text(data + 1, size - 1);
  int moves[64];
  err[0] = '\0';
  int n = notation_parse_moves(text, &v, moves, 64, err, sizeof err);
  if (n >= 0) {
    FUZZ_CHECK(n <= 64, "%d moves", n);
    game g;
    if (game_init(&g, &v, NULL)) abort();
    for (int i = 0; i < n; i++) {
      FUZZ_CHECK(moves[i] >= 0 && moves[i] < v.pits, "move %d", moves[i]);
      if (game_play(&g, moves[i])) break;
    }
    game_free(&g);
  } else {
    FUZZ_CHECK_ERR(err);
  }
  free(text);
  return 0;
}
