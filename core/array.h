/* array.h: malloc'ed arrays that double as they grow: room for one more element, or a copy appended. */
#ifndef OWARE_ARRAY_H
#define OWARE_ARRAY_H

#include <stddef.h>

/* items_ptr is the address of the array's pointer (a T **), size the
 * element's size. When n has reached *cap, the array is reallocated to
 * twice *cap elements (first when *cap is 0) and *cap updated. 0, or -1
 * when memory runs out (the array and *cap unchanged). */
int array_reserve(void *items_ptr, size_t size, size_t n, size_t *cap, size_t first);

/* A growing array of elements of one size, for the callbacks that collect
 * rows: start it as {.size = sizeof(T)}; items is a T *, freed by the caller. */
typedef struct array {
  void *items;
  size_t n, cap, size;
  int failed; /* memory ran out */
} array;

/* Appends a copy of elem (a->size bytes). 0, or 1 when memory ran out
 * (a->failed set): what a foreach callback returns to stop. */
int array_push(array *a, const void *elem);

#endif
