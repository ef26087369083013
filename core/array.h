/* array.h: room for one more element in a malloc'ed array that doubles as it grows. */
#ifndef OWARE_ARRAY_H
#define OWARE_ARRAY_H

#include <stddef.h>

/* items_ptr is the address of the array's pointer (a T **), size the
 * element's size. When n has reached *cap, the array is reallocated to
 * twice *cap elements (first when *cap is 0) and *cap updated. 0, or -1
 * when memory runs out (the array and *cap unchanged). */
int array_reserve(void *items_ptr, size_t size, size_t n, size_t *cap, size_t first);

#endif
