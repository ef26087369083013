/* cmd_tune.c: `oware tune spsa|texel`: tuning runs logged to the database, resumable, validated. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "report/rating_print.h"
#include "report/report.h"
#include "store/store.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "core/path.h"
#include "players/eval.h"
#include "tuner/tune_run.h"

#define DEFAULT_DB CLI_DEFAULT_DB

static atomic_int tune_stop;
/* --json: the results in one JSON object at the end; the drivers' result lines go to stderr. */
static int tune_json;
/* The progress line (on a terminal), and the SPSA iteration it shows. */
static cli_progress tune_line;
static char tune_step[64];


static const char tune_usage[] =
    "usage: oware tune spsa  --player SPEC [options]\n"
    "       oware tune texel --player SPEC [options]\n"
    "       oware tune net   --from-db PATH[,PATH...] [options]   (see oware tune net --help)\n"
    "       oware tune --resume RUN [--db PATH] [--threads T] [--quiet] [--report] [--json]\n"
    "Tunes the evaluation weights of a minimax player (SPEC, e.g. minimax:depth=4).\n"
    "The start is the spec's weights= (or the defaults), or --start FILE, or\n"
    "--start equal:X (every weight X: a deliberately poor start).\n"
    "spsa: as fishtest: iteration k plays K game pairs (shared openings, colours\n"
    "  swapped) of theta+c_k*D against theta-c_k*D (D random +-1), then\n"
    "  theta += a_k*(W-L)*D/c_k; c_k = c/(k+1)^0.101, a_k = a/(A+k+1)^0.602,\n"
    "  A = N/10; per weight c_end = (hi-lo)/20 and r_end = 0.002 from its declared\n"
    "  range (oware weights), or --c-end/--r-end for all.\n"
    "texel: plays N self-play games (or reads the games of a database), keeps up\n"
    "  to M quiet positions with their outcomes, fits the sigmoid scale K, then\n"
    "  minimises the squared error over the weights (GSL BFGS2, exact gradient),\n"
    "  at most I steps.\n"
    "Every iteration is stored in the database's tuning table; --resume continues\n"
    "a run that was stopped. The result goes to --out, a weights file for\n"
    "minimax:weights=FILE.\n"
    "--validate N: N game pairs of the tuned weights against the start, with the\n"
    "  Elo gain and its 95% interval. --validate-sprt elo0=0,elo1=10[,...]: game\n"
    "  pairs until fishtest's SPRT decides (N, default 2000, is then the cap).\n"
    "Openings: P random legal plies from the seed and the pair's number: with\n"
    "  deterministic players, few plies would repeat the same few games (2 plies\n"
    "  give only 36 openings) and overstate the confidence.\n"
    "--json: one JSON object at the end in place of the results' lines (docs/JSON.md).\n";

/* What the command is given: the run's settings and where its database is. */
typedef struct tune_setup {
  tuner_tune_config c;
  const char *db;
  tuner_tune_setup s; /* the variant and weights of c */
  int locked;         /* the run's lock is held */
  int net_rc;         /* a resumed network training's exit code */
} tune_setup;

#define TUNE_MAX_OPTS 33

/* What a --resume is given besides the run: none of it changes the run's
 * games. */
typedef struct tune_resume {
  long long run;     /* --resume RUN, else -1 */
  int threads_given; /* --threads T (in the config's threads) */
  int quiet, report; /* --quiet, --report */
} tune_resume;

/* Reads the options into t (and --resume RUN with what goes with it into
 * *resume). Returns 0, -1 after printing the help, or CLI_EXIT_USAGE after
 * printing an error. */
static int parse(const char *cmd, int argc, char **argv, tune_setup *t, tune_resume *resume) {
  tuner_tune_config *c = &t->c;
  memset(c, 0, sizeof *c);
  c->threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
  long long run = -1;
  char *mode[1];
  int nmode, rc;
  /* The run's settings (tuner/tune_run.c), then what is not stored. */
  cli_option opts[TUNE_MAX_OPTS];
  int n = cli_settings_options(tuner_tune_settings, c, opts, TUNE_MAX_OPTS - 5);
  if (n < 0) return cli_error(cmd, "too many options"), CLI_EXIT_FAIL;
  opts[n++] = (cli_option)CLI_O_INT("threads", &c->threads, 1, 256, "T", NULL,
                                    "games played at once, by default one per core");
  opts[n++] = (cli_option)CLI_O_TEXT("db", &t->db, "PATH", DEFAULT_DB, "the SQLite database");
  opts[n++] = (cli_option)CLI_O_INT("resume", &run, 1, (long long)(~0ULL >> 1), "RUN", NULL,
                                    "continue a run that was stopped (with --db, --threads, "
                                    "--quiet, --report and --json only)");
  opts[n++] = (cli_option)CLI_O_FLAG("json", &tune_json,
                                     "print one JSON object at the end (docs/JSON.md)");
  opts[n] = (cli_option)CLI_END;
  cli_command_spec spec = {cmd, tune_usage, NULL, opts, 1};
  if (cli_parse(&spec, argc, argv, mode, &nmode, &rc)) return rc ? rc : -1;
  if (run > 0) {
    /* The run's settings come from the database: only what does not change
     * its games goes with --resume (as with `oware tournament --resume`). */
    static const char *const with[] = {"resume", "db", "threads", "quiet", "report", "json", NULL};
    int bad = nmode > 0;
    for (const cli_option *o = opts; o->name && !bad; o++) {
      int ok = 0;
      for (int i = 0; with[i]; i++) ok |= !strcmp(o->name, with[i]);
      bad = o->given && !ok;
    }
    if (bad)
      return cli_error(cmd, "with --resume only --db, --threads, --quiet, --report and --json "
                            "are allowed");
    resume->run = run;
    resume->threads_given = cli_option_find(&spec, "threads")->given > 0;
    resume->quiet = c->quiet;
    resume->report = c->report;
    return 0;
  }
  if (!nmode || (strcmp(mode[0], "spsa") && strcmp(mode[0], "texel")))
    return cli_error(cmd, "the first argument is spsa, texel or net (or --resume RUN); see --help");
  c->spsa = !strcmp(mode[0], "spsa");
  char err[ERROR_MAX];
  if (tuner_tune_check(c, err, sizeof err)) return cli_error(cmd, "%s", err);
  return 0;
}

static void print_weights(FILE *f, const char *title, const eval_weights *w, const int *tuned) {
  fprintf(f, "%s:", title);
  for (int i = 0; i < EVAL_N; i++)
    if (tuned[i]) fprintf(f, " %s=%.1f", eval_features[i].name, w->w[i]);
  fputc('\n', f);
}

/* The drivers' lines: results on stdout, the rest on stderr unless --quiet
 * (the progress line erased first: it is drawn again at the next games). */
static void on_line(void *ctx, tuner_line kind, const char *text) {
  const tuner_tune_config *c = ctx;
  if (kind == TUNER_RESULT || !c->quiet) cli_progress_clear(&tune_line);
  if (kind == TUNER_RESULT) fprintf(tune_json ? stderr : stdout, "%s\n", text);
  else if (!c->quiet) fprintf(stderr, "%s\n", text);
}

/* The SPSA iteration, shown with the games of the next progress line. */
static void on_iteration(void *ctx, const tuner_iteration *it) {
  (void)ctx;
  if (it->k + 1 < it->iterations)
    snprintf(tune_step, sizeof tune_step, "iteration %d/%d (last: %+lld)", it->k + 2,
             it->iterations, it->wins - it->losses);
  else tune_step[0] = 0;
}

/* The progress line: games of SPSA, Texel's self-play or the validation. */
static void on_games(void *ctx, const char *what, long long done, long long total) {
  (void)ctx;
  cli_progress_update(&tune_line, what, !strcmp(what, "spsa") && tune_step[0] ? tune_step : NULL,
                      done, total, "games");
}

/* --resume RUN: the run's settings are read back into t->c (its texts
 * point into run); its lock is taken. 0, or the exit code after an error.
 * A network's training (kind net) is resumed whole here (cmd_tune_net.c):
 * -1 when it ended well, else its exit code. */
static int load_resume(const char *cmd, const tune_resume *r, tune_setup *t, store **db,
                       store_run *run) {
  char err[ERROR_MAX];
  long long threads = r->threads_given ? t->c.threads : 0;
  if (store_open(t->db, 0, db, err, sizeof err) ||
      store_run_load(*db, r->run, run, err, sizeof err))
    return cli_error(cmd, "%s", err);
  if (run->kind == STORE_NET) { /* a network's training: all of it in cmd_tune_net.c */
    if (r->report)
      return cli_error(cmd, "run %lld is a network's training: --report does not go with it",
                       r->run);
    t->net_rc = cli_tune_net_resume(*db, run, threads, r->quiet, t->db, tune_json);
    return t->net_rc ? t->net_rc : -1;
  }
  if (tuner_tune_load(run, &t->c, err, sizeof err)) return cli_error(cmd, "%s", err);
  if (store_run_lock(*db, run->id, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  t->locked = 1;
  if (threads) t->c.threads = threads;
  if (r->quiet) t->c.quiet = 1;
  if (r->report) t->c.report = 1;
  return 0;
}

/* A new run in the database for t, its settings stored, its lock taken
 * (a --resume of it meanwhile is refused). 0, or the exit code. */
static int new_run(const char *cmd, int argc, char **argv, tune_setup *t, store_run *run,
                   store **db) {
  char err[ERROR_MAX];
  char *command = cli_quote_args("oware tune", argc, argv);
  if (!command) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  int bad = tuner_tune_describe(&t->c, &t->s, command, run, err, sizeof err);
  free(command);
  if (bad) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  int rc = cli_store_new_run(cmd, t->db, run, db);
  if (rc) return rc;
  if (store_run_lock(*db, run->id, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  t->locked = 1;
  return 0;
}

/* The tuned weights to --out (default results/tuned-RUN.txt), its path in outp. */
static int write_weights(const char *cmd, const tuner_tune_config *c, int64_t run_id,
                         const eval_weights *w, char outp[512]) {
  if (c->out) {
    snprintf(outp, 512, "%s", c->out);
  } else {
    char err[ERROR_MAX];
    path_mkdirs("results", err, sizeof err); /* an error shows when the file cannot be written */
    snprintf(outp, 512, "results/tuned-%lld.txt", (long long)run_id);
  }
  outfile wf;
  if (cli_out_open(cmd, &wf, outp)) return -1;
  if (eval_write(wf.f, w)) {
    cli_error(cmd, "cannot write '%s': %s", outp, strerror(errno));
    cli_out_abort(&wf);
    return -1;
  }
  if (cli_out_commit(cmd, &wf)) return -1;
  if (!tune_json) printf("weights written to %s (minimax:weights=%s)\n", outp, outp);
  return 0;
}

/* The validation (tuned against start) into *val, printed but with --json. */
static int validate(const char *cmd, const tune_setup *t, const eval_weights *w, store *db,
                    int64_t run_id, long long games, tuner_validation *val_out) {
  tuner_observer obs = {(void *)&t->c, on_line, NULL, on_games};
  tuner_validation val;
  char err[ERROR_MAX];
  int rc = tuner_tune_validate(&t->c, &t->s, w, db, run_id, games, &obs, &tune_stop, &val, err,
                               sizeof err);
  cli_progress_clear(&tune_line);
  if (rc) return cli_error(cmd, "%s", err);
  *val_out = val;
  if (tune_json) return 0;
  rating_match_print(stdout, "tuned", "start", &val.m, val.has_sprt ? &val.sprt : NULL);
  printf("validation: Elo gain of the tuned weights %+.1f, 95%% interval [%+.1f, %+.1f], "
         "LOS %.2f%%\n",
         val.st.penta_elo, val.st.penta_elo - val.st.penta_err,
         val.st.penta_elo + val.st.penta_err, 100 * val.st.los);
  return 0;
}

/* After the run: its status, --report (its folder into report), how to
 * resume. Returns the exit code. */
static int finish(const char *cmd, const tune_setup *t, store *db, int64_t id, int complete,
                  char report[256]) {
  char err[ERROR_MAX];
  if (store_run_status(db, id, complete ? STORE_FINISHED : STORE_INTERRUPTED, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if (t->c.report) {
    snprintf(report, 256, "results/run-%lld", (long long)id);
    if (report_write(db, id, report, stderr, err, sizeof err))
      return cli_error(cmd, "report: %s", err), CLI_EXIT_FAIL;
    if (!tune_json) printf("report: %s/index.html\n", report);
  }
  if (!complete)
    fprintf(stderr, "oware tune: run %lld interrupted; continue it with: oware tune --resume %lld --db %s\n",
            (long long)id, (long long)id, t->db);
  return complete ? CLI_EXIT_OK : 130;
}

/* The weights tuned, as "NAME":W fields of an object. */
static void json_weights(cli_json_out *o, const char *key, const eval_weights *w, const int *tuned) {
  cli_json_out q;
  cli_json_key(o, key);
  cli_json_open(&q, stdout, '{');
  for (int i = 0; i < EVAL_N; i++)
    if (tuned[i]) cli_json_num_at(&q, eval_features[i].name, w->w[i]);
  cli_json_close(&q);
}

/* --json: the run, the start and tuned weights, the weights file, the
 * validation (null when none was played now), the report's folder. */
static void print_json(const tune_setup *t, int64_t id, const tuner_result *res, const char *weights,
                       const tuner_validation *val, const char *report) {
  cli_json_out o;
  cli_json_open(&o, stdout, '{');
  cli_json_num_at(&o, "run", (double)id);
  cli_json_str_at(&o, "method", t->c.spsa ? "spsa" : "texel");
  cli_json_bool_at(&o, "complete", res->complete);
  cli_json_num_at(&o, "games", (double)res->games);
  json_weights(&o, "start", &t->s.start, t->s.tuned);
  json_weights(&o, "tuned", &res->w, t->s.tuned);
  cli_json_str_at(&o, "weights_file", weights);
  cli_json_key(&o, "validation");
  if (val) {
    const rating_match_stats *st = &val->st;
    fputc('{', stdout);
    cli_json_match_fields(stdout, "tuned", "start", &val->m, st);
    fputs(",\"gain\":", stdout);
    cli_json_num(stdout, st->penta_elo);
    fputs(",\"gain_lo\":", stdout);
    cli_json_num(stdout, st->penta_elo - st->penta_err);
    fputs(",\"gain_hi\":", stdout);
    cli_json_num(stdout, st->penta_elo + st->penta_err);
    if (val->has_sprt) {
      fputs(",\"sprt\":{", stdout);
      cli_json_sprt_fields(stdout, &val->sprt, val->sr.llr);
      fputc('}', stdout);
    }
    fputc('}', stdout);
  } else {
    fputs("null", stdout);
  }
  cli_json_str_or_null_at(&o, "report", report[0] ? report : NULL);
  cli_json_close(&o);
  putchar('\n');
}

/* A run that stopped on an error is marked failed (not left running);
 * returns the exit code. */
static int failed(const char *cmd, store *db, int64_t id) {
  char err[ERROR_MAX];
  if (store_run_status(db, id, STORE_FAILED, err, sizeof err)) cli_error(cmd, "%s", err);
  return CLI_EXIT_FAIL;
}

/* The run (new or resumed) is in db: tune, write, validate, finish. */
static int tune_run(const char *cmd, tune_setup *t, store *db, int64_t id, int resumed) {
  const tuner_tune_config *c = &t->c;
  char err[ERROR_MAX];
  /* The stored rows are checked before the run is touched: a bad one
   * leaves it as it was. */
  tuner_last last;
  if (tuner_last_row(db, id, c->spsa ? "spsa" : "texel", c->spsa ? (int)c->iterations : 1, &last,
                     err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if (resumed && store_run_status(db, id, STORE_RUNNING, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  cli_catch_stop(&tune_stop, "\noware tune: stopping after this iteration (Ctrl-C again to quit at once)\n");
  cli_progress_init(&tune_line, c->quiet);
  snprintf(tune_step, sizeof tune_step, "iteration %lld/%lld",
           last.found ? (long long)last.row.iteration + 2 : 1, c->iterations);
  if (!c->quiet)
    fprintf(stderr, "tuning run %lld (%s), db %s%s\n", (long long)id, c->spsa ? "spsa" : "texel",
            t->db, last.found ? ", resumed" : "");
  if (!tune_json) print_weights(stdout, "start", &t->s.start, t->s.tuned);
  tuner_result res;
  tuner_observer obs = {(void *)c, on_line, on_iteration, on_games};
  int bad = tuner_tune_play(c, &t->s, db, id, &obs, &tune_stop, &res, err, sizeof err);
  cli_progress_clear(&tune_line);
  if (bad) return cli_error(cmd, "%s", err), failed(cmd, db, id);
  if (!tune_json) print_weights(stdout, "tuned", &res.w, t->s.tuned);
  char outp[512], report[256] = "";
  if (write_weights(cmd, c, id, &res.w, outp)) return failed(cmd, db, id);
  tuner_validation val;
  const int validated = res.complete && c->validate > 0 && !res.validated && !atomic_load(&tune_stop);
  if (validated && validate(cmd, t, &res.w, db, id, res.games, &val)) return failed(cmd, db, id);
  int rc = finish(cmd, t, db, id, res.complete, report);
  if (tune_json && (rc == CLI_EXIT_OK || !res.complete))
    print_json(t, id, &res, outp, validated ? &val : NULL, report);
  return rc;
}

int cli_tune(int argc, char **argv) {
  const char *cmd = "tune";
  tune_resume resume = {-1, 0, 0, 0};
  if (argc > 0 && !strcmp(argv[0], "net")) return cli_tune_net(argc - 1, argv + 1);
  tune_setup *t = calloc(1, sizeof *t);
  store_run *run = calloc(1, sizeof *run);
  store *db = NULL;
  char err[ERROR_MAX];
  int rc = CLI_EXIT_FAIL;
  if (!t || !run) {
    cli_error(cmd, "out of memory");
    goto out;
  }
  rc = parse(cmd, argc, argv, t, &resume);
  if (rc) {
    rc = rc < 0 ? CLI_EXIT_OK : rc;
    goto out;
  }
  if (resume.run > 0 && (rc = load_resume(cmd, &resume, t, &db, run))) {
    if (rc < 0) rc = CLI_EXIT_OK; /* a network's training, resumed and done */
    goto out;
  }
  rc = CLI_EXIT_USAGE;
  /* The output file can be written (checked before any game is played). */
  if (t->c.out && cli_check_output(cmd, "--out", t->c.out)) goto out;
  if (tuner_tune_prepare(&t->c, &t->s, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  if (!db && (rc = new_run(cmd, argc, argv, t, run, &db))) goto out;
  rc = tune_run(cmd, t, db, run->id, resume.run > 0);
out:
  cli_release_stop();
  if (t && t->locked) store_run_unlock(db, run->id, err, sizeof err);
  if (db) store_close(db);
  store_run_free(run);
  free(run);
  free(t);
  return rc;
}
