/* plugin_first.c: a test plug-in of the public interface (include/oware.h only): plays the first (or last) legal house. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oware.h>

typedef struct first {
  int last;
} first;

static const oware_plugin_option options[] = {
    {"order", "first", "first or last: which legal house to play"}, {NULL, NULL, NULL}};

static void *create(const char *const *values, unsigned long long seed, char *err, size_t errlen) {
  (void)seed;
  if (strcmp(values[0], "first") && strcmp(values[0], "last")) {
    snprintf(err, errlen, "order is '%s'; expected first or last", values[0]);
    return NULL;
  }
  first *f = malloc(sizeof *f);
  if (!f) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  f->last = !strcmp(values[0], "last");
  return f;
}

static int choose(void *state, const char *variant, const char *start, const char *moves,
                  const char *position, const char *legal, char *m, char *err, size_t errlen) {
  (void)variant, (void)start, (void)moves, (void)position;
  const first *f = state;
  size_t n = strlen(legal);
  if (!n) {
    snprintf(err, errlen, "no legal move");
    return -1;
  }
  *m = f->last ? legal[n - 1] : legal[0];
  return 0;
}

static void destroy(void *state) { free(state); }

const oware_plugin oware_plugin_v2 = {OWARE_API_VERSION, "first", "the first legal house",
                                      options, create, choose, destroy};
