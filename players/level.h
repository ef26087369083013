/* level.h: difficulty levels by name: the levels file (read, found, its lines written) and level:NAME specs resolved to the player spec a level stands for. */
#ifndef OWARE_LEVEL_H
#define OWARE_LEVEL_H

#include <stddef.h>

#define LEVEL_NAME_MAX 64
#define LEVEL_SPEC_MAX 2048
/* The longest line of a levels file: a name, the longest spec with every
 * character escaped, and the columns after it. */
#define LEVEL_LINE_MAX (LEVEL_NAME_MAX + 2 * LEVEL_SPEC_MAX + 512)

/* One line of a levels file (docs/LEVELS.md):
 *   NAME SPEC [ELO LO HI [TARGET [VERDICT [STATUS]]]]
 * SPEC is one word, or "double-quoted" with \" and \\ inside when it holds
 * a space, a tab, '"' or '#'. */
typedef struct level_entry {
  char name[LEVEL_NAME_MAX];
  char spec[LEVEL_SPEC_MAX];
  int line;       /* its line in the file */
  int columns;    /* how many columns the line has (2, 5, 6, 7 or 8) */
  double elo, lo, hi, target; /* when columns >= 5 (and >= 6 for target) */
  char verdict[16], status[16]; /* when columns >= 7, 8; else "" */
} level_entry;

typedef struct level_file {
  char *path; /* as given (owned) */
  level_entry *entry;
  int n;
} level_file;

/* Parses the text of a levels file; path only names it in messages. Errors
 * are "PATH:LINE: what". Returns 0, or -1 with err (f is then empty). */
int level_parse(const char *text, const char *path, level_file *f, char *err, size_t errlen);

/* Reads and parses the file at path. 0, or -1 with err (unreadable, too
 * large, malformed). */
int level_load(const char *path, level_file *f, char *err, size_t errlen);

void level_file_free(level_file *f);

/* The entry called name, or NULL. */
const level_entry *level_find(const level_file *f, const char *name);

/* The default levels file: $OWARE_LEVELS when set (even if it cannot be
 * read: loading it will say why), else the first readable of the installed
 * file (<datadir>/oware/levels.txt of the build's prefix), the same path
 * relative to the running program (<bindir>/../share/oware/levels.txt, for
 * an install under another prefix), relative to the shared library this
 * code is in when a program links liboware (<libdir>/../share/..., or
 * <libdir>/../../share/... for a multiarch libdir), the source tree's
 * data/levels.txt.
 * Returns 0 with the path in buf, or -1 with err naming the places tried. */
int level_default_path(char *buf, size_t len, char *err, size_t errlen);

/* The range of Elo between the levels of f with a measured Elo (at least
 * two, the same player with one option, the knob, set apart): where
 * level_at_elo answers. 0, or -1 with err saying why f has none. */
int level_elo_range(const level_file *f, double *lo, double *hi, char *err, size_t errlen);

/* A level at Elo elo between the levels of f (players/level_curve.h: the
 * knob interpolated between the two levels whose Elos enclose elo), named
 * "eloN" (N rounded). 0, or -1 with err: f has no such levels, or elo is
 * outside their range (the message gives it). */
int level_at_elo(const level_file *f, double elo, level_entry *out, char *err, size_t errlen);

/* Whether spec is a level spec ("level:..."). */
int level_is_spec(const char *spec);

/* Resolves "level:NAME[,file=FILE][,name=N][,seed=S]" into the spec stored
 * for NAME in FILE (or in the default file), and "level:elo=N[,...]" (N a
 * whole number) into level_at_elo's spec for N, named eloN; with name=NAME added when the
 * stored spec names no player, and the spec's own name= and seed= after it
 * (they take precedence). Any other spec is copied unchanged. Returns 0 with
 * the spec in out, or -1 with err: a bad level spec, a missing or malformed
 * file, an unknown level (the message lists the file's levels), a result
 * longer than outlen. */
int level_resolve(const char *spec, char *out, size_t outlen, char *err, size_t errlen);

/* One line of a levels file for e (no newline), its spec quoted when it must
 * be; the columns after SPEC as e->columns says (elo, lo, hi with one
 * decimal, target rounded). Returns the length, or -1 when it does not fit
 * in len, is longer than LEVEL_LINE_MAX (level_parse would refuse it), or
 * e's name or spec cannot be written (then nothing is to be written). */
int level_format(const level_entry *e, char *buf, size_t len);

#endif
