/* outfile.c: write a temporary file beside the target, then rename it over the target. */
#include "core/outfile.h"
#include "core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_fail(char *err, size_t errlen, const char *path, const char *what, int e) {
  if (err && errlen) error_set(err, errlen, "cannot write '%s': %s", path, what ? what : strerror(e));
}

/* The folder part of path ("." when there is none), malloc'ed. */
static char *folder_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return strdup(".");
  if (slash == path) return strdup("/");
  size_t n = (size_t)(slash - path);
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, path, n);
    d[n] = '\0';
  }
  return d;
}

int outfile_check(const char *path, char *err, size_t errlen) {
  struct stat st;
  if (!path || !*path) {
    if (err && errlen) error_set(err, errlen, "no output file given (empty path)");
    return -1;
  }
  size_t n = strlen(path);
  if (path[n - 1] == '/' || (stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
    write_fail(err, errlen, path, "it is a folder", 0);
    return -1;
  }
  char *dir = folder_of(path);
  if (!dir) {
    write_fail(err, errlen, path, "out of memory", 0);
    return -1;
  }
  int rc = 0;
  if (stat(dir, &st)) {
    char why[ERROR_MAX];
    snprintf(why, sizeof why, "folder '%s': %s", dir, strerror(errno));
    write_fail(err, errlen, path, why, 0);
    rc = -1;
  } else if (!S_ISDIR(st.st_mode)) {
    char why[ERROR_MAX];
    snprintf(why, sizeof why, "'%s' is not a folder", dir);
    write_fail(err, errlen, path, why, 0);
    rc = -1;
  } else if (access(dir, W_OK | X_OK)) {
    char why[ERROR_MAX];
    snprintf(why, sizeof why, "folder '%s': %s", dir, strerror(errno));
    write_fail(err, errlen, path, why, 0);
    rc = -1;
  }
  free(dir);
  return rc;
}

int outfile_open(outfile *o, const char *path, char *err, size_t errlen) {
  static atomic_uint counter;
  memset(o, 0, sizeof o[0]);
  if (outfile_check(path, err, errlen)) return -1;
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    /* A device or a pipe (/dev/stdout, /dev/null, a FIFO) is written in place:
     * renaming over it would replace it. */
    o->f = fopen(path, "w");
    if (!o->f || !(o->path = strdup(path))) {
      write_fail(err, errlen, path, o->f ? "out of memory" : NULL, errno);
      outfile_abort(o);
      return -1;
    }
    return 0;
  }
  size_t n = strlen(path) + 48;
  o->path = strdup(path);
  o->tmp = malloc(n);
  if (!o->path || !o->tmp) {
    write_fail(err, errlen, path, "out of memory", 0);
    outfile_abort(o);
    return -1;
  }
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
    snprintf(o->tmp, n, "%s.tmp-%ld-%u", path, (long)getpid(), atomic_fetch_add(&counter, 1));
    fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    write_fail(err, errlen, path, NULL, errno);
    free(o->tmp);
    o->tmp = NULL;
    outfile_abort(o);
    return -1;
  }
  o->f = fdopen(fd, "w");
  if (!o->f) {
    int e = errno;
    close(fd);
    write_fail(err, errlen, path, NULL, e);
    outfile_abort(o);
    return -1;
  }
  return 0;
}

int outfile_commit(outfile *o, char *err, size_t errlen) {
  if (!o->f) {
    write_fail(err, errlen, o->path ? o->path : "?", "the file was not open", 0);
    outfile_abort(o);
    return -1;
  }
  int e = 0;
  errno = 0;
  if (fflush(o->f)) e = errno ? errno : EIO;
  else if (ferror(o->f)) e = EIO; /* an earlier write failed; its reason is gone */
  else if (o->tmp && fsync(fileno(o->f)) && errno != EINVAL && errno != EROFS) e = errno;
  int c = fclose(o->f);
  o->f = NULL;
  if (!e && c) e = errno ? errno : EIO;
  if (!e && o->tmp && rename(o->tmp, o->path)) e = errno;
  if (e) {
    write_fail(err, errlen, o->path, NULL, e);
    outfile_abort(o);
    return -1;
  }
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
  return 0;
}

void outfile_abort(outfile *o) {
  if (o->f) fclose(o->f);
  if (o->tmp) unlink(o->tmp);
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof o[0]);
}
