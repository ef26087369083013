/* study_report.h: a rule-variant study for people: the printed tables, the gnuplot charts and the HTML/Markdown page (docs/VARIANTS.md). */
#ifndef OWARE_STUDY_REPORT_H
#define OWARE_STUDY_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "report/plot.h"
#include "run/study.h"

/* Prints the study: per-variant table, Elo per variant and the strength
 * order, the tests between variants. */
void study_print(FILE *out, const study *s);

/* The charts: grouped bars with 95% error bars (scripts/variants.gp), one
 * group per metric and one bar per variant. */
enum {
  STUDY_CHART_OUTCOMES, /* South wins, draws, North wins, South score, balance, decisive (%) */
  STUDY_CHART_ENDS,     /* end reasons (%) */
  STUDY_CHART_GRANDSLAM, /* positions with a grand slam available, with one played (%) */
  STUDY_CHART_LENGTH,   /* length: mean (t interval), median (IQR) */
  STUDY_CHART_BRANCHING, /* legal moves per position */
  STUDY_CHART_CHOICE,   /* positions with more than one legal move (%) */
  STUDY_CHART_ELO,      /* each player's Elo under each variant */
  STUDY_NCHARTS
};
/* "variants-outcomes", … : the stem of the chart's files. */
extern const char *const study_chart_names[STUDY_NCHARTS];

typedef struct study_charts_result {
  int made[STUDY_NCHARTS];    /* 1: <stem>.dat, .png and .svg written */
  char note[STUDY_NCHARTS][512]; /* why not, when not */
  int gnuplot_missing;
} study_charts_result;

/* Writes <outdir>/<stem>.dat for every chart and renders it with
 * scripts/variants.gp to PNG and SVG (plot_options: size, scripts folder,
 * gnuplot). A chart that cannot be drawn is noted in *res (and on log, may
 * be NULL), not an error. Returns 0 when every chart was made, 1 when some
 * were not, -1 on an error (files) with err. */
int study_charts(const study *s, const char *outdir, const plot_options *opt,
                 study_charts_result *res, FILE *log, char *err, size_t errlen);

/* Writes <outdir>/variants.html and <outdir>/variants.md: the study's
 * tables, the charts of res (made ones as images), and a link to the run's
 * report (index.html) of the same folder. Self-contained (no network). */
int study_report(const study *s, const char *outdir, const study_charts_result *res,
                 char *err, size_t errlen);

/* Runs gnuplot on <scripts>/<script>.gp with datafile, outfile, title,
 * width, height and the extra assignments (may be NULL), for PNG and SVG:
 * <outstem>.png and <outstem>.svg. For other modules' charts (the
 * calibration). 0 made; 1 gnuplot missing (err says so); -1 failed (err). */
int study_gnuplot(const char *script, const char *datafile, const char *outstem,
                  const char *title, const char *extra, const plot_options *opt, char *err,
                  size_t errlen);

#endif
