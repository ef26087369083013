/* minimax_tt.c: minimax's transposition table: allocation and the clear between games. */
#include "players/minimax_tt.h"

#include <stdlib.h>

int mmtt_init(mmtt *t, long long mb) {
  t->e = NULL;
  t->mask = 0;
  t->dirty = NULL;
  t->dirty_cap = 0;
  atomic_init(&t->ndirty, 0);
  if (mb <= 0) return 0;
  size_t entries = 2;
  while (entries * 2 * sizeof(mmtt_entry) <= (size_t)mb << 20) entries *= 2;
  /* calloc's zero bytes are the empty entry (both words 0). */
  t->e = calloc(entries, sizeof *t->e);
  t->dirty_cap = entries / 8;
  t->dirty = malloc((t->dirty_cap ? t->dirty_cap : 1) * sizeof *t->dirty);
  if (!t->e || !t->dirty) {
    mmtt_free(t);
    return -1;
  }
  t->mask = entries - 1;
  return 0;
}

void mmtt_free(mmtt *t) {
  free(t->e);
  free(t->dirty);
  t->e = NULL;
  t->dirty = NULL;
}

static void clear_entry(mmtt *t, size_t i) {
  atomic_store_explicit(&t->e[i].data, 0, memory_order_relaxed);
  atomic_store_explicit(&t->e[i].check, 0, memory_order_relaxed);
}

void mmtt_clear(mmtt *t) {
  if (!t->e) return;
  size_t n = atomic_load_explicit(&t->ndirty, memory_order_relaxed);
  if (n > t->dirty_cap) {
    for (size_t i = 0; i <= t->mask; i++) clear_entry(t, i);
  } else {
    for (size_t k = 0; k < n; k++) {
      size_t b = (size_t)t->dirty[k] << 1;
      clear_entry(t, b);
      clear_entry(t, b + 1);
    }
  }
  atomic_store_explicit(&t->ndirty, 0, memory_order_relaxed);
}
