/* error.c: error_set, the (err, errlen) message writer the library's modules share. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

void error_set(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}
