/* report.c: writes a run's report folder: index.html and report.md (the same content), the charts, the games as OGN. */
#include "report/report.h"
#include "core/error.h"
#include "report/analyse_chart.h"
#include "core/outfile.h"
#include "core/path.h"
#include "report/viewer.h"
#include "report/rating_print.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/game.h"
#include "core/notation.h"
#include "core/variant.h"
#include "store/replay.h"


void report_footer(FILE *h, FILE *m, const char *md_before) {
  time_t now = time(NULL);
  struct tm tm;
  char when[32] = "";
  if (gmtime_r(&now, &tm)) strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  fprintf(h, "<footer>Written by oware %s on %s.</footer>\n</body>\n</html>\n", OWARE_VERSION,
          when);
  fprintf(m, "%s---\nWritten by oware %s on %s.\n", md_before, OWARE_VERSION, when);
}

void report_html_escape(FILE *f, const char *s) {
  for (; *s; s++) switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&#39;", f); break;
    default: fputc(*s, f);
    }
}

/* Markdown text inside a table cell or a line: the characters Markdown or
 * HTML would read as syntax are escaped, line breaks become spaces. */
static void md_escape(FILE *f, const char *s) {
  for (; *s; s++) switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '\n':
    case '\r': fputc(' ', f); break;
    case '|': case '\\': case '*': case '_': case '`': case '[': case ']': case '#': case '~':
      fputc('\\', f);
      fputc(*s, f);
      break;
    default: fputc(*s, f);
    }
}

/* ---- Output in two formats at once ---- */

/* The report is written once, through these helpers, into both files. */
typedef struct out {
  FILE *h, *m;
} out;

static void esc(out *o, const char *s) {
  report_html_escape(o->h, s);
  md_escape(o->m, s);
}

/* Raw text, the same in both (numbers, fixed words). */
static void raw(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void raw(out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(o->h, fmt, ap);
  va_end(ap);
  va_start(ap, fmt);
  vfprintf(o->m, fmt, ap);
  va_end(ap);
}

static void heading(out *o, int level, const char *id, const char *text) {
  fprintf(o->h, "<h%d id=\"%s\">%s</h%d>\n", level, id, text, level);
  fprintf(o->m, "\n%.*s %s\n\n", level, "######", text);
}

/* A table: columns named in head, '|'-separated; a leading '>' marks a
 * right-aligned (numeric) column. */
typedef struct table {
  int ncols;
  int right[16];
  int col;
} table;

static void table_begin(out *o, table *t, const char *head) {
  memset(t, 0, sizeof *t);
  fputs("<table>\n<thead><tr>", o->h);
  fputs("|", o->m);
  const char *p = head;
  while (*p && t->ncols < 16) {
    size_t n = strcspn(p, "|");
    int right = *p == '>';
    t->right[t->ncols++] = right;
    fprintf(o->h, "<th%s>%.*s</th>", right ? " class=\"num\"" : "", (int)(n - (size_t)right),
            p + right);
    fprintf(o->m, " %.*s |", (int)(n - (size_t)right), p + right);
    p += n;
    if (*p) p++;
  }
  fputs("</tr></thead>\n<tbody>\n", o->h);
  fputs("\n|", o->m);
  for (int c = 0; c < t->ncols; c++) fputs(t->right[c] ? " ---: |" : " --- |", o->m);
  fputc('\n', o->m);
}

static void row_begin(out *o, table *t) {
  t->col = 0;
  fputs("<tr>", o->h);
  fputs("|", o->m);
}

static void cell_open(out *o, table *t) {
  fprintf(o->h, "<td%s>", t->col < 16 && t->right[t->col] ? " class=\"num\"" : "");
  fputc(' ', o->m);
}

static void cell_close(out *o, table *t) {
  fputs("</td>", o->h);
  fputs(" |", o->m);
  t->col++;
}

/* A cell of text from the database (escaped). */
static void cell_text(out *o, table *t, const char *s) {
  cell_open(o, t);
  esc(o, s);
  cell_close(o, t);
}

/* A cell of text we format (numbers). */
static void cell(out *o, table *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cell(out *o, table *t, const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  cell_open(o, t);
  raw(o, "%s", buf);
  cell_close(o, t);
}

static void row_end(out *o) {
  fputs("</tr>\n", o->h);
  fputc('\n', o->m);
}

static void table_end(out *o) {
  fputs("</tbody>\n</table>\n", o->h);
  fputc('\n', o->m);
}

/* A paragraph: text from the database or ours, escaped in both. */
static void para(out *o, const char *cls, const char *s) {
  fprintf(o->h, "<p%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
  report_html_escape(o->h, s);
  fputs("</p>\n", o->h);
  if (cls && !strcmp(cls, "note")) fputs("*Note:* ", o->m);
  md_escape(o->m, s);
  fputs("\n\n", o->m);
}

/* ---- Times ---- */

/* Seconds since 1970 of "YYYY-MM-DDTHH:MM:SSZ", or -1. */
static long long iso_seconds(const char *s) {
  int y, mo, d, h, mi, se;
  if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &se) != 6) return -1;
  /* days from civil (Howard Hinnant's algorithm) */
  y -= mo <= 2;
  long long era = (y >= 0 ? y : y - 399) / 400;
  long long yoe = y - era * 400;
  long long doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  long long days = era * 146097 + doe - 719468;
  return days * 86400 + h * 3600 + mi * 60 + se;
}

static void format_duration(long long s, char *buf, size_t len) {
  if (s < 0) snprintf(buf, len, "?");
  else if (s < 60) snprintf(buf, len, "%lld s", s);
  else if (s < 3600) snprintf(buf, len, "%lld min %02lld s", s / 60, s % 60);
  else snprintf(buf, len, "%lld h %02lld min", s / 3600, s / 60 % 60);
}

/* ---- The OGN export ---- */

typedef struct exporter {
  FILE *f;
  const store_run *run;
  char err[ERROR_MAX];
} exporter;

static int export_game(void *ctx, const store_game *g) {
  exporter *e = ctx;
  const store_run *r = e->run;
  char round[48], date[16];
  variant v;
  game gm;
  move_record *rec;
  if (store_game_records(g, &rec, e->err, sizeof e->err) < 0) return 1;
  if (store_replay_game(r, g, &v, &gm, e->err, sizeof e->err)) return free(rec), 1;
  snprintf(round, sizeof round, "%d.%d.%d", g->round + 1, g->series_no + 1, g->game_no + 1);
  snprintf(date, sizeof date, "%.4s.%.2s.%.2s", r->started, r->started + 5, r->started + 8);
  outcome ended = {.end = g->end, .winner = g->winner, .score2 = {g->score2[0], g->score2[1]}};
  notation_meta meta = {.event = r->name, .site = "oware-harness", .date = date, .round = round,
                        .south = r->player_name[g->south_idx],
                        .north = r->player_name[g->north_idx], .ended = &ended, .records = rec};
  int bad = notation_ogn_write(e->f, &gm, &meta);
  game_free(&gm);
  free(rec);
  if (bad) {
    error_set(e->err, sizeof e->err, "cannot write series %d game %d: %s", g->series_no,
             g->game_no, strerror(errno));
    return 1;
  }
  return 0;
}

static int write_ogn(store *db, const plot_run *r, const char *path, char *err, size_t errlen) {
  outfile of; /* written whole, or the old file stays */
  if (outfile_open(&of, path, err, errlen)) return -1;
  exporter e = {of.f, &r->run, ""};
  int rc = store_games_foreach(db, r->run.id, export_game, &e, err, errlen);
  if (e.err[0] || rc) {
    outfile_abort(&of);
    if (e.err[0]) error_set(err, errlen, "%s: %s", path, e.err);
    return -1;
  }
  return outfile_commit(&of, err, errlen);
}

/* ---- The pages ---- */

static const char css[] =
    "body{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"DejaVu Sans\",sans-serif;"
    "margin:2em auto;max-width:1100px;padding:0 1em;color:#222;line-height:1.4}"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;"
    "margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.5em 0 1em;font-size:.92em}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}"
    "td:first-child{white-space:nowrap}"
    "th{background:#f0f0f0}tbody tr:nth-child(even){background:#fafafa}"
    "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"
    "code,.mono{font-family:ui-monospace,\"DejaVu Sans Mono\",monospace;font-size:.95em;"
    "word-break:break-all}"
    ".sub{color:#555;margin-top:0}.note{background:#fff8e1;border-left:4px solid #f0b400;"
    "padding:.4em .8em}"
    "nav a{margin-right:1em}figure{margin:1em 0 2em}figure img{max-width:100%;height:auto;"
    "border:1px solid #ddd}"
    "figcaption{color:#444;font-size:.92em}footer{margin-top:3em;color:#777;font-size:.85em}";

static int file_exists(const char *dir, const char *name) {
  char path[4200];
  struct stat st;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return !stat(path, &st) && S_ISREG(st.st_mode);
}

static void write_config(out *o, const plot_run *r) {
  const store_run *run = &r->run;
  heading(o, 2, "configuration", "Configuration");
  table t;
  char buf[64];
  table_begin(o, &t, "setting|value");
  row_begin(o, &t), cell(o, &t, "command"), cell_text(o, &t, run->command), row_end(o);
  row_begin(o, &t), cell(o, &t, "name"), cell_text(o, &t, run->name), row_end(o);
  row_begin(o, &t), cell(o, &t, "kind"), cell_text(o, &t, store_kind_name(run->kind)), row_end(o);
  row_begin(o, &t), cell(o, &t, "series format"), cell_text(o, &t, run->format), row_end(o);
  row_begin(o, &t), cell(o, &t, "openings"), cell_text(o, &t, run->openings), row_end(o);
  row_begin(o, &t), cell(o, &t, "rounds"), cell(o, &t, "%d", run->rounds), row_end(o);
  row_begin(o, &t), cell(o, &t, "threads"), cell(o, &t, "%d", run->threads), row_end(o);
  row_begin(o, &t), cell(o, &t, "seed"), cell(o, &t, "%llu", (unsigned long long)run->seed),
      row_end(o);
  row_begin(o, &t), cell(o, &t, "status"), cell_text(o, &t, store_status_name(run->status)), row_end(o);
  row_begin(o, &t), cell(o, &t, "started"), cell_text(o, &t, run->started), row_end(o);
  row_begin(o, &t), cell(o, &t, "finished"),
      cell_text(o, &t, run->finished[0] ? run->finished : "-"), row_end(o);
  if (run->finished[0]) {
    format_duration(iso_seconds(run->finished) - iso_seconds(run->started), buf, sizeof buf);
    row_begin(o, &t), cell(o, &t, "duration"), cell(o, &t, "%s", buf), row_end(o);
  }
  row_begin(o, &t), cell(o, &t, "games stored"), cell(o, &t, "%lld", r->games), row_end(o);
  table_end(o);

  heading(o, 3, "players", "Players");
  table_begin(o, &t, ">#|name|spec");
  for (int i = 0; i < run->nplayers; i++) {
    row_begin(o, &t);
    cell(o, &t, "%d", i + 1);
    cell_text(o, &t, run->player_name[i]);
    cell_text(o, &t, run->player_spec[i]);
    row_end(o);
  }
  table_end(o);

  heading(o, 3, "variants", "Variants");
  table_begin(o, &t, ">#|variant|>games|>mean length (plies)");
  for (int v = 0; v < run->nvariants; v++) {
    row_begin(o, &t);
    cell(o, &t, "%d", v + 1);
    cell_text(o, &t, run->variant[v]);
    cell(o, &t, "%lld", r->variant_games[v]);
    if (r->variant_games[v])
      cell(o, &t, "%.1f", (double)r->variant_plies[v] / (double)r->variant_games[v]);
    else
      cell(o, &t, "-");
    row_end(o);
  }
  table_end(o);
}

static void elo_cell(out *o, table *t, const plot_player *p) {
  if (p->has_elo) cell(o, t, "%+.0f%s", rating_print_zero(p->elo, 0), p->bound ? " (bound)" : "");
  else cell(o, t, "-");
}

static void write_standings(out *o, const plot_run *r) {
  heading(o, 2, "standings", "Standings");
  if (!r->games) {
    para(o, NULL, "No games are stored for this run.");
    return;
  }
  table t;
  table_begin(o, &t, ">rank|player|>games|>wins|>draws|>losses|>points|>score %|>score 95% "
                     "(Wilson)|>Elo|>Elo 95%");
  for (int k = 0; k < r->nplayers; k++) {
    int i = r->order[k];
    const plot_player *p = &r->player[i];
    row_begin(o, &t);
    cell(o, &t, "%d", k + 1);
    cell_text(o, &t, r->run.player_name[i]);
    cell(o, &t, "%lld", p->games);
    cell(o, &t, "%lld", p->wins);
    cell(o, &t, "%lld", p->draws);
    cell(o, &t, "%lld", p->losses);
    cell(o, &t, "%.1f", p->points);
    cell(o, &t, "%.1f", p->games ? 100.0 * p->points / (double)p->games : 0.0);
    cell(o, &t, "%.1f – %.1f", p->wilson_lo, p->wilson_hi);
    elo_cell(o, &t, p);
    if (p->has_elo)
      cell(o, &t, "%+.0f … %+.0f", rating_print_zero(p->lo, 0), rating_print_zero(p->hi, 0));
    else cell(o, &t, "-");
    row_end(o);
  }
  table_end(o);
  char buf[900];
  if (r->has_elo)
    snprintf(buf, sizeof buf, "Elo relative to %s: %s.", r->scale_text, r->elo_source);
  else
    snprintf(buf, sizeof buf, "Elo: %s.", r->elo_source);
  para(o, r->has_elo ? NULL : "note", buf);
}

static void write_ratings(out *o, const plot_run *r) {
  heading(o, 2, "ratings", "Ratings");
  table t;
  if (r->nlatest) {
    char buf[900];
    rating_scale own;
    rating_scale_of_scope(r->latest[0].scope, &own);
    snprintf(buf, sizeof buf,
             "The latest stored fit (%lld) of this run: scope \"%s\", %lld games, computed %s. "
             "Elo relative to %s%s.",
             (long long)r->latest[0].batch, r->latest[0].scope, r->latest[0].games_total,
             r->latest[0].created, r->scale_text,
             rating_scale_same(&own, &r->scale) ? ""
                                                : " (fitted again on this scale from the same games)");
    para(o, NULL, buf);
    table_begin(o, &t, ">rank|player|>Elo|>95% interval|>games|>score %|>draws %");
    for (int k = 0; k < r->nlatest; k++) {
      const store_rating *s = &r->latest[k];
      row_begin(o, &t);
      cell(o, &t, "%d", k + 1);
      cell_text(o, &t, s->player);
      cell(o, &t, "%+.1f%s", rating_print_zero(s->elo, 1), s->bound ? " (bound)" : "");
      cell(o, &t, "%+.1f … %+.1f", rating_print_zero(s->lo, 1), rating_print_zero(s->hi, 1));
      cell(o, &t, "%lld", s->games);
      cell(o, &t, "%.1f", 100.0 * s->score);
      cell(o, &t, "%.1f", 100.0 * s->draws);
      row_end(o);
    }
    table_end(o);
    int fits = 0;
    for (int k = 0; k < r->nhistory; k++)
      fits += !k || r->history[k].batch != r->history[k - 1].batch;
    snprintf(buf, sizeof buf,
             "%d fit%s of this scope stored (see the chart of ratings over the run, every fit "
             "relative to %s).", fits, fits == 1 ? "" : "s", r->scale_text);
    para(o, NULL, buf);
    if (r->has_elo && strncmp(r->elo_source, "stored", 6)) {
      snprintf(buf, sizeof buf, "The standings show a newer fit: %s.", r->elo_source);
      para(o, "note", buf);
    }
    return;
  }
  if (!r->games) {
    para(o, NULL, "No ratings: no games are stored for this run.");
    return;
  }
  if (!r->has_elo) {
    char buf[700];
    snprintf(buf, sizeof buf, "No ratings are stored for run %lld and none could be fitted: %s.",
             (long long)r->run.id, r->elo_source);
    para(o, "note", buf);
    return;
  }
  char buf[700];
  snprintf(buf, sizeof buf, "No ratings are stored for run %lld ('oware rate' stores them); "
                            "these come from a %s.",
           (long long)r->run.id, r->elo_source);
  para(o, NULL, buf);
  int idx[STORE_MAX_PLAYERS], n = r->nplayers;
  for (int i = 0; i < n; i++) idx[i] = i;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && r->player[idx[j - 1]].elo < r->player[idx[j]].elo; j--) {
      int x = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = x;
    }
  table_begin(o, &t, ">rank|player|>Elo|>95% interval|>games|>score %|>draws %");
  for (int k = 0; k < n; k++) {
    const plot_player *p = &r->player[idx[k]];
    row_begin(o, &t);
    cell(o, &t, "%d", k + 1);
    cell_text(o, &t, r->run.player_name[idx[k]]);
    cell(o, &t, "%+.1f%s", rating_print_zero(p->elo, 1), p->bound ? " (bound)" : "");
    cell(o, &t, "%+.1f … %+.1f", rating_print_zero(p->lo, 1), rating_print_zero(p->hi, 1));
    cell(o, &t, "%lld", p->games);
    cell(o, &t, "%.1f", p->games ? 100.0 * p->points / (double)p->games : 0.0);
    cell(o, &t, "%.1f", p->games ? 100.0 * (double)p->draws / (double)p->games : 0.0);
    row_end(o);
  }
  table_end(o);
}

static void write_pairings(out *o, const plot_run *r) {
  heading(o, 2, "pairings", "Match statistics per pairing");
  if (!r->games) {
    para(o, NULL, "No games are stored for this run.");
    return;
  }
  para(o, NULL, "Wins, draws and losses from the first player's side; "
                "score = (wins + draws/2) / games.");
  table t;
  table_begin(o, &t, "player|opponent|>games|>wins|>draws|>losses|>score %|>mean length (plies)");
  for (int k = 0; k < r->npairs; k++) {
    /* stronger player (by standings) first */
    const plot_pair *p = &r->pair[k];
    if (!p->games) continue;
    int first = p->a, second = p->b;
    for (int q = 0; q < r->nplayers; q++)
      if (r->order[q] == p->b) {
        first = p->b, second = p->a;
        break;
      } else if (r->order[q] == p->a) {
        break;
      }
    long long w = first == p->a ? p->wins_a : p->wins_b, l = first == p->a ? p->wins_b : p->wins_a;
    row_begin(o, &t);
    cell_text(o, &t, r->run.player_name[first]);
    cell_text(o, &t, r->run.player_name[second]);
    cell(o, &t, "%lld", p->games);
    cell(o, &t, "%lld", w);
    cell(o, &t, "%lld", p->draws);
    cell(o, &t, "%lld", l);
    cell(o, &t, "%.1f", 100.0 * ((double)w + 0.5 * (double)p->draws) / (double)p->games);
    cell(o, &t, "%.1f", (double)p->plies / (double)p->games);
    row_end(o);
  }
  table_end(o);

  heading(o, 3, "ends", "How the games end");
  char head[256] = "variant|>games";
  for (int e = 0; e < PLOT_NENDS; e++) {
    size_t n = strlen(head);
    if (plot_end_shown(r, e)) snprintf(head + n, sizeof head - n, "|>%s", plot_end_name(e));
  }
  table_begin(o, &t, head);
  for (int v = 0; v < r->run.nvariants; v++) {
    row_begin(o, &t);
    cell_text(o, &t, r->run.variant[v]);
    cell(o, &t, "%lld", r->variant_games[v]);
    for (int e = 0; e < PLOT_NENDS; e++)
      if (plot_end_shown(r, e)) cell(o, &t, "%lld", r->variant_ends[v][e]);
    row_end(o);
  }
  table_end(o);
}

/* Each player's games by end reason (rows of store_end_scores), players
 * in the run's order: the numbers of `oware rate`'s "Score by end". */
static void write_end_scores(out *o, const plot_run *r, const store_end_score *rows, int n) {
  if (n <= 0) return;
  heading(o, 3, "score-by-end", "Each player's score by end");
  para(o, NULL, "The score with its 95% Wilson interval; own: the games that ended on the "
                "player's own move (its move was the game's last), with its score there.");
  table t;
  table_begin(o, &t, "player|end|>games|>W|>D|>L|>score %|>95% interval|>own|>own score %");
  for (int i = 0; i < r->run.nplayers; i++)
    for (int e = 0; e < OUTCOME_NENDS; e++) {
      const store_end_score *x = rating_end_find(rows, n, r->run.player_name[i], e);
      if (!x) continue;
      rating_end_numbers v;
      rating_end_numbers_of(x, &v);
      row_begin(o, &t);
      cell_text(o, &t, x->name);
      cell_text(o, &t, outcome_end_name((outcome_end)e));
      cell(o, &t, "%lld", v.games);
      cell(o, &t, "%lld", x->wins);
      cell(o, &t, "%lld", x->draws);
      cell(o, &t, "%lld", x->losses);
      cell(o, &t, "%.1f", 100.0 * v.score.value);
      cell(o, &t, "%.1f … %.1f", 100.0 * v.score.lo, 100.0 * v.score.hi);
      cell(o, &t, "%lld", v.own);
      if (v.own) cell(o, &t, "%.1f", 100.0 * v.own_score.value);
      else cell(o, &t, "-");
      row_end(o);
    }
  table_end(o);
}

static const char *const chart_alt[PLOT_NKINDS] = {
    "Each player's rating with its 95% interval",
    "Each player's stored Elo against the games played in the run",
    "Score % of each player (rows) against each opponent (columns)",
    "Histogram of game lengths in plies",
    "Share of games by end reason",
    "Evaluation weights against the tuning iteration, and the Elo of validation checkpoints",
    "Each player's mean time per move against its move number in the game"};

static void write_charts(out *o, const plot_run *r, const plot_result *res, const char *dir,
                         const plot_options *opt) {
  heading(o, 2, "charts", "Charts");
  int w = opt && opt->width > 0 ? opt->width : 800, h = opt && opt->height > 0 ? opt->height : 500;
  if (!res->n)
    para(o, NULL, "This run has no games and no tuning iterations yet: nothing to chart.");
  if (res->gnuplot_missing)
    para(o, "note", "gnuplot is not installed, so this report has no charts (the data files "
                    "are in the folder; install gnuplot, Debian package gnuplot-nox, and run "
                    "'oware report' again).");
  for (int k = 0; k < res->n; k++) {
    const plot_chart *c = &res->chart[k];
    const char *name = plot_kind_name(c->kind);
    int ki = 0;
    while (ki < PLOT_NKINDS && (1u << ki) != c->kind) ki++;
    char png[64], svg[64], dat[64];
    snprintf(png, sizeof png, "%s.png", name);
    snprintf(svg, sizeof svg, "%s.svg", name);
    snprintf(dat, sizeof dat, "%s.dat", name);
    if (c->status == PLOT_MADE && file_exists(dir, png)) {
      fprintf(o->h, "<figure id=\"chart-%s\">\n<a href=\"%s\"><img src=\"%s\" width=\"%d\" "
                    "height=\"%d\" alt=\"",
              name, file_exists(dir, svg) ? svg : png, png, w, h);
      report_html_escape(o->h, ki < PLOT_NKINDS ? chart_alt[ki] : c->title);
      fprintf(o->h, "\"></a>\n<figcaption><b>");
      report_html_escape(o->h, c->title);
      fputs("</b>", o->h);
      if (c->note[0]) {
        fputs(": ", o->h);
        report_html_escape(o->h, c->note);
      }
      fputs(". ", o->h);
      if (file_exists(dir, svg)) fprintf(o->h, "<a href=\"%s\">SVG</a> · ", svg);
      fprintf(o->h, "<a href=\"%s\">data</a></figcaption>\n</figure>\n", dat);
      fprintf(o->m, "### ");
      md_escape(o->m, c->title);
      fprintf(o->m, "\n\n![");
      md_escape(o->m, ki < PLOT_NKINDS ? chart_alt[ki] : c->title);
      fprintf(o->m, "](%s)\n\n", png);
      if (c->note[0]) {
        md_escape(o->m, c->note);
        fputs(". ", o->m);
      }
      if (file_exists(dir, svg)) fprintf(o->m, "[SVG](%s) · ", svg);
      fprintf(o->m, "[data](%s)\n\n", dat);
    } else {
      char buf[1400];
      if (c->status == PLOT_NO_GNUPLOT && res->gnuplot_missing) continue; /* said once above */
      snprintf(buf, sizeof buf, "%s: not drawn: %s.", c->title, c->note);
      para(o, "note", buf);
    }
  }
  (void)r;
}

/* "Endgame accuracy": the run's stored analysis (oware analyse), with its
 * chart drawn into dir; nothing when there is none. */
static void write_accuracy(out *o, const plot_run *r, const analyse_result *a, const char *dir,
                           const plot_options *opt, FILE *log) {
  heading(o, 2, "accuracy", "Endgame accuracy");
  char buf[ERROR_MAX + 2400];
  snprintf(buf, sizeof buf,
           "Moves in the positions with at most %d seeds on the board, compared with perfect "
           "play from the endgame databases (tables in %s; analysed %s over %lld games). "
           "Decided moves: the move's value is exact, or provably below the best; kept: the "
           "decided moves that keep the value; seeds lost: thrown away against perfect play; "
           "games changed: games whose result (win, draw or loss by perfect play) a mistake "
           "changed, of the games with a covered position; cycle-sensitive: moves whose value "
           "depends on the repetition rule, left undecided.",
           a->seeds, a->egdb_dir, a->created, a->run_games);
  para(o, NULL, buf);
  if (a->run_games != r->games) {
    snprintf(buf, sizeof buf,
             "The run has %lld games now: 'oware analyse --run %lld --force' brings this up to "
             "date.",
             r->games, (long long)r->run.id);
    para(o, "note", buf);
  }
  table t;
  table_begin(o, &t, "player|>positions|>decided|>kept %|>seeds lost / move|>mistakes|>seeds "
                     "lost|>games changed|>cycle-sensitive");
  for (int k = 0; k < r->nplayers && k < a->nplayers; k++) {
    int i = r->order[k];
    const analyse_player *p = &a->player[i];
    double share = analyse_kept_share(p), lost = analyse_lost_per_move(p);
    row_begin(o, &t);
    cell_text(o, &t, r->run.player_name[i]);
    cell(o, &t, "%lld", p->positions);
    cell(o, &t, "%lld", analyse_decided(p));
    if (isnan(share)) cell(o, &t, "-");
    else cell(o, &t, "%.1f", 100 * share);
    if (isnan(lost)) cell(o, &t, "-");
    else cell(o, &t, "%.3f", lost);
    cell(o, &t, "%lld", analyse_mistakes(p));
    cell(o, &t, "%.1f", p->lost2 / 2.0);
    cell(o, &t, "%lld / %lld", p->changed, p->games);
    cell(o, &t, "%lld", p->cycle);
    row_end(o);
  }
  table_end(o);
  char stem[4200], err[ERROR_MAX];
  snprintf(stem, sizeof stem, "%s/analyse", dir);
  int rc = analyse_chart(a, r->run.player_name, stem, opt, err, sizeof err);
  if (rc == 0) {
    int w = opt && opt->width > 0 ? opt->width : 800, h = opt && opt->height > 0 ? opt->height : 500;
    fprintf(o->h, "<figure id=\"chart-analyse\">\n<a href=\"analyse.svg\"><img src=\"analyse.png\" "
                  "width=\"%d\" height=\"%d\" alt=\"Mean seeds lost per decided move against the "
                  "seeds on the board, per player\"></a>\n<figcaption><b>Seeds lost per move by seeds "
                  "on the board</b>. <a href=\"analyse.svg\">SVG</a> · <a href=\"analyse.dat\">data"
                  "</a></figcaption>\n</figure>\n",
            w, h);
    fputs("### Seeds lost per move by seeds on the board\n\n![Mean seeds lost per decided move "
          "against the seeds on the board, per player](analyse.png)\n\n[SVG](analyse.svg) · "
          "[data](analyse.dat)\n\n",
          o->m);
  } else {
    snprintf(buf, sizeof buf, "Seeds lost per move by seeds on the board: not drawn: %s.", err);
    para(o, "note", buf);
    if (log && rc < 0) fprintf(log, "report: the endgame accuracy chart: %s\n", err);
  }
}

static void write_files(out *o, const plot_run *r, const char *dir, const char *ogn) {
  heading(o, 2, "files", "Files");
  fputs("<ul>\n", o->h);
  if (r->games && file_exists(dir, ogn)) {
    fprintf(o->h,
            "<li><a href=\"%s\">%s</a>: the %lld games of the run as OGN (Aualé reads it)</li>\n",
            ogn, ogn, r->games);
    fprintf(o->m, "- [%s](%s): the %lld games of the run as OGN (Aualé reads it)\n", ogn, ogn,
            r->games);
  }
  fputs("<li><a href=\"report.md\">report.md</a>: this report in Markdown</li>\n", o->h);
  fputs("- [index.html](index.html): this report as a web page\n", o->m);
  for (int k = 0; k < PLOT_NKINDS; k++) {
    char dat[64];
    snprintf(dat, sizeof dat, "%s.dat", plot_kind_name(1u << k));
    if (!file_exists(dir, dat)) continue;
    fprintf(o->h, "<li><a href=\"%s\">%s</a>: chart data (scripts/%s.gp draws it)</li>\n", dat,
            dat, plot_kind_name(1u << k));
    fprintf(o->m, "- [%s](%s): chart data (scripts/%s.gp draws it)\n", dat, dat,
            plot_kind_name(1u << k));
  }
  if (file_exists(dir, "analyse.dat")) {
    fputs("<li><a href=\"analyse.dat\">analyse.dat</a>: endgame accuracy chart data "
          "(scripts/analyse.gp draws it)</li>\n", o->h);
    fputs("- [analyse.dat](analyse.dat): endgame accuracy chart data (scripts/analyse.gp draws "
          "it)\n", o->m);
  }
  fputs("</ul>\n", o->h);
}

int report_write_opt(store *db, int64_t run_id, const char *outdir, const plot_options *opt,
                     FILE *log, char *err, size_t errlen) {
  plot_run *r;
  if (plot_run_load_opt(db, run_id, opt, &r, err, errlen)) return -1;
  int rc = -1;
  analyse_result *acc = NULL; /* the run's stored endgame analysis, if any */
  store_end_score *ends = NULL; /* each player's games by end reason */
  int nends = 0;
  FILE *h = NULL, *m = NULL;
  outfile hf = {0}, mf = {0}; /* index.html and report.md: each written whole or not at all */
  char hpath[4200], mpath[4200], ogn[64], ognpath[4200];
  if (path_mkdirs(outdir, err, errlen)) goto done;
  snprintf(ogn, sizeof ogn, "run-%lld.ogn", (long long)run_id);
  snprintf(ognpath, sizeof ognpath, "%s/%s", outdir, ogn);
  if (r->games && write_ogn(db, r, ognpath, err, errlen)) goto done;
  /* Charts: those of games for a run with games, the tuning chart for a run
   * with tuning iterations. */
  if (r->games && analyse_load(db, run_id, &acc, err, errlen) < 0) goto done;
  if (r->games && store_end_scores(db, &run_id, 1, NULL, &ends, &nends, err, errlen)) goto done;
  unsigned kinds = (r->games ? PLOT_ALL & ~(unsigned)(PLOT_TUNING | PLOT_TIME) : 0u) |
                   (r->ntuning ? (unsigned)PLOT_TUNING : 0u) |
                   (r->time_games ? (unsigned)PLOT_TIME : 0u);
  plot_result res;
  memset(&res, 0, sizeof res);
  if (kinds && plot_charts_run(r, kinds, outdir, opt, &res, log, err, errlen) < 0) goto done;
  snprintf(hpath, sizeof hpath, "%s/index.html", outdir);
  snprintf(mpath, sizeof mpath, "%s/report.md", outdir);
  if (outfile_open(&hf, hpath, err, errlen) || outfile_open(&mf, mpath, err, errlen)) goto done;
  h = hf.f;
  m = mf.f;
  out o = {h, m};
  char title[400];
  snprintf(title, sizeof title, "Run %lld: %s", (long long)run_id, r->run.name);
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", h);
  report_html_escape(h, title);
  fprintf(h, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
  report_html_escape(h, title);
  fputs("</h1>\n", h);
  fputs("# ", m);
  md_escape(m, title);
  fputs("\n\n", m);
  char sub[600];
  snprintf(sub, sizeof sub, "%s %s, %d players, %d variant%s, %lld games; started %s%s%s.",
           store_status_name(r->run.status), store_kind_name(r->run.kind), r->nplayers, r->run.nvariants,
           r->run.nvariants == 1 ? "" : "s", r->games, r->run.started,
           r->run.finished[0] ? ", finished " : "", r->run.finished);
  para(&o, "sub", sub);
  fprintf(h,
          "<nav><a href=\"#configuration\">Configuration</a><a href=\"#standings\">Standings</a>"
          "<a href=\"#ratings\">Ratings</a><a href=\"#pairings\">Pairings</a>"
          "<a href=\"#charts\">Charts</a>%s%s<a href=\"#files\">Files</a></nav>\n",
          acc ? "<a href=\"#accuracy\">Endgame accuracy</a>" : "",
          r->games ? "<a href=\"#games\">Games</a>" : "");
  write_config(&o, r);
  write_standings(&o, r);
  write_ratings(&o, r);
  write_pairings(&o, r);
  write_end_scores(&o, r, ends, nends);
  write_charts(&o, r, &res, outdir, opt);
  if (acc) write_accuracy(&o, r, acc, outdir, opt, log);
  long long viewed = 0;
  if (r->games && viewer_write(h, db, &r->run, &viewed, err, errlen)) goto done;
  if (viewed) fprintf(m, "\nThe games can be stepped through in index.html (section Games).\n");
  write_files(&o, r, outdir, ogn);
  report_footer(h, m, "\n");
  h = m = NULL;
  if (outfile_commit(&hf, err, errlen) || outfile_commit(&mf, err, errlen)) goto done;
  if (log) fprintf(log, "report: %s (and report.md)\n", hpath);
  rc = 0;
done:
  outfile_abort(&hf); /* nothing left to do after a commit */
  outfile_abort(&mf);
  analyse_free(acc);
  free(ends);
  plot_run_free(r);
  return rc;
}

int report_write(store *db, int64_t run_id, const char *outdir, FILE *log, char *err,
                 size_t errlen) {
  return report_write_opt(db, run_id, outdir, NULL, log, err, errlen);
}
