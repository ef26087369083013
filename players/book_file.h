/* book_file.h: inside the book module: an entry's bytes and the whole file written (book.c), for the build. */
#ifndef OWARE_BOOK_FILE_H
#define OWARE_BOOK_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "players/book.h"

/* An entry starts with its position's key: houses (16), stores (2), side (1). */
#define BOOK_KEY 19

/* The key bytes of b's position. */
void book_key(const board *b, uint8_t key[BOOK_KEY]);

/* An entry: the key, the move, the score. */
void book_entry(uint8_t e[BOOK_ENTRY_SIZE], const board *b, int move, int score);

/* Writes the header of info (its variant_text, plies, depth, nodes; count
 * is `count`) and the entries, sorted and distinct, to path whole or not at
 * all. Returns 0, or -1 with err. */
int book_write(const char *path, const book_info *info, const uint8_t *entries, size_t count,
               char *err, size_t errlen);

#endif
