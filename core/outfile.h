/* outfile.h: output files written whole or not at all (a temporary file beside the target, then rename). */
#ifndef OWARE_OUTFILE_H
#define OWARE_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* A file being written. f is where to write; path is the file it becomes. */
typedef struct outfile {
  FILE *f;
  char *path; /* the target (owned) */
  char *tmp;  /* the temporary file beside it (owned) */
} outfile;

/* Checks, before any work, that path can be written: its folder exists and
 * is writable, and path is not a folder. Returns 0, or -1 with a message
 * naming the path and the reason in err. */
int outfile_check(const char *path, char *err, size_t errlen);

/* Opens a temporary file in path's folder (mode 0666 less the umask); a
 * path that exists and is not a regular file (a device, a pipe) is opened
 * and written in place instead. Returns 0 with o->f open, or -1 with err
 * (o is then empty). */
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);

/* Flushes, syncs and closes the temporary file and renames it to the
 * target. On any failure (a write error earlier included) the temporary
 * file is removed, the target is left as it was, and err names the file
 * and the reason. Returns 0 or -1; o is empty afterwards either way. */
int outfile_commit(outfile *o, char *err, size_t errlen);

/* Closes and removes the temporary file: the target is left as it was.
 * Safe on an empty outfile. */
void outfile_abort(outfile *o);

#endif
