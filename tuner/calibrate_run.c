/* calibrate_run.c: a calibration as a stored run: its settings table, its checks, its run, its pairings kept in the store (calibration_pairs), its resume. */
#include "tuner/calibrate_run.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "players/level.h"
#include "players/player.h"
#include "run/study_run.h"
#include "run/tournament.h"
#include "store/store_sql.h"

#define T tuner_calibrate_options
const settings_key tuner_calibrate_settings[] = {
    SETTINGS_K_TEXT("base", T, base, "SPEC", NULL, "the player whose knob is set",
                    SETTINGS_REQUIRED),
    SETTINGS_K_TEXT("knob", T, knob, "KEY", NULL, "the option of SPEC to calibrate",
                    SETTINGS_REQUIRED),
    SETTINGS_K_TEXT("range", T, range, "LO:HI", NULL, "the knob's values searched",
                    SETTINGS_REQUIRED),
    SETTINGS_K_TEXT("levels", T, levels, "'easy=E1;medium=E2;...'", NULL,
                    "the levels' target Elos", SETTINGS_REQUIRED),
    SETTINGS_K_TEXT("anchor", T, anchor, "SPEC=ELO", NULL, "the player that sets the scale",
                    SETTINGS_REQUIRED),
    SETTINGS_K_INT("games", T, games, 2, 1000000, "N", "20", "games a measure plays a reference",
                   0),
    SETTINGS_K_INT("max-games", T, max_games, 2, 10000000, "M", NULL,
                   "at most M games a measure plays a reference, by default 8N", 0),
    SETTINGS_K_INT("ref-games", T, ref_games, 2, 1000000, "R", NULL,
                   "games a pairing of the reference pool, by default 2N", 0),
    SETTINGS_K_INT("verify-games", T, verify_games, 2, 1000000, "V", NULL,
                   "games a pairing of the verification, by default 2N", 0),
    SETTINGS_K_INT("refine", T, refine, 0, TUNER_CAL_MAX_ROUNDS - 1, "R", "0",
                   "rounds of refinement: each level's knob moved by what the verification "
                   "measured among its players, and the round robin played again",
                   0),
    SETTINGS_K_INT("seed", T, seed, 0, LLONG_MAX, "S", "1", "the run's seed", 0),
    SETTINGS_K_TEXT("variant", T, variant, "V", "abapa", "rule variant", 0),
    SETTINGS_K_TEXT("openings", T, openings, "random:PLIES", "random:2", "the openings", 0),
    SETTINGS_K_TEXT("pool", T, pool, "'SPEC;...'", NULL, "more reference players", 0),
    SETTINGS_K_INT("ladder", T, ladder, 0, 9, "K", "3", "copies of SPEC in the reference pool", 0),
    SETTINGS_K_FLAG("log", T, log_scale, "spread the ladder log-spaced"),
    SETTINGS_K_REAL("tolerance", T, tolerance, 1, 2000, "E", "50",
                    "Elo a verified level may miss by", 0),
    /* 0 (not given) is calibrate_run's rule: checked to 5..2000 when given. */
    SETTINGS_K_REAL("se", T, se, 5, 2000, "E", NULL,
                    "the standard error a measure needs, by default the spacing of the targets / 4 "
                    "[5..2000]",
                    SETTINGS_POSITIVE),
    SETTINGS_K_TEXT("out", T, out, "FILE", "results/levels.txt", "the levels file", 0),
    SETTINGS_K_TEXT("chart", T, chart, "STEM", NULL,
                    "draw the Elo against the knob to STEM.png/.svg", 0),
    SETTINGS_K_FLAG("quiet", T, quiet, "no progress on stderr"),
    SETTINGS_K_FLAG("json", T, json, "the summary as JSON instead of the tables (docs/JSON.md)"),
    SETTINGS_END,
};
#undef T

/* ---------------------------------------------------------------- checks */

static int parse_range(const char *text, double *lo, double *hi, char *err, size_t errlen) {
  const char *colon = strchr(text, ':');
  char *end;
  if (!colon) return error_set(err, errlen, "--range is '%s'; expected LO:HI", text), -1;
  errno = 0;
  *lo = strtod(text, &end);
  if (errno || end != colon || end == text)
    return error_set(err, errlen, "--range is '%s'; LO is not a number", text), -1;
  *hi = strtod(colon + 1, &end);
  if (errno || *end || end == colon + 1)
    return error_set(err, errlen, "--range is '%s'; HI is not a number", text), -1;
  if (!isfinite(*lo) || !isfinite(*hi) || !(*lo < *hi))
    return error_set(err, errlen, "--range is '%s'; expected LO < HI", text), -1;
  return 0;
}

/* study_split_list's callback: one --pool spec (a level stands for its spec). */
typedef struct pool_add {
  tuner_calibrate_setup *s;
  char *err;
  size_t errlen;
} pool_add;

static int add_pool(void *ctx, const char *spec) {
  pool_add *p = ctx;
  tuner_calibrate_setup *s = p->s;
  if (s->c.npool == CALIBRATE_MAX_REFS - 1)
    return error_set(p->err, p->errlen, "--pool: more than %d players", CALIBRATE_MAX_REFS - 1),
           -1;
  char resolved[LEVEL_SPEC_MAX + 512], e[ERROR_MAX];
  if (level_resolve(spec, resolved, sizeof resolved, e, sizeof e))
    return error_set(p->err, p->errlen, "--pool: %s", e), -1;
  size_t len = strlen(resolved);
  if (len >= sizeof s->pool_spec[0])
    return error_set(p->err, p->errlen, "--pool: spec too long"), -1;
  player_config cfg;
  if (player_parse_spec(resolved, &cfg, e, sizeof e))
    return error_set(p->err, p->errlen, "--pool: %s", e), -1;
  player_config_free(&cfg);
  memcpy(s->pool_spec[s->c.npool], resolved, len + 1);
  s->pool[s->c.npool] = s->pool_spec[s->c.npool];
  s->c.npool++;
  return 0;
}

/* The anchor and the pool: parsed, none twice, none named as a level. */
static int check_players(tuner_calibrate_setup *s, char *err, size_t errlen) {
  tuner_calibrate_config *c = &s->c;
  char e[ERROR_MAX];
  if (calibrate_parse_anchor(s->o.anchor, s->anchor_spec, sizeof s->anchor_spec, &c->anchor_elo,
                             err, errlen))
    return -1;
  player_config pc;
  if (player_parse_spec(s->anchor_spec, &pc, e, sizeof e))
    return error_set(err, errlen, "--anchor: %s", e), -1;
  player_config_free(&pc);
  c->anchor_spec = s->anchor_spec;
  c->pool = s->pool;
  pool_add pa = {s, err, errlen};
  if (s->o.pool && study_split_list(s->o.pool, add_pool, &pa)) return -1;
  size_t n = 0;
  s->pool_text[0] = 0;
  for (int i = 0; i < c->npool; i++) {
    if (!strcmp(s->pool[i], s->anchor_spec))
      return error_set(err, errlen, "--pool: '%s' is the anchor already", s->pool[i]), -1;
    for (int j = 0; j < i; j++)
      if (!strcmp(s->pool[i], s->pool[j]))
        return error_set(err, errlen, "--pool: '%s' is named twice", s->pool[i]), -1;
    for (int l = 0; l < c->nlevels; l++)
      if (!strcmp(s->pool[i], c->level[l].name))
        return error_set(err, errlen, "--pool: '%s' is also a level name", s->pool[i]), -1;
    n += (size_t)snprintf(s->pool_text + n, sizeof s->pool_text - n, "%s%s", i ? ";" : "",
                          s->pool[i]);
  }
  if (c->npool) s->o.pool = s->pool_text;
  for (int l = 0; l < c->nlevels; l++)
    if (!strcmp(s->anchor_spec, c->level[l].name))
      return error_set(err, errlen, "--anchor: '%s' is also a level name", s->anchor_spec), -1;
  return 0;
}

/* The variant, the openings, the game counts. */
static int check_games(tuner_calibrate_setup *s, char *err, size_t errlen) {
  tuner_calibrate_options *o = &s->o;
  tuner_calibrate_config *c = &s->c;
  char e[ERROR_MAX], opath[8];
  if (variant_parse(o->variant, &c->v, err, errlen)) return -1;
  e[0] = 0;
  if (tournament_parse_openings(o->openings, &c->opening_plies, NULL, opath, sizeof opath, e,
                                sizeof e) ||
      c->opening_plies < 0)
    return error_set(err, errlen, "--openings: random:PLIES only%s%s", e[0] ? ": " : "", e), -1;
  if (o->se > 0 && (o->se < 5 || o->se > 2000))
    return error_set(err, errlen, "--se is '%g'; expected a number from 5 to 2000", o->se), -1;
  if (!o->max_games) o->max_games = 8 * o->games;
  if (o->max_games < o->games)
    return error_set(err, errlen, "--max-games (%lld) is below --games (%lld)", o->max_games,
                     o->games),
           -1;
  if (!o->verify_games) o->verify_games = 2 * o->games;
  if (!o->ref_games) o->ref_games = 2 * o->games;
  c->base = o->base;
  c->knob = o->knob;
  c->log_scale = o->log_scale;
  c->ladder = (int)o->ladder;
  c->games = o->games;
  c->max_games = o->max_games;
  c->ref_games = o->ref_games;
  c->verify_games = o->verify_games;
  c->tolerance = o->tolerance;
  c->refine = (int)o->refine;
  c->se = o->se;
  c->threads = (int)o->threads;
  c->seed = (uint64_t)o->seed;
  return 0;
}

int tuner_calibrate_check(tuner_calibrate_setup *s, char *err, size_t errlen) {
  tuner_calibrate_options *o = &s->o;
  tuner_calibrate_config *c = &s->c;
  int integer;
  memset(c, 0, sizeof *c);
  if (!o->base || !o->knob || !o->range || !o->levels || !o->anchor)
    return error_set(err, errlen,
                     "--base, --knob, --range, --levels and --anchor are needed (see --help)"),
           -1;
  if (parse_range(o->range, &c->lo, &c->hi, err, errlen) ||
      calibrate_check_knob(o->base, o->knob, c->lo, c->hi, &integer, err, errlen))
    return -1;
  if (o->log_scale && !(c->lo > 0))
    return error_set(err, errlen, "--log needs LO > 0 (got %g)", c->lo), -1;
  if (calibrate_parse_levels(o->levels, c->level, &c->nlevels, err, errlen) ||
      check_players(s, err, errlen))
    return -1;
  return check_games(s, err, errlen);
}

/* ---------------------------------------------------------------- the run */

int tuner_calibrate_describe(const tuner_calibrate_setup *s, const char *command, store_run *run,
                             char *err, size_t errlen) {
  const tuner_calibrate_options *o = &s->o;
  char format[128], openings[32], vname[256];
  run->kind = STORE_CALIBRATION;
  snprintf(format, sizeof format, "games:%lld,max-games:%lld", o->games, o->max_games);
  snprintf(openings, sizeof openings, "random:%d", s->c.opening_plies);
  variant_format(&s->c.v, vname, sizeof vname);
  run->rounds = 1;
  run->threads = (int)o->threads;
  run->seed = (uint64_t)o->seed;
  int bad = store_run_set(&run->name, "calibration") || store_run_set(&run->format, format) ||
            store_run_set(&run->openings, openings) ||
            store_run_set(&run->command, command ? command : "") ||
            store_run_add_player(run, s->anchor_spec, s->anchor_spec) ||
            store_run_add_variant(run, vname);
  for (int i = 0; i < s->c.npool && !bad; i++)
    bad = store_run_add_player(run, s->pool[i], s->pool[i]);
  if (bad) return error_set(err, errlen, "out of memory"), -1;
  return settings_save(tuner_calibrate_settings, o, run, err, errlen);
}

int tuner_calibrate_load(store *db, int64_t run_id, tuner_calibrate_setup *s, char *err,
                         size_t errlen) {
  store_run *run = &s->run;
  if (store_run_load(db, run_id, run, err, errlen)) return -1;
  if (run->kind != STORE_CALIBRATION)
    return error_set(err, errlen, "run %" PRId64 " is a %s, not a calibration", run_id,
                     store_kind_name(run->kind)),
           -1;
  if (settings_load(tuner_calibrate_settings, run, &s->o, err, errlen)) return -1;
  s->o.threads = run->threads;
  return tuner_calibrate_check(s, err, errlen);
}

void tuner_calibrate_setup_free(tuner_calibrate_setup *s) {
  store_run_free(&s->run);
  memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------------- the pairings */

/* Each pairing's result, as the calibration plays them (step 0, 1, ...):
 * a stopped calibration recalls them instead of playing them again. */
#define PAIRS_SQL                                                                                  \
  "CREATE TABLE calibration_pairs (\n"                                              \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  step INTEGER NOT NULL CHECK (step >= 0),\n"                                                  \
  "  spec_a TEXT NOT NULL,\n"                                                                     \
  "  spec_b TEXT NOT NULL,\n"                                                                     \
  "  first_pair INTEGER NOT NULL CHECK (first_pair >= 0),\n"                                      \
  "  pairs INTEGER NOT NULL CHECK (pairs >= 0),\n"                                                \
  "  wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,\n"                   \
  "  penta0 INTEGER NOT NULL, penta1 INTEGER NOT NULL, penta2 INTEGER NOT NULL,\n"                \
  "  penta3 INTEGER NOT NULL, penta4 INTEGER NOT NULL, penta_wl INTEGER NOT NULL,\n"              \
  "  forfeits INTEGER NOT NULL,\n"                                                                \
  "  PRIMARY KEY (run_id, step)\n"                                                                \
  ") WITHOUT ROWID;\n"

const store_tables tuner_calibrate_tables = {"tuner/calibrate_run.c", "calibration_pairs",
                                             PAIRS_SQL};

typedef struct journal {
  sqlite3 *db;
  int64_t run_id;
  sqlite3_stmt *get, *put;
} journal;

static int sql_error(sqlite3 *db, const char *what, char *err, size_t errlen) {
  return error_set(err, errlen, "store: %s: %s", what, sqlite3_errmsg(db)), -1;
}

static int recall(void *ctx, long long step, const pairs_job *job, pairs_result *res, char *err,
                  size_t errlen) {
  journal *j = ctx;
  sqlite3_stmt *st = j->get;
  sqlite3_reset(st);
  sqlite3_bind_int64(st, 1, j->run_id);
  sqlite3_bind_int64(st, 2, step);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_DONE) return 0;
  if (rc != SQLITE_ROW) return sql_error(j->db, "cannot read the calibration's pairings", err, errlen);
  const char *a = (const char *)sqlite3_column_text(st, 0);
  const char *b = (const char *)sqlite3_column_text(st, 1);
  if (!a || !b || strcmp(a, job->spec_a) || strcmp(b, job->spec_b) ||
      sqlite3_column_int64(st, 2) != job->first_pair || sqlite3_column_int64(st, 3) != job->pairs)
    return error_set(err, errlen,
                     "run %" PRId64 ": stored pairing %lld is %s against %s, not %s against %s "
                     "(pairs %d from %d): the calibration does not replay as it was stored",
                     j->run_id, step, a ? a : "?", b ? b : "?", job->spec_a, job->spec_b,
                     job->pairs, job->first_pair),
           -1;
  memset(res, 0, sizeof *res);
  res->wins = sqlite3_column_int64(st, 4);
  res->draws = sqlite3_column_int64(st, 5);
  res->losses = sqlite3_column_int64(st, 6);
  for (int k = 0; k < 5; k++) res->penta[k] = sqlite3_column_int64(st, 7 + k);
  res->penta_wl = sqlite3_column_int64(st, 12);
  res->forfeits = sqlite3_column_int64(st, 13);
  return 1;
}

static int record(void *ctx, long long step, const pairs_job *job, const pairs_result *res,
                  char *err, size_t errlen) {
  journal *j = ctx;
  sqlite3_stmt *st = j->put;
  long long v[] = {job->first_pair, job->pairs,    res->wins,     res->draws,
                   res->losses,     res->penta[0], res->penta[1], res->penta[2],
                   res->penta[3],   res->penta[4], res->penta_wl, res->forfeits};
  sqlite3_reset(st);
  int bad = sqlite3_bind_int64(st, 1, j->run_id) != SQLITE_OK ||
            sqlite3_bind_int64(st, 2, step) != SQLITE_OK ||
            sqlite3_bind_text(st, 3, job->spec_a, -1, SQLITE_STATIC) != SQLITE_OK ||
            sqlite3_bind_text(st, 4, job->spec_b, -1, SQLITE_STATIC) != SQLITE_OK;
  for (int k = 0; k < 12 && !bad; k++) bad = sqlite3_bind_int64(st, 5 + k, v[k]) != SQLITE_OK;
  if (bad || sqlite3_step(st) != SQLITE_DONE)
    return sql_error(j->db, "cannot store a pairing of the calibration", err, errlen);
  sqlite3_reset(st);
  return 0;
}

static int journal_open(store *db, int64_t run_id, journal *j, char *err, size_t errlen) {
  memset(j, 0, sizeof *j);
  j->db = store_sqlite(db);
  j->run_id = run_id;
  if (store_tables_ensure(db, &tuner_calibrate_tables, err, errlen)) return -1;
  if (sqlite3_prepare_v2(j->db,
                         "SELECT spec_a, spec_b, first_pair, pairs, wins, draws, losses, penta0,"
                         " penta1, penta2, penta3, penta4, penta_wl, forfeits"
                         " FROM calibration_pairs WHERE run_id = ?1 AND step = ?2",
                         -1, &j->get, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2(j->db,
                         "INSERT INTO calibration_pairs (run_id, step, spec_a, spec_b, first_pair,"
                         " pairs, wins, draws, losses, penta0, penta1, penta2, penta3, penta4,"
                         " penta_wl, forfeits) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                         " ?11, ?12, ?13, ?14, ?15, ?16)",
                         -1, &j->put, NULL) != SQLITE_OK)
    return sql_error(j->db, "the calibration's pairings", err, errlen);
  return 0;
}

static void journal_close(journal *j) {
  sqlite3_finalize(j->get);
  sqlite3_finalize(j->put);
}

int tuner_calibrate_play(store *db, int64_t run_id, tuner_calibrate_setup *s,
                         const tuner_calibrate_observer *obs, atomic_int *stop,
                         tuner_calibration *out, char *err, size_t errlen) {
  journal j;
  calibrate_journal cj = {recall, record, &j};
  memset(out, 0, sizeof *out);
  int rc = journal_open(db, run_id, &j, err, errlen);
  if (!rc) rc = store_run_status(db, run_id, STORE_RUNNING, err, errlen);
  if (!rc) {
    s->c.journal = &cj;
    rc = tuner_calibrate(&s->c, obs, stop, out, err, errlen);
    s->c.journal = NULL;
    store_status st = !rc ? STORE_FINISHED : stop && atomic_load(stop) ? STORE_INTERRUPTED
                                                                        : STORE_FAILED;
    char e[ERROR_MAX];
    if (store_run_status(db, run_id, st, rc ? e : err, rc ? sizeof e : errlen)) rc = -1;
  }
  journal_close(&j);
  return rc;
}

int tuner_calibrate_resume(store *db, int64_t run_id, int threads,
                           const tuner_calibrate_observer *obs, atomic_int *stop,
                           tuner_calibrate_setup *s, tuner_calibration *out, char *err,
                           size_t errlen) {
  memset(out, 0, sizeof *out);
  if (tuner_calibrate_load(db, run_id, s, err, errlen)) return -1;
  if (threads > 0) s->c.threads = threads, s->o.threads = threads;
  int rc = store_run_lock(db, run_id, err, errlen);
  if (rc) return rc;
  rc = tuner_calibrate_play(db, run_id, s, obs, stop, out, err, errlen);
  char e[ERROR_MAX];
  store_run_unlock(db, run_id, e, sizeof e);
  return rc;
}
