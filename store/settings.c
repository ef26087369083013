/* settings.c: a driver's settings table: defaults, run_config rows written and read back. */
#include "store/settings.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The field of setting k in cfg. */
#define FIELD(T, cfg, k) ((T *)((char *)(cfg) + (k)->offset))

const settings_key *settings_find(const settings_key *table, const char *key) {
  for (const settings_key *k = table; k->key; k++)
    if (!strcmp(k->key, key)) return k;
  return NULL;
}

/* Whether x is in k's range. */
static int int_ok(const settings_key *k, long long x) { return x >= k->lo && x <= k->hi; }
static int real_ok(const settings_key *k, double x) {
  if (!isfinite(x)) return 0;
  if (k->flags & SETTINGS_POSITIVE) return x > 0;
  return x >= k->rlo && x <= k->rhi;
}

/* The index of name in k's choices, or -1. */
static int choice_index(const settings_key *k, const char *name) {
  for (int i = 0; k->choices[i]; i++)
    if (!strcmp(k->choices[i], name)) return i;
  return -1;
}

/* The default of k into cfg. */
static int set_default(const settings_key *k, void *cfg, char *err, size_t errlen) {
  char *end = NULL;
  errno = 0;
  switch (k->type) {
  case SETTINGS_TEXT:
    *FIELD(const char *, cfg, k) = k->def;
    return 0;
  case SETTINGS_FLAG:
    *FIELD(int, cfg, k) = 0;
    return 0;
  case SETTINGS_CHOICE: {
    int i = k->def ? choice_index(k, k->def) : 0;
    if (i < 0) break;
    *FIELD(int, cfg, k) = i;
    return 0;
  }
  case SETTINGS_INT: {
    long long x = k->def ? strtoll(k->def, &end, 10) : 0;
    if (k->def && (errno || end == k->def || *end || !int_ok(k, x))) break;
    *FIELD(long long, cfg, k) = x;
    return 0;
  }
  case SETTINGS_REAL: {
    double x = k->def ? strtod(k->def, &end) : 0;
    if (k->def && (errno || end == k->def || *end || !real_ok(k, x))) break;
    *FIELD(double, cfg, k) = x;
    return 0;
  }
  }
  error_set(err, errlen, "setting '%s': default '%s' does not parse", k->key,
            k->def ? k->def : "");
  return -1;
}

int settings_defaults(const settings_key *table, void *cfg, char *err, size_t errlen) {
  for (const settings_key *k = table; k->key; k++)
    if (set_default(k, cfg, err, errlen)) return -1;
  return 0;
}

int settings_save(const settings_key *table, const void *cfg, store_run *run, char *err,
                  size_t errlen) {
  int bad = 0;
  for (const settings_key *k = table; k->key && !bad; k++) {
    if (k->flags & SETTINGS_COLUMN) continue;
    switch (k->type) {
    case SETTINGS_TEXT: {
      const char *v = *FIELD(const char *const, cfg, k);
      if (v) bad = store_config_set_text(run, k->key, v);
      break;
    }
    case SETTINGS_INT:
      bad = store_config_set_int(run, k->key, *FIELD(const long long, cfg, k));
      break;
    case SETTINGS_REAL: {
      double v = *FIELD(const double, cfg, k);
      if (!(k->flags & SETTINGS_POSITIVE) || v > 0) bad = store_config_set_real(run, k->key, v);
      break;
    }
    case SETTINGS_FLAG:
      if (*FIELD(const int, cfg, k)) bad = store_config_set_int(run, k->key, 1);
      break;
    case SETTINGS_CHOICE:
      bad = store_config_set_text(run, k->key, k->choices[*FIELD(const int, cfg, k)]);
      break;
    }
  }
  if (bad) error_set(err, errlen, "out of memory");
  return bad ? -1 : 0;
}

/* Reads k from the run into cfg: 0 read, 1 missing, -1 with err. */
static int load_key(const settings_key *k, const store_run *run, void *cfg, char *err,
                    size_t errlen) {
  long long i = 0;
  double r = 0;
  const char *t = NULL;
  int rc;
  switch (k->type) {
  case SETTINGS_TEXT:
    return store_config_get_text(run, k->key, FIELD(const char *, cfg, k), err, errlen);
  case SETTINGS_FLAG:
    if ((rc = store_config_get_int(run, k->key, &i, err, errlen))) return rc;
    *FIELD(int, cfg, k) = i != 0;
    return 0;
  case SETTINGS_CHOICE:
    if ((rc = store_config_get_text(run, k->key, &t, err, errlen))) return rc;
    if ((rc = choice_index(k, t)) < 0) {
      error_set(err, errlen, "run %" PRId64 ": setting '%s' is '%s'; expected", run->id, k->key,
                t);
      for (int c = 0; k->choices[c]; c++)
        error_append(err, errlen, "%s%s", c == 0 ? " " : k->choices[c + 1] ? ", " : " or ",
                     k->choices[c]);
      return -1;
    }
    *FIELD(int, cfg, k) = rc;
    return 0;
  case SETTINGS_INT:
    if ((rc = store_config_get_int(run, k->key, &i, err, errlen))) return rc;
    if (!int_ok(k, i)) {
      error_set(err, errlen, "run %" PRId64 ": setting '%s' is %lld; expected %lld to %lld",
                run->id, k->key, i, k->lo, k->hi);
      return -1;
    }
    *FIELD(long long, cfg, k) = i;
    return 0;
  case SETTINGS_REAL:
    if ((rc = store_config_get_real(run, k->key, &r, err, errlen))) return rc;
    if (!real_ok(k, r)) {
      if (k->flags & SETTINGS_POSITIVE)
        error_set(err, errlen, "run %" PRId64 ": setting '%s' is %g; expected a positive number",
                  run->id, k->key, r);
      else
        error_set(err, errlen, "run %" PRId64 ": setting '%s' is %g; expected %g to %g", run->id,
                  k->key, r, k->rlo, k->rhi);
      return -1;
    }
    *FIELD(double, cfg, k) = r;
    return 0;
  }
  error_set(err, errlen, "setting '%s': unknown type", k->key);
  return -1;
}

int settings_load(const settings_key *table, const store_run *run, void *cfg, char *err,
                  size_t errlen) {
  if (settings_defaults(table, cfg, err, errlen)) return -1;
  for (const settings_key *k = table; k->key; k++) {
    if (k->flags & SETTINGS_COLUMN) continue;
    int rc = load_key(k, run, cfg, err, errlen);
    if (rc < 0) return -1;
    if (rc == 1 && (k->flags & SETTINGS_REQUIRED)) {
      error_set(err, errlen, "run %" PRId64 ": setting '%s' is missing", run->id, k->key);
      return -1;
    }
  }
  return 0;
}
