/* plot.h: a run's charts: writes gnuplot data files and runs scripts/KIND.gp on them to PNG and SVG. */
#ifndef OWARE_PLOT_H
#define OWARE_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store/rating_scale.h"
#include "store/store.h"
#include "tuner/tuning_store.h"

/* The chart kinds, as bits of a set. Each kind has one script,
 * scripts/<name>.gp, one data file <outdir>/<name>.dat and two images
 * <outdir>/<name>.png and <outdir>/<name>.svg. */
typedef enum plot_kind {
  PLOT_ELO = 1 << 0,     /* "elo":     ladder, each player's Elo with its 95% interval */
  PLOT_RATINGS = 1 << 1, /* "ratings": stored ratings against games played (x = games_total) */
  PLOT_MATRIX = 1 << 2,  /* "matrix":  heat map of each pairing's score % */
  PLOT_LENGTH = 1 << 3,  /* "length":  histogram of game lengths in plies, per variant (when
                                         there are several), else per pairing (up to 6),
                                         else of all games */
  PLOT_ENDS = 1 << 4,    /* "ends":    stacked bars of end reasons, per variant (when there are
                                         several), else per pairing (up to 15), else all */
  PLOT_TUNING = 1 << 5,  /* "tuning":  weights against the iteration, Elo of checkpoints */
  PLOT_TIME = 1 << 6,    /* "time":    mean time per move against the move number, a line per
                                         player (the games' move records, schema 8) */
} plot_kind;
#define PLOT_NKINDS 7
/* The moves of a player the time chart follows in each game. */
#define PLOT_TIME_MOVES 120
#define PLOT_ALL ((1u << PLOT_NKINDS) - 1)

/* "elo", "ratings", …, for kind (one bit); "?" otherwise. */
const char *plot_kind_name(unsigned kind);
/* Parses "elo", "ratings", "matrix", "length", "ends", "tuning", "time" or "all", or a
 * comma-separated list of them, into a set of kinds. 0, or -1 with err. */
int plot_kind_parse(const char *text, unsigned *kinds, char *err, size_t errlen);

/* How games end, grouped for the charts and the report. */
enum { PLOT_END_MAJORITY, PLOT_END_NO_MOVE, PLOT_END_REPETITION, PLOT_END_PLY_LIMIT,
       PLOT_END_FORFEIT, PLOT_END_ADJ_EGDB, PLOT_END_ADJ_DRAW, PLOT_END_ADJ_RESIGN,
       PLOT_END_OTHER, PLOT_NENDS };
/* "majority", "no-move", "repetition", "ply-limit", "forfeit", "adjudicated-egdb",
 * "adjudicated-draw", "adjudicated-resign", "other". */
const char *plot_end_name(int e);

struct plot_run;
/* Whether the charts and the report show group e of r: the rules' ends and
 * forfeits always; an adjudication only when some game of r ended by it. */
int plot_end_shown(const struct plot_run *r, int e);

/* Results between players a < b (indices into the run), from a's side. */
typedef struct plot_pair {
  int a, b;
  long long games, wins_a, draws, wins_b;
  long long plies;            /* total, for the mean length */
  long long ends[PLOT_NENDS];
} plot_pair;

/* One player's line of the standings, with the Elo shown for him. */
typedef struct plot_player {
  long long games, wins, draws, losses;
  double points;
  int has_elo;              /* elo, lo, hi are set */
  double elo, lo, hi;       /* Elo and its 95% interval */
  int bound;                /* the Elo is a bound (only wins or only losses) */
  double wilson_lo, wilson_hi; /* 95% Wilson interval of the score, in % */
} plot_player;

/* Everything the charts and the report of one run are made of, read from the
 * store in one pass (plot_run_load). */
typedef struct plot_run {
  store_run run;
  long long games;                     /* stored games */
  int nplayers;                        /* = run.nplayers */
  plot_player player[STORE_MAX_PLAYERS];
  int order[STORE_MAX_PLAYERS];        /* standings: by points, then by name */
  int npairs;                          /* nplayers·(nplayers−1)/2, a < b, by (a, b) */
  plot_pair *pair;
  long long variant_games[STORE_MAX_VARIANTS];
  long long variant_plies[STORE_MAX_VARIANTS];
  long long variant_ends[STORE_MAX_VARIANTS][PLOT_NENDS];
  long long nlengths;                  /* one entry per game: */
  int *length;                         /*   its plies */
  unsigned char *length_variant;       /*   its variant */
  int *length_pair;                    /*   its pairing (index into pair) */
  int max_plies;
  /* Time per move from the games' records: per player and its move number
   * in the game (0..PLOT_TIME_MOVES-1), the ms summed and the moves counted. */
  long long time_games;                /* games with records */
  double time_ms[STORE_MAX_PLAYERS][PLOT_TIME_MOVES];
  long long time_n[STORE_MAX_PLAYERS][PLOT_TIME_MOVES];
  /* The Elo shown (ladder, standings): */
  char elo_source[512];  /* how it was obtained, one sentence, e.g. "stored ratings (batch 3,
                            run 1, 2026-…)", "Bradley–Terry fit of the run's games",
                            or why there is none */
  int has_elo;           /* every player has an Elo; else the score % is shown */
  /* Stored ratings of the run (schema v2): the latest fit, and every fit of
   * the same scope in stored order (for the chart over time; the fits a
   * tournament stores as it goes, scope "run N (in progress)", count as
   * fits of scope "run N"). */
  int nlatest;
  store_rating *latest;
  int nhistory;
  store_rating *history;
  /* The one Elo scale of the charts and the report (every Elo shown, the
   * ladder and each fit over the run): plot_options.anchor, else the
   * latest stored fit's (store/rating_scale.h), else the field's mean.
   * Stored fits on another scale are fitted again on it (refitted counts
   * them; a fit that cannot be is left out of latest and history). */
  rating_scale scale;
  char scale_text[RATING_NAME_MAX + 40]; /* "greedy = 0", "the field's mean" */
  int refitted;
  /* Tuning iterations of the run (schema v3), in stored order. */
  int ntuning;
  tuning_row *tuning;
} plot_run;

/* Reads run run_id (its configuration, games, ratings and tuning iterations)
 * and fits the Elo when no up-to-date rating is stored. *out is malloc'd; free
 * it with plot_run_free. 0, or -1 with err ("no run N" …). */
int plot_run_load(store *db, int64_t run_id, plot_run **out, char *err, size_t errlen);
struct plot_options;
/* The same on the Elo scale of opt->anchor (opt may be NULL); an anchor
 * that is not a player of the run is an error ("unknown anchor ..."). */
int plot_run_load_opt(store *db, int64_t run_id, const struct plot_options *opt, plot_run **out,
                      char *err, size_t errlen);
void plot_run_free(plot_run *r);
/* Index into r->pair of the pairing of players i and j (i != j). */
int plot_pair_index(const plot_run *r, int i, int j);

/* How to draw. Zeroed (or NULL) means the defaults. */
typedef struct plot_options {
  int width, height;       /* pixels of the PNG and the SVG; default 800 × 500 */
  const char *scripts_dir; /* where the *.gp are; default: $OWARE_SCRIPTS, else the
                              scripts/ folder of the source tree this was built from */
  const char *gnuplot;     /* the program; default "gnuplot", looked up in PATH */
  const char *anchor;      /* the Elo scale: this player at anchor_elo (as `oware rate
                              --anchor`); NULL: the latest stored fit's, else the mean */
  double anchor_elo;
} plot_options;

/* What became of one chart. */
typedef enum plot_status {
  PLOT_MADE = 0,     /* data file, PNG and SVG written */
  PLOT_NO_DATA,      /* nothing to draw (e.g. no tuning iterations); note says why */
  PLOT_NO_GNUPLOT,   /* data file written, gnuplot is not installed: no images */
  PLOT_FAILED,       /* gnuplot failed; note has its exit status and stderr */
} plot_status;

typedef struct plot_chart {
  unsigned kind;       /* one plot_kind bit */
  plot_status status;
  char title[128];     /* the chart's title, for a report ("Elo ladder", …) */
  char note[1024];     /* for a report: why it was not made, or how it was made
                          (e.g. "score % with Wilson intervals: no Elo fit available") */
} plot_chart;

typedef struct plot_result {
  int n;                          /* charts asked for, in plot_kind order */
  plot_chart chart[PLOT_NKINDS];
  int gnuplot_missing;            /* 1: gnuplot was not found; no image was made */
  int made;                       /* charts with status PLOT_MADE */
} plot_result;

/* Draws the asked kinds of chart for run run_id into outdir (created if
 * missing, with its parents). For each kind it writes <name>.dat, then runs
 * gnuplot (fork/exec, no shell) on scripts/<name>.gp twice, for PNG and SVG.
 * A chart that cannot be made (no data, gnuplot missing or failing) is not an
 * error: its status and note in *res say why, and log (may be NULL) gets one
 * line for it ("gnuplot is not installed …" once for all).
 * Returns 0 when every asked chart was made or had no data, 1 when some were
 * skipped or failed (see *res), -1 on an error (store, files) with err. */
int plot_charts(store *db, int64_t run_id, unsigned kinds, const char *outdir,
                const plot_options *opt, plot_result *res, FILE *log, char *err, size_t errlen);

/* The same as plot_charts, from a loaded run. */
int plot_charts_run(const plot_run *r, unsigned kinds, const char *outdir,
                    const plot_options *opt, plot_result *res, FILE *log, char *err,
                    size_t errlen);

/* Runs scripts/<name>.gp of one kind on an existing data file, writing
 * <outstem>.png and <outstem>.svg. For data files made elsewhere (the
 * tuner, tests). 0 made; 1 gnuplot missing; -1 failed, with err (gnuplot's
 * exit status and stderr). */
int plot_render(unsigned kind, const char *datafile, const char *outstem, const char *title,
                const plot_options *opt, char *err, size_t errlen);

/* The same for any script of the scripts folder: runs <name>.gp on
 * datafile to outstem.png and outstem.svg, with the variables datafile,
 * outfile, title, width, height and then `extra` (gnuplot statements, may
 * be NULL). 0 drawn, 1 gnuplot not installed, -1 failed (err). */
int plot_script(const char *name, const char *datafile, const char *outstem, const char *title,
                const char *extra, const plot_options *opt, char *err, size_t errlen);

/* The tuning data file (tuning.dat; plot_charts writes it from the run's
 * stored iterations, the tuner or a test may write one with this):
 *
 *   # oware chart data: tuning of run R
 *   "iteration" "elo" "elo_lo" "elo_hi" "NAME1" "NAME2" ... "NAMEk"
 *   0 NaN NaN NaN 1.000 -0.500 ...
 *   10 35.2 12.0 58.4 1.031 -0.488 ...
 *
 * "#" comments, a header line of quoted names, then one line per iteration,
 * whitespace-separated: the iteration, the Elo (and 95% interval) of a
 * validation checkpoint at that iteration or NaN when it has none, and the
 * weights after the iteration. Names have no '"'. */
typedef struct plot_tuning_iter {
  int iteration;
  double elo, elo_lo, elo_hi; /* NaN: no checkpoint at this iteration */
  const double *weights;      /* nweights values */
} plot_tuning_iter;

int plot_tuning_write(const char *path, int64_t run_id, const char *const *names, int nweights,
                      const plot_tuning_iter *it, int n, char *err, size_t errlen);

#endif
