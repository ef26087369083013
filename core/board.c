/* board.c: sowing, capture, grand slam, legal moves and game end (shared/RULES.md). */
#include "core/board.h"

#include <pthread.h>
#include <string.h>

#include "core/rng.h"

/* Zobrist values: one per (house, count), one for North to move, and one
 * per South store count for keys that also cover the stores. */
static uint64_t zpit[VARIANT_MAX_PITS][VARIANT_MAX_TOTAL + 1];
static uint64_t zinc[VARIANT_MAX_PITS][VARIANT_MAX_TOTAL]; /* zpit[p][c] ^ zpit[p][c+1] */
static uint64_t zside;
static uint64_t zstore[VARIANT_MAX_TOTAL + 1];
static pthread_once_t zonce = PTHREAD_ONCE_INIT;

static void zinit(void) {
  rng r;
  rng_seed(&r, 0x0a3a1eULL);
  for (int p = 0; p < VARIANT_MAX_PITS; p++)
    for (int c = 0; c <= VARIANT_MAX_TOTAL; c++) zpit[p][c] = rng_next(&r);
  for (int p = 0; p < VARIANT_MAX_PITS; p++)
    for (int c = 0; c < VARIANT_MAX_TOTAL; c++) zinc[p][c] = zpit[p][c] ^ zpit[p][c + 1];
  zside = rng_next(&r);
  for (int c = 0; c <= VARIANT_MAX_TOTAL; c++) zstore[c] = rng_next(&r);
}

static void ztables(void) { pthread_once(&zonce, zinit); }

uint64_t board_store_key(int store) {
  ztables();
  return zstore[store];
}

const char *board_end_name(board_end e) {
  static const char *const names[] = {"playing", "majority", "no-move", "repetition",
                                      "ply-limit"};
  return names[e];
}

uint64_t board_compute_key(const board *b, const variant *v) {
  ztables();
  uint64_t k = b->side ? zside : 0;
  for (int p = 0; p < v->pits; p++) k ^= zpit[p][b->pit[p]];
  return k;
}

void board_set(board *b, const variant *v, const int *pits, const int stores[2], int side) {
  memset(b, 0, sizeof *b);
  for (int p = 0; p < v->pits; p++) b->pit[p] = (uint8_t)pits[p];
  b->store[0] = (uint8_t)stores[0];
  b->store[1] = (uint8_t)stores[1];
  b->side = (uint8_t)side;
  b->key = board_compute_key(b, v);
}

void board_start(board *b, const variant *v) {
  int pits[VARIANT_MAX_PITS];
  const int stores[2] = {0, 0};
  for (int p = 0; p < v->pits; p++) pits[p] = v->seeds;
  board_set(b, v, pits, stores, BOARD_SOUTH);
}

int board_row(const board *b, const variant *v, int s) {
  const uint8_t *row = b->pit + s * v->houses;
  int n = 0;
  for (int i = 0; i < v->houses; i++) n += row[i];
  return n;
}

int board_ok(const board *b, const variant *v) {
  int t = b->store[0] + b->store[1];
  for (int p = 0; p < v->pits; p++) t += b->pit[p];
  for (int p = v->pits; p < VARIANT_MAX_PITS; p++)
    if (b->pit[p]) return 0;
  return t == v->total && b->side <= 1 && b->key == board_compute_key(b, v);
}

/* Takes the seeds out of house m and sows them; returns the last house sown.
 * Keeps the key of the houses up to date (not the side). */
static inline __attribute__((always_inline)) int sow(board *b, const variant *v, int m) {
  const int P = v->pits;
  int n = b->pit[m];
  uint64_t k = b->key ^ zpit[m][n] ^ zpit[m][0];
  b->pit[m] = 0;
  int p = m;
  if (n < P) {
    /* The common case: less than a lap, the origin is never reached. */
    int end = m + n; /* sow m+1..end, wrapping at P, in two plain runs */
    int stop = end < P ? end : P - 1;
    for (p = m + 1; p <= stop; p++) k ^= zinc[p][b->pit[p]++];
    for (p = 0; p <= end - P; p++) k ^= zinc[p][b->pit[p]++];
    p = end < P ? end : end - P;
  } else {
    const int skip = v->lap == VARIANT_LAP_SKIP;
    const int per = skip ? P - 1 : P; /* houses a lap sows into */
    const int laps = n / per, rem = n % per;
    for (int i = 1; i <= P; i++) {
      int q = (m + i) % P;
      if (skip && q == m) continue;
      int c = b->pit[q];
      int add = laps + (i <= rem);
      k ^= zpit[q][c] ^ zpit[q][c + add];
      b->pit[q] = (uint8_t)(c + add);
    }
    if (rem) p = (m + rem) % P;
    else p = skip ? (m + P - 1) % P : m;
  }
  b->key = k;
  return p;
}

/* The capture chain that ends at house `last` after side s sowed: seeds it
 * would take (0 when last is not the opponent's) and where it starts. */
static inline int chain(const board *b, const variant *v, int s, int last, int *first) {
  const int lo = (1 - s) * v->houses, hi = lo + v->houses;
  int taken = 0, p = last;
  if (last < lo || last >= hi) {
    *first = last + 1;
    return 0;
  }
  while (p >= lo && (b->pit[p] == 2 || b->pit[p] == 3)) taken += b->pit[p--];
  *first = p + 1;
  return taken;
}

int board_is_grand_slam(const board *b, const variant *v, int m) {
  board c = *b;
  int s = c.side, first;
  int last = sow(&c, v, m);
  int taken = chain(&c, v, s, last, &first);
  return taken > 0 && taken == board_row(&c, v, 1 - s);
}

/* board_play, and the houses the capture emptied into *captured (a bit
 * mask by house index) when captured is not NULL. */
static inline int play(board *b, const variant *v, int m, uint32_t *captured) {
  const int s = b->side;
  int last = sow(b, v, m);
  int first;
  int taken = chain(b, v, s, last, &first);
  if (captured) *captured = 0;
  if (taken) {
    if (v->grand_slam != VARIANT_GS_ALL && v->grand_slam != VARIANT_GS_FORBIDDEN &&
        taken == board_row(b, v, 1 - s))
      taken = board_grand_slam_take(v, b->store[s], taken);
    if (taken) {
      uint64_t k = b->key;
      for (int p = first; p <= last; p++) {
        k ^= zpit[p][b->pit[p]] ^ zpit[p][0];
        b->pit[p] = 0;
        if (captured) *captured |= 1u << p;
      }
      b->key = k;
      b->store[s] = (uint8_t)(b->store[s] + taken);
    }
  }
  b->side = (uint8_t)(1 - s);
  b->key ^= zside;
  return taken;
}

int board_play(board *b, const variant *v, int m) { return play(b, v, m, NULL); }

int board_play_captured(board *b, const variant *v, int m, uint32_t *captured) {
  return play(b, v, m, captured);
}

/* Bit i set when byte i of w is not zero. */
static inline uint32_t nonzero_bytes(uint64_t w) {
  const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL;
  uint64_t hi = ((w & lo7) + lo7) | w; /* high bit of each byte: byte != 0 */
  hi &= ~lo7;
  return (uint32_t)(((hi >> 7) * 0x0102040810204080ULL) >> 56);
}

uint32_t board_legal(const board *b, const variant *v) {
  const int H = v->houses, s = b->side, base = s * H;
  uint32_t own = nonzero_bytes(board_row_word(b, v, s));
  if (!own) return 0;
  if (v->feeding == VARIANT_FEED_MUST && board_row_word(b, v, 1 - s) == 0) {
    /* Only moves that reach the opponent's row: house r needs H - r seeds. */
    for (int r = 0; r < H; r++)
      if (b->pit[base + r] < H - r) own &= ~(1u << r);
  }
  uint32_t mask = own << base;
  if (v->grand_slam == VARIANT_GS_FORBIDDEN && mask) {
    uint32_t slams = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
      int h = __builtin_ctz(m), n = b->pit[h];
      /* A capture needs the last seed in an opponent house that held 1 or 2
       * (a lap can do anything): most moves are ruled out without sowing. */
      if (n < v->pits) {
        int last = h + n < v->pits ? h + n : h + n - v->pits, lo = (1 - s) * H;
        if (last < lo || last >= lo + H || (b->pit[last] != 1 && b->pit[last] != 2)) continue;
        /* ... and the opponent's houses past it, which it does not reach, empty. */
        int q = last + 1;
        while (q < lo + H && !b->pit[q]) q++;
        if (q < lo + H) continue;
      }
      if (board_is_grand_slam(b, v, h)) slams |= 1u << h;
    }
    if (mask & ~slams) mask &= ~slams;
  }
  return mask;
}

int board_quiet_move(const board *b, const variant *v, int m) {
  const int H = v->houses, s = b->side, n = b->pit[m];
  if (m < s * H || m >= (s + 1) * H || !n) return 0;
  /* Feeding: what board_legal keeps when the opponent's row is empty (read
   * a byte at a time: a board just written bytewise stalls a word read). */
  if (v->feeding == VARIANT_FEED_MUST && n < H - (m - s * H)) {
    int q = (1 - s) * H;
    while (q < (2 - s) * H && !b->pit[q]) q++;
    if (q == (2 - s) * H) return 0;
  }
  /* A move that captures nothing is no grand slam, so the grand-slam rule
   * of board_legal keeps it; one that captures is not quiet either way. */
  return board_capture_of(b, v, s, m) == 0;
}

board_end board_status(const board *b, const variant *v, uint32_t *legal) {
  if (b->store[0] > v->half || b->store[1] > v->half ||
      (b->store[0] == v->half && b->store[1] == v->half)) {
    if (legal) *legal = 0;
    return BOARD_END_MAJORITY;
  }
  uint32_t l = board_legal(b, v);
  if (legal) *legal = l;
  return l ? BOARD_END_NONE : BOARD_END_NO_MOVE;
}

void board_final(const board *b, const variant *v, board_end why, int score2[2]) {
  const int row0 = board_row(b, v, 0), row1 = board_row(b, v, 1);
  score2[0] = 2 * b->store[0];
  score2[1] = 2 * b->store[1];
  if (why == BOARD_END_MAJORITY || why == BOARD_END_NONE) return;
  if (why != BOARD_END_NO_MOVE && v->cycle == VARIANT_CYCLE_SPLIT) {
    score2[0] += row0 + row1;
    score2[1] += row0 + row1;
  } else {
    score2[0] += 2 * row0;
    score2[1] += 2 * row1;
  }
}

void board_final_position(const board *b, const variant *v, board_end why, board *after) {
  int score2[2];
  board_final(b, v, why, score2);
  *after = *b;
  if (why == BOARD_END_MAJORITY || why == BOARD_END_NONE) return;
  memset(after->pit, 0, sizeof after->pit);
  after->store[0] = (uint8_t)(score2[0] / 2);
  after->store[1] = (uint8_t)(score2[1] / 2);
  after->key = board_compute_key(after, v);
}

int board_random_opening(board *b, const variant *v, int plies, uint64_t seed) {
  board start;
  board_start(&start, v);
  return board_random_line(b, v, &start, plies, seed);
}

int board_random_line(board *b, const variant *v, const board *from, int plies, uint64_t seed) {
  board keep; /* the first line's last position with the game still going */
  int kept = 0;
  for (uint64_t attempt = 0; attempt < 1000; attempt++) {
    rng r;
    rng_seed(&r, rng_mix(seed, attempt));
    *b = *from;
    if (!attempt) keep = *b;
    uint32_t legal;
    int ply = 0;
    for (; ply < plies; ply++) {
      if (board_status(b, v, &legal) != BOARD_END_NONE) break;
      for (uint32_t k = rng_below(&r, (uint32_t)__builtin_popcount(legal)); k; k--)
        legal &= legal - 1;
      board_play(b, v, __builtin_ctz(legal));
      if (!attempt && board_status(b, v, NULL) == BOARD_END_NONE) keep = *b, kept = ply + 1;
    }
    if (ply == plies && board_status(b, v, &legal) == BOARD_END_NONE) return plies;
  }
  *b = keep;
  return kept;
}
