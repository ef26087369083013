/* path.c: mkdir -p, and the cache folder's entries. */
#include "core/path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/error.h"

#define PATH_LEN 4096

int path_mkdirs(const char *dir, char *err, size_t errlen) {
  char path[PATH_LEN];
  if (!dir[0]) return 0; /* the current folder */
  if (strlen(dir) >= sizeof path) {
    error_set(err, errlen, "path too long: %.60s…", dir);
    return -1;
  }
  strcpy(path, dir);
  for (char *p = path + 1;; p++) { /* path + 1: "/" itself is never made */
    if (*p == '/' || !*p) {
      char c = *p;
      *p = 0;
      if (mkdir(path, 0777) && errno != EEXIST) {
        error_set(err, errlen, "cannot create folder '%s': %s", path, strerror(errno));
        return -1;
      }
      *p = c;
      if (!c) break;
    }
  }
  struct stat st;
  if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
    error_set(err, errlen, "'%s' is not a folder", dir);
    return -1;
  }
  return 0;
}

int path_mkdirs_parent(const char *path, char *err, size_t errlen) {
  char dir[PATH_LEN];
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path) return 0; /* the current folder, or "/" */
  size_t n = (size_t)(slash - path);
  if (n >= sizeof dir) {
    error_set(err, errlen, "path too long: %.60s…", path);
    return -1;
  }
  memcpy(dir, path, n);
  dir[n] = 0;
  return path_mkdirs(dir, err, errlen);
}

void path_cache(char *buf, size_t len, const char *leaf) {
  const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  if (x && *x)
    snprintf(buf, len, "%s/oware/%s", x, leaf);
  else
    snprintf(buf, len, "%s/.cache/oware/%s", h && *h ? h : ".", leaf);
}
