/* net_run.c: a network's training as a stored run: settings, description, epochs as tuning rows, resume from the training state. */
#include "tuner/net_run.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/path.h"
#include "tuner/net_data.h"
#include "tuner/net_train.h"
#include "tuner/tuning_store.h"

#define T tuner_net_config
const settings_key tuner_net_settings[] = {
    SETTINGS_K_TEXT("from-db", T, from_db, "PATH[,PATH...]", NULL,
                    "the databases whose games give the positions", SETTINGS_REQUIRED),
    SETTINGS_K_TEXT("from-runs", T, runs, "ID,ID...", NULL,
                    "only the games of these runs (of each database); all by default", 0),
    SETTINGS_K_TEXT("variant", T, variant, "V", "abapa", "the games of this variant", 0),
    SETTINGS_K_INT("hidden1", T, hidden1, EVAL_NET_LANES, EVAL_NET_MAX_HIDDEN, "N", "32",
                   "first hidden layer (a multiple of 8)", 0),
    SETTINGS_K_INT("hidden2", T, hidden2, 0, EVAL_NET_MAX_HIDDEN, "N", "16",
                   "second hidden layer (a multiple of 8; 0: none)", 0),
    SETTINGS_K_INT("epochs", T, epochs, 1, 100000, "E", "100", "at most E epochs", 0),
    SETTINGS_K_INT("batch", T, batch, 4, 65536, "B", "256", "positions a step", 0),
    SETTINGS_K_REAL("lr", T, lr, 1e-6, 1, "X", "0.005", "Adam's step size", 0),
    SETTINGS_K_INT("patience", T, patience, 1, 1000, "P", "5",
                   "stop after P epochs without a better validation loss", 0),
    SETTINGS_K_REAL("valid", T, valid, 0.01, 0.5, "X", "0.1",
                    "share of the games held out for validation", 0),
    SETTINGS_K_INT("positions", T, positions, 100, 100000000, "M", "2000000",
                   "at most M training positions (the rest dropped by the seed)", 0),
    SETTINGS_K_TEXT("egdb", T, egdb, "auto|off|DIR", "auto", "the endgame tables for the labels", 0),
    SETTINGS_K_REAL("egdb-weight", T, egdb_weight, 0, 1, "W", "1",
                    "the tables' share of the label where they give an exact value (the game's "
                    "result has the rest; bounds clamp the label)", 0),
    SETTINGS_K_TEXT("search", T, search, "SPEC", NULL,
                    "a player whose search scores label every position (e.g. "
                    "minimax:depth=4,egdb=off); none by default", 0),
    SETTINGS_K_REAL("search-weight", T, search_weight, 0, 1, "S", "0.5",
                    "the search score's share of the label (the game's result has the rest)", 0),
    SETTINGS_K_REAL("scale", T, scale, 1, 10000, "K", "400",
                    "centiseeds of the sigmoid's scale: P(win) = 1/(1+exp(-eval/K))", 0),
    SETTINGS_K_INT("seed", T, seed, 0, LLONG_MAX, "S", "1",
                   "the first weights, the validation games, each epoch's order", 0),
    SETTINGS_K_TEXT("out", T, out, "FILE", NULL, "the network file (default results/net-RUN.net)", 0),
    SETTINGS_K_TEXT("name", T, name, "NAME", NULL, "the run's name", 0),
    SETTINGS_K_FLAG("quiet", T, quiet, "no progress on stderr"),
    SETTINGS_END,
};
#undef T

int tuner_net_describe(const tuner_net_config *c, const char *command, store_run *run, char *err,
                       size_t errlen) {
  variant v;
  char vname[256], format[96];
  if (variant_parse(c->variant, &v, err, errlen) ||
      eval_net_shape_check((int)c->hidden1, (int)c->hidden2, err, errlen))
    return -1;
  variant_format(&v, vname, sizeof vname);
  run->kind = STORE_NET;
  run->rounds = 1;
  run->threads = (int)c->threads;
  run->seed = (uint64_t)c->seed;
  snprintf(format, sizeof format, "epochs:%lld,hidden:%lld/%lld", c->epochs, c->hidden1,
           c->hidden2);
  if (store_run_set(&run->name, c->name ? c->name : "net") || store_run_set(&run->format, format) ||
      store_run_set(&run->openings, "none") || store_run_set(&run->command, command ? command : "") ||
      store_run_add_variant(run, vname))
    return error_set(err, errlen, "out of memory"), -1;
  return settings_save(tuner_net_settings, c, run, err, errlen);
}

int tuner_net_load(const store_run *run, tuner_net_config *c, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  if (run->kind != STORE_NET)
    return error_set(err, errlen, "run %lld is a %s, not a network's training", (long long)run->id,
                     store_kind_name(run->kind)),
           -1;
  if (store_run_resumable(run, err, errlen) || settings_load(tuner_net_settings, run, c, err, errlen))
    return -1;
  c->threads = run->threads;
  return 0;
}

void tuner_net_out(const tuner_net_config *c, int64_t run_id, char *buf, size_t len) {
  if (c->out) snprintf(buf, len, "%s", c->out);
  else snprintf(buf, len, "results/net-%lld.net", (long long)run_id);
}

/* The epochs stored for run_id: how many (rows of kind net). */
static int count_row(void *ctx, const tuning_row *t) {
  if (!strcmp(t->kind, "net")) ++*(int *)ctx;
  return 0;
}

static int store_epoch(store *db, int64_t run_id, int epoch, double tl, double vl,
                       const tuner_net_config *c, long long games, char *err, size_t errlen) {
  tuning_row row;
  memset(&row, 0, sizeof row);
  row.run_id = run_id;
  row.iteration = epoch - 1;
  snprintf(row.kind, sizeof row.kind, "net");
  snprintf(row.weights, sizeof row.weights, "train %.9g valid %.9g", tl, vl);
  snprintf(row.step, sizeof row.step, "epoch %d lr %g batch %lld", epoch, c->lr, c->batch);
  row.value = vl;
  row.games = games;
  return tuning_store_insert(db, &row, err, errlen);
}

/* The trainer where the stored run stands: its state file when epochs are
 * stored (an epoch whose state was written but not its row: the row now). */
static int resume_state(tuner_net_trainer *t, const tuner_net_config *c, store *db, int64_t run_id,
                        const char *state, const tuner_net_set *train, const tuner_net_set *valid,
                        long long games, char *err, size_t errlen) {
  int rows = 0;
  if (tuning_store_foreach(db, run_id, count_row, &rows, err, errlen)) return -1;
  if (access(state, F_OK)) {
    if (!rows) return 0;
    return error_set(err, errlen, "run %lld has %d epochs stored but its training state '%s' is "
                     "missing: it cannot go on", (long long)run_id, rows, state),
           -1;
  }
  if (tuner_net_trainer_load(t, state, err, errlen)) return -1;
  int e = tuner_net_trainer_epochs(t);
  if (e == rows) return 0;
  if (e != rows + 1)
    return error_set(err, errlen, "the training state '%s' is at epoch %d but run %lld has %d "
                     "stored", state, e, (long long)run_id, rows),
           -1;
  return store_epoch(db, run_id, e, tuner_net_trainer_loss(t, train),
                     tuner_net_trainer_loss(t, valid), c, games, err, errlen);
}

static int read_positions(const tuner_net_config *c, const tuner_observer *obs, tuner_net_set *train,
                          tuner_net_set *valid, tuner_net_result *res, char *err, size_t errlen) {
  tuner_net_data_config dc = {c->from_db,  c->runs, {0},      c->egdb,     c->search,
                              c->search_weight, (int)c->threads, c->egdb_weight, c->scale,
                              c->valid,    c->positions, (uint64_t)c->seed};
  if (variant_parse(c->variant, &dc.v, err, errlen)) return -1;
  tuner_net_data_counts n;
  if (tuner_net_collect(&dc, train, valid, &n, err, errlen)) return -1;
  res->positions = (long long)train->n, res->valid_positions = (long long)valid->n;
  res->games = n.games;
  tuner_report(obs, TUNER_LOG,
               "net: %lld positions of %lld games in %lld runs (%lld labelled exactly by the "
               "tables, %lld bounded, %lld searched); %zu for training, %zu for validation",
               n.positions, n.games, n.runs, n.exact, n.bounded, n.searched, train->n, valid->n);
  return 0;
}

/* The epochs from where t stands, a state and a row each. */
static int epochs(tuner_net_trainer *t, const tuner_net_config *c, store *db, int64_t run_id,
                  const char *state, const tuner_net_set *train, const tuner_net_set *valid,
                  const tuner_observer *obs, atomic_int *stop, tuner_net_result *res, char *err,
                  size_t errlen) {
  int best_epoch, over = 0;
  tuner_net_trainer_best(t, &best_epoch);
  /* A stored run that stopped early is over: its state says so. */
  over = best_epoch && tuner_net_trainer_epochs(t) - best_epoch >= c->patience;
  while (!over && tuner_net_trainer_epochs(t) < c->epochs && !(stop && atomic_load(stop))) {
    double tl, vl;
    int done = tuner_net_trainer_epoch(t, train, valid, &tl, &vl);
    if (done < 0) return error_set(err, errlen, "out of memory"), -1;
    int e = tuner_net_trainer_epochs(t);
    if (tuner_net_trainer_save(t, state, err, errlen) ||
        store_epoch(db, run_id, e, tl, vl, c, res->games, err, errlen))
      return -1;
    tuner_report(obs, TUNER_LOG, "net: epoch %d: loss %.6f (training), %.6f (validation)%s", e,
                 tl, vl, done ? "; no better validation loss for the patience: stopping" : "");
    over = done;
  }
  res->complete = over || tuner_net_trainer_epochs(t) >= c->epochs;
  return 0;
}

int tuner_net_run(const tuner_net_config *c, store *db, int64_t run_id, const tuner_observer *obs,
                  atomic_int *stop, tuner_net_result *res, char *err, size_t errlen) {
  memset(res, 0, sizeof *res);
  char out[1024], state[1100], e[ERROR_MAX];
  tuner_net_out(c, run_id, out, sizeof out);
  snprintf(state, sizeof state, "%s.state", out);
  if (!c->out) path_mkdirs("results", e, sizeof e); /* an error shows when the file is written */
  tuner_net_set train = {0}, valid = {0};
  tuner_net_trainer *t = NULL;
  variant v;
  int rc = variant_parse(c->variant, &v, err, errlen) ? -1
           : read_positions(c, obs, &train, &valid, res, err, errlen);
  if (!rc) {
    tuner_net_train_config tc = {v.houses, v.total, (int)c->hidden1, (int)c->hidden2,
                                 (int)c->batch, c->lr, c->scale, (int)c->patience,
                                 (uint64_t)c->seed, (int)c->threads};
    t = tuner_net_trainer_new(&tc, err, errlen);
    rc = t ? resume_state(t, c, db, run_id, state, &train, &valid, res->games, err, errlen) : -1;
  }
  if (!rc) rc = epochs(t, c, db, run_id, state, &train, &valid, obs, stop, res, err, errlen);
  if (!rc) {
    eval_net n;
    res->epochs = tuner_net_trainer_epochs(t);
    res->best_loss = tuner_net_trainer_best(t, &res->best_epoch);
    rc = tuner_net_trainer_network(t, &n, err, errlen) ? -1 : eval_net_save(out, &n, err, errlen);
    eval_net_free(&n);
    if (!rc)
      tuner_report(obs, TUNER_RESULT, "net: epoch %d of %d (validation loss %.6f) written to %s "
                   "(minimax:eval=%s)", res->best_epoch, res->epochs, res->best_loss, out, out);
  }
  tuner_net_trainer_free(t);
  tuner_net_set_free(&train);
  tuner_net_set_free(&valid);
  return rc;
}
