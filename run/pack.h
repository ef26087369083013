/* pack.h: bytes for messages between processes (the MPI backend): varints, doubles, strings, boards; the reader checks every length. */
#ifndef OWARE_PACK_H
#define OWARE_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/variant.h"

/* A growing buffer. A write that runs out of memory sets failed (and later
 * writes do nothing): check it once at the end. */
typedef struct pack_buf {
  unsigned char *data;
  size_t len, cap;
  int failed;
} pack_buf;

void pack_init(pack_buf *b);
void pack_free(pack_buf *b);
void pack_u64(pack_buf *b, uint64_t x);       /* LEB128 varint */
void pack_i64(pack_buf *b, int64_t x);        /* zigzag varint */
void pack_f64(pack_buf *b, double x);         /* the 8 bytes of the IEEE double, little-endian */
/* How a pack hook ends: 0, or -1 with "out of memory" when a write failed. */
int pack_finish(const pack_buf *b, char *err, size_t errlen);
void pack_str(pack_buf *b, const char *s);    /* length, then the bytes (NULL: empty) */
void pack_raw(pack_buf *b, const void *p, size_t n); /* n bytes as they are */
/* A position of variant v: houses, stores, side to move (the key is recomputed on reading). */
void pack_board(pack_buf *b, const board *x, const variant *v);

/* Reads what a pack_buf holds. A read past the end or a value out of range
 * sets failed and returns 0 (or an empty string): check failed at the end. */
typedef struct pack_reader {
  const unsigned char *p, *end;
  int failed;
} pack_reader;

void pack_reader_init(pack_reader *r, const void *data, size_t len);
uint64_t pack_get_u64(pack_reader *r);
int64_t pack_get_i64(pack_reader *r);
/* An i64 that must lie in [lo, hi] (else failed, and lo is returned). */
long long pack_get_int(pack_reader *r, long long lo, long long hi);
double pack_get_f64(pack_reader *r);
/* A string into buf (len bytes with its 0): too long sets failed. */
void pack_get_str(pack_reader *r, char *buf, size_t len);
/* A string as a new allocation (free it); NULL with failed set. */
char *pack_get_strdup(pack_reader *r);
void pack_get_raw(pack_reader *r, void *p, size_t n);
void pack_get_board(pack_reader *r, board *x, const variant *v);
/* Bytes not read yet. */
size_t pack_left(const pack_reader *r);

#endif
