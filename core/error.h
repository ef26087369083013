/* error.h: how library code writes an error message into a caller's (err, errlen) buffer. */
#ifndef OWARE_ERROR_H
#define OWARE_ERROR_H

#include <stddef.h>

/* printf into err, cut to errlen; nothing when err is NULL or errlen 0. */
void error_set(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* printf after what err already holds, cut to errlen (for messages built
 * from a list); nothing when err is NULL or errlen 0. */
void error_append(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
