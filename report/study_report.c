/* study_report.c: a rule-variant study printed, charted with gnuplot and written as an HTML and Markdown page. */
#include "report/study_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/path.h"
#include "report/rating_print.h"
#include "report/report.h"


const char *const study_chart_names[STUDY_NCHARTS] = {
    "variants-outcomes", "variants-ends", "variants-grandslam", "variants-length",
    "variants-branching", "variants-choice", "variants-elo"};

static const char *const chart_titles[STUDY_NCHARTS] = {
    "Outcomes per variant (South moves first)", "How games end, per variant",
    "Grand slams per variant", "Game length per variant",
    "Branching: legal moves per position", "Real choices: positions with more than one legal move",
    "Elo of each player under each variant"};

static const char *const chart_ylabels[STUDY_NCHARTS] = {
    "% of games (95% interval)", "% of games (95% Wilson interval)",
    "% of positions (95% bootstrap interval over games)",
    "plies (mean: 95% t interval; median: IQR)",
    "legal moves (95% bootstrap interval over games)",
    "% of positions (95% bootstrap interval over games)",
    "Elo, mean 0 per variant (95% interval)"};

static void fmt_pct(char *buf, size_t len, const study_interval *x) {
  if (isnan(x->value)) snprintf(buf, len, "-");
  else snprintf(buf, len, "%.1f%% [%.1f, %.1f]", 100 * x->value, 100 * x->lo, 100 * x->hi);
}

/* Small shares (of positions) with two decimals. */
static void fmt_pct2(char *buf, size_t len, const study_interval *x) {
  if (isnan(x->value)) snprintf(buf, len, "-");
  else snprintf(buf, len, "%.2f%% [%.2f, %.2f]", 100 * x->value, 100 * x->lo, 100 * x->hi);
}

static void fmt_num(char *buf, size_t len, const study_interval *x, int decimals) {
  if (isnan(x->value)) snprintf(buf, len, "-");
  else if (isnan(x->lo)) snprintf(buf, len, "%.*f", decimals, x->value);
  else
    snprintf(buf, len, "%.*f [%.*f, %.*f]", decimals, x->value, decimals, x->lo, decimals,
             x->hi);
}

static void fmt_elo(char *buf, size_t len, const study_variant *sv, int i) {
  if (!sv->rated || !sv->rank[i]) snprintf(buf, len, "-");
  else
    snprintf(buf, len, "%+.0f [%+.0f, %+.0f]%s #%d", rating_print_zero(sv->elo[i], 0),
             rating_print_zero(sv->elo_lo[i], 0), rating_print_zero(sv->elo_hi[i], 0),
             sv->bounded[i] ? "*" : "", sv->rank[i]);
}

/* One table row: a label, then one cell per variant. */
typedef void (*cell_fn)(char *buf, size_t len, const study_variant *sv, int arg);

static void row(FILE *out, const study *s, const char *label, cell_fn f, int arg, int w) {
  fprintf(out, "%-28s", label);
  for (int vi = 0; vi < s->nvariants; vi++) {
    char cell[96];
    f(cell, sizeof cell, &s->variant[vi], arg);
    fprintf(out, " %*s", w, cell);
  }
  fputc('\n', out);
}

/* The cells of the metrics table (shared by the text, HTML and Markdown). */
enum {
  C_GAMES, C_SOUTH, C_DRAW, C_NORTH, C_SCORE, C_BALANCE, C_DECISIVE, C_LEN_MEAN, C_LEN_MEDIAN,
  C_LEN_SD, C_LEN_RANGE, C_END0, C_GS_GAMES = C_END0 + STUDY_NENDS, C_GS_AVAIL, C_GS_PLAYED,
  C_GS_PLAYED_POS, C_GS_COUNT, C_BRANCHING, C_CHOICE, C_POSITIONS, C_NROWS
};

static const char *const row_labels[C_NROWS] = {
    "games", "South wins", "draws", "North wins", "South score", "balance", "decisive",
    "length: mean (plies)", "length: median [IQR]", "length: sd", "length: min-max",
    "end: majority", "end: no-move", "end: repetition", "end: ply-limit", "end: forfeit",
    "games with a grand slam", "grand slam available", "grand slam played (of avail.)",
    "grand slam played (of pos.)", "grand slams played/avail.", "legal moves (mean)",
    "real choice (>1 legal)", "positions"};

static void cell(char *buf, size_t len, const study_variant *sv, int r) {
  switch (r) {
  case C_GAMES: snprintf(buf, len, "%lld", sv->games); break;
  case C_SOUTH: fmt_pct(buf, len, &sv->south_win); break;
  case C_DRAW: fmt_pct(buf, len, &sv->draw); break;
  case C_NORTH: fmt_pct(buf, len, &sv->north_win); break;
  case C_SCORE: fmt_pct(buf, len, &sv->south_score); break;
  case C_BALANCE: fmt_pct(buf, len, &sv->balance); break;
  case C_DECISIVE: fmt_pct(buf, len, &sv->decisive); break;
  case C_LEN_MEAN: fmt_num(buf, len, &sv->length, 1); break;
  case C_LEN_MEDIAN:
    if (!sv->games) snprintf(buf, len, "-");
    else snprintf(buf, len, "%.1f [%.1f, %.1f]", sv->length_median, sv->length_q1, sv->length_q3);
    break;
  case C_LEN_SD:
    if (!sv->games) snprintf(buf, len, "-");
    else snprintf(buf, len, "%.1f", sv->length_sd);
    break;
  case C_LEN_RANGE:
    if (!sv->games) snprintf(buf, len, "-");
    else snprintf(buf, len, "%d-%d", sv->length_min, sv->length_max);
    break;
  case C_GS_GAMES: fmt_pct(buf, len, &sv->gs_games_share); break;
  case C_GS_AVAIL: fmt_pct2(buf, len, &sv->gs_available_share); break;
  case C_GS_PLAYED_POS: fmt_pct2(buf, len, &sv->gs_played_positions); break;
  case C_GS_PLAYED: fmt_pct(buf, len, &sv->gs_played_share); break;
  case C_GS_COUNT:
    snprintf(buf, len, "%lld of %lld", sv->gs_played, sv->gs_available);
    break;
  case C_BRANCHING: fmt_num(buf, len, &sv->branching, 2); break;
  case C_CHOICE: fmt_pct(buf, len, &sv->choice_share); break;
  case C_POSITIONS: snprintf(buf, len, "%lld", sv->positions); break;
  default:
    if (r >= C_END0 && r < C_END0 + STUDY_NENDS) {
      int e = r - C_END0;
      if (!sv->games) snprintf(buf, len, "-");
      else snprintf(buf, len, "%lld (%.1f%%)", sv->ends[e], 100 * sv->end_share[e].value);
    } else {
      snprintf(buf, len, "?");
    }
  }
}

static void elo_cell(char *buf, size_t len, const study_variant *sv, int i) {
  fmt_elo(buf, len, sv, i);
}

static void order_line(char *buf, size_t len, const study *s, const study_variant *sv) {
  size_t n = 0;
  buf[0] = 0;
  for (int rank = 1; rank <= s->run.nplayers; rank++)
    for (int i = 0; i < s->run.nplayers; i++)
      if (sv->rank[i] == rank && n < len)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", rank > 1 ? " > " : "",
                              s->run.player_name[i]);
}

static void fmt_p(char *buf, size_t len, double p) {
  if (p < 0.0001) snprintf(buf, len, "%.1e", p);
  else snprintf(buf, len, "%.4f", p);
}

void study_print(FILE *out, const study *s) {
  int w = 24;
  for (int vi = 0; vi < s->nvariants; vi++) {
    int l = (int)strlen(s->variant[vi].name);
    if (l > w) w = l;
  }
  fprintf(out, "\nVariant study of run %lld: %lld games, %d players, %d variants\n",
          (long long)s->run.id, s->games, s->run.nplayers, s->nvariants);
  fprintf(out, "%-28s", "");
  for (int vi = 0; vi < s->nvariants; vi++) fprintf(out, " %*s", w, s->variant[vi].name);
  fputc('\n', out);
  for (int r = 0; r < C_NROWS; r++) row(out, s, row_labels[r], cell, r, w);
  fprintf(out, "Intervals 95%%: rates Wilson; South score Wilson on points; balance from the "
               "normal interval of wS-wN;\nmean length t; grand slams, legal moves and choice "
               "percentile bootstrap over games (%d resamples).\n"
               "Grand slam available: %% of positions where a non-empty house allowed by the "
               "feeding rule sows a grand slam\n(counted even where grandslam-forbidden removes "
               "it); played: %% of those positions where one was played.\n",
          s->bootstrap);
  /* Elo. */
  int any = 0;
  for (int vi = 0; vi < s->nvariants; vi++) any |= s->variant[vi].rated;
  if (any) {
    fprintf(out, "\nElo per variant (mean 0 under each, 95%% interval, #rank; * a bound):\n");
    fprintf(out, "%-28s", "player");
    for (int vi = 0; vi < s->nvariants; vi++) fprintf(out, " %*s", w, s->variant[vi].name);
    fputc('\n', out);
    for (int i = 0; i < s->run.nplayers; i++) {
      char label[40];
      snprintf(label, sizeof label, "%.28s", s->run.player_name[i]);
      row(out, s, label, elo_cell, i, w);
    }
    fprintf(out, "Strength order:\n");
    for (int vi = 0; vi < s->nvariants; vi++) {
      char line[2048];
      order_line(line, sizeof line, s, &s->variant[vi]);
      if (s->variant[vi].rated) fprintf(out, "  %-*s %s\n", w, s->variant[vi].name, line);
    }
    if (!s->nswaps) {
      fprintf(out, "The order is the same under every variant.\n");
    } else {
      int sig = 0;
      for (int k = 0; k < s->nswaps; k++) sig += s->swaps[k].significant;
      fprintf(out, "The order changes (%d swap%s, %d significant: LOS >= 95%% both ways):\n",
              s->nswaps, s->nswaps == 1 ? "" : "s", sig);
      for (int k = 0; k < s->nswaps; k++) {
        const study_swap *x = &s->swaps[k];
        fprintf(out, "  %s above %s under %s (LOS %.1f%%), below under %s (LOS %.1f%%)%s\n",
                s->run.player_name[x->i], s->run.player_name[x->j], s->variant[x->va].name,
                100 * x->los_a, s->variant[x->vb].name, 100 * x->los_b,
                x->significant ? "  significant" : "");
      }
    }
  }
  if (s->ntests) {
    fprintf(out, "\nDifferences between variants (pooled two-proportion z-test, two-sided; "
                 "Holm over the %d pairs):\n",
            s->ntests);
    fprintf(out, "%-*s %-*s %9s %8s %10s %10s   %9s %8s %10s %10s\n", w, "variant A", w,
            "variant B", "dScore", "z", "p", "p(Holm)", "dDraw", "z", "p", "p(Holm)");
    for (int k = 0; k < s->ntests; k++) {
      const study_test *a = &s->score_test[k], *d = &s->draw_test[k];
      char p1[24], h1[24], p2[24], h2[24];
      fmt_p(p1, sizeof p1, a->p);
      fmt_p(h1, sizeof h1, a->p_holm);
      fmt_p(p2, sizeof p2, d->p);
      fmt_p(h2, sizeof h2, d->p_holm);
      fprintf(out, "%-*s %-*s %+8.1f%% %8.2f %10s %10s   %+8.1f%% %8.2f %10s %10s\n", w,
              s->variant[a->a].name, w, s->variant[a->b].name, 100 * a->diff, a->z, p1, h1,
              100 * d->diff, d->z, p2, h2);
    }
    fprintf(out, "dScore: South's score under A minus under B; dDraw: the draw rates. The games "
                 "of two variants are treated\nas independent samples.\n");
  }
}

/* ================================================================ gnuplot */

int study_gnuplot(const char *script, const char *datafile, const char *outstem,
                  const char *title, const char *extra, const plot_options *opt, char *err,
                  size_t errlen) {
  return plot_script(script, datafile, outstem, title, extra, opt, err, errlen);
}

/* ================================================================ charts */

/* Writes s as a gnuplot double-quoted string ('"' becomes '\''). */
static void put_name(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) fputc(*s == '"' ? '\'' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
  fputc('"', f);
}

static void put_value(FILE *f, const study_interval *x, double scale) {
  if (isnan(x->value)) {
    fputs(" 0 0 0", f); /* not applicable: an empty bar */
    return;
  }
  double lo = isnan(x->lo) ? x->value : x->lo, hi = isnan(x->hi) ? x->value : x->hi;
  fprintf(f, " %.4f %.4f %.4f", scale * x->value, scale * lo, scale * hi);
}

/* The interval of metric r of a chart for a variant; 0 when the chart has no row r. */
static int chart_value(const study *s, int chart, int r, int vi, study_interval *x,
                       const char **label) {
  const study_variant *sv = &s->variant[vi];
  switch (chart) {
  case STUDY_CHART_OUTCOMES: {
    static const char *const l[] = {"South wins", "draws", "North wins", "South score",
                                    "balance", "decisive"};
    if (r >= 6) return 0;
    const study_interval *v[] = {&sv->south_win, &sv->draw, &sv->north_win, &sv->south_score,
                                 &sv->balance, &sv->decisive};
    *x = *v[r];
    *label = l[r];
    return 1;
  }
  case STUDY_CHART_ENDS:
    if (r >= STUDY_NENDS) return 0;
    *x = sv->end_share[r];
    *label = study_end_name(r);
    return 1;
  case STUDY_CHART_GRANDSLAM:
    if (r >= 2) return 0;
    *x = r == 0 ? sv->gs_available_share : sv->gs_played_positions;
    *label = r == 0 ? "positions with a grand slam available" : "positions where one was played";
    return 1;
  case STUDY_CHART_LENGTH:
    if (r >= 2) return 0;
    if (r == 0) {
      *x = sv->length;
      *label = "mean";
    } else {
      *x = (study_interval){sv->length_median, sv->length_q1, sv->length_q3};
      if (!sv->games) x->value = NAN;
      *label = "median (bar), quartiles (whiskers)";
    }
    return 1;
  case STUDY_CHART_BRANCHING:
    if (r >= 1) return 0;
    *x = sv->branching;
    *label = "legal moves per position";
    return 1;
  case STUDY_CHART_CHOICE:
    if (r >= 1) return 0;
    *x = sv->choice_share;
    *label = "positions with more than one legal move";
    return 1;
  case STUDY_CHART_ELO:
    if (r >= s->run.nplayers) return 0;
    *label = s->run.player_name[r];
    if (!sv->rated || !sv->rank[r]) *x = (study_interval){NAN, NAN, NAN};
    else *x = (study_interval){sv->elo[r], sv->elo_lo[r], sv->elo_hi[r]};
    return 1;
  }
  return 0;
}

static int chart_is_pct(int chart) {
  return chart == STUDY_CHART_OUTCOMES || chart == STUDY_CHART_ENDS ||
         chart == STUDY_CHART_GRANDSLAM || chart == STUDY_CHART_CHOICE;
}

static int write_chart_data(const study *s, int chart, const char *path, char *err,
                            size_t errlen) {
  outfile of; /* written whole or not at all */
  if (outfile_open(&of, path, err, errlen)) return -1;
  FILE *f = of.f;
  fprintf(f, "# oware chart data: variant study of run %lld, %s\n", (long long)s->run.id,
          chart_titles[chart]);
  fprintf(f, "# one line per metric: \"metric\", then per variant: value low high (95%%)\n");
  fputs("\"metric\"", f);
  for (int vi = 0; vi < s->nvariants; vi++) {
    fputc(' ', f);
    put_name(f, s->variant[vi].name);
    fputs(" \"lo\" \"hi\"", f);
  }
  fputc('\n', f);
  double scale = chart_is_pct(chart) ? 100.0 : 1.0;
  for (int r = 0;; r++) {
    study_interval x;
    const char *label = NULL;
    if (!chart_value(s, chart, r, 0, &x, &label)) break;
    put_name(f, label);
    for (int vi = 0; vi < s->nvariants; vi++) {
      chart_value(s, chart, r, vi, &x, &label);
      put_value(f, &x, scale);
    }
    fputc('\n', f);
  }
  return outfile_commit(&of, err, errlen);
}

int study_charts(const study *s, const char *outdir, const plot_options *opt,
                 study_charts_result *res, FILE *log, char *err, size_t errlen) {
  memset(res, 0, sizeof *res);
  if (path_mkdirs(outdir, err, errlen)) return -1;
  int all = 1;
  for (int c = 0; c < STUDY_NCHARTS; c++) {
    char dat[4200], stem[4200], gerr[1024];
    snprintf(dat, sizeof dat, "%s/%s.dat", outdir, study_chart_names[c]);
    snprintf(stem, sizeof stem, "%s/%s", outdir, study_chart_names[c]);
    if (c == STUDY_CHART_ELO) {
      int any = 0;
      for (int vi = 0; vi < s->nvariants; vi++) any |= s->variant[vi].rated;
      if (!any) {
        snprintf(res->note[c], sizeof res->note[c], "no Elo: fewer than two rated players");
        continue;
      }
    }
    if (!s->games) {
      snprintf(res->note[c], sizeof res->note[c], "no games");
      all = 0;
      continue;
    }
    if (write_chart_data(s, c, dat, err, errlen)) return -1;
    if (res->gnuplot_missing) {
      snprintf(res->note[c], sizeof res->note[c], "gnuplot is not installed: data file only");
      all = 0;
      continue;
    }
    char extra[512];
    snprintf(extra, sizeof extra, "ylabel='%s'; ", chart_ylabels[c]);
    int rc = study_gnuplot("variants", dat, stem, chart_titles[c], extra, opt, gerr, sizeof gerr);
    if (rc == 0) {
      res->made[c] = 1;
    } else {
      all = 0;
      if (rc == 1) res->gnuplot_missing = 1;
      snprintf(res->note[c], sizeof res->note[c], "%.500s", gerr);
      if (log && (rc != 1 || c == 0)) /* gnuplot missing: said once */
        fprintf(log, "oware: chart %s not drawn: %s\n", study_chart_names[c], gerr);
    }
  }
  return all ? 0 : 1;
}

/* ================================================================ report */

static void md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|' || *s == '*' || *s == '_' || *s == '<' || *s == '>' || *s == '[' || *s == ']' ||
        *s == '`' || *s == '\\')
      fputc('\\', f);
    fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
  }
}

static const char css[] =
    "body{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",sans-serif;"
    "margin:2em auto;max-width:1100px;padding:0 1em;color:#222;line-height:1.4}"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;"
    "margin-top:1.6em}table{border-collapse:collapse;margin:.5em 0 1em;font-size:.92em}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}"
    "th{background:#f0f0f0}tbody tr:nth-child(even){background:#fafafa}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".sub{color:#555;margin-top:0}.note{background:#fff8e1;border-left:4px solid #f0b400;"
    "padding:.4em .8em}nav a{margin-right:1em}figure{margin:1em 0 2em}"
    "figure img{max-width:100%;height:auto;border:1px solid #ddd}"
    "figcaption{color:#444;font-size:.92em}footer{margin-top:3em;color:#777;font-size:.85em}";

/* A table with variants as columns: header. */
static void tables_head(FILE *h, FILE *m, const study *s, const char *first) {
  fprintf(h, "<table>\n<thead><tr><th>");
  report_html_escape(h, first);
  fprintf(h, "</th>");
  fprintf(m, "| ");
  md_text(m, first);
  for (int vi = 0; vi < s->nvariants; vi++) {
    fprintf(h, "<th>");
    report_html_escape(h, s->variant[vi].name);
    fprintf(h, "</th>");
    fprintf(m, " | ");
    md_text(m, s->variant[vi].name);
  }
  fprintf(h, "</tr></thead>\n<tbody>\n");
  fprintf(m, " |\n|---");
  for (int vi = 0; vi < s->nvariants; vi++) fprintf(m, "|---:");
  fprintf(m, "|\n");
}

static void tables_row(FILE *h, FILE *m, const study *s, const char *label, cell_fn f, int arg) {
  fprintf(h, "<tr><td>");
  report_html_escape(h, label);
  fprintf(h, "</td>");
  fprintf(m, "| ");
  md_text(m, label);
  for (int vi = 0; vi < s->nvariants; vi++) {
    char c[128];
    f(c, sizeof c, &s->variant[vi], arg);
    fprintf(h, "<td class=\"num\">");
    report_html_escape(h, c);
    fprintf(h, "</td>");
    fprintf(m, " | ");
    md_text(m, c);
  }
  fprintf(h, "</tr>\n");
  fprintf(m, " |\n");
}

static void both(FILE *h, FILE *m, const char *html, const char *md) {
  fputs(html, h);
  fputs(md, m);
}

/* The title, the run's line, its command and players. */
static void write_head(FILE *h, FILE *m, const study *s, int has_index) {
  char title[300];
  snprintf(title, sizeof title, "Variant study of run %lld (%s)", (long long)s->run.id,
           s->run.name);
  fprintf(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
  report_html_escape(h, title);
  fprintf(h, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
  report_html_escape(h, title);
  fprintf(h, "</h1>\n<p class=\"sub\">");
  fprintf(m, "# ");
  md_text(m, title);
  fprintf(m, "\n\n");
  char sub[1024];
  snprintf(sub, sizeof sub,
           "%lld games, %d players, %d variants, series %s, openings %s, seed %llu; run %s.",
           s->games, s->run.nplayers, s->nvariants, s->run.format, s->run.openings,
           (unsigned long long)s->run.seed, store_status_name(s->run.status));
  report_html_escape(h, sub);
  md_text(m, sub);
  fprintf(h, "</p>\n<p>Command: <code>");
  report_html_escape(h, s->run.command);
  fprintf(h, "</code></p>\n");
  fprintf(m, "\n\nCommand: `%s`\n\n", s->run.command);
  if (has_index) both(h, m, "<p>The run's own report (standings, ratings, pairings, games): "
                            "<a href=\"index.html\">index.html</a>.</p>\n",
                      "The run's own report (standings, ratings, pairings, games): "
                      "[index.html](index.html).\n\n");
  fprintf(h, "<p>Players: ");
  fprintf(m, "Players: ");
  for (int i = 0; i < s->run.nplayers; i++) {
    fprintf(h, "%s<code>", i ? ", " : "");
    report_html_escape(h, s->run.player_name[i]);
    fprintf(h, "</code>");
    fprintf(m, "%s`%s`", i ? ", " : "", s->run.player_name[i]);
  }
  fprintf(h, ".</p>\n");
  fprintf(m, ".\n\n");
}

/* The table of metrics per variant and how they are measured. */
static void write_metrics(FILE *h, FILE *m, const study *s) {
  both(h, m, "<h2 id=\"metrics\">Metrics per variant</h2>\n", "## Metrics per variant\n\n");
  tables_head(h, m, s, "metric");
  for (int r = 0; r < C_NROWS; r++) tables_row(h, m, s, row_labels[r], cell, r);
  fprintf(h, "</tbody></table>\n");
  char method[1200];
  snprintf(method, sizeof method,
           "95%% intervals: win, draw, loss, decisive and end-reason rates Wilson; South's score "
           "Wilson on its points (a draw half a win); balance = 1 - |wS - wN| from the normal "
           "interval of wS - wN; mean length Student t; grand slams, legal moves and real choice "
           "percentile bootstrap over games (%d resamples; a game is the independent unit). "
           "A grand slam is available in a position when one of the mover's non-empty houses "
           "that the feeding rule allows would capture every seed of the opponent "
           "(board_is_grand_slam) - counted even where grandslam-forbidden makes it illegal; "
           "played is the share of those positions in which the move played was one.",
           s->bootstrap);
  fprintf(h, "<p class=\"note\">");
  report_html_escape(h, method);
  fprintf(h, "</p>\n");
  fprintf(m, "\n");
  md_text(m, method);
  fprintf(m, "\n\n");
}

/* The Elo of each player under each variant, and where the order changes. */
static void write_elo(FILE *h, FILE *m, const study *s) {
  int any = 0;
  for (int vi = 0; vi < s->nvariants; vi++) any |= s->variant[vi].rated;
  if (any) {
    both(h, m, "<h2 id=\"elo\">Elo under each variant</h2>\n", "## Elo under each variant\n\n");
    tables_head(h, m, s, "player");
    for (int i = 0; i < s->run.nplayers; i++)
      tables_row(h, m, s, s->run.player_name[i], elo_cell, i);
    fprintf(h, "</tbody></table>\n");
    fprintf(m, "\n");
    both(h, m, "<p>Bradley-Terry fit of each variant's games alone, mean 0, 95% interval from "
               "the covariance; #rank; * marks a bound.</p>\n<ul>\n",
         "Bradley-Terry fit of each variant's games alone, mean 0, 95% interval from the "
         "covariance; #rank; \\* marks a bound.\n\n");
    for (int vi = 0; vi < s->nvariants; vi++) {
      if (!s->variant[vi].rated) continue;
      char line[2048];
      order_line(line, sizeof line, s, &s->variant[vi]);
      fprintf(h, "<li><code>");
      report_html_escape(h, s->variant[vi].name);
      fprintf(h, "</code>: ");
      report_html_escape(h, line);
      fprintf(h, "</li>\n");
      fprintf(m, "- `%s`: ", s->variant[vi].name);
      md_text(m, line);
      fprintf(m, "\n");
    }
    fprintf(h, "</ul>\n<p>");
    fprintf(m, "\n");
    if (!s->nswaps) {
      both(h, m, "The strength order is the same under every variant.", 
           "The strength order is the same under every variant.");
    } else {
      for (int k = 0; k < s->nswaps; k++) {
        const study_swap *x = &s->swaps[k];
        char line[1200];
        snprintf(line, sizeof line,
                 "%s is above %s under %s (LOS %.1f%%) but below under %s (LOS %.1f%%)%s. ",
                 s->run.player_name[x->i], s->run.player_name[x->j], s->variant[x->va].name,
                 100 * x->los_a, s->variant[x->vb].name, 100 * x->los_b,
                 x->significant ? ", significant both ways" : ", not significant");
        report_html_escape(h, line);
        md_text(m, line);
      }
    }
    fprintf(h, "</p>\n");
    fprintf(m, "\n\n");
  }
}

/* The tests of the differences between pairs of variants. */
static void write_tests(FILE *h, FILE *m, const study *s) {
  if (s->ntests) {
    both(h, m, "<h2 id=\"tests\">Differences between variants</h2>\n",
         "## Differences between variants\n\n");
    both(h, m,
         "<table>\n<thead><tr><th>A</th><th>B</th><th>South score A</th><th>B</th>"
         "<th>difference</th><th>z</th><th>p</th><th>p (Holm)</th><th>draws A</th><th>B</th>"
         "<th>difference</th><th>z</th><th>p</th><th>p (Holm)</th></tr></thead>\n<tbody>\n",
         "| A | B | South score A | B | difference | z | p | p (Holm) | draws A | B | difference "
         "| z | p | p (Holm) |\n"
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < s->ntests; k++) {
      const study_test *t[2] = {&s->score_test[k], &s->draw_test[k]};
      fprintf(h, "<tr><td>");
      report_html_escape(h, s->variant[t[0]->a].name);
      fprintf(h, "</td><td>");
      report_html_escape(h, s->variant[t[0]->b].name);
      fprintf(h, "</td>");
      fprintf(m, "| ");
      md_text(m, s->variant[t[0]->a].name);
      fprintf(m, " | ");
      md_text(m, s->variant[t[0]->b].name);
      for (int q = 0; q < 2; q++) {
        char p[24], ph[24];
        fmt_p(p, sizeof p, t[q]->p);
        fmt_p(ph, sizeof ph, t[q]->p_holm);
        fprintf(h,
                "<td class=\"num\">%.1f%%</td><td class=\"num\">%.1f%%</td><td class=\"num\">"
                "%+.1f%%</td><td class=\"num\">%.2f</td><td class=\"num\">%s</td>"
                "<td class=\"num\">%s</td>",
                100 * t[q]->pa, 100 * t[q]->pb, 100 * t[q]->diff, t[q]->z, p, ph);
        fprintf(m, " | %.1f%% | %.1f%% | %+.1f%% | %.2f | %s | %s", 100 * t[q]->pa,
                100 * t[q]->pb, 100 * t[q]->diff, t[q]->z, p, ph);
      }
      fprintf(h, "</tr>\n");
      fprintf(m, " |\n");
    }
    fprintf(h, "</tbody></table>\n");
    both(h, m,
         "<p>Pooled two-proportion z-test, two-sided p = 2&middot;Q(|z|); South's score treats a "
         "draw as half a win (conservative). Holm's adjustment over the pairs of variants. The "
         "games of two variants are treated as independent samples.</p>\n",
         "\nPooled two-proportion z-test, two-sided p = 2·Q(|z|); South's score treats a draw "
         "as half a win (conservative). Holm's adjustment over the pairs of variants. The games "
         "of two variants are treated as independent samples.\n\n");
  }
}

/* The charts that were drawn, and why the others were not. */
static void write_charts(FILE *h, FILE *m, const study_charts_result *res) {
  both(h, m, "<h2 id=\"charts\">Charts</h2>\n", "## Charts\n\n");
  for (int c = 0; c < STUDY_NCHARTS; c++) {
    if (res && res->made[c]) {
      fprintf(h, "<figure><img src=\"%s.png\" alt=\"", study_chart_names[c]);
      report_html_escape(h, chart_titles[c]);
      fprintf(h, "\"><figcaption>");
      report_html_escape(h, chart_titles[c]);
      fprintf(h,
              " (<a href=\"%s.svg\">SVG</a>, <a href=\"%s.dat\">data</a>)</figcaption></figure>\n",
              study_chart_names[c], study_chart_names[c]);
      fprintf(m, "![%s](%s.png)\n\n", chart_titles[c], study_chart_names[c]);
    } else {
      const char *why = res && res->note[c][0] ? res->note[c] : "not drawn";
      fprintf(h, "<p class=\"note\">");
      report_html_escape(h, chart_titles[c]);
      fprintf(h, ": ");
      report_html_escape(h, why);
      fprintf(h, "</p>\n");
      fprintf(m, "%s: ", chart_titles[c]);
      md_text(m, why);
      fprintf(m, "\n\n");
    }
  }
}

int study_report(const study *s, const char *outdir, const study_charts_result *res,
                 char *err, size_t errlen) {
  if (path_mkdirs(outdir, err, errlen)) return -1;
  char hp[4200], mp[4200], idx[4200];
  snprintf(hp, sizeof hp, "%s/variants.html", outdir);
  snprintf(mp, sizeof mp, "%s/variants.md", outdir);
  snprintf(idx, sizeof idx, "%s/index.html", outdir);
  int has_index = !access(idx, R_OK);
  outfile hf, mf = {0}; /* each written whole or not at all */
  if (outfile_open(&hf, hp, err, errlen)) return -1;
  if (outfile_open(&mf, mp, err, errlen)) {
    outfile_abort(&hf);
    return -1;
  }
  FILE *h = hf.f, *m = mf.f;
  write_head(h, m, s, has_index);
  write_metrics(h, m, s);
  write_elo(h, m, s);
  write_tests(h, m, s);
  write_charts(h, m, res);
  report_footer(h, m, "");
  if (outfile_commit(&hf, err, errlen)) {
    outfile_abort(&mf);
    return -1;
  }
  return outfile_commit(&mf, err, errlen);
}

/* ================================================================ openings */
