/* egdb_file.h: inside the egdb module: one table file written whole or mapped and checked. */
#ifndef OWARE_EGDB_FILE_H
#define OWARE_EGDB_FILE_H

#include <stddef.h>
#include <stdint.h>

/* One seed count's tables, mapped from its file. */
typedef struct egdb_level {
  void *map;
  size_t len;
  uint64_t count;
  const uint8_t *t[3]; /* lower, upper, split (half seeds) */
} egdb_level;

/* A 64-bit checksum of len bytes, chained from h. */
uint64_t egdb_checksum(uint64_t h, const uint8_t *p, size_t len);

/* Writes the header and the tables to path.tmp, syncs and renames it to path. */
int egdb_file_write(const char *path, const char *key, int n, int pits, uint64_t count,
                    const uint8_t *const *tables, int ntables, char *err, size_t errlen);

/* How much egdb_file_map checks beyond the header and the size. */
enum {
  EGDB_FILE_HEADER = 0, /* nothing more */
  EGDB_FILE_ALWAYS = 1, /* the checksum of the tables, read whole */
  EGDB_FILE_ONCE = 2    /* the checksum, unless this process verified the same file before */
};

/* Maps path and checks its header against (key, n, pits, ntables), its size,
 * and the checksum as verify (EGDB_FILE_*) says. Returns 0, EGDB_EIO or
 * EGDB_ECORRUPT. */
int egdb_file_map(const char *path, const char *key, int n, int pits, int ntables, int verify,
                  egdb_level *lv, char *err, size_t errlen);
void egdb_file_unmap(egdb_level *lv);

#endif
