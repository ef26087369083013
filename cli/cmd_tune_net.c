/* cmd_tune_net.c: `oware tune net` and the resume of such a run: options from tuner_net_settings, progress, printing; tuner/net_run.c trains. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json.h"
#include "cli/options.h"
#include "cli/output.h"
#include "core/error.h"
#include "store/store.h"
#include "tuner/net_loop.h"
#include "tuner/net_run.h"

static atomic_int net_stop;
/* --json: the outcome in one JSON object; the result lines go to stderr. */
static int net_json;

static const char net_usage[] =
    "usage: oware tune net --from-db PATH[,PATH...] [options]\n"
    "       oware tune net --generations G [loop and training options]\n"
    "       oware tune --resume RUN [--db PATH] [--threads T] [--json]\n"
    "Trains a network evaluation (minimax:eval=FILE; docs/TUNING.md) on the positions\n"
    "of the games of one or more databases: every position before a game's end, labelled\n"
    "by the game's result from the mover's side, mixed with a player's search score\n"
    "(--search SPEC, --search-weight) and, where the endgame tables cover it, with their\n"
    "value (--egdb-weight: the tables' share of the label; a cycle-sensitive position's\n"
    "bounds clamp it). A share of the games (--valid, chosen by the seed) is\n"
    "held out; mini-batches of B positions, Adam, until the validation loss has not\n"
    "improved for P epochs or E epochs are done; the best epoch's network is written.\n"
    "Each epoch's losses are stored in the database's tuning table (oware chart --kind\n"
    "tuning draws them); the training state is kept beside the network (FILE.state):\n"
    "a run stopped, even by kill -9, goes on with --resume and ends with the same file.\n"
    "The same command gives the same file byte for byte whatever --threads.\n"
    "With --generations G, a loop (docs/TUNING.md): each generation plays --games\n"
    "self-play games of the best network (--start at first), trains the next one on\n"
    "every generation's games (stored in --db), and keeps it only if it passes --sprt\n"
    "against the best within --max-pairs pairs; each step is a run of --db, a\n"
    "generation a tuning row; the best is written to --out.\n"
    "--json: one JSON object at the end in place of the result lines (docs/JSON.md).\n";

static void on_line(void *ctx, tuner_line kind, const char *text) {
  const tuner_net_config *c = ctx;
  if (kind == TUNER_RESULT) fprintf(net_json ? stderr : stdout, "%s\n", text);
  else if (!c->quiet) fprintf(stderr, "%s\n", text);
}

/* --json: the object opened with the run, the method and whether it is complete. */
static void json_head(cli_json_out *o, int64_t id, const char *method, int complete) {
  cli_json_open(o, stdout, '{');
  cli_json_num_at(o, "run", (double)id);
  cli_json_str_at(o, "method", method);
  cli_json_bool_at(o, "complete", complete);
}

/* The run (new or resumed), locked: trained, its status. The exit code. */
static int train(const char *cmd, const tuner_net_config *c, store *db, int64_t id,
                 const char *dbpath) {
  char err[ERROR_MAX];
  if (store_run_lock(db, id, err, sizeof err)) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  int rc = store_run_status(db, id, STORE_RUNNING, err, sizeof err);
  tuner_net_result res;
  tuner_observer obs = {(void *)c, on_line, NULL, NULL};
  cli_catch_stop(&net_stop, "\noware tune: stopping after this epoch (Ctrl-C again to quit at once)\n");
  if (!c->quiet) fprintf(stderr, "network training run %lld, db %s\n", (long long)id, dbpath);
  if (!rc) rc = tuner_net_run(c, db, id, &obs, &net_stop, &res, err, sizeof err);
  cli_release_stop();
  char e2[256];
  store_run_status(db, id, rc ? STORE_FAILED : res.complete ? STORE_FINISHED : STORE_INTERRUPTED,
                   e2, sizeof e2);
  store_run_unlock(db, id, e2, sizeof e2);
  if (rc) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if (net_json) {
    char out[1024];
    tuner_net_out(c, id, out, sizeof out);
    cli_json_out o;
    json_head(&o, id, "net", res.complete);
    cli_json_num_at(&o, "epochs", res.epochs);
    cli_json_num_at(&o, "best_epoch", res.best_epoch);
    cli_json_num_at(&o, "best_loss", res.best_loss);
    cli_json_num_at(&o, "games", (double)res.games);
    cli_json_num_at(&o, "positions", (double)res.positions);
    cli_json_num_at(&o, "valid_positions", (double)res.valid_positions);
    cli_json_str_at(&o, "network_file", out);
    cli_json_close(&o);
    putchar('\n');
  }
  if (!res.complete) {
    fprintf(stderr, "oware tune: run %lld interrupted; continue it with: oware tune --resume %lld "
            "--db %s\n", (long long)id, (long long)id, dbpath);
    return 130;
  }
  return CLI_EXIT_OK;
}

/* The loop (new or resumed), locked: its generations, its status. The exit code. */
static int loop(const char *cmd, const tuner_net_loop_config *l, const tuner_net_config *c,
                store *db, int64_t id, const char *dbpath) {
  char err[ERROR_MAX], e2[256];
  if (store_run_lock(db, id, err, sizeof err)) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  int rc = store_run_status(db, id, STORE_RUNNING, err, sizeof err);
  tuner_net_loop_result res;
  memset(&res, 0, sizeof res);
  tuner_observer obs = {(void *)c, on_line, NULL, NULL};
  cli_catch_stop(&net_stop, "\noware tune: stopping after the games or the epoch in progress "
                            "(Ctrl-C again to quit at once)\n");
  if (!c->quiet) fprintf(stderr, "network loop run %lld, db %s\n", (long long)id, dbpath);
  if (!rc) rc = tuner_net_loop_run(l, c, db, id, &obs, &net_stop, &res, err, sizeof err);
  cli_release_stop();
  store_run_status(db, id, rc < 0 ? STORE_FAILED : res.complete ? STORE_FINISHED
                                                                : STORE_INTERRUPTED, e2, sizeof e2);
  store_run_unlock(db, id, e2, sizeof e2);
  if (rc < 0) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if (net_json) {
    cli_json_out o;
    json_head(&o, id, "net-loop", res.complete);
    cli_json_num_at(&o, "generations", res.generations);
    cli_json_num_at(&o, "of", l->generations);
    cli_json_num_at(&o, "kept", res.kept);
    cli_json_num_at(&o, "elo", res.elo);
    cli_json_str_at(&o, "best", res.best);
    cli_json_str_or_null_at(&o, "network_file", res.complete ? res.out : NULL);
    cli_json_close(&o);
    putchar('\n');
  }
  if (!res.complete) {
    fprintf(stderr, "oware tune: run %lld interrupted; continue it with: oware tune --resume %lld "
            "--db %s\n", (long long)id, (long long)id, dbpath);
    return 130;
  }
  return CLI_EXIT_OK;
}

/* The first loop option given without --generations (its name), or NULL. */
static const char *loop_option_alone(const tuner_net_loop_config *l) {
  tuner_net_loop_config d;
  char err[ERROR_MAX];
  if (settings_defaults(tuner_net_loop_settings, &d, err, sizeof err)) return NULL;
  if (l->games != d.games) return "--games";
  if (l->max_pairs != d.max_pairs) return "--max-pairs";
  if (l->plies != d.plies) return "--plies";
  if (l->noise != d.noise) return "--noise";
  if (strcmp(l->player, d.player)) return "--player";
  if (strcmp(l->start, d.start)) return "--start";
  return strcmp(l->sprt, d.sprt) ? "--sprt" : NULL;
}

/* A new loop: the training's options with the loop's; it trains on its own games. */
static int new_loop(const char *cmd, const tuner_net_loop_config *l, tuner_net_config *c,
                    const char *command, const char *dbpath) {
  if (c->from_db) return cli_error(cmd, "--from-db is not taken with --generations: the loop "
                                        "trains on its own self-play games, stored in --db");
  if (c->runs) return cli_error(cmd, "--from-runs is not taken with --generations");
  c->from_db = dbpath;
  store_run run;
  store_run_init(&run);
  char err[ERROR_MAX];
  store *db = NULL;
  int rc;
  if (tuner_net_loop_describe(l, c, command, &run, err, sizeof err)) rc = cli_error(cmd, "%s", err);
  else if (!(rc = cli_store_new_run(cmd, dbpath, &run, &db))) rc = loop(cmd, l, c, db, run.id, dbpath);
  if (db) store_close(db);
  store_run_free(&run);
  return rc;
}

int cli_tune_net(int argc, char **argv) {
  const char *cmd = "tune net", *dbpath = CLI_DEFAULT_DB;
  tuner_net_config c;
  tuner_net_loop_config l;
  memset(&c, 0, sizeof c);
  memset(&l, 0, sizeof l);
  cli_option opts[48];
  int n = cli_settings_options(tuner_net_settings, &c, opts, 28), nargs, rc;
  int m = n < 0 ? -1 : cli_settings_options(tuner_net_loop_settings, &l, opts + n, 44 - n);
  if (n < 0 || m < 0) return cli_error(cmd, "too many options"), CLI_EXIT_FAIL;
  n += m;
  opts[n++] = (cli_option)CLI_O_INT(
      "threads", &c.threads, 1, 256, "T", "1",
      "threads for the searches and a step's parts (the file does not depend on it)");
  opts[n++] = (cli_option)CLI_O_TEXT("db", &dbpath, "PATH", CLI_DEFAULT_DB,
                                     "the SQLite database that keeps the run");
  opts[n++] = (cli_option)CLI_O_FLAG("json", &net_json,
                                     "print one JSON object at the end (docs/JSON.md)");
  opts[n] = (cli_option)CLI_END;
  cli_command_spec spec = {cmd, net_usage, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  if (c.out && cli_check_output(cmd, "--out", c.out)) return CLI_EXIT_USAGE;
  if (l.generations > 0) {
    char *line = cli_quote_args("oware tune net", argc, argv);
    if (!line) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
    rc = new_loop(cmd, &l, &c, line, dbpath);
    free(line);
    return rc;
  }
  const char *alone = loop_option_alone(&l);
  if (alone) return cli_error(cmd, "%s goes with --generations G (a loop)", alone);
  if (!c.from_db) return cli_error(cmd, "--from-db PATH is needed (or --generations G for a loop)");
  store_run run;
  store_run_init(&run);
  char err[ERROR_MAX];
  char *command = cli_quote_args("oware tune net", argc, argv);
  if (!command) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  int bad = tuner_net_describe(&c, command, &run, err, sizeof err);
  free(command);
  store *db = NULL;
  if (bad) rc = cli_error(cmd, "%s", err);
  else if (!(rc = cli_store_new_run(cmd, dbpath, &run, &db)))
    rc = train(cmd, &c, db, run.id, dbpath);
  if (db) store_close(db);
  store_run_free(&run);
  return rc;
}

int cli_tune_net_resume(store *db, const store_run *run, long long threads, int quiet,
                        const char *dbpath, int json) {
  const char *cmd = "tune";
  net_json = json;
  tuner_net_config c;
  tuner_net_loop_config l;
  char err[ERROR_MAX];
  int is_loop = tuner_net_loop_is(run);
  if (is_loop ? tuner_net_loop_load(run, &l, &c, err, sizeof err)
              : tuner_net_load(run, &c, err, sizeof err))
    return cli_error(cmd, "%s", err);
  if (threads) c.threads = threads;
  if (quiet) c.quiet = 1;
  return is_loop ? loop(cmd, &l, &c, db, run->id, dbpath) : train(cmd, &c, db, run->id, dbpath);
}
