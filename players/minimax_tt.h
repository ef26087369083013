/* minimax_tt.h: minimax's transposition table, shared by the threads of one search without a data race. */
#ifndef OWARE_MINIMAX_TT_H
#define OWARE_MINIMAX_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum { MMTT_NONE, MMTT_EXACT, MMTT_LOWER, MMTT_UPPER };

/* One entry: `data` packs score (low 32 bits), depth, flag, move and age (a
 * byte each, from bit 32 up); `check` is key ^ data. Both are relaxed
 * atomics, so threads read and write them with no data race; an entry torn
 * by two concurrent writers (one's data, the other's check) fails the key
 * check and is a miss. An empty entry is 0, 0 (flag MMTT_NONE). */
typedef struct mmtt_entry {
  _Atomic uint64_t check, data;
} mmtt_entry;

/* An entry's fields, unpacked. */
typedef struct mmtt_hit {
  int score, depth, flag, move, age;
} mmtt_hit;

/* Buckets of two entries: slot 0 keeps the deeper entry of this search
 * (or replaces a stale one), slot 1 always takes the newest. */
typedef struct mmtt {
  mmtt_entry *e; /* NULL: no table */
  size_t mask;   /* entries - 1 */
  void *map;     /* the mapping e lies in (NULL: e was calloc'ed), map_len bytes */
  size_t map_len;
  /* Buckets written since the last clear, so that a new game clears only
   * those (a full clear of a big table costs more than a short game). A
   * thread that fills an empty entry takes the next index with an atomic
   * add; past the list's room (ndirty > cap), the clear is a full one. Two
   * threads filling the same bucket may both list it: it is cleared twice. */
  uint32_t *dirty;
  size_t dirty_cap;
  atomic_size_t ndirty;
} mmtt;

/* A table of the largest power of two of 16-byte entries within mb MiB
 * (none when mb <= 0). -1 when it cannot be allocated. */
int mmtt_init(mmtt *t, long long mb);
void mmtt_free(mmtt *t);
/* Empties the table; no search may run. */
void mmtt_clear(mmtt *t);

static inline uint64_t mmtt_pack(int score, int depth, int flag, int move, int age) {
  return (uint64_t)(uint32_t)score | (uint64_t)(depth > 255 ? 255 : depth) << 32 |
         (uint64_t)flag << 40 | (uint64_t)(uint8_t)move << 48 | (uint64_t)(uint8_t)age << 56;
}

/* Reads entry i: its key (0 for an empty entry) and fields. */
static inline uint64_t mmtt_read(const mmtt *t, size_t i, mmtt_hit *h) {
  uint64_t d = atomic_load_explicit(&t->e[i].data, memory_order_relaxed);
  uint64_t c = atomic_load_explicit(&t->e[i].check, memory_order_relaxed);
  h->score = (int32_t)(uint32_t)d;
  h->depth = (int)(d >> 32 & 255);
  h->flag = (int)(d >> 40 & 255);
  h->move = (int)(d >> 48 & 255);
  h->age = (int)(d >> 56);
  return c ^ d;
}

/* The first entry of key's bucket. */
static inline size_t mmtt_bucket(const mmtt *t, uint64_t key) {
  return key & t->mask & ~(size_t)1;
}

/* Asks the processor for the bucket of key ahead of its probe: a node
 * prefetches its child's before the child's first steps (the probe's load
 * missed the cache in half of the search's own time). */
static inline void mmtt_prefetch(const mmtt *t, uint64_t key) {
  __builtin_prefetch(&t->e[mmtt_bucket(t, key)]);
}

/* The entry of key in bucket b: 1 with its fields, or 0. */
static inline int mmtt_probe(const mmtt *t, size_t b, uint64_t key, mmtt_hit *h) {
  for (size_t i = b; i < b + 2; i++)
    if (mmtt_read(t, i, h) == key && h->flag != MMTT_NONE) return 1;
  return 0;
}

/* Stores an entry for key in bucket b by the replacement rule above. */
static inline void mmtt_store(mmtt *t, size_t b, uint64_t key, int score, int depth, int flag,
                              int move, int age) {
  mmtt_hit h0, h;
  size_t i = b + 1;
  if (mmtt_read(t, b, &h0) == key || h0.age != (uint8_t)age || depth >= h0.depth) i = b;
  if (i == b) h = h0;
  else mmtt_read(t, i, &h);
  if (h.flag == MMTT_NONE) { /* first use of this entry since the clear */
    size_t k = atomic_fetch_add_explicit(&t->ndirty, 1, memory_order_relaxed);
    if (k < t->dirty_cap) t->dirty[k] = (uint32_t)(b >> 1);
  }
  uint64_t d = mmtt_pack(score, depth, flag, move, age);
  atomic_store_explicit(&t->e[i].data, d, memory_order_relaxed);
  atomic_store_explicit(&t->e[i].check, key ^ d, memory_order_relaxed);
}

#endif
