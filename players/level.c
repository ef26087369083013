/* level.c: the levels file (parsed, found, written a line at a time) and level:NAME specs resolved to the spec a level stands for. */
#define _GNU_SOURCE /* dladdr: the file of the library this code is in */
#include "players/level.h"
#include "core/error.h"

#include <ctype.h>
#ifndef __EMSCRIPTEN__
#include <dlfcn.h>
#endif
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "players/level_curve.h"
#include "players/player.h"


/* A levels file is a short text: anything much larger is not one. */
#define LEVEL_FILE_MAX (1 << 20)
#define LEVEL_COUNT_MAX 256

static int name_ok(const char *s, size_t len) {
  if (len == 0 || len >= LEVEL_NAME_MAX) return 0;
  for (size_t i = 0; i < len; i++)
    if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_') return 0;
  return 1;
}

/* Reads one column from *pp into buf (quoted or bare). 0, 1 at the end of
 * the line, or -1 with what is wrong in why. */
static int column(const char **pp, char *buf, size_t len, const char **why) {
  const char *p = *pp;
  while (*p == ' ' || *p == '\t') p++;
  if (!*p) {
    *pp = p;
    return 1;
  }
  size_t n = 0;
  if (*p == '"') {
    p++;
    for (;;) {
      if (!*p) return *why = "the quote of the spec is never closed", -1;
      if (*p == '\\' && (p[1] == '"' || p[1] == '\\')) p++;
      else if (*p == '"') break;
      if (n + 1 >= len) return *why = "the spec is too long", -1;
      buf[n++] = *p++;
    }
    p++;
    if (*p && *p != ' ' && *p != '\t') return *why = "text right after the closing quote", -1;
  } else {
    while (*p && *p != ' ' && *p != '\t') {
      if (n + 1 >= len) return *why = "a column is too long", -1;
      buf[n++] = *p++;
    }
  }
  buf[n] = '\0';
  *pp = p;
  return 0;
}

static int number(const char *s, double *x) {
  char *end;
  errno = 0;
  *x = strtod(s, &end);
  return errno || end == s || *end || !isfinite(*x) ? -1 : 0;
}

/* One non-blank, non-comment line into e. 0, or -1 with why. */
static int parse_line(const char *line, level_entry *e, const char **why) {
  char col[8][LEVEL_SPEC_MAX];
  const char *p = line;
  int n = 0;
  for (;;) {
    char extra[LEVEL_SPEC_MAX];
    int rc = column(&p, n < 8 ? col[n] : extra, LEVEL_SPEC_MAX, why);
    if (rc < 0) return -1;
    if (rc == 1) break;
    if (n == 8) return *why = "more than 8 columns (name spec elo lo hi target verdict status)", -1;
    n++;
  }
  if (n < 2) return *why = "a level needs a name and a spec (name spec [elo lo hi ...])", -1;
  if (n == 3 || n == 4) return *why = "the Elo columns are elo, lo and hi: all three or none", -1;
  if (!name_ok(col[0], strlen(col[0])))
    return *why = "the name must be 1 to 63 letters, digits, '-' or '_'", -1;
  if (!col[1][0]) return *why = "the spec is empty", -1;
  if (level_is_spec(col[1])) return *why = "a level's spec cannot be another level", -1;
  memset(e, 0, sizeof *e);
  memcpy(e->name, col[0], strlen(col[0]) + 1); /* name_ok: shorter than LEVEL_NAME_MAX */
  memcpy(e->spec, col[1], strlen(col[1]) + 1); /* column: shorter than LEVEL_SPEC_MAX */
  e->columns = n;
  double *num[4] = {&e->elo, &e->lo, &e->hi, &e->target};
  static const char *const what[4] = {"the Elo is not a number", "the low end is not a number",
                                      "the high end is not a number",
                                      "the target is not a number"};
  for (int i = 0; i < 4 && 2 + i < n; i++)
    if (number(col[2 + i], num[i])) return *why = what[i], -1;
  if (n >= 5 && !(e->lo <= e->elo && e->elo <= e->hi))
    return *why = "the Elo is not inside its interval (lo <= elo <= hi)", -1;
  if (n >= 7) {
    if (strcmp(col[6], "ok") && strcmp(col[6], "off"))
      return *why = "the verdict is 'ok' or 'off'", -1;
    memcpy(e->verdict, col[6], strlen(col[6]) + 1);
  }
  if (n == 8) {
    if (!name_ok(col[7], strlen(col[7])) || strlen(col[7]) >= sizeof e->status)
      return *why = "the status is one word (ok, coarse, unreachable)", -1;
    memcpy(e->status, col[7], strlen(col[7]) + 1);
  }
  return 0;
}

void level_file_free(level_file *f) {
  free(f->path);
  free(f->entry);
  memset(f, 0, sizeof *f);
}

int level_parse(const char *text, const char *path, level_file *f, char *err, size_t errlen) {
  memset(f, 0, sizeof *f);
  if (!(f->path = strdup(path))) return error_set(err, errlen, "out of memory"), -1;
  int lineno = 0;
  const char *p = text;
  char line[LEVEL_LINE_MAX + 1];
  while (*p) {
    lineno++;
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    if (len && p[len - 1] == '\r') len--;
    if (len >= sizeof line) {
      error_set(err, errlen, "%s:%d: the line is longer than %zu characters", path, lineno, sizeof line - 1);
      goto fail;
    }
    memcpy(line, p, len);
    line[len] = '\0';
    p = nl ? nl + 1 : p + strlen(p);
    for (size_t i = 0; i < len; i++)
      if ((unsigned char)line[i] < 32 && line[i] != '\t') goto binary;
    const char *s = line + strspn(line, " \t");
    if (!*s || *s == '#') continue;
    level_entry e;
    const char *why = NULL;
    if (parse_line(s, &e, &why)) {
      error_set(err, errlen, "%s:%d: %s", path, lineno, why);
      goto fail;
    }
    e.line = lineno;
    const level_entry *old = level_find(f, e.name);
    if (old) {
      error_set(err, errlen, "%s:%d: level '%s' is defined twice (first on line %d)", path, lineno, e.name,
          old->line);
      goto fail;
    }
    if (f->n == LEVEL_COUNT_MAX) {
      error_set(err, errlen, "%s:%d: more than %d levels", path, lineno, LEVEL_COUNT_MAX);
      goto fail;
    }
    level_entry *grown = realloc(f->entry, (size_t)(f->n + 1) * sizeof *grown);
    if (!grown) {
      error_set(err, errlen, "out of memory");
      goto fail;
    }
    f->entry = grown;
    f->entry[f->n++] = e;
  }
  return 0;
binary:
  error_set(err, errlen, "%s:%d: a control character: not a levels file", path, lineno);
fail:
  level_file_free(f);
  return -1;
}

int level_load(const char *path, level_file *f, char *err, size_t errlen) {
  memset(f, 0, sizeof *f);
  FILE *in = fopen(path, "rb");
  if (!in) return error_set(err, errlen, "levels file '%s': %s", path, strerror(errno)), -1;
  char *text = malloc(LEVEL_FILE_MAX + 1);
  if (!text) {
    fclose(in);
    return error_set(err, errlen, "out of memory"), -1;
  }
  size_t n = fread(text, 1, LEVEL_FILE_MAX + 1, in);
  int bad = ferror(in) ? errno : 0;
  fclose(in);
  int rc = -1;
  if (bad) error_set(err, errlen, "levels file '%s': %s", path, strerror(bad));
  else if (n > LEVEL_FILE_MAX) error_set(err, errlen, "levels file '%s': larger than %d bytes", path, LEVEL_FILE_MAX);
  else if (memchr(text, '\0', n)) error_set(err, errlen, "levels file '%s': a NUL byte: not a levels file", path);
  else {
    text[n] = '\0';
    rc = level_parse(text, path, f, err, errlen);
  }
  free(text);
  return rc;
}

const level_entry *level_find(const level_file *f, const char *name) {
  for (int i = 0; i < f->n; i++)
    if (!strcmp(f->entry[i].name, name)) return &f->entry[i];
  return NULL;
}

#ifndef OWARE_LEVELS_INSTALLED
#define OWARE_LEVELS_INSTALLED "/usr/local/share/oware/levels.txt"
#endif
#ifndef OWARE_LEVELS_SOURCE
#define OWARE_LEVELS_SOURCE "data/levels.txt"
#endif

/* Into out (PATH_MAX): the folder of `file` then `tail`; "" when file has
 * no folder or the whole is too long. */
static void beside(const char *file, const char *tail, char *out) {
  out[0] = '\0';
  const char *slash = strrchr(file, '/');
  if (!slash) return;
  size_t l = (size_t)(slash - file), t = strlen(tail);
  if (l + t + 1 > PATH_MAX) return;
  memcpy(out, file, l);
  memcpy(out + l, tail, t + 1);
}

int level_default_path(char *buf, size_t len, char *err, size_t errlen) {
  const char *env = getenv("OWARE_LEVELS");
  if (env && *env) {
    if (strlen(env) >= len) return error_set(err, errlen, "$OWARE_LEVELS is too long"), -1;
    snprintf(buf, len, "%s", env);
    return 0;
  }
  /* Beside the program (<bin>/../share/...), and beside the shared library
   * this code is in when a program links liboware (<libdir>/../share/...,
   * or two folders up for a multiarch libdir such as lib/x86_64-linux-gnu),
   * so that an installation moved to another prefix finds its own file. */
  char relative[PATH_MAX] = "", lib1[PATH_MAX] = "", lib2[PATH_MAX] = "";
  char exe[PATH_MAX] = "";
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    beside(exe, "/../share/oware/levels.txt", relative);
  }
#ifndef __EMSCRIPTEN__
  Dl_info so;
  if (dladdr((void *)level_default_path, &so) && so.dli_fname && strstr(so.dli_fname, ".so")) {
    beside(so.dli_fname, "/../share/oware/levels.txt", lib1);
    beside(so.dli_fname, "/../../share/oware/levels.txt", lib2);
  }
#endif
  const char *tries[5] = {OWARE_LEVELS_INSTALLED, relative, lib1, lib2, OWARE_LEVELS_SOURCE};
  for (size_t i = 0; i < sizeof tries / sizeof *tries; i++)
    if (*tries[i] && access(tries[i], R_OK) == 0) {
      if (strlen(tries[i]) >= len) return error_set(err, errlen, "the levels file's path is too long"), -1;
      snprintf(buf, len, "%s", tries[i]);
      return 0;
    }
  error_set(err, errlen, "no levels file: $OWARE_LEVELS is not set and none of %s, %s, %s%s%s can be read; give "
      "level:NAME,file=FILE",
      tries[0], *relative ? relative : "(the program's ../share/oware/levels.txt)",
      *lib1 ? lib1 : "", *lib1 ? ", " : "", tries[4]);
  return -1;
}

/* The Elo of level:elo=N, a whole number. 0, or -1 with err. */
static int elo_item(const char *spec, const char *text, long long *elo, char *err, size_t errlen) {
  char *end;
  errno = 0;
  *elo = strtoll(text, &end, 10);
  if (errno || end == text || *end || *elo < -100000 || *elo > 100000)
    return error_set(err, errlen, "level spec '%s': elo=%s is not a whole number of Elo; expected "
                     "level:elo=N[,file=FILE]", spec, text), -1;
  return 0;
}

/* The levels of f with a measured Elo, as the points of a curve. Returns
 * how many; the arrays have room for f->n. */
static int curve_points(const level_file *f, const char **spec, double *elo, const char **name) {
  int n = 0;
  for (int i = 0; i < f->n; i++)
    if (f->entry[i].columns >= 5) {
      spec[n] = f->entry[i].spec, elo[n] = f->entry[i].elo, name[n] = f->entry[i].name;
      n++;
    }
  return n;
}

int level_elo_range(const level_file *f, double *lo, double *hi, char *err, size_t errlen) {
  const char *spec[LEVEL_COUNT_MAX], *name[LEVEL_COUNT_MAX];
  double elo[LEVEL_COUNT_MAX];
  level_curve_points pts = {spec, elo, name, curve_points(f, spec, elo, name)};
  char e[ERROR_MAX];
  if (level_curve_range(&pts, lo, hi, e, sizeof e))
    return error_set(err, errlen, "%s: no level at any Elo: %s", f->path, e), -1;
  return 0;
}

int level_at_elo(const level_file *f, double elo, level_entry *out, char *err, size_t errlen) {
  const char *spec[LEVEL_COUNT_MAX], *name[LEVEL_COUNT_MAX];
  double at[LEVEL_COUNT_MAX];
  level_curve_points pts = {spec, at, name, curve_points(f, spec, at, name)};
  memset(out, 0, sizeof *out);
  char e[ERROR_MAX];
  if (level_curve_spec(&pts, elo, out->spec, sizeof out->spec, e, sizeof e))
    return error_set(err, errlen, "level at Elo %g: %s (%s)", elo, e, f->path), -1;
  snprintf(out->name, sizeof out->name, "elo%lld", llround(elo));
  out->columns = 2;
  return 0;
}

int level_is_spec(const char *spec) { return spec && !strncmp(spec, "level:", 6); }

/* Appends text to out at *n. 0, or -1 when it does not fit. */
static int append(char *out, size_t outlen, size_t *n, const char *text, size_t len) {
  if (*n + len >= outlen) return -1;
  memcpy(out + *n, text, len);
  *n += len;
  out[*n] = '\0';
  return 0;
}

/* Whether a spec's options hold name=. */
static int names_player(const char *spec) {
  const char *colon = strchr(spec, ':');
  if (!colon) return 0;
  char *item = malloc(strlen(spec) + 1);
  if (!item) return 0;
  const char *p = colon + 1;
  int named = 0;
  while (*p && !named) {
    if (player_spec_item(spec, &p, item, NULL, 0)) break; /* the parser says why, later */
    named = !strncmp(item, "name=", 5);
    if (*p == ',') p++;
  }
  free(item);
  return named;
}

/* What a level spec says: the level (by name, or at an Elo), the file,
 * and the raw text of its name= and seed=, copied after the stored spec. */
typedef struct level_ask {
  char level[LEVEL_NAME_MAX];
  char path[PATH_MAX]; /* "" for the default file */
  int at_elo;
  long long elo;
  const char *keep[2]; /* name=, seed= */
  size_t keeplen[2];
} level_ask;

/* The first item of a level spec: NAME or elo=N. 0, or -1 with err. */
static int level_item(const char *spec, const char *item, level_ask *a, char *err, size_t errlen) {
  if (!strncmp(item, "elo=", 4)) {
    if (elo_item(spec, item + 4, &a->elo, err, errlen)) return -1;
    snprintf(a->level, sizeof a->level, "elo%lld", a->elo);
    a->at_elo = 1;
    return 0;
  }
  if (!*item)
    return error_set(err, errlen, "level spec '%s': no level name; expected level:NAME[,file=FILE]", spec), -1;
  if (!name_ok(item, strlen(item)))
    return error_set(err, errlen, "level spec '%s': '%s' is not a level name (letters, digits, '-' and '_'); "
                     "expected level:NAME[,file=FILE]", spec, item), -1;
  snprintf(a->level, sizeof a->level, "%s", item);
  return 0;
}

/* One option of a level spec (item, whose raw text is start..p). 0, or -1. */
static int level_option(const char *spec, const char *item, const char *start, const char *p,
                        level_ask *a, char *err, size_t errlen) {
  const char *eq = strchr(item, '=');
  const int klen = eq ? (int)(eq - item) : (int)strlen(item);
  if (!strncmp(item, "file=", 5)) {
    if (a->path[0])
      return error_set(err, errlen, "level spec '%s': option 'file' is given twice", spec), -1;
    if (!item[5] || strlen(item + 5) >= sizeof a->path)
      return error_set(err, errlen, "level spec '%s': file= needs a path (of fewer than %d characters)", spec,
                       PATH_MAX), -1;
    snprintf(a->path, sizeof a->path, "%s", item + 5);
  } else if (!strncmp(item, "name=", 5) || !strncmp(item, "seed=", 5)) {
    int w = item[0] == 's';
    if (a->keep[w])
      return error_set(err, errlen, "level spec '%s': option '%.4s' is given twice", spec, item), -1;
    a->keep[w] = start;
    a->keeplen[w] = (size_t)(p - start);
  } else if (!strncmp(item, "elo=", 4)) {
    return error_set(err, errlen, "level spec '%s': elo= comes first (level:elo=N) and once", spec), -1;
  } else {
    return error_set(err, errlen, "level spec '%s': unknown option '%.*s'; options of level: file, name, seed "
                     "(a level's player is set in the levels file)", spec, klen, item), -1;
  }
  return 0;
}

/* Parses "level:..." into *a. 0, or -1 with err. */
static int level_ask_parse(const char *spec, level_ask *a, char *err, size_t errlen) {
  memset(a, 0, sizeof *a);
  char *item = malloc(strlen(spec) + 1);
  if (!item) return error_set(err, errlen, "out of memory"), -1;
  int rc = 0;
  const char *p = spec + 6;
  for (int k = 0; !rc && (*p || k == 0); k++) {
    const char *start = p;
    rc = player_spec_item(spec, &p, item, err, errlen);
    if (!rc) rc = k == 0 ? level_item(spec, item, a, err, errlen)
                         : level_option(spec, item, start, p, a, err, errlen);
    if (!rc && *p == ',' && !*++p) {
      error_set(err, errlen, "level spec '%s': trailing ','", spec);
      rc = -1;
    }
  }
  free(item);
  return rc;
}

/* The stored spec of a, then name=LEVEL when it names no player, then a's
 * own name= and seed=, into out. 0, or -1 when it does not fit. */
static int level_write(const level_ask *a, const level_entry *e, char *out, size_t outlen) {
  size_t n = 0;
  out[0] = '\0';
  int fits = !append(out, outlen, &n, e->spec, strlen(e->spec));
  const char *sep = strchr(e->spec, ':') ? "," : ":";
  if (fits && !a->keep[0] && !names_player(e->spec)) {
    fits = !append(out, outlen, &n, sep, 1) && !append(out, outlen, &n, "name=", 5) &&
           !append(out, outlen, &n, e->name, strlen(e->name));
    sep = ",";
  }
  for (int w = 0; w < 2 && fits; w++)
    if (a->keep[w]) {
      fits = !append(out, outlen, &n, sep, 1) && !append(out, outlen, &n, a->keep[w], a->keeplen[w]);
      sep = ",";
    }
  return fits ? 0 : -1;
}

int level_resolve(const char *spec, char *out, size_t outlen, char *err, size_t errlen) {
  if (!level_is_spec(spec)) {
    if (strlen(spec) >= outlen) return error_set(err, errlen, "player spec '%.40s…' is too long", spec), -1;
    snprintf(out, outlen, "%s", spec);
    return 0;
  }
  level_ask *a = malloc(sizeof *a);
  level_entry *at = malloc(sizeof *at);
  level_file f = {0};
  int rc = -1;
  if (!a || !at) {
    error_set(err, errlen, "out of memory");
    goto done;
  }
  if (level_ask_parse(spec, a, err, errlen) ||
      (!*a->path && level_default_path(a->path, sizeof a->path, err, errlen)) ||
      level_load(a->path, &f, err, errlen))
    goto done;
  const level_entry *e = a->at_elo ? at : level_find(&f, a->level);
  if (a->at_elo && level_at_elo(&f, (double)a->elo, at, err, errlen)) goto done;
  if (!e) {
    error_set(err, errlen, "unknown level '%s' in %s; %s", a->level, a->path,
              f.n ? "its levels:" : "it has no levels");
    for (int i = 0; i < f.n; i++) error_append(err, errlen, "%s %s", i ? "," : "", f.entry[i].name);
  } else if (level_write(a, e, out, outlen)) {
    error_set(err, errlen, "level '%s' of %s: its spec is too long", a->level, a->path);
  } else {
    rc = 0;
  }
done:
  level_file_free(&f);
  free(a);
  free(at);
  return rc;
}

/* Whether a spec must be quoted in a levels file. */
static int needs_quotes(const char *s) {
  return !*s || strpbrk(s, " \t\"#") != NULL;
}

int level_format(const level_entry *e, char *buf, size_t len) {
  if (!name_ok(e->name, strlen(e->name)) || !*e->spec || strpbrk(e->spec, "\r\n")) return -1;
  size_t n = 0;
  int w = snprintf(buf, len, "%s ", e->name);
  if (w < 0 || (size_t)w >= len) return -1;
  n = (size_t)w;
  if (needs_quotes(e->spec)) {
    if (append(buf, len, &n, "\"", 1)) return -1;
    for (const char *c = e->spec; *c; c++)
      if (((*c == '"' || *c == '\\') && append(buf, len, &n, "\\", 1)) ||
          append(buf, len, &n, c, 1))
        return -1;
    if (append(buf, len, &n, "\"", 1)) return -1;
  } else if (append(buf, len, &n, e->spec, strlen(e->spec))) {
    return -1;
  }
  if (e->columns >= 5) {
    w = snprintf(buf + n, len - n, " %.1f %.1f %.1f", e->elo, e->lo, e->hi);
    if (w < 0 || (size_t)w >= len - n) return -1;
    n += (size_t)w;
  }
  if (e->columns >= 6) {
    w = snprintf(buf + n, len - n, " %.0f", e->target);
    if (w < 0 || (size_t)w >= len - n) return -1;
    n += (size_t)w;
  }
  for (int k = 7; k <= 8 && e->columns >= k; k++) {
    const char *word = k == 7 ? e->verdict : e->status;
    if (!*word || strpbrk(word, " \t\"#\r\n")) return -1;
    w = snprintf(buf + n, len - n, " %s", word);
    if (w < 0 || (size_t)w >= len - n) return -1;
    n += (size_t)w;
  }
  return n > LEVEL_LINE_MAX ? -1 : (int)n;
}
