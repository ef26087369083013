/* textfile.c: a small text file read whole, refused when it is not text or looks cut short. */
#include "core/textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"

int textfile_read(const char *path, const char *what, size_t max, char **text, char *err,
                  size_t errlen) {
  *text = NULL;
  FILE *f = fopen(path, "r");
  if (!f) {
    error_set(err, errlen, "%s: cannot open '%s': %s", what, path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    error_set(err, errlen, "%s: cannot read '%s': it is a folder, not a file", what, path);
    return -1;
  }
  char *buf = NULL;
  size_t cap = 0, n = 0;
  const char *bad = NULL;
  for (;;) {
    if (n + 4096 + 1 > cap) {
      cap = cap ? cap * 2 : 8192;
      char *nb = realloc(buf, cap);
      if (!nb) {
        bad = "out of memory";
        break;
      }
      buf = nb;
    }
    size_t r = fread(buf + n, 1, 4096, f);
    n += r;
    if (n > max) {
      bad = "it is larger than the limit for such a file";
      break;
    }
    if (r < 4096) break;
  }
  if (!bad && ferror(f)) bad = strerror(errno);
  fclose(f);
  if (!bad) {
    buf[n] = '\0';
    bad = memchr(buf, '\0', n) ? "it holds a NUL byte (not a text file)"
          : n == 0              ? "it is empty"
          : buf[n - 1] != '\n'  ? "its last line has no end (the file looks truncated)"
                                : NULL;
  }
  if (bad) {
    error_set(err, errlen, "%s: cannot read '%s': %s", what, path, bad);
    free(buf);
    return -1;
  }
  *text = buf;
  return 0;
}

int textfile_load(const char *path, const char *what, size_t max, textfile_parse_fn parse,
                  void *out, char *err, size_t errlen) {
  char *text, e[ERROR_MAX];
  if (textfile_read(path, what, max, &text, err, errlen)) return -1;
  int rc = parse(text, out, e, sizeof e);
  if (rc) error_set(err, errlen, "%s: %s", path, e);
  free(text);
  return rc;
}
