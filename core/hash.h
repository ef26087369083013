/* hash.h: FNV-1a, 64 bits: a content's label (files kept with a run, imported files), not a cryptographic hash. */
#ifndef OWARE_HASH_H
#define OWARE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a of len bytes. */
uint64_t hash_fnv1a(const void *data, size_t len);

/* The same as 16 lower-case hex digits and a NUL, into out. */
void hash_fnv1a_hex(const void *data, size_t len, char out[17]);

#endif
