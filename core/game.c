/* game.c: move history, repetition and ply-limit endings, final scores. */
#include "core/game.h"

#include <stdlib.h>
#include <string.h>

static void finish(game *g, board_end why) {
  g->end = why;
  g->legal = 0;
  board_final(&g->pos, &g->v, why, g->score2);
  g->winner = g->score2[0] > g->score2[1]   ? BOARD_SOUTH
              : g->score2[1] > g->score2[0] ? BOARD_NORTH
                                            : GAME_DRAW;
}

/* Adds the current key to the filter; returns whether it may be there already. */
static inline int repeated(game *g) {
  uint64_t k = g->pos.key >> 56;
  uint64_t bit = 1ULL << (k & 63), *w = &g->seen[k >> 6];
  int hit = (*w & bit) != 0;
  *w |= bit;
  return hit;
}

/* Applies the end rules to the current position. */
static void check_end(game *g) {
  board_end e = board_status(&g->pos, &g->v, &g->legal);
  if (e != BOARD_END_NONE) {
    finish(g, e);
  } else if (g->v.repetition && repeated(g) && game_occurrences(g) >= g->v.repetition) {
    finish(g, BOARD_END_REPETITION);
  } else if (g->v.max_plies && g->plies >= g->v.max_plies) {
    finish(g, BOARD_END_PLY_LIMIT);
  }
}

int game_init(game *g, const variant *v, const board *start) {
  memset(g, 0, sizeof *g);
  g->v = *v;
  if (start) g->start = *start;
  else board_start(&g->start, v);
  g->pos = g->start;
  g->moves_cap = 128;
  g->hist_cap = 64;
  g->moves = malloc((size_t)g->moves_cap);
  g->hist = malloc((size_t)g->hist_cap * sizeof *g->hist);
  if (!g->moves || !g->hist) {
    game_free(g);
    return -1;
  }
  g->hist[g->hist_len++] = g->pos.key;
  g->end = BOARD_END_NONE;
  g->winner = GAME_PLAYING;
  check_end(g);
  return 0;
}

void game_free(game *g) {
  free(g->moves);
  free(g->hist);
  g->moves = NULL;
  g->hist = NULL;
  g->moves_cap = g->hist_cap = 0;
}

int game_occurrences(const game *g) {
  /* Positions alternate the side to move: only every other one can match. */
  int n = 0;
  uint64_t k = g->pos.key;
  for (int i = g->hist_len - 1; i >= 0; i -= 2) n += g->hist[i] == k;
  return n;
}

static int grow(void **p, int *cap, size_t size) {
  int ncap = *cap * 2;
  void *q = realloc(*p, (size_t)ncap * size);
  if (!q) return -1;
  *p = q;
  *cap = ncap;
  return 0;
}

int game_play(game *g, int m) {
  if (g->end != BOARD_END_NONE || m < 0 || m >= g->v.pits || !(g->legal >> m & 1)) return -1;
  if (g->plies == g->moves_cap && grow((void **)&g->moves, &g->moves_cap, 1)) return -2;
  if (g->hist_len == g->hist_cap &&
      grow((void **)&g->hist, &g->hist_cap, sizeof *g->hist))
    return -2;
  int taken = board_play(&g->pos, &g->v, m);
  g->moves[g->plies++] = (uint8_t)m;
  if (taken) { /* earlier positions can never come back */
    g->hist_len = 0;
    memset(g->seen, 0, sizeof g->seen);
  }
  g->hist[g->hist_len++] = g->pos.key;
  check_end(g);
  return 0;
}

void game_end_now(game *g, board_end why) {
  if (g->end == BOARD_END_NONE) finish(g, why);
}

void game_shown_position(const game *g, board *out) {
  if (g->end == BOARD_END_NONE) *out = g->pos;
  else board_final_position(&g->pos, &g->v, g->end, out);
}

const char *game_winner_name(int winner) {
  return winner == BOARD_SOUTH   ? "south"
         : winner == BOARD_NORTH ? "north"
         : winner == GAME_DRAW   ? "draw"
                                 : "playing";
}
