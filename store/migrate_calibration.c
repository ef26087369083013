/* migrate_calibration.c: step 14 → 15 of the store's upgrade: a calibration's anchor, pool and stored pairings named in the specs its players and base were migrated to (docs/SCHEMA.md). */
#include "core/error.h"
#include "store/store_sql.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One calibration as the earlier steps left it: its players (the anchor
 * and the pool, each stored under the spec it was given as its name, the
 * spec itself rewritten by the steps), its base (rewritten by the steps
 * when its knob is not a weight) and its knob. */
typedef struct calibration {
  int64_t id;
  char **name, **spec;
  int n;
  char *base, *knob;
} calibration;

static void calibration_free(calibration *c) {
  for (int i = 0; i < c->n; i++) free(c->name[i]), free(c->spec[i]);
  free(c->name);
  free(c->spec);
  free(c->base);
  free(c->knob);
  memset(c, 0, sizeof *c);
}

/* A copy of the n bytes at a followed by the string b; NULL when out of
 * memory. */
static char *joined(const char *a, size_t n, const char *b) {
  size_t m = strlen(b);
  char *s = malloc(n + m + 1);
  if (!s) return NULL;
  memcpy(s, a, n);
  memcpy(s + n, b, m + 1);
  return s;
}

/* Where s ends in a value of c's knob, as calibrate_spec writes one
 * ("BASE:KNOB=V" or "BASE,KNOB=V", V a number): the offset of the ':' or
 * ','; else -1. */
static long knob_suffix(const calibration *c, const char *s) {
  const char *eq = strrchr(s, '=');
  size_t k = strlen(c->knob);
  if (!eq || (size_t)(eq - s) < k + 1 || strncmp(eq - k, c->knob, k)) return -1;
  const char *sep = eq - k - 1;
  if (*sep != ',' && *sep != ':') return -1;
  char *end;
  (void)strtod(eq + 1, &end);
  return end == eq + 1 || *end ? -1 : (long)(sep - s);
}

/* The spec that a spec stored by calibration c stands for now: a player's
 * name gives its spec; one of the base's knob values on an older base
 * gives that value on the base as it is. 1 with *out (malloc'ed), 0 when s
 * stays as it is, -1 when out of memory. */
static int spec_now(const calibration *c, const char *s, char **out) {
  for (int i = 0; i < c->n; i++)
    if (!strcmp(s, c->name[i])) {
      if (!strcmp(c->name[i], c->spec[i])) return 0;
      return (*out = strdup(c->spec[i])) ? 1 : -1;
    }
  long at = c->base && c->knob ? knob_suffix(c, s) : -1;
  if (at < 0 || ((size_t)at == strlen(c->base) && !strncmp(s, c->base, (size_t)at))) return 0;
  /* calibrate_spec's separator for this base, then "KNOB=V". */
  char *head = joined(c->base, strlen(c->base), strchr(c->base, ':') ? "," : ":");
  if (!head) return -1;
  *out = joined(head, strlen(head), s + at + 1);
  free(head);
  return *out ? 1 : -1;
}

/* The anchor setting "SPEC=ELO" with its spec as it is now: as spec_now. */
static int anchor_now(const calibration *c, const char *anchor, char **out) {
  const char *eq = strrchr(anchor, '=');
  if (!eq || eq == anchor) return 0;
  char *spec = joined(anchor, (size_t)(eq - anchor), ""), *now = NULL;
  if (!spec) return -1;
  int rc = spec_now(c, spec, &now);
  free(spec);
  if (rc <= 0) return rc;
  *out = joined(now, strlen(now), eq);
  free(now);
  return *out ? 1 : -1;
}

/* The pool setting "SPEC;SPEC;..." (as the calibration stores it: no
 * spaces, no empty item) with each spec as it is now: as spec_now. */
static int pool_now(const calibration *c, const char *pool, char **out) {
  char *acc = strdup("");
  int changed = 0;
  for (const char *p = pool; acc && *p;) {
    const char *semi = strchr(p, ';');
    size_t len = semi ? (size_t)(semi - p) : strlen(p);
    char *item = joined(p, len, ""), *now = NULL;
    int rc = item ? spec_now(c, item, &now) : -1;
    char *next = NULL;
    if (rc >= 0) {
      const char *use = rc ? now : item;
      char *sep = joined(acc, strlen(acc), *acc ? ";" : "");
      next = sep ? joined(sep, strlen(sep), use) : NULL;
      free(sep);
    }
    changed |= rc > 0;
    free(item);
    free(now);
    free(acc);
    acc = next;
    p += len + (semi != NULL);
  }
  if (!acc) return -1;
  if (!changed) return free(acc), 0;
  *out = acc;
  return 1;
}

/* Loads run id's players and its base and knob into c. */
static int calibration_load(sqlite3 *db, int64_t id, calibration *c, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  c->id = id;
  sqlite3_stmt *st = NULL;
  if (store_sql_prepare(db, "SELECT name, spec FROM players WHERE run_id = ? ORDER BY idx", 0, &st,
                        err, errlen))
    return -1;
  sqlite3_bind_int64(st, 1, id);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int bad = store_sql_strings_add(&c->name, c->n, (const char *)sqlite3_column_text(st, 0));
    if (!bad && store_sql_strings_add(&c->spec, c->n, (const char *)sqlite3_column_text(st, 1)))
      bad = 1, free(c->name[c->n]);
    if (bad) {
      sqlite3_finalize(st);
      return error_set(err, errlen, "store: out of memory migrating calibration %" PRId64, id), -1;
    }
    c->n++;
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) return store_sql_fail(db, err, errlen, "cannot read a calibration's players");
  if (store_sql_prepare(db, "SELECT key, value FROM run_config WHERE run_id = ? AND key IN"
                            " ('base', 'knob')", 0, &st, err, errlen))
    return -1;
  sqlite3_bind_int64(st, 1, id);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    char **to = !strcmp((const char *)sqlite3_column_text(st, 0), "base") ? &c->base : &c->knob;
    free(*to);
    if (!(*to = store_sql_column_dup(st, 1))) {
      sqlite3_finalize(st);
      return error_set(err, errlen, "store: out of memory migrating calibration %" PRId64, id), -1;
    }
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : store_sql_fail(db, err, errlen, "cannot read a calibration's settings");
}

/* Rewrites the anchor and pool settings of c by their rules. */
static int settings_now(sqlite3 *db, const calibration *c, char *err, size_t errlen) {
  sqlite3_stmt *get = NULL, *put = NULL;
  if (store_sql_prepare(db, "SELECT key, value FROM run_config WHERE run_id = ? AND key IN"
                            " ('anchor', 'pool') AND type = 'text'", 0, &get, err, errlen) ||
      store_sql_prepare(db, "UPDATE run_config SET value = ? WHERE run_id = ? AND key = ?", 0, &put,
                        err, errlen)) {
    sqlite3_finalize(get);
    return -1;
  }
  sqlite3_bind_int64(get, 1, c->id);
  int rc, ret = -1;
  while ((rc = sqlite3_step(get)) == SQLITE_ROW) {
    const char *key = (const char *)sqlite3_column_text(get, 0);
    const char *value = (const char *)sqlite3_column_text(get, 1);
    char *now = NULL;
    int r = !value ? 0 : !strcmp(key, "anchor") ? anchor_now(c, value, &now) : pool_now(c, value, &now);
    if (r < 0) {
      error_set(err, errlen, "store: out of memory migrating calibration %" PRId64, c->id);
      goto done;
    }
    if (!r) continue;
    sqlite3_reset(put);
    sqlite3_bind_text(put, 1, now, -1, free);
    sqlite3_bind_int64(put, 2, c->id);
    sqlite3_bind_text(put, 3, key, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(put) != SQLITE_DONE) {
      store_sql_fail(db, err, errlen, "cannot store a calibration's settings");
      goto done;
    }
  }
  if (rc != SQLITE_DONE) store_sql_fail(db, err, errlen, "cannot read a calibration's settings");
  else ret = 0;
done:
  sqlite3_finalize(get);
  sqlite3_finalize(put);
  return ret;
}

/* Rewrites the specs of c's stored pairings (calibration_pairs) by spec_now. */
static int pairings_now(sqlite3 *db, const calibration *c, char *err, size_t errlen) {
  sqlite3_stmt *get = NULL, *put = NULL;
  if (store_sql_prepare(db, "SELECT step, spec_a, spec_b FROM calibration_pairs WHERE run_id = ?",
                        0, &get, err, errlen) ||
      store_sql_prepare(db, "UPDATE calibration_pairs SET spec_a = ?, spec_b = ? WHERE run_id = ?"
                            " AND step = ?", 0, &put, err, errlen)) {
    sqlite3_finalize(get);
    return -1;
  }
  sqlite3_bind_int64(get, 1, c->id);
  int rc, ret = -1;
  while ((rc = sqlite3_step(get)) == SQLITE_ROW) {
    const char *a = (const char *)sqlite3_column_text(get, 1);
    const char *b = (const char *)sqlite3_column_text(get, 2);
    char *na = NULL, *nb = NULL;
    int ra = a ? spec_now(c, a, &na) : 0, rb = b ? spec_now(c, b, &nb) : 0;
    if (ra < 0 || rb < 0) {
      free(na), free(nb);
      error_set(err, errlen, "store: out of memory migrating calibration %" PRId64, c->id);
      goto done;
    }
    if (!ra && !rb) continue;
    sqlite3_reset(put);
    sqlite3_bind_text(put, 1, ra ? na : a, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(put, 2, rb ? nb : b, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(put, 3, c->id);
    sqlite3_bind_int64(put, 4, sqlite3_column_int64(get, 0));
    rc = sqlite3_step(put);
    free(na), free(nb);
    if (rc != SQLITE_DONE) {
      store_sql_fail(db, err, errlen, "cannot store a calibration's pairings");
      goto done;
    }
  }
  if (rc != SQLITE_DONE) store_sql_fail(db, err, errlen, "cannot read a calibration's pairings");
  else ret = 0;
done:
  sqlite3_finalize(get);
  sqlite3_finalize(put);
  return ret;
}

int store_sql_migrate_calibrations(sqlite3 *db, char *err, size_t errlen) {
  long long pairs = 0;
  if (store_sql_query_int(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name ="
                              " 'calibration_pairs'", &pairs) != SQLITE_OK)
    return store_sql_fail(db, err, errlen, "cannot read the schema");
  sqlite3_stmt *st = NULL;
  if (store_sql_prepare(db, "SELECT id FROM runs WHERE kind = 'calibration' ORDER BY id", 0, &st,
                        err, errlen))
    return -1;
  int rc, ret = 0;
  while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    calibration c;
    ret = calibration_load(db, sqlite3_column_int64(st, 0), &c, err, errlen) ||
          settings_now(db, &c, err, errlen) || (pairs && pairings_now(db, &c, err, errlen));
    calibration_free(&c);
  }
  if (!ret && rc != SQLITE_DONE) ret = store_sql_fail(db, err, errlen, "cannot read the calibrations");
  sqlite3_finalize(st);
  return ret ? -1 : 0;
}
