/* cmd_rate.c: `oware rate` (Elo of the players in the database) and `oware sprt` (the LLR of given counts). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena/rating_print.h"
#include "arena/rating_store.h"
#include "arena/store.h"
#include "cli/cli.h"
#include "cli/options.h"
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
    "ratings in the database. docs/STATISTICS.md gives every formula.\n";

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

int cli_rate(int argc, char **argv) {
  const char *cmd = "rate", *db_path, *variant_text = NULL, *anchor = NULL;
  int64_t *runs = malloc(MAX_RUNS * sizeof *runs);
  int nruns = 0, all = 0, rc = CLI_EXIT_USAGE, nargs;
  long long boot, seed;
  char anchor_name[RATING_NAME_MAX] = "", variant_name[160] = "", err[1024];
  double anchor_elo = 0;
  store *db = NULL;
  rating_pool pool;
  rating_result res;
  store_rating *rows = NULL;
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
  if (anchor) {
    const char *eq = strrchr(anchor, '=');
    char *end;
    if (!eq || eq == anchor || (size_t)(eq - anchor) >= sizeof anchor_name) {
      cli_error(cmd, "--anchor is '%s'; expected NAME=ELO", anchor);
      goto out;
    }
    errno = 0;
    anchor_elo = strtod(eq + 1, &end);
    if (errno || end == eq + 1 || *end || !isfinite(anchor_elo)) {
      cli_error(cmd, "--anchor is '%s'; the Elo after '=' is not a number", anchor);
      goto out;
    }
    memcpy(anchor_name, anchor, (size_t)(eq - anchor));
    anchor_name[eq - anchor] = 0;
  }
  if (store_open(db_path, 0, &db, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  if (!all && !nruns) {
    int64_t id = 0;
    if (store_runs_foreach(db, newest_run, &id, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      rc = CLI_EXIT_FAIL;
      goto out;
    }
    if (!id) {
      cli_error(cmd, "the database %s has no run", db_path);
      goto out;
    }
    runs[nruns++] = id;
  }
  if (rating_pool_load(&pool, db, runs, nruns, variant_text ? variant_name : NULL, err,
                       sizeof err)) {
    /* An unknown run is bad input; anything else is a failure. */
    cli_error(cmd, "%s", err);
    rc = strstr(err, "no run ") ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    goto out;
  }
  /* What was rated, in words (stored with the ratings). */
  char scope[512];
  size_t n = 0;
  if (all) {
    n = (size_t)snprintf(scope, sizeof scope, "all runs");
  } else {
    n = (size_t)snprintf(scope, sizeof scope, "run%s ", nruns > 1 ? "s" : "");
    for (int i = 0; i < nruns && n < sizeof scope; i++)
      n += (size_t)snprintf(scope + n, sizeof scope - n, "%s%" PRId64, i ? "," : "", runs[i]);
  }
  if (variant_text && n < sizeof scope)
    snprintf(scope + n, sizeof scope - n, " variant %s", variant_name);
  if (pool.n == 0) {
    if (anchor) {
      cli_error(cmd, "unknown anchor '%s': there are no games in %s", anchor_name, scope);
      goto out;
    }
    printf("No games to rate in %s.\n", scope);
    rc = CLI_EXIT_OK;
    goto out;
  }
  rating_options opt = {anchor ? anchor_name : NULL, anchor_elo, (int)boot, (uint64_t)seed, 0};
  if (rating_fit(&pool, &opt, &res, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    rc = strstr(err, "unknown anchor") ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    goto out;
  }
  printf("Ratings of %s (Bradley-Terry maximum likelihood, Elo", scope);
  if (anchor) printf("; %s = %g", anchor_name, anchor_elo);
  else printf("; pool average %g", anchor_elo);
  printf("):\n");
  rating_print_table(stdout, &res);
  putchar('\n');
  if (pool.n == 2) {
    rating_match m;
    rating_pool_match(&pool, res.order[0], res.order[1], &m);
    rating_match_print(stdout, pool.name[res.order[0]], pool.name[res.order[1]], &m, NULL);
  } else {
    rating_print_los(stdout, &res);
  }
  rows = calloc((size_t)res.n, sizeof *rows);
  if (!rows) {
    cli_error(cmd, "out of memory");
    rc = CLI_EXIT_FAIL;
    goto out;
  }
  if (opt.bootstrap && strlen(scope) + 40 < sizeof scope)
    snprintf(scope + strlen(scope), sizeof scope - strlen(scope), "; bootstrap %d seed %lld",
             opt.bootstrap, seed);
  rating_to_store(&res, nruns == 1 ? runs[0] : 0, scope, rows);
  if (store_ratings_insert(db, rows, res.n, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    rc = CLI_EXIT_FAIL;
    goto out;
  }
  rc = fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
out:
  free(rows);
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
  int have0, have1, model, nargs, rc;
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
  char err[256];
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
  printf("LLR %.4f\nbounds %.4f %.4f\ndecision %s\n", llr, rating_sprt_lower(&s),
         rating_sprt_upper(&s), rating_decision_name(rating_sprt_decide(&s, llr)));
  return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}
