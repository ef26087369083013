/* book.c: the opening book's file: written whole, read whole and checked, probed by position. */
#include "players/book.h"
#include "core/error.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/outfile.h"
#include "players/book_file.h"
#include "players/player.h"
#include "core/path.h"

static const char magic[8] = "OWBOOK1";

enum { OFF_VARIANT = 8, OFF_PLIES = 104, OFF_DEPTH = 108, OFF_NODES = 112, OFF_COUNT = 120,
       OFF_SUM = 128 };

struct book {
  book_info info;
  uint8_t *entries; /* info.count entries, sorted by key */
};

void book_default_path(char *buf, size_t len) { path_cache(buf, len, "book.bin"); }

static void put(uint8_t *p, uint64_t x, int bytes) {
  for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(x >> (8 * i));
}

static uint64_t get(const uint8_t *p, int bytes) {
  uint64_t x = 0;
  for (int i = bytes - 1; i >= 0; i--) x = x << 8 | p[i];
  return x;
}

/* FNV-1a, 64 bits. */
static uint64_t checksum(const uint8_t *p, size_t len) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h;
}

void book_key(const board *b, uint8_t key[BOOK_KEY]) {
  memcpy(key, b->pit, VARIANT_MAX_PITS);
  key[16] = b->store[0];
  key[17] = b->store[1];
  key[18] = b->side;
}

void book_entry(uint8_t e[BOOK_ENTRY_SIZE], const board *b, int move, int score) {
  memset(e, 0, BOOK_ENTRY_SIZE);
  book_key(b, e);
  e[19] = (uint8_t)move;
  put(e + 20, (uint32_t)score, 4);
}

int book_write(const char *path, const book_info *info, const uint8_t *entries, size_t count,
               char *err, size_t errlen) {
  uint8_t h[BOOK_HEADER_SIZE] = {0};
  memcpy(h, magic, sizeof magic);
  snprintf((char *)h + OFF_VARIANT, BOOK_VARIANT_FIELD, "%s", info->variant_text);
  put(h + OFF_PLIES, (uint32_t)info->plies, 4);
  put(h + OFF_DEPTH, (uint32_t)info->depth, 4);
  put(h + OFF_NODES, (uint64_t)info->nodes, 8);
  put(h + OFF_COUNT, count, 8);
  put(h + OFF_SUM, checksum(entries, count * BOOK_ENTRY_SIZE), 8);
  outfile o;
  if (outfile_open(&o, path, err, errlen)) return -1;
  if (fwrite(h, 1, sizeof h, o.f) == sizeof h && count)
    fwrite(entries, BOOK_ENTRY_SIZE, count, o.f);
  return outfile_commit(&o, err, errlen);
}

/* Checks every entry: a position of v (houses past v's zero, the seeds
 * adding up, side 0 or 1) that is not over, with a legal move, a score in
 * range, after the one before it. NULL, or what is wrong. */
static const char *check_entries(const book *b, long long *bad) {
  const variant *v = &b->info.v;
  for (long long i = 0; i < b->info.count; i++) {
    const uint8_t *e = b->entries + i * BOOK_ENTRY_SIZE;
    *bad = i + 1;
    if (i > 0 && memcmp(e - BOOK_ENTRY_SIZE, e, BOOK_KEY) >= 0)
      return "out of order or repeated (the entries must be sorted by position)";
    int pits[VARIANT_MAX_PITS], stores[2] = {e[16], e[17]}, sum = e[16] + e[17];
    for (int k = 0; k < VARIANT_MAX_PITS; k++) {
      if (k >= v->pits && e[k]) return "has seeds in a house the variant does not have";
      pits[k] = e[k];
      sum += e[k];
    }
    if (sum != v->total) return "does not hold the variant's seeds";
    if (e[18] > 1) return "has a side to move other than 0 or 1";
    board pos;
    board_set(&pos, v, pits, stores, e[18]);
    uint32_t legal;
    if (board_status(&pos, v, &legal) != BOARD_END_NONE) return "is a position where the game is over";
    if (e[19] >= v->pits || !(legal >> e[19] & 1u)) return "has a move that is not legal there";
    int32_t sc = (int32_t)(uint32_t)get(e + 20, 4);
    if (sc > PLAYER_WIN || sc < -PLAYER_WIN) return "has a score out of range";
    for (int k = 24; k < BOOK_ENTRY_SIZE; k++)
      if (e[k]) return "has bytes that should be zero";
  }
  return NULL;
}

int book_load(const char *path, book **out, char *err, size_t errlen) {
  *out = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    error_set(err, errlen, "book %s: cannot open it: %s", path, strerror(errno));
    return -1;
  }
  uint8_t h[BOOK_HEADER_SIZE];
  size_t got = fread(h, 1, sizeof h, f);
  if (got < sizeof h || memcmp(h, magic, sizeof magic)) {
    error_set(err, errlen, "book %s: not a book file (%s)", path,
             got < sizeof h ? "shorter than the header" : "wrong magic");
    fclose(f);
    return -1;
  }
  book *b = calloc(1, sizeof *b);
  if (!b) {
    error_set(err, errlen, "book %s: out of memory", path);
    fclose(f);
    return -1;
  }
  const char *what = NULL;
  char verr[ERROR_MAX] = "";
  memcpy(b->info.variant_text, h + OFF_VARIANT, BOOK_VARIANT_FIELD);
  uint64_t count = get(h + OFF_COUNT, 8);
  b->info.plies = (int)get(h + OFF_PLIES, 4);
  b->info.depth = (int)get(h + OFF_DEPTH, 4);
  b->info.nodes = (long long)get(h + OFF_NODES, 8);
  if (b->info.variant_text[BOOK_VARIANT_FIELD - 1] ||
      variant_parse(b->info.variant_text, &b->info.v, verr, sizeof verr))
    what = "its variant cannot be read";
  else if (count > (uint64_t)1 << 32)
    what = "its entry count is not believable";
  else if (get(h + OFF_PLIES, 4) > 64 || get(h + OFF_DEPTH, 4) > 64 ||
           get(h + OFF_NODES, 8) > 1000000000000ULL)
    what = "its plies, depth or node budget is out of range";
  struct stat st; /* the size the header implies, before any allocation */
  if (!what && !fstat(fileno(f), &st) && S_ISREG(st.st_mode)) {
    uint64_t want = BOOK_HEADER_SIZE + count * BOOK_ENTRY_SIZE;
    if ((uint64_t)st.st_size < want) what = "it is truncated (fewer entries than its header says)";
    else if ((uint64_t)st.st_size > want) what = "it is longer than its header says";
  }
  if (!what) {
    b->info.count = (long long)count;
    b->entries = malloc(count ? count * BOOK_ENTRY_SIZE : 1);
    if (!b->entries) what = "out of memory";
    else if (fread(b->entries, BOOK_ENTRY_SIZE, count, f) != count)
      what = "it is truncated (fewer entries than its header says)";
    else if (fgetc(f) != EOF)
      what = "it is longer than its header says";
    else if (checksum(b->entries, count * BOOK_ENTRY_SIZE) != get(h + OFF_SUM, 8))
      what = "checksum mismatch (the file is corrupt)";
  }
  fclose(f);
  long long bad = 0;
  if (!what && (what = check_entries(b, &bad))) {
    error_set(err, errlen, "book %s: entry %lld %s", path, bad, what);
    book_free(b);
    return -1;
  }
  if (what) {
    error_set(err, errlen, "book %s: %s%s%s", path, what, *verr ? ": " : "", verr);
    book_free(b);
    return -1;
  }
  /* The canonical form, whichever way the file wrote it. */
  variant_format(&b->info.v, b->info.variant_text, sizeof b->info.variant_text);
  *out = b;
  return 0;
}

const book_info *book_get_info(const book *b) { return &b->info; }

void book_free(book *b) {
  if (!b) return;
  free(b->entries);
  free(b);
}

int book_matches(const book *b, const variant *v) {
  char t[256];
  variant_format(v, t, sizeof t);
  return !strcmp(t, b->info.variant_text);
}

int book_probe(const book *b, const board *pos, int *move, int *score) {
  uint8_t key[BOOK_KEY];
  book_key(pos, key);
  long long lo = 0, hi = b->info.count;
  while (lo < hi) {
    long long mid = lo + (hi - lo) / 2;
    const uint8_t *e = b->entries + mid * BOOK_ENTRY_SIZE;
    int c = memcmp(e, key, BOOK_KEY);
    if (c == 0) {
      *move = e[19];
      if (score) *score = (int32_t)(uint32_t)get(e + 20, 4);
      return 1;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}
