/* cmd_study.c: `oware study` (one run over several rule variants, compared) and `oware calibrate` (difficulty levels, a stored run). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "report/plot.h"
#include "report/rating_print.h"
#include "report/report.h"
#include "store/store.h"
#include "report/study_report.h"
#include "run/study_run.h"
#include "run/tournament.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "core/outfile.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "core/path.h"
#include "players/level.h"
#include "players/player.h"
#include "tuner/calibrate.h"
#include "tuner/calibration.h"
#include "tuner/calibrate_run.h"

#define DEFAULT_DB CLI_DEFAULT_DB

static atomic_int stop_flag;

/* Ctrl-C ends a run cleanly after the games in progress (cli_catch_stop). */
static void catch_signals(int on) {
  if (on)
    cli_catch_stop(&stop_flag, "\noware: stopping after the games in progress (Ctrl-C again to "
                               "quit at once)\n");
  else
    cli_release_stop();
}


/* ================================================================ oware study */

static const char study_usage[] =
    "usage: oware study --players 'SPEC;SPEC;...' [options]\n"
    "       oware study --run N [--db PATH] [--report] [--out DIR] [--bootstrap B]\n"
    "A variant study: one round-robin run (stored in the database)\n"
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
    "docs/VARIANTS.md explains every number; `oware variants` lists the variants.\n";

static const char study_after[] =
    "Exit codes: 0 done, 1 failed, 2 bad input, 130 interrupted (continue with\n"
    "'oware tournament --resume N', then 'oware study --run N').\n";

/* The study as JSON, with the run's standings (docs/JSON.md). 0 or -1 with err. */
static int study_json(store *db, int64_t run_id, const study *s, char *err, size_t errlen) {
  plot_run *pr;
  if (plot_run_load(db, run_id, &pr, err, errlen)) return -1;
  cli_json_study(stdout, pr, s);
  plot_run_free(pr);
  return 0;
}

/* The study of a stored run: compute, print (text or --json: then the notes
 * go to stderr), charts, report. */
static int study_output(store *db, int64_t run_id, int save, int report, const char *outdir,
                        int charts, long long boot, uint64_t seed, int json) {
  const char *cmd = "study";
  char err[ERROR_MAX], dir[PATH_MAX];
  study *s = NULL;
  study_options so = {(int)boot, seed, 0};
  if (study_compute(db, run_id, &so, &s, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if (save && (study_store_ratings(db, s, err, sizeof err) ||
               study_store_metrics(db, s, err, sizeof err))) {
    study_free(s);
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  }
  FILE *notes = json ? stderr : stdout;
  if (!json) {
    study_print(stdout, s);
  } else if (study_json(db, run_id, s, err, sizeof err)) {
    study_free(s);
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  }
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
      fprintf(notes, "\nCharts: %d of %d in %s/ (variants-*.png, .svg, .dat)\n", made,
              STUDY_NCHARTS, dir);
    }
  }
  if (rc == CLI_EXIT_OK && report) {
    if (study_report(s, dir, &res, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      rc = CLI_EXIT_FAIL;
    } else {
      fprintf(notes, "Report: %s/index.html (the run) and %s/variants.html (the study)\n", dir,
              dir);
    }
  }
  study_free(s);
  return rc;
}

typedef struct study_opts {
  study_config c; /* the study's settings (run/study_run.c) */
  const char *db_path, *outdir;
  long long threads, run, boot;
  int report, no_charts, quiet, config_given, json;
} study_opts;

#define STUDY_MAX_OPTS 24

/* The options (0, -1 after the help, or the exit code after an error): the
 * study's settings (study_settings), then the rest. */
static int study_parse(const char *cmd, int argc, char **argv, study_opts *o) {
  int nargs, prc;
  memset(o, 0, sizeof *o);
  o->run = -1;
  o->threads = sysconf(_SC_NPROCESSORS_ONLN);
  if (o->threads < 1) o->threads = 1;
  cli_option opts[STUDY_MAX_OPTS];
  int n = cli_settings_options(study_settings, &o->c, opts, STUDY_MAX_OPTS - 11);
  if (n < 0) return cli_error(cmd, "too many options");
  int nsettings = n;
  opts[n++] = (cli_option)CLI_O_TEXT("variant", &o->c.variants, "'V;V;...'", NULL,
                                     "the same as --variants");
  opts[n++] = (cli_option)CLI_O_INT("threads", &o->threads, 1, 256, "T", NULL,
                                    "games played at once, by default one per core");
  opts[n++] = (cli_option)CLI_O_TEXT("db", &o->db_path, "PATH", DEFAULT_DB, "the SQLite database");
  opts[n++] = (cli_option)CLI_O_INT("run", &o->run, 1, LLONG_MAX, "N", NULL,
                                    "study a stored run again");
  opts[n++] = (cli_option)CLI_O_TEXT("out", &o->outdir, "DIR", NULL,
                                     "charts and pages (default results/run-N/)");
  opts[n++] = (cli_option)CLI_O_INT("bootstrap", &o->boot, 0, 100000, "B", "1000",
                                    "bootstrap resamples of the Elos");
  opts[n++] = (cli_option)CLI_O_FLAG("report", &o->report,
                                     "also write the run's report and the study's pages");
  opts[n++] = (cli_option)CLI_O_FLAG("no-charts", &o->no_charts, "draw no charts");
  opts[n++] = (cli_option)CLI_O_FLAG("quiet", &o->quiet, "no progress on stderr");
  opts[n++] = (cli_option)CLI_O_FLAG("json", &o->json,
                                     "the standings and the study as JSON (docs/JSON.md)");
  opts[n] = (cli_option)CLI_END;
  cli_command_spec spec = {cmd, study_usage, study_after, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc ? prc : -1;
  if (o->c.games % 2)
    return cli_error(cmd, "--games is %lld: an even number (game pairs)", o->c.games);
  /* The settings of a study and the alias --variant: not with --run. */
  for (int i = 0; i <= nsettings; i++) o->config_given |= opts[i].given > 0;
  return 0;
}

/* --run N: the study of a stored run, without playing. */
static int study_stored(const char *cmd, const study_opts *o) {
  char err[ERROR_MAX];
  if (o->config_given)
    return cli_error(cmd, "--run N studies a stored run: only --db, --report, --out, "
                          "--bootstrap, --no-charts and --json go with it");
  store *db; /* read only: nothing of a stored study is written again */
  if (store_open_readonly(o->db_path, &db, err, sizeof err)) return cli_error(cmd, "%s", err);
  store_run *sr = calloc(1, sizeof *sr);
  if (!sr || store_run_load(db, o->run, sr, err, sizeof err)) { /* an unknown run: bad input */
    if (!sr) snprintf(err, sizeof err, "out of memory");
    store_run_free(sr);
    free(sr);
    store_close(db);
    return cli_error(cmd, "%s", err);
  }
  store_run_free(sr);
  free(sr);
  int rc = study_output(db, o->run, 0, o->report, o->outdir, !o->no_charts, o->boot, 1, o->json);
  store_close(db);
  return rc;
}

/* The run's standings and ratings as text; with --json the ratings are
 * fitted and stored the same, and the standings come with the study's JSON. */
static int print_standings(store *db, int64_t run_id, tournament *t, int json, char *err,
                           size_t errlen) {
  if (!json)
    return tournament_print_standings(db, run_id, stdout, err, errlen) ||
                   rating_print_section(db, run_id, stdout, err, errlen)
               ? -1
               : 0;
  FILE *sink = fopen("/dev/null", "w");
  if (!sink) return snprintf(err, errlen, "cannot open /dev/null"), -1;
  int bad = rating_print_section(db, run_id, sink, err, errlen);
  fclose(sink);
  return bad ? -1 : 0;
}

/* A new study: its run prepared and stored, played, studied, printed. */
static int study_new(const char *cmd, int argc, char **argv, const study_opts *o, tournament *t) {
  char err[ERROR_MAX], note[256];
  char *command = cli_quote_args("oware study", argc, argv);
  if (!command) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  study_config sc = o->c;
  sc.threads = (int)o->threads;
  sc.db_path = o->db_path;
  sc.command = command;
  int p = study_prepare(&sc, t, note, sizeof note, err, sizeof err);
  free(command);
  if (p) return cli_error(cmd, "%s", err), p == STUDY_FAILED ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
  if (note[0] && !o->quiet) fprintf(stderr, "oware study: %s\n", note);
  store_run *r = &t->run;
  store *db = NULL;
  cli_progress line;
  cli_progress_init(&line, o->quiet);
  if (!o->quiet) cli_watch_tournament(t, &line);
  int rc = cli_store_new_run(cmd, o->db_path, r, &db);
  if (rc) goto out;
  if (!o->quiet)
    fprintf(stderr, "run %lld: variant study, %d players, %d variants, %d series of %s, %d "
                    "thread(s), seed %llu, db %s\n",
            (long long)r->id, r->nplayers, r->nvariants, t->nseries, r->format, r->threads,
            (unsigned long long)r->seed, o->db_path);
  catch_signals(1);
  int res = study_play(t, db, (int)o->boot, &stop_flag, err, sizeof err);
  catch_signals(0);
  if (res < 0) {
    fprintf(stderr, "oware study: run %lld failed: %s\n", (long long)r->id, err);
    rc = CLI_EXIT_FAIL;
  } else if (res == 1) {
    fprintf(stderr, "oware study: run %lld interrupted; continue it with: oware tournament "
                    "--resume %lld --db %s,\nthen study it with: oware study --run %lld "
                    "--db %s\n",
            (long long)r->id, (long long)r->id, o->db_path, (long long)r->id, o->db_path);
    rc = 130;
  } else if (print_standings(db, r->id, t, o->json, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    rc = CLI_EXIT_FAIL;
  } else {
    rc = study_output(db, r->id, 0, o->report, o->outdir, !o->no_charts, o->boot, 1, o->json);
  }
out:
  if (db) store_close(db);
  return rc;
}

int cli_study(int argc, char **argv) {
  const char *cmd = "study";
  setvbuf(stdout, NULL, _IOLBF, 0); /* results in order with the progress on stderr */
  study_opts o;
  int rc = study_parse(cmd, argc, argv, &o);
  if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
  if (o.run > 0) return study_stored(cmd, &o);
  if (!o.c.players)
    return cli_error(cmd, "a study needs --players 'SPEC;SPEC;...' (or --run N for a stored run)");
  tournament *t = calloc(1, sizeof *t);
  if (!t) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  rc = study_new(cmd, argc, argv, &o, t);
  tournament_free(t);
  free(t);
  return rc;
}

/* ================================================================ oware calibrate */

static const char calibrate_usage[] =
    "usage: oware calibrate --base SPEC --knob KEY --range LO:HI\n"
    "                       --levels 'easy=E1;medium=E2;hard=E3' --anchor SPEC=ELO\n"
    "                       [options]\n"
    "       oware calibrate --resume RUN [--db PATH] [--threads T]\n"
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
    "The calibration is a run of the database (--db): each pairing's result is\n"
    "stored as it finishes, and --resume RUN continues a stopped calibration to\n"
    "the result an uninterrupted one has.\n"
    "docs/LEVELS.md has a worked example.\n";

static const char calibrate_after[] =
    "Exit codes: 0 every level found and verified, 1 a level unreachable or not\n"
    "verified (the file is still written) or a failure, 2 bad input, 130\n"
    "interrupted (continue with 'oware calibrate --resume RUN').\n";

/* The calibration (its settings s->o, what they give s->c), and what the
 * observer prints with. */
typedef struct calibrate_opts {
  tuner_calibrate_setup *s;
  const char *db_path;
  long long resume;
  int threads_given;
  cli_progress line; /* the progress line (on a terminal) */
} calibrate_opts;

static void progress(void *ctx, const char *what, const calibrate_point *pt) {
  calibrate_opts *p = ctx;
  if (p->s->o.quiet) return;
  cli_progress_clear(&p->line);
  if (!pt) fprintf(stderr, "%s\n", what);
  else if (!strcmp(what, "measure"))
    fprintf(stderr, "  %s=%-10g Elo %7.1f +/- %5.1f%s (%lld games)\n", p->s->o.knob, pt->knob,
            pt->elo, 1.959964 * pt->se, pt->bounded ? " (bound)" : "", pt->games);
  else
    fprintf(stderr, "level %s: %s=%g, Elo %.1f +/- %.1f\n", what, p->s->o.knob, pt->knob, pt->elo,
            1.959964 * pt->se);
}

/* The Elo of a chart point: data for scripts/calibrate.gp. */
static int write_curve(const char *stem, const calibrate_result *cr, const rating_result *vr,
                       int first_level, const double *knobs, const char *knob, const char *anchor, double anchor_elo,
                       char *err, size_t errlen) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s.dat", stem);
  outfile o; /* written whole or not at all */
  if (outfile_open(&o, path, err, errlen)) return -1;
  FILE *f = o.f;
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
            knobs[i], cr->found[i].level.target, cr->found[i].point.elo, p->elo, p->lo,
            p->hi);
  }
  return outfile_commit(&o, err, errlen);
}


/* The progress line: the phase, the level searched, the games. */
static void on_games(void *ctx, const tuner_calibrate_games *g) {
  calibrate_opts *o = ctx;
  char level[96];
  if (g->phase == TUNER_CAL_REFINE) snprintf(level, sizeof level, "round %d", g->round);
  else snprintf(level, sizeof level, "level %s", g->level ? g->level : "");
  const char *detail = g->level || g->phase == TUNER_CAL_REFINE ? level
                       : g->phase == TUNER_CAL_SEARCH         ? "(ends of the range)"
                                                              : NULL;
  cli_progress_update(&o->line, g->phase_name, detail, g->done, g->total, "games");
}

/* The reference pool, once its Elos are fixed. */
static void on_pool_rated(void *ctx, const calibrate_arena *ar) {
  calibrate_opts *o = ctx;
  cli_progress_clear(&o->line);
  if (o->s->o.json) return;
  printf("Reference pool (Elo fixed from here on; anchor %s = %g):\n", o->s->c.anchor_spec,
         o->s->c.anchor_elo);
  for (int i = 0; i < ar->nrefs; i++)
    printf("  %-40s %7.1f  [%7.1f, %7.1f]%s\n", ar->ref_name[i], ar->ref_elo[i], ar->ref_lo[i],
           ar->ref_hi[i], ar->ref_bounded[i] ? "  (bound)" : "");
}

/* The search's points, once it is over. */
static void on_searched(void *ctx, const calibrate_result *cr) {
  calibrate_opts *o = ctx;
  cli_progress_clear(&o->line);
  if (o->s->o.json) return;
  printf("\nSearch: strength %s with %s; every point to SE <= %.1f Elo (%s), %d values "
         "measured, %lld games\n",
         cr->direction > 0 ? "rises" : "falls", o->s->o.knob, cr->se_target,
         o->s->o.se > 0 ? "--se" : cr->nlevels > 1 ? "spacing of the targets / 4" : "tolerance / 2",
         cr->npoints, cr->games);
  if (cr->capped)
    printf("  %d value(s) reached --max-games before that SE (those far from every reference)\n",
           cr->capped);
  printf("  %-12s %10s %s\n", o->s->o.knob, "Elo", "95% interval (fixed references) / monotone fit");
  for (int i = 0; i < cr->npoints; i++)
    printf("  %-12g %10.1f [%7.1f, %7.1f] fit %7.1f  (%lld games)%s\n", cr->point[i].knob,
           cr->point[i].elo, cr->point[i].elo - 1.959964 * cr->point[i].se,
           cr->point[i].elo + 1.959964 * cr->point[i].se, cr->fitted[i], cr->point[i].games,
           cr->point[i].bounded ? " bound" : "");
}

/* One line of the levels file, in the format level:NAME reads (players/level.h). */
static int write_level(FILE *lf, const calibrate_found *f, const char *spec,
                       const rating_player *p, int within) {
  static level_entry e;
  char line[LEVEL_LINE_MAX + 1];
  memset(&e, 0, sizeof e);
  snprintf(e.name, sizeof e.name, "%s", f->level.name);
  snprintf(e.spec, sizeof e.spec, "%s", spec);
  snprintf(e.verdict, sizeof e.verdict, "%s", within ? "ok" : "off");
  snprintf(e.status, sizeof e.status, "%s", calibrate_status_name(f->status));
  e.columns = 8;
  e.elo = p->elo, e.lo = p->lo, e.hi = p->hi, e.target = f->level.target;
  if (level_format(&e, line, sizeof line) < 0) return -1;
  fprintf(lf, "%s\n", line);
  return 0;
}

/* The levels: printed to out, and written to --out (unless '-'). 0, or -1. */
static int print_levels(const char *cmd, const calibrate_opts *o, const tuner_calibrate_config *c,
                        const tuner_calibration *r, FILE *out) {
  const calibrate_result *cr = r->search;
  FILE *lf = NULL;
  outfile lof = {0}; /* the levels file is written whole or not at all */
  int unwritten = 0;
  if (strcmp(o->s->o.out, "-")) {
    if (cli_out_open(cmd, &lof, o->s->o.out)) return -1;
    lf = lof.f;
    fprintf(lf, "# oware calibrate: base %s, knob %s in [%g, %g], anchor %s = %g, variant %s,\n"
                "# seed %lld; games per pairing: reference pool %lld, search %lld (up to %lld),\n"
                "# verification %lld; refinement rounds %d of %lld.\n"
                "# Elo and its 95%% interval from the verification round robin; verdict: ok when\n"
                "# |Elo - target| <= max(2 SE, %g), else off; the search's status after it.\n"
                "# level:NAME,file=THIS_FILE plays the spec of the level NAME (docs/LEVELS.md).\n"
                "# name spec elo lo hi target verdict status\n",
            o->s->o.base, o->s->o.knob, c->lo, c->hi, c->anchor_spec, c->anchor_elo, o->s->o.variant, o->s->o.seed,
            o->s->o.ref_games, o->s->o.games, o->s->o.max_games, o->s->o.verify_games,
            r->rounds - 1, o->s->o.refine, o->s->o.tolerance);
  }
  fprintf(out, "\nLevels (tolerance max(2 SE, %g) Elo; SE from the verification fit):\n", o->s->o.tolerance);
  fprintf(out, "  %-10s %-36s %7s %8s %18s %8s %-11s %s\n", "level", "spec", "target", "Elo",
         "95% interval", "tol", "search", "verdict");
  for (int k = 0; k < cr->nlevels; k++) {
    int i = r->order[k];
    const calibrate_found *f = &cr->found[i];
    const rating_player *p = &r->verify.player[r->first_level + i];
    fprintf(out, "  %-10s %-36s %7.0f %8.1f [%7.1f, %7.1f] %8.1f %-11s %s\n", f->level.name,
           r->level_spec[i], f->level.target, p->elo, p->lo, p->hi, r->tol[i],
           calibrate_status_name(f->status), r->ok[i] ? "ok" : "OFF");
    if (lf && write_level(lf, f, r->level_spec[i], p, r->within[i])) {
      outfile_abort(&lof);
      lf = NULL;
      unwritten = 1;
      cli_error(cmd, "level %s: its name or spec cannot be written to a levels file",
                f->level.name);
    }
  }
  for (int k = 0; k < cr->nlevels; k++) {
    const calibrate_found *f = &cr->found[r->order[k]];
    if (f->status == CALIBRATE_UNREACHABLE)
      fprintf(out, "Level %s (target %.0f) cannot be reached with %s in [%g, %g]: the closest is "
             "%s=%g at %.0f Elo.\n",
             f->level.name, f->level.target, o->s->o.knob, c->lo, c->hi, o->s->o.knob, f->knob,
             f->point.elo);
    else if (f->status == CALIBRATE_COARSE)
      fprintf(out, "Level %s (target %.0f): the closest value of %s is %g at %.0f Elo; the steps of "
             "the knob are coarser than the tolerance.\n",
             f->level.name, f->level.target, o->s->o.knob, f->knob, f->point.elo);
  }
  fprintf(out, "Order of the levels: %s\n", r->in_order ? "as the targets" : "NOT as the targets");
  if (lf) {
    if (!cli_out_commit(cmd, &lof)) fprintf(out, "Levels written to %s\n", o->s->o.out);
  }
  return unwritten ? -1 : 0;
}

/* --chart STEM: the curve's data and its chart (a failure is only said). */
static void draw_chart(const char *cmd, const calibrate_opts *o, const tuner_calibrate_config *c,
                       const tuner_calibration *r) {
  char cerr[ERROR_MAX];
  if (write_curve(o->s->o.chart, r->search, &r->verify, r->first_level, r->level_knob, o->s->o.knob, c->anchor_spec,
                  c->anchor_elo, cerr, sizeof cerr)) {
    cli_error(cmd, "%s", cerr);
    return;
  }
  char dat[PATH_MAX], title[256], extra[256];
  snprintf(dat, sizeof dat, "%s.dat", o->s->o.chart);
  snprintf(title, sizeof title, "Calibration of %s: Elo against %s", o->s->o.base, o->s->o.knob);
  snprintf(extra, sizeof extra, "knob='%s'; logx=%d; ", o->s->o.knob, o->s->o.log_scale);
  if (study_gnuplot("calibrate", dat, o->s->o.chart, title, extra, NULL, cerr, sizeof cerr))
    fprintf(stderr, "oware calibrate: chart not drawn: %s\n", cerr);
  else fprintf(o->s->o.json ? stderr : stdout, "Chart: %s.png, %s.svg\n", o->s->o.chart, o->s->o.chart);
}

/* --json: the levels file written as without it, the summary as JSON. 0, or -1. */
static int calibrate_json(const char *cmd, const calibrate_opts *o, const tuner_calibrate_config *c,
                          const tuner_calibration *r) {
  FILE *sink = fopen("/dev/null", "w");
  if (!sink) return cli_error(cmd, "cannot open /dev/null"), -1;
  int bad = print_levels(cmd, o, c, r, sink);
  fclose(sink);
  if (bad) return -1;
  cli_json_calibration(stdout, c, r, strcmp(o->s->o.out, "-") ? o->s->o.out : NULL);
  return 0;
}

#define CALIBRATE_MAX_OPTS 32

/* The options (0, -1 after the help, or the exit code after an error): the
 * calibration's settings (tuner_calibrate_settings), then the rest. */
static int calibrate_parse(const char *cmd, int argc, char **argv, calibrate_opts *o) {
  int nargs, prc;
  tuner_calibrate_options *op = &o->s->o;
  o->resume = -1;
  op->threads = sysconf(_SC_NPROCESSORS_ONLN);
  if (op->threads < 1) op->threads = 1;
  cli_option opts[CALIBRATE_MAX_OPTS];
  int n = cli_settings_options(tuner_calibrate_settings, op, opts, CALIBRATE_MAX_OPTS - 4);
  if (n < 0) return cli_error(cmd, "too many options");
  opts[n++] = (cli_option)CLI_O_INT("threads", &op->threads, 1, 256, "T", NULL,
                                    "games played at once, by default one per core");
  opts[n++] = (cli_option)CLI_O_TEXT("db", &o->db_path, "PATH", DEFAULT_DB, "the SQLite database");
  opts[n++] = (cli_option)CLI_O_INT("resume", &o->resume, 1, LLONG_MAX, "RUN", NULL,
                                    "continue a calibration that was stopped (with --db and "
                                    "--threads only)");
  opts[n] = (cli_option)CLI_END;
  cli_command_spec spec = {cmd, calibrate_usage, calibrate_after, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc ? prc : -1;
  o->threads_given = cli_option_find(&spec, "threads")->given > 0;
  if (o->resume > 0)
    for (const cli_option *x = opts; x->name; x++)
      if (x->given && strcmp(x->name, "resume") && strcmp(x->name, "db") &&
          strcmp(x->name, "threads"))
        return cli_error(cmd, "with --resume only --db and --threads are allowed");
  return 0;
}

/* Where the results go, checked before the calibration starts. 0, or the exit code. */
static int check_outputs(const char *cmd, const tuner_calibrate_options *op) {
  /* The default folder: an error shows when the file is checked below. */
  if (!strcmp(op->out, "results/levels.txt")) path_mkdirs("results", NULL, 0);
  if (strcmp(op->out, "-") && cli_check_output(cmd, "--out", op->out)) return CLI_EXIT_USAGE;
  if (op->chart) {
    char dat[PATH_MAX];
    snprintf(dat, sizeof dat, "%s.dat", op->chart);
    if (cli_check_output(cmd, "--chart", dat)) return CLI_EXIT_USAGE;
  }
  return 0;
}

/* A new calibration: checked, its run stored and locked. 0, or the exit code. */
static int calibrate_new(const char *cmd, int argc, char **argv, calibrate_opts *o, store **db,
                         store_run *run) {
  char err[ERROR_MAX];
  tuner_calibrate_setup *s = o->s;
  int rc = check_outputs(cmd, &s->o);
  if (rc) return rc;
  if (tuner_calibrate_check(s, err, sizeof err)) return cli_error(cmd, "%s", err);
  player_config pc;
  for (int i = -1; i < s->c.npool; i++)
    if (!player_parse_spec(i < 0 ? s->c.anchor_spec : s->c.pool[i], &pc, err, sizeof err)) {
      cli_warn_threads(cmd, &pc);
      player_config_free(&pc);
    }
  char *command = cli_quote_args("oware calibrate", argc, argv);
  if (!command) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  rc = tuner_calibrate_describe(s, command, run, err, sizeof err);
  free(command);
  if (rc) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if ((rc = cli_store_new_run(cmd, o->db_path, run, db))) return rc;
  if (store_run_lock(*db, run->id, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  return 0;
}

/* --resume RUN: the stored calibration loaded into o->s (tuner_calibrate_load),
 * its outputs checked, its lock taken. 0, or the exit code. */
static int calibrate_stored(const char *cmd, calibrate_opts *o, store **db) {
  char err[ERROR_MAX];
  long long threads = o->threads_given ? o->s->o.threads : 0;
  if (store_open(o->db_path, 0, db, err, sizeof err) ||
      tuner_calibrate_load(*db, o->resume, o->s, err, sizeof err))
    return cli_error(cmd, "%s", err);
  if (threads) o->s->o.threads = threads, o->s->c.threads = (int)threads;
  int rc = check_outputs(cmd, &o->s->o);
  if (rc) return rc;
  if (store_run_lock(*db, o->resume, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  return 0;
}

/* The verification rounds: each level's knob and Elo in each, and its
 * pool offset (docs/LEVELS.md, Refinement). */
static void print_rounds(const calibrate_opts *o, const tuner_calibration *r) {
  const calibrate_result *cr = r->search;
  printf("\nRefinement (%d rounds after the verification; %s and Elo among the verification's "
         "players, each round a round robin of its own):\n  %-10s %7s %8s",
         r->rounds - 1, o->s->o.knob, "level", "target", "offset");
  for (int t = 0; t < r->rounds; t++) printf("  %16s%-2d", "round ", t);
  printf("\n");
  for (int k = 0; k < cr->nlevels; k++) {
    int i = r->order[k];
    printf("  %-10s %7.0f %8.1f", cr->found[i].level.name, cr->found[i].level.target, r->offset[i]);
    for (int t = 0; t < r->rounds; t++)
      printf("  %6g %6.1f±%-4.0f", r->round_knob[t][i], r->round_elo[t][i], 1.959964 * r->round_se[t][i]);
    printf("\n");
  }
}

/* After the calibration: the tables (or JSON), the levels file, the chart. The exit code. */
static int calibrate_after_run(const char *cmd, calibrate_opts *o, int64_t run_id, int failed,
                               const char *err, tuner_calibration *r) {
  const tuner_calibrate_options *op = &o->s->o;
  const tuner_calibrate_config *c = &o->s->c;
  int rc;
  if (failed) {
    cli_error(cmd, "%s", err);
    if (!atomic_load(&stop_flag)) return CLI_EXIT_FAIL;
    fprintf(stderr, "oware calibrate: run %lld interrupted; continue it with: oware calibrate "
                    "--resume %lld --db %s\n",
            (long long)run_id, (long long)run_id, o->db_path);
    return 130;
  }
  if (op->json) {
    rc = calibrate_json(cmd, o, c, r);
  } else {
    if (r->rounds > 1)
      printf("\nVerification round robin, its last round (refinement %d; %lld games, anchor %s = %g):\n",
             r->rounds - 1, r->verify_games, c->anchor_spec, c->anchor_elo);
    else
      printf("\nVerification round robin (%lld games, anchor %s = %g):\n", r->verify_games,
             c->anchor_spec, c->anchor_elo);
    rating_print_table(stdout, &r->verify);
    if (r->rounds > 1) print_rounds(o, r);
    rc = print_levels(cmd, o, c, r, stdout);
  }
  if (rc) return CLI_EXIT_FAIL;
  if (op->chart) draw_chart(cmd, o, c, r);
  return r->all_ok && r->in_order ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

int cli_calibrate(int argc, char **argv) {
  const char *cmd = "calibrate";
  setvbuf(stdout, NULL, _IOLBF, 0); /* results in order with the progress on stderr */
  calibrate_opts o;
  memset(&o, 0, sizeof o);
  o.s = calloc(1, sizeof *o.s); /* large: its spec buffers */
  store_run *run = calloc(1, sizeof *run);
  store *db = NULL;
  tuner_calibration r;
  char err[ERROR_MAX];
  memset(&r, 0, sizeof r);
  int rc = o.s && run ? calibrate_parse(cmd, argc, argv, &o)
                      : (cli_error(cmd, "out of memory"), CLI_EXIT_FAIL);
  if (rc) {
    rc = rc < 0 ? CLI_EXIT_OK : rc;
    goto out;
  }
  if ((rc = o.resume > 0 ? calibrate_stored(cmd, &o, &db) : calibrate_new(cmd, argc, argv, &o, &db, run)))
    goto out;
  /* Every input is checked: now the games. */
  cli_progress_init(&o.line, o.s->o.quiet);
  tuner_calibrate_observer obs = {&o, progress, on_pool_rated, on_searched, on_games};
  int64_t id = o.resume > 0 ? o.resume : run->id;
  char e[256];
  catch_signals(1);
  rc = tuner_calibrate_play(db, id, o.s, &obs, &stop_flag, &r, err, sizeof err);
  catch_signals(0);
  store_run_unlock(db, id, e, sizeof e);
  cli_progress_clear(&o.line);
  rc = calibrate_after_run(cmd, &o, id, rc != 0, err, &r);
out:
  tuner_calibration_free(&r);
  if (db) store_close(db);
  if (o.s) tuner_calibrate_setup_free(o.s);
  free(o.s);
  store_run_free(run);
  free(run);
  return rc;
}
