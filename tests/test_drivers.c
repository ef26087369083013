/* test_drivers.c: the tuning and calibration drivers called as a library (no argv): SPSA rows and resume, Texel, validation, a calibration, and a calibration stopped and resumed from the store. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "store/store.h"
#include "run/study_run.h"
#include "run/study_store.h"
#include "tuner/calibration.h"
#include "tuner/calibrate_run.h"
#include "tuner/spsa_run.h"
#include "tuner/texel_run.h"
#include "tuner/tune_run.h"
#include "tuner/tuning.h"
#include "tuner/validate.h"
#include "tuner/tuning_store.h"

#define ERRLEN 1024

static char dir[] = "/tmp/oware-drivers-XXXXXX";

/* A fresh database with one run of that kind. */
static store *open_db(const char *name, store_kind kind, int64_t *id) {
  char path[256], err[ERRLEN];
  snprintf(path, sizeof path, "%s/%s.db", dir, name);
  unlink(path);
  store *db;
  if (store_open(path, 1, &db, err, sizeof err)) fail_msg("store_open: %s", err);
  store_run *r = calloc(1, sizeof *r);
  assert_non_null(r);
  r->kind = kind;
  r->rounds = 1;
  r->threads = 2;
  r->seed = 3;
  assert_int_equal(store_run_set(&r->name, name) || store_run_set(&r->format, "iterations:3") ||
                       store_run_set(&r->openings, "random:8") ||
                       store_run_add_player(r, "minimax:depth=1", "minimax:depth=1") ||
                       store_run_add_variant(r, "abapa"),
                   0);
  if (store_run_create(db, r, err, sizeof err)) fail_msg("store_run_create: %s", err);
  *id = r->id;
  store_run_free(r);
  free(r);
  return db;
}

typedef struct rows {
  int n;
  tuning_row row[8];
} rows;

static int keep_row(void *ctx, const tuning_row *t) {
  rows *r = ctx;
  if (r->n < 8) r->row[r->n++] = *t;
  return 0;
}

static void read_rows(store *db, int64_t id, rows *out) {
  char err[ERRLEN];
  memset(out, 0, sizeof *out);
  if (tuning_store_foreach(db, id, keep_row, out, err, sizeof err)) fail_msg("%s", err);
}

/* The three tuning rows of two runs (a whole one and a resumed one) are
 * the same: weights, steps, results and games. */
static void same_rows(store *db1, int64_t id1, store *db2, int64_t id2, rows *r1, rows *r2) {
  read_rows(db1, id1, r1);
  read_rows(db2, id2, r2);
  assert_int_equal(r1->n, 3);
  assert_int_equal(r2->n, 3);
  for (int k = 0; k < 3; k++) {
    assert_string_equal(r1->row[k].weights, r2->row[k].weights);
    assert_string_equal(r1->row[k].step, r2->row[k].step);
    assert_true(r1->row[k].wins == r2->row[k].wins && r1->row[k].draws == r2->row[k].draws &&
                r1->row[k].losses == r2->row[k].losses && r1->row[k].games == r2->row[k].games);
  }
}

static tuner_spsa_config spsa_config3(void) {
  tuner_spsa_config c;
  memset(&c, 0, sizeof c);
  c.spec = "minimax:depth=1";
  char err[ERRLEN];
  if (variant_parse("abapa", &c.v, err, sizeof err)) fail_msg("%s", err);
  if (tuner_weights_setup(c.spec, NULL, "store,mobility,threat", &c.start, c.tuned, err,
                          sizeof err))
    fail_msg("%s", err);
  c.iterations = 3;
  c.pairs = 1;
  c.threads = 2;
  c.opening_plies = 8;
  c.seed = 3;
  return c;
}

/* Counts iterations; sets the stop flag after iteration stop_after. */
typedef struct watch {
  int calls, stop_after;
  atomic_int *stop;
  int lines[2];
  long long done, total; /* the games hook's last report */
  char what[32];
} watch;

/* The games hook: done never falls within one kind of play, never passes
 * the total. */
static void on_games(void *ctx, const char *what, long long done, long long total) {
  watch *w = ctx;
  if (strcmp(what, w->what)) snprintf(w->what, sizeof w->what, "%s", what), w->done = 0;
  assert_true(done >= w->done && done <= total);
  w->done = done;
  w->total = total;
}

static void on_iteration(void *ctx, const tuner_iteration *it) {
  watch *w = ctx;
  w->calls++;
  assert_int_equal(it->iterations, 3);
  if (it->k == w->stop_after) atomic_store(w->stop, 1);
}

static void on_line(void *ctx, tuner_line kind, const char *text) {
  watch *w = ctx;
  assert_true(text[0] && !strchr(text, '\n'));
  w->lines[kind]++;
}

/* Three iterations: three rows, games adding up, the result the last row. */
static void test_spsa_rows(void **state) {
  (void)state;
  int64_t id;
  store *db = open_db("spsa", STORE_SPSA, &id);
  tuner_spsa_config c = spsa_config3();
  atomic_int stop = 0;
  watch w = {0, -1, &stop, {0, 0}, 0, 0, ""};
  tuner_observer obs = {&w, on_line, on_iteration, on_games};
  tuner_result res;
  char err[ERRLEN];
  if (tuner_spsa_run(&c, db, id, &obs, &stop, &res, err, sizeof err)) fail_msg("%s", err);
  assert_int_equal(w.calls, 3);
  /* The games hook counted the run's 6 games of 6. */
  assert_string_equal(w.what, "spsa");
  assert_true(w.done == 6 && w.total == 6);
  assert_true(res.complete && !res.resumed && !res.validated);
  assert_int_equal(res.games, 6);
  rows r;
  read_rows(db, id, &r);
  assert_int_equal(r.n, 3);
  for (int k = 0; k < 3; k++) {
    assert_int_equal(r.row[k].iteration, k);
    assert_string_equal(r.row[k].kind, "spsa");
    assert_int_equal(r.row[k].games, 2 * (k + 1));
    assert_int_equal(r.row[k].wins + r.row[k].draws + r.row[k].losses, 2);
    assert_true(r.row[k].value == (double)(r.row[k].wins - r.row[k].losses));
    assert_non_null(strstr(r.row[k].step, "store "));
    assert_null(strstr(r.row[k].weights, "kroo")); /* only the tuned weights */
  }
  eval_weights last = c.start;
  assert_int_equal(tuner_weights_parse(r.row[2].weights, &last, err, sizeof err), 0);
  assert_memory_equal(&last, &res.w, sizeof last);
  /* A finished run plays nothing more. */
  w.calls = 0;
  if (tuner_spsa_run(&c, db, id, &obs, &stop, &res, err, sizeof err)) fail_msg("%s", err);
  assert_true(res.complete && res.resumed && w.calls == 0 && res.games == 6);
  read_rows(db, id, &r);
  assert_int_equal(r.n, 3);
  store_close(db);
}

/* Stopped after iteration 0, then resumed: the same rows as without a stop. */
static void test_spsa_resume(void **state) {
  (void)state;
  int64_t id1, id2;
  store *db1 = open_db("whole", STORE_SPSA, &id1), *db2 = open_db("stopped", STORE_SPSA, &id2);
  tuner_spsa_config c = spsa_config3();
  atomic_int stop = 0;
  watch w = {0, -1, &stop, {0, 0}, 0, 0, ""};
  tuner_observer obs = {&w, NULL, on_iteration, NULL};
  tuner_result whole, part, rest;
  char err[ERRLEN];
  if (tuner_spsa_run(&c, db1, id1, &obs, &stop, &whole, err, sizeof err)) fail_msg("%s", err);
  w.stop_after = 0;
  if (tuner_spsa_run(&c, db2, id2, &obs, &stop, &part, err, sizeof err)) fail_msg("%s", err);
  assert_true(!part.complete && part.games == 2);
  rows r1, r2;
  read_rows(db2, id2, &r2);
  assert_int_equal(r2.n, 1);
  atomic_store(&stop, 0);
  w.stop_after = -1;
  if (tuner_spsa_run(&c, db2, id2, &obs, &stop, &rest, err, sizeof err)) fail_msg("%s", err);
  assert_true(rest.complete && rest.resumed && rest.games == whole.games);
  assert_memory_equal(&rest.w, &whole.w, sizeof whole.w);
  same_rows(db1, id1, db2, id2, &r1, &r2);
  store_close(db1);
  store_close(db2);
}

/* A new tuning run described for the store (tuner_tune_describe) from the
 * settings' defaults and a few of them set. */
static int64_t tune_new_run(store *db, atomic_int *stop, int stop_after) {
  static tuner_tune_config c;
  tuner_tune_setup s;
  char err[ERRLEN];
  memset(&c, 0, sizeof c);
  if (settings_defaults(tuner_tune_settings, &c, err, sizeof err)) fail_msg("%s", err);
  c.spsa = 1;
  c.player = "minimax:depth=1";
  c.params = "store,mobility,threat";
  c.iterations = 3;
  c.pairs = 1;
  c.threads = 2;
  c.seed = 3;
  if (tuner_tune_check(&c, err, sizeof err) || tuner_tune_prepare(&c, &s, err, sizeof err))
    fail_msg("%s", err);
  store_run *r = calloc(1, sizeof *r);
  assert_non_null(r);
  if (tuner_tune_describe(&c, &s, "test", r, err, sizeof err) ||
      store_run_create(db, r, err, sizeof err))
    fail_msg("%s", err);
  int64_t id = r->id;
  store_run_free(r);
  free(r);
  if (stop_after >= 0) { /* played through the library until the stop */
    watch w = {0, stop_after, stop, {0, 0}, 0, 0, ""};
    tuner_observer obs = {&w, NULL, on_iteration, NULL};
    tuner_result part;
    if (tuner_tune_play(&c, &s, db, id, &obs, stop, &part, err, sizeof err)) fail_msg("%s", err);
    assert_true(!part.complete && part.games == 2 * (stop_after + 1));
  }
  return id;
}

/* A tuning run started through the library, stopped after its first
 * iteration, and resumed from the store alone (its settings read back by
 * tuner_tune_resume, no command line) ends as the run played whole the
 * same way: the same weights, the same rows. */
static void test_tune_resume_from_store(void **state) {
  (void)state;
  char path[256], err[ERRLEN];
  store *db1, *db2;
  snprintf(path, sizeof path, "%s/tune-whole.db", dir);
  if (store_open(path, 1, &db1, err, sizeof err)) fail_msg("%s", err);
  snprintf(path, sizeof path, "%s/tune-stopped.db", dir);
  if (store_open(path, 1, &db2, err, sizeof err)) fail_msg("%s", err);
  atomic_int stop = 0;
  int64_t id1 = tune_new_run(db1, &stop, -1);
  int64_t id2 = tune_new_run(db2, &stop, 0);
  rows r1, r2;
  read_rows(db2, id2, &r2);
  assert_int_equal(r2.n, 1);
  atomic_store(&stop, 0);
  tuner_result whole, rest;
  if (tuner_tune_resume(db1, id1, NULL, &stop, &whole, err, sizeof err) ||
      tuner_tune_resume(db2, id2, NULL, &stop, &rest, err, sizeof err))
    fail_msg("%s", err);
  assert_true(whole.complete && !whole.resumed && whole.games == 6);
  assert_true(rest.complete && rest.resumed && rest.games == whole.games);
  assert_memory_equal(&rest.w, &whole.w, sizeof whole.w);
  same_rows(db1, id1, db2, id2, &r1, &r2);
  /* Finished, unlocked; the settings are the run's: a tournament is refused. */
  store_run *r = calloc(1, sizeof *r);
  assert_non_null(r);
  if (store_run_load(db2, id2, r, err, sizeof err)) fail_msg("%s", err);
  assert_int_equal(r->status, STORE_FINISHED);
  long long pairs = 0;
  assert_int_equal(store_config_get_int(r, "pairs", &pairs, err, sizeof err), 0);
  assert_int_equal(pairs, 1);
  assert_int_equal(store_run_lock(db2, id2, err, sizeof err), 0);
  assert_int_equal(store_run_unlock(db2, id2, err, sizeof err), 0);
  store_run_free(r);
  free(r);
  int64_t tid;
  store *db3 = open_db("tournament", STORE_ROUND_ROBIN, &tid);
  assert_int_equal(tuner_tune_resume(db3, tid, NULL, &stop, &rest, err, sizeof err), -1);
  assert_non_null(strstr(err, "not a tuning run"));
  store_close(db1);
  store_close(db2);
  store_close(db3);
}

/* A Texel run fits once and stores one row; run again, it returns that fit.
 * Then a validation of the fit: its row, its games. */
static void test_texel_and_validation(void **state) {
  (void)state;
  int64_t id;
  store *db = open_db("texel", STORE_TEXEL, &id);
  tuner_texel_config c;
  memset(&c, 0, sizeof c);
  char err[ERRLEN];
  c.spec = "minimax:depth=1";
  if (variant_parse("abapa", &c.v, err, sizeof err)) fail_msg("%s", err);
  if (tuner_weights_setup(c.spec, NULL, "all", &c.start, c.tuned, err, sizeof err))
    fail_msg("%s", err);
  c.games = 12;
  c.positions = 100000;
  c.max_iter = 5;
  c.threads = 2;
  c.opening_plies = 8;
  c.seed = 11;
  watch w = {0, -1, NULL, {0, 0}, 0, 0, ""};
  tuner_observer obs = {&w, on_line, NULL, on_games};
  tuner_result res, again;
  if (tuner_texel_run(&c, db, id, &obs, NULL, &res, err, sizeof err)) fail_msg("%s", err);
  assert_true(res.complete && !res.resumed && res.games == 12);
  assert_string_equal(w.what, "self-play");
  assert_true(w.done == 12 && w.total == 12);
  assert_int_equal(w.lines[TUNER_LOG], 1);    /* the self-play */
  assert_int_equal(w.lines[TUNER_RESULT], 2); /* K and the start error, the error after */
  rows r;
  read_rows(db, id, &r);
  assert_int_equal(r.n, 1);
  assert_string_equal(r.row[0].kind, "texel");
  assert_true(!strncmp(r.row[0].step, "K ", 2));
  if (tuner_texel_run(&c, db, id, &obs, NULL, &again, err, sizeof err)) fail_msg("%s", err);
  assert_true(again.complete && again.resumed);
  assert_int_equal(w.lines[TUNER_RESULT], 3); /* "already fitted" */
  eval_weights stored = c.start;
  assert_int_equal(tuner_weights_parse(r.row[0].weights, &stored, err, sizeof err), 0);
  assert_memory_equal(&again.w, &stored, sizeof stored);

  tuner_validate_config vc = {c.spec, c.v, &res.w, &c.start, 2, NULL, 2, 8, 11};
  tuner_validation val;
  if (tuner_validate(&vc, db, id, res.games, &obs, NULL, &val, err, sizeof err))
    fail_msg("%s", err);
  assert_int_equal(val.m.wins + val.m.draws + val.m.losses, 4);
  assert_int_equal(!val.has_sprt, 1);
  read_rows(db, id, &r);
  assert_int_equal(r.n, 2);
  assert_string_equal(r.row[1].kind, "validation");
  assert_int_equal(r.row[1].iteration, -1);
  assert_int_equal(r.row[1].games, 16);
  tuner_last last;
  assert_int_equal(tuner_last_row(db, id, "texel", 1, &last, err, sizeof err), 0);
  assert_true(last.found && last.validated && last.row.iteration == 0);
  /* Without a database: the same games, nothing stored; an SPRT caps at the pairs. */
  vc.sprt = "elo0=0,elo1=10";
  if (tuner_validate(&vc, NULL, 0, 0, NULL, NULL, &val, err, sizeof err)) fail_msg("%s", err);
  assert_true(val.has_sprt && val.m.wins + val.m.draws + val.m.losses == 4);
  vc.sprt = "elo0=10,elo1=0";
  assert_int_equal(tuner_validate(&vc, NULL, 0, 0, NULL, NULL, &val, err, sizeof err), -1);
  store_close(db);
}

/* A validation SPRT decides at the same pair whatever the threads (it was
 * read after chunks of 4 pairs a thread: 1 and 5 threads stopped at 8 and
 * 20 pairs). */
static void test_validation_sprt_threads(void **state) {
  (void)state;
  char err[ERRLEN];
  variant v;
  if (variant_parse("abapa", &v, err, sizeof err)) fail_msg("%s", err);
  eval_weights start, tuned;
  int mask[EVAL_N];
  if (tuner_weights_setup("minimax:depth=1", NULL, "all", &start, mask, err, sizeof err))
    fail_msg("%s", err);
  tuned = start;
  tuned.w[0] *= 3; /* a different player, not a much stronger one */
  tuner_validate_config vc = {"minimax:depth=1", v, &tuned, &start, 300, "elo0=0,elo1=300", 1, 8, 5};
  tuner_validation one, three;
  if (tuner_validate(&vc, NULL, 0, 0, NULL, NULL, &one, err, sizeof err)) fail_msg("%s", err);
  vc.threads = 5;
  if (tuner_validate(&vc, NULL, 0, 0, NULL, NULL, &three, err, sizeof err)) fail_msg("%s", err);
  long long g1 = one.m.wins + one.m.draws + one.m.losses;
  long long g3 = three.m.wins + three.m.draws + three.m.losses;
  assert_true(one.sr.decision != 0);
  assert_true(g1 < 600 && g1 % 2 == 0);
  assert_int_equal(g1, g3);
  assert_memory_equal(one.m.penta, three.m.penta, sizeof one.m.penta);
  assert_true(one.sr.llr == three.sr.llr);
}

/* Bad start weights and parameters are errors that name the part. */
static void test_weights_setup(void **state) {
  (void)state;
  eval_weights w;
  int tuned[EVAL_N];
  char err[ERRLEN];
  assert_int_equal(tuner_weights_setup("random", NULL, "all", &w, tuned, err, sizeof err), -1);
  assert_non_null(strstr(err, "minimax"));
  assert_int_equal(tuner_weights_setup("minimax", NULL, "nosuch", &w, tuned, err, sizeof err), -1);
  assert_non_null(strstr(err, "nosuch"));
  assert_int_equal(tuner_weights_setup("minimax", "equal:x", "all", &w, tuned, err, sizeof err), -1);
  assert_int_equal(tuner_weights_setup("minimax", "equal:7", "store", &w, tuned, err, sizeof err), 0);
  for (int i = 0; i < EVAL_N; i++) assert_true(w.w[i] == 7 && tuned[i] == (i == eval_find("store")));
  char text[2048];
  tuner_weights_text(&w, tuned, text, sizeof text);
  assert_string_equal(text, "store 7");
}

typedef struct cal_watch {
  int pool, searched, lines;
  int phase, levels;            /* the last phase reported; reports naming a level */
  long long done, total;        /* its last report */
  long long pool_games, verify_games; /* the last report of those phases */
} cal_watch;

static void cal_games(void *ctx, const tuner_calibrate_games *g) {
  cal_watch *w = ctx;
  assert_true((int)g->phase >= w->phase); /* the phases in order */
  if ((int)g->phase != w->phase) w->done = 0;
  assert_true(g->done >= w->done);
  assert_true(g->phase == TUNER_CAL_SEARCH ? g->total == 0 : g->done <= g->total);
  assert_true(g->level == NULL || g->phase == TUNER_CAL_SEARCH);
  w->levels += g->level != NULL;
  w->phase = (int)g->phase;
  w->done = g->done;
  w->total = g->total;
  if (g->phase == TUNER_CAL_POOL) w->pool_games = g->done;
  if (g->phase == TUNER_CAL_VERIFY) w->verify_games = g->done;
}

static void cal_progress(void *ctx, const char *what, const calibrate_point *pt) {
  cal_watch *w = ctx;
  if (!pt) w->lines++;
  (void)what;
}
static void cal_pool(void *ctx, const calibrate_arena *a) {
  cal_watch *w = ctx;
  w->pool++;
  assert_true(a->nrefs >= 2);
}
static void cal_searched(void *ctx, const calibrate_result *r) {
  cal_watch *w = ctx;
  w->searched++;
  assert_int_equal(r->nlevels, 2);
}

/* A tiny real calibration: every phase reported once, the verdicts agree
 * with the verification's Elos. */
static void test_calibration(void **state) {
  (void)state;
  tuner_calibrate_config c;
  memset(&c, 0, sizeof c);
  char err[ERRLEN];
  c.base = "mcts";
  c.knob = "playouts";
  c.lo = 4;
  c.hi = 400;
  c.log_scale = 1;
  if (calibrate_parse_levels("easy=-100;hard=100", c.level, &c.nlevels, err, sizeof err))
    fail_msg("%s", err);
  c.anchor_spec = "greedy";
  c.anchor_elo = 0;
  c.ladder = 3;
  c.games = 4;
  c.max_games = 8;
  c.ref_games = 4;
  c.verify_games = 4;
  c.tolerance = 50;
  if (variant_parse("abapa", &c.v, err, sizeof err)) fail_msg("%s", err);
  c.threads = 2;
  c.opening_plies = 2;
  c.seed = 9;
  cal_watch w;
  memset(&w, 0, sizeof w);
  tuner_calibrate_observer obs = {&w, cal_progress, cal_pool, cal_searched, cal_games};
  tuner_calibration r;
  if (tuner_calibrate(&c, &obs, NULL, &r, err, sizeof err)) fail_msg("%s", err);
  assert_true(w.pool == 1 && w.searched == 1 && w.lines >= 3);
  /* The games hook: the pool's round robin whole (4 players, 6 pairings of
   * 4 games), levels named in the search, the verification whole. */
  assert_int_equal(w.pool_games, 24);
  assert_true(w.levels > 0);
  assert_int_equal(w.phase, TUNER_CAL_VERIFY);
  assert_true(w.verify_games == r.verify_games && w.total == r.verify_games);
  assert_int_equal(r.first_level, 1);
  assert_int_equal(r.verify.n, 3);
  assert_true(r.verify_games > 0);
  int all_ok = 1;
  for (int i = 0; i < 2; i++) {
    assert_true(!strncmp(r.level_spec[i], "mcts:playouts=", 14));
    const rating_player *p = &r.verify.player[1 + i];
    assert_int_equal(r.within[i], fabs(p->elo - c.level[i].target) <= r.tol[i]);
    all_ok &= r.ok[i];
  }
  assert_int_equal(r.all_ok, all_ok);
  assert_true(r.order[0] == 0 && r.order[1] == 1);
  tuner_calibration_free(&r);
  /* A knob the player does not have: an error before any game. */
  c.knob = "depth";
  w.lines = 0;
  assert_int_equal(tuner_calibrate(&c, &obs, NULL, &r, err, sizeof err), -1);
  assert_int_equal(w.lines, 0);
  tuner_calibration_free(&r);
}

static int count_metric(void *ctx, const study_metric *m) {
  (void)m;
  ++*(int *)ctx;
  return 0;
}

/* A variant study without argv: its run, its games, its metrics; bad input
 * writes nothing. */
static void test_study(void **state) {
  (void)state;
  char path[256], err[ERRLEN], note[256];
  snprintf(path, sizeof path, "%s/study.db", dir);
  study_config c = {"random;greedy", "abapa;grandslam-forbidden", 2, 2, 5, "random:2",
                    "study", path, NULL};
  tournament *t = calloc(1, sizeof *t);
  assert_non_null(t);
  if (study_prepare(&c, t, note, sizeof note, err, sizeof err)) fail_msg("%s", err);
  assert_string_equal(note, "");
  assert_true(!strncmp(t->run.openings, "file:", 5) && !access(t->run.openings + 5, R_OK));
  store *db;
  if (store_open(path, 1, &db, err, sizeof err)) fail_msg("%s", err);
  if (store_run_create(db, &t->run, err, sizeof err)) fail_msg("%s", err);
  if (study_play(t, db, 50, NULL, err, sizeof err)) fail_msg("%s", err);
  assert_int_equal(store_games_count(db, t->run.id), 4); /* 1 pairing x 2 variants x 2 games */
  int metrics = 0;
  if (study_store_foreach(db, t->run.id, count_metric, &metrics, err, sizeof err))
    fail_msg("%s", err);
  assert_true(metrics > 0);
  store_close(db);
  /* Texel's positions from those games: the abapa ones only. */
  texel_set set = {0};
  long long games = 0, runs = 0;
  variant v;
  if (variant_parse("abapa", &v, err, sizeof err)) fail_msg("%s", err);
  if (tuner_texel_from_db(path, &v, 1, &set, &games, &runs, err, sizeof err)) fail_msg("%s", err);
  assert_true(games == 2 && runs == 1 && set.n > 0);
  texel_free(&set);
  tournament_free(t);
  c.players = "random;random";
  assert_int_equal(study_prepare(&c, t, note, sizeof note, err, sizeof err), STUDY_BAD_INPUT);
  assert_non_null(strstr(err, "two players are named"));
  tournament_free(t);
  c.players = "random;greedy";
  c.variants = "abapa;nosuch";
  assert_int_equal(study_prepare(&c, t, note, sizeof note, err, sizeof err), STUDY_BAD_INPUT);
  c.variants = "abapa;awari,houses=5";
  tournament_free(t);
  assert_int_equal(study_prepare(&c, t, note, sizeof note, err, sizeof err), 0);
  {
    assert_non_null(strstr(note, "own random openings")); /* boards differ: no shared file */
    assert_string_equal(t->run.openings, "random:2");
  }
  tournament_free(t);
  free(t);
}

/* The games of a run, one line each, in order (to compare two runs). */
#define GAMES_TEXT_MAX (1 << 18)
static int game_line(void *ctx, const store_game *g) {
  char *buf = ctx;
  size_t n = strlen(buf);
  snprintf(buf + n, GAMES_TEXT_MAX - n, "%d %d %d %s %d\n", g->series_no, g->game_no, g->variant_idx,
           g->moves, g->winner);
  return 0;
}

static void games_text(store *db, int64_t id, char *buf) {
  char err[ERRLEN];
  buf[0] = 0;
  if (store_games_foreach(db, id, game_line, buf, err, sizeof err)) fail_msg("%s", err);
}

/* Sets the stop flag once the run has stored `after` games. */
typedef struct stopper {
  atomic_int *stop;
  long long after;
} stopper;

static void stop_at(void *ctx, const tournament_progress *p) {
  stopper *s = ctx;
  if (p->stored >= s->after) atomic_store(s->stop, 1);
}

/* A study made through the library (study_prepare), stopped after a few
 * games, then resumed from the store alone (study_resume: tournament_reopen
 * and study_play): the games of the run played whole, and its study
 * stored; a tournament's SPRT setting is read back by tournament_reopen. */
static void test_study_resume_from_store(void **state) {
  (void)state;
  char path[2][256], err[ERRLEN], note[256];
  static char text[2][GAMES_TEXT_MAX];
  int64_t id[2];
  for (int k = 0; k < 2; k++) {
    snprintf(path[k], sizeof path[k], "%s/resume-%d.db", dir, k);
    /* 40 games a pairing and variant: 120 jobs, far more than the runner's
     * look-ahead (16), so that the stop after 5 stored games always leaves
     * games unplayed, however fast the machine. */
    study_config c = {"random;greedy;minimax:depth=1", "abapa;grandslam-forbidden", 40, 2, 7,
                      "random:2", "study", path[k], NULL};
    tournament *t = calloc(1, sizeof *t);
    assert_non_null(t);
    if (study_prepare(&c, t, note, sizeof note, err, sizeof err)) fail_msg("%s", err);
    store *db;
    if (store_open(path[k], 1, &db, err, sizeof err)) fail_msg("%s", err);
    if (store_run_create(db, &t->run, err, sizeof err)) fail_msg("%s", err);
    id[k] = t->run.id;
    atomic_int stop = 0;
    stopper sp = {&stop, 5};
    if (k == 1) t->observer = (tournament_observer){&sp, stop_at, NULL};
    int rc = study_play(t, db, 20, &stop, err, sizeof err);
    assert_int_equal(rc, k == 1 ? 1 : 0);
    tournament_free(t);
    if (k == 1) {
      long long part = store_games_count(db, id[k]);
      assert_true(part >= 5 && part < 240);
      atomic_store(&stop, 0);
      memset(t, 0, sizeof *t);
      if (study_resume(db, id[k], 0, 20, &stop, t, err, sizeof err)) fail_msg("%s", err);
      tournament_free(t);
      int metrics = 0;
      if (study_store_foreach(db, id[k], count_metric, &metrics, err, sizeof err))
        fail_msg("%s", err);
      assert_true(metrics > 0);
    }
    assert_int_equal(store_games_count(db, id[k]), 240); /* 3 pairings x 2 variants x 40 games */
    games_text(db, id[k], text[k]);
    free(t);
    store_close(db);
  }
  assert_string_equal(text[0], text[1]);
  /* A run with an SPRT setting: tournament_reopen reads it back (the run
   * is finished: nothing to play, nothing locked). */
  store *db;
  if (store_open(path[0], 0, &db, err, sizeof err)) fail_msg("%s", err);
  tournament *t = calloc(1, sizeof *t);
  assert_non_null(t);
  t->run.kind = STORE_ROUND_ROBIN;
  t->run.rounds = t->run.threads = 1;
  assert_int_equal(store_run_set(&t->run.name, "sprt") ||
                       store_run_set(&t->run.format, "games:2") ||
                       store_run_set(&t->run.openings, "random:2") ||
                       store_run_add_player(&t->run, "random", "random") ||
                       store_run_add_player(&t->run, "greedy", "greedy") ||
                       store_run_add_variant(&t->run, "abapa") ||
                       store_config_set_text(&t->run, "sprt", "elo0=0,elo1=10"),
                   0);
  if (store_run_create(db, &t->run, err, sizeof err)) fail_msg("%s", err);
  int64_t sid = t->run.id;
  if (store_run_status(db, sid, STORE_FINISHED, err, sizeof err)) fail_msg("%s", err);
  tournament_free(t);
  memset(t, 0, sizeof *t);
  assert_int_equal(tournament_reopen(db, sid, 0, t, err, sizeof err), 1);
  assert_true(t->sprt_on && t->sprt.elo1 == 10);
  tournament_free(t);
  free(t);
  store_close(db);
}

/* Stops a calibration once its search has played `after` games. */
typedef struct cal_stopper {
  atomic_int *stop;
  long long after;
  int phase; /* the phase it stopped in */
} cal_stopper;

static void cal_stop_at(void *ctx, const tuner_calibrate_games *g) {
  cal_stopper *s = ctx;
  if (g->phase == TUNER_CAL_SEARCH && g->done >= s->after && !atomic_load(s->stop)) {
    atomic_store(s->stop, 1);
    s->phase = (int)g->phase;
  }
}

/* A small calibration described by its settings (tuner_calibrate_settings'
 * defaults, then a few), checked and stored as a new run in db. */
static int64_t new_calibration(store *db, tuner_calibrate_setup *s, int refine, int verify_games) {
  char err[ERRLEN];
  memset(s, 0, sizeof *s);
  if (settings_defaults(tuner_calibrate_settings, &s->o, err, sizeof err)) fail_msg("%s", err);
  s->o.base = "mcts";
  s->o.knob = "playouts";
  s->o.range = "4:400";
  s->o.log_scale = 1;
  s->o.levels = "easy=-100;hard=100";
  s->o.anchor = "greedy=0";
  s->o.games = s->o.ref_games = 4;
  s->o.verify_games = verify_games;
  s->o.max_games = 8;
  s->o.seed = 9;
  s->o.threads = 2;
  s->o.refine = refine;
  if (tuner_calibrate_check(s, err, sizeof err)) fail_msg("%s", err);
  store_run *r = calloc(1, sizeof *r);
  assert_non_null(r);
  if (tuner_calibrate_describe(s, "test", r, err, sizeof err) ||
      store_run_create(db, r, err, sizeof err))
    fail_msg("%s", err);
  int64_t id = r->id;
  store_run_free(r);
  free(r);
  return id;
}

/* A calibration stored as a run, stopped in its search, resumed from the
 * store alone (tuner_calibrate_resume): the same levels, verification and
 * verdicts as the same calibration uninterrupted, and no more games. */
static void test_calibrate_resume_from_store(void **state) {
  (void)state;
  char path[256], err[ERRLEN];
  snprintf(path, sizeof path, "%s/calibrate.db", dir);
  store *db;
  if (store_open(path, 1, &db, err, sizeof err)) fail_msg("%s", err);
  tuner_calibrate_setup *s = calloc(2, sizeof *s);
  assert_non_null(s);
  tuner_calibration r[2];
  /* Uninterrupted. */
  int64_t full = new_calibration(db, &s[0], 0, 4);
  if (tuner_calibrate_play(db, full, &s[0], NULL, NULL, &r[0], err, sizeof err))
    fail_msg("%s", err);
  /* Stopped in the search, then resumed. */
  int64_t id = new_calibration(db, &s[1], 0, 4);
  atomic_int stop = 0;
  cal_stopper sp = {&stop, 6, -1};
  tuner_calibrate_observer obs = {&sp, NULL, NULL, NULL, cal_stop_at};
  assert_int_equal(tuner_calibrate_play(db, id, &s[1], &obs, &stop, &r[1], err, sizeof err), -1);
  assert_int_equal(sp.phase, TUNER_CAL_SEARCH);
  assert_false(r[1].has_verify);
  tuner_calibration_free(&r[1]);
  store_run *run = calloc(1, sizeof *run);
  assert_non_null(run);
  if (store_run_load(db, id, run, err, sizeof err)) fail_msg("%s", err);
  assert_int_equal(run->status, STORE_INTERRUPTED);
  assert_int_equal(run->kind, STORE_CALIBRATION);
  store_run_free(run);
  memset(&s[1], 0, sizeof s[1]);
  atomic_store(&stop, 0);
  if (tuner_calibrate_resume(db, id, 1, NULL, &stop, &s[1], &r[1], err, sizeof err))
    fail_msg("%s", err);
  assert_string_equal(s[1].o.base, "mcts");
  assert_int_equal(s[1].o.max_games, 8);
  assert_int_equal(s[1].c.threads, 1);
  if (store_run_load(db, id, run, err, sizeof err)) fail_msg("%s", err);
  assert_int_equal(run->status, STORE_FINISHED);
  store_run_free(run);
  free(run);
  assert_int_equal(r[1].arena->play.games, r[0].arena->play.games);
  assert_int_equal(r[1].search->npoints, r[0].search->npoints);
  for (int i = 0; i < 2; i++) {
    assert_true(r[1].search->found[i].knob == r[0].search->found[i].knob);
    assert_int_equal(r[1].search->found[i].status, r[0].search->found[i].status);
    assert_string_equal(r[1].level_spec[i], r[0].level_spec[i]);
    assert_int_equal(r[1].ok[i], r[0].ok[i]);
  }
  assert_int_equal(r[1].verify.n, r[0].verify.n);
  for (int i = 0; i < r[0].verify.n; i++)
    assert_true(r[1].verify.player[i].elo == r[0].verify.player[i].elo);
  assert_int_equal(r[1].in_order, r[0].in_order);
  assert_int_equal(r[1].all_ok, r[0].all_ok);
  /* Another kind of run is not a calibration. */
  tuner_calibration_free(&r[1]);
  tuner_calibrate_setup_free(&s[1]);
  int64_t other;
  store_close(open_db("not-calibration", STORE_SPSA, &other));
  snprintf(path, sizeof path, "%s/not-calibration.db", dir);
  store *db2;
  if (store_open(path, 0, &db2, err, sizeof err)) fail_msg("%s", err);
  assert_int_equal(tuner_calibrate_resume(db2, other, 0, NULL, NULL, &s[1], &r[1], err, sizeof err),
                   -1);
  assert_non_null(strstr(err, "not a calibration"));
  store_close(db2);
  tuner_calibration_free(&r[0]);
  tuner_calibration_free(&r[1]);
  tuner_calibrate_setup_free(&s[0]);
  tuner_calibrate_setup_free(&s[1]);
  free(s);
  store_close(db);
}

/* Stops a calibration in its refinement `round`. */
static void cal_stop_refining(void *ctx, const tuner_calibrate_games *g) {
  cal_stopper *s = ctx;
  if (g->phase == TUNER_CAL_REFINE && g->round >= s->after && g->done > 0 && !atomic_load(s->stop)) {
    atomic_store(s->stop, 1);
    s->phase = (int)g->phase;
  }
}

/* Refinement: each round's knobs follow from the rounds before (the pool
 * offsets), every round is a round robin of its own, and a calibration
 * stopped in its refinement and resumed ends as the uninterrupted
 * one, round by round. */
static void test_calibrate_refine_resume(void **state) {
  (void)state;
  char path[256], err[ERRLEN];
  snprintf(path, sizeof path, "%s/refine.db", dir);
  store *db;
  if (store_open(path, 1, &db, err, sizeof err)) fail_msg("%s", err);
  tuner_calibrate_setup *s = calloc(2, sizeof *s);
  assert_non_null(s);
  tuner_calibration r[2];
  int64_t full = new_calibration(db, &s[0], 3, 20);
  if (tuner_calibrate_play(db, full, &s[0], NULL, NULL, &r[0], err, sizeof err))
    fail_msg("%s", err);
  /* With 20 games a pairing, the levels move at least once. */
  assert_true(r[0].rounds >= 2);
  assert_true(r[0].rounds <= 4);
  int moved = 0;
  for (int t = 1; t < r[0].rounds; t++)
    for (int i = 0; i < 2; i++) moved |= r[0].round_knob[t][i] != r[0].round_knob[t - 1][i];
  assert_true(moved);
  for (int i = 0; i < 2; i++) assert_true(r[0].level_knob[i] == r[0].round_knob[r[0].rounds - 1][i]);
  /* Stopped in the first refinement, resumed. */
  int64_t id = new_calibration(db, &s[1], 3, 20);
  atomic_int stop = 0;
  cal_stopper sp = {&stop, 1, -1};
  tuner_calibrate_observer obs = {&sp, NULL, NULL, NULL, cal_stop_refining};
  assert_int_equal(tuner_calibrate_play(db, id, &s[1], &obs, &stop, &r[1], err, sizeof err), -1);
  assert_int_equal(sp.phase, TUNER_CAL_REFINE);
  tuner_calibration_free(&r[1]);
  tuner_calibrate_setup_free(&s[1]);
  memset(&s[1], 0, sizeof s[1]);
  atomic_store(&stop, 0);
  if (tuner_calibrate_resume(db, id, 1, NULL, &stop, &s[1], &r[1], err, sizeof err))
    fail_msg("%s", err);
  assert_int_equal(s[1].o.refine, 3);
  assert_int_equal(r[1].rounds, r[0].rounds);
  assert_int_equal(r[1].arena->play.games, r[0].arena->play.games);
  for (int t = 0; t < r[0].rounds; t++)
    for (int i = 0; i < 2; i++) {
      assert_true(r[1].round_knob[t][i] == r[0].round_knob[t][i]);
      assert_true(r[1].round_elo[t][i] == r[0].round_elo[t][i]);
    }
  for (int i = 0; i < 2; i++) assert_string_equal(r[1].level_spec[i], r[0].level_spec[i]);
  tuner_calibration_free(&r[0]);
  tuner_calibration_free(&r[1]);
  tuner_calibrate_setup_free(&s[0]);
  tuner_calibrate_setup_free(&s[1]);
  free(s);
  store_close(db);
}

int main(void) {
  if (!mkdtemp(dir)) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spsa_rows),         cmocka_unit_test(test_spsa_resume),
      cmocka_unit_test(test_tune_resume_from_store),
      cmocka_unit_test(test_texel_and_validation),
      cmocka_unit_test(test_validation_sprt_threads), cmocka_unit_test(test_weights_setup),
      cmocka_unit_test(test_calibration),        cmocka_unit_test(test_study),
      cmocka_unit_test(test_study_resume_from_store),
      cmocka_unit_test(test_calibrate_resume_from_store),
      cmocka_unit_test(test_calibrate_refine_resume),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd)) rc = rc ? rc : 1;
  return rc;
}
