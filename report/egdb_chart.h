/* egdb_chart.h: the chart of `oware egdb stats --chart`: won, drawn, lost and cycle-sensitive shares by seed count, a line per variant. */
#ifndef OWARE_EGDB_CHART_H
#define OWARE_EGDB_CHART_H

#include <stddef.h>

#include "report/plot.h"
#include "egdb/egdb_stats.h"

/* One variant's line: its levels n = 0 .. nlevels-1, in order. */
typedef struct egdb_chart_series {
  const char *name; /* the legend, e.g. the variant key; no '"' needed */
  int nlevels;
  const egdb_level_stats *level;
} egdb_chart_series;

/* Writes STEM.dat whole (core/outfile.c) and runs scripts/egdb.gp on it to
 * STEM.png and STEM.svg: four panels (won, drawn, lost for the side to move;
 * cycle-sensitive and open), seeds on the board 1 .. the largest level on
 * the x axis, a line per series. nseries in 1..16. opt may be NULL (the
 * default size is 1000 × 720). Returns 0 drawn, 1 gnuplot is not installed
 * (STEM.dat only; err says so), -1 failed with err. */
int egdb_chart_draw(const egdb_chart_series *series, int nseries, const char *stem,
                    const plot_options *opt, char *err, size_t errlen);

#endif
