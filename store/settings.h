/* settings.h: a driver's settings declared once in a table: their defaults, written as a run's run_config rows, read back for a resume. */
#ifndef OWARE_SETTINGS_H
#define OWARE_SETTINGS_H

#include <stddef.h>

#include "store/store.h"

/* What a setting is, and the type of its field in the driver's config. */
typedef enum settings_type {
  SETTINGS_TEXT, /* const char *: NULL is unset and not stored */
  SETTINGS_INT,  /* long long in [lo, hi]: always stored */
  SETTINGS_REAL, /* double in [rlo, rhi]: always stored (SETTINGS_POSITIVE: see below) */
  SETTINGS_FLAG, /* int 0 or 1: stored as the integer 1 when set, not stored when 0 */
  SETTINGS_CHOICE /* int: the index of the value in choices; stored as the value's name */
} settings_type;

/* settings_key.flags */
#define SETTINGS_REQUIRED 1 /* a stored run must have it (a text: set) */
#define SETTINGS_POSITIVE 2 /* a real: > 0 when given; 0 is unset and not stored */
#define SETTINGS_COLUMN 4   /* kept in a column of the run (store_run: its players, format,
                               seed...), not in run_config: settings_save and settings_load
                               pass it by */

/* One setting: the option's name is its key in run_config (docs/SCHEMA.md). */
typedef struct settings_key {
  const char *key;        /* "iterations" (--iterations, run_config key "iterations") */
  settings_type type;
  size_t offset;          /* offsetof the field in the driver's config */
  const char *def;        /* the default as text ("200"), parsed into the field; NULL: none
                             (NULL, 0) */
  const char *value_name; /* for the help: "--iterations N" */
  const char *help;       /* one line, without the default */
  long long lo, hi;       /* SETTINGS_INT */
  double rlo, rhi;        /* SETTINGS_REAL (unless SETTINGS_POSITIVE) */
  const char *const *choices; /* SETTINGS_CHOICE: NULL-terminated */
  int flags;              /* SETTINGS_REQUIRED, SETTINGS_POSITIVE, SETTINGS_COLUMN */
} settings_key;

/* Table rows; a table ends with SETTINGS_END. T is the config's type. */
#define SETTINGS_K_TEXT(k, T, f, v, d, h, fl)                                                  \
  {.key = (k), .type = SETTINGS_TEXT, .offset = offsetof(T, f), .value_name = (v), .def = (d), \
   .help = (h), .flags = (fl)}
#define SETTINGS_K_INT(k, T, f, l, u, v, d, h, fl)                                            \
  {.key = (k), .type = SETTINGS_INT, .offset = offsetof(T, f), .lo = (l), .hi = (u),          \
   .value_name = (v), .def = (d), .help = (h), .flags = (fl)}
#define SETTINGS_K_REAL(k, T, f, l, u, v, d, h, fl)                                           \
  {.key = (k), .type = SETTINGS_REAL, .offset = offsetof(T, f), .rlo = (l), .rhi = (u),       \
   .value_name = (v), .def = (d), .help = (h), .flags = (fl)}
#define SETTINGS_K_FLAG(k, T, f, h)                                                           \
  {.key = (k), .type = SETTINGS_FLAG, .offset = offsetof(T, f), .help = (h)}
#define SETTINGS_K_CHOICE(k, T, f, c, d, h, fl)                                               \
  {.key = (k), .type = SETTINGS_CHOICE, .offset = offsetof(T, f), .choices = (c), .def = (d),  \
   .help = (h), .flags = (fl)}
#define SETTINGS_END {.key = NULL}

/* The key's row of the table, or NULL. */
const settings_key *settings_find(const settings_key *table, const char *key);

/* Sets every field of the table in cfg to its default (texts point into
 * the table). 0, or -1 with err naming a default that does not parse (a
 * bug in the table). */
int settings_defaults(const settings_key *table, void *cfg, char *err, size_t errlen);

/* Writes the settings of cfg into the run's settings (store_config_set_*,
 * before store_run_create): every integer, real and choice, every text
 * that is set, every flag that is set (a SETTINGS_POSITIVE real only when
 * > 0); not the SETTINGS_COLUMN ones.
 * 0, or -1 with err when out of memory. */
int settings_save(const settings_key *table, const void *cfg, store_run *run, char *err,
                  size_t errlen);

/* Reads a stored run's settings into cfg: first the defaults, then each
 * key the run has (a text points into run; SETTINGS_COLUMN ones keep their
 * defaults: the caller reads the run's columns). A key the run lacks keeps its
 * default (the runs that schema 4 stored have only the options that were
 * given) unless it is SETTINGS_REQUIRED: then it is an error, as are a key
 * of another type and a value out of its range, each named ("run 3:
 * setting 'player' is missing"). 0, or -1 with err. */
int settings_load(const settings_key *table, const store_run *run, void *cfg, char *err,
                  size_t errlen);

#endif
