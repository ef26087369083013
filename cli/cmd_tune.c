/* cmd_tune.c: `oware tune spsa|texel`: tuning runs logged to the database, resumable, validated. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena/pairs.h"
#include "arena/rating_print.h"
#include "arena/report.h"
#include "arena/store.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "core/notation.h"
#include "core/rng.h"
#include "players/eval.h"
#include "players/eval.h"
#include "players/player.h"
#include "tuner/spsa.h"
#include "tuner/texel.h"

#define DEFAULT_DB CLI_DEFAULT_DB

static atomic_int tune_stop;


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

/* "name value name value ..." of the tuned weights (for the tuning table). */
static void weights_text(const eval_weights *w, const int *tuned, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < EVAL_N && n < len; i++)
    if (!tuned || tuned[i])
      n += (size_t)snprintf(buf + n, len - n, "%s%s %.17g", n ? " " : "", eval_features[i].name,
                            w->w[i]);
}

static int weights_from_text(const char *text, eval_weights *w) {
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL;
  for (char *name = strtok_r(buf, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
    char *val = strtok_r(NULL, " ", &save);
    int i = eval_find(name);
    if (!val || i < 0) return -1;
    w->w[i] = strtod(val, NULL);
  }
  return 0;
}

typedef struct last_row {
  int found;
  store_tuning row;
  int validated;
} last_row;

static int keep_last(void *ctx, const store_tuning *t) {
  last_row *l = ctx;
  if (!strcmp(t->kind, "validation")) {
    l->validated = 1;
    return 0;
  }
  if (!l->found || t->iteration >= l->row.iteration) l->row = *t;
  l->found = 1;
  return 0;
}

static void print_weights(FILE *f, const char *title, const eval_weights *w, const int *tuned) {
  fprintf(f, "%s:", title);
  for (int i = 0; i < EVAL_N; i++)
    if (tuned[i]) fprintf(f, " %s=%.1f", eval_features[i].name, w->w[i]);
  fputc('\n', f);
}

/* The validation: tuned against start, N pairs; prints and logs the Elo. */
static int validate(const char *cmd, const tune_cfg *c, const variant *v, const eval_weights *start,
                    const eval_weights *tuned, store *db, int64_t run, long long games_so_far) {
  player_param pt[EVAL_N], ps[EVAL_N];
  eval_params(tuned, pt);
  eval_params(start, ps);
  pairs_job job = {c->spec, c->spec, pt, EVAL_N, ps, EVAL_N, *v, (int)c->validate, 0,
                   (int)c->threads, (int)c->opening_plies,
                   rng_mix((uint64_t)c->seed, 0x76616c6964ULL)};
  pairs_result res, part;
  char err[512];
  rating_match m;
  memset(&m, 0, sizeof m);
  memset(&res, 0, sizeof res);
  rating_sprt sprt;
  rating_sprt_result sr = {0};
  if (c->validate_sprt) {
    if (rating_sprt_parse(c->validate_sprt, &sprt, err, sizeof err))
      return cli_error(cmd, "--validate-sprt: %s", err), -1;
    if (!c->quiet)
      fprintf(stderr, "validation: SPRT %s, at most %lld game pairs, tuned against start\n",
              c->validate_sprt, c->validate);
  } else if (!c->quiet) {
    fprintf(stderr, "validation: %lld game pairs, tuned against start\n", c->validate);
  }
  /* With an SPRT the pairs are played in chunks, the test read after each. */
  int chunk = c->validate_sprt ? 4 * (int)c->threads : (int)c->validate;
  for (int first = 0; first < c->validate && !atomic_load(&tune_stop); first += chunk) {
    job.first_pair = first;
    job.pairs = (int)(c->validate - first < chunk ? c->validate - first : chunk);
    if (pairs_play(&job, &tune_stop, &part, err, sizeof err)) return cli_error(cmd, "%s", err), -1;
    res.wins += part.wins;
    res.draws += part.draws;
    res.losses += part.losses;
    res.penta_wl += part.penta_wl;
    for (int k = 0; k < 5; k++) res.penta[k] += part.penta[k];
    m.wins = res.wins;
    m.draws = res.draws;
    m.losses = res.losses;
    for (int k = 0; k < 5; k++) m.penta[k] = res.penta[k];
    m.pairs_wl = res.penta_wl;
    if (c->validate_sprt) {
      sr = rating_sprt_test(&sprt, &m, 0);
      if (sr.decision) break;
    }
  }
  rating_match_stats st;
  rating_match_compute(&m, &st);
  rating_match_print(stdout, "tuned", "start", &m, c->validate_sprt ? &sprt : NULL);
  printf("validation: Elo gain of the tuned weights %+.1f, 95%% interval [%+.1f, %+.1f], "
         "LOS %.2f%%\n",
         st.penta_elo, st.penta_elo - st.penta_err, st.penta_elo + st.penta_err, 100 * st.los);
  store_tuning row;
  memset(&row, 0, sizeof row);
  row.run_id = run;
  row.iteration = -1;
  snprintf(row.kind, sizeof row.kind, "validation");
  int all[EVAL_N];
  for (int i = 0; i < EVAL_N; i++) all[i] = 1;
  weights_text(tuned, all, row.weights, sizeof row.weights);
  row.wins = res.wins;
  row.draws = res.draws;
  row.losses = res.losses;
  row.value = st.penta_elo;
  row.lo = st.penta_elo - st.penta_err;
  row.hi = st.penta_elo + st.penta_err;
  row.games = games_so_far + res.wins + res.draws + res.losses;
  if (store_tuning_insert(db, &row, err, sizeof err)) return cli_error(cmd, "%s", err), -1;
  return 0;
}

/* ---- Texel positions from the games of a database ---- */

typedef struct db_reader {
  store *db;
  const variant *v;
  char vname[160];
  texel_set *set;
  long long games, runs;
  uint64_t seed;
  int failed;
  char err[512];
  const store_run *run; /* the run being read */
} db_reader;

static int read_game(void *ctx, const store_game *g) {
  db_reader *d = ctx;
  if (g->variant_idx < 0 || g->variant_idx >= d->run->nvariants ||
      strcmp(d->run->variant[g->variant_idx], d->vname))
    return 0; /* another variant */
  board start;
  if (notation_parse_position(g->opening, d->v, &start, d->err, sizeof d->err)) {
    d->failed = 1;
    return 1;
  }
  size_t n = strlen(g->moves);
  int *moves = malloc((n + 1) * sizeof *moves);
  if (!moves) {
    snprintf(d->err, sizeof d->err, "out of memory");
    d->failed = 1;
    return 1;
  }
  for (size_t i = 0; i < n; i++) moves[i] = notation_move_index(d->v, g->moves[i]);
  /* A forfeited game's outcome says nothing about its positions. */
  int rc = 0;
  if (g->end < MATCH_FORFEIT_TIMEOUT) {
    rc = texel_add_game(d->set, d->v, &start, moves, (int)n, g->winner, 6, 1.0,
                        rng_mix(d->seed, (uint64_t)d->games));
    d->games++;
  }
  free(moves);
  if (rc < 0) {
    snprintf(d->err, sizeof d->err, "out of memory");
    d->failed = 1;
    return 1;
  }
  return 0;
}

static int read_run(void *ctx, const store_run *r) {
  db_reader *d = ctx;
  d->run = r;
  d->runs++;
  if (store_games_foreach(d->db, r->id, read_game, d, d->err, sizeof d->err)) d->failed = 1;
  return d->failed;
}

static int from_db(const char *cmd, const char *path, const variant *v, texel_set *set,
                   const tune_cfg *c) {
  db_reader d;
  memset(&d, 0, sizeof d);
  d.v = v;
  d.set = set;
  d.seed = (uint64_t)c->seed;
  variant_format(v, d.vname, sizeof d.vname);
  if (store_open(path, 0, &d.db, d.err, sizeof d.err))
    return cli_error(cmd, "--from-db: %s", d.err), -1;
  int rc = store_runs_foreach(d.db, read_run, &d, d.err, sizeof d.err);
  store_close(d.db);
  if (rc || d.failed) return cli_error(cmd, "--from-db %s: %s", path, d.err), -1;
  if (!set->n)
    return cli_error(cmd, "--from-db %s: no quiet position in %lld games of variant %s", path,
                     d.games, d.vname),
           -1;
  if (!c->quiet)
    fprintf(stderr, "texel: %zu quiet positions from %lld games of %lld runs in %s\n", set->n,
            d.games, d.runs, path);
  return 0;
}

int cli_tune(int argc, char **argv) {
  const char *cmd = "tune";
  /* --resume RUN: the run's settings are read back. */
  long long resume = -1, threads_override = 0;
  int threads_given = 0, locked = 0;
  tune_cfg c;
  int p = parse(cmd, argc, argv, &c, &resume, &threads_given);
  if (p) return p < 0 ? CLI_EXIT_OK : p;
  const char *db_path = c.db;
  if (threads_given) threads_override = c.threads;
  store *db = NULL;
  store_run *run = calloc(1, sizeof *run);
  char err[1024];
  int rc = CLI_EXIT_USAGE;
  if (!run) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  if (resume > 0) {
    if (store_open(db_path, 0, &db, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      goto out;
    }
    if (store_run_load(db, resume, run, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      goto out;
    }
    if (run->kind != STORE_SPSA && run->kind != STORE_TEXEL) {
      cli_error(cmd, "run %lld is a %s, not a tuning run", resume, store_kind_name(run->kind));
      goto out;
    }
    if (store_run_resumable(run, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      goto out;
    }
    if (cfg_from_run(cmd, run, &c)) goto out;
    if (store_run_lock(db, run->id, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      rc = CLI_EXIT_FAIL;
      goto out;
    }
    locked = 1;
    c.db = db_path;
    c.threads = threads_override ? threads_override : run->threads;
  }

  /* The player, the variant, the weights. */
  variant v;
  if (cli_variant(cmd, c.variant, &v)) goto out;
  player_config pc;
  if (player_parse_spec(c.spec, &pc, err, sizeof err)) {
    cli_error(cmd, "--player: %s", err);
    goto out;
  }
  int is_minimax = !strcmp(pc.type->name, "minimax");
  const char *wfile = is_minimax ? player_config_text(&pc, "weights") : NULL;
  eval_weights start;
  eval_default(&start);
  int bad = 0;
  if (!is_minimax) bad = cli_error(cmd, "--player must be a minimax player (got %s)", pc.type->name);
  else if (wfile && eval_load(wfile, &start, err, sizeof err)) bad = cli_error(cmd, "%s", err);
  player_config_free(&pc);
  if (bad) goto out;
  if (c.start) {
    if (!strncmp(c.start, "equal:", 6)) {
      char *end;
      double x = strtod(c.start + 6, &end);
      if (*end || end == c.start + 6 || !isfinite(x)) {
        cli_error(cmd, "--start equal:X needs a number (got '%s')", c.start + 6);
        goto out;
      }
      for (int i = 0; i < EVAL_N; i++) start.w[i] = x;
    } else if (eval_load(c.start, &start, err, sizeof err)) {
      cli_error(cmd, "--start: %s", err);
      goto out;
    }
  }
  int tuned[EVAL_N] = {0};
  if (!strcmp(c.params, "all")) {
    for (int i = 0; i < EVAL_N; i++) tuned[i] = 1;
  } else {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", c.params);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      int f = eval_find(tok);
      if (f < 0) {
        cli_error(cmd, "--params: unknown weight '%s' ('oware weights' lists them)", tok);
        goto out;
      }
      tuned[f] = 1;
    }
  }
  if (c.from_db && c.spsa) {
    cli_error(cmd, "--from-db goes with texel");
    goto out;
  }
  /* The run in the database. */
  if (!db) {
    char format[96], openings[32], vname[256];
    run->kind = c.spsa ? STORE_SPSA : STORE_TEXEL;
    if (c.spsa) snprintf(format, sizeof format, "iterations:%lld,pairs:%lld", c.iterations, c.pairs);
    else snprintf(format, sizeof format, "games:%lld,positions:%lld", c.games, c.positions);
    snprintf(openings, sizeof openings, "random:%lld", c.opening_plies);
    variant_format(&v, vname, sizeof vname);
    run->rounds = 1;
    run->threads = (int)c.threads;
    run->seed = (uint64_t)c.seed;
    if (store_run_set(&run->name, c.name ? c.name : c.spsa ? "spsa" : "texel") ||
        store_run_set(&run->format, format) || store_run_set(&run->openings, openings) ||
        !(run->command = cli_quote_args("oware tune", argc, argv)) ||
        store_run_add_player(run, c.spec, c.spec) || store_run_add_variant(run, vname) ||
        cfg_to_run(&c, run)) {
      cli_error(cmd, "out of memory");
      rc = CLI_EXIT_FAIL;
      goto out;
    }
    if ((rc = cli_store_new_run(cmd, c.db, run, &db))) goto out;
    /* Held while it plays: a --resume of it meanwhile is refused. */
    if (store_run_lock(db, run->id, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      rc = CLI_EXIT_FAIL;
      goto out;
    }
    locked = 1;
  } else if (store_run_status(db, run->id, STORE_RUNNING, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    rc = CLI_EXIT_FAIL;
    goto out;
  }
  rc = CLI_EXIT_FAIL;
  last_row last;
  memset(&last, 0, sizeof last);
  if (store_tuning_foreach(db, run->id, keep_last, &last, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  cli_catch_stop(&tune_stop, "\noware tune: stopping after this iteration (Ctrl-C again to quit at once)\n");
  if (!c.quiet)
    fprintf(stderr, "tuning run %lld (%s), db %s%s\n", (long long)run->id,
            store_kind_name(run->kind), c.db,
            last.found ? ", resumed" : "");
  eval_weights w = start;
  long long games = 0;
  int complete = 0;
  if (last.found) {
    if (weights_from_text(last.row.weights, &w)) {
      cli_error(cmd, "run %lld: unreadable stored weights", (long long)run->id);
      goto out;
    }
    games = last.row.games;
  }
  print_weights(stdout, "start", &start, tuned);

  if (c.spsa) {
    spsa_config sc;
    spsa_defaults(&sc, (int)c.iterations, (uint64_t)c.seed);
    int map[EVAL_N];
    for (int i = 0; i < EVAL_N; i++)
      if (tuned[i]) {
        map[sc.nparams] = i;
        spsa_add_feature(&sc, i, w.w[i]);
        if (c.c_end > 0) sc.p[sc.nparams - 1].c_end = c.c_end;
        if (c.r_end > 0) sc.p[sc.nparams - 1].r_end = c.r_end;
      }
    double theta[EVAL_N], plus[EVAL_N], minus[EVAL_N];
    int delta[EVAL_N];
    for (int j = 0; j < sc.nparams; j++) theta[j] = w.w[map[j]];
    int k0 = last.found ? last.row.iteration + 1 : 0;
    for (int k = k0; k < sc.iterations && !atomic_load(&tune_stop); k++) {
      spsa_delta(&sc, k, delta);
      spsa_points(&sc, k, theta, delta, plus, minus);
      eval_weights wp = w, wm = w;
      for (int j = 0; j < sc.nparams; j++) wp.w[map[j]] = plus[j], wm.w[map[j]] = minus[j];
      /* Each iteration's openings and seeds come from (seed, k). */
      player_param pp[EVAL_N], pm[EVAL_N];
      eval_params(&wp, pp);
      eval_params(&wm, pm);
      pairs_job job = {c.spec, c.spec, pp, EVAL_N, pm, EVAL_N, v, (int)c.pairs,
                       k * (int)c.pairs, (int)c.threads, (int)c.opening_plies, (uint64_t)c.seed};
      pairs_result res;
      if (pairs_play(&job, NULL, &res, err, sizeof err)) {
        cli_error(cmd, "%s", err);
        goto out;
      }
      double result = (double)(res.wins - res.losses);
      store_tuning row;
      memset(&row, 0, sizeof row);
      row.run_id = run->id;
      row.iteration = k;
      snprintf(row.kind, sizeof row.kind, "spsa");
      size_t n = 0;
      for (int j = 0; j < sc.nparams && n < sizeof row.step; j++)
        n += (size_t)snprintf(row.step + n, sizeof row.step - n, "%s%s %.4f", j ? " " : "",
                              sc.p[j].name, spsa_c(&sc, j, k));
      spsa_update(&sc, k, theta, delta, result);
      for (int j = 0; j < sc.nparams; j++) w.w[map[j]] = theta[j];
      games += res.wins + res.draws + res.losses;
      weights_text(&w, tuned, row.weights, sizeof row.weights);
      row.wins = res.wins;
      row.draws = res.draws;
      row.losses = res.losses;
      row.value = result;
      row.games = games;
      if (store_tuning_insert(db, &row, err, sizeof err)) {
        cli_error(cmd, "%s", err);
        goto out;
      }
      if (!c.quiet && isatty(STDERR_FILENO))
        fprintf(stderr, "\riteration %d/%d: plus %+lld (W %lld D %lld L %lld), %lld games   ", k + 1,
                sc.iterations, res.wins - res.losses, res.wins, res.draws, res.losses, games);
      if (k + 1 == sc.iterations) complete = 1;
    }
    if (k0 >= sc.iterations) complete = 1;
    if (!c.quiet && isatty(STDERR_FILENO)) fputc('\n', stderr);
  } else {
    if (last.found) {
      printf("texel run %lld is already fitted; validating and writing the result\n",
             (long long)run->id);
      complete = 1;
    } else {
      texel_set set = {0};
      if (c.from_db) {
        if (from_db(cmd, c.from_db, &v, &set, &c)) {
          texel_free(&set);
          goto out;
        }
      } else {
        if (!c.quiet)
          fprintf(stderr, "texel: %lld self-play games of %s on %lld threads\n", c.games, c.spec,
                  c.threads);
        /* Positions of a game are kept with a probability that aims at M in all. */
        double keep = (double)c.positions / ((double)c.games * 40.0);
        if (keep > 1) keep = 1;
        if (texel_selfplay(&set, c.spec, &start, &v, (int)c.games, (int)c.threads, (int)c.opening_plies, keep,
                           (uint64_t)c.seed, err, sizeof err)) {
          cli_error(cmd, "%s", err);
          texel_free(&set);
          goto out;
        }
      }
      if (set.n > (size_t)c.positions) set.n = (size_t)c.positions;
      double K;
      if (texel_fit_k(&set, start.w, &K, err, sizeof err)) {
        cli_error(cmd, "%s", err);
        texel_free(&set);
        goto out;
      }
      double mse0 = texel_mse(&set, start.w, K), mse;
      printf("texel: %zu quiet positions, K = %.6g, error at the start %.6f\n", set.n, K, mse0);
      games = c.games;
      double wv[EVAL_N];
      for (int i = 0; i < EVAL_N; i++) wv[i] = start.w[i];
      if (texel_fit(&set, K, wv, tuned, (int)c.max_iter, NULL, NULL, &mse, err, sizeof err)) {
        cli_error(cmd, "%s", err);
        texel_free(&set);
        goto out;
      }
      for (int i = 0; i < EVAL_N; i++) w.w[i] = wv[i];
      printf("texel: error after the fit %.6f\n", mse);
      store_tuning row;
      memset(&row, 0, sizeof row);
      row.run_id = run->id;
      row.iteration = 0;
      snprintf(row.kind, sizeof row.kind, "texel");
      weights_text(&w, tuned, row.weights, sizeof row.weights);
      snprintf(row.step, sizeof row.step, "K %.6g positions %zu start_mse %.6f", K, set.n, mse0);
      row.value = mse;
      row.games = games;
      texel_free(&set);
      if (store_tuning_insert(db, &row, err, sizeof err)) {
        cli_error(cmd, "%s", err);
        goto out;
      }
      complete = 1;
    }
  }
  print_weights(stdout, "tuned", &w, tuned);

  /* The weights file. */
  char outp[512];
  if (c.out) {
    snprintf(outp, sizeof outp, "%s", c.out);
  } else {
    mkdir("results", 0777); /* an error shows when the file cannot be written */
    snprintf(outp, sizeof outp, "results/tuned-%lld.txt", (long long)run->id);
  }
  FILE *f = fopen(outp, "w");
  if (!f || eval_write(f, &w) || fclose(f)) {
    cli_error(cmd, "cannot write '%s': %s", outp, strerror(errno));
    goto out;
  }
  printf("weights written to %s (minimax:weights=%s)\n", outp, outp);
  if (complete && c.validate > 0 && !last.validated && !atomic_load(&tune_stop)) {
    if (validate(cmd, &c, &v, &start, &w, db, run->id, games)) goto out;
  }
  store_status status = complete ? STORE_FINISHED : STORE_INTERRUPTED;
  if (store_run_status(db, run->id, status, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  if (c.report) {
    char dir[256];
    snprintf(dir, sizeof dir, "results/run-%lld", (long long)run->id);
    if (report_write(db, run->id, dir, stderr, err, sizeof err)) {
      cli_error(cmd, "report: %s", err);
      goto out;
    }
    printf("report: %s/index.html\n", dir);
  }
  if (!complete)
    fprintf(stderr, "oware tune: run %lld interrupted; continue it with: oware tune --resume %lld --db %s\n",
            (long long)run->id, (long long)run->id, c.db);
  rc = complete ? CLI_EXIT_OK : 130;
out:
  cli_release_stop();
  if (locked) store_run_unlock(db, run->id, err, sizeof err);
  if (db) store_close(db);
  store_run_free(run);
  free(run);
  return rc;
}
