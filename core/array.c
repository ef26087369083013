/* array.c: array_reserve and array_push, the doubling growth that the loaders and collectors share. */
#include "core/array.h"

#include <stdlib.h>
#include <string.h>

int array_reserve(void *items_ptr, size_t size, size_t n, size_t *cap, size_t first) {
  if (n < *cap) return 0;
  size_t ncap = *cap ? 2 * *cap : first;
  if (ncap <= n) ncap = n + 1;
  void *items;
  memcpy(&items, items_ptr, sizeof items); /* the T * as a void *, without aliasing it */
  void *grown = realloc(items, ncap * size);
  if (!grown) return -1;
  memcpy(items_ptr, &grown, sizeof grown);
  *cap = ncap;
  return 0;
}

int array_push(array *a, const void *elem) {
  if (array_reserve(&a->items, a->size, a->n, &a->cap, 64)) {
    a->failed = 1;
    return 1;
  }
  memcpy((char *)a->items + a->n * a->size, elem, a->size);
  a->n++;
  return 0;
}
