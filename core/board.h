/* board.h: an Oware position with its Zobrist key; legal moves, sowing, capture, game end. */
#ifndef OWARE_BOARD_H
#define OWARE_BOARD_H

#include <stdint.h>
#include <string.h>

#include "core/variant.h"

#define BOARD_SOUTH 0
#define BOARD_NORTH 1

/* A position: house counts in sowing order (South 0..H-1, North H..2H-1),
 * the two stores, the side to move, and the Zobrist key of the house
 * counts and the side to move (what the repetition rule compares; the
 * stores are not in it). Small and copyable: copy-make is the idiom. */
typedef struct board {
  uint8_t pit[VARIANT_MAX_PITS];
  uint8_t store[2];
  uint8_t side;
  uint64_t key;
} board;

/* Why a game ended. board_status() finds the first two; game.c the others. */
typedef enum {
  BOARD_END_NONE,
  BOARD_END_MAJORITY,
  BOARD_END_NO_MOVE,
  BOARD_END_REPETITION,
  BOARD_END_PLY_LIMIT
} board_end;

/* "majority", "no-move", "repetition", "ply-limit" ("playing" for NONE). */
const char *board_end_name(board_end e);

/* The start position of variant v. */
void board_start(board *b, const variant *v);

/* Builds a position from counts; computes the key. Does not check totals. */
void board_set(board *b, const variant *v, const int *pits, const int stores[2], int side);

/* Legal moves of the side to move, as a bit mask of house indices
 * (bit i = house i). Applies feeding and grand_slam=forbidden. */
uint32_t board_legal(const board *b, const variant *v);

/* Plays house m, which must be legal. Returns the seeds captured.
 * Hot path: no allocation, no I/O. */
int board_play(board *b, const variant *v, int m);

/* board_play, which also sets *captured to the houses the move's capture
 * emptied (bit i = house i; 0 when it took nothing): what a viewer marks. */
int board_play_captured(board *b, const variant *v, int m, uint32_t *captured);

/* Whether playing house m (a non-empty house of the side to move) would
 * capture every seed on the opponent's side, whatever the grand_slam rule. */
int board_is_grand_slam(const board *b, const variant *v, int m);

/* The grand-slam rule (shared/RULES.md): the seeds a capture of `taken`
 * seeds that would empty the opponent's row really takes, for a mover whose
 * store holds `stored`: none under `nothing`, all of them under `all` and
 * `forbidden` (a forbidden grand slam is played only when every move is
 * one, and then captures), and under `win` all only when that passes half
 * the seeds. The one place the rule is written; board_play uses it. */
static inline int board_grand_slam_take(const variant *v, int stored, int taken) {
  if (v->grand_slam == VARIANT_GS_NOTHING ||
      (v->grand_slam == VARIANT_GS_WIN && stored + taken <= v->half))
    return 0;
  return taken;
}

/* Whether house m of the side to move is a legal move that captures
 * nothing: as (board_legal >> m & 1) && board_play on a copy returns 0,
 * without finding every legal move or playing it unless it sows a lap
 * (the hot path of the endgame build's un-sowing). */
int board_quiet_move(const board *b, const variant *v, int m);

/* Seeds that side s would capture by playing its non-empty house m, the
 * grand-slam rule applied, as board_play on a copy with side s to move
 * would return; without playing the move unless it sows a lap or more (the
 * common case is a walk over the opponent's houses). Hot path of the
 * evaluation, of move ordering and of MCTS playouts; tests/test_diff.c
 * checks it against board_play. */
static inline int board_capture_of(const board *b, const variant *v, int s, int m) {
  const int P = v->pits, n = b->pit[m], lo = (1 - s) * v->houses, hi = lo + v->houses;
  if (n >= P) {
    board c = *b;
    c.side = (uint8_t)s;
    return board_play(&c, v, m);
  }
  int last = m + n;
  if (last >= P) last -= P;
  if (last < lo || last >= hi) return 0;
  int take = 0; /* houses lo..last each got one seed; walk back while 2 or 3 */
  for (int q = last; q >= lo; q--) {
    int c = b->pit[q] + 1;
    if (c != 2 && c != 3) break;
    take += c;
  }
  if (take) {
    int opp = last - lo + 1; /* the opponent's row after the sowing */
    for (int q = lo; q < hi; q++) opp += b->pit[q];
    if (take == opp) take = board_grand_slam_take(v, b->store[s], take);
  }
  return take;
}

/* Majority or no-move end of the position, else BOARD_END_NONE; stores the
 * legal moves in *legal when legal is not NULL (0 when over). */
board_end board_status(const board *b, const variant *v, uint32_t *legal);

/* Final scores, in half seeds (score2[i] = 2 * seeds), of a game that ended
 * for `why` in position b: the stores plus the transfer of the seeds still
 * on the board that rule `why` makes (cycle=split may give half seeds). */
void board_final(const board *b, const variant *v, board_end why, int score2[2]);

/* The position after that final transfer: houses emptied where the rule
 * transfers them, stores set to the whole part of score2. */
void board_final_position(const board *b, const variant *v, board_end why, board *after);

/* A random opening: `plies` uniformly random legal moves from the start of
 * v, drawn from seed (attempt k uses rng_mix(seed, k)); a line that ends
 * the game is dropped for the next attempt. After 1000 attempts the first
 * line is cut before its end. Returns the plies played. */
int board_random_opening(board *b, const variant *v, int plies, uint64_t seed);

/* The same from the position from instead of the start (b may not be from). */
int board_random_line(board *b, const variant *v, const board *from, int plies, uint64_t seed);

/* Seeds on side s's row. */
int board_row(const board *b, const variant *v, int s);

/* Side s's row as 8 bytes: house counts in the low H bytes (house 0 of the
 * row lowest), the other bytes 0. For word-at-a-time (SWAR) code. */
static inline uint64_t board_row_word(const board *b, const variant *v, int s) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t w; /* s * H + 8 <= 16: always inside pit[] */
  memcpy(&w, b->pit + s * v->houses, sizeof w);
  return v->houses == 8 ? w : w & ((1ULL << (8 * v->houses)) - 1);
#else
  uint64_t w = 0;
  for (int i = 0; i < v->houses; i++) w |= (uint64_t)b->pit[s * v->houses + i] << (8 * i);
  return w;
#endif
}

/* The key recomputed from scratch. */
uint64_t board_compute_key(const board *b, const variant *v);

/* Debug check: seed total equals T and the key equals the recomputed one. */
int board_ok(const board *b, const variant *v);

/* The random values behind the key, for keys of derived things (a search
 * can mix in the stores): zobrist value of `store` seeds in South's store. */
uint64_t board_store_key(int store);

#endif
