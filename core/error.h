/* error.h: how library code writes an error message into a caller's (err, errlen) buffer. */
#ifndef OWARE_ERROR_H
#define OWARE_ERROR_H

#include <stddef.h>

/* Room for any message: one that names two paths of PATH_MAX (a folder and
 * a file in it) and says what is wrong with them. */
#define ERROR_MAX (2 * 4096 + 512)

/* printf into err, cut to errlen; nothing when err is NULL or errlen 0. */
void error_set(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* printf after what err already holds, cut to errlen (for messages built
 * from a list); nothing when err is NULL or errlen 0. */
void error_append(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
