/* store.c: the SQLite store of runs, players, variants, series and games (docs/SCHEMA.md).
 *
 * One store handle is one SQLite connection and is used by one thread at a
 * time (the arena's writer thread). Every sqlite3 call is checked; every
 * error message starts with "store: " and carries sqlite3_errmsg. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"
#include "core/notation.h"
#include "core/variant.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <sqlite3.h>

/* How long a statement waits for another connection's lock (a second
 * process on the same file) before it gives up with "database is locked". */
#define STORE_BUSY_MS 10000

/* WAL pages (4 KiB each) after which a commit checkpoints the WAL into the
 * database. SQLite's default, 1000, makes a writer of small batches stop
 * for two fsyncs every few thousand games; 10000 (a WAL of up to ~40 MiB)
 * checkpoints a tenth as often and copies each hot page once. */
#define STORE_WAL_PAGES 10000

struct store {
  sqlite3 *db;
  char *path;
  /* Prepared once, used for every batch: the writer's hot path. */
  sqlite3_stmt *begin, *commit, *rollback, *game_insert, *series_insert, *games_count;
};

/* ---------------------------------------------------------------- schema */

/* Version 2 adds the ratings of fits (`oware rate`, tournaments), one row
 * per player per fit; the rows of one fit share `batch`. run_id is NULL when
 * several runs were pooled. The index serves ratings by run in order. */
#define RATINGS_SQL                                                                                \
  "CREATE TABLE ratings (\n"                                                                      \
  "  id INTEGER PRIMARY KEY,\n"                                                                   \
  "  batch INTEGER NOT NULL CHECK (batch >= 1),\n"                                                \
  "  run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,\n"                                     \
  "  scope TEXT NOT NULL,\n"                                                                      \
  "  player TEXT NOT NULL,\n"                                                                     \
  "  elo REAL NOT NULL,\n"                                                                        \
  "  lo REAL NOT NULL,\n"                                                                         \
  "  hi REAL NOT NULL,\n"                                                                         \
  "  games INTEGER NOT NULL CHECK (games >= 0),\n"                                                \
  "  score REAL NOT NULL CHECK (score BETWEEN 0 AND 1),\n"                                        \
  "  draws REAL NOT NULL CHECK (draws BETWEEN 0 AND 1),\n"                                        \
  "  games_total INTEGER NOT NULL CHECK (games_total >= 0),\n"                                    \
  "  bound INTEGER NOT NULL CHECK (bound BETWEEN 0 AND 1),\n"                                     \
  "  created TEXT NOT NULL,\n"                                                                    \
  "  CHECK (lo <= hi)\n"                                                                          \
  ");\n"                                                                                          \
  "CREATE INDEX ratings_by_run ON ratings (run_id, batch);\n"

/* Version 3 adds the iterations of tuning runs (`oware tune`): one row per
 * iteration, the validation match as iteration -1. */
#define TUNING_SQL                                                                                 \
  "CREATE TABLE tuning (\n"                                                                       \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  iteration INTEGER NOT NULL CHECK (iteration >= -1),\n"                                       \
  "  kind TEXT NOT NULL,\n"                                                                       \
  "  weights TEXT NOT NULL,\n"                                                                    \
  "  step TEXT NOT NULL,\n"                                                                       \
  "  wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,\n"                   \
  "  value REAL NOT NULL, lo REAL NOT NULL, hi REAL NOT NULL,\n"                                  \
  "  games INTEGER NOT NULL CHECK (games >= 0),\n"                                                \
  "  created TEXT NOT NULL,\n"                                                                    \
  "  PRIMARY KEY (run_id, iteration)\n"                                                           \
  ");\n"

/* Version 4 adds the metrics of variant studies (`oware variants`). */
#define METRICS_SQL                                                                                \
  "CREATE TABLE variant_metrics (\n"                                                              \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  variant_idx INTEGER NOT NULL,\n"                                                             \
  "  metric TEXT NOT NULL,\n"                                                                     \
  "  value REAL NOT NULL,\n"                                                                      \
  "  lo REAL, hi REAL,\n"                                                                         \
  "  n INTEGER NOT NULL CHECK (n >= 0),\n"                                                        \
  "  created TEXT NOT NULL,\n"                                                                    \
  "  PRIMARY KEY (run_id, variant_idx, metric),\n"                                                \
  "  FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx)\n"                        \
  ");\n"

/* Version 5: a run's settings as typed key/value rows (replacing the
 * command line parsed back), the positions of a file:PATH openings run,
 * the files a run depends on (weights files, kept whole), and the run lock
 * (one process plays a run at a time). */
#define V5_SQL                                                                                     \
  "CREATE TABLE run_config (\n"                                                                   \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  key TEXT NOT NULL,\n"                                                                        \
  "  type TEXT NOT NULL,\n"                                                                       \
  "  value TEXT NOT NULL,\n"                                                                      \
  "  PRIMARY KEY (run_id, key)\n"                                                                 \
  ") WITHOUT ROWID;\n"                                                                            \
  "CREATE TABLE run_openings (\n"                                                                 \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  idx INTEGER NOT NULL CHECK (idx >= 0),\n"                                                    \
  "  position TEXT NOT NULL,\n"                                                                   \
  "  PRIMARY KEY (run_id, idx)\n"                                                                 \
  ") WITHOUT ROWID;\n"                                                                            \
  "CREATE TABLE run_files (\n"                                                                    \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  path TEXT NOT NULL,\n"                                                                       \
  "  hash TEXT NOT NULL,\n"                                                                       \
  "  content BLOB NOT NULL,\n"                                                                    \
  "  PRIMARY KEY (run_id, path)\n"                                                                \
  ");\n"                                                                                          \
  "CREATE TABLE run_locks (\n"                                                                    \
  "  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,\n"                         \
  "  pid INTEGER NOT NULL,\n"                                                                     \
  "  host TEXT NOT NULL,\n"                                                                       \
  "  since TEXT NOT NULL\n"                                                                       \
  ");\n"

/* The newest schema (version 6): the tables of version 1, RATINGS_SQL,
 * TUNING_SQL, METRICS_SQL, V5_SQL and ANALYSIS_SQL (store_sql.h).
 * Each later version adds a step to migrate() and bumps
 * STORE_SCHEMA_VERSION; this text always creates the newest schema.
 * Constraints are chosen for the insert path: no `IN (…)` (an ephemeral
 * table per row), no pattern check on games.seed (this file writes it), and
 * no index on games beyond the UNIQUE one, which serves games by run in
 * (series, game) order and the foreign keys' child lookups. */
static const char schema_sql[] =
    "CREATE TABLE runs (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL,\n"
    "  kind TEXT NOT NULL,\n"
    "  format TEXT NOT NULL,\n"
    "  openings TEXT NOT NULL,\n"
    "  rounds INTEGER NOT NULL CHECK (rounds >= 0),\n"
    "  threads INTEGER NOT NULL CHECK (threads >= 0),\n"
    "  seed TEXT NOT NULL CHECK (seed <> '' AND seed NOT GLOB '*[^0-9]*'),\n"
    "  command TEXT NOT NULL,\n"
    "  status TEXT NOT NULL,\n"
    "  started TEXT NOT NULL,\n"
    "  finished TEXT\n"
    ");\n"
    "CREATE TABLE players (\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  idx INTEGER NOT NULL CHECK (idx >= 0),\n"
    "  name TEXT NOT NULL,\n"
    "  spec TEXT NOT NULL,\n"
    "  PRIMARY KEY (run_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE variants (\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  idx INTEGER NOT NULL CHECK (idx >= 0),\n"
    "  name TEXT NOT NULL,\n"
    "  PRIMARY KEY (run_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE series (\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  series_no INTEGER NOT NULL CHECK (series_no >= 0),\n"
    "  variant_idx INTEGER NOT NULL,\n"
    "  round INTEGER NOT NULL,\n"
    "  a_idx INTEGER NOT NULL,\n"
    "  b_idx INTEGER NOT NULL,\n"
    "  games INTEGER NOT NULL CHECK (games >= 0),\n"
    "  wins_a INTEGER NOT NULL CHECK (wins_a >= 0),\n"
    "  wins_b INTEGER NOT NULL CHECK (wins_b >= 0),\n"
    "  draws INTEGER NOT NULL CHECK (draws >= 0),\n"
    "  winner INTEGER NOT NULL CHECK (winner BETWEEN -1 AND 1),\n"
    "  PRIMARY KEY (run_id, series_no),\n"
    "  FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx),\n"
    "  FOREIGN KEY (run_id, a_idx) REFERENCES players(run_id, idx),\n"
    "  FOREIGN KEY (run_id, b_idx) REFERENCES players(run_id, idx),\n"
    "  CHECK (wins_a + wins_b + draws = games)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE games (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  series_no INTEGER NOT NULL CHECK (series_no >= 0),\n"
    "  game_no INTEGER NOT NULL CHECK (game_no >= 0),\n"
    "  variant_idx INTEGER NOT NULL,\n"
    "  round INTEGER NOT NULL,\n"
    "  a_idx INTEGER NOT NULL,\n"
    "  b_idx INTEGER NOT NULL,\n"
    "  south_idx INTEGER NOT NULL,\n"
    "  north_idx INTEGER NOT NULL,\n"
    "  opening TEXT NOT NULL,\n"
    "  moves TEXT NOT NULL,\n"
    "  winner INTEGER NOT NULL CHECK (winner BETWEEN -1 AND 1),\n"
    "  score_south REAL NOT NULL,\n"
    "  score_north REAL NOT NULL,\n"
    "  plies INTEGER NOT NULL CHECK (plies >= 0),\n"
    "  end_reason TEXT NOT NULL,\n"
    "  detail TEXT NOT NULL DEFAULT '',\n"
    "  seed TEXT NOT NULL,\n"
    "  seconds REAL NOT NULL,\n"
    "  UNIQUE (run_id, series_no, game_no),\n"
    "  FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx),\n"
    "  FOREIGN KEY (run_id, south_idx) REFERENCES players(run_id, idx),\n"
    "  FOREIGN KEY (run_id, north_idx) REFERENCES players(run_id, idx),\n"
    "  CHECK ((south_idx = a_idx AND north_idx = b_idx) OR\n"
    "         (south_idx = b_idx AND north_idx = a_idx))\n"
    ");\n" RATINGS_SQL TUNING_SQL METRICS_SQL V5_SQL ANALYSIS_SQL;

/* ---------------------------------------------------------------- errors */

/* "store: WHAT: <sqlite3_errmsg>"; returns -1. */
static int db_fail(sqlite3 *db, char *err, size_t errlen, const char *what) {
  error_set(err, errlen, "store: %s: %s", what, sqlite3_errmsg(db));
  return -1;
}

/* ------------------------------------------------------------- utilities */

static int exec(sqlite3 *db, const char *sql, char *err, size_t errlen) {
  char *msg = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    error_set(err, errlen, "store: %.60s: %s", sql, msg ? msg : sqlite3_errmsg(db));
    sqlite3_free(msg);
    return -1;
  }
  return 0;
}

static int prepare(sqlite3 *db, const char *sql, int persistent, sqlite3_stmt **st, char *err,
                   size_t errlen) {
  if (sqlite3_prepare_v3(db, sql, -1, persistent ? SQLITE_PREPARE_PERSISTENT : 0, st, NULL) !=
      SQLITE_OK) {
    error_set(err, errlen, "store: cannot prepare \"%.60s\": %s", sql, sqlite3_errmsg(db));
    *st = NULL;
    return -1;
  }
  return 0;
}

/* Runs a one-row integer query ("PRAGMA user_version"). Returns the
 * sqlite3 result code, SQLITE_OK with *out set on success. */
static int query_int(sqlite3 *db, const char *sql, long long *out) {
  sqlite3_stmt *st;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (rc != SQLITE_OK) return rc;
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *out = sqlite3_column_int64(st, 0);
    rc = SQLITE_OK;
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_ERROR;
  }
  sqlite3_finalize(st);
  return rc;
}

/* Runs a cached statement that returns no row (BEGIN, COMMIT, ROLLBACK). */
static int step_done(sqlite3 *db, sqlite3_stmt *st, char *err, size_t errlen, const char *what) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc != SQLITE_DONE) return db_fail(db, err, errlen, what);
  return 0;
}

/* Ends a failed write transaction, if SQLite has not already done so. */
static void rollback(store *s) {
  if (!sqlite3_get_autocommit(s->db)) {
    sqlite3_step(s->rollback);
    sqlite3_reset(s->rollback);
  }
}

static int bind_text(sqlite3_stmt *st, int i, const char *text, size_t cap) {
  size_t n = text ? strnlen(text, cap) : 0;
  return sqlite3_bind_text(st, i, text ? text : "", (int)n, SQLITE_STATIC);
}

/* Copies a column into a fixed buffer: NULL is "", too long is truncated. */
static void column_copy(sqlite3_stmt *st, int i, char *dst, size_t cap) {
  const unsigned char *t = sqlite3_column_text(st, i);
  snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

static int parse_u64(const char *text, uint64_t *out) {
  if (!text || !*text) return -1;
  for (const char *p = text; *p; p++)
    if (*p < '0' || *p > '9') return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || *end) return -1;
  *out = (uint64_t)v;
  return 0;
}

/* The decimal digits of v (snprintf costs more than the rest of binding a
 * game); buf holds at least 21 bytes. Returns the length. */
static int u64_text(uint64_t v, char *buf) {
  char tmp[20];
  int n = 0, len = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) buf[len++] = tmp[--n];
  buf[len] = '\0';
  return len;
}

static void now_iso8601(char *buf, size_t len) {
  time_t t = time(NULL);
  struct tm tm;
  if (t == (time_t)-1 || !gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
    snprintf(buf, len, "1970-01-01T00:00:00Z");
}


/* ----------------------------------------------------------------- names */

/* The one table of names per enum: the database keeps these. */
static const char *const status_names[STORE_NSTATUS] = {"running", "finished", "interrupted",
                                                        "failed"};
static const char *const kind_names[STORE_NKINDS] = {"round-robin", "gauntlet", "spsa", "texel",
                                                        "imported", "calibration"};
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

/* Appends a copy of text to the array *v of *n strings. */
static int strings_add(char ***v, int n, const char *text) {
  char *c = strdup(text ? text : "");
  char **nv = c ? realloc(*v, (size_t)(n + 1) * sizeof *nv) : NULL;
  if (!nv) {
    free(c);
    return -1;
  }
  nv[n] = c;
  *v = nv;
  return 0;
}

int store_run_add_player(store_run *r, const char *name, const char *spec) {
  if (strings_add(&r->player_name, r->nplayers, name)) return -1;
  if (strings_add(&r->player_spec, r->nplayers, spec)) {
    free(r->player_name[r->nplayers]);
    return -1;
  }
  r->nplayers++;
  return 0;
}

int store_run_add_variant(store_run *r, const char *text) {
  if (strings_add(&r->variant, r->nvariants, text)) return -1;
  r->nvariants++;
  return 0;
}

int store_run_add_position(store_run *r, const char *position) {
  if (strings_add(&r->position, r->npositions, position)) return -1;
  r->npositions++;
  return 0;
}

/* Reads a whole file: *data (malloc'ed) and *len; -1 with errno set. */
static int read_whole(const char *path, unsigned char **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 4096, n = 0;
  unsigned char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    unsigned char *nb = realloc(buf, cap *= 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      errno = ENOMEM;
    }
    buf = nb;
  }
  int bad = !buf || ferror(f);
  int e = errno;
  fclose(f);
  if (bad) {
    free(buf);
    errno = e ? e : EIO;
    return -1;
  }
  *data = buf;
  *len = n;
  return 0;
}

/* FNV-1a, 64 bits, as 16 hex digits: a label for people and a quick check;
 * the content itself is what is compared. */
static void content_hash(const unsigned char *data, size_t len, char out[17]) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < len; i++) h = (h ^ data[i]) * 0x100000001b3ull;
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}

int store_run_add_file(store_run *r, const char *path, char *err, size_t errlen) {
  for (int i = 0; i < r->nfiles; i++)
    if (!strcmp(r->files[i].path, path)) return 0;
  store_file f = {0};
  if (read_whole(path, &f.data, &f.len)) {
    error_set(err, errlen, "store: cannot read %s: %s", path, strerror(errno));
    return -1;
  }
  store_file *nf = realloc(r->files, (size_t)(r->nfiles + 1) * sizeof *nf);
  if (!nf || !(f.path = strdup(path))) {
    if (nf) r->files = nf;
    free(f.data);
    error_set(err, errlen, "store: out of memory reading %s", path);
    return -1;
  }
  r->files = nf;
  r->files[r->nfiles++] = f;
  return 0;
}

static store_config *config_find(const store_run *r, const char *key) {
  for (int i = 0; i < r->nconfig; i++)
    if (!strcmp(r->config[i].key, key)) return &r->config[i];
  return NULL;
}

/* The entry for key, created empty when missing; NULL when out of memory. */
static store_config *config_slot(store_run *r, const char *key) {
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
  store_config *c = config_slot(r, key);
  if (!c || !(c->text = strdup(value ? value : ""))) return -1;
  c->type = STORE_TEXT;
  return 0;
}

int store_config_set_int(store_run *r, const char *key, long long value) {
  store_config *c = config_slot(r, key);
  if (!c) return -1;
  c->type = STORE_INT;
  c->i = value;
  return 0;
}

int store_config_set_real(store_run *r, const char *key, double value) {
  store_config *c = config_slot(r, key);
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

/* Parses a stored setting into c (key already set). -1 on a bad row. */
static int config_value_parse(store_config *c, const char *type, const char *value) {
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

/* ------------------------------------------------------------ open/close */

/* What a file holds, read without writing anything. */
typedef struct identity {
  long long app_id, version, objects;
} identity;

static int identify(sqlite3 *db, const char *path, identity *id, char *err, size_t errlen) {
  int rc = query_int(db, "PRAGMA application_id", &id->app_id);
  if (rc == SQLITE_OK) rc = query_int(db, "PRAGMA user_version", &id->version);
  if (rc == SQLITE_OK) rc = query_int(db, "SELECT count(*) FROM sqlite_master", &id->objects);
  if (rc == SQLITE_OK) return 0;
  if ((rc & 0xff) == SQLITE_NOTADB) {
    error_set(err, errlen, "store: not an SQLite database: %s", path);
  } else {
    int sys = sqlite3_system_errno(db);
    if (sys)
      error_set(err, errlen, "store: cannot read %s: %s (%s)", path, sqlite3_errmsg(db), strerror(sys));
    else
      error_set(err, errlen, "store: cannot read %s: %s", path, sqlite3_errmsg(db));
  }
  return -1;
}

static int is_empty(const identity *id) {
  return id->app_id == 0 && id->version == 0 && id->objects == 0;
}

/* Creates the schema in an empty database. Returns 0 when done, 1 when
 * another connection initialised the file first (look again), -1. */
static int initialise(sqlite3 *db, const char *path, char *err, size_t errlen) {
  char sql[128];
  identity id;
  if (exec(db, "BEGIN IMMEDIATE", err, errlen)) return -1;
  if (identify(db, path, &id, err, errlen)) goto fail;
  if (!is_empty(&id)) {
    exec(db, "ROLLBACK", NULL, 0);
    return 1;
  }
  if (exec(db, schema_sql, err, errlen)) goto fail;
  snprintf(sql, sizeof sql, "PRAGMA application_id = %d; PRAGMA user_version = %d",
           STORE_APPLICATION_ID, STORE_SCHEMA_VERSION);
  if (exec(db, sql, err, errlen)) goto fail;
  if (exec(db, "COMMIT", err, errlen)) goto fail;
  return 0;
fail:
  if (!sqlite3_get_autocommit(db)) exec(db, "ROLLBACK", NULL, 0);
  return -1;
}

/* ------------------------------------------------- migration 4 → 5 */

static char *column_dup(sqlite3_stmt *st, int i);
static int bind_config(sqlite3_stmt *st, int64_t id, int i, const store_run *r);

/* Schema 4 kept a run's settings only in its command line, shell-quoted by
 * the cli ('…' words, '\'' for a quote inside). This splits one into words
 * for the one legacy purpose of migrate_v5: *out (malloc'ed words) gets *n.
 * -1 when out of memory. */
static int legacy_words(const char *command, char ***out, int *n) {
  char **v = NULL;
  int k = 0;
  const char *p = command ? command : "";
  char *w = malloc(strlen(p) + 1);
  if (!w) return -1;
  while (*p) {
    while (*p == ' ') p++;
    if (!*p) break;
    char *o = w;
    while (*p && *p != ' ') {
      if (*p == '\'') {
        p++;
        while (*p && *p != '\'') *o++ = *p++;
        if (*p) p++;
      } else if (*p == '\\' && p[1]) {
        *o++ = p[1];
        p += 2;
      } else {
        *o++ = *p++;
      }
    }
    *o = 0;
    if (strings_add(&v, k, w)) {
      free(w);
      store_strings_free(v, k);
      return -1;
    }
    k++;
  }
  free(w);
  *out = v;
  *n = k;
  return 0;
}

/* The options of `oware tune` kept as settings, by type; flags are
 * settings of value 1. (docs/SCHEMA.md, run_config.) */
static const char *const tune_text_keys[] = {"player", "params", "start", "variant", "out",
                                             "from-db", "name", "validate-sprt", NULL};
static const char *const tune_int_keys[] = {"iterations", "pairs", "seed", "validate", "games",
                                            "positions", "max-iter", "opening-plies", NULL};
static const char *const tune_real_keys[] = {"c-end", "r-end", NULL};
static const char *const tune_flag_keys[] = {"quiet", "report", NULL};

static int in_list(const char *const *list, const char *key) {
  for (int i = 0; list[i]; i++)
    if (!strcmp(list[i], key)) return 1;
  return 0;
}

/* Derives the settings of one run of schema 4 from its columns and command
 * line into r (id, kind, openings, command set). */
static int legacy_config(store_run *r) {
  char **w = NULL;
  int n = 0, rc = 0;
  if (strlen(r->command ? r->command : "") >= 2047)
    return store_config_set_text(r, "not_resumable",
                                 "schema 4 cut its command line at 2048 characters, so its "
                                 "settings are not known");
  if (r->kind <= STORE_GAUNTLET && r->openings && !strncmp(r->openings, "file:", 5) &&
      store_config_set_text(r, "not_resumable",
                            "schema 4 stored only the path of its openings file, not the "
                            "positions"))
    return -1;
  if (legacy_words(r->command, &w, &n)) return -1;
  for (int i = 2; i < n && !rc; i++) {
    if (strncmp(w[i], "--", 2)) continue;
    char key[64];
    const char *val = NULL, *eq = strchr(w[i], '=');
    size_t kl = eq ? (size_t)(eq - w[i] - 2) : strlen(w[i] + 2);
    if (kl >= sizeof key) continue;
    memcpy(key, w[i] + 2, kl);
    key[kl] = 0;
    if (eq) val = eq + 1;
    if (r->kind <= STORE_GAUNTLET) {
      /* A tournament: everything but its SPRT is in the columns. */
      if (strcmp(key, "sprt")) continue;
      if (!val && i + 1 < n) val = w[++i];
      if (val) rc = store_config_set_text(r, "sprt", val);
      continue;
    }
    if (in_list(tune_flag_keys, key)) {
      rc = store_config_set_int(r, key, 1);
      continue;
    }
    int text = in_list(tune_text_keys, key), integer = in_list(tune_int_keys, key),
        real = in_list(tune_real_keys, key);
    if (!val && i + 1 < n && (text || integer || real || !strcmp(key, "db") ||
                              !strcmp(key, "threads")))
      val = w[++i];
    if (!val) continue;
    char *end;
    errno = 0;
    if (text) {
      rc = store_config_set_text(r, key, val);
    } else if (integer) {
      long long x = strtoll(val, &end, 10);
      if (!errno && end != val && !*end) rc = store_config_set_int(r, key, x);
    } else if (real) {
      double x = strtod(val, &end);
      if (!errno && end != val && !*end) rc = store_config_set_real(r, key, x);
    }
  }
  store_strings_free(w, n);
  return rc;
}

/* Step 4 → 5: the new tables, and the settings of every old run derived
 * from its columns and its command line. */
static int migrate_v5(sqlite3 *db, char *err, size_t errlen) {
  if (exec(db, V5_SQL, err, errlen)) return -1;
  sqlite3_stmt *st = NULL, *ins = NULL;
  store_run r;
  memset(&r, 0, sizeof r);
  int rc, ret = -1;
  if (prepare(db, "SELECT id, kind, openings, command FROM runs ORDER BY id", 0, &st, err,
              errlen) ||
      prepare(db, "INSERT INTO run_config (run_id, key, type, value) VALUES (?1, ?2, ?3, ?4)", 0,
              &ins, err, errlen))
    goto done;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    memset(&r, 0, sizeof r);
    r.id = sqlite3_column_int64(st, 0);
    const char *kind = (const char *)sqlite3_column_text(st, 1);
    /* A kind this code does not know gets no settings (reading the run
     * later says what is wrong with it; the file still opens). */
    if (store_kind_parse(kind, &r.kind)) continue;
    if (!(r.openings = column_dup(st, 2)) || !(r.command = column_dup(st, 3)) ||
        legacy_config(&r)) {
      error_set(err, errlen, "store: out of memory migrating run %" PRId64, r.id);
      goto done;
    }
    for (int i = 0; i < r.nconfig; i++) {
      if (bind_config(ins, r.id, i, &r) || sqlite3_step(ins) != SQLITE_DONE) {
        db_fail(db, err, errlen, "cannot store the settings of an old run");
        goto done;
      }
      sqlite3_reset(ins);
    }
    store_run_free(&r);
  }
  if (rc != SQLITE_DONE) {
    db_fail(db, err, errlen, "cannot read the old runs");
    goto done;
  }
  ret = 0;
done:
  store_run_free(&r);
  sqlite3_finalize(st);
  sqlite3_finalize(ins);
  return ret;
}

/* Upgrades an oware database of an older schema, one version at a time,
 * all in one transaction (docs/SCHEMA.md). Step v upgrades version v to
 * v + 1: 1 → 2 adds the ratings table, 2 → 3 the tuning table, 3 → 4 the
 * variant_metrics table, 4 → 5 the run settings, openings, files and locks
 * (migrate_v5), 5 → 6 the endgame analysis tables (ANALYSIS_SQL), 6 → 7
 * egdb=off made explicit in the specs of the runs before it (EGDB_OFF_SQL). */
static int migrate(sqlite3 *db, const char *path, char *err, size_t errlen) {
  long long v;
  char sql[64];
  if (exec(db, "BEGIN IMMEDIATE", err, errlen)) return -1;
  if (query_int(db, "PRAGMA user_version", &v) != SQLITE_OK) {
    db_fail(db, err, errlen, path);
    goto fail;
  }
  for (; v < STORE_SCHEMA_VERSION; v++) {
    switch (v) {
    case 1:
      if (exec(db, RATINGS_SQL, err, errlen)) goto fail;
      break;
    case 2:
      if (exec(db, TUNING_SQL, err, errlen)) goto fail;
      break;
    case 3:
      if (exec(db, METRICS_SQL, err, errlen)) goto fail;
      break;
    case 4:
      if (migrate_v5(db, err, errlen)) goto fail;
      break;
    case 5:
      if (exec(db, ANALYSIS_SQL, err, errlen)) goto fail;
      break;
    case 6:
      if (exec(db, EGDB_OFF_SQL, err, errlen)) goto fail;
      break;
    default:
      error_set(err, errlen, "store: no upgrade from schema %lld to %d: %s", v, STORE_SCHEMA_VERSION, path);
      goto fail;
    }
  }
  snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
  if (exec(db, sql, err, errlen) || exec(db, "COMMIT", err, errlen)) goto fail;
  return 0;
fail:
  if (!sqlite3_get_autocommit(db)) exec(db, "ROLLBACK", NULL, 0);
  return -1;
}

/* Checks that the file is ours (initialising a new one); never writes to a
 * database that is not. */
static int claim(sqlite3 *db, const char *path, int create, char *err, size_t errlen) {
  for (int attempt = 0; attempt < 3; attempt++) {
    identity id;
    if (identify(db, path, &id, err, errlen)) return -1;
    if (is_empty(&id)) {
      if (!create) {
        error_set(err, errlen, "store: empty database (not created by oware): %s", path);
        return -1;
      }
      /* WAL is set before the schema: journal_mode cannot change inside a
       * transaction, and it is a property of the file from then on. */
      char *msg = NULL;
      if (sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, &msg) != SQLITE_OK) {
        error_set(err, errlen, "store: cannot set WAL mode on %s: %s", path, msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return -1;
      }
      int rc = initialise(db, path, err, errlen);
      if (rc <= 0) return rc;
      continue; /* someone else initialised it meanwhile: look again */
    }
    if (id.app_id != STORE_APPLICATION_ID) {
      error_set(err, errlen, "store: not an oware database (application id 0x%08llx): %s",
           (unsigned long long)(uint32_t)id.app_id, path);
      return -1;
    }
    if (id.version > STORE_SCHEMA_VERSION) {
      error_set(err, errlen, "store: written by a newer oware (schema %lld, this one reads %d): %s", id.version,
           STORE_SCHEMA_VERSION, path);
      return -1;
    }
    if (id.version < 1) {
      error_set(err, errlen, "store: oware database without a schema version (user_version %lld): %s",
           id.version, path);
      return -1;
    }
    if (id.version < STORE_SCHEMA_VERSION) return migrate(db, path, err, errlen);
    return 0;
  }
  error_set(err, errlen, "store: cannot initialise %s: it keeps changing under us", path);
  return -1;
}

/* Per-connection settings, once the file is known to be ours. */
static int configure(sqlite3 *db, const char *path, char *err, size_t errlen) {
  sqlite3_stmt *st;
  char sql[96];
  if (prepare(db, "PRAGMA journal_mode=WAL", 0, &st, err, errlen)) return -1;
  int rc = sqlite3_step(st);
  if (rc != SQLITE_ROW) {
    error_set(err, errlen, "store: cannot set WAL mode on %s: %s", path, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return -1;
  }
  const char *mode = (const char *)sqlite3_column_text(st, 0);
  int ok = mode && (!strcmp(mode, "wal") || !strcmp(mode, "memory"));
  if (!ok)
    error_set(err, errlen, "store: cannot set WAL mode on %s: journal mode stays '%s'", path,
         mode ? mode : "?");
  sqlite3_finalize(st);
  if (!ok) return -1;
  snprintf(sql, sizeof sql, "PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=%d",
           STORE_WAL_PAGES);
  if (exec(db, sql, err, errlen)) return -1;
  if (exec(db, "PRAGMA foreign_keys=ON", err, errlen)) return -1;
  long long fk = 0;
  if (query_int(db, "PRAGMA foreign_keys", &fk) != SQLITE_OK || fk != 1) {
    error_set(err, errlen, "store: this SQLite does not enforce foreign keys");
    return -1;
  }
  return 0;
}

static const char game_insert_sql[] =
    "INSERT INTO games (run_id, series_no, game_no, variant_idx, round, a_idx, b_idx,"
    " south_idx, north_idx, opening, moves, winner, score_south, score_north, plies,"
    " end_reason, detail, seed, seconds)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,"
    " ?19)";

static const char series_insert_sql[] =
    "INSERT OR REPLACE INTO series (run_id, series_no, variant_idx, round, a_idx, b_idx,"
    " games, wins_a, wins_b, draws, winner)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";

static int prepare_cached(store *s, char *err, size_t errlen) {
  return prepare(s->db, "BEGIN IMMEDIATE", 1, &s->begin, err, errlen) ||
         prepare(s->db, "COMMIT", 1, &s->commit, err, errlen) ||
         prepare(s->db, "ROLLBACK", 1, &s->rollback, err, errlen) ||
         prepare(s->db, game_insert_sql, 1, &s->game_insert, err, errlen) ||
         prepare(s->db, series_insert_sql, 1, &s->series_insert, err, errlen) ||
         prepare(s->db, "SELECT count(*) FROM games WHERE run_id = ?1", 1, &s->games_count, err,
                 errlen);
}

static int open_mode(const char *path, int create, int readonly, store **out, char *err,
                     size_t errlen);

int store_open(const char *path, int create, store **out, char *err, size_t errlen) {
  return open_mode(path, create, 0, out, err, errlen);
}

int store_open_readonly(const char *path, store **out, char *err, size_t errlen) {
  int rc = open_mode(path, 0, 1, out, err, errlen);
  if (rc != 1) return rc;
  /* An older schema: upgraded once (its runs stay listed and exportable)
   * when the file can be written, then read. */
  store *w;
  if (access(path, W_OK)) {
    error_set(err, errlen, "store: %s has an older schema and cannot be upgraded: %s", path, strerror(errno));
    return -1;
  }
  if (open_mode(path, 0, 0, &w, err, errlen)) return -1;
  store_close(w);
  return open_mode(path, 0, 1, out, err, errlen) ? -1 : 0;
}

static int open_mode(const char *path, int create, int readonly, store **out, char *err,
                     size_t errlen) {
  *out = NULL;
  if (!path || !*path) {
    error_set(err, errlen, "store: no database path given");
    return -1;
  }
  store *s = calloc(1, sizeof *s);
  if (!s || !(s->path = strdup(path))) {
    free(s);
    error_set(err, errlen, "store: out of memory opening %s", path);
    return -1;
  }
  int flags = (readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX |
              (create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path, &s->db, flags, NULL);
  if (rc != SQLITE_OK) {
    if (!s->db) {
      error_set(err, errlen, "store: cannot open %s: out of memory", path);
    } else {
      int sys = sqlite3_system_errno(s->db);
      if (sys)
        error_set(err, errlen, "store: cannot open %s: %s (%s)", path, sqlite3_errmsg(s->db), strerror(sys));
      else
        error_set(err, errlen, "store: cannot open %s: %s", path, sqlite3_errmsg(s->db));
    }
    goto fail;
  }
  /* READWRITE falls back to read-only on a write-protected file. */
  if (!readonly && sqlite3_db_readonly(s->db, "main") == 1) {
    error_set(err, errlen, "store: cannot write %s: the file is read-only", path);
    goto fail;
  }
  if (sqlite3_extended_result_codes(s->db, 1) != SQLITE_OK ||
      sqlite3_busy_timeout(s->db, STORE_BUSY_MS) != SQLITE_OK) {
    db_fail(s->db, err, errlen, path);
    goto fail;
  }
  if (readonly) {
    /* Reading only: the file is checked, never changed (no migration, no
     * journal mode), so a write-protected database can be read. */
    identity id;
    if (identify(s->db, path, &id, err, errlen)) goto fail;
    if (is_empty(&id)) {
      error_set(err, errlen, "store: empty database (not created by oware): %s", path);
      goto fail;
    }
    if (id.app_id != STORE_APPLICATION_ID) {
      error_set(err, errlen, "store: not an oware database (application id 0x%08llx): %s",
           (unsigned long long)(uint32_t)id.app_id, path);
      goto fail;
    }
    if (id.version < STORE_SCHEMA_VERSION && id.version >= 1) {
      sqlite3_close(s->db);
      free(s->path);
      free(s);
      return 1; /* older: the caller upgrades it */
    }
    if (id.version != STORE_SCHEMA_VERSION) {
      error_set(err, errlen, "store: written by a newer oware (schema %lld, this one reads %d): %s",
           id.version, STORE_SCHEMA_VERSION, path);
      goto fail;
    }
    if (exec(s->db, "PRAGMA foreign_keys=ON", err, errlen) || prepare_cached(s, err, errlen))
      goto fail;
  } else if (claim(s->db, path, create, err, errlen) || configure(s->db, path, err, errlen) ||
             prepare_cached(s, err, errlen)) {
    goto fail;
  }
  *out = s;
  return 0;
fail:
  store_close(s);
  return -1;
}

sqlite3 *store_sqlite(store *s) { return s->db; }

void store_close(store *s) {
  if (!s) return;
  sqlite3_finalize(s->begin);
  sqlite3_finalize(s->commit);
  sqlite3_finalize(s->rollback);
  sqlite3_finalize(s->game_insert);
  sqlite3_finalize(s->series_insert);
  sqlite3_finalize(s->games_count);
  /* Every statement is finalized, so close cannot be busy; the last
   * connection checkpoints the WAL into the database here. */
  sqlite3_close(s->db);
  free(s->path);
  free(s);
}

/* ------------------------------------------------------------------ runs */

/* Runs a prepared insert once per item: bind(st, i) binds item i. */
static int insert_rows(store *s, const char *sql, int n, int (*bind)(sqlite3_stmt *, int64_t, int, const store_run *),
                       int64_t id, const store_run *run, const char *what, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (n <= 0) return 0;
  if (prepare(s->db, sql, 0, &st, err, errlen)) return -1;
  for (int i = 0; i < n; i++) {
    if (bind(st, id, i, run) || sqlite3_step(st) != SQLITE_DONE) {
      error_set(err, errlen, "store: cannot insert %s %d of the run: %s", what, i, sqlite3_errmsg(s->db));
      sqlite3_finalize(st);
      return -1;
    }
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  return 0;
}

static int text_or_empty(sqlite3_stmt *st, int i, const char *text) {
  return sqlite3_bind_text(st, i, text ? text : "", -1, SQLITE_STATIC);
}

static int bind_player(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  return sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int(st, 2, i) ||
         text_or_empty(st, 3, r->player_name[i]) || text_or_empty(st, 4, r->player_spec[i]);
}

static int bind_variant(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  return sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int(st, 2, i) ||
         text_or_empty(st, 3, r->variant[i]);
}

static int bind_position(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  return sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int(st, 2, i) ||
         text_or_empty(st, 3, r->position[i]);
}

static int bind_config(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  char buf[40];
  const store_config *c = &r->config[i];
  return sqlite3_bind_int64(st, 1, id) || text_or_empty(st, 2, c->key) ||
         text_or_empty(st, 3, type_names[c->type]) ||
         sqlite3_bind_text(st, 4, config_value_text(c, buf, sizeof buf), -1, SQLITE_TRANSIENT);
}

static int bind_file(sqlite3_stmt *st, int64_t id, int i, const store_run *r) {
  char hash[17];
  const store_file *f = &r->files[i];
  content_hash(f->data, f->len, hash);
  return sqlite3_bind_int64(st, 1, id) || text_or_empty(st, 2, f->path) ||
         sqlite3_bind_text(st, 3, hash, -1, SQLITE_TRANSIENT) ||
         sqlite3_bind_blob64(st, 4, f->data ? (const void *)f->data : "", f->len, SQLITE_STATIC);
}

int store_run_create(store *s, store_run *run, char *err, size_t errlen) {
  if (run->nplayers < 0 || run->nplayers > STORE_MAX_PLAYERS) {
    error_set(err, errlen, "store: run has %d players (at most %d)", run->nplayers, STORE_MAX_PLAYERS);
    return -1;
  }
  if (run->nvariants < 0 || run->nvariants > STORE_MAX_VARIANTS) {
    error_set(err, errlen, "store: run has %d variants (at most %d)", run->nvariants, STORE_MAX_VARIANTS);
    return -1;
  }
  if ((unsigned)run->kind >= STORE_NKINDS) {
    error_set(err, errlen, "store: unknown run kind %d", (int)run->kind);
    return -1;
  }
  for (int i = 0; i < run->nconfig; i++)
    if ((unsigned)run->config[i].type > STORE_REAL || !run->config[i].key) {
      error_set(err, errlen, "store: setting %d of the run has no key or an unknown type", i);
      return -1;
    }
  char started[sizeof run->started], seed[24];
  now_iso8601(started, sizeof started);
  u64_text(run->seed, seed);
  sqlite3_stmt *st = NULL;
  int64_t id;
  if (step_done(s->db, s->begin, err, errlen, "cannot start a transaction")) return -1;
  if (prepare(s->db,
              "INSERT INTO runs (name, kind, format, openings, rounds, threads, seed, command,"
              " status, started, finished) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'running', ?9,"
              " NULL)",
              0, &st, err, errlen))
    goto fail;
  if (text_or_empty(st, 1, run->name) || text_or_empty(st, 2, store_kind_name(run->kind)) ||
      text_or_empty(st, 3, run->format) || text_or_empty(st, 4, run->openings) ||
      sqlite3_bind_int(st, 5, run->rounds) || sqlite3_bind_int(st, 6, run->threads) ||
      bind_text(st, 7, seed, sizeof seed) || text_or_empty(st, 8, run->command) ||
      bind_text(st, 9, started, sizeof started) || sqlite3_step(st) != SQLITE_DONE) {
    db_fail(s->db, err, errlen, "cannot insert the run");
    goto fail;
  }
  id = sqlite3_last_insert_rowid(s->db);
  sqlite3_finalize(st);
  st = NULL;
  if (insert_rows(s, "INSERT INTO players (run_id, idx, name, spec) VALUES (?1, ?2, ?3, ?4)",
                  run->nplayers, bind_player, id, run, "player", err, errlen) ||
      insert_rows(s, "INSERT INTO variants (run_id, idx, name) VALUES (?1, ?2, ?3)",
                  run->nvariants, bind_variant, id, run, "variant", err, errlen) ||
      insert_rows(s, "INSERT INTO run_config (run_id, key, type, value) VALUES (?1, ?2, ?3, ?4)",
                  run->nconfig, bind_config, id, run, "setting", err, errlen) ||
      insert_rows(s, "INSERT INTO run_openings (run_id, idx, position) VALUES (?1, ?2, ?3)",
                  run->npositions, bind_position, id, run, "opening", err, errlen) ||
      insert_rows(s, "INSERT INTO run_files (run_id, path, hash, content) VALUES (?1, ?2, ?3, ?4)",
                  run->nfiles, bind_file, id, run, "file", err, errlen))
    goto fail;
  if (step_done(s->db, s->commit, err, errlen, "cannot commit the run")) goto fail;
  run->id = id;
  run->status = STORE_RUNNING;
  memcpy(run->started, started, sizeof started);
  run->finished[0] = '\0';
  return 0;
fail:
  sqlite3_finalize(st);
  rollback(s);
  return -1;
}

/* A copy of a text column (NULL is ""); NULL when out of memory. */
static char *column_dup(sqlite3_stmt *st, int i) {
  const unsigned char *t = sqlite3_column_text(st, i);
  return strdup(t ? (const char *)t : "");
}

static int load_members(store *s, int64_t id, store_run *run, char *err, size_t errlen) {
  sqlite3_stmt *st = NULL;
  int rc;
  if (prepare(s->db, "SELECT idx, name, spec FROM players WHERE run_id = ?1 ORDER BY idx", 0, &st,
              err, errlen))
    return -1;
  if (sqlite3_bind_int64(st, 1, id)) goto sqlfail;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int idx = sqlite3_column_int(st, 0);
    if (idx != run->nplayers || idx >= STORE_MAX_PLAYERS) {
      error_set(err, errlen, "store: run %" PRId64 ": player index %d out of order or range", id, idx);
      goto fail;
    }
    const char *name = (const char *)sqlite3_column_text(st, 1);
    const char *spec = (const char *)sqlite3_column_text(st, 2);
    if (store_run_add_player(run, name, spec)) goto oom;
  }
  if (rc != SQLITE_DONE) goto sqlfail;
  sqlite3_finalize(st);
  if (prepare(s->db, "SELECT idx, name FROM variants WHERE run_id = ?1 ORDER BY idx", 0, &st, err,
              errlen))
    return -1;
  if (sqlite3_bind_int64(st, 1, id)) goto sqlfail;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int idx = sqlite3_column_int(st, 0);
    if (idx != run->nvariants || idx >= STORE_MAX_VARIANTS) {
      error_set(err, errlen, "store: run %" PRId64 ": variant index %d out of order or range", id, idx);
      goto fail;
    }
    if (store_run_add_variant(run, (const char *)sqlite3_column_text(st, 1))) goto oom;
  }
  if (rc != SQLITE_DONE) goto sqlfail;
  sqlite3_finalize(st);
  if (prepare(s->db, "SELECT key, type, value FROM run_config WHERE run_id = ?1 ORDER BY key", 0,
              &st, err, errlen))
    return -1;
  if (sqlite3_bind_int64(st, 1, id)) goto sqlfail;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *key = (const char *)sqlite3_column_text(st, 0);
    const char *type = (const char *)sqlite3_column_text(st, 1);
    const char *value = (const char *)sqlite3_column_text(st, 2);
    store_config *c = config_slot(run, key ? key : "");
    if (!c) goto oom;
    if (config_value_parse(c, type, value)) {
      error_set(err, errlen, "store: run %" PRId64 ": setting '%s' has a bad type or value (%s '%s')", id,
           key ? key : "", type ? type : "NULL", value ? value : "NULL");
      goto fail;
    }
  }
  if (rc != SQLITE_DONE) goto sqlfail;
  sqlite3_finalize(st);
  return 0;
oom:
  error_set(err, errlen, "store: out of memory reading run %" PRId64, id);
  goto fail;
sqlfail:
  error_set(err, errlen, "store: cannot read run %" PRId64 ": %s", id, sqlite3_errmsg(s->db));
fail:
  sqlite3_finalize(st);
  return -1;
}

#define RUN_COLUMNS                                                                                \
  "id, name, kind, format, openings, rounds, threads, seed, command, status, started, finished"

/* Fills run (zeroed here) from a row of RUN_COLUMNS. An unknown kind or
 * status is an error naming the run. */
static int run_from_row(sqlite3_stmt *st, store_run *run, char *err, size_t errlen) {
  memset(run, 0, sizeof *run);
  run->id = sqlite3_column_int64(st, 0);
  if (!(run->name = column_dup(st, 1)) || !(run->format = column_dup(st, 3)) ||
      !(run->openings = column_dup(st, 4)) || !(run->command = column_dup(st, 8))) {
    error_set(err, errlen, "store: out of memory reading run %" PRId64, run->id);
    return -1;
  }
  const char *kind = (const char *)sqlite3_column_text(st, 2);
  if (store_kind_parse(kind, &run->kind)) {
    error_set(err, errlen, "store: run %" PRId64 ": unknown kind '%s'", run->id, kind ? kind : "NULL");
    return -1;
  }
  const char *status = (const char *)sqlite3_column_text(st, 9);
  if (store_status_parse(status, &run->status)) {
    error_set(err, errlen, "store: run %" PRId64 ": unknown status '%s'", run->id, status ? status : "NULL");
    return -1;
  }
  run->rounds = sqlite3_column_int(st, 5);
  run->threads = sqlite3_column_int(st, 6);
  if (parse_u64((const char *)sqlite3_column_text(st, 7), &run->seed)) {
    error_set(err, errlen, "store: run %" PRId64 ": bad seed '%s'", run->id,
         sqlite3_column_text(st, 7) ? (const char *)sqlite3_column_text(st, 7) : "");
    return -1;
  }
  column_copy(st, 10, run->started, sizeof run->started);
  column_copy(st, 11, run->finished, sizeof run->finished);
  return 0;
}

int store_run_load(store *s, int64_t id, store_run *run, char *err, size_t errlen) {
  sqlite3_stmt *st;
  memset(run, 0, sizeof *run);
  if (prepare(s->db, "SELECT " RUN_COLUMNS " FROM runs WHERE id = ?1", 0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, id);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  if (rc == SQLITE_DONE) {
    sqlite3_finalize(st);
    error_set(err, errlen, "store: no run %" PRId64, id);
    return -1;
  }
  if (rc != SQLITE_ROW) {
    error_set(err, errlen, "store: cannot read run %" PRId64 ": %s", id, sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return -1;
  }
  rc = run_from_row(st, run, err, errlen);
  sqlite3_finalize(st);
  if (rc || load_members(s, id, run, err, errlen)) {
    store_run_free(run);
    return -1;
  }
  return 0;
}

int store_run_status(store *s, int64_t id, store_status status, char *err, size_t errlen) {
  if ((unsigned)status >= STORE_NSTATUS) {
    error_set(err, errlen, "store: unknown run status %d", (int)status);
    return -1;
  }
  char finished[32];
  now_iso8601(finished, sizeof finished);
  sqlite3_stmt *st;
  if (prepare(s->db,
              "UPDATE runs SET status = ?2, finished = CASE WHEN ?2 = 'running' THEN NULL ELSE ?3"
              " END WHERE id = ?1",
              0, &st, err, errlen))
    return -1;
  if (sqlite3_bind_int64(st, 1, id) || text_or_empty(st, 2, store_status_name(status)) ||
      bind_text(st, 3, finished, sizeof finished) || sqlite3_step(st) != SQLITE_DONE) {
    error_set(err, errlen, "store: cannot set the status of run %" PRId64 ": %s", id, sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return -1;
  }
  int changed = sqlite3_changes(s->db);
  sqlite3_finalize(st);
  if (changed == 0) {
    error_set(err, errlen, "store: no run %" PRId64, id);
    return -1;
  }
  return 0;
}

int store_runs_foreach(store *s, int (*fn)(void *ctx, const store_run *r), void *ctx, char *err,
                       size_t errlen) {
  sqlite3_stmt *st;
  store_run run;
  if (prepare(s->db, "SELECT " RUN_COLUMNS " FROM runs ORDER BY id DESC", 0, &st, err, errlen))
    return -1;
  int rc, ret = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (run_from_row(st, &run, err, errlen) || load_members(s, run.id, &run, err, errlen)) {
      store_run_free(&run);
      ret = -1;
      break;
    }
    int stop = fn(ctx, &run);
    store_run_free(&run);
    if (stop) break;
  }
  if (ret == 0 && rc != SQLITE_ROW && rc != SQLITE_DONE)
    ret = db_fail(s->db, err, errlen, "cannot list runs");
  sqlite3_finalize(st);
  return ret;
}

int store_run_openings(store *s, int64_t id, char ***out, int *n, char *err, size_t errlen) {
  sqlite3_stmt *st;
  char **v = NULL;
  int k = 0, rc;
  *out = NULL;
  *n = 0;
  if (prepare(s->db, "SELECT idx, position FROM run_openings WHERE run_id = ?1 ORDER BY idx", 0,
              &st, err, errlen))
    return -1;
  if (sqlite3_bind_int64(st, 1, id)) goto sqlfail;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (sqlite3_column_int64(st, 0) != k) {
      error_set(err, errlen, "store: run %" PRId64 ": opening %lld out of order (expected %d)", id,
           (long long)sqlite3_column_int64(st, 0), k);
      goto fail;
    }
    if (strings_add(&v, k, (const char *)sqlite3_column_text(st, 1))) {
      error_set(err, errlen, "store: out of memory reading the openings of run %" PRId64, id);
      goto fail;
    }
    k++;
  }
  if (rc != SQLITE_DONE) goto sqlfail;
  sqlite3_finalize(st);
  *out = v;
  *n = k;
  return 0;
sqlfail:
  error_set(err, errlen, "store: cannot read the openings of run %" PRId64 ": %s", id, sqlite3_errmsg(s->db));
fail:
  sqlite3_finalize(st);
  store_strings_free(v, k);
  return -1;
}

int store_run_file(store *s, int64_t id, const char *path, unsigned char **data, size_t *len,
                   char *err, size_t errlen) {
  sqlite3_stmt *st;
  *data = NULL;
  *len = 0;
  if (prepare(s->db, "SELECT content FROM run_files WHERE run_id = ?1 AND path = ?2", 0, &st, err,
              errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, id);
  if (!rc) rc = sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
  if (!rc) rc = sqlite3_step(st);
  int ret = 1;
  if (rc == SQLITE_ROW) {
    const void *b = sqlite3_column_blob(st, 0);
    size_t n = (size_t)sqlite3_column_bytes(st, 0);
    *data = malloc(n + 1);
    if (!*data) {
      error_set(err, errlen, "store: out of memory");
      ret = -1;
    } else {
      if (n) memcpy(*data, b, n);
      (*data)[n] = 0;
      *len = n;
      ret = 0;
    }
  } else if (rc != SQLITE_DONE) {
    error_set(err, errlen, "store: cannot read the files of run %" PRId64 ": %s", id, sqlite3_errmsg(s->db));
    ret = -1;
  }
  sqlite3_finalize(st);
  return ret;
}

int store_run_files_check(store *s, int64_t id, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (prepare(s->db, "SELECT path, hash, content FROM run_files WHERE run_id = ?1 ORDER BY path",
              0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, id), ret = 0;
  while (rc == SQLITE_OK || rc == SQLITE_ROW) {
    if ((rc = sqlite3_step(st)) != SQLITE_ROW) break;
    const char *path = (const char *)sqlite3_column_text(st, 0);
    const void *b = sqlite3_column_blob(st, 2);
    size_t n = (size_t)sqlite3_column_bytes(st, 2);
    char stored[17], now[17];
    unsigned char *data;
    size_t len;
    content_hash(b, n, stored);
    if (read_whole(path ? path : "", &data, &len)) {
      error_set(err, errlen, "store: run %" PRId64 ": cannot read %s, which the run uses: %s", id,
           path ? path : "", strerror(errno));
      ret = -1;
      break;
    }
    int same = len == n && (!n || !memcmp(data, b, n));
    content_hash(data, len, now);
    free(data);
    if (!same) {
      error_set(err, errlen,
           "store: run %" PRId64 ": %s has changed since the run started (then %zu bytes, hash %s; now "
           "%zu bytes, hash %s)",
           id, path, n, stored, len, now);
      ret = -1;
      break;
    }
  }
  if (!ret && rc != SQLITE_DONE)
    ret = db_fail(s->db, err, errlen, "cannot read the files of the run");
  sqlite3_finalize(st);
  return ret;
}

/* ------------------------------------------------------------- run lock */

/* Whether pid is a live process on this machine. */
static int pid_alive(long long pid) {
  if (pid <= 0 || pid != (long long)(pid_t)pid) return 0;
  return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

static void host_name(char *buf, size_t len) {
  if (gethostname(buf, len) != 0) snprintf(buf, len, "?");
  buf[len - 1] = 0;
}

int store_run_lock(store *s, int64_t id, char *err, size_t errlen) {
  char host[256], since[32];
  long long me = (long long)getpid();
  host_name(host, sizeof host);
  now_iso8601(since, sizeof since);
  sqlite3_stmt *st = NULL;
  if (step_done(s->db, s->begin, err, errlen, "cannot start a transaction")) return -1;
  if (prepare(s->db, "SELECT pid, host, since FROM run_locks WHERE run_id = ?1", 0, &st, err,
              errlen))
    goto fail;
  int rc = sqlite3_bind_int64(st, 1, id);
  if (!rc) rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    long long pid = sqlite3_column_int64(st, 0);
    const char *h = (const char *)sqlite3_column_text(st, 1);
    const char *t = (const char *)sqlite3_column_text(st, 2);
    int here = h && !strcmp(h, host);
    if (!(here && (pid == me || !pid_alive(pid)))) {
      error_set(err, errlen, "store: run %" PRId64 " is being played by pid %lld on host %s since %s%s", id,
           pid, h ? h : "?", t ? t : "?",
           here ? "" : " (another host: its lock is released only by that process)");
      sqlite3_finalize(st);
      rollback(s);
      return 1;
    }
  } else if (rc != SQLITE_DONE) {
    db_fail(s->db, err, errlen, "cannot read the run lock");
    goto fail;
  }
  sqlite3_finalize(st);
  if (prepare(s->db,
              "INSERT OR REPLACE INTO run_locks (run_id, pid, host, since) VALUES (?1, ?2, ?3, ?4)",
              0, &st, err, errlen))
    goto fail;
  if (sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int64(st, 2, me) ||
      text_or_empty(st, 3, host) || text_or_empty(st, 4, since) ||
      sqlite3_step(st) != SQLITE_DONE) {
    if (sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_FOREIGNKEY)
      error_set(err, errlen, "store: no run %" PRId64, id);
    else
      db_fail(s->db, err, errlen, "cannot take the run lock");
    goto fail;
  }
  sqlite3_finalize(st);
  st = NULL;
  if (step_done(s->db, s->commit, err, errlen, "cannot commit the run lock")) goto fail;
  return 0;
fail:
  sqlite3_finalize(st);
  rollback(s);
  return -1;
}

int store_run_unlock(store *s, int64_t id, char *err, size_t errlen) {
  char host[256];
  host_name(host, sizeof host);
  sqlite3_stmt *st;
  if (prepare(s->db, "DELETE FROM run_locks WHERE run_id = ?1 AND pid = ?2 AND host = ?3", 0, &st,
              err, errlen))
    return -1;
  int ret = 0;
  if (sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int64(st, 2, (long long)getpid()) ||
      text_or_empty(st, 3, host) || sqlite3_step(st) != SQLITE_DONE)
    ret = db_fail(s->db, err, errlen, "cannot release the run lock");
  sqlite3_finalize(st);
  return ret;
}

/* ----------------------------------------------------------------- games */

static int bind_game(sqlite3_stmt *st, const store_game *g, char *seed) {
  int seedlen = u64_text(g->seed, seed);
  int rc = sqlite3_bind_int64(st, 1, g->run_id);
  if (!rc) rc = sqlite3_bind_int(st, 2, g->series_no);
  if (!rc) rc = sqlite3_bind_int(st, 3, g->game_no);
  if (!rc) rc = sqlite3_bind_int(st, 4, g->variant_idx);
  if (!rc) rc = sqlite3_bind_int(st, 5, g->round);
  if (!rc) rc = sqlite3_bind_int(st, 6, g->a_idx);
  if (!rc) rc = sqlite3_bind_int(st, 7, g->b_idx);
  if (!rc) rc = sqlite3_bind_int(st, 8, g->south_idx);
  if (!rc) rc = sqlite3_bind_int(st, 9, g->north_idx);
  if (!rc) rc = bind_text(st, 10, g->opening, sizeof g->opening);
  if (!rc) rc = sqlite3_bind_text(st, 11, g->moves ? g->moves : "", -1, SQLITE_STATIC);
  if (!rc) rc = sqlite3_bind_int(st, 12, g->winner);
  if (!rc) rc = sqlite3_bind_double(st, 13, g->score2[0] / 2.0);
  if (!rc) rc = sqlite3_bind_double(st, 14, g->score2[1] / 2.0);
  if (!rc) rc = sqlite3_bind_int(st, 15, g->plies);
  if (!rc) rc = sqlite3_bind_text(st, 16, outcome_end_name(g->end), -1, SQLITE_STATIC);
  if (!rc) rc = bind_text(st, 17, g->detail, sizeof g->detail);
  if (!rc) rc = sqlite3_bind_text(st, 18, seed, seedlen, SQLITE_STATIC);
  if (!rc) rc = sqlite3_bind_double(st, 19, g->seconds);
  return rc;
}

static int bind_series(sqlite3_stmt *st, const store_series *sr) {
  int rc = sqlite3_bind_int64(st, 1, sr->run_id);
  if (!rc) rc = sqlite3_bind_int(st, 2, sr->series_no);
  if (!rc) rc = sqlite3_bind_int(st, 3, sr->variant_idx);
  if (!rc) rc = sqlite3_bind_int(st, 4, sr->round);
  if (!rc) rc = sqlite3_bind_int(st, 5, sr->a_idx);
  if (!rc) rc = sqlite3_bind_int(st, 6, sr->b_idx);
  if (!rc) rc = sqlite3_bind_int(st, 7, sr->games);
  if (!rc) rc = sqlite3_bind_int(st, 8, sr->wins_a);
  if (!rc) rc = sqlite3_bind_int(st, 9, sr->wins_b);
  if (!rc) rc = sqlite3_bind_int(st, 10, sr->draws);
  if (!rc) rc = sqlite3_bind_int(st, 11, sr->winner);
  return rc;
}

int store_commit(store *s, const store_game *games, int n, const store_series *series, int m,
                 char *err, size_t errlen) {
  if (n <= 0 && m <= 0) return 0;
  char seed[24];
  for (int i = 0; i < n; i++)
    if (!strcmp(outcome_end_name(games[i].end), "?")) {
      error_set(err, errlen, "store: game %d of series %d of run %" PRId64 ": unknown end %d",
           games[i].game_no, games[i].series_no, games[i].run_id, (int)games[i].end);
      return -1;
    }
  if (step_done(s->db, s->begin, err, errlen, "cannot start a transaction")) return -1;
  for (int i = 0; i < n; i++) {
    const store_game *g = &games[i];
    int rc = bind_game(s->game_insert, g, seed);
    if (rc == SQLITE_OK) rc = sqlite3_step(s->game_insert);
    if (rc != SQLITE_DONE) {
      if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
        error_set(err, errlen, "store: game %d of series %d of run %" PRId64 " is already stored (%s)",
             g->game_no, g->series_no, g->run_id, sqlite3_errmsg(s->db));
      else if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
        error_set(err, errlen,
             "store: game %d of series %d of run %" PRId64 ": no such run, player or variant (%s)",
             g->game_no, g->series_no, g->run_id, sqlite3_errmsg(s->db));
      else
        error_set(err, errlen, "store: cannot store game %d of series %d of run %" PRId64 ": %s", g->game_no,
             g->series_no, g->run_id, sqlite3_errmsg(s->db));
      sqlite3_reset(s->game_insert);
      sqlite3_clear_bindings(s->game_insert);
      rollback(s);
      return -1;
    }
    sqlite3_reset(s->game_insert);
  }
  /* Bound pointers are the caller's: forget them before returning. */
  sqlite3_clear_bindings(s->game_insert);
  for (int i = 0; i < m; i++) {
    int rc = bind_series(s->series_insert, &series[i]);
    if (!rc) rc = sqlite3_step(s->series_insert);
    sqlite3_reset(s->series_insert);
    if (rc != SQLITE_DONE) {
      error_set(err, errlen, "store: cannot store series %d of run %" PRId64 ": %s", series[i].series_no,
           series[i].run_id, sqlite3_errmsg(s->db));
      rollback(s);
      return -1;
    }
  }
  if (step_done(s->db, s->commit, err, errlen, "cannot commit the games")) {
    rollback(s);
    return -1;
  }
  return 0;
}

int store_games_insert(store *s, const store_game *games, int n, char *err, size_t errlen) {
  return store_commit(s, games, n, NULL, 0, err, errlen);
}

int store_series_finish(store *s, const store_series *sr, char *err, size_t errlen) {
  return store_commit(s, NULL, 0, sr, 1, err, errlen);
}

/* What a game row of a run may hold: the run's player count and variants. */
typedef struct row_rules {
  int nplayers, nvariants;
  variant v[STORE_MAX_VARIANTS];
} row_rules;

/* Reads the run's players and variants for checking its game rows. */
static int row_rules_load(store *s, int64_t run_id, row_rules *rr, char *err, size_t errlen) {
  sqlite3_stmt *st = NULL;
  int rc;
  memset(rr, 0, sizeof *rr);
  if (prepare(s->db, "SELECT count(*) FROM players WHERE run_id = ?1", 0, &st, err, errlen))
    return -1;
  if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) goto sqlfail;
  long long np = sqlite3_column_int64(st, 0);
  rr->nplayers = np > STORE_MAX_PLAYERS ? STORE_MAX_PLAYERS : (int)np;
  sqlite3_finalize(st);
  st = NULL;
  if (prepare(s->db, "SELECT idx, name FROM variants WHERE run_id = ?1 ORDER BY idx", 0, &st, err,
              errlen))
    return -1;
  if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) goto sqlfail;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int idx = sqlite3_column_int(st, 0);
    const char *name = (const char *)sqlite3_column_text(st, 1);
    char verr[256];
    if (idx != rr->nvariants || idx >= STORE_MAX_VARIANTS) {
      error_set(err, errlen, "store: run %" PRId64 ": variant index %d out of order or range", run_id, idx);
      goto fail;
    }
    if (variant_parse(name ? name : "", &rr->v[idx], verr, sizeof verr)) {
      error_set(err, errlen, "store: run %" PRId64 ": stored variant %d: %s", run_id, idx, verr);
      goto fail;
    }
    rr->nvariants++;
  }
  if (rc != SQLITE_DONE) goto sqlfail;
  sqlite3_finalize(st);
  return 0;
sqlfail:
  db_fail(s->db, err, errlen, "cannot read the run's players and variants");
fail:
  sqlite3_finalize(st);
  return -1;
}

/* The end reasons a game row may hold (outcome_end_name's names). */
/* Checks a game row read from the database (a database is input): every
 * index in range, the moves letters of its variant, the opening a position
 * of it. Returns 0, or -1 with a message naming the row. */
static int game_row_check(const store_game *g, const row_rules *rr, char *err, size_t errlen) {
  char row[96], perr[256];
  snprintf(row, sizeof row, "run %" PRId64 " game %d (series %d)", g->run_id, g->game_no,
           g->series_no);
#define BAD(...)                                                                                     do {                                                                                                 char what_[400];                                                                                   snprintf(what_, sizeof what_, __VA_ARGS__);                                                        error_set(err, errlen, "store: %s: %s", row, what_);                                                           return -1;                                                                                       } while (0)
  if (g->series_no < 0) BAD("series_no %d is negative", g->series_no);
  if (g->game_no < 0) BAD("game_no %d is negative", g->game_no);
  if (g->round < 0) BAD("round %d is negative", g->round);
  if (g->variant_idx < 0 || g->variant_idx >= rr->nvariants)
    BAD("variant_idx %d out of range 0..%d", g->variant_idx, rr->nvariants - 1);
  const int idx[4] = {g->a_idx, g->b_idx, g->south_idx, g->north_idx};
  static const char *const names[4] = {"a_idx", "b_idx", "south_idx", "north_idx"};
  for (int i = 0; i < 4; i++)
    if (idx[i] < 0 || idx[i] >= rr->nplayers)
      BAD("%s %d out of range 0..%d", names[i], idx[i], rr->nplayers - 1);
  if (g->south_idx == g->north_idx || (g->south_idx != g->a_idx && g->south_idx != g->b_idx) ||
      (g->north_idx != g->a_idx && g->north_idx != g->b_idx))
    BAD("south_idx %d and north_idx %d are not the series' players %d and %d", g->south_idx,
        g->north_idx, g->a_idx, g->b_idx);
  if (g->winner < -1 || g->winner > 1) BAD("winner %d is not -1, 0 or 1", g->winner);
  const variant *v = &rr->v[g->variant_idx];
  if (g->score2[0] < 0 || g->score2[1] < 0 || g->score2[0] > 2 * v->total ||
      g->score2[1] > 2 * v->total)
    BAD("scores %g-%g out of range 0..%d", g->score2[0] / 2.0, g->score2[1] / 2.0, v->total);
  if ((int)g->end < (int)OUTCOME_MAJORITY || (int)g->end >= OUTCOME_NENDS) BAD("end reason %d", (int)g->end);
  size_t n = strlen(g->moves);
  if (g->plies < 0 || (size_t)g->plies != n)
    BAD("plies %d but %zu move letters", g->plies, n);
  for (size_t i = 0; i < n; i++)
    if (notation_move_index(v, g->moves[i]) < 0)
      BAD("move %zu is '%c', not a house letter of its variant", i + 1,
          (unsigned char)g->moves[i] >= 32 && (unsigned char)g->moves[i] < 127 ? g->moves[i] : '?');
  board b;
  if (notation_parse_position(g->opening, v, &b, perr, sizeof perr))
    BAD("opening '%.60s': %s", g->opening, perr);
#undef BAD
  return 0;
}

int store_games_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_game *g),
                        void *ctx, char *err, size_t errlen) {
  /* Every row is checked before fn sees it: a database is input. */
  row_rules *rr = malloc(sizeof *rr);
  if (!rr) {
    error_set(err, errlen, "store: out of memory reading games");
    return -1;
  }
  if (row_rules_load(s, run_id, rr, err, errlen)) {
    free(rr);
    return -1;
  }
  /* A statement of its own (not cached), so that fn may use the store. */
  sqlite3_stmt *st;
  if (prepare(s->db,
              "SELECT run_id, series_no, game_no, variant_idx, round, a_idx, b_idx, south_idx,"
              " north_idx, opening, moves, winner, score_south, score_north, plies, end_reason,"
              " detail, seed, seconds FROM games WHERE run_id = ?1 ORDER BY series_no, game_no",
              0, &st, err, errlen)) {
    free(rr);
    return -1;
  }
  store_game g;
  int rc = sqlite3_bind_int64(st, 1, run_id), ret = 0;
  if (rc != SQLITE_OK) {
    ret = db_fail(s->db, err, errlen, "cannot read games");
    goto done;
  }
#define BAD_ROW(...)                                                                               \
  do {                                                                                             \
    char what_[200];                                                                               \
    snprintf(what_, sizeof what_, __VA_ARGS__);                                                    \
    error_set(err, errlen, "store: run %" PRId64 ", series %d, game %d: %s", run_id, g.series_no, g.game_no,  \
         what_);                                                                                   \
    ret = -1;                                                                                      \
    goto done;                                                                                     \
  } while (0)
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    memset(&g, 0, sizeof g);
    g.run_id = sqlite3_column_int64(st, 0);
    g.series_no = sqlite3_column_int(st, 1);
    g.game_no = sqlite3_column_int(st, 2);
    g.variant_idx = sqlite3_column_int(st, 3);
    g.round = sqlite3_column_int(st, 4);
    g.a_idx = sqlite3_column_int(st, 5);
    g.b_idx = sqlite3_column_int(st, 6);
    g.south_idx = sqlite3_column_int(st, 7);
    g.north_idx = sqlite3_column_int(st, 8);
    /* Indices, winner, moves and opening: game_row_check, below. */
    column_copy(st, 9, g.opening, sizeof g.opening);
    const unsigned char *moves = sqlite3_column_text(st, 10);
    g.moves = moves ? (const char *)moves : "";
    g.winner = sqlite3_column_int(st, 11);
    /* Scores are whole or half seeds: doubling them is exact. Anything else
     * (NaN, huge, a fraction) is refused before it is converted. */
    for (int k = 0; k < 2; k++) {
      double x = sqlite3_column_double(st, 12 + k) * 2.0;
      if (!(x >= 0.0 && x <= 2.0 * VARIANT_MAX_TOTAL) || x != (double)(int)x) {
        error_set(err, errlen, "store: run %" PRId64 " game %d (series %d): score_%s %g is not a score",
             run_id, g.game_no, g.series_no, k ? "north" : "south", x / 2.0);
        ret = -1;
        goto done;
      }
      g.score2[k] = (int)x;
    }
    g.plies = sqlite3_column_int(st, 14);
    const char *end = (const char *)sqlite3_column_text(st, 15);
    if (outcome_end_parse(end, &g.end)) BAD_ROW("unknown end reason '%s'", end ? end : "NULL");
    column_copy(st, 16, g.detail, sizeof g.detail);
    if (parse_u64((const char *)sqlite3_column_text(st, 17), &g.seed)) BAD_ROW("bad seed");
    g.seconds = sqlite3_column_double(st, 18);
    if (game_row_check(&g, rr, err, errlen)) {
      ret = -1;
      goto done;
    }
    if (fn(ctx, &g)) goto done;
  }
#undef BAD_ROW
  if (rc != SQLITE_DONE) ret = db_fail(s->db, err, errlen, "cannot read games");
done:
  sqlite3_finalize(st);
  free(rr);
  return ret;
}

long long store_games_count(store *s, int64_t run_id) {
  sqlite3_stmt *st = s->games_count;
  long long n = -1;
  if (sqlite3_bind_int64(st, 1, run_id) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_reset(st);
  return n;
}

/* --------------------------------------------------------------- ratings */

int store_ratings_insert(store *s, store_rating *r, int n, char *err, size_t errlen) {
  if (n <= 0) return 0;
  char created[sizeof r->created];
  now_iso8601(created, sizeof created);
  sqlite3_stmt *st = NULL;
  long long batch = 0;
  if (step_done(s->db, s->begin, err, errlen, "cannot start a transaction")) return -1;
  if (query_int(s->db, "SELECT coalesce(max(batch), 0) + 1 FROM ratings", &batch) != SQLITE_OK) {
    db_fail(s->db, err, errlen, "cannot number the ratings");
    goto fail;
  }
  if (prepare(s->db,
              "INSERT INTO ratings (batch, run_id, scope, player, elo, lo, hi, games, score, draws,"
              " games_total, bound, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
              " ?12, ?13)",
              0, &st, err, errlen))
    goto fail;
  for (int i = 0; i < n; i++) {
    const store_rating *x = &r[i];
    int rc = sqlite3_bind_int64(st, 1, batch);
    if (!rc) rc = x->run_id ? sqlite3_bind_int64(st, 2, x->run_id) : sqlite3_bind_null(st, 2);
    if (!rc) rc = bind_text(st, 3, x->scope, sizeof x->scope);
    if (!rc) rc = bind_text(st, 4, x->player, sizeof x->player);
    if (!rc) rc = sqlite3_bind_double(st, 5, x->elo);
    if (!rc) rc = sqlite3_bind_double(st, 6, x->lo);
    if (!rc) rc = sqlite3_bind_double(st, 7, x->hi);
    if (!rc) rc = sqlite3_bind_int64(st, 8, x->games);
    if (!rc) rc = sqlite3_bind_double(st, 9, x->score);
    if (!rc) rc = sqlite3_bind_double(st, 10, x->draws);
    if (!rc) rc = sqlite3_bind_int64(st, 11, x->games_total);
    if (!rc) rc = sqlite3_bind_int(st, 12, x->bound ? 1 : 0);
    if (!rc) rc = bind_text(st, 13, created, sizeof created);
    if (!rc) rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
      error_set(err, errlen, "store: cannot store the rating of %s: %s", x->player, sqlite3_errmsg(s->db));
      goto fail;
    }
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  st = NULL;
  if (step_done(s->db, s->commit, err, errlen, "cannot commit the ratings")) goto fail;
  for (int i = 0; i < n; i++) {
    r[i].batch = batch;
    memcpy(r[i].created, created, sizeof created);
  }
  return 0;
fail:
  sqlite3_finalize(st);
  rollback(s);
  return -1;
}

int store_ratings_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_rating *r),
                          void *ctx, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (prepare(s->db,
              "SELECT batch, coalesce(run_id, 0), scope, player, elo, lo, hi, games, score, draws,"
              " games_total, bound, created FROM ratings WHERE ?1 = 0 OR run_id = ?1"
              " ORDER BY batch, id",
              0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, run_id), ret = 0;
  if (rc != SQLITE_OK) {
    ret = db_fail(s->db, err, errlen, "cannot read ratings");
    goto done;
  }
  store_rating x;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    memset(&x, 0, sizeof x);
    x.batch = sqlite3_column_int64(st, 0);
    x.run_id = sqlite3_column_int64(st, 1);
    column_copy(st, 2, x.scope, sizeof x.scope);
    column_copy(st, 3, x.player, sizeof x.player);
    x.elo = sqlite3_column_double(st, 4);
    x.lo = sqlite3_column_double(st, 5);
    x.hi = sqlite3_column_double(st, 6);
    x.games = sqlite3_column_int64(st, 7);
    x.score = sqlite3_column_double(st, 8);
    x.draws = sqlite3_column_double(st, 9);
    x.games_total = sqlite3_column_int64(st, 10);
    x.bound = sqlite3_column_int(st, 11);
    column_copy(st, 12, x.created, sizeof x.created);
    if (fn(ctx, &x)) goto done;
  }
  if (rc != SQLITE_DONE) ret = db_fail(s->db, err, errlen, "cannot read ratings");
done:
  sqlite3_finalize(st);
  return ret;
}

/* ------------------------------------------------------ pair aggregates */

/* Counting is one pass over the games in the order of the UNIQUE index
 * (run, series, game): no sort and no self-join, and the two games of a
 * pair arrive one after the other. (Measured on 1,000,000 games: GROUP BY
 * with a temporary B-tree and a self-join for the pairs took 2.5 s, this
 * scan 0.6 s.) Names come from the players table; counts are kept per
 * (name, name) in a small hash table. */

typedef struct pair_acc {
  int a, b;          /* name ids, a < b in strcmp order of the names */
  store_pair_count c;
} pair_acc;

typedef struct pair_map {
  pair_acc *v;       /* open addressing; a = -1 is empty */
  size_t cap, n;
} pair_map;

static size_t pair_hash(int a, int b, size_t cap) {
  uint64_t h = ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) * 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 20) & (cap - 1);
}

static pair_acc *pair_find(pair_map *m, int a, int b) {
  if (2 * (m->n + 1) > m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 256;
    pair_acc *v = malloc(cap * sizeof *v);
    if (!v) return NULL;
    for (size_t i = 0; i < cap; i++) v[i].a = -1;
    for (size_t i = 0; i < m->cap; i++) {
      if (m->v[i].a < 0) continue;
      size_t h = pair_hash(m->v[i].a, m->v[i].b, cap);
      while (v[h].a >= 0) h = (h + 1) & (cap - 1);
      v[h] = m->v[i];
    }
    free(m->v);
    m->v = v;
    m->cap = cap;
  }
  size_t h = pair_hash(a, b, m->cap);
  while (m->v[h].a >= 0 && (m->v[h].a != a || m->v[h].b != b)) h = (h + 1) & (m->cap - 1);
  if (m->v[h].a < 0) {
    memset(&m->v[h], 0, sizeof m->v[h]);
    m->v[h].a = a;
    m->v[h].b = b;
    m->n++;
  }
  return &m->v[h];
}

static int pair_cmp(const void *x, const void *y) {
  const store_pair_count *p = x, *q = y;
  int c = strcmp(p->a, q->a);
  return c ? c : strcmp(p->b, q->b);
}

/* The players and the variant filter of the runs asked for, by run. */
typedef struct run_names {
  int64_t run;
  int name_id[STORE_MAX_PLAYERS]; /* by player index; -1 when missing */
  int variant_ok[STORE_MAX_VARIANTS];
  int nplayers, nvariants;        /* indices stored for the run (rows are checked against them) */
} run_names;

typedef struct name_list {
  char (*v)[128];
  int n, cap;
} name_list;

static int name_id(name_list *l, const char *name) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->v[i], name)) return i;
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 64;
    char(*v)[128] = realloc(l->v, (size_t)cap * sizeof *v);
    if (!v) return -1;
    l->v = v;
    l->cap = cap;
  }
  snprintf(l->v[l->n], sizeof l->v[l->n], "%s", name);
  return l->n++;
}

int store_pair_counts(store *s, const int64_t *runs, int nruns, const char *vfilter,
                      store_pair_count **out, int *n, char *err, size_t errlen) {
  *out = NULL;
  *n = 0;
  if (nruns < 0 || (nruns > 0 && !runs)) {
    error_set(err, errlen, "store: bad run list");
    return -1;
  }
  sqlite3_stmt *st = NULL;
  run_names *rn = NULL;
  name_list names = {0};
  pair_map map = {0};
  char *in = NULL, *sql = NULL;
  int nrn = 0, ret = -1, rc;
  /* Every run asked for must exist. */
  if (prepare(s->db, "SELECT 1 FROM runs WHERE id = ?1", 0, &st, err, errlen)) return -1;
  for (int i = 0; i < nruns; i++) {
    rc = sqlite3_bind_int64(st, 1, runs[i]);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc == SQLITE_DONE) {
      error_set(err, errlen, "store: no run %" PRId64, runs[i]);
      goto done;
    }
    if (rc != SQLITE_ROW) {
      db_fail(s->db, err, errlen, "cannot read runs");
      goto done;
    }
  }
  sqlite3_finalize(st);
  st = NULL;
  /* The run ids as "1,2,3" (whole numbers written into the text). */
  size_t cap = 32 + 24 * (size_t)nruns, w = 0;
  in = malloc(cap);
  sql = malloc(cap + 256);
  if (!in || !sql) goto oom;
  in[0] = 0;
  for (int i = 0; i < nruns; i++)
    w += (size_t)snprintf(in + w, cap - w, "%s%" PRId64, i ? "," : "", runs[i]);
#define WHERE_RUNS(col) (nruns ? " WHERE " col " IN (" : ""), (nruns ? in : ""), (nruns ? ")" : "")
  /* The runs' players (by name) and variants (those that pass the filter). */
  snprintf(sql, cap + 256, "SELECT id FROM runs%s%s%s ORDER BY id", WHERE_RUNS("id"));
  if (prepare(s->db, sql, 0, &st, err, errlen)) goto done;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    run_names *v = realloc(rn, (size_t)(nrn + 1) * sizeof *rn);
    if (!v) goto oom;
    rn = v;
    rn[nrn].run = sqlite3_column_int64(st, 0);
    for (int i = 0; i < STORE_MAX_PLAYERS; i++) rn[nrn].name_id[i] = -1;
    for (int i = 0; i < STORE_MAX_VARIANTS; i++) rn[nrn].variant_ok[i] = 0;
    rn[nrn].nplayers = rn[nrn].nvariants = 0;
    nrn++;
  }
  if (rc != SQLITE_DONE) goto sqlfail;
  sqlite3_finalize(st);
  st = NULL;
  /* Runs are sorted by id: find one by bisection. */
#define RUN_INDEX(id, out)                                                                         \
  do {                                                                                             \
    int lo_ = 0, hi_ = nrn - 1;                                                                    \
    (out) = -1;                                                                                    \
    while (lo_ <= hi_) {                                                                           \
      int mid_ = (lo_ + hi_) / 2;                                                                  \
      if (rn[mid_].run == (id)) {                                                                  \
        (out) = mid_;                                                                              \
        break;                                                                                     \
      }                                                                                            \
      if (rn[mid_].run < (id)) lo_ = mid_ + 1;                                                     \
      else hi_ = mid_ - 1;                                                                         \
    }                                                                                              \
  } while (0)
  snprintf(sql, cap + 256, "SELECT run_id, idx, name FROM players%s%s%s", WHERE_RUNS("run_id"));
  if (prepare(s->db, sql, 0, &st, err, errlen)) goto done;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int r, idx = sqlite3_column_int(st, 1);
    const char *name = (const char *)sqlite3_column_text(st, 2);
    RUN_INDEX(sqlite3_column_int64(st, 0), r);
    if (r < 0 || idx < 0 || idx >= STORE_MAX_PLAYERS) continue;
    if ((rn[r].name_id[idx] = name_id(&names, name ? name : "")) < 0) goto oom;
    if (idx + 1 > rn[r].nplayers) rn[r].nplayers = idx + 1;
  }
  if (rc != SQLITE_DONE) goto sqlfail;
  sqlite3_finalize(st);
  st = NULL;
  /* Every run's variants (a game row's index is checked against them); those
   * that pass the filter are counted. */
  snprintf(sql, cap + 256, "SELECT run_id, idx, name FROM variants%s%s%s", WHERE_RUNS("run_id"));
  if (prepare(s->db, sql, 0, &st, err, errlen)) goto done;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int r, idx = sqlite3_column_int(st, 1);
    const char *name = (const char *)sqlite3_column_text(st, 2);
    RUN_INDEX(sqlite3_column_int64(st, 0), r);
    if (r < 0 || idx < 0 || idx >= STORE_MAX_VARIANTS) continue;
    rn[r].variant_ok[idx] = !vfilter || (name && !strcmp(name, vfilter));
    if (idx + 1 > rn[r].nvariants) rn[r].nvariants = idx + 1;
  }
  if (rc != SQLITE_DONE) goto sqlfail;
  sqlite3_finalize(st);
  st = NULL;
  /* The scan. */
  snprintf(sql, cap + 256,
           "SELECT run_id, series_no, game_no, variant_idx, a_idx, b_idx, winner, south_idx"
           " FROM games%s%s%s ORDER BY run_id, series_no, game_no",
           WHERE_RUNS("run_id"));
#undef WHERE_RUNS
  if (prepare(s->db, sql, 0, &st, err, errlen)) goto done;
  int64_t prev_run = -1, cur_run = -1;
  int prev_series = -1, prev_game = -1, prev_pts = 0, cur_series = -1, r = -1, swap = 0;
  pair_acc *acc = NULL; /* the current series' pair; NULL: the series is not counted */
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int64_t run = sqlite3_column_int64(st, 0);
    int series = sqlite3_column_int(st, 1), game_no = sqlite3_column_int(st, 2);
    int vidx = sqlite3_column_int(st, 3), a = sqlite3_column_int(st, 4),
        b = sqlite3_column_int(st, 5);
    if (run != cur_run) RUN_INDEX(run, r);
    if (r >= 0) {
      /* A database is input: every row is checked, a bad one named, never
       * skipped in silence. */
      if (vidx < 0 || vidx >= rn[r].nvariants) {
        error_set(err, errlen, "store: run %" PRId64 " game %d (series %d): variant_idx %d out of range 0..%d",
             run, game_no, series, vidx, rn[r].nvariants - 1);
        goto done;
      }
      if (a < 0 || a >= rn[r].nplayers || b < 0 || b >= rn[r].nplayers ||
          rn[r].name_id[a] < 0 || rn[r].name_id[b] < 0) {
        error_set(err, errlen,
             "store: run %" PRId64 " game %d (series %d): player indices a_idx %d, b_idx %d out of "
             "range 0..%d",
             run, game_no, series, a, b, rn[r].nplayers - 1);
        goto done;
      }
    }
    if (run != cur_run || series != cur_series) {
      /* A new series: its run, variant and players, once. */
      cur_run = run;
      cur_series = series;
      acc = NULL;
      if (r < 0) continue; /* a game of no run: the foreign key forbids it */
      if (!rn[r].variant_ok[vidx]) continue;
      int ia = rn[r].name_id[a], ib = rn[r].name_id[b];
      if (ia == ib) continue; /* a player against itself says nothing */
      swap = strcmp(names.v[ia], names.v[ib]) > 0;
      if (!(acc = pair_find(&map, swap ? ib : ia, swap ? ia : ib))) goto oom;
    }
    if (!acc) continue;
    /* Points of A in halves, then from the side of the first name. */
    int winner = sqlite3_column_int(st, 6), south = sqlite3_column_int(st, 7);
    if (winner < -1 || winner > 1) {
      error_set(err, errlen, "store: run %" PRId64 " game %d (series %d): winner %d is not -1, 0 or 1", run,
           game_no, series, winner);
      goto done;
    }
    int pts = winner < 0 ? 1 : (winner == 0) == (south == sqlite3_column_int(st, 4)) ? 2 : 0;
    int mine = swap ? 2 - pts : pts;
    if (mine == 2) acc->c.wins++;
    else if (mine == 1) acc->c.draws++;
    else acc->c.losses++;
    if (game_no % 2 == 1 && run == prev_run && series == prev_series && game_no == prev_game + 1) {
      int pair = swap ? 4 - (prev_pts + pts) : prev_pts + pts;
      acc->c.penta[pair]++;
      if (pair == 2 && pts != 1) acc->c.pairs_wl++;
    }
    prev_run = run;
    prev_series = series;
    prev_game = game_no;
    prev_pts = pts;
  }
#undef RUN_INDEX
  if (rc != SQLITE_DONE) goto sqlfail;
  /* Out: the pairs with their names, sorted. */
  if (map.n) {
    store_pair_count *v = malloc(map.n * sizeof *v);
    if (!v) goto oom;
    size_t k = 0;
    for (size_t i = 0; i < map.cap; i++) {
      if (map.v[i].a < 0) continue;
      v[k] = map.v[i].c;
      snprintf(v[k].a, sizeof v[k].a, "%s", names.v[map.v[i].a]);
      snprintf(v[k].b, sizeof v[k].b, "%s", names.v[map.v[i].b]);
      k++;
    }
    qsort(v, k, sizeof *v, pair_cmp);
    *out = v;
    *n = (int)k;
  }
  ret = 0;
  goto done;
oom:
  error_set(err, errlen, "store: out of memory aggregating games");
  goto done;
sqlfail:
  db_fail(s->db, err, errlen, "cannot aggregate games");
done:
  sqlite3_finalize(st);
  free(rn);
  free(names.v);
  free(map.v);
  free(in);
  free(sql);
  return ret;
}

/* ---------------------------------------------------------------- tuning */

int store_tuning_insert(store *s, const store_tuning *t, char *err, size_t errlen) {
  char created[sizeof t->created];
  now_iso8601(created, sizeof created);
  sqlite3_stmt *st;
  if (prepare(s->db,
              "INSERT INTO tuning (run_id, iteration, kind, weights, step, wins, draws, losses,"
              " value, lo, hi, games, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
              " ?11, ?12, ?13)",
              0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, t->run_id);
  if (!rc) rc = sqlite3_bind_int(st, 2, t->iteration);
  if (!rc) rc = bind_text(st, 3, t->kind, sizeof t->kind);
  if (!rc) rc = bind_text(st, 4, t->weights, sizeof t->weights);
  if (!rc) rc = bind_text(st, 5, t->step, sizeof t->step);
  if (!rc) rc = sqlite3_bind_int64(st, 6, t->wins);
  if (!rc) rc = sqlite3_bind_int64(st, 7, t->draws);
  if (!rc) rc = sqlite3_bind_int64(st, 8, t->losses);
  if (!rc) rc = sqlite3_bind_double(st, 9, t->value);
  if (!rc) rc = sqlite3_bind_double(st, 10, t->lo);
  if (!rc) rc = sqlite3_bind_double(st, 11, t->hi);
  if (!rc) rc = sqlite3_bind_int64(st, 12, t->games);
  if (!rc) rc = bind_text(st, 13, created, sizeof created);
  if (!rc) rc = sqlite3_step(st);
  int ret = 0;
  if (rc != SQLITE_DONE) {
    error_set(err, errlen, "store: cannot store tuning iteration %d of run %lld: %s", t->iteration,
         (long long)t->run_id, sqlite3_errmsg(s->db));
    ret = -1;
  }
  sqlite3_finalize(st);
  return ret;
}

int store_tuning_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_tuning *t),
                         void *ctx, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (prepare(s->db,
              "SELECT iteration, kind, weights, step, wins, draws, losses, value, lo, hi, games,"
              " created FROM tuning WHERE run_id = ?1"
              " ORDER BY iteration = -1, iteration",
              0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, run_id), ret = 0;
  if (rc != SQLITE_OK) {
    ret = db_fail(s->db, err, errlen, "cannot read the tuning iterations");
    goto done;
  }
  store_tuning *x = malloc(sizeof *x);
  if (!x) {
    error_set(err, errlen, "store: out of memory");
    ret = -1;
    goto done;
  }
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    memset(x, 0, sizeof *x);
    x->run_id = run_id;
    x->iteration = sqlite3_column_int(st, 0);
    column_copy(st, 1, x->kind, sizeof x->kind);
    column_copy(st, 2, x->weights, sizeof x->weights);
    column_copy(st, 3, x->step, sizeof x->step);
    x->wins = sqlite3_column_int64(st, 4);
    x->draws = sqlite3_column_int64(st, 5);
    x->losses = sqlite3_column_int64(st, 6);
    x->value = sqlite3_column_double(st, 7);
    x->lo = sqlite3_column_double(st, 8);
    x->hi = sqlite3_column_double(st, 9);
    x->games = sqlite3_column_int64(st, 10);
    column_copy(st, 11, x->created, sizeof x->created);
    if (fn(ctx, x)) break;
  }
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    ret = db_fail(s->db, err, errlen, "cannot read the tuning iterations");
  free(x);
done:
  sqlite3_finalize(st);
  return ret;
}

/* --------------------------------------------------------------- metrics */

int store_metrics_replace(store *s, int64_t run_id, const store_metric *m, int n, char *err,
                          size_t errlen) {
  char created[32];
  now_iso8601(created, sizeof created);
  sqlite3_stmt *del = NULL, *st = NULL;
  if (step_done(s->db, s->begin, err, errlen, "cannot start a transaction")) return -1;
  if (prepare(s->db, "DELETE FROM variant_metrics WHERE run_id = ?1", 0, &del, err, errlen) ||
      prepare(s->db,
              "INSERT INTO variant_metrics (run_id, variant_idx, metric, value, lo, hi, n, created)"
              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
              0, &st, err, errlen))
    goto fail;
  if (sqlite3_bind_int64(del, 1, run_id) != SQLITE_OK || sqlite3_step(del) != SQLITE_DONE) {
    db_fail(s->db, err, errlen, "cannot replace the study's metrics");
    goto fail;
  }
  for (int i = 0; i < n; i++) {
    const store_metric *x = &m[i];
    int rc = sqlite3_bind_int64(st, 1, run_id);
    if (!rc) rc = sqlite3_bind_int(st, 2, x->variant_idx);
    if (!rc) rc = bind_text(st, 3, x->metric, sizeof x->metric);
    if (!rc) rc = sqlite3_bind_double(st, 4, x->value);
    if (!rc) rc = x->has_interval ? sqlite3_bind_double(st, 5, x->lo) : sqlite3_bind_null(st, 5);
    if (!rc) rc = x->has_interval ? sqlite3_bind_double(st, 6, x->hi) : sqlite3_bind_null(st, 6);
    if (!rc) rc = sqlite3_bind_int64(st, 7, x->n);
    if (!rc) rc = bind_text(st, 8, created, sizeof created);
    if (!rc) rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) {
      error_set(err, errlen, "store: cannot store metric %s of variant %d: %s", x->metric, x->variant_idx,
           sqlite3_errmsg(s->db));
      goto fail;
    }
    sqlite3_reset(st);
  }
  sqlite3_finalize(del);
  sqlite3_finalize(st);
  del = st = NULL;
  if (step_done(s->db, s->commit, err, errlen, "cannot commit the study's metrics")) goto fail;
  return 0;
fail:
  sqlite3_finalize(del);
  sqlite3_finalize(st);
  rollback(s);
  return -1;
}

int store_metrics_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const store_metric *m),
                          void *ctx, char *err, size_t errlen) {
  sqlite3_stmt *st;
  if (prepare(s->db,
              "SELECT variant_idx, metric, value, lo, hi, n FROM variant_metrics"
              " WHERE run_id = ?1 ORDER BY variant_idx, metric",
              0, &st, err, errlen))
    return -1;
  int rc = sqlite3_bind_int64(st, 1, run_id), ret = 0;
  if (rc != SQLITE_OK) {
    ret = db_fail(s->db, err, errlen, "cannot read the study's metrics");
    goto done;
  }
  store_metric x;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    memset(&x, 0, sizeof x);
    x.variant_idx = sqlite3_column_int(st, 0);
    column_copy(st, 1, x.metric, sizeof x.metric);
    x.value = sqlite3_column_double(st, 2);
    x.has_interval = sqlite3_column_type(st, 3) != SQLITE_NULL;
    x.lo = sqlite3_column_double(st, 3);
    x.hi = sqlite3_column_double(st, 4);
    x.n = sqlite3_column_int64(st, 5);
    if (fn(ctx, &x)) break;
  }
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    ret = db_fail(s->db, err, errlen, "cannot read the study's metrics");
done:
  sqlite3_finalize(st);
  return ret;
}
