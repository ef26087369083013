/* analyse_chart.c: writes the data of a run's endgame accuracy and draws it with scripts/analyse.gp. */
#include "report/analyse_chart.h"

#include <inttypes.h>
#include <stdio.h>

#include "core/outfile.h"

/* Writes s as a gnuplot double-quoted string. */
static void put_name(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) fputc(*s == '"' || *s == '\\' ? '\'' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
  fputc('"', f);
}

int analyse_chart(const analyse_result *r, char *const *names, const char *stem,
                  const plot_options *opt, char *err, size_t errlen) {
  char path[4200];
  snprintf(path, sizeof path, "%s.dat", stem);
  outfile of = {0};
  if (outfile_open(&of, path, err, errlen)) return -1;
  FILE *f = of.f;
  fprintf(f, "# oware chart data: endgame accuracy of run %" PRId64
             " (seeds lost per decided move, by seeds on the board; NaN: no decided move)\n",
          r->run_id);
  fputs("\"seeds\"", f);
  for (int p = 0; p < r->nplayers; p++) {
    fputc(' ', f);
    put_name(f, names[p]);
  }
  fputc('\n', f);
  for (int n = 1; n <= r->seeds; n++) {
    fprintf(f, "%d", n);
    for (int p = 0; p < r->nplayers; p++) {
      long long k = r->moves_at[p][n];
      if (k) fprintf(f, " %.4f", (double)r->lost2_at[p][n] / 2.0 / (double)k);
      else fputs(" NaN", f);
    }
    fputc('\n', f);
  }
  if (outfile_commit(&of, err, errlen)) {
    outfile_abort(&of);
    return -1;
  }
  char title[200], extra[64];
  snprintf(title, sizeof title, "Endgame accuracy of run %" PRId64 " (%d seeds or fewer)",
           r->run_id, r->seeds);
  snprintf(extra, sizeof extra, "players=%d", r->nplayers);
  return plot_script("analyse", path, stem, title, extra, opt, err, errlen);
}
