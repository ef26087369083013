/* json.c: the machine-readable output of `--json`: values, runs, ratings (docs/JSON.md). */
#include "cli/json.h"

#include <math.h>

#include "arena/plot.h"

void cli_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\n') fputs("\\n", f);
    else if (c == '\t') fputs("\\t", f);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

void cli_json_num(FILE *f, double x) {
  if (fabs(x) < 1e-9) x = 0; /* rounding noise of a fit: -3.5e-15 is 0 */
  if (!isfinite(x)) fputs("null", f);
  else if (x == floor(x) && fabs(x) < 1e15) fprintf(f, "%.0f", x);
  else fprintf(f, "%.10g", x);
}

void cli_json_run(FILE *f, const store_run *r, long long games) {
  fprintf(f, "{\"id\":%lld,\"name\":", (long long)r->id);
  cli_json_str(f, r->name);
  fputs(",\"kind\":", f);
  cli_json_str(f, store_kind_name(r->kind));
  fputs(",\"status\":", f);
  cli_json_str(f, store_status_name(r->status));
  fputs(",\"started\":", f);
  cli_json_str(f, r->started);
  fputs(",\"finished\":", f);
  if (r->finished[0]) cli_json_str(f, r->finished);
  else fputs("null", f);
  fputs(",\"format\":", f);
  cli_json_str(f, r->format);
  fputs(",\"openings\":", f);
  cli_json_str(f, r->openings);
  fprintf(f, ",\"rounds\":%d,\"seed\":\"%llu\",\"players\":[", r->rounds,
          (unsigned long long)r->seed);
  for (int i = 0; i < r->nplayers; i++) {
    if (i) fputc(',', f);
    cli_json_str(f, r->player_name[i]);
  }
  fputs("],\"variants\":[", f);
  for (int i = 0; i < r->nvariants; i++) {
    if (i) fputc(',', f);
    cli_json_str(f, r->variant[i]);
  }
  fprintf(f, "],\"games\":%lld}", games);
}

void cli_json_rating(FILE *f, const char *scope, const char *anchor, double anchor_elo,
                     const rating_result *r, const rating_pool *pool) {
  fputs("{\"scope\":", f);
  cli_json_str(f, scope);
  fputs(",\"anchor\":", f);
  if (anchor) {
    fputs("{\"name\":", f);
    cli_json_str(f, anchor);
    fputs(",\"elo\":", f);
    cli_json_num(f, anchor_elo);
    fputc('}', f);
  } else {
    fputs("null", f);
  }
  fprintf(f, ",\"games\":%lld,\"bootstrap\":%d,\"players\":[", r->games, r->bootstrap);
  for (int k = 0; k < r->n; k++) {
    const rating_player *p = &r->player[r->order[k]];
    fprintf(f, "%s\n{\"rank\":%d,\"name\":", k ? "," : "", p->rank);
    cli_json_str(f, p->name);
    const double v[] = {p->elo, p->lo, p->hi, p->se};
    const char *names[] = {"elo", "lo", "hi", "se"};
    for (int i = 0; i < 4; i++) {
      fprintf(f, ",\"%s\":", names[i]);
      cli_json_num(f, v[i]);
    }
    fprintf(f, ",\"games\":%lld,\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"score\":", p->games,
            p->wins, p->draws, p->losses);
    cli_json_num(f, p->score);
    fputs(",\"draw_ratio\":", f);
    cli_json_num(f, p->draw_ratio);
    fprintf(f, ",\"bounded\":%s}", p->bounded ? "true" : "false");
  }
  fputs("],\n\"los\":[", f);
  for (int a = 0; a < r->n; a++) {
    fputs(a ? ",[" : "[", f);
    for (int b = 0; b < r->n; b++) {
      if (b) fputc(',', f);
      cli_json_num(f, r->los[(size_t)r->order[a] * (size_t)r->n + (size_t)r->order[b]]);
    }
    fputc(']', f);
  }
  fputc(']', f);
  if (pool && pool->n == 2 && r->n == 2) {
    rating_match m;
    rating_match_stats s;
    rating_pool_match(pool, r->order[0], r->order[1], &m);
    rating_match_compute(&m, &s);
    fputs(",\n\"match\":{\"first\":", f);
    cli_json_str(f, pool->name[r->order[0]]);
    fputs(",\"second\":", f);
    cli_json_str(f, pool->name[r->order[1]]);
    fprintf(f, ",\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"penta\":[%lld,%lld,%lld,%lld,%lld]",
            m.wins, m.draws, m.losses, m.penta[0], m.penta[1], m.penta[2], m.penta[3],
            m.penta[4]);
    const double v[] = {s.points, s.score, s.elo, s.elo_err, s.nelo, s.nelo_err, s.los};
    const char *names[] = {"points", "score", "elo", "elo_err", "nelo", "nelo_err", "los"};
    for (int i = 0; i < 7; i++) {
      fprintf(f, ",\"%s\":", names[i]);
      cli_json_num(f, v[i]);
    }
    fputc('}', f);
  }
  fputs("}\n", f);
}

void cli_json_standings(FILE *f, const plot_run *r) {
  fputs("{\"run\":", f);
  cli_json_run(f, &r->run, r->games);
  fputs(",\n\"standings\":[", f);
  for (int k = 0; k < r->nplayers; k++) {
    int i = r->order[k];
    const plot_player *p = &r->player[i];
    fprintf(f, "%s\n{\"rank\":%d,\"name\":", k ? "," : "", k + 1);
    cli_json_str(f, r->run.player_name[i]);
    fprintf(f, ",\"games\":%lld,\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"points\":",
            p->games, p->wins, p->draws, p->losses);
    cli_json_num(f, p->points);
    fputs(",\"score\":", f);
    cli_json_num(f, p->games ? p->points / (double)p->games : NAN);
    const double v[] = {p->elo, p->lo, p->hi};
    const char *names[] = {"elo", "lo", "hi"};
    for (int j = 0; j < 3; j++) {
      fprintf(f, ",\"%s\":", names[j]);
      if (p->has_elo) cli_json_num(f, v[j]);
      else fputs("null", f);
    }
    fprintf(f, ",\"bounded\":%s}", p->has_elo && p->bound ? "true" : "false");
  }
  fputs("]}\n", f);
}
