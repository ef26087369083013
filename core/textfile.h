/* textfile.h: a small text file read whole, refused when it is not text or looks cut short. */
#ifndef OWARE_TEXTFILE_H
#define OWARE_TEXTFILE_H

#include <stddef.h>

/* Reads path into *text (NUL-terminated, to free). Refused, with err
 * naming what (e.g. "weights") and the path: a file that cannot be opened
 * or read, a folder, one larger than max bytes, an empty one, one holding
 * a NUL byte, or one whose last line has no end (a copy cut short must not
 * load as part of itself). Returns 0, or -1 with err. */
int textfile_read(const char *path, const char *what, size_t max, char **text, char *err,
                  size_t errlen);

/* What textfile_load does with the text: parses it into out; 0, or -1 with
 * err (a message without the path). */
typedef int (*textfile_parse_fn)(const char *text, void *out, char *err, size_t errlen);

/* textfile_read, then parse(text, out): a parse error is "PATH: message".
 * 0, or -1 with err. */
int textfile_load(const char *path, const char *what, size_t max, textfile_parse_fn parse,
                  void *out, char *err, size_t errlen);

#endif
