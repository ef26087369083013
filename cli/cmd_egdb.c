/* cmd_egdb.c: `oware egdb build|probe|stats` (fit: cmd_egdb_fit.c) and `oware bench egdb`: endgame databases. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/notation.h"
#include "core/path.h"
#include "core/rng.h"
#include "report/egdb_chart.h"
#include "egdb/egdb.h"
#include "egdb/egdb_stats.h"
#include "cli/json.h"

/* The default folder: $XDG_CACHE_HOME/oware/egdb or ~/.cache/oware/egdb. */
static const char *default_dir(char *buf, size_t len) {
  path_cache(buf, len, "egdb");
  return buf;
}

int cli_egdb_progress(void *ctx, const egdb_progress *p) {
  cli_progress *line = ctx;
  char detail[64];
  if (!strcmp(p->phase, "checked"))
    snprintf(detail, sizeof detail, "n=%d/%d", p->n, p->max_n);
  else if (!strcmp(p->phase, "iterate"))
    snprintf(detail, sizeof detail, "n=%d/%d iterate, sweep %d", p->n, p->max_n, p->sweep);
  else
    snprintf(detail, sizeof detail, "n=%d/%d %s", p->n, p->max_n, p->phase);
  /* Tables checked, not built, have their own rate. */
  cli_progress_update(line, strcmp(p->phase, "checked") ? "egdb build" : "egdb check", detail,
                      (long long)p->done, (long long)p->total, "positions");
  return 0;
}

/* The names of egdb_layout, in its order. */
static const char *const layouts[] = {"auto", "fast", "lean", NULL};

static const char build_help[] =
    "usage: oware egdb build --seeds N [--variant V] [--threads T] [--dir D] [--layout L] [--quiet]\n"
    "Builds the endgame tables of every position with 0..N seeds on the board by\n"
    "retrograde analysis (docs/EGDB.md). Tables already there are checked and kept,\n"
    "so a build that was stopped resumes at the table it was on.\n";

/* "fast", "lean" or "fast+lean": the layouts the build used. */
static const char *layouts_used(const egdb_build_stats *st) {
  if (!st->built) return "none";
  return !st->built_lean ? "fast" : st->built_lean == st->built ? "lean" : "fast+lean";
}

static int egdb_build_cmd(int argc, char **argv) {
  const char *cmd = "egdb build", *vtext = "abapa", *dir = NULL;
  long long seeds = -1, threads = 2;
  int quiet = 0, layout = EGDB_LAYOUT_AUTO;
  char dbuf[4096], err[ERROR_MAX];
  int nargs, prc;
  cli_option opts[] = {
      CLI_O_INT("seeds", &seeds, 0, EGDB_MAX_SEEDS, "N", NULL,
                "the most seeds on the board (20: a few minutes and 0.5 GB on 2 cores; "
                "24: 2.1 GB of working memory, or 1.3 GB with the lean layout)"),
      CLI_O_TEXT("variant", &vtext, "V", "abapa", "rule variant (grand_slam=win is not supported)"),
      CLI_O_INT("threads", &threads, 1, 64, "T", "2", "worker threads"),
      CLI_O_TEXT("dir", &dir, "D", NULL, "folder of the databases (default ~/.cache/oware/egdb)"),
      CLI_O_CHOICE("layout", &layout, layouts, "auto",
                    "working memory: fast (5-9 bytes a position, settled by counting), lean (3-5 bytes, "
                    "value iteration, several times slower), auto: fast for each table that fits "
                    "in 3/4 of the free memory"),
      CLI_O_FLAG("quiet", &quiet, "no progress line"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, build_help, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc;
  if (seeds < 0) return cli_error(cmd, "missing --seeds N (see --help)");
  variant v;
  if (cli_variant(cmd, vtext, &v)) return CLI_EXIT_USAGE;
  dir = !dir ? default_dir(dbuf, sizeof dbuf) : *dir ? dir : "."; /* "": the current folder */
  cli_progress line;
  cli_progress_init(&line, quiet);
  cli_progress_every(&line, 30);
  egdb_build_stats st;
  int rc = egdb_build_layout(&v, dir, (int)seeds, (int)threads, (egdb_layout)layout, cli_egdb_progress,
                             &line, &st, err, sizeof err);
  cli_progress_clear(&line);
  if (rc) {
    cli_error(cmd, "%s", err);
    return rc == EGDB_EUNSUPPORTED || rc == EGDB_EARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  }
  char key[128];
  egdb_variant_key(&v, key, sizeof key, err, sizeof err);
  printf("egdb %s seeds 0..%lld in %s/%s: %d built, %d kept, %llu positions, %d sweeps, %s layout, "
         "%.1f s",
         key, seeds, dir, key, st.built, st.resumed, (unsigned long long)st.positions, st.sweeps,
         layouts_used(&st), st.seconds);
  if (st.positions && st.seconds > 0) printf(", %.2f M positions/s", 1e-6 * (double)st.positions / st.seconds);
  printf("\n");
  return CLI_EXIT_OK;
}

/* "3" or "1..3"; split in half seeds as "2.5". */
static void format_value(const egdb_value *x, char *buf, size_t len) {
  char s[32] = "";
  if (x->split2 >= 0) {
    char h[16];
    notation_format_half(x->split2, h, sizeof h);
    snprintf(s, sizeof s, ", split %s", h);
  }
  if (x->lower == x->upper)
    snprintf(buf, len, "%d (exact)%s", x->lower, s);
  else
    snprintf(buf, len, "%d..%d (cycle-sensitive)%s", x->lower, x->upper, s);
}

static int open_db(const char *cmd, const char *dir, const variant *v, int max_n, egdb **db) {
  char err[ERROR_MAX];
  int rc = egdb_open(dir, v, max_n, EGDB_VERIFY, db, err, sizeof err);
  if (rc) {
    cli_error(cmd, "%s", err);
    return rc == EGDB_EUNSUPPORTED ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  }
  return 0;
}

static const char probe_help[] =
    "usage: oware egdb probe POSITION [--variant V] [--dir D]\n"
    "Prints the database value of a position: the seeds of the board the side to\n"
    "move ends with under perfect play, exact or as bounds (lower: endless play\n"
    "scored against the mover, upper: for it), the split value for cycle=split\n"
    "variants, and the same for every legal move.\n";

static int egdb_probe_cmd(int argc, char **argv) {
  const char *cmd = "egdb probe", *vtext = "abapa", *dir = NULL, *pos = NULL;
  char dbuf[4096], err[ERROR_MAX];
  char *posv[1];
  int nargs, prc;
  cli_option opts[] = {
      CLI_O_TEXT("variant", &vtext, "V", "abapa", "rule variant"),
      CLI_O_TEXT("dir", &dir, "D", NULL, "folder of the databases (default ~/.cache/oware/egdb)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, probe_help, NULL, opts, 1};
  if (cli_parse(&spec, argc, argv, posv, &nargs, &prc)) return prc;
  if (nargs) pos = posv[0];
  if (!pos) return cli_error(cmd, "missing POSITION (see --help)");
  variant v;
  board b;
  if (cli_variant(cmd, vtext, &v)) return CLI_EXIT_USAGE;
  if (notation_parse_position(pos, &v, &b, err, sizeof err)) return cli_error(cmd, "%s", err);
  if (egdb_variant_key(&v, dbuf, sizeof dbuf, err, sizeof err)) return cli_error(cmd, "%s", err);
  dir = !dir ? default_dir(dbuf, sizeof dbuf) : *dir ? dir : "."; /* "": the current folder */
  egdb *db;
  int rc = open_db(cmd, dir, &v, -1, &db);
  if (rc) return rc;
  egdb_value here, mv[VARIANT_MAX_PITS];
  uint32_t legal;
  if (egdb_probe_moves(db, &b, &legal, mv)) {
    int n = 0;
    for (int p = 0; p < v.pits; p++) n += b.pit[p];
    cli_error(cmd, "the position has %d seeds on the board; the database covers up to %d", n,
              egdb_max_seeds(db));
    egdb_close(db);
    return CLI_EXIT_FAIL;
  }
  egdb_probe(db, &b, &here);
  char buf[128];
  format_value(&here, buf, sizeof buf);
  printf("seeds %d\nvalue %s\n", here.n, buf);
  if (!legal) printf("no legal move: the mover takes its own row\n");
  for (int m = 0; m < v.pits; m++) {
    if (!(legal >> m & 1u)) continue;
    format_value(&mv[m], buf, sizeof buf);
    printf("move %c %s\n", notation_move_letter(&v, m), buf);
  }
  egdb_close(db);
  return CLI_EXIT_OK;
}

static const char stats_help[] =
    "usage: oware egdb stats --variant V [--variant V ...] [--seeds N] [--dir D] [--markdown]\n"
    "                        [--chart STEM]\n"
    "For each seed count n of each variant's tables: the share of positions the side\n"
    "to move wins (ends with more than half the board), draws and loses whatever the\n"
    "repetition rule (for cycle=split variants: under the split rule); 'open' is the\n"
    "share whose result depends on how endless play is scored; the mean value (lower\n"
    "and upper bound, or split) and the share of cycle-sensitive positions\n"
    "(lower < upper). --chart STEM also draws the won, drawn, lost, open and\n"
    "cycle-sensitive shares against n, a line per variant (scripts/egdb.gp):\n"
    "STEM.dat, STEM.png, STEM.svg. --json prints one JSON object instead of the\n"
    "table (docs/JSON.md): counts, not shares.\n";

/* --variant V, repeatable (at most 16). */
typedef struct variant_list {
  const char **v;
  int n;
} variant_list;

static int add_variant(const cli_option *o, const char *value, char *err, size_t errlen) {
  variant_list *l = o->target;
  if (l->n == 16) return snprintf(err, errlen, "--variant: at most 16 variants"), -1;
  l->v[l->n++] = value;
  return 0;
}

static void print_level(int md, const char *key, const egdb_level_stats *s) {
  char mean[32];
  if (s->mean_split >= 0)
    snprintf(mean, sizeof mean, "%.3f", s->mean_split);
  else if (s->mean_lower == s->mean_upper)
    snprintf(mean, sizeof mean, "%.3f", s->mean_lower);
  else
    snprintf(mean, sizeof mean, "%.3f..%.3f", s->mean_lower, s->mean_upper);
  if (md)
    printf("| %s | %d | %llu | %.2f | %.2f | %.2f | %.2f | %s | %.2f |\n", key, s->n,
           (unsigned long long)s->count, egdb_level_share(s, s->won), egdb_level_share(s, s->drawn),
           egdb_level_share(s, s->lost), egdb_level_share(s, s->open), mean,
           egdb_level_share(s, s->sensitive));
  else
    printf("%-22s %3d %12llu %7.2f %7.2f %7.2f %7.2f %13s %9.2f\n", key, s->n,
           (unsigned long long)s->count, egdb_level_share(s, s->won), egdb_level_share(s, s->drawn),
           egdb_level_share(s, s->lost), egdb_level_share(s, s->open), mean,
           egdb_level_share(s, s->sensitive));
}

/* A level of `egdb stats --json`: the counts, and the mean values (split: null without). */
static void json_level(const egdb_level_stats *s, int first) {
  printf("%s{\"n\":%d,\"positions\":%llu,\"won\":%llu,\"drawn\":%llu,\"lost\":%llu,"
         "\"open\":%llu,\"sensitive\":%llu,\"mean_lower\":",
         first ? "" : ",", s->n, (unsigned long long)s->count, (unsigned long long)s->won,
         (unsigned long long)s->drawn, (unsigned long long)s->lost, (unsigned long long)s->open,
         (unsigned long long)s->sensitive);
  cli_json_num(stdout, s->count ? s->mean_lower : NAN);
  fputs(",\"mean_upper\":", stdout);
  cli_json_num(stdout, s->count ? s->mean_upper : NAN);
  fputs(",\"mean_split\":", stdout);
  cli_json_num(stdout, s->mean_split >= 0 && s->count ? s->mean_split : NAN);
  putchar('}');
}

static int egdb_stats_cmd(int argc, char **argv) {
  const char *cmd = "egdb stats", *dir = NULL, *chart = NULL;
  const char *vtexts[16];
  int nv = 0, md = 0, json = 0;
  long long seeds = -1;
  char dbuf[4096];
  variant_list vl = {vtexts, 0};
  int nargs, prc;
  cli_option opts[] = {
      CLI_O_CALL("variant", add_variant, &vl, "V", "a variant (repeatable; default abapa)"),
      CLI_O_INT("seeds", &seeds, 0, EGDB_MAX_SEEDS, "N", NULL,
                "stop at N seeds (default: every table there is)"),
      CLI_O_TEXT("dir", &dir, "D", NULL, "folder of the databases (default ~/.cache/oware/egdb)"),
      CLI_O_FLAG("markdown", &md, "print a Markdown table"),
      CLI_O_TEXT("chart", &chart, "STEM", NULL,
                 "draw the shares against n, a line per variant: STEM.dat, .png, .svg"),
      CLI_O_FLAG("json", &json, "print one JSON object instead of the table (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, stats_help, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc;
  nv = vl.n;
  if (!nv) vtexts[nv++] = "abapa";
  if (json && md) return cli_error(cmd, "--json and --markdown: one or the other");
  dir = !dir ? default_dir(dbuf, sizeof dbuf) : *dir ? dir : "."; /* "": the current folder */
  if (chart && cli_check_stem(cmd, "--chart", chart)) return CLI_EXIT_USAGE;
  /* Every variant is checked and opened before anything is printed. */
  variant v[16];
  egdb *db[16] = {0};
  char key[16][128], err[ERROR_MAX];
  int rc = CLI_EXIT_OK;
  for (int k = 0; k < nv && rc == CLI_EXIT_OK; k++) {
    if (cli_variant(cmd, vtexts[k], &v[k])) rc = CLI_EXIT_USAGE;
    else if (egdb_variant_key(&v[k], key[k], sizeof key[k], err, sizeof err))
      rc = cli_error(cmd, "%s", err);
    else if (!(rc = open_db(cmd, dir, &v[k], (int)seeds, &db[k])) && seeds >= 0 &&
             egdb_max_seeds(db[k]) < seeds) { /* as analyse and fit: not a shorter table quietly */
      cli_error(cmd, "the endgame tables of variant '%s' in %s stop at %d seeds, not %lld: build them "
                "with 'oware egdb build --variant %s --seeds %lld --dir %s'", key[k], dir,
                egdb_max_seeds(db[k]), seeds, vtexts[k], seeds, dir);
      rc = CLI_EXIT_FAIL;
    }
  }
  egdb_level_stats *levels[16] = {0};
  egdb_chart_series series[16];
  for (int k = 0; k < nv && rc == CLI_EXIT_OK; k++) {
    int top = egdb_max_seeds(db[k]);
    if (!(levels[k] = calloc((size_t)top + 1, sizeof *levels[k]))) {
      cli_error(cmd, "out of memory");
      rc = CLI_EXIT_FAIL;
    }
    for (int n = 0; n <= top && rc == CLI_EXIT_OK; n++) egdb_level_stats_count(db[k], n, &levels[k][n]);
    series[k] = (egdb_chart_series){key[k], top + 1, levels[k]};
  }
  if (rc == CLI_EXIT_OK && json) {
    fputs("{\"variants\":[", stdout);
    for (int k = 0; k < nv; k++) {
      char vname[256];
      variant_format(&v[k], vname, sizeof vname);
      printf("%s\n{\"variant\":", k ? "," : "");
      cli_json_str(stdout, vname);
      printf(",\"tables\":");
      cli_json_str(stdout, key[k]);
      printf(",\"dir\":");
      cli_json_str(stdout, dir);
      printf(",\"seeds\":%d,\"levels\":[", series[k].nlevels - 1);
      for (int n = 0; n < series[k].nlevels; n++) json_level(&levels[k][n], n == 0);
      fputs("]}", stdout);
    }
    fputs("]}\n", stdout);
    fflush(stdout);
  } else if (rc == CLI_EXIT_OK) {
    if (md)
      printf("| variant | n | positions | won %% | drawn %% | lost %% | open %% | mean value | "
             "cycle-sensitive %% |\n"
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    else
      printf("%-22s %3s %12s %7s %7s %7s %7s %13s %9s\n", "variant", "n", "positions", "won%",
             "drawn%", "lost%", "open%", "mean value", "cycle%");
    for (int k = 0; k < nv; k++)
      for (int n = 0; n < series[k].nlevels; n++) print_level(md, key[k], &levels[k][n]);
    fflush(stdout);
  }
  if (rc == CLI_EXIT_OK && chart) {
    int c = egdb_chart_draw(series, nv, chart, NULL, err, sizeof err);
    if (c < 0) {
      cli_error(cmd, "--chart: %s", err);
      rc = CLI_EXIT_FAIL;
    } else if (c > 0) {
      fprintf(stderr, "oware %s: %s; wrote %s.dat only\n", cmd, err, chart);
    } else {
      fprintf(md || json ? stderr : stdout, "chart: %s.png, %s.svg\n", chart, chart);
    }
  }
  for (int k = 0; k < nv; k++) {
    free(levels[k]);
    if (db[k]) egdb_close(db[k]);
  }
  return rc;
}

static const char egdb_help[] =
    "usage: oware egdb build|probe|stats|fit [ARGS]   (endgame databases, docs/EGDB.md)\n"
    "  build   compute the tables up to N seeds on the board\n"
    "  probe   the value of a position and of each of its moves\n"
    "  stats   won/drawn/lost shares, mean value and cycle-sensitive share per seed count\n"
    "  fit     the evaluation's corrections in endings, fitted on the tables\n"
    "'oware egdb SUBCOMMAND --help' describes one.\n";

int cli_egdb(int argc, char **argv) {
  static const cli_subcommand sub[] = {
      {"build", egdb_build_cmd}, {"probe", egdb_probe_cmd}, {"stats", egdb_stats_cmd},
      {"fit", cli_egdb_fit}};
  return cli_run_subcommand("egdb", egdb_help, sub, 4, argc, argv);
}

/* ---- oware bench egdb ---- */

static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

static long peak_rss_mib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024;
}

/* Removes DIR/KEY/n*.egdb and the folders, best effort. */
static void remove_tables(const char *dir, const char *key) {
  char folder[4200], path[4600];
  snprintf(folder, sizeof folder, "%s/%s", dir, key);
  DIR *d = opendir(folder);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d)))
      if (e->d_name[0] == 'n') {
        snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
        remove(path);
      }
    closedir(d);
  }
  rmdir(folder);
}

/* Random probes a second on the open tables (0 when out of memory), with
 * the sum of their lower bounds (a checksum that keeps them from being
 * optimised away). */
static double bench_probe(const egdb *db, const variant *v, long long *sum) {
  /* Random positions with up to N seeds: houses filled seed by seed. */
  rng r;
  rng_seed(&r, 12345);
  const int P = v->pits, count = 2000000;
  board *bs = malloc((size_t)4096 * sizeof *bs);
  *sum = 0;
  if (!bs) return 0;
  for (int i = 0; i < 4096; i++) {
    memset(&bs[i], 0, sizeof bs[i]);
    int n = (int)rng_below(&r, (uint32_t)egdb_max_seeds(db) + 1);
    for (int s = 0; s < n; s++) bs[i].pit[rng_below(&r, (uint32_t)P)]++;
    bs[i].side = (uint8_t)rng_below(&r, 2);
  }
  double t0 = clock_now();
  egdb_value x;
  for (int i = 0; i < count; i++)
    if (!egdb_probe(db, &bs[i & 4095], &x)) *sum += x.lower;
  double t = clock_now() - t0;
  free(bs);
  return count / t;
}

/* The median of x[0..n-1] (sorted in place). */
static double median(double *x, int n) {
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
      double t = x[j];
      x[j] = x[j - 1];
      x[j - 1] = t;
    }
  return x[n / 2];
}

/* Seconds to open the tables in dir with flags and close them again; -1 on an error. */
static double open_seconds(const char *dir, const variant *v, int flags, uint64_t *bytes) {
  char err[ERROR_MAX];
  egdb *db;
  double t0 = clock_now();
  if (egdb_open(dir, v, -1, flags, &db, err, sizeof err)) return -1;
  double t = clock_now() - t0;
  *bytes = 0;
  for (int n = 0; n <= egdb_max_seeds(db); n++)
    *bytes += egdb_count(n, v->pits) * (uint64_t)(egdb_split(db) ? 3 : 2);
  egdb_close(db);
  return t;
}

/* What opening the tables in dir costs, medians of `repeat` rounds of: the
 * header checks alone, every checksum verified, and an open after that in
 * the same process (the verification remembered), into secs[]; *bytes the
 * tables' size. 0, or -1 when they do not open. */
static int bench_open(const char *dir, const variant *v, int repeat, double secs[3],
                      uint64_t *bytes) {
  static const int flags[3] = {EGDB_HEADER_ONLY, EGDB_VERIFY, 0};
  double t[3][101];
  *bytes = 0;
  for (int k = 0; k < repeat; k++)
    for (int f = 0; f < 3; f++)
      if ((t[f][k] = open_seconds(dir, v, flags[f], bytes)) < 0) return -1;
  for (int f = 0; f < 3; f++) secs[f] = median(t[f], repeat);
  return 0;
}

static const char bench_help[] =
    "usage: oware bench egdb [--seeds N,N,...] [--threads T] [--variant V] [--dir D] [--layout L]\n"
    "                        [--repeat R]\n"
    "Builds the tables up to each N from scratch (default 12,16,20) in a temporary\n"
    "folder (or D, left in place), and prints the wall time, the CPU time of all\n"
    "threads, positions per second (wall) and the process's peak memory, then on the\n"
    "largest what opening its tables costs (medians of R rounds: the header checks\n"
    "alone, every checksum verified, an open after that in the same process) and\n"
    "random probes per second. --json: one JSON object at the end instead\n"
    "(docs/JSON.md).\n";

int cli_bench_egdb(int argc, char **argv) {
  const char *cmd = "bench egdb", *vtext = "abapa", *dir = NULL, *list = "12,16,20";
  long long threads = 2, repeat = 5;
  int nargs, prc, layout = EGDB_LAYOUT_AUTO, json = 0;
  cli_option opts[] = {
      CLI_O_TEXT("seeds", &list, "N,N,...", "12,16,20", "the seed counts built"),
      CLI_O_CHOICE("layout", &layout, layouts, "auto", "the build's working memory (see egdb build)"),
      CLI_O_INT("threads", &threads, 1, 64, "T", "2", "worker threads"),
      CLI_O_INT("repeat", &repeat, 1, 101, "R", "5", "rounds of opening the largest tables"),
      CLI_O_TEXT("variant", &vtext, "V", "abapa", "rule variant"),
      CLI_O_TEXT("dir", &dir, "D", NULL,
                 "build there and leave the tables (default: a temporary folder in $TMPDIR or /tmp)"),
      CLI_O_FLAG("json", &json, "print one JSON object (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, bench_help, NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc;
  if (dir && !*dir) dir = "."; /* as the tables' own paths read an empty folder */
  variant v;
  if (cli_variant(cmd, vtext, &v)) return CLI_EXIT_USAGE;
  int ns[16], nn = 0;
  for (const char *p = list;;) {
    char *end;
    long x = strtol(p, &end, 10);
    if (end == p || x < 0 || x > EGDB_MAX_SEEDS || (*end && *end != ',') || nn == 16)
      return cli_error(cmd, "--seeds is '%s'; expected numbers 0..%d separated by commas", list,
                       EGDB_MAX_SEEDS);
    for (int k = 0; k < nn; k++)
      if (ns[k] == x) return cli_error(cmd, "--seeds is '%s': %ld is there twice", list, x);
    ns[nn++] = (int)x;
    if (!*end) break;
    p = end + 1;
  }
  char tmpl[4096], key[128], err[ERROR_MAX];
  const char *tmpdir = getenv("TMPDIR");
  snprintf(tmpl, sizeof tmpl, "%s/oware-bench-egdb-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (egdb_variant_key(&v, key, sizeof key, err, sizeof err)) return cli_error(cmd, "%s", err);
  if (dir) /* a bench builds from scratch: tables already in D would be kept, and nothing measured */
    for (int k = 0; k < nn; k++) {
      char sub[4200], path[4400];
      snprintf(sub, sizeof sub, "%s/bench-%d", dir, ns[k]);
      egdb_path(sub, key, 0, path, sizeof path);
      if (access(path, F_OK) == 0)
        return cli_error(cmd, "%s is there already: the bench builds its tables from scratch; remove "
                         "%s/bench-%d or give another --dir", path, dir, ns[k]);
    }
  int temp = !dir;
  if (temp && !(dir = mkdtemp(tmpl)))
    return cli_error(cmd, "cannot make a temporary folder %s: %s", tmpl, strerror(errno)), CLI_EXIT_FAIL;
  cli_json_out o, a, q;
  if (json) {
    char vname[256];
    variant_format(&v, vname, sizeof vname);
    cli_json_open(&o, stdout, '{');
    cli_json_str_at(&o, "bench", "egdb");
    cli_json_str_at(&o, "variant", vname);
    cli_json_num_at(&o, "threads", (double)threads);
    cli_json_key(&o, "builds");
    cli_json_open(&a, stdout, '[');
  } else {
    printf("%-8s %14s %10s %10s %14s %12s %12s  %s\n", "seeds", "positions", "seconds", "cpu s",
           "positions/s", "peak MiB", "work MiB", "layout");
  }
  int last = -1;
  for (int k = 0; k < nn; k++) {
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/bench-%d", dir, ns[k]);
    egdb_build_stats st;
    double c0 = cpu_seconds();
    int rc = egdb_build_layout(&v, sub, ns[k], (int)threads, (egdb_layout)layout, NULL, NULL, &st, err,
                               sizeof err);
    double cpu = cpu_seconds() - c0;
    if (rc) {
      if (json) { /* whole all the same: the exit code says it failed */
        cli_json_close(&a);
        cli_json_close(&o);
        putchar('\n');
      }
      cli_error(cmd, "%s", err);
      if (temp) remove_tables(sub, key), rmdir(sub), rmdir(dir);
      return CLI_EXIT_FAIL;
    }
    const double pps = (double)st.positions / (st.seconds > 0 ? st.seconds : 1e-9);
    if (json) {
      cli_json_item(&a);
      cli_json_open(&q, stdout, '{');
      cli_json_num_at(&q, "seeds", ns[k]);
      cli_json_num_at(&q, "positions", (double)st.positions);
      cli_json_num_at(&q, "seconds", st.seconds);
      cli_json_num_at(&q, "cpu_seconds", cpu);
      cli_json_num_at(&q, "positions_per_s", pps);
      cli_json_num_at(&q, "peak_mib", (double)peak_rss_mib());
      cli_json_num_at(&q, "work_mib", (double)st.peak_bytes / 1048576.0);
      cli_json_str_at(&q, "layout", layouts_used(&st));
      cli_json_close(&q);
    } else {
      printf("0..%-5d %14llu %10.1f %10.1f %14.0f %12ld %12.0f  %s\n", ns[k],
             (unsigned long long)st.positions, st.seconds, cpu, pps, peak_rss_mib(),
             (double)st.peak_bytes / 1048576.0, layouts_used(&st));
      fflush(stdout);
    }
    if (k + 1 < nn && temp) remove_tables(sub, key), rmdir(sub);
    last = k;
  }
  if (json) cli_json_close(&a);
  int rc = CLI_EXIT_OK;
  if (last >= 0) {
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/bench-%d", dir, ns[last]);
    double secs[3], lookups = 0;
    long long sum = 0;
    uint64_t bytes;
    egdb *db = NULL;
    if (bench_open(sub, &v, (int)repeat, secs, &bytes) ||
        egdb_open(sub, &v, -1, 0, &db, err, sizeof err)) {
      snprintf(err, sizeof err, "the tables just built in %s do not open", sub);
      rc = CLI_EXIT_FAIL;
    } else {
      lookups = bench_probe(db, &v, &sum);
      egdb_close(db);
    }
    if (rc == CLI_EXIT_OK && json) {
      cli_json_key(&o, "open");
      cli_json_open(&q, stdout, '{');
      cli_json_num_at(&q, "seeds", ns[last]);
      cli_json_num_at(&q, "repeat", (double)repeat);
      cli_json_num_at(&q, "header_only_seconds", secs[0]);
      cli_json_num_at(&q, "checksums_seconds", secs[1]);
      cli_json_num_at(&q, "again_seconds", secs[2]);
      cli_json_num_at(&q, "bytes", (double)bytes);
      cli_json_num_at(&q, "checksum_bytes_per_s", (double)bytes / secs[1]);
      cli_json_close(&q);
      cli_json_key(&o, "probe");
      cli_json_open(&q, stdout, '{');
      cli_json_num_at(&q, "lookups_per_s", lookups);
      cli_json_num_at(&q, "checksum", (double)sum);
      cli_json_close(&q);
    } else if (rc == CLI_EXIT_OK) {
      printf("open (median of %lld): header only %.4f s, checksums %.4f s, again %.4f s\n", repeat,
             secs[0], secs[1], secs[2]);
      printf("checksum: %.1f MB in %.4f s, %.2f GB/s\n", 1e-6 * (double)bytes, secs[1],
             1e-9 * (double)bytes / secs[1]);
      printf("probe: %.1f M lookups/s (random positions with 0..%d seeds; checksum %lld)\n",
             1e-6 * lookups, ns[last], sum);
    }
    if (temp) remove_tables(sub, key), rmdir(sub);
  }
  if (json) {
    cli_json_close(&o);
    putchar('\n');
  }
  if (rc) cli_error(cmd, "%s", err);
  if (temp) rmdir(dir);
  return rc;
}
