/* migrate.c: upgrading a database of an older schema, one version at a time in one transaction (docs/SCHEMA.md): the settings of schema-4 runs from their command lines, and the specs of older runs made to say the defaults they played. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"
#include "players/mcts.h"
#include "players/minimax.h"
#include "players/tablebase.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (store_sql_strings_add(&v, k, w)) {
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
  if (store_sql_exec(db, store_sql_v5, err, errlen)) return -1;
  sqlite3_stmt *st = NULL, *ins = NULL;
  store_run r;
  memset(&r, 0, sizeof r);
  int rc, ret = -1;
  if (store_sql_prepare(db, "SELECT id, kind, openings, command FROM runs ORDER BY id", 0, &st, err,
              errlen) ||
      store_sql_prepare(db, "INSERT INTO run_config (run_id, key, type, value) VALUES (?1, ?2, ?3, ?4)", 0,
              &ins, err, errlen))
    goto done;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    memset(&r, 0, sizeof r);
    r.id = sqlite3_column_int64(st, 0);
    const char *kind = (const char *)sqlite3_column_text(st, 1);
    /* A kind this code does not know gets no settings (reading the run
     * later says what is wrong with it; the file still opens). */
    if (store_kind_parse(kind, &r.kind)) continue;
    if (!(r.openings = store_sql_column_dup(st, 2)) || !(r.command = store_sql_column_dup(st, 3)) ||
        legacy_config(&r)) {
      error_set(err, errlen, "store: out of memory migrating run %" PRId64, r.id);
      goto done;
    }
    for (int i = 0; i < r.nconfig; i++) {
      if (store_sql_bind_config(ins, r.id, i, &r) || sqlite3_step(ins) != SQLITE_DONE) {
        store_sql_fail(db, err, errlen, "cannot store the settings of an old run");
        goto done;
      }
      sqlite3_reset(ins);
    }
    store_run_free(&r);
  }
  if (rc != SQLITE_DONE) {
    store_sql_fail(db, err, errlen, "cannot read the old runs");
    goto done;
  }
  ret = 0;
done:
  store_run_free(&r);
  sqlite3_finalize(st);
  sqlite3_finalize(ins);
  return ret;
}

/* SQL's view of a store_spec_rule (its user data): the spec, or the new one. */
static void spec_by_rule(sqlite3_context *cx, int argc, sqlite3_value **argv) {
  (void)argc;
  store_spec_rule rule = (store_spec_rule)(uintptr_t)sqlite3_user_data(cx);
  const char *spec = (const char *)sqlite3_value_text(argv[0]);
  char *now = NULL;
  int rc = spec ? rule(spec, &now) : 0;
  if (rc < 0) sqlite3_result_error_nomem(cx);
  else if (rc > 0) sqlite3_result_text(cx, now, -1, free);
  else sqlite3_result_value(cx, argv[0]);
}

/* Rewrites every players.spec, and the run_config values that `where`
 * selects (a condition on the row), by rule, as oware_spec(value); and
 * first, while their base is as it was, the calibrations' anchors, pools
 * and stored pairings (migrate_calibration.c). */
static int rewrite_specs(sqlite3 *db, store_spec_rule rule, const char *where, char *err,
                         size_t errlen) {
  if (store_sql_calibrations_rewrite(db, rule, where, err, errlen)) return -1;
  if (sqlite3_create_function_v2(db, "oware_spec", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                 (void *)(uintptr_t)rule, spec_by_rule, NULL, NULL,
                                 NULL) != SQLITE_OK)
    return store_sql_fail(db, err, errlen, "cannot migrate the player specs");
  char *sql = sqlite3_mprintf("UPDATE players SET spec = oware_spec(spec)"
                              " WHERE spec IS NOT oware_spec(spec);\n"
                              "UPDATE run_config SET value = oware_spec(value)"
                              " WHERE type = 'text' AND (%s) AND value IS NOT oware_spec(value);",
                              where);
  int rc = sql ? store_sql_exec(db, sql, err, errlen)
               : (error_set(err, errlen, "store: out of memory migrating the player specs"), -1);
  sqlite3_free(sql);
  sqlite3_create_function_v2(db, "oware_spec", 1, SQLITE_UTF8, NULL, NULL, NULL, NULL, NULL);
  return rc;
}

/* The run settings whose minimax specs played eval=auto's network (beside
 * every players.spec): a network training's `search`, and a calibration's
 * `base` when its knob is not a weight (steps 12 → 13 and 13 → 14). */
#define AUTO_NET_SETTINGS                                                                          \
  "key = 'search' OR (key = 'base' AND run_id IN (SELECT run_id FROM run_config WHERE key ="      \
  " 'knob' AND value IN ('depth', 'nodes', 'movetime', 'noise')))"
/* Every run setting that holds a spec: a tuning run's `player`, a
 * calibration's `base`, a network training's `search`. */
#define EVERY_SPEC_SETTING "key IN ('player', 'base', 'search')"

/* A step that changes no table: a player's default changed, and the runs
 * stored before say in their specs what they played with, so that a resume
 * plays the same games. Which specs change and how is the players' business
 * (players/tablebase.h, players/minimax.h, players/mcts.h); `where` selects
 * the run settings rewritten beside every players.spec (rewrite_specs). */
typedef struct spec_step {
  long long from; /* the step from schema `from` to from + 1 */
  store_spec_rule rule;
  const char *where;
} spec_step;

static const spec_step spec_steps[] = {
    /* 6 → 7: minimax and mcts read the endgame tables by default
     * (egdb=auto); the runs before played with egdb=off, the default then. */
    {6, tablebase_spec_off_by_default, "key = 'player'"},
    /* 8 → 9: minimax evaluates with the built-in network by default
     * (eval=auto); the runs before played the linear evaluation. A tuning
     * run of the loop of generations names its evaluation in every spec it
     * stores, and adds eval= to its `player` itself: left as it is. */
    {8, minimax_spec_linear_by_default,
     "key IN ('base', 'search') OR (key = 'player' AND run_id IN"
     " (SELECT id FROM runs WHERE kind IN ('spsa', 'texel')))"},
    /* 9 → 10: an mcts spec's own movetime= searches for that time, where
     * before the playouts' default (10000) stopped it first. */
    {9, mcts_spec_playouts_by_default, EVERY_SPEC_SETTING},
    /* 10 → 11: mcts on a clock spends its own even budget by default
     * (budget=even), where before it took minimax's front-loaded share. */
    {10, mcts_spec_front_by_default, EVERY_SPEC_SETTING},
    /* 11 → 12: minimax checks a search cut short at the cap or on a win
     * with the history in its keys by default (cap_exact=1). */
    {11, minimax_spec_cap_off_by_default, EVERY_SPEC_SETTING},
    /* 12 → 13: eval=auto takes the network net2, where it took net: the
     * runs before say eval=net where auto gave them a network. A tuning
     * run's `player` is left as it is: spsa and texel set weights (the
     * linear evaluation, as before), and the loop of generations names its
     * network in every spec itself. */
    {12, minimax_spec_net1_by_default, AUTO_NET_SETTINGS},
    /* 13 → 14: eval=auto takes net3, where it took net2, in the same specs
     * (the runs of schema 12 and before say eval=net already, and keep it). */
    {13, minimax_spec_net2_by_default, AUTO_NET_SETTINGS},
    /* 15 → 16: minimax prunes by reverse futility by default (rfp=150). */
    {15, minimax_spec_rfp_off_by_default, EVERY_SPEC_SETTING},
    /* 16 → 17: minimax searches the root within aspiration windows (asp=50). */
    {16, minimax_spec_asp_off_by_default, EVERY_SPEC_SETTING},
    /* 17 → 18: minimax reduces the nodes the hash table has no move for
     * (iir=1). */
    {17, minimax_spec_iir_off_by_default, EVERY_SPEC_SETTING},
};

/* The spec step from schema v, or NULL. */
static const spec_step *spec_step_from(long long v) {
  for (size_t i = 0; i < sizeof spec_steps / sizeof spec_steps[0]; i++)
    if (spec_steps[i].from == v) return &spec_steps[i];
  return NULL;
}

/* Upgrades an oware database of an older schema, one version at a time,
 * all in one transaction (docs/SCHEMA.md). Step v upgrades version v to
 * v + 1: 1 → 2 adds the ratings table, 4 → 5 the run settings, openings,
 * files and locks (migrate_v5), 7 → 8 the games' move_records column
 * (NULL: not recorded), 14 → 15 a calibration's anchor, pool and stored
 * pairings named in the specs the steps gave its players and base
 * (migrate_calibration.c); the steps from 6, 8 to 13 and from 15 on
 * rewrite the specs stored before a player's default changed (spec_steps).
 * The drivers' tables that versions 3
 * (tuning), 4 (variant_metrics) and 6 (the analysis tables) added are
 * theirs: created after the steps when registered
 * (store_tables_register), else when the driver first needs them. */
int store_sql_migrate(sqlite3 *db, const char *path, char *err, size_t errlen) {
  long long v;
  char sql[64];
  if (store_sql_exec(db, "BEGIN IMMEDIATE", err, errlen)) return -1;
  if (store_sql_query_int(db, "PRAGMA user_version", &v) != SQLITE_OK) {
    store_sql_fail(db, err, errlen, path);
    goto fail;
  }
  for (; v < STORE_SCHEMA_VERSION; v++) {
    switch (v) {
    case 1:
      if (store_sql_exec(db, store_sql_ratings, err, errlen)) goto fail;
      break;
    case 2:
    case 3:
    case 5:
      break; /* the drivers' tables: below */
    case 4:
      if (migrate_v5(db, err, errlen)) goto fail;
      break;
    case 7: /* each move's time, score and depth; none in the games before */
      if (store_sql_exec(db, "ALTER TABLE games ADD COLUMN move_records TEXT", err, errlen)) goto fail;
      break;
    case 14:
      if (store_sql_migrate_calibrations(db, err, errlen)) goto fail;
      break;
    default: {
      const spec_step *st = spec_step_from(v);
      if (!st) {
        error_set(err, errlen, "store: no upgrade from schema %lld to %d: %s", v,
                  STORE_SCHEMA_VERSION, path);
        goto fail;
      }
      if (rewrite_specs(db, st->rule, st->where, err, errlen)) goto fail;
    }
    }
  }
  if (store_sql_create_registered(db, err, errlen)) goto fail;
  snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
  if (store_sql_exec(db, sql, err, errlen) || store_sql_exec(db, "COMMIT", err, errlen)) goto fail;
  return 0;
fail:
  if (!sqlite3_get_autocommit(db)) store_sql_exec(db, "ROLLBACK", NULL, 0);
  return -1;
}
