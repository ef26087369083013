/* run.c: a run in memory (store_run: players, variants, positions, settings) and the names the database keeps for its enums. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one table of names per enum: the database keeps these. */
static const char *const status_names[STORE_NSTATUS] = {"running", "finished", "interrupted",
                                                        "failed"};
static const char *const kind_names[STORE_NKINDS] = {"round-robin", "gauntlet", "spsa", "texel",
                                                        "imported", "calibration", "net"};
static const char *const type_names[] = {"text", "integer", "real"};

const char *store_status_name(store_status st) {
  return (unsigned)st < STORE_NSTATUS ? status_names[st] : "?";
}

const char *store_kind_name(store_kind k) {
  return (unsigned)k < STORE_NKINDS ? kind_names[k] : "?";
}

static int name_index(const char *const *names, int n, const char *name) {
  for (int i = 0; name && i < n; i++)
    if (!strcmp(names[i], name)) return i;
  return -1;
}

int store_status_parse(const char *name, store_status *out) {
  int i = name_index(status_names, STORE_NSTATUS, name);
  if (i < 0) return -1;
  *out = (store_status)i;
  return 0;
}

int store_kind_parse(const char *name, store_kind *out) {
  int i = name_index(kind_names, STORE_NKINDS, name);
  if (i < 0) return -1;
  *out = (store_kind)i;
  return 0;
}

/* ------------------------------------------------------- the run struct */

void store_run_init(store_run *r) { memset(r, 0, sizeof *r); }

void store_strings_free(char **v, int n) {
  for (int i = 0; v && i < n; i++) free(v[i]);
  free(v);
}

void store_run_free(store_run *r) {
  if (!r) return;
  free(r->name);
  free(r->format);
  free(r->openings);
  free(r->command);
  store_strings_free(r->player_name, r->nplayers);
  store_strings_free(r->player_spec, r->nplayers);
  store_strings_free(r->variant, r->nvariants);
  for (int i = 0; i < r->nconfig; i++) {
    free(r->config[i].key);
    free(r->config[i].text);
  }
  free(r->config);
  store_strings_free(r->position, r->npositions);
  for (int i = 0; i < r->nfiles; i++) {
    free(r->files[i].path);
    free(r->files[i].data);
  }
  free(r->files);
  memset(r, 0, sizeof *r);
}

int store_run_set(char **field, const char *text) {
  char *c = strdup(text ? text : "");
  if (!c) return -1;
  free(*field);
  *field = c;
  return 0;
}

int store_run_add_player(store_run *r, const char *name, const char *spec) {
  if (store_sql_strings_add(&r->player_name, r->nplayers, name)) return -1;
  if (store_sql_strings_add(&r->player_spec, r->nplayers, spec)) {
    free(r->player_name[r->nplayers]);
    return -1;
  }
  r->nplayers++;
  return 0;
}

int store_run_add_variant(store_run *r, const char *text) {
  if (store_sql_strings_add(&r->variant, r->nvariants, text)) return -1;
  r->nvariants++;
  return 0;
}

int store_run_add_position(store_run *r, const char *position) {
  if (store_sql_strings_add(&r->position, r->npositions, position)) return -1;
  r->npositions++;
  return 0;
}

static store_config *config_find(const store_run *r, const char *key) {
  for (int i = 0; i < r->nconfig; i++)
    if (!strcmp(r->config[i].key, key)) return &r->config[i];
  return NULL;
}

store_config *store_sql_config_slot(store_run *r, const char *key) {
  store_config *c = config_find(r, key);
  if (c) {
    free(c->text);
    c->text = NULL;
    return c;
  }
  store_config *nc = realloc(r->config, (size_t)(r->nconfig + 1) * sizeof *nc);
  if (!nc) return NULL;
  r->config = nc;
  c = &nc[r->nconfig];
  memset(c, 0, sizeof *c);
  if (!(c->key = strdup(key))) return NULL;
  r->nconfig++;
  return c;
}

int store_config_set_text(store_run *r, const char *key, const char *value) {
  store_config *c = store_sql_config_slot(r, key);
  if (!c || !(c->text = strdup(value ? value : ""))) return -1;
  c->type = STORE_TEXT;
  return 0;
}

int store_config_set_int(store_run *r, const char *key, long long value) {
  store_config *c = store_sql_config_slot(r, key);
  if (!c) return -1;
  c->type = STORE_INT;
  c->i = value;
  return 0;
}

int store_config_set_real(store_run *r, const char *key, double value) {
  store_config *c = store_sql_config_slot(r, key);
  if (!c) return -1;
  c->type = STORE_REAL;
  c->r = value;
  return 0;
}

/* The key's entry if it has the type: 0; 1 when missing; -1 with err. */
static int config_typed(const store_run *r, const char *key, store_type type,
                        const store_config **out, char *err, size_t errlen) {
  const store_config *c = config_find(r, key);
  if (!c) return 1;
  if (c->type != type) {
    error_set(err, errlen, "store: run %" PRId64 ": setting '%s' is %s, not %s", r->id, key,
         type_names[c->type], type_names[type]);
    return -1;
  }
  *out = c;
  return 0;
}

int store_config_get_text(const store_run *r, const char *key, const char **out, char *err,
                          size_t errlen) {
  const store_config *c;
  int rc = config_typed(r, key, STORE_TEXT, &c, err, errlen);
  if (!rc) *out = c->text;
  return rc;
}

int store_config_get_int(const store_run *r, const char *key, long long *out, char *err,
                         size_t errlen) {
  const store_config *c;
  int rc = config_typed(r, key, STORE_INT, &c, err, errlen);
  if (!rc) *out = c->i;
  return rc;
}

int store_config_get_real(const store_run *r, const char *key, double *out, char *err,
                          size_t errlen) {
  const store_config *c;
  int rc = config_typed(r, key, STORE_REAL, &c, err, errlen);
  if (!rc) *out = c->r;
  return rc;
}

int store_run_resumable(const store_run *r, char *err, size_t errlen) {
  const char *why = NULL;
  char e[8];
  if (store_config_get_text(r, "not_resumable", &why, e, sizeof e) == 0) {
    error_set(err, errlen, "store: run %" PRId64 " cannot be resumed: %s", r->id, why);
    return -1;
  }
  return 0;
}

/* A setting's value as stored (TEXT): the text, the integer in decimal,
 * the real with 17 digits (round trip). buf holds at least 32 bytes. */
static const char *config_value_text(const store_config *c, char *buf, size_t len) {
  if (c->type == STORE_TEXT) return c->text ? c->text : "";
  if (c->type == STORE_INT) snprintf(buf, len, "%lld", c->i);
  else snprintf(buf, len, "%.17g", c->r);
  return buf;
}

int store_sql_config_parse(store_config *c, const char *type, const char *value) {
  int t = name_index(type_names, 3, type);
  if (t < 0 || !value) return -1;
  c->type = (store_type)t;
  char *end;
  errno = 0;
  if (t == STORE_TEXT) return (c->text = strdup(value)) ? 0 : -1;
  if (t == STORE_INT) c->i = strtoll(value, &end, 10);
  else c->r = strtod(value, &end);
  return errno || end == value || *end ? -1 : 0;
}

int store_sql_bind_config(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  char buf[40];
  const store_config *c = &r->config[i];
  return sqlite3_bind_int64(st, 1, id) || store_sql_bind_string(st, 2, c->key) ||
         store_sql_bind_string(st, 3, type_names[c->type]) ||
         sqlite3_bind_text(st, 4, config_value_text(c, buf, sizeof buf), -1, SQLITE_TRANSIENT);
}

