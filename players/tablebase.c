/* tablebase.c: a player's handle on the endgame databases: the egdb= option, opening per variant, decided results. */
#include "players/tablebase.h"
#include "core/error.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "players/level.h"
#include "players/player.h"
#include "core/path.h"

void tablebase_default_dir(char *buf, size_t len) { path_cache(buf, len, "egdb"); }

/* "auto@PINS": entries "HASH:N:DIGEST" or "HASH:-" joined by '/'. */
static int parse_pins(tablebase *t, const char *text, char *err, size_t errlen) {
  const char *p = text;
  t->npins = 0;
  while (*p) {
    if (t->npins == TABLEBASE_MAX_PINS) {
      error_set(err, errlen, "egdb=auto@%s: more than %d variants pinned", text, TABLEBASE_MAX_PINS);
      return -1;
    }
    tablebase_pin *q = &t->pin[t->npins];
    unsigned h;
    int n, used = 0;
    unsigned long long d;
    if (sscanf(p, "%8x:-%n", &h, &used) == 1 && used == 10) {
      q->n = -1;
      q->digest = 0;
    } else if (sscanf(p, "%8x:%d:%16llx%n", &h, &n, &d, &used) == 3 && used >= 12 &&
               p[8] == ':' && n >= 0 && n <= EGDB_MAX_SEEDS) {
      q->n = n;
      q->digest = d;
    } else {
      error_set(err, errlen,
               "egdb=auto@%s: entry %d ('%.40s') is not HASH:N:DIGEST or HASH:- (a pin is written "
               "by a run, not by hand)",
               text, t->npins + 1, p);
      return -1;
    }
    q->key_hash = h;
    for (int k = 0; k < t->npins; k++)
      if (t->pin[k].key_hash == h) {
        error_set(err, errlen, "egdb=auto@%s: variant %08x is pinned twice", text, h);
        return -1;
      }
    t->npins++;
    p += used;
    if (*p == '/' && p[1]) p++;
    else if (*p) {
      error_set(err, errlen, "egdb=auto@%s: '%c' after entry %d", text, *p, t->npins);
      return -1;
    }
  }
  if (!t->npins) {
    error_set(err, errlen, "egdb=auto@: no variant pinned");
    return -1;
  }
  return 0;
}

/* Opens v's tables in dir to exactly n seeds with the pinned digest. */
static int open_pinned(const char *dir, const variant *v, const char *key, const tablebase_pin *q,
                       egdb **out, char *err, size_t errlen) {
  char e[ERROR_MAX];
  *out = NULL;
  if (egdb_open(dir, v, q->n, 0, out, e, sizeof e)) {
    error_set(err, errlen, "egdb: this run plays variant %s with its tables to %d seeds from %s: %s",
             key, q->n, dir, e);
    return -1;
  }
  const char *why = NULL;
  char buf[128];
  if (egdb_max_seeds(*out) < q->n) {
    snprintf(buf, sizeof buf, "only the tables to %d seeds are there now", egdb_max_seeds(*out));
    why = buf;
  } else if (egdb_digest(*out) != q->digest) {
    why = "they have changed since the run began (rebuilt or replaced)";
  }
  if (why) {
    error_set(err, errlen,
             "egdb: this run plays variant %s with its tables to %d seeds from %s, and %s: put "
             "those tables back, or start a new run",
             key, q->n, dir, why);
    egdb_close(*out);
    *out = NULL;
    return -1;
  }
  return 0;
}

/* Checks every pinned table set against the default folder: its variant
 * is found among the folder's subfolders (named by key) by its hash. */
static int check_pins(const tablebase *t, char *err, size_t errlen) {
  for (int k = 0; k < t->npins; k++) {
    const tablebase_pin *q = &t->pin[k];
    if (q->n < 0) continue;
    DIR *d = opendir(t->dir);
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d))) {
      if (e->d_name[0] == '.' || egdb_key_hash(e->d_name) != q->key_hash) continue;
      variant v;
      char verr[ERROR_MAX];
      if (variant_parse(e->d_name, &v, verr, sizeof verr)) continue;
      egdb *db;
      found = 1;
      if (open_pinned(t->dir, &v, e->d_name, q, &db, err, errlen)) {
        closedir(d);
        return -1;
      }
      egdb_close(db);
    }
    if (d) closedir(d);
    if (!found) {
      error_set(err, errlen,
               "egdb: this run plays a variant (key hash %08x) with its tables to %d seeds from %s, and "
               "they are not there: put them back, or start a new run",
               q->key_hash, q->n, t->dir);
      return -1;
    }
  }
  return 0;
}

int tablebase_init(tablebase *t, const char *option, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  t->max_n = -1;
  if (!option || !*option || !strcmp(option, "off")) {
    t->mode = TABLEBASE_OFF;
  } else if (!strcmp(option, "auto")) {
    t->mode = TABLEBASE_AUTO;
    tablebase_default_dir(t->dir, sizeof t->dir);
  } else if (!strncmp(option, "auto@", 5)) {
    t->mode = TABLEBASE_PINNED;
    tablebase_default_dir(t->dir, sizeof t->dir);
    if (parse_pins(t, option + 5, err, errlen) || check_pins(t, err, errlen)) return -1;
  } else {
    t->mode = TABLEBASE_DIR;
    snprintf(t->dir, sizeof t->dir, "%s", option);
  }
  return 0;
}

static void close_tables(tablebase *t) {
  egdb_close(t->db);
  t->db = NULL;
  t->max_n = -1;
  t->key[0] = '\0';
}

int tablebase_new_game(tablebase *t, const variant *v, char *err, size_t errlen) {
  char key[128], e[ERROR_MAX];
  if (t->mode == TABLEBASE_OFF) return 0;
  if (egdb_variant_key(v, key, sizeof key, e, sizeof e)) {
    /* A variant the tables cannot represent: play without them. */
    close_tables(t);
    return 0;
  }
  if (t->db && !strcmp(key, t->key)) return 0;
  close_tables(t);
  if (t->mode == TABLEBASE_PINNED) {
    const tablebase_pin *q = NULL;
    for (int k = 0; k < t->npins; k++)
      if (t->pin[k].key_hash == egdb_key_hash(key)) q = &t->pin[k];
    if (!q || q->n < 0) return 0; /* the run found no tables for it */
    if (open_pinned(t->dir, v, key, q, &t->db, err, errlen)) return -1;
  } else {
    int rc = egdb_open(t->dir, v, -1, 0, &t->db, e, sizeof e);
    if (rc) {
      t->db = NULL;
      /* No tables for the variant: play without them (egdb=auto). A table
       * that is there but truncated, foreign or corrupt is an error either
       * way: found before it gives a value, whatever the player. */
      if (t->mode == TABLEBASE_DIR || rc == EGDB_ECORRUPT) {
        error_set(err, errlen, "egdb=%s: %s", t->mode == TABLEBASE_DIR ? t->dir : "auto", e);
        return -1;
      }
      return 0;
    }
  }
  snprintf(t->key, sizeof t->key, "%s", key);
  t->max_n = egdb_max_seeds(t->db);
  return 0;
}

int tablebase_bounds(const tablebase *t, const board *b, const variant *v, int *lo2, int *hi2) {
  egdb_value x;
  if (!t->db || !tablebase_covers(t, b, v) || egdb_probe(t->db, b, &x)) return 0;
  const int me = b->store[b->side], you = b->store[1 - b->side];
  /* Final difference in half seeds: the stores plus the board seeds each ends with. */
  const int stores2 = 2 * (me - you);
  if (x.split2 >= 0 && v->cycle == VARIANT_CYCLE_SPLIT) {
    *lo2 = *hi2 = stores2 + 2 * x.split2 - 2 * x.n;
  } else {
    *lo2 = stores2 + 4 * x.lower - 2 * x.n;
    *hi2 = stores2 + 4 * x.upper - 2 * x.n;
  }
  return 1;
}

int tablebase_result(const tablebase *t, const board *b, const variant *v, int *result) {
  int lo, hi;
  if (!tablebase_bounds(t, b, v, &lo, &hi)) return 0;
  if (lo > 0) *result = 1;
  else if (hi < 0) *result = -1;
  else if (lo == 0 && hi == 0) *result = 0;
  else return 0;
  return 1;
}

void tablebase_free(tablebase *t) {
  egdb_close(t->db);
  t->db = NULL;
  t->max_n = -1;
}

int tablebase_pin_tables(const variant *vs, int nv, char *buf, size_t len, char *err, size_t errlen) {
  char dir[4096];
  tablebase_default_dir(dir, sizeof dir);
  size_t at = (size_t)snprintf(buf, len, "auto@");
  uint32_t seen[TABLEBASE_MAX_PINS];
  int n = 0;
  for (int i = 0; i < nv; i++) {
    char key[128], e[ERROR_MAX];
    if (egdb_variant_key(&vs[i], key, sizeof key, e, sizeof e)) continue; /* never has tables */
    uint32_t h = egdb_key_hash(key);
    int dup = 0;
    for (int k = 0; k < n; k++) dup |= seen[k] == h;
    if (dup) continue;
    if (n == TABLEBASE_MAX_PINS) return error_set(err, errlen, "egdb: too many variants"), -1;
    seen[n++] = h;
    egdb *db = NULL;
    int rc = egdb_open(dir, &vs[i], -1, 0, &db, e, sizeof e);
    if (rc == EGDB_ECORRUPT) {
      error_set(err, errlen, "egdb=auto: %s", e);
      return -1;
    }
    if (rc) at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%08x:-", n > 1 ? "/" : "", h);
    else
      at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%08x:%d:%016llx",
                             n > 1 ? "/" : "", h, egdb_max_seeds(db),
                             (unsigned long long)egdb_digest(db));
    egdb_close(db);
    if (at >= len) return error_set(err, errlen, "egdb: the pin is too long"), -1;
  }
  if (!n) buf[0] = '\0'; /* no variant can have tables: nothing to pin */
  return 0;
}

int tablebase_pin_spec(const char *spec, const variant *vs, int nv, char *out, size_t outlen,
                       char *err, size_t errlen) {
  size_t rlen = strlen(spec) + LEVEL_SPEC_MAX + 512;
  char *resolved = malloc(rlen), *item = malloc(rlen);
  char pins[TABLEBASE_MAX_PINS * 32 + 8];
  player_config cfg;
  int rc = -1, parsed = 0;
  if (!resolved || !item) {
    error_set(err, errlen, "out of memory");
    goto done;
  }
  if (level_resolve(spec, resolved, rlen, err, errlen)) goto done;
  if (player_parse_spec(resolved, &cfg, err, errlen)) goto done;
  parsed = 1;
  const char *val = player_type_takes(cfg.type, "egdb") ? player_config_text(&cfg, "egdb") : NULL;
  if (!val || strcmp(val, "auto")) {
    rc = snprintf(out, outlen, "%s", resolved) < (int)outlen ? 0 : -1;
    if (rc) error_set(err, errlen, "player spec too long");
    goto done;
  }
  if (tablebase_pin_tables(vs, nv, pins, sizeof pins, err, errlen)) goto done;
  /* The spec again without its egdb= items, then egdb=PINS. */
  const char *colon = strchr(resolved, ':');
  size_t at = (size_t)snprintf(out, outlen, "%.*s",
                               (int)(colon ? colon - resolved : (long)strlen(resolved)), resolved);
  int items = 0;
  for (const char *p = colon ? colon + 1 : ""; *p;) {
    const char *from = p;
    if (player_spec_item(resolved, &p, item, err, errlen)) goto done;
    if (strncmp(item, "egdb=", 5))
      at += (size_t)snprintf(out + at, at < outlen ? outlen - at : 0, "%s%.*s", items++ ? "," : ":",
                             (int)(p - from), from);
    if (*p == ',') p++;
  }
  if (pins[0])
    at += (size_t)snprintf(out + at, at < outlen ? outlen - at : 0, "%segdb=%s", items ? "," : ":",
                           pins);
  if (at >= outlen) {
    error_set(err, errlen, "player spec too long with its tables pinned");
    goto done;
  }
  rc = 0;
done:
  if (parsed) player_config_free(&cfg);
  free(resolved);
  free(item);
  return rc;
}

/* The types that read no tables by default before egdb=auto (perfect always
 * did): the registry says whether they still take egdb=. */
static const char *const off_by_default[] = {"minimax", "mcts", NULL};

int tablebase_spec_off_by_default(const char *spec, char **out) {
  *out = NULL;
  const char *colon = strchr(spec, ':');
  size_t tlen = colon ? (size_t)(colon - spec) : strlen(spec);
  int was_off = 0;
  for (int i = 0; off_by_default[i]; i++)
    if (strlen(off_by_default[i]) == tlen && !strncmp(off_by_default[i], spec, tlen)) was_off = 1;
  if (!was_off || strstr(spec, "egdb=")) return 0;
  char type[16];
  snprintf(type, sizeof type, "%.*s", (int)tlen, spec);
  if (!player_type_takes(player_find_type(type), "egdb")) return 0;
  size_t len = strlen(spec) + sizeof ":egdb=off";
  if (!(*out = malloc(len))) return -1;
  snprintf(*out, len, "%s%segdb=off", spec, colon ? "," : ":");
  return 1;
}
