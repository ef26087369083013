/* analyse_chart.h: the chart of a run's endgame accuracy (seeds lost per decided move, by seeds on the board). */
#ifndef OWARE_ANALYSE_CHART_H
#define OWARE_ANALYSE_CHART_H

#include <stddef.h>

#include "report/plot.h"
#include "run/analyse.h"

/* The chart: mean seeds lost per decided move against the seeds on the
 * board, a line per player (names: the run's player names). Writes
 * STEM.dat and runs scripts/analyse.gp to STEM.png and STEM.svg. 0 drawn, 1
 * gnuplot not installed (the data file is written), -1 failed (err). */
int analyse_chart(const analyse_result *r, char *const *names, const char *stem,
                  const plot_options *opt, char *err, size_t errlen);

#endif
