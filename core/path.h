/* path.h: folders: mkdir -p (the one copy) and the cache folder of the tables and the book. */
#ifndef OWARE_PATH_H
#define OWARE_PATH_H

#include <stddef.h>

/* Makes dir and every folder above it that is missing (mkdir -p, mode 0777
 * less the umask). "" is the current folder: nothing to do. Returns 0 when
 * dir is a folder afterwards, or -1 with a message naming the folder that
 * could not be made, or dir when it is something else. */
int path_mkdirs(const char *dir, char *err, size_t errlen);

/* path_mkdirs of the folder that holds the file path ("results" for
 * "results/oware.db"; nothing for a bare file name). */
int path_mkdirs_parent(const char *path, char *err, size_t errlen);

/* The cache folder's entry leaf: $XDG_CACHE_HOME/oware/LEAF, or
 * $HOME/.cache/oware/LEAF (./.cache/… without a HOME), into buf. */
void path_cache(char *buf, size_t len, const char *leaf);

#endif
