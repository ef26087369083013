/* eval_ending.c: the evaluation's corrections in endings: the default table, the file, the ranges. */
#include "players/eval_ending.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/textfile.h"


_Static_assert(EVAL_STORE == 0, "the store is the first feature: the file skips it");

/* A table file larger than this is not one. */
#define ENDING_FILE_MAX (1 << 20)

/* The default: `oware egdb fit` (docs/PLAYERS.md, "The endings"), columns
 * lo hi tempo, then the features but the store in eval_features order. */
static const int default_table[][2 + 1 + EVAL_N - 1] = {
#include "players/eval_ending_default.h"
};

int eval_ending_add(eval_ending *e, int lo, int hi, int tempo, const int w[EVAL_N], char *err,
                    size_t errlen) {
  if (e->n == 0) memset(e->at, -1, sizeof e->at);
  if (e->n == EVAL_ENDING_MAX) return error_set(err, errlen, "more than %d ranges", EVAL_ENDING_MAX), -1;
  if (lo < 1 || hi < lo || hi > VARIANT_MAX_TOTAL)
    return error_set(err, errlen, "range %d..%d: seeds on the board go from 1 to %d, low to high", lo, hi,
               VARIANT_MAX_TOTAL),
           -1;
  if (e->n && lo <= e->hi[e->n - 1])
    return error_set(err, errlen, "range %d..%d: ranges go in increasing order without overlapping (the one "
               "before ends at %d)",
               lo, hi, e->hi[e->n - 1]),
           -1;
  const int r = e->n++;
  e->lo[r] = lo;
  e->hi[r] = hi;
  e->tempo[r] = tempo;
  memcpy(e->w[r], w, sizeof e->w[r]);
  e->w[r][EVAL_STORE] = 0;
  for (int n = lo; n <= hi; n++) e->at[n] = (signed char)r;
  return 0;
}

void eval_ending_default(eval_ending *e) {
  memset(e, 0, sizeof *e);
  memset(e->at, -1, sizeof e->at);
  for (size_t r = 0; r < sizeof default_table / sizeof *default_table; r++) {
    const int *row = default_table[r];
    int w[EVAL_N] = {0};
    for (int i = 1; i < EVAL_N; i++) w[i] = row[2 + i];
    char err[128];
    (void)eval_ending_add(e, row[0], row[1], row[2], w, err, sizeof err); /* a valid table */
  }
}

/* One whole number of a line; |x| <= 1e6. */
static int number(const char *tok, int *x) {
  char *end;
  errno = 0;
  long v = strtol(tok, &end, 10);
  if (errno || end == tok || *end || labs(v) > 1000000) return -1;
  *x = (int)v;
  return 0;
}

int eval_ending_parse(const char *text, eval_ending *e, char *err, size_t errlen) {
  eval_ending out;
  memset(&out, 0, sizeof out);
  memset(out.at, -1, sizeof out.at);
  const int cols = 2 + 1 + EVAL_N - 1;
  int line = 0;
  for (const char *p = text; *p;) {
    line++;
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char buf[1024];
    if (len >= sizeof buf)
      return error_set(err, errlen, "endings line %d: longer than %zu characters", line, sizeof buf - 1), -1;
    memcpy(buf, p, len);
    buf[len] = '\0';
    p += len + (eol != NULL);
    char *hash = strchr(buf, '#');
    if (hash) *hash = '\0';
    int v[2 + 1 + EVAL_N], k = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save)) {
      if (k == cols)
        return error_set(err, errlen, "endings line %d: more than %d columns (lo hi tempo and %d weights)", line,
                   cols, EVAL_N - 1),
               -1;
      if (number(tok, &v[k]))
        return error_set(err, errlen, "endings line %d: column %d, '%s', is not a whole number (|x| <= 1e6)", line,
                   k + 1, tok),
               -1;
      k++;
    }
    if (k == 0) continue;
    if (k < cols)
      return error_set(err, errlen, "endings line %d: %d columns, not %d (lo hi tempo and a weight for each "
                 "feature but the store)",
                 line, k, cols),
             -1;
    int w[EVAL_N] = {0};
    for (int i = 1; i < EVAL_N; i++) w[i] = v[2 + i];
    char e2[ERROR_MAX];
    if (eval_ending_add(&out, v[0], v[1], v[2], w, e2, sizeof e2))
      return error_set(err, errlen, "endings line %d: %s", line, e2), -1;
  }
  if (!out.n) return error_set(err, errlen, "endings: no range in the file"), -1;
  *e = out;
  return 0;
}

static int parse_endings(const char *text, void *e, char *err, size_t errlen) {
  return eval_ending_parse(text, e, err, errlen);
}

int eval_ending_load(const char *path, eval_ending *e, char *err, size_t errlen) {
  return textfile_load(path, "endings", ENDING_FILE_MAX, parse_endings, e, err, errlen);
}

int eval_ending_write(FILE *f, const eval_ending *e, const char *comment) {
  if (fprintf(f, "# oware evaluation corrections in endings (centiseeds), by seeds on the board\n") < 0)
    return -1;
  for (const char *c = comment; c && *c;) {
    size_t len = strcspn(c, "\n");
    if (fprintf(f, "# %.*s\n", (int)len, c) < 0) return -1;
    c += len + (c[len] == '\n');
  }
  if (fprintf(f, "# lo hi tempo") < 0) return -1;
  for (int i = 1; i < EVAL_N; i++)
    if (fprintf(f, " %s", eval_features[i].name) < 0) return -1;
  if (fprintf(f, "\n") < 0) return -1;
  for (int r = 0; r < e->n; r++) {
    if (fprintf(f, "%d %d %d", e->lo[r], e->hi[r], e->tempo[r]) < 0) return -1;
    for (int i = 1; i < EVAL_N; i++)
      if (fprintf(f, " %d", e->w[r][i]) < 0) return -1;
    if (fprintf(f, "\n") < 0) return -1;
  }
  return 0;
}
