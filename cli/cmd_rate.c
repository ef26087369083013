/* cmd_rate.c: `oware rate` (Elo of the players in the database) and `oware sprt` (the LLR of given counts). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "report/pgn.h"
#include "report/rating_print.h"
#include "store/rating_scale.h"
#include "store/rating_store.h"
#include "store/store.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "cli/options.h"
#include "core/path.h"
#include "core/variant.h"

#define DEFAULT_DB "results/oware.db"
#define MAX_RUNS 1024

static const char rate_usage[] =
    "usage: oware rate [options]\n"
    "Rates the players of the games in the database: Bradley-Terry maximum\n"
    "likelihood Elo (400 scale, a draw is half a point), fitted jointly on all\n"
    "the games, with 95% intervals from the covariance of the fit or, with\n"
    "--bootstrap N, from N resamples (percentiles). Players are matched by name,\n"
    "so --run 1 --run 2 (or --run 1,2) pools two runs; --all rates every run;\n"
    "without either, the newest run. The scale puts the pool's average at 0, or\n"
    "NAME at ELO with --anchor. Prints rank, name, Elo, the - and + of the\n"
    "interval, games, score and draws (a '*' marks an estimate held finite\n"
    "because the player only won or only lost), then the likelihood of\n"
    "superiority of each pair (two players: the match statistics), and stores the\n"
    "ratings in the database. docs/STATISTICS.md gives every formula.\n"
    "--pgn FILE (or --ogn FILE; either reads both formats) rates games played\n"
    "elsewhere: White/South against Black/North by the Result tag, every record\n"
    "replayed under its Variant. Without --db the ratings are printed only; with\n"
    "--db the games are first stored as a new run of kind \"imported\" (named\n"
    "NAME, default 'imported FILE'), which is then rated as --run would rate it\n"
    "(and the ratings stored). docs/PGN.md describes both ways.\n";

static const char sprt_usage[] =
    "usage: oware sprt --elo0 E0 --elo1 E1 (--penta LL,LD,WLDD,WD,WW | --wdl W,D,L)\n"
    "                  [options]\n"
    "The generalized SPRT of fishtest for the given counts: game pairs by the\n"
    "first player's points in the pair (0, 1/2, 1, 3/2, 2), or wins, draws and\n"
    "losses of single games. H0: Elo = E0 against H1: Elo = E1, in normalized\n"
    "or logistic Elo. Prints\n"
    "  LLR <value>\n  bounds <ln(beta/(1-alpha))> <ln((1-beta)/alpha)>\n"
    "  decision continue|H0 accepted|H1 accepted\n";

/* The --run list: "N" or "N,M,..." added to runs (repeats dropped). */
typedef struct run_list {
  int64_t *runs;
  int n;
} run_list;

static int add_runs(const cli_option *o, const char *text, char *err, size_t errlen) {
  run_list *l = o->target;
  char buf[4096];
  if (strlen(text) >= sizeof buf) return snprintf(err, errlen, "--run list is too long"), -1;
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL, *end;
  int any = 0;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    errno = 0;
    long long id = strtoll(tok, &end, 10);
    if (errno || end == tok || *end || id < 1)
      return snprintf(err, errlen, "--run is '%s'; expected a whole number from 1 to %lld", tok,
                      (long long)INT64_MAX),
             -1;
    if (l->n == MAX_RUNS) return snprintf(err, errlen, "more than %d runs", MAX_RUNS), -1;
    int dup = 0;
    for (int i = 0; i < l->n; i++) dup |= l->runs[i] == id;
    if (!dup) l->runs[l->n++] = id;
    any = 1;
  }
  if (!any) return snprintf(err, errlen, "--run is '%s'; expected run numbers", text), -1;
  return 0;
}

static int newest_run(void *ctx, const store_run *r) {
  *(int64_t *)ctx = r->id;
  return 1; /* newest first: the first one is it */
}

/* NAME=ELO of --anchor (split at the last '='). 0, or -1 after an error. */
/* What was rated, in words (stored with the ratings). */
static void rate_scope(int all, const int64_t *runs, int nruns, const char *variant_name,
                       char *scope, size_t len) {
  size_t n = 0;
  if (all) {
    n = (size_t)snprintf(scope, len, "all runs");
  } else {
    n = (size_t)snprintf(scope, len, "run%s ", nruns > 1 ? "s" : "");
    for (int i = 0; i < nruns && n < len; i++)
      n += (size_t)snprintf(scope + n, len - n, "%s%" PRId64, i ? "," : "", runs[i]);
  }
  if (variant_name && n < len) snprintf(scope + n, len - n, " variant %s", variant_name);
}

/* The fit's table, and the match (two players) or the LOS matrix. */
static void rate_print(const char *scope, const char *anchor_name, double anchor_elo,
                       const rating_pool *pool, const rating_result *res) {
  printf("Ratings of %s (Bradley-Terry maximum likelihood, Elo", scope);
  if (anchor_name) printf("; %s = %g", anchor_name, anchor_elo);
  else printf("; pool average %g", anchor_elo);
  printf("):\n");
  rating_print_table(stdout, res);
  rating_print_groups(stdout, pool);
  putchar('\n');
  if (pool->n == 2) {
    rating_match m;
    rating_pool_match(pool, res->order[0], res->order[1], &m);
    rating_match_print(stdout, pool->name[res->order[0]], pool->name[res->order[1]], &m, NULL);
  } else {
    rating_print_los(stdout, res);
  }
}

/* Stores the fit's ratings (run_id 0: several runs; a read-only database:
 * said, not stored). The exit code. */
static int rate_store(const char *cmd, store *db, int read_only, const rating_result *res,
                      int64_t run_id, const char *scope) {
  char err[ERROR_MAX];
  if (read_only) return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK; /* cli_store_open_or_read said so */
  store_rating *rows = calloc((size_t)res->n, sizeof *rows);
  if (!rows) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  rating_to_store(res, run_id, scope, rows);
  int bad = store_ratings_insert(db, rows, res->n, err, sizeof err);
  free(rows);
  if (bad) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* The games to rate into pool: of runs (the newest run when none is given
 * and not all). 0, or the exit code after an error. */
static int rate_load(const char *cmd, const char *db_path, store *db, int all, int64_t *runs,
                     int *nruns, const char *variant_name, rating_pool *pool) {
  char err[ERROR_MAX];
  if (!all && !*nruns) {
    int64_t id = 0;
    if (store_runs_foreach(db, newest_run, &id, err, sizeof err))
      return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
    if (!id) return cli_error(cmd, "the database %s has no run", db_path);
    runs[(*nruns)++] = id;
  }
  if (rating_pool_load(pool, db, runs, *nruns, variant_name, err, sizeof err)) {
    /* An unknown run is bad input; anything else is a failure. */
    cli_error(cmd, "%s", err);
    return strstr(err, "no run ") ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  }
  return 0;
}

/* What `rate --pgn FILE` was given. */
typedef struct import_args {
  const char *path, *name, *variant_text, *db_path;
  int db_given, runs_given, json, again;
} import_args;

/* rate --pgn/--ogn: reads the file; without --db fills pool (nothing is
 * stored); with --db stores the games as a run of kind "imported" and adds
 * it to runs (*db left open). 0, or the exit code after an error. */
static int rate_import(const char *cmd, const import_args *ia, int argc, char **argv,
                       pgn_file *games, store **db, int64_t *runs, int *nruns, rating_pool *pool) {
  char err[ERROR_MAX];
  if (ia->runs_given) return cli_error(cmd, "--pgn/--ogn and --run/--all exclude each other");
  if (ia->name && !ia->db_given) return cli_error(cmd, "--name names the imported run: it needs --db");
  if (ia->name && cli_check_run_name(cmd, ia->name)) return CLI_EXIT_USAGE;
  if (ia->again && !ia->db_given) return cli_error(cmd, "--again imports a file again: it needs --db");
  if (ia->variant_text && !ia->db_given)
    return cli_error(cmd, "--variant with --pgn/--ogn needs --db (the games are filtered there)");
  char *text = cli_read_file(cmd, ia->path);
  if (!text) return CLI_EXIT_USAGE;
  int bad = pgn_file_read(text, games, err, sizeof err);
  free(text);
  if (bad) return cli_error(cmd, "%s: %s", ia->path, err);
  if (games->no_result)
    fprintf(stderr, "oware rate: %s: %d game(s) without a result ('*') left out\n", ia->path,
            games->no_result);
  if (!ia->db_given) {
    if (pgn_file_pool(games, pool, err, sizeof err)) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
    return 0;
  }
  if (games->n == games->no_result) /* before the database is made */
    return cli_error(cmd, "%s: no game with a result: nothing to import", ia->path);
  char name[512];
  snprintf(name, sizeof name, "%s%s", ia->name ? "" : "imported ", ia->name ? ia->name : ia->path);
  char *command = cli_quote_args("oware rate", argc, argv);
  if (!command) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  path_mkdirs_parent(ia->db_path, err, sizeof err); /* an error shows when it is opened */
  if (store_open(ia->db_path, 1, db, err, sizeof err)) {
    free(command);
    return cli_error(cmd, "%s", err);
  }
  int64_t id;
  int seen = ia->again ? 0 : store_run_find(*db, STORE_IMPORTED, PGN_SOURCE_KEY,
                                             games->source_hash, &id, err, sizeof err);
  if (seen) {
    free(command);
    if (seen < 0) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
    return cli_error(cmd,
                     "%s is already in %s as run %" PRId64 " (the same content): give --again "
                     "to import it once more",
                     ia->path, ia->db_path, id);
  }
  int stored = pgn_file_store(games, *db, name, command, &id, err, sizeof err);
  free(command);
  if (stored) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  fprintf(ia->json ? stderr : stdout, "Stored %d game(s) of %s as run %" PRId64 " (imported).\n",
          games->n - games->no_result, ia->path, id);
  runs[(*nruns)++] = id;
  return 0;
}

/* How the pool is fitted, printed and stored. */
typedef struct rate_fit_args {
  char *scope; /* room for 512 */
  const char *anchor;
  double anchor_elo;
  int bootstrap;
  uint64_t seed;
  int json, read_only;
  int64_t run_id;         /* the one run rated, else 0 */
  const long long *ends;  /* the rated games by end reason (OUTCOME_NENDS), or NULL */
  const store_end_score *scores; /* each player's games by end reason, nscores rows */
  int nscores;
} rate_fit_args;

/* Fits the pool, prints the ratings (or says there are no games), stores
 * them when db is open. The exit code. */
static int rate_fit(const char *cmd, rate_fit_args *a, rating_pool *pool, store *db,
                    rating_result *res) {
  char err[ERROR_MAX], *scope = a->scope;
  if (pool->n == 0) {
    if (a->anchor)
      return cli_error(cmd, "unknown anchor '%s': there are no games in %s", a->anchor, scope);
    if (a->json) cli_json_rating(stdout, scope, NULL, 0, res, NULL, NULL, NULL, 0);
    else printf("No games to rate in %s.\n", scope);
    return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
  }
  rating_options opt = {a->anchor, a->anchor_elo, a->bootstrap, a->seed, 0};
  if (rating_fit(pool, &opt, res, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    return strstr(err, "unknown anchor") ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  }
  if (a->json && db && a->run_id) {
    if (cli_json_rating_run(stdout, scope, a->anchor, a->anchor_elo, res, pool, a->ends,
                            a->scores, a->nscores, db,
                            a->run_id, err, sizeof err))
      return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  } else if (a->json) {
    cli_json_rating(stdout, scope, a->anchor, a->anchor_elo, res, pool, a->ends, a->scores,
                    a->nscores);
  } else {
    rate_print(scope, a->anchor, a->anchor_elo, pool, res);
  }
  if (opt.bootstrap && strlen(scope) + 40 < 512)
    snprintf(scope + strlen(scope), 512 - strlen(scope), "; bootstrap %d seed %llu",
             opt.bootstrap, (unsigned long long)a->seed);
  if (a->anchor) { /* the scale stored with the fit, for the report's charts (docs/SCHEMA.md) */
    rating_scale sc = {.elo = a->anchor_elo};
    snprintf(sc.anchor, sizeof sc.anchor, "%s", a->anchor);
    rating_scale_append(scope, 512, &sc);
  }
  if (!db) return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK; /* a file rated, nothing stored */
  return rate_store(cmd, db, a->read_only, res, a->run_id, scope);
}

/* The rated games of a database (every run with all, else the nruns runs;
 * one variant when vname is not NULL) by end reason into ends: what
 * --adjudicate ended. 0, or the exit code after an error. */
static int rate_end_counts(const char *cmd, store *db, int all, const int64_t *runs, int nruns,
                           const char *vname, long long ends[OUTCOME_NENDS]) {
  char err[ERROR_MAX];
  if (!store_end_counts(db, all ? NULL : runs, all ? 0 : nruns, vname, ends, err, sizeof err))
    return 0;
  cli_error(cmd, "%s", err);
  return CLI_EXIT_FAIL;
}

/* The rated games that --adjudicate ended, by rule (counts: the rated
 * games by end reason): a line after the ratings, none when no game was
 * adjudicated. The exit code. */
static int rate_adjudicated(const long long *counts) {
  long long games, adjudicated = store_end_adjudicated(counts, &games);
  if (!adjudicated) return CLI_EXIT_OK;
  printf("\nAdjudicated (counted as played): %lld of %lld games:", adjudicated, games);
  for (int e = 0, k = 0; e < OUTCOME_NENDS; e++)
    if (outcome_is_adjudicated((outcome_end)e) && counts[e])
      printf("%s %lld %s", k++ ? "," : "", counts[e], outcome_end_name((outcome_end)e));
  printf(".\n");
  return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* Each player's games by end reason into *rows (n of them): of the
 * database's rated games, or of the file's when there is no database. 0,
 * or the exit code after an error. */
static int rate_end_scores(const char *cmd, store *db, int all, const int64_t *runs, int nruns,
                           const char *vname, const pgn_file *f, store_end_score **rows, int *n) {
  char err[ERROR_MAX];
  if (!db) return pgn_file_end_scores(f, rows, n) ? cli_error(cmd, "out of memory"), CLI_EXIT_FAIL : 0;
  if (!store_end_scores(db, all ? NULL : runs, all ? 0 : nruns, vname, rows, n, err, sizeof err))
    return 0;
  cli_error(cmd, "%s", err);
  return CLI_EXIT_FAIL;
}

/* The rated games of a file read without --db (the records with a result)
 * by end reason into ends, from each record's Termination. */
static void rate_file_end_counts(const pgn_file *f, long long ends[OUTCOME_NENDS]) {
  memset(ends, 0, OUTCOME_NENDS * sizeof *ends);
  for (int i = 0; i < f->n; i++) {
    outcome_end e;
    if (f->games[i].winner != PGN_NO_RESULT && !outcome_end_parse(f->games[i].end, &e))
      ends[e]++;
  }
}

int cli_rate(int argc, char **argv) {
  const char *cmd = "rate", *db_path, *variant_text = NULL, *anchor = NULL;
  int64_t *runs = malloc(MAX_RUNS * sizeof *runs);
  int nruns = 0, all = 0, rc = CLI_EXIT_USAGE, nargs;
  long long boot, seed;
  char anchor_name[RATING_NAME_MAX] = "", variant_name[160] = "";
  const char *pgn_path = NULL, *ogn_path = NULL, *import_name = NULL;
  pgn_file games = {0};
  int json = 0, again = 0;
  double anchor_elo = 0;
  store *db = NULL;
  store_end_score *scores = NULL;
  int nscores = 0;
  rating_pool pool;
  rating_result res;
  rating_pool_init(&pool);
  memset(&res, 0, sizeof res);
  if (!runs) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  run_list rl = {runs, 0};
  cli_option opts[] = {
      CLI_O_TEXT("db", &db_path, "PATH", DEFAULT_DB, "the SQLite database"),
      CLI_O_CALL("run", add_runs, &rl, "N[,N...]", "rate these runs (repeatable)"),
      CLI_O_FLAG("all", &all, "rate every run"),
      CLI_O_TEXT("variant", &variant_text, "V", NULL, "keep the games of one variant"),
      CLI_O_TEXT("anchor", &anchor, "NAME=ELO", NULL, "put NAME at ELO"),
      CLI_O_INT("bootstrap", &boot, 0, 1000000, "N", "0",
                "intervals from N bootstrap resamples (0: from the covariance)"),
      CLI_O_INT("seed", &seed, 0, INT64_MAX, "S", "1", "the bootstrap's seed"),
      CLI_O_TEXT("pgn", &pgn_path, "FILE", NULL,
                 "rate the games of a PGN (or OGN) file instead (docs/PGN.md)"),
      CLI_O_TEXT("ogn", &ogn_path, "FILE", NULL, "the same, for an OGN (or PGN) file"),
      CLI_O_TEXT("name", &import_name, "NAME", NULL,
                 "with --pgn/--ogn and --db: the imported run's name"),
      CLI_O_FLAG("again", &again,
                 "with --pgn/--ogn and --db: import a file whose content is already there"),
      CLI_O_FLAG("json", &json, "print one JSON object instead of the tables (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, rate_usage,
                           "Exit codes: 0 done, 1 failed, 2 bad input (unknown run, unknown "
                           "anchor).\n",
                           opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) goto out;
  rc = CLI_EXIT_USAGE;
  nruns = rl.n;
  if (all && nruns) {
    cli_error(cmd, "--all and --run exclude each other");
    goto out;
  }
  if (variant_text) {
    variant v;
    if (cli_variant(cmd, variant_text, &v)) goto out;
    variant_format(&v, variant_name, sizeof variant_name);
  }
  if (anchor && cli_anchor(cmd, anchor, anchor_name, &anchor_elo)) goto out;
  if (pgn_path && ogn_path) {
    cli_error(cmd, "give one file: --pgn or --ogn");
    goto out;
  }
  if (ogn_path) pgn_path = ogn_path;
  if (!pgn_path && (import_name || again)) {
    cli_error(cmd, "%s is for a file imported with --pgn/--ogn and --db",
              import_name ? "--name" : "--again");
    goto out;
  }
  int read_only = 0; /* a write-protected database is rated, the ratings not stored */
  if (pgn_path) {
    import_args ia = {pgn_path, import_name, variant_text, db_path,
                      cli_option_find(&spec, "db")->given > 0, all || nruns, json, again};
    if ((rc = rate_import(cmd, &ia, argc, argv, &games, &db, runs, &nruns, &pool))) goto out;
    rc = CLI_EXIT_USAGE;
  }
  if (!db && !pgn_path &&
      cli_store_open_or_read(cmd, db_path, "the ratings are not stored", &db, &read_only))
    goto out;
  if (db && (rc = rate_load(cmd, db_path, db, all, runs, &nruns,
                            variant_text ? variant_name : NULL, &pool)))
    goto out;
  rc = CLI_EXIT_USAGE;
  char scope[512];
  if (pgn_path && !db) snprintf(scope, sizeof scope, "%s", pgn_path);
  else rate_scope(all, runs, nruns, variant_text ? variant_name : NULL, scope, sizeof scope);
  long long ends[OUTCOME_NENDS];
  int counted = pool.n > 0 && (db || pgn_path);
  if (counted && !db) rate_file_end_counts(&games, ends);
  else if (counted &&
           (rc = rate_end_counts(cmd, db, all, runs, nruns, variant_text ? variant_name : NULL, ends)))
    goto out;
  if (counted && (rc = rate_end_scores(cmd, db, all, runs, nruns,
                                       variant_text ? variant_name : NULL, &games, &scores, &nscores)))
    goto out;
  rate_fit_args fa = {scope, anchor ? anchor_name : NULL, anchor_elo, (int)boot, (uint64_t)seed,
                      json, read_only, nruns == 1 ? runs[0] : 0, counted ? ends : NULL,
                      scores, nscores};
  rc = rate_fit(cmd, &fa, &pool, db, &res);
  if (rc == CLI_EXIT_OK && counted && !json && nscores) {
    putchar('\n');
    rating_print_ends(stdout, &res, scores, nscores);
  }
  if (rc == CLI_EXIT_OK && counted && !json) rc = rate_adjudicated(ends);
out:
  free(scores);
  pgn_file_free(&games);
  rating_result_free(&res);
  rating_pool_free(&pool);
  if (db) store_close(db);
  free(runs);
  return rc;
}

/* ---- oware sprt ---- */

/* Reads exactly k comma-separated counts. */
static int parse_counts(const char *cmd, const char *opt, const char *text, long long *c, int k) {
  const char *p = text;
  for (int i = 0; i < k; i++) {
    char *end;
    errno = 0;
    if (*p < '0' || *p > '9') goto bad;
    long long x = strtoll(p, &end, 10);
    if (errno || x < 0) goto bad;
    c[i] = x;
    p = end;
    if (i < k - 1) {
      if (*p != ',') goto bad;
      p++;
    }
  }
  if (*p) goto bad;
  return 0;
bad:
  cli_error(cmd, "%s is '%s'; expected %d counts separated by commas (%s)", opt, text, k,
            k == 5 ? "LL,LD,WLDD,WD,WW" : "W,D,L");
  return -1;
}

int cli_sprt(int argc, char **argv) {
  const char *cmd = "sprt", *penta_text = NULL, *wdl_text = NULL;
  rating_sprt s;
  int have0, have1, model, nargs, rc, json = 0;
  static const char *const models[] = {"normalized", "logistic", NULL};
  rating_sprt_default(&s);
  cli_option opts[] = {
      CLI_O_REAL("elo0", &s.elo0, -INFINITY, INFINITY, "E0", NULL, "the Elo of H0"),
      CLI_O_REAL("elo1", &s.elo1, -INFINITY, INFINITY, "E1", NULL, "the Elo of H1"),
      CLI_O_REAL("alpha", &s.alpha, -INFINITY, INFINITY, "A", "0.05", "the false positive rate"),
      CLI_O_REAL("beta", &s.beta, -INFINITY, INFINITY, "B", "0.05", "the false negative rate"),
      CLI_O_CHOICE("model", &model, models, "normalized", "the Elo of H0 and H1"),
      CLI_O_TEXT("penta", &penta_text, "LL,LD,WLDD,WD,WW", NULL, "game pair counts"),
      CLI_O_TEXT("wdl", &wdl_text, "W,D,L", NULL, "single game counts"),
      CLI_O_FLAG("json", &json, "print one JSON object (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, sprt_usage, "Exit codes: 0 done, 2 bad input.\n", opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &rc)) return rc;
  have0 = cli_option_find(&spec, "elo0")->given > 0;
  have1 = cli_option_find(&spec, "elo1")->given > 0;
  s.model = model ? RATING_MODEL_LOGISTIC : RATING_MODEL_NORMALIZED;
  if (!have0 || !have1) return cli_error(cmd, "--elo0 and --elo1 are needed (see --help)");
  if (!penta_text == !wdl_text)
    return cli_error(cmd, "give the counts with either --penta LL,LD,WLDD,WD,WW or --wdl W,D,L");
  char err[ERROR_MAX];
  if (rating_sprt_check(&s, err, sizeof err)) return cli_error(cmd, "%s", err);
  double llr;
  if (penta_text) {
    long long c[5];
    if (parse_counts(cmd, "--penta", penta_text, c, 5)) return CLI_EXIT_USAGE;
    llr = rating_sprt_llr_penta(&s, c);
  } else {
    long long c[3];
    if (parse_counts(cmd, "--wdl", wdl_text, c, 3)) return CLI_EXIT_USAGE;
    llr = rating_sprt_llr_wdl(&s, c[0], c[1], c[2]);
  }
  if (json) {
    fputc('{', stdout);
    cli_json_sprt_fields(stdout, &s, llr);
    fputs("}\n", stdout);
  } else {
    printf("LLR %.4f\nbounds %.4f %.4f\ndecision %s\n", llr, rating_sprt_lower(&s),
           rating_sprt_upper(&s), rating_decision_name(rating_sprt_decide(&s, llr)));
  }
  return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
