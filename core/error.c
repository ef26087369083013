/* error.c: error_set and error_append, the (err, errlen) message writers every library module uses. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void error_set(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

void error_append(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen) return;
  size_t n = strnlen(err, errlen);
  if (n + 1 >= errlen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err + n, errlen - n, fmt, ap);
  va_end(ap);
}
