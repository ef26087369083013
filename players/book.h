/* book.h: the opening book: positions of the first plies with the move our own deep search chose, its file, and its build. */
#ifndef OWARE_BOOK_H
#define OWARE_BOOK_H

#include <stddef.h>

#include "core/board.h"
#include "core/variant.h"

/* ---- The file (book.c) ----
 *
 * A header of BOOK_HEADER_SIZE bytes, then `count` entries of
 * BOOK_ENTRY_SIZE bytes, sorted by position (no two alike). Numbers are
 * little-endian.
 *   header: magic "OWBOOK1\0" (8), variant string (96, NUL-padded, as
 *           variant_format writes it), plies (u32), depth (u32), nodes
 *           (u64: the node budget, 0 = none), count (u64), checksum of the
 *           entries (u64), zeros to the end.
 *   entry:  houses (16 bytes, zeros past the variant's houses), stores (2),
 *           side to move (1), best move (1, a house index), score (i32,
 *           centiseeds from the side to move, PLAYER_WIN scale).
 */
#define BOOK_HEADER_SIZE 160
#define BOOK_ENTRY_SIZE 24
#define BOOK_VARIANT_FIELD 96

typedef struct book book;

/* What a book file says about itself. */
typedef struct book_info {
  variant v;
  char variant_text[BOOK_VARIANT_FIELD];
  int plies, depth;
  long long nodes;
  long long count;
} book_info;

/* The default file: $XDG_CACHE_HOME/oware/book.bin or ~/.cache/oware/book.bin. */
void book_default_path(char *buf, size_t len);

/* Reads and checks a whole book file (size, magic, variant, checksum, order,
 * each entry a position of the variant with a legal move). Returns 0 with
 * *out, or -1 with a message naming the file and what is wrong. */
int book_load(const char *path, book **out, char *err, size_t errlen);
void book_free(book *b);
const book_info *book_get_info(const book *b);

/* Whether v is the book's variant (the same rules, however written). */
int book_matches(const book *b, const variant *v);

/* The book's move for pos (a position of the book's variant): 1 with *move
 * and *score (may be NULL) when pos is in the book, else 0. */
int book_probe(const book *b, const board *pos, int *move, int *score);

/* ---- The build (book_build.c) ---- */

typedef struct book_build_config {
  variant v;
  int plies;       /* the positions before each of the first `plies` moves */
  int depth;       /* minimax depth of each search */
  long long nodes; /* or a node budget per search (0 = none) */
  int threads;     /* worker threads sharing the positions */
} book_build_config;

typedef struct book_build_stats {
  long long positions; /* entries written */
  long long nodes;     /* nodes searched in all */
  double seconds;
} book_build_stats;

/* Progress: done of total positions searched. Called on the workers'
 * threads, one call at a time. */
typedef void (*book_progress_fn)(void *ctx, long long done, long long total);

/* Enumerates the positions reachable in the first c->plies plies from the
 * variant's start (deduplicated; positions where the game is over left
 * out), searches each with minimax (depth c->depth or the node budget,
 * each from a cleared table as the first move of a game, so the result does
 * not depend on the threads or the order) and writes the book to path,
 * whole or not at all. Returns 0, or -1 with err. */
int book_build(const book_build_config *c, const char *path, book_progress_fn progress, void *ctx,
               book_build_stats *stats, char *err, size_t errlen);

#endif
