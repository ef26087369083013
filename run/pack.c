/* pack.c: bytes for messages between processes: varints, doubles, strings and boards, written and read with bounds checks. */
#include "run/pack.h"

#include "core/error.h"

#include <stdlib.h>
#include <string.h>

void pack_init(pack_buf *b) { memset(b, 0, sizeof *b); }

void pack_free(pack_buf *b) {
  free(b->data);
  memset(b, 0, sizeof *b);
}

static int room(pack_buf *b, size_t n) {
  if (b->failed) return 0;
  if (b->len + n <= b->cap) return 1;
  size_t ncap = b->cap ? 2 * b->cap : 256;
  while (ncap < b->len + n) ncap *= 2;
  unsigned char *nd = realloc(b->data, ncap);
  if (!nd) {
    b->failed = 1;
    return 0;
  }
  b->data = nd;
  b->cap = ncap;
  return 1;
}

void pack_raw(pack_buf *b, const void *p, size_t n) {
  if (!n || !room(b, n)) return;
  memcpy(b->data + b->len, p, n);
  b->len += n;
}

void pack_u64(pack_buf *b, uint64_t x) {
  unsigned char tmp[10];
  size_t n = 0;
  do {
    unsigned char c = (unsigned char)(x & 0x7f);
    x >>= 7;
    tmp[n++] = (unsigned char)(c | (x ? 0x80 : 0));
  } while (x);
  pack_raw(b, tmp, n);
}

void pack_i64(pack_buf *b, int64_t x) {
  pack_u64(b, ((uint64_t)x << 1) ^ (uint64_t)(x < 0 ? -1 : 0));
}

void pack_f64(pack_buf *b, double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  unsigned char tmp[8];
  for (int i = 0; i < 8; i++) tmp[i] = (unsigned char)(u >> (8 * i));
  pack_raw(b, tmp, 8);
}

void pack_str(pack_buf *b, const char *s) {
  size_t n = s ? strlen(s) : 0;
  pack_u64(b, n);
  pack_raw(b, s, n);
}

void pack_board(pack_buf *b, const board *x, const variant *v) {
  pack_raw(b, x->pit, (size_t)v->pits);
  pack_raw(b, x->store, 2);
  pack_u64(b, x->side);
}

void pack_reader_init(pack_reader *r, const void *data, size_t len) {
  r->p = data;
  r->end = r->p + len;
  r->failed = 0;
}

size_t pack_left(const pack_reader *r) { return r->failed ? 0 : (size_t)(r->end - r->p); }

uint64_t pack_get_u64(pack_reader *r) {
  uint64_t x = 0;
  for (int shift = 0; !r->failed; shift += 7) {
    if (r->p >= r->end || shift > 63) {
      r->failed = 1;
      return 0;
    }
    unsigned char c = *r->p++;
    x |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) return x;
  }
  return 0;
}

int64_t pack_get_i64(pack_reader *r) {
  uint64_t u = pack_get_u64(r);
  return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

long long pack_get_int(pack_reader *r, long long lo, long long hi) {
  int64_t x = pack_get_i64(r);
  if (r->failed || x < lo || x > hi) {
    r->failed = 1;
    return lo;
  }
  return (long long)x;
}

void pack_get_raw(pack_reader *r, void *p, size_t n) {
  if (r->failed || (size_t)(r->end - r->p) < n) {
    r->failed = 1;
    if (n) memset(p, 0, n);
    return;
  }
  if (n) memcpy(p, r->p, n);
  r->p += n;
}

double pack_get_f64(pack_reader *r) {
  unsigned char tmp[8];
  pack_get_raw(r, tmp, 8);
  uint64_t u = 0;
  for (int i = 0; i < 8; i++) u |= (uint64_t)tmp[i] << (8 * i);
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

void pack_get_str(pack_reader *r, char *buf, size_t len) {
  uint64_t n = pack_get_u64(r);
  if (r->failed || n >= len || n > (uint64_t)(r->end - r->p)) {
    r->failed = 1;
    if (len) buf[0] = '\0';
    return;
  }
  memcpy(buf, r->p, (size_t)n);
  buf[n] = '\0';
  r->p += n;
}

char *pack_get_strdup(pack_reader *r) {
  uint64_t n = pack_get_u64(r);
  if (r->failed || n > (uint64_t)(r->end - r->p)) {
    r->failed = 1;
    return NULL;
  }
  char *s = malloc((size_t)n + 1);
  if (!s) {
    r->failed = 1;
    return NULL;
  }
  memcpy(s, r->p, (size_t)n);
  s[n] = '\0';
  r->p += n;
  return s;
}

void pack_get_board(pack_reader *r, board *x, const variant *v) {
  uint8_t pit[VARIANT_MAX_PITS], st[2];
  pack_get_raw(r, pit, (size_t)v->pits);
  pack_get_raw(r, st, 2);
  int side = (int)pack_get_u64(r);
  if (side != BOARD_SOUTH && side != BOARD_NORTH) r->failed = 1;
  int pits[VARIANT_MAX_PITS], stores[2] = {st[0], st[1]};
  for (int i = 0; i < v->pits; i++) pits[i] = pit[i];
  if (r->failed) {
    board_start(x, v);
    return;
  }
  board_set(x, v, pits, stores, side);
}

int pack_finish(const pack_buf *b, char *err, size_t errlen) {
  if (!b->failed) return 0;
  error_set(err, errlen, "out of memory");
  return -1;
}
