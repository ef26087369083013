/* egdb_chart.c: writes the data of `oware egdb stats --chart` and draws it with scripts/egdb.gp. */
#include "report/egdb_chart.h"
#include "core/error.h"

#include <stdio.h>

#include "core/outfile.h"


/* Writes s as a gnuplot double-quoted string. */
static void put_name(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) fputc(*s == '"' || *s == '\\' ? '\'' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
  fputc('"', f);
}

int egdb_chart_draw(const egdb_chart_series *series, int nseries, const char *stem,
                    const plot_options *opt, char *err, size_t errlen) {
  if (nseries < 1 || nseries > 16) {
    error_set(err, errlen, "egdb chart: %d variants; expected 1 to 16", nseries);
    return -1;
  }
  int top = 0;
  for (int k = 0; k < nseries; k++)
    if (series[k].nlevels - 1 > top) top = series[k].nlevels - 1;
  if (top < 1) {
    error_set(err, errlen, "egdb chart: nothing to draw: the tables stop at 0 seeds");
    return -1;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s.dat", stem);
  outfile of = {0};
  if (outfile_open(&of, path, err, errlen)) return -1;
  FILE *f = of.f;
  fputs("# oware chart data: endgame tables, the side to move's results by seeds on the board\n"
        "# per variant five columns, in %: won, drawn, lost, open (decided by how endless play\n"
        "# is scored), cycle-sensitive (lower < upper); NaN: no table of that size\n"
        "\"seeds\"",
        f);
  for (int k = 0; k < nseries; k++)
    for (int c = 0; c < 5; c++) {
      fputc(' ', f);
      put_name(f, series[k].name);
    }
  fputc('\n', f);
  for (int n = 1; n <= top; n++) {
    fprintf(f, "%d", n);
    for (int k = 0; k < nseries; k++) {
      if (n >= series[k].nlevels) {
        fputs(" NaN NaN NaN NaN NaN", f);
        continue;
      }
      const egdb_level_stats *s = &series[k].level[n];
      fprintf(f, " %.4f %.4f %.4f %.4f %.4f", egdb_level_share(s, s->won),
              egdb_level_share(s, s->drawn), egdb_level_share(s, s->lost),
              egdb_level_share(s, s->open), egdb_level_share(s, s->sensitive));
    }
    fputc('\n', f);
  }
  if (outfile_commit(&of, err, errlen)) {
    outfile_abort(&of);
    return -1;
  }
  plot_options o = opt ? *opt : (plot_options){0};
  if (o.width <= 0) o.width = 1000;
  if (o.height <= 0) o.height = 720;
  char title[128], extra[64];
  snprintf(title, sizeof title, "Endgame tables: the side to move's results, 1 to %d seeds", top);
  snprintf(extra, sizeof extra, "variants=%d", nseries);
  return plot_script("egdb", path, stem, title, extra, &o, err, errlen);
}
