/* cmd_study.c: `oware variants` in study mode (one run over several rule variants, compared) and `oware calibrate` (difficulty levels). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena/plot.h"
#include "arena/rating_print.h"
#include "arena/report.h"
#include "arena/store.h"
#include "arena/study.h"
#include "arena/tournament.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "players/player.h"
#include "tuner/calibrate.h"

#define DEFAULT_DB CLI_DEFAULT_DB
#define GRAND_SLAM_VARIANTS "abapa;grandslam-forbidden;grandslam-all;grandslam-win"

static atomic_int stop_flag;

/* Ctrl-C ends a run cleanly after the games in progress (cli_catch_stop). */
static void catch_signals(int on) {
  if (on)
    cli_catch_stop(&stop_flag, "\noware: stopping after the games in progress (Ctrl-C again to "
                               "quit at once)\n");
  else
    cli_release_stop();
}


/* Splits "a;b;c", trimming blanks, skipping empty items: calls fn on each. */
static int split_list(const char *text, int (*fn)(void *ctx, const char *item), void *ctx) {
  char *buf = strdup(text);
  if (!buf) return -1;
  char *save = NULL;
  int rc = 0;
  for (char *tok = strtok_r(buf, ";", &save); tok && !rc; tok = strtok_r(NULL, ";", &save)) {
    while (*tok == ' ' || *tok == '\t' || *tok == '\n') tok++;
    size_t l = strlen(tok);
    while (l && strchr(" \t\n\r", tok[l - 1])) tok[--l] = 0;
    if (l) rc = fn(ctx, tok);
  }
  free(buf);
  return rc;
}

/* ================================================================ oware variants (study) */

static const char study_usage[] =
    "usage: oware variants [--list]\n"
    "       oware variants --players 'SPEC;SPEC;...' [options]\n"
    "       oware variants --run N [--db PATH] [--report] [--out DIR] [--bootstrap B]\n"
    "Without arguments (or with --list): the named rule variants and their switches.\n"
    "With --players: a variant study. One round-robin run (stored in the database)\n"
    "plays every pairing N games (an even number: game pairs, colours swapped)\n"
    "under every variant. The openings are written to a file next to the\n"
    "database and shared by every variant and pairing. Then, per variant, with\n"
    "95% intervals: South's win, draw and loss rates, balance, decisive rate, game\n"
    "length (mean, median, sd, IQR), end reasons, grand-slam availability and use,\n"
    "legal moves per position and the share of real choices (every game is\n"
    "replayed), each player's Elo and whether the strength order changes; and\n"
    "two-proportion z-tests of South's score and of the draw rate between every\n"
    "two variants. The per-variant ratings are stored (scope 'run N variant V').\n"
    "Charts (scripts/variants.gp, gnuplot) go to DIR; --report also writes the\n"
    "run's report there (index.html) and the study's variants.html and\n"
    "variants.md. --run N studies a stored run again without playing.\n"
    "docs/VARIANTS.md explains every number.\n";

static const char study_after[] =
    "Exit codes: 0 done, 1 failed, 2 bad input, 130 interrupted (continue with\n"
    "'oware tournament --resume N', then 'oware variants --run N').\n";

typedef struct study_args {
  store_run *r;
  const char *cmd;
} study_args;

static int add_player(void *ctx, const char *spec) {
  study_args *a = ctx;
  store_run *r = a->r;
  if (r->nplayers == STORE_MAX_PLAYERS)
    return cli_error(a->cmd, "more than %d players", STORE_MAX_PLAYERS), -1;
  player_config cfg;
  char err[512];
  if (player_parse_spec(spec, &cfg, err, sizeof err))
    return cli_error(a->cmd, "player %d: %s", r->nplayers + 1, err), -1;
  for (int i = 0; i < r->nplayers; i++)
    if (!strcmp(r->player_name[i], cfg.name)) {
      player_config_free(&cfg);
      return cli_error(a->cmd, "two players are named '%s': give one of them name=...",
                       r->player_name[i]),
             -1;
    }
  int oom = store_run_add_player(r, cfg.name, spec);
  player_config_free(&cfg);
  if (oom) return cli_error(a->cmd, "out of memory"), -1;
  return 0;
}

static int add_variant(void *ctx, const char *text) {
  study_args *a = ctx;
  store_run *r = a->r;
  variant v;
  if (cli_variant(a->cmd, text, &v)) return -1;
  if (r->nvariants == STORE_MAX_VARIANTS)
    return cli_error(a->cmd, "more than %d variants", STORE_MAX_VARIANTS), -1;
  char name[256];
  variant_format(&v, name, sizeof name);
  for (int i = 0; i < r->nvariants; i++)
    if (!strcmp(r->variant[i], name))
      return cli_error(a->cmd, "variant '%s' is named twice", r->variant[i]), -1;
  if (store_run_add_variant(r, name)) return cli_error(a->cmd, "out of memory"), -1;
  return 0;
}

/* The study of a stored run: compute, print, charts, report. */
static int study_output(store *db, int64_t run_id, int save, int report, const char *outdir,
                        int charts, long long boot, uint64_t seed) {
  const char *cmd = "variants";
  char err[1024], dir[PATH_MAX];
  study *s = NULL;
  study_options so = {(int)boot, seed, 0};
  if (study_compute(db, run_id, &so, &s, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if (save && (study_store_ratings(db, s, err, sizeof err) ||
               study_store_metrics(db, s, err, sizeof err))) {
    study_free(s);
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  }
  study_print(stdout, s);
  if (outdir) snprintf(dir, sizeof dir, "%s", outdir);
  else snprintf(dir, sizeof dir, "results/run-%lld", (long long)run_id);
  int rc = CLI_EXIT_OK;
  study_charts_result res;
  memset(&res, 0, sizeof res);
  fflush(stdout);
  if (report) {
    if (report_write(db, run_id, dir, stderr, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      rc = CLI_EXIT_FAIL;
    }
  }
  if (rc == CLI_EXIT_OK && (charts || report)) {
    int c = study_charts(s, dir, NULL, &res, stderr, err, sizeof err);
    if (c < 0) {
      cli_error(cmd, "%s", err);
      rc = CLI_EXIT_FAIL;
    } else {
      int made = 0;
      for (int k = 0; k < STUDY_NCHARTS; k++) made += res.made[k];
      printf("\nCharts: %d of %d in %s/ (variants-*.png, .svg, .dat)\n", made, STUDY_NCHARTS, dir);
    }
  }
  if (rc == CLI_EXIT_OK && report) {
    if (study_report(s, dir, &res, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      rc = CLI_EXIT_FAIL;
    } else {
      printf("Report: %s/index.html (the run) and %s/variants.html (the study)\n", dir, dir);
    }
  }
  study_free(s);
  return rc;
}

int cli_variants_study(int argc, char **argv) {
  const char *cmd = "variants";
  setvbuf(stdout, NULL, _IOLBF, 0); /* results in order with the progress on stderr */
  const char *players = NULL, *variants, *db_path, *openings, *name, *outdir = NULL;
  long long games, threads = sysconf(_SC_NPROCESSORS_ONLN), seed, run = -1, boot;
  int report = 0, charts, no_charts = 0, quiet = 0, config_given = 0, list = 0, nargs, prc;
  if (threads < 1) threads = 1;
  cli_option opts[] = {
      CLI_O_TEXT("players", &players, "'SPEC;SPEC;...'", NULL, "the players of a study"),
      CLI_O_TEXT("variants", &variants, "'V;V;...'", GRAND_SLAM_VARIANTS, "the variants"),
      CLI_O_TEXT("variant", &variants, "'V;V;...'", NULL, "the same as --variants"),
      CLI_O_INT("games", &games, 2, 1000000, "N", "20", "games a pairing and variant (even)"),
      CLI_O_INT("threads", &threads, 1, 256, "T", NULL,
                "games played at once, by default one per core"),
      CLI_O_INT("seed", &seed, 0, LLONG_MAX, "S", "1", "the run's seed"),
      CLI_O_TEXT("openings", &openings, "random:PLIES|file:PATH", "random:2", "the openings"),
      CLI_O_TEXT("db", &db_path, "PATH", DEFAULT_DB, "the SQLite database"),
      CLI_O_TEXT("name", &name, "NAME", "variants", "the run's name"),
      CLI_O_INT("run", &run, 1, LLONG_MAX, "N", NULL, "study a stored run again"),
      CLI_O_TEXT("out", &outdir, "DIR", NULL, "charts and pages (default results/run-N/)"),
      CLI_O_INT("bootstrap", &boot, 0, 100000, "B", "1000", "bootstrap resamples of the Elos"),
      CLI_O_FLAG("report", &report, "also write the run's report and the study's pages"),
      CLI_O_FLAG("no-charts", &no_charts, "draw no charts"),
      CLI_O_FLAG("quiet", &quiet, "no progress on stderr"),
      CLI_O_FLAG("list", &list, "list the named variants (alone)"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, study_usage, study_after, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc;
  if (list) return cli_error(cmd, "--list lists the variants: it takes no other option");
  if (games % 2) return cli_error(cmd, "--games is %lld: an even number (game pairs)", games);
  charts = !no_charts;
  static const char *const config[] = {"variants", "variant", "games", "seed", "openings", "name"};
  for (size_t i = 0; i < sizeof config / sizeof *config; i++)
    config_given |= cli_option_find(&spec, config[i])->given > 0;
  char err[1024];
  if (run > 0) {
    if (players || config_given)
      return cli_error(cmd, "--run N studies a stored run: only --db, --report, --out, "
                            "--bootstrap and --no-charts go with it");
    store *db;
    if (store_open(db_path, 0, &db, err, sizeof err)) return cli_error(cmd, "%s", err);
    store_run *sr = calloc(1, sizeof *sr);
    if (!sr || store_run_load(db, run, sr, err, sizeof err)) { /* an unknown run: bad input */
      if (!sr) snprintf(err, sizeof err, "out of memory");
      free(sr);
      store_close(db);
      return cli_error(cmd, "%s", err);
    }
    store_run_free(sr);
    free(sr);
    int rc = study_output(db, run, 0, report, outdir, charts, boot, 1);
    store_close(db);
    return rc;
  }
  if (!players)
    return cli_error(cmd, "a study needs --players 'SPEC;SPEC;...' (or --run N for a stored run)");
  tournament *t = calloc(1, sizeof *t);
  if (!t) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  store_run *r = &t->run;
  study_args a = {r, cmd};
  store *db = NULL;
  int rc = CLI_EXIT_USAGE;
  /* Everything is checked before the database is touched. */
  if (split_list(players, add_player, &a)) goto out;
  if (r->nplayers < 2) {
    cli_error(cmd, "a study needs at least 2 players (got %d)", r->nplayers);
    goto out;
  }
  if (split_list(variants, add_variant, &a)) goto out;
  if (!r->nvariants) {
    cli_error(cmd, "--variants names no variant");
    goto out;
  }
  int plies;
  char path[PATH_MAX];
  if (tournament_parse_openings(openings, &plies, path, sizeof path, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  r->kind = STORE_ROUND_ROBIN;
  char fbuf[64];
  snprintf(fbuf, sizeof fbuf, "games:%lld", games);
  r->rounds = 1;
  r->threads = (int)threads;
  r->seed = (uint64_t)seed;
  if (store_run_set(&r->format, fbuf) || store_run_set(&r->name, name) ||
      !(r->command = cli_quote_args("oware variants", argc, argv))) {
    cli_error(cmd, "out of memory");
    rc = CLI_EXIT_FAIL;
    goto out;
  }
  /* Shared openings: a file of positions, one per game pair, that every
   * variant plays (tournament_game_setup draws random openings per
   * variant). */
  variant vs[STORE_MAX_VARIANTS];
  int same_board = 1;
  for (int i = 0; i < r->nvariants; i++) {
    variant_parse(r->variant[i], &vs[i], err, sizeof err);
    same_board &= vs[i].houses == vs[0].houses && vs[i].seeds == vs[0].seeds;
  }
  if (plies >= 0 && same_board) {
    if (!strcmp(db_path, DEFAULT_DB)) cli_make_parent(db_path);
    char dir[PATH_MAX], abs[PATH_MAX], file[PATH_MAX + 128];
    snprintf(dir, sizeof dir, "%s", db_path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = 0;
    else snprintf(dir, sizeof dir, ".");
    if (!strcmp(dir, ".")) {
      if (!getcwd(abs, sizeof abs)) {
        cli_error(cmd, "cannot find the current folder: %s", strerror(errno));
        goto out;
      }
    } else if (dir[0] == '/') {
      snprintf(abs, sizeof abs, "%s", dir);
    } else {
      char cwd[PATH_MAX];
      if (!getcwd(cwd, sizeof cwd)) {
        cli_error(cmd, "cannot find the current folder: %s", strerror(errno));
        goto out;
      }
      snprintf(abs, sizeof abs, "%.2000s/%.2000s", cwd, dir);
    }
    snprintf(file, sizeof file, "%s/variants-openings-p%d-n%lld-s%lld-%s.txt", abs, plies,
             games / 2, seed, vs[0].houses == 6 && vs[0].seeds == 4 ? "h6s4" : "custom");
    if (study_write_openings(file, vs, r->nvariants, plies, (int)(games / 2), (uint64_t)seed, err,
                             sizeof err)) {
      cli_error(cmd, "%s", err);
      rc = CLI_EXIT_FAIL;
      goto out;
    }
    char *o = malloc(strlen(file) + 6);
    if (!o) {
      cli_error(cmd, "out of memory");
      rc = CLI_EXIT_FAIL;
      goto out;
    }
    snprintf(o, strlen(file) + 6, "file:%s", file);
    free(r->openings);
    r->openings = o;
  } else if (store_run_set(&r->openings, openings)) {
    cli_error(cmd, "out of memory");
    rc = CLI_EXIT_FAIL;
    goto out;
  } else {
    if (plies >= 0 && !quiet)
      fprintf(stderr, "oware variants: the variants differ in houses or seeds: each plays its "
                      "own random openings\n");
  }
  if (tournament_prepare(t, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    goto out;
  }
  if (!quiet) cli_watch_tournament(t);
  if ((rc = cli_store_new_run(cmd, db_path, r, &db))) goto out;
  if (!quiet)
    fprintf(stderr, "run %lld: variant study, %d players, %d variants, %d series of %s, %d "
                    "thread(s), seed %llu, db %s\n",
            (long long)r->id, r->nplayers, r->nvariants, t->nseries, r->format, r->threads,
            (unsigned long long)r->seed, db_path);
  catch_signals(1);
  int res = tournament_play(t, db, &stop_flag, err, sizeof err);
  catch_signals(0);
  if (res < 0) {
    fprintf(stderr, "oware variants: run %lld failed: %s\n", (long long)r->id, err);
    rc = CLI_EXIT_FAIL;
    goto out;
  }
  if (res == 1) {
    fprintf(stderr, "oware variants: run %lld interrupted; continue it with: oware tournament "
                    "--resume %lld --db %s,\nthen study it with: oware variants --run %lld "
                    "--db %s\n",
            (long long)r->id, (long long)r->id, db_path, (long long)r->id, db_path);
    rc = 130;
    goto out;
  }
  /* The pooled ratings last, so that they stay the run's latest fit. */
  study_options so = {(int)boot, 1, 0};
  study *s = NULL;
  if (study_compute(db, r->id, &so, &s, err, sizeof err) ||
      study_store_ratings(db, s, err, sizeof err) || study_store_metrics(db, s, err, sizeof err)) {
    study_free(s);
    cli_error(cmd, "%s", err);
    rc = CLI_EXIT_FAIL;
    goto out;
  }
  study_free(s);
  if (tournament_print_standings(db, r->id, stdout, err, sizeof err) ||
      tournament_print_ratings(db, r->id, t, stdout, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    rc = CLI_EXIT_FAIL;
    goto out;
  }
  rc = study_output(db, r->id, 0, report, outdir, charts, boot, 1);
out:
  if (db) store_close(db);
  tournament_free(t);
  free(t);
  return rc;
}

/* ================================================================ oware calibrate */

static const char calibrate_usage[] =
    "usage: oware calibrate --base SPEC --knob KEY --range LO:HI\n"
    "                       --levels 'easy=E1;medium=E2;hard=E3' --anchor SPEC=ELO\n"
    "                       [options]\n"
    "Finds, for each level's target Elo, the value of option KEY of the player\n"
    "SPEC (e.g. minimax's depth or noise, mcts's playouts) at which it plays at\n"
    "that strength. The scale is set by the anchor (its Elo is fixed at ELO).\n"
    "1. A reference pool: the anchor, the --pool players, and a ladder of K\n"
    "   (default 3; 0 for none) copies of SPEC at knob values spread over LO:HI\n"
    "   (log-spaced with --log) plays a round robin of R games per pairing\n"
    "   (default 2N; game pairs, colours swapped), fitted by Bradley-Terry. Every\n"
    "   Elo is measured through the anchor's games: best anchor on a player in\n"
    "   the middle of the targets, not on a far weaker one.\n"
    "2. The search: each knob value measured plays N games (default 20) against\n"
    "   each reference (their Elos fixed) and gets a maximum-likelihood Elo with\n"
    "   its SE; its games are doubled (up to M, default 8N) until SE <= the\n"
    "   spacing of the targets / 4 (--se sets it). The ends of the range give the\n"
    "   direction (strength rising or falling with the knob); then, per level,\n"
    "   the bracket of measured values around the target (on a monotone fit of\n"
    "   all the points) is split where the fit crosses the target, until integer\n"
    "   steps, or until its two ends differ by less than that SE.\n"
    "3. A verification round robin of the levels, the anchor and the --pool\n"
    "   players, V games per pairing (default 2N), anchored the same way: each\n"
    "   level must come out in the order of the targets and within\n"
    "   max(2 SE, E) of its target (--tolerance E, default 50 Elo).\n"
    "The levels file (--out, default results/levels.txt) has one line per level:\n"
    "name, spec, measured Elo, 95% interval, target, verdict. --chart STEM draws\n"
    "the measured Elo against the knob to STEM.png/.svg (scripts/calibrate.gp).\n"
    "A target beyond what LO:HI reaches is reported with the closest value found.\n"
    "docs/LEVELS.md has a worked example.\n";

static const char calibrate_after[] =
    "Exit codes: 0 every level found and verified, 1 a level unreachable or not\n"
    "verified (the file is still written) or a failure, 2 bad input, 130\n"
    "interrupted.\n";

typedef struct pool_list {
  const char *cmd;
  char spec[CALIBRATE_MAX_REFS][CALIBRATE_SPEC_MAX];
  int n;
} pool_list;

static int add_pool(void *ctx, const char *spec) {
  pool_list *p = ctx;
  if (p->n == CALIBRATE_MAX_REFS - 1)
    return cli_error(p->cmd, "--pool: more than %d players", CALIBRATE_MAX_REFS - 1), -1;
  if (strlen(spec) >= sizeof p->spec[0]) return cli_error(p->cmd, "--pool: spec too long"), -1;
  player_config cfg;
  char err[512];
  if (player_parse_spec(spec, &cfg, err, sizeof err))
    return cli_error(p->cmd, "--pool: %s", err), -1;
  player_config_free(&cfg);
  snprintf(p->spec[p->n++], sizeof p->spec[0], "%s", spec);
  return 0;
}

typedef struct progress_ctx {
  int quiet;
  const char *knob;
} progress_ctx;

static void progress(void *ctx, const char *what, const calibrate_point *pt) {
  progress_ctx *p = ctx;
  if (p->quiet) return;
  if (!pt) fprintf(stderr, "%s\n", what);
  else if (!strcmp(what, "measure"))
    fprintf(stderr, "  %s=%-10g Elo %7.1f +/- %5.1f%s (%lld games)\n", p->knob, pt->knob, pt->elo,
            1.959964 * pt->se, pt->bounded ? " (bound)" : "", pt->games);
  else
    fprintf(stderr, "level %s: %s=%g, Elo %.1f +/- %.1f\n", what, p->knob, pt->knob, pt->elo,
            1.959964 * pt->se);
}

static int parse_range(const char *cmd, const char *text, double *lo, double *hi) {
  const char *colon = strchr(text, ':');
  char *end;
  if (!colon) return cli_error(cmd, "--range is '%s'; expected LO:HI", text), -1;
  errno = 0;
  *lo = strtod(text, &end);
  if (errno || end != colon || end == text)
    return cli_error(cmd, "--range is '%s'; LO is not a number", text), -1;
  *hi = strtod(colon + 1, &end);
  if (errno || *end || end == colon + 1)
    return cli_error(cmd, "--range is '%s'; HI is not a number", text), -1;
  if (!isfinite(*lo) || !isfinite(*hi) || !(*lo < *hi))
    return cli_error(cmd, "--range is '%s'; expected LO < HI", text), -1;
  return 0;
}

/* The Elo of a chart point: data for scripts/calibrate.gp. */
static int write_curve(const char *stem, const calibrate_result *cr, const rating_result *vr,
                       int first_level, const char *knob, const char *anchor, double anchor_elo,
                       char *err, size_t errlen) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s.dat", stem);
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write '%.900s': %s", path, strerror(errno));
    return -1;
  }
  fprintf(f, "# oware calibrate: Elo against %s (anchor %s = %g)\n", knob, anchor, anchor_elo);
  fprintf(f, "# points: knob elo lo hi fitted\n");
  for (int i = 0; i < cr->npoints; i++)
    fprintf(f, "%.6g %.2f %.2f %.2f %.2f\n", cr->point[i].knob, cr->point[i].elo,
            cr->point[i].elo - 1.959964 * cr->point[i].se,
            cr->point[i].elo + 1.959964 * cr->point[i].se, cr->fitted[i]);
  fprintf(f, "\n\n# levels: \"name\" knob target search_elo verified_elo lo hi\n");
  for (int i = 0; i < cr->nlevels; i++) {
    const rating_player *p = &vr->player[first_level + i];
    fprintf(f, "\"%s\" %.6g %.2f %.2f %.2f %.2f %.2f\n", cr->found[i].level.name,
            cr->found[i].knob, cr->found[i].level.target, cr->found[i].point.elo, p->elo, p->lo,
            p->hi);
  }
  if (fclose(f)) {
    snprintf(err, errlen, "cannot write '%.900s'", path);
    return -1;
  }
  return 0;
}

int cli_calibrate(int argc, char **argv) {
  const char *cmd = "calibrate";
  setvbuf(stdout, NULL, _IOLBF, 0); /* results in order with the progress on stderr */
  const char *base = NULL, *knob = NULL, *range = NULL, *levels = NULL, *anchor = NULL;
  const char *vtext, *openings, *pool_text = NULL, *out_path, *chart = NULL;
  long long games, max_games = -1, verify_games = -1, ref_games = -1, seed, ladder;
  long long threads = sysconf(_SC_NPROCESSORS_ONLN);
  double tolerance, se = 0;
  int log_scale = 0, quiet = 0, nargs, prc;
  if (threads < 1) threads = 1;
  cli_option opts[] = {
      CLI_O_TEXT("base", &base, "SPEC", NULL, "the player whose knob is set"),
      CLI_O_TEXT("knob", &knob, "KEY", NULL, "the option of SPEC to calibrate"),
      CLI_O_TEXT("range", &range, "LO:HI", NULL, "the knob's values searched"),
      CLI_O_TEXT("levels", &levels, "'easy=E1;medium=E2;...'", NULL, "the levels' target Elos"),
      CLI_O_TEXT("anchor", &anchor, "SPEC=ELO", NULL, "the player that sets the scale"),
      CLI_O_INT("games", &games, 2, 1000000, "N", "20", "games a measure plays a reference"),
      CLI_O_INT("max-games", &max_games, 2, 10000000, "M", NULL,
                "at most M games a measure plays a reference, by default 8N"),
      CLI_O_INT("ref-games", &ref_games, 2, 1000000, "R", NULL,
                "games a pairing of the reference pool, by default 2N"),
      CLI_O_INT("verify-games", &verify_games, 2, 1000000, "V", NULL,
                "games a pairing of the verification, by default 2N"),
      CLI_O_INT("threads", &threads, 1, 256, "T", NULL,
                "games played at once, by default one per core"),
      CLI_O_INT("seed", &seed, 0, LLONG_MAX, "S", "1", "the run's seed"),
      CLI_O_TEXT("variant", &vtext, "V", "abapa", "rule variant"),
      CLI_O_TEXT("openings", &openings, "random:PLIES", "random:2", "the openings"),
      CLI_O_TEXT("pool", &pool_text, "'SPEC;...'", NULL, "more reference players"),
      CLI_O_INT("ladder", &ladder, 0, 9, "K", "3", "copies of SPEC in the reference pool"),
      CLI_O_FLAG("log", &log_scale, "spread the ladder log-spaced"),
      CLI_O_REAL("tolerance", &tolerance, 1, 2000, "E", "50", "Elo a verified level may miss by"),
      CLI_O_REAL("se", &se, 5, 2000, "E", NULL,
                 "the standard error a measure needs, by default the spacing of the targets / 4"),
      CLI_O_TEXT("out", &out_path, "FILE", "results/levels.txt", "the levels file"),
      CLI_O_TEXT("chart", &chart, "STEM", NULL, "draw the Elo against the knob to STEM.png/.svg"),
      CLI_O_FLAG("quiet", &quiet, "no progress on stderr"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, calibrate_usage, calibrate_after, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc;
  if (!base || !knob || !range || !levels || !anchor)
    return cli_error(cmd, "--base, --knob, --range, --levels and --anchor are needed (see --help)");
  char err[1024];
  calibrate_config cfg;
  memset(&cfg, 0, sizeof cfg);
  if (parse_range(cmd, range, &cfg.lo, &cfg.hi)) return CLI_EXIT_USAGE;
  if (calibrate_check_knob(base, knob, cfg.lo, cfg.hi, &cfg.integer, err, sizeof err))
    return cli_error(cmd, "%s", err);
  if (log_scale && !(cfg.lo > 0))
    return cli_error(cmd, "--log needs LO > 0 (got %g)", cfg.lo);
  if (calibrate_parse_levels(levels, cfg.level, &cfg.nlevels, err, sizeof err))
    return cli_error(cmd, "%s", err);
  char anchor_spec[CALIBRATE_SPEC_MAX];
  double anchor_elo;
  if (calibrate_parse_anchor(anchor, anchor_spec, sizeof anchor_spec, &anchor_elo, err,
                             sizeof err))
    return cli_error(cmd, "%s", err);
  {
    player_config pc;
    if (player_parse_spec(anchor_spec, &pc, err, sizeof err))
      return cli_error(cmd, "--anchor: %s", err);
    player_config_free(&pc);
  }
  static pool_list pool;
  memset(&pool, 0, sizeof pool);
  pool.cmd = cmd;
  if (pool_text && split_list(pool_text, add_pool, &pool)) return CLI_EXIT_USAGE;
  for (int i = 0; i < pool.n; i++) {
    if (!strcmp(pool.spec[i], anchor_spec))
      return cli_error(cmd, "--pool: '%s' is the anchor already", pool.spec[i]);
    for (int j = 0; j < i; j++)
      if (!strcmp(pool.spec[i], pool.spec[j]))
        return cli_error(cmd, "--pool: '%s' is named twice", pool.spec[i]);
    for (int l = 0; l < cfg.nlevels; l++)
      if (!strcmp(pool.spec[i], cfg.level[l].name))
        return cli_error(cmd, "--pool: '%s' is also a level name", pool.spec[i]);
  }
  for (int l = 0; l < cfg.nlevels; l++)
    if (!strcmp(anchor_spec, cfg.level[l].name))
      return cli_error(cmd, "--anchor: '%s' is also a level name", anchor_spec);
  calibrate_arena *ar = calloc(1, sizeof *ar);
  if (!ar) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  int rc = CLI_EXIT_USAGE;
  if (cli_variant(cmd, vtext, &ar->play.v)) goto out;
  char opath[8];
  if (tournament_parse_openings(openings, &ar->play.opening_plies, opath, sizeof opath, err,
                                sizeof err) ||
      ar->play.opening_plies < 0) {
    cli_error(cmd, "--openings: random:PLIES only%s%s", err[0] ? ": " : "", err);
    goto out;
  }
  if (max_games < 0) max_games = 8 * games;
  if (max_games < games) {
    cli_error(cmd, "--max-games (%lld) is below --games (%lld)", max_games, games);
    goto out;
  }
  if (verify_games < 0) verify_games = 2 * games;
  if (ref_games < 0) ref_games = 2 * games;
  snprintf(ar->base, sizeof ar->base, "%s", base);
  snprintf(ar->knob, sizeof ar->knob, "%s", knob);
  ar->integer = cfg.integer;
  ar->play.threads = (int)threads;
  ar->play.seed = (uint64_t)seed;
  ar->play.stop = &stop_flag;
  progress_ctx pctx = {quiet, knob};
  ar->play.progress = progress;
  ar->play.progress_ctx = &pctx;
  cfg.log_scale = log_scale;
  cfg.pairs = (int)((games + 1) / 2);
  cfg.max_pairs = (int)((max_games + 1) / 2);
  cfg.tolerance = tolerance;
  cfg.se_target = se;
  cfg.eval = calibrate_arena_eval;
  cfg.ctx = ar;
  cfg.progress = progress;
  cfg.progress_ctx = &pctx;
  /* Every input is checked: now the games. */
  rc = CLI_EXIT_FAIL;
  catch_signals(1);
  const char *pool_specs[CALIBRATE_MAX_REFS];
  for (int i = 0; i < pool.n; i++) pool_specs[i] = pool.spec[i];
  if (!quiet) fprintf(stderr, "reference pool: round robin, %lld games per pairing\n", ref_games);
  if (calibrate_arena_setup(ar, anchor_spec, anchor_elo, pool_specs, pool.n, (int)ladder, cfg.lo,
                            cfg.hi, log_scale, (int)((ref_games + 1) / 2), err, sizeof err)) {
    cli_error(cmd, "reference pool: %s", err);
    goto out;
  }
  printf("Reference pool (Elo fixed from here on; anchor %s = %g):\n", anchor_spec, anchor_elo);
  for (int i = 0; i < ar->nrefs; i++)
    printf("  %-40s %7.1f  [%7.1f, %7.1f]%s\n", ar->ref_name[i], ar->ref_elo[i], ar->ref_lo[i],
           ar->ref_hi[i], ar->ref_bounded[i] ? "  (bound)" : "");
  if (!quiet) fprintf(stderr, "search on %s in [%g, %g]%s\n", knob, cfg.lo, cfg.hi,
                      log_scale ? " (log scale)" : "");
  calibrate_result *cr = calloc(1, sizeof *cr);
  if (!cr) {
    cli_error(cmd, "out of memory");
    goto out;
  }
  if (calibrate_run(&cfg, cr, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    if (atomic_load(&stop_flag)) rc = 130;
    free(cr);
    goto out;
  }
  printf("\nSearch: strength %s with %s; every point to SE <= %.1f Elo (%s), %d values "
         "measured, %lld games\n",
         cr->direction > 0 ? "rises" : "falls", knob, cr->se_target,
         se > 0 ? "--se" : cfg.nlevels > 1 ? "spacing of the targets / 4" : "tolerance / 2",
         cr->npoints, cr->games);
  if (cr->capped)
    printf("  %d value(s) reached --max-games before that SE (those far from every reference)\n",
           cr->capped);
  printf("  %-12s %10s %s\n", knob, "Elo", "95% interval (fixed references) / monotone fit");
  for (int i = 0; i < cr->npoints; i++)
    printf("  %-12g %10.1f [%7.1f, %7.1f] fit %7.1f  (%lld games)%s\n", cr->point[i].knob,
           cr->point[i].elo, cr->point[i].elo - 1.959964 * cr->point[i].se,
           cr->point[i].elo + 1.959964 * cr->point[i].se, cr->fitted[i], cr->point[i].games,
           cr->point[i].bounded ? " bound" : "");
  /* Verification. */
  int nv = 0;
  const char *vspecs[CALIBRATE_MAX_LEVELS + CALIBRATE_MAX_REFS];
  const char *vnames[CALIBRATE_MAX_LEVELS + CALIBRATE_MAX_REFS];
  static char level_spec[CALIBRATE_MAX_LEVELS][CALIBRATE_SPEC_MAX];
  vspecs[nv] = anchor_spec, vnames[nv++] = anchor_spec;
  for (int i = 0; i < pool.n; i++) vspecs[nv] = pool.spec[i], vnames[nv++] = pool.spec[i];
  int first_level = nv;
  for (int i = 0; i < cr->nlevels; i++) {
    calibrate_spec(level_spec[i], sizeof level_spec[i], base, knob, cr->found[i].knob,
                   cfg.integer);
    vspecs[nv] = level_spec[i], vnames[nv++] = cr->found[i].level.name;
  }
  if (!quiet)
    fprintf(stderr, "verification: round robin of the levels, the anchor and the pool, %lld "
                    "games per pairing\n",
            verify_games);
  rating_result vr;
  long long before = ar->play.games;
  if (calibrate_round_robin(&ar->play, vspecs, vnames, nv, (int)((verify_games + 1) / 2), 0,
                            anchor_elo, &vr, err, sizeof err)) {
    rating_result_free(&vr);
    cli_error(cmd, "verification: %s", err);
    if (atomic_load(&stop_flag)) rc = 130;
    free(cr);
    goto out;
  }
  printf("\nVerification round robin (%lld games, anchor %s = %g):\n", ar->play.games - before,
         anchor_spec, anchor_elo);
  rating_print_table(stdout, &vr);
  /* Levels in target order must be in Elo order, each within tolerance. */
  int order[CALIBRATE_MAX_LEVELS], all_ok = 1, in_order = 1;
  for (int i = 0; i < cr->nlevels; i++) order[i] = i;
  for (int i = 1; i < cr->nlevels; i++)
    for (int j = i; j > 0 && cfg.level[order[j]].target < cfg.level[order[j - 1]].target; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  for (int k = 1; k < cr->nlevels; k++)
    in_order &= vr.player[first_level + order[k]].elo > vr.player[first_level + order[k - 1]].elo;
  FILE *lf = NULL;
  if (strcmp(out_path, "-")) {
    if (!strcmp(out_path, "results/levels.txt")) mkdir("results", 0777);
    lf = fopen(out_path, "w");
    if (!lf) {
      cli_error(cmd, "cannot write '%s': %s", out_path, strerror(errno));
      rating_result_free(&vr);
      free(cr);
      goto out;
    }
    fprintf(lf, "# oware calibrate: base %s, knob %s in [%g, %g], anchor %s = %g, variant %s,\n"
                "# seed %lld; games per pairing: reference pool %lld, search %lld (up to %lld),\n"
                "# verification %lld.\n"
                "# Elo and its 95%% interval from the verification round robin; verdict: ok when\n"
                "# |Elo - target| <= max(2 SE, %g), else off; the search's status after it.\n"
                "# name spec elo lo hi target verdict status\n",
            base, knob, cfg.lo, cfg.hi, anchor_spec, anchor_elo, vtext, seed, ref_games, games,
            max_games, verify_games, tolerance);
  }
  printf("\nLevels (tolerance max(2 SE, %g) Elo; SE from the verification fit):\n", tolerance);
  printf("  %-10s %-36s %7s %8s %18s %8s %-11s %s\n", "level", "spec", "target", "Elo",
         "95% interval", "tol", "search", "verdict");
  for (int k = 0; k < cr->nlevels; k++) {
    int i = order[k];
    const calibrate_found *f = &cr->found[i];
    const rating_player *p = &vr.player[first_level + i];
    double tol = fmax(2 * p->se, tolerance);
    int ok = fabs(p->elo - f->level.target) <= tol && f->status == CALIBRATE_OK;
    all_ok &= ok;
    printf("  %-10s %-36s %7.0f %8.1f [%7.1f, %7.1f] %8.1f %-11s %s\n", f->level.name,
           level_spec[i], f->level.target, p->elo, p->lo, p->hi, tol,
           calibrate_status_name(f->status), ok ? "ok" : "OFF");
    if (lf)
      fprintf(lf, "%s %s %.1f %.1f %.1f %.0f %s %s\n", f->level.name, level_spec[i], p->elo,
              p->lo, p->hi, f->level.target, fabs(p->elo - f->level.target) <= tol ? "ok" : "off",
              calibrate_status_name(f->status));
  }
  for (int k = 0; k < cr->nlevels; k++) {
    const calibrate_found *f = &cr->found[order[k]];
    if (f->status == CALIBRATE_UNREACHABLE)
      printf("Level %s (target %.0f) cannot be reached with %s in [%g, %g]: the closest is "
             "%s=%g at %.0f Elo.\n",
             f->level.name, f->level.target, knob, cfg.lo, cfg.hi, knob, f->knob, f->point.elo);
    else if (f->status == CALIBRATE_COARSE)
      printf("Level %s (target %.0f): the closest value of %s is %g at %.0f Elo; the steps of "
             "the knob are coarser than the tolerance.\n",
             f->level.name, f->level.target, knob, f->knob, f->point.elo);
  }
  printf("Order of the levels: %s\n", in_order ? "as the targets" : "NOT as the targets");
  if (lf) {
    int bad = fclose(lf);
    if (bad) cli_error(cmd, "cannot write '%s'", out_path);
    else printf("Levels written to %s\n", out_path);
  }
  if (chart) {
    char cerr[1024];
    if (write_curve(chart, cr, &vr, first_level, knob, anchor_spec, anchor_elo, cerr,
                    sizeof cerr)) {
      cli_error(cmd, "%s", cerr);
    } else {
      char dat[PATH_MAX], title[256], extra[256];
      snprintf(dat, sizeof dat, "%s.dat", chart);
      snprintf(title, sizeof title, "Calibration of %s: Elo against %s", base, knob);
      snprintf(extra, sizeof extra, "knob='%s'; logx=%d; ", knob, log_scale);
      int g = study_gnuplot("calibrate", dat, chart, title, extra, NULL, cerr, sizeof cerr);
      if (g) fprintf(stderr, "oware calibrate: chart not drawn: %s\n", cerr);
      else printf("Chart: %s.png, %s.svg\n", chart, chart);
    }
  }
  rating_result_free(&vr);
  free(cr);
  rc = all_ok && in_order ? CLI_EXIT_OK : CLI_EXIT_FAIL;
out:
  catch_signals(0);
  free(ar);
  return rc;
}
