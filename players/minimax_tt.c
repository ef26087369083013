/* minimax_tt.c: minimax's transposition table: allocation and the clear between games. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS, madvise's MADV_HUGEPAGE */
#include "players/minimax_tt.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif
#if defined(__linux__) && !defined(__EMSCRIPTEN__) && defined(MADV_HUGEPAGE)
#define MMTT_MAPPED 1
#else
#define MMTT_MAPPED 0
#endif

/* A table of this size or more is mapped on its own, aligned to it, and
 * the kernel asked for huge pages there (transparent huge pages, where it
 * gives them on request): a probe then finds its page in the TLB instead
 * of walking the page tables (Linux; elsewhere calloc). */
#define MMTT_HUGE ((size_t)2 << 20)

/* Zeroed room for the entries: mapped (t->map, t->map_len) or calloc'ed. */
static mmtt_entry *entries_alloc(mmtt *t, size_t entries) {
#if MMTT_MAPPED
  const size_t bytes = entries * sizeof(mmtt_entry);
  if (bytes >= MMTT_HUGE) {
    size_t len = bytes + MMTT_HUGE;
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED) {
      uintptr_t a = ((uintptr_t)m + MMTT_HUGE - 1) & ~(uintptr_t)(MMTT_HUGE - 1);
      (void)madvise((void *)a, bytes, MADV_HUGEPAGE); /* a request: without it, small pages */
      t->map = m;
      t->map_len = len;
      return (mmtt_entry *)a; /* anonymous pages read as zero */
    }
  }
#else
  (void)t;
#endif
  return calloc(entries, sizeof(mmtt_entry));
}

int mmtt_init(mmtt *t, long long mb) {
  t->e = NULL;
  t->mask = 0;
  t->dirty = NULL;
  t->dirty_cap = 0;
  t->map = NULL;
  t->map_len = 0;
  atomic_init(&t->ndirty, 0);
  if (mb <= 0) return 0;
  size_t entries = 2;
  while (entries * 2 * sizeof(mmtt_entry) <= (size_t)mb << 20) entries *= 2;
  /* Zero bytes are the empty entry (both words 0). */
  t->e = entries_alloc(t, entries);
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
#if MMTT_MAPPED
  if (t->map) munmap(t->map, t->map_len);
  else free(t->e);
#else
  free(t->e);
#endif
  t->map = NULL;
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
