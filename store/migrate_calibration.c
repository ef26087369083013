/* migrate_calibration.c: a calibration's anchor, pool and stored pairings through the store's upgrades: rewritten by each step's rule, and the repair of step 14 → 15 for the steps that left them out (docs/SCHEMA.md). */
#include "core/error.h"
#include "store/store_sql.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One calibration and what its specs become: each of its players' specs
 * (name[i], the spec the anchor and pool settings and the pairings say)
 * becomes spec[i]; a spec of the base's knob on a base other than
 * base_now (its pairings' ladder and level specs, "BASE,KNOB=V") becomes
 * the same value on base_now. */
typedef struct calibration {
  int64_t id;
  char **name, **spec;
  int n;
  char *base_now, *knob;
} calibration;

static void calibration_free(calibration *c) {
  for (int i = 0; i < c->n; i++) free(c->name[i]), free(c->spec[i]);
  free(c->name);
  free(c->spec);
  free(c->base_now);
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
  const char *base = c->base_now;
  long at = base && c->knob ? knob_suffix(c, s) : -1;
  if (at < 0 || ((size_t)at == strlen(base) && !strncmp(s, base, (size_t)at))) return 0;
  /* calibrate_spec's separator for this base, then "KNOB=V". */
  char *head = joined(base, strlen(base), strchr(base, ':') ? "," : ":");
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
  sqlite3_str *acc = sqlite3_str_new(NULL);
  int rc = 0, changed = 0;
  for (const char *p = pool; *p && rc >= 0;) {
    size_t len = strcspn(p, ";");
    char *item = joined(p, len, ""), *now = NULL;
    rc = item ? spec_now(c, item, &now) : -1;
    if (rc >= 0) sqlite3_str_appendf(acc, "%s%s", p == pool ? "" : ";", rc ? now : item);
    changed |= rc > 0;
    free(item);
    free(now);
    p += len + (p[len] == ';');
  }
  /* (finish gives NULL for an empty text too: the error code tells.) */
  int oom = sqlite3_str_errcode(acc) != SQLITE_OK;
  char *text = sqlite3_str_finish(acc);
  if (rc >= 0 && !oom && changed) *out = strdup(text);
  sqlite3_free(text);
  if (rc < 0 || oom) return -1;
  return !changed ? 0 : *out ? 1 : -1;
}

/* The repair's view of run id (step 14 → 15): its players' names (the
 * specs as given, which the anchor and pool settings and the pairings
 * still say) become their specs (as the steps rewrote them); its base is
 * as the steps left it. */
static int calibration_named(sqlite3 *db, int64_t id, calibration *c, char *err, size_t errlen) {
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
    char **to = !strcmp((const char *)sqlite3_column_text(st, 0), "base") ? &c->base_now : &c->knob;
    free(*to);
    if (!(*to = store_sql_column_dup(st, 1))) {
      sqlite3_finalize(st);
      return error_set(err, errlen, "store: out of memory migrating calibration %" PRId64, id), -1;
    }
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : store_sql_fail(db, err, errlen, "cannot read a calibration's settings");
}

/* Adds the player spec `name` (n bytes) to c, to become rule's spec. */
static int ruled_add(calibration *c, store_spec_rule rule, const char *name, size_t n) {
  char *given = joined(name, n, ""), *now = NULL;
  int rc = given ? rule(given, &now) : -1;
  if (rc >= 0 && !store_sql_strings_add(&c->name, c->n, given)) {
    if (!store_sql_strings_add(&c->spec, c->n, rc ? now : given)) c->n++;
    else free(c->name[c->n]), rc = -1;
  } else {
    rc = -1;
  }
  free(given);
  free(now);
  return rc < 0 ? -1 : 0;
}

/* A step's view of run id, before the step: the specs its anchor and pool
 * settings say (its players) become rule's; its base becomes rule's when
 * base_where selects its row of run_config (the step rewrites it then). */
static int calibration_ruled(sqlite3 *db, int64_t id, store_spec_rule rule, const char *base_where,
                             calibration *c, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  c->id = id;
  sqlite3_stmt *st = NULL;
  if (store_sql_prepare(db, "SELECT key, value FROM run_config WHERE run_id = ? AND key IN"
                            " ('base', 'knob', 'anchor', 'pool') AND type = 'text'", 0, &st, err,
                        errlen))
    return -1;
  sqlite3_bind_int64(st, 1, id);
  int rc, bad = 0;
  char *base = NULL;
  while (!bad && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *key = (const char *)sqlite3_column_text(st, 0);
    const char *value = (const char *)sqlite3_column_text(st, 1);
    if (!value) continue;
    if (!strcmp(key, "base")) {
      bad = !(base = strdup(value));
    } else if (!strcmp(key, "knob")) {
      bad = !(c->knob = strdup(value));
    } else if (!strcmp(key, "anchor")) {
      const char *eq = strrchr(value, '=');
      bad = eq && eq != value && ruled_add(c, rule, value, (size_t)(eq - value));
    } else {
      for (const char *p = value; *p && !bad;) {
        size_t len = strcspn(p, ";");
        bad = len && ruled_add(c, rule, p, len);
        p += len + (p[len] == ';');
      }
    }
  }
  sqlite3_finalize(st);
  if (!bad && rc != SQLITE_DONE) {
    free(base);
    return store_sql_fail(db, err, errlen, "cannot read a calibration's settings");
  }
  if (!bad && base) {
    char *sql = sqlite3_mprintf("SELECT count(*) FROM run_config WHERE run_id = %lld AND key ="
                                " 'base' AND (%s)", (long long)id, base_where);
    long long selected = 0;
    if (!sql || store_sql_query_int(db, sql, &selected) != SQLITE_OK) {
      sqlite3_free(sql);
      free(base);
      return sql ? store_sql_fail(db, err, errlen, "cannot read a calibration's base")
                 : (error_set(err, errlen, "store: out of memory migrating calibration %" PRId64, id), -1);
    }
    sqlite3_free(sql);
    char *now = NULL;
    int r = selected ? rule(base, &now) : 0;
    bad = r < 0;
    if (r > 0) free(base), base = now;
  }
  c->base_now = base;
  if (bad)
    return error_set(err, errlen, "store: out of memory migrating calibration %" PRId64, id), -1;
  return 0;
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

/* Each calibration of db, its anchor and pool settings and its pairings
 * rewritten: by rule (base_where: which base it rewrites), or without one
 * by its players' names (the repair). */
static int calibrations_each(sqlite3 *db, store_spec_rule rule, const char *base_where, char *err,
                             size_t errlen) {
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
    int64_t id = sqlite3_column_int64(st, 0);
    ret = (rule ? calibration_ruled(db, id, rule, base_where, &c, err, errlen)
                : calibration_named(db, id, &c, err, errlen)) ||
          settings_now(db, &c, err, errlen) || (pairs && pairings_now(db, &c, err, errlen));
    calibration_free(&c);
  }
  if (!ret && rc != SQLITE_DONE) ret = store_sql_fail(db, err, errlen, "cannot read the calibrations");
  sqlite3_finalize(st);
  return ret ? -1 : 0;
}

int store_sql_migrate_calibrations(sqlite3 *db, char *err, size_t errlen) {
  return calibrations_each(db, NULL, NULL, err, errlen);
}

int store_sql_calibrations_rewrite(sqlite3 *db, store_spec_rule rule, const char *base_where,
                                   char *err, size_t errlen) {
  return calibrations_each(db, rule, base_where, err, errlen);
}
