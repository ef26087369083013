/* perft.c: recursive move-tree counting with bulk counting at the last ply. */
#include "core/perft.h"

uint64_t perft_count(const board *b, const variant *v, int depth) {
  uint32_t legal;
  if (depth == 0) return 1;
  if (board_status(b, v, &legal) != BOARD_END_NONE) return 0;
  if (depth == 1) return (uint64_t)__builtin_popcount(legal);
  uint64_t n = 0;
  for (; legal; legal &= legal - 1) {
    board c = *b;
    board_play(&c, v, __builtin_ctz(legal));
    n += perft_count(&c, v, depth - 1);
  }
  return n;
}
