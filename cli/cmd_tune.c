/* cmd_tune.c: `oware tune spsa|texel`: tuning runs logged to the database, resumable, validated. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/rating_print.h"
#include "report/report.h"
#include "store/store.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "core/path.h"
#include "players/eval.h"
#include "players/level.h"
#include "players/tablebase.h"
#include "tuner/spsa_run.h"
#include "tuner/texel_run.h"
#include "tuner/tuning.h"
#include "tuner/validate.h"

#define DEFAULT_DB CLI_DEFAULT_DB

static atomic_int tune_stop;
/* The progress line (on a terminal), and the SPSA iteration it shows. */
static cli_progress tune_line;
static char tune_step[64];


static const char tune_usage[] =
    "usage: oware tune spsa  --player SPEC [options]\n"
    "       oware tune texel --player SPEC [options]\n"
    "       oware tune --resume RUN [--db PATH] [--threads T]\n"
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
    "  give only 36 openings) and overstate the confidence.\n";

typedef struct tune_cfg {
  int spsa; /* else texel */
  const char *spec, *params, *start, *variant, *db, *out, *from_db, *name, *validate_sprt;
  const char *label; /* the player's name: its spec before the tables were pinned */
  long long iterations, pairs, threads, seed, validate, games, positions, max_iter, opening_plies;
  double c_end, r_end;
  int quiet, report;
} tune_cfg;

static void defaults(tune_cfg *c) {
  memset(c, 0, sizeof *c);
  c->variant = "abapa";
  c->iterations = 200;
  c->pairs = 8;
  c->threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
  c->seed = 1;
  c->games = 2000;
  c->positions = 200000;
  c->max_iter = 200;
  c->opening_plies = 8;
  c->db = DEFAULT_DB;
  c->params = "all";
}

static int check(const char *cmd, tune_cfg *c);

static int positive(const cli_option *o, const char *text, char *err, size_t errlen) {
  char *end;
  double x = strtod(text, &end);
  if (*end || end == text || !(x > 0) || !isfinite(x))
    return snprintf(err, errlen, "--%s is '%s'; expected a positive number", o->name, text), -1;
  *(double *)o->target = x;
  return 0;
}

/* Reads the options into c (and, when resume is not NULL, --resume RUN into
 * *resume and whether --threads was given into *threads_given). Returns 0,
 * -1 after printing the help, or CLI_EXIT_USAGE after printing an error. */
static int parse(const char *cmd, int argc, char **argv, tune_cfg *c, long long *resume,
                 int *threads_given) {
  memset(c, 0, sizeof *c);
  c->threads = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
  long long run = -1;
  char *mode[1];
  int nmode, rc;
  cli_option opts[] = {
      CLI_O_TEXT("player", &c->spec, "SPEC", NULL, "the minimax player to tune"),
      CLI_O_TEXT("params", &c->params, "all|NAME,NAME...", "all", "the weights to tune"),
      CLI_O_TEXT("start", &c->start, "FILE|equal:X", NULL, "the start weights"),
      CLI_O_INT("iterations", &c->iterations, 1, 10000000, "N", "200", "spsa: iterations"),
      CLI_O_INT("pairs", &c->pairs, 1, 1000000, "K", "8", "spsa: game pairs an iteration"),
      CLI_O_CALL("c-end", positive, &c->c_end, "X", "spsa: the final perturbation, all weights"),
      CLI_O_CALL("r-end", positive, &c->r_end, "X", "spsa: the final step ratio, all weights"),
      CLI_O_INT("games", &c->games, 1, 100000000, "N", "2000", "texel: self-play games"),
      CLI_O_TEXT("from-db", &c->from_db, "PATH", NULL,
                 "texel: the games of a database instead of self-play"),
      CLI_O_INT("positions", &c->positions, 1, 100000000, "M", "200000",
                "texel: quiet positions kept"),
      CLI_O_INT("max-iter", &c->max_iter, 1, 100000, "I", "200", "texel: fit steps"),
      CLI_O_INT("threads", &c->threads, 1, 256, "T", NULL,
                "games played at once, by default one per core"),
      CLI_O_TEXT("variant", &c->variant, "V", "abapa", "rule variant"),
      CLI_O_INT("seed", &c->seed, 0, (long long)(~0ULL >> 1), "S", "1", "the run's seed"),
      CLI_O_INT("opening-plies", &c->opening_plies, 0, 40, "P", "8",
                "random plies of a pair's opening"),
      CLI_O_TEXT("db", &c->db, "PATH", DEFAULT_DB, "the SQLite database"),
      CLI_O_TEXT("out", &c->out, "WEIGHTS", NULL,
                 "the tuned weights file (default results/tuned-RUN.txt)"),
      CLI_O_INT("validate", &c->validate, 0, 10000000, "N", NULL,
                "game pairs of the tuned weights against the start"),
      CLI_O_TEXT("validate-sprt", &c->validate_sprt, "SPRT", NULL,
                 "validate until the SPRT decides"),
      CLI_O_TEXT("name", &c->name, "NAME", NULL, "the run's name"),
      CLI_O_FLAG("report", &c->report, "write the run's report at the end"),
      CLI_O_FLAG("quiet", &c->quiet, "no progress on stderr"),
      CLI_O_INT("resume", &run, 1, (long long)(~0ULL >> 1), "RUN", NULL,
                "continue a run that was stopped (with --db and --threads only)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, tune_usage, NULL, opts, 1};
  if (cli_parse(&spec, argc, argv, mode, &nmode, &rc)) return rc ? rc : -1;
  if (run > 0) {
    for (const cli_option *o = opts; o->name; o++)
      if (o->given && strcmp(o->name, "resume") && strcmp(o->name, "db") &&
          strcmp(o->name, "threads"))
        return cli_error(cmd, "with --resume only --db and --threads are allowed");
    if (!resume || nmode)
      return cli_error(cmd, "with --resume only --db and --threads are allowed");
    *resume = run;
    *threads_given = cli_option_find(&spec, "threads")->given > 0;
    return 0;
  }
  if (!nmode || (strcmp(mode[0], "spsa") && strcmp(mode[0], "texel")))
    return cli_error(cmd, "the first argument is spsa or texel (or --resume RUN); see --help");
  c->spsa = !strcmp(mode[0], "spsa");
  return check(cmd, c);
}


/* The checks after parsing (a new run) or reading the settings (--resume). */
static int check(const char *cmd, tune_cfg *c) {
  if (!c->spec) return cli_error(cmd, "--player SPEC is needed (a minimax player)");
  /* A level is tuned and stored as the spec it stands for. */
  static char resolved[LEVEL_SPEC_MAX + 512];
  char lerr[1024];
  if (level_resolve(c->spec, resolved, sizeof resolved, lerr, sizeof lerr))
    return cli_error(cmd, "--player: %s", lerr);
  c->spec = c->label = resolved;
  /* The default folder's endgame tables are pinned into a new run's spec
   * (a resumed one's is pinned already): players/tablebase.h. */
  static char pinned[LEVEL_SPEC_MAX + 1024];
  variant v;
  if (!variant_parse(c->variant, &v, lerr, sizeof lerr)) {
    if (tablebase_pin_spec(c->spec, &v, 1, pinned, sizeof pinned, lerr, sizeof lerr))
      return cli_error(cmd, "--player: %s", lerr);
    c->spec = pinned;
  }
  if (c->validate_sprt) {
    rating_sprt sp;
    char err[256];
    if (rating_sprt_parse(c->validate_sprt, &sp, err, sizeof err))
      return cli_error(cmd, "--validate-sprt: %s", err);
    if (!c->validate) c->validate = 2000;
  }
  return 0;
}

/* The run's settings (run_config; docs/SCHEMA.md): the options by name. */
typedef struct tune_key {
  const char *key;
  size_t text, num; /* offsetof the field in tune_cfg, or (size_t)-1 */
  int real;
} tune_key;
#define NONE ((size_t)-1)
static const tune_key tune_keys[] = {
    {"player", offsetof(tune_cfg, spec), NONE, 0},
    {"params", offsetof(tune_cfg, params), NONE, 0},
    {"start", offsetof(tune_cfg, start), NONE, 0},
    {"variant", offsetof(tune_cfg, variant), NONE, 0},
    {"out", offsetof(tune_cfg, out), NONE, 0},
    {"from-db", offsetof(tune_cfg, from_db), NONE, 0},
    {"name", offsetof(tune_cfg, name), NONE, 0},
    {"validate-sprt", offsetof(tune_cfg, validate_sprt), NONE, 0},
    {"iterations", NONE, offsetof(tune_cfg, iterations), 0},
    {"pairs", NONE, offsetof(tune_cfg, pairs), 0},
    {"seed", NONE, offsetof(tune_cfg, seed), 0},
    {"validate", NONE, offsetof(tune_cfg, validate), 0},
    {"games", NONE, offsetof(tune_cfg, games), 0},
    {"positions", NONE, offsetof(tune_cfg, positions), 0},
    {"max-iter", NONE, offsetof(tune_cfg, max_iter), 0},
    {"opening-plies", NONE, offsetof(tune_cfg, opening_plies), 0},
    {"c-end", NONE, offsetof(tune_cfg, c_end), 1},
    {"r-end", NONE, offsetof(tune_cfg, r_end), 1},
};
#define NKEYS (sizeof tune_keys / sizeof tune_keys[0])

/* Stores the configuration as the run's settings. -1 when out of memory. */
static int cfg_to_run(const tune_cfg *c, store_run *run) {
  const char *base = (const char *)c;
  int bad = 0;
  for (size_t k = 0; k < NKEYS; k++) {
    const tune_key *t = &tune_keys[k];
    if (t->text != NONE) {
      const char *v = *(const char *const *)(base + t->text);
      if (v) bad |= store_config_set_text(run, t->key, v);
    } else if (t->real) {
      double v = *(const double *)(base + t->num);
      if (v > 0) bad |= store_config_set_real(run, t->key, v);
    } else {
      bad |= store_config_set_int(run, t->key, *(const long long *)(base + t->num));
    }
  }
  if (c->quiet) bad |= store_config_set_int(run, "quiet", 1);
  if (c->report) bad |= store_config_set_int(run, "report", 1);
  return bad ? -1 : 0;
}

/* The configuration of a stored run, from its settings (missing ones keep
 * their defaults). The texts point into run. */
static int cfg_from_run(const char *cmd, const store_run *run, tune_cfg *c) {
  char err[512];
  char *base = (char *)c;
  defaults(c);
  c->spsa = run->kind == STORE_SPSA;
  for (size_t k = 0; k < NKEYS; k++) {
    const tune_key *t = &tune_keys[k];
    int rc = t->text != NONE ? store_config_get_text(run, t->key, (const char **)(base + t->text),
                                                     err, sizeof err)
             : t->real       ? store_config_get_real(run, t->key, (double *)(base + t->num), err,
                                                     sizeof err)
                       : store_config_get_int(run, t->key, (long long *)(base + t->num), err,
                                              sizeof err);
    if (rc < 0) return cli_error(cmd, "%s", err);
  }
  long long flag = 0;
  if (store_config_get_int(run, "quiet", &flag, err, sizeof err) == 0) c->quiet = flag != 0;
  flag = 0;
  if (store_config_get_int(run, "report", &flag, err, sizeof err) == 0) c->report = flag != 0;
  return check(cmd, c);
}
#undef NONE

static void print_weights(FILE *f, const char *title, const eval_weights *w, const int *tuned) {
  fprintf(f, "%s:", title);
  for (int i = 0; i < EVAL_N; i++)
    if (tuned[i]) fprintf(f, " %s=%.1f", eval_features[i].name, w->w[i]);
  fputc('\n', f);
}

/* The drivers' lines: results on stdout, the rest on stderr unless --quiet
 * (the progress line erased first: it is drawn again at the next games). */
static void on_line(void *ctx, tuner_line kind, const char *text) {
  const tune_cfg *c = ctx;
  if (kind == TUNER_RESULT || !c->quiet) cli_progress_clear(&tune_line);
  if (kind == TUNER_RESULT) printf("%s\n", text);
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

/* What a tuning run is given: the options, their variant and weights. */
typedef struct tune_setup {
  tune_cfg c;
  variant v;
  eval_weights start;
  int tuned[EVAL_N];
  int locked; /* the run's lock is held */
} tune_setup;

/* --resume RUN: the run's settings are read back into s->c; its lock is
 * taken. 0, or the exit code after an error. */
static int load_resume(const char *cmd, long long resume, long long threads, tune_setup *s,
                       store **db, store_run *run) {
  char err[1024];
  const char *db_path = s->c.db;
  if (store_open(db_path, 0, db, err, sizeof err) ||
      store_run_load(*db, resume, run, err, sizeof err))
    return cli_error(cmd, "%s", err);
  if (run->kind != STORE_SPSA && run->kind != STORE_TEXEL)
    return cli_error(cmd, "run %lld is a %s, not a tuning run", resume, store_kind_name(run->kind));
  if (store_run_resumable(run, err, sizeof err)) return cli_error(cmd, "%s", err);
  if (cfg_from_run(cmd, run, &s->c)) return CLI_EXIT_USAGE;
  if (store_run_lock(*db, run->id, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  s->locked = 1;
  s->c.db = db_path;
  s->c.threads = threads ? threads : run->threads;
  return 0;
}

/* A new run in the database for s, its settings stored, its lock taken
 * (a --resume of it meanwhile is refused). 0, or the exit code. */
static int new_run(const char *cmd, int argc, char **argv, tune_setup *s, store_run *run,
                   store **db) {
  const tune_cfg *c = &s->c;
  char format[96], openings[32], vname[256], err[1024];
  run->kind = c->spsa ? STORE_SPSA : STORE_TEXEL;
  if (c->spsa) snprintf(format, sizeof format, "iterations:%lld,pairs:%lld", c->iterations, c->pairs);
  else snprintf(format, sizeof format, "games:%lld,positions:%lld", c->games, c->positions);
  snprintf(openings, sizeof openings, "random:%lld", c->opening_plies);
  variant_format(&s->v, vname, sizeof vname);
  run->rounds = 1;
  run->threads = (int)c->threads;
  run->seed = (uint64_t)c->seed;
  if (store_run_set(&run->name, c->name ? c->name : c->spsa ? "spsa" : "texel") ||
      store_run_set(&run->format, format) || store_run_set(&run->openings, openings) ||
      !(run->command = cli_quote_args("oware tune", argc, argv)) ||
      store_run_add_player(run, c->label, c->spec) || store_run_add_variant(run, vname) ||
      cfg_to_run(c, run))
    return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  int rc = cli_store_new_run(cmd, c->db, run, db);
  if (rc) return rc;
  if (store_run_lock(*db, run->id, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  s->locked = 1;
  return 0;
}

/* The SPSA or Texel driver on run_id. */
static int tune_play(const tune_setup *s, store *db, int64_t run_id, tuner_result *res, char *err,
                     size_t errlen) {
  const tune_cfg *c = &s->c;
  tuner_observer obs = {(void *)c, on_line, on_iteration, on_games};
  if (c->spsa) {
    tuner_spsa_config sc = {c->spec, s->v, s->start, {0}, (int)c->iterations, (int)c->pairs,
                            (int)c->threads, (int)c->opening_plies, (uint64_t)c->seed,
                            c->c_end, c->r_end};
    memcpy(sc.tuned, s->tuned, sizeof sc.tuned);
    int rc = tuner_spsa_run(&sc, db, run_id, &obs, &tune_stop, res, err, errlen);
    cli_progress_clear(&tune_line);
    return rc;
  }
  tuner_texel_config tc = {c->spec, s->v, s->start, {0}, c->from_db, (int)c->games,
                           (int)c->positions, (int)c->max_iter, (int)c->threads,
                           (int)c->opening_plies, (uint64_t)c->seed};
  memcpy(tc.tuned, s->tuned, sizeof tc.tuned);
  int rc = tuner_texel_run(&tc, db, run_id, &obs, &tune_stop, res, err, errlen);
  cli_progress_clear(&tune_line);
  return rc;
}

/* The tuned weights to --out (default results/tuned-RUN.txt). */
static int write_weights(const char *cmd, const tune_cfg *c, int64_t run_id, const eval_weights *w) {
  char outp[512];
  if (c->out) {
    snprintf(outp, sizeof outp, "%s", c->out);
  } else {
    char err[512];
    path_mkdirs("results", err, sizeof err); /* an error shows when the file cannot be written */
    snprintf(outp, sizeof outp, "results/tuned-%lld.txt", (long long)run_id);
  }
  outfile wf;
  if (cli_out_open(cmd, &wf, outp)) return -1;
  if (eval_write(wf.f, w)) {
    cli_error(cmd, "cannot write '%s': %s", outp, strerror(errno));
    cli_out_abort(&wf);
    return -1;
  }
  if (cli_out_commit(cmd, &wf)) return -1;
  printf("weights written to %s (minimax:weights=%s)\n", outp, outp);
  return 0;
}

/* The validation (tuned against start), printed. */
static int validate(const char *cmd, const tune_setup *s, const eval_weights *w, store *db,
                    int64_t run_id, long long games) {
  const tune_cfg *c = &s->c;
  tuner_validate_config vc = {c->spec, s->v, w, &s->start, (int)c->validate, c->validate_sprt,
                              (int)c->threads, (int)c->opening_plies, (uint64_t)c->seed};
  tuner_observer obs = {(void *)c, on_line, NULL, on_games};
  tuner_validation val;
  char err[1024];
  int rc = tuner_validate(&vc, db, run_id, games, &obs, &tune_stop, &val, err, sizeof err);
  cli_progress_clear(&tune_line);
  if (rc) return cli_error(cmd, "%s", err);
  rating_match_print(stdout, "tuned", "start", &val.m, val.has_sprt ? &val.sprt : NULL);
  printf("validation: Elo gain of the tuned weights %+.1f, 95%% interval [%+.1f, %+.1f], "
         "LOS %.2f%%\n",
         val.st.penta_elo, val.st.penta_elo - val.st.penta_err,
         val.st.penta_elo + val.st.penta_err, 100 * val.st.los);
  return 0;
}

/* After the run: its status, --report, how to resume. Returns the exit code. */
static int finish(const char *cmd, const tune_cfg *c, store *db, int64_t id, int complete) {
  char err[1024];
  if (store_run_status(db, id, complete ? STORE_FINISHED : STORE_INTERRUPTED, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if (c->report) {
    char dir[256];
    snprintf(dir, sizeof dir, "results/run-%lld", (long long)id);
    if (report_write(db, id, dir, stderr, err, sizeof err))
      return cli_error(cmd, "report: %s", err), CLI_EXIT_FAIL;
    printf("report: %s/index.html\n", dir);
  }
  if (!complete)
    fprintf(stderr, "oware tune: run %lld interrupted; continue it with: oware tune --resume %lld --db %s\n",
            (long long)id, (long long)id, c->db);
  return complete ? CLI_EXIT_OK : 130;
}

/* The run (new or resumed) is in db: tune, write, validate, finish. */
static int tune_run(const char *cmd, tune_setup *s, store *db, int64_t id, int resumed) {
  const tune_cfg *c = &s->c;
  char err[1024];
  if (resumed && store_run_status(db, id, STORE_RUNNING, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  tuner_last last;
  if (tuner_last_row(db, id, &last, err, sizeof err)) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  cli_catch_stop(&tune_stop, "\noware tune: stopping after this iteration (Ctrl-C again to quit at once)\n");
  cli_progress_init(&tune_line, c->quiet);
  snprintf(tune_step, sizeof tune_step, "iteration %lld/%lld",
           last.found ? (long long)last.row.iteration + 2 : 1, c->iterations);
  if (!c->quiet)
    fprintf(stderr, "tuning run %lld (%s), db %s%s\n", (long long)id, c->spsa ? "spsa" : "texel",
            c->db, last.found ? ", resumed" : "");
  print_weights(stdout, "start", &s->start, s->tuned);
  tuner_result res;
  if (tune_play(s, db, id, &res, err, sizeof err)) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  print_weights(stdout, "tuned", &res.w, s->tuned);
  if (write_weights(cmd, c, id, &res.w)) return CLI_EXIT_FAIL;
  if (res.complete && c->validate > 0 && !res.validated && !atomic_load(&tune_stop) &&
      validate(cmd, s, &res.w, db, id, res.games))
    return CLI_EXIT_FAIL;
  return finish(cmd, c, db, id, res.complete);
}

int cli_tune(int argc, char **argv) {
  const char *cmd = "tune";
  long long resume = -1;
  int threads_given = 0;
  tune_setup *s = calloc(1, sizeof *s);
  store_run *run = calloc(1, sizeof *run);
  store *db = NULL;
  char err[1024];
  int rc = CLI_EXIT_FAIL;
  if (!s || !run) {
    cli_error(cmd, "out of memory");
    goto out;
  }
  rc = parse(cmd, argc, argv, &s->c, &resume, &threads_given);
  if (rc) {
    rc = rc < 0 ? CLI_EXIT_OK : rc;
    goto out;
  }
  if (resume > 0 &&
      (rc = load_resume(cmd, resume, threads_given ? s->c.threads : 0, s, &db, run)))
    goto out;
  rc = CLI_EXIT_USAGE;
  /* The output file can be written (checked before any game is played). */
  if (s->c.out && cli_check_output(cmd, "--out", s->c.out)) goto out;
  if (cli_variant(cmd, s->c.variant, &s->v)) goto out;
  if (tuner_weights_setup(s->c.spec, s->c.start, s->c.params, &s->start, s->tuned, err,
                          sizeof err)) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  if (s->c.from_db && s->c.spsa) {
    cli_error(cmd, "--from-db goes with texel");
    goto out;
  }
  if (!db && (rc = new_run(cmd, argc, argv, s, run, &db))) goto out;
  rc = tune_run(cmd, s, db, run->id, resume > 0);
out:
  cli_release_stop();
  if (s && s->locked) store_run_unlock(db, run->id, err, sizeof err);
  if (db) store_close(db);
  store_run_free(run);
  free(run);
  free(s);
  return rc;
}
