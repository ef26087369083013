/* run_files.c: the files a run depends on (weights files), kept whole with the run (table run_files) and compared with the disk on resume. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"
#include "core/hash.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole file: *data (malloc'ed) and *len; -1 with errno set. */
static int read_whole(const char *path, unsigned char **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 4096, n = 0;
  unsigned char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    unsigned char *nb = realloc(buf, cap *= 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      errno = ENOMEM;
    }
    buf = nb;
  }
  int bad = !buf || ferror(f);
  int e = errno;
  fclose(f);
  if (bad) {
    free(buf);
    errno = e ? e : EIO;
    return -1;
  }
  *data = buf;
  *len = n;
  return 0;
}

int store_run_add_file(store_run *r, const char *path, char *err, size_t errlen) {
  for (int i = 0; i < r->nfiles; i++)
    if (!strcmp(r->files[i].path, path)) return 0;
  store_file f = {0};
  if (read_whole(path, &f.data, &f.len)) {
    error_set(err, errlen, "store: cannot read %s: %s", path, strerror(errno));
    return -1;
  }
  store_file *nf = realloc(r->files, (size_t)(r->nfiles + 1) * sizeof *nf);
  if (!nf || !(f.path = strdup(path))) {
    if (nf) r->files = nf;
    free(f.data);
    error_set(err, errlen, "store: out of memory reading %s", path);
    return -1;
  }
  r->files = nf;
  r->files[r->nfiles++] = f;
  return 0;
}

int store_sql_bind_file(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  char hash[17];
  const store_file *f = &r->files[i];
  hash_fnv1a_hex(f->data, f->len, hash);
  return sqlite3_bind_int64(st, 1, id) || store_sql_bind_string(st, 2, f->path) ||
         sqlite3_bind_text(st, 3, hash, -1, SQLITE_TRANSIENT) ||
         sqlite3_bind_blob64(st, 4, f->data ? (const void *)f->data : "", f->len, SQLITE_STATIC);
}

int store_run_file(store *s, int64_t id, const char *path, unsigned char **data, size_t *len,
                   char *err, size_t errlen) {
  sqlite3_stmt *st;
  *data = NULL;
  *len = 0;
  if (store_sql_prepare(s->db, "SELECT content FROM run_files WHERE run_id = ?1 AND path = ?2", 0, &st, err,
              errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, id);
  if (!rc) rc = sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
  if (!rc) rc = sqlite3_step(st);
  int ret = 1;
  if (rc == SQLITE_ROW) {
    const void *b = sqlite3_column_blob(st, 0);
    size_t n = (size_t)sqlite3_column_bytes(st, 0);
    *data = malloc(n + 1);
    if (!*data) {
      error_set(err, errlen, "store: out of memory");
      ret = -1;
    } else {
      if (n) memcpy(*data, b, n);
      (*data)[n] = 0;
      *len = n;
      ret = 0;
    }
  } else if (rc != SQLITE_DONE) {
    error_set(err, errlen, "store: cannot read the files of run %" PRId64 ": %s", id, sqlite3_errmsg(s->db));
    ret = -1;
  }
  sqlite3_finalize(st);
  return ret;
}

int store_run_files_check(store *s, int64_t id, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (store_sql_prepare(s->db, "SELECT path, hash, content FROM run_files WHERE run_id = ?1 ORDER BY path",
              0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, id), ret = 0;
  while (rc == SQLITE_OK || rc == SQLITE_ROW) {
    if ((rc = sqlite3_step(st)) != SQLITE_ROW) break;
    const char *path = (const char *)sqlite3_column_text(st, 0);
    const void *b = sqlite3_column_blob(st, 2);
    size_t n = (size_t)sqlite3_column_bytes(st, 2);
    char stored[17], now[17];
    unsigned char *data;
    size_t len;
    hash_fnv1a_hex(b, n, stored);
    if (read_whole(path ? path : "", &data, &len)) {
      error_set(err, errlen, "store: run %" PRId64 ": cannot read %s, which the run uses: %s", id,
           path ? path : "", strerror(errno));
      ret = -1;
      break;
    }
    int same = len == n && (!n || !memcmp(data, b, n));
    hash_fnv1a_hex(data, len, now);
    free(data);
    if (!same) {
      error_set(err, errlen,
           "store: run %" PRId64 ": %s has changed since the run started (then %zu bytes, hash %s; now "
           "%zu bytes, hash %s)",
           id, path, n, stored, len, now);
      ret = -1;
      break;
    }
  }
  if (!ret && rc != SQLITE_DONE)
    ret = store_sql_fail(s->db, err, errlen, "cannot read the files of the run");
  sqlite3_finalize(st);
  return ret;
}

