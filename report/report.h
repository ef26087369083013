/* report.h: a run's report: one self-contained folder with index.html, report.md, charts and the games as OGN. */
#ifndef OWARE_REPORT_H
#define OWARE_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/plot.h"
#include "store/store.h"

/* Writes the report of run run_id into outdir (created if missing; the
 * default of the CLI is results/run-N/):
 *   index.html   configuration, standings, ratings, per-pairing statistics,
 *                the charts, the game viewer (report/viewer.h: step through
 *                any game); no external CSS, JS or fonts (renders offline)
 *   report.md    the same in Markdown
 *   run-N.ogn    every game of the run (linked from both pages)
 *   <kind>.png, <kind>.svg, <kind>.dat   the charts (plot_charts, every kind
 *                that has data)
 * When gnuplot is missing, the pages are written without images and say so;
 * log (may be NULL) gets one line for it. Every string from the database is
 * escaped. The charts use the plot defaults (800 × 500).
 * Returns 0 (written; charts that could not be made are noted in the pages
 * and on log), or -1 with err (store, files). */
int report_write(store *db, int64_t run_id, const char *outdir, FILE *log, char *err,
                 size_t errlen);
/* The same with chart options (size, scripts folder, gnuplot program); opt may be NULL. */
int report_write_opt(store *db, int64_t run_id, const char *outdir, const plot_options *opt,
                     FILE *log, char *err, size_t errlen);

/* Writes s to f with &, <, >, " and ' escaped for HTML text and attribute values. */
void report_html_escape(FILE *f, const char *s);

/* The pages' footer, the version and the time of writing: the HTML page's
 * end on h, the Markdown's last lines on m after md_before. */
void report_footer(FILE *h, FILE *m, const char *md_before);

#endif
