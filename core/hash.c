/* hash.c: FNV-1a over bytes, as a number or as hex. */
#include "core/hash.h"

#include <stdio.h>

uint64_t hash_fnv1a(const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

void hash_fnv1a_hex(const void *data, size_t len, char out[17]) {
  snprintf(out, 17, "%016llx", (unsigned long long)hash_fnv1a(data, len));
}
