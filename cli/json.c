/* json.c: the machine-readable output of `--json`: values, runs, ratings (docs/JSON.md). */
#include "cli/json.h"
#include "store/rating_store.h"

#include <math.h>

#include "core/outcome.h"
#include "report/plot.h"
#include "report/rating_print.h"
#include "report/study_report.h"

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

void cli_json_open(cli_json_out *o, FILE *f, char open) {
  *o = (cli_json_out){f, 0, open};
  fputc(open, f);
}

void cli_json_key(cli_json_out *o, const char *key) {
  if (o->n++) fputc(',', o->f);
  cli_json_str(o->f, key);
  fputc(':', o->f);
}

void cli_json_item(cli_json_out *o) {
  if (o->n++) fputc(',', o->f);
}

void cli_json_num_at(cli_json_out *o, const char *key, double x) {
  cli_json_key(o, key);
  cli_json_num(o->f, x);
}

void cli_json_str_at(cli_json_out *o, const char *key, const char *s) {
  cli_json_key(o, key);
  cli_json_str(o->f, s);
}

void cli_json_str_or_null_at(cli_json_out *o, const char *key, const char *s) {
  cli_json_key(o, key);
  if (s) cli_json_str(o->f, s);
  else fputs("null", o->f);
}

void cli_json_bool_at(cli_json_out *o, const char *key, int v) {
  cli_json_key(o, key);
  fputs(v ? "true" : "false", o->f);
}

void cli_json_close(cli_json_out *o) { fputc(o->open == '{' ? '}' : ']', o->f); }

/* ,"KEY":S: a string field after another. */
static void str_field(FILE *f, const char *key, const char *s) {
  fprintf(f, ",\"%s\":", key);
  cli_json_str(f, s);
}

/* ,"KEY":X: a number field after another. */
static void num_field(FILE *f, const char *key, double x) {
  fprintf(f, ",\"%s\":", key);
  cli_json_num(f, x);
}

/* ,"KEY[0]":X[0],... : n number fields after another. */
static void num_fields(FILE *f, int n, const char *const key[], const double x[]) {
  for (int i = 0; i < n; i++) num_field(f, key[i], x[i]);
}

void cli_json_run(FILE *f, const store_run *r, long long games) {
  fprintf(f, "{\"id\":%lld,\"name\":", (long long)r->id);
  cli_json_str(f, r->name);
  str_field(f, "kind", store_kind_name(r->kind));
  str_field(f, "status", store_status_name(r->status));
  str_field(f, "started", r->started);
  fputs(",\"finished\":", f);
  if (r->finished[0]) cli_json_str(f, r->finished);
  else fputs("null", f);
  str_field(f, "format", r->format);
  str_field(f, "openings", r->openings);
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

void cli_json_match_fields(FILE *f, const char *first, const char *second, const rating_match *m,
                           const rating_match_stats *s) {
  fputs("\"first\":", f);
  cli_json_str(f, first);
  str_field(f, "second", second);
  fprintf(f, ",\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"penta\":[%lld,%lld,%lld,%lld,%lld]",
          m->wins, m->draws, m->losses, m->penta[0], m->penta[1], m->penta[2], m->penta[3],
          m->penta[4]);
  const double v[] = {s->points, s->score, s->elo, s->elo_err, s->nelo, s->nelo_err, s->los};
  const char *names[] = {"points", "score", "elo", "elo_err", "nelo", "nelo_err", "los"};
  num_fields(f, 7, names, v);
}

/* cli_json_rating without its closing brace. */
static void rating_body(FILE *f, const char *scope, const char *anchor, double anchor_elo,
                        const rating_result *r, const rating_pool *pool) {
  fputs("{\"scope\":", f);
  cli_json_str(f, scope);
  fputs(",\"anchor\":", f);
  if (anchor) {
    fputs("{\"name\":", f);
    cli_json_str(f, anchor);
    num_field(f, "elo", anchor_elo);
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
    num_fields(f, 4, names, v);
    fprintf(f, ",\"games\":%lld,\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"score\":", p->games,
            p->wins, p->draws, p->losses);
    cli_json_num(f, p->score);
    num_field(f, "draw_ratio", p->draw_ratio);
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
    fputs(",\n\"match\":{", f);
    cli_json_match_fields(f, pool->name[r->order[0]], pool->name[r->order[1]], &m, &s);
    fputc('}', f);
  }
}

/* ,"adjudicated":{"games":N,"of":M, and a count per adjudicated end}: the
 * games of ends (counts by end reason) that --adjudicate ended. */
static void adjudicated_field(FILE *f, const long long *ends) {
  long long games, adjudicated = store_end_adjudicated(ends, &games);
  fprintf(f, ",\n\"adjudicated\":{\"games\":%lld,\"of\":%lld", adjudicated, games);
  for (int e = 0; e < OUTCOME_NENDS; e++)
    if (outcome_is_adjudicated((outcome_end)e))
      fprintf(f, ",\"%s\":%lld", outcome_end_name((outcome_end)e), ends[e]);
  fputc('}', f);
}

/* "games":G,"wins":W,"draws":D,"losses":L,"score":{"value","lo","hi"} (its
 * 95% Wilson interval; value null without games). */
static void end_result(FILE *f, long long games, long long wins, long long draws,
                       long long losses, const proportion_interval *score) {
  fprintf(f, "\"games\":%lld,\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"score\":{\"value\":",
          games, wins, draws, losses);
  cli_json_num(f, score->value);
  num_field(f, "lo", score->lo);
  num_field(f, "hi", score->hi);
  fputc('}', f);
}

/* ,"ends":[{"name":N,"by":{END:{games, wins, draws, losses, score,
 * "own":{the same}}}}]: each player of r (rank order) with its games by
 * end reason, and of them those that ended on its own move
 * (rating_print_ends). */
static void end_scores_field(FILE *f, const rating_result *r, const store_end_score *rows, int n) {
  fputs(",\n\"ends\":[", f);
  for (int k = 0; k < r->n; k++) {
    const char *name = r->player[r->order[k]].name;
    fputs(k ? ",\n{\"name\":" : "{\"name\":", f);
    cli_json_str(f, name);
    fputs(",\"by\":{", f);
    int first = 1;
    for (int e = 0; e < OUTCOME_NENDS; e++) {
      const store_end_score *x = rating_end_find(rows, n, name, e);
      if (!x) continue;
      rating_end_numbers v;
      rating_end_numbers_of(x, &v);
      fprintf(f, "%s\"%s\":{", first ? "" : ",", outcome_end_name((outcome_end)e));
      end_result(f, v.games, x->wins, x->draws, x->losses, &v.score);
      fputs(",\"own\":{", f);
      end_result(f, v.own, x->own_wins, x->own_draws, x->own_losses, &v.own_score);
      fputs("}}", f);
      first = 0;
    }
    fputs("}}", f);
  }
  fputc(']', f);
}

void cli_json_rating(FILE *f, const char *scope, const char *anchor, double anchor_elo,
                     const rating_result *r, const rating_pool *pool, const long long *ends,
                     const store_end_score *scores, int nscores) {
  rating_body(f, scope, anchor, anchor_elo, r, pool);
  if (ends) adjudicated_field(f, ends);
  if (scores) end_scores_field(f, r, scores, nscores);
  fputs("}\n", f);
}

int cli_json_rating_run(FILE *f, const char *scope, const char *anchor, double anchor_elo,
                        const rating_result *r, const rating_pool *pool, const long long *ends,
                        const store_end_score *scores, int nscores, store *db, int64_t run_id,
                        char *err, size_t errlen) {
  rating_body(f, scope, anchor, anchor_elo, r, pool);
  if (ends) adjudicated_field(f, ends);
  if (scores) end_scores_field(f, r, scores, nscores);
  store_run run;
  store_run_init(&run);
  int rc = store_run_load(db, run_id, &run, err, errlen) || cli_json_run_sprt(f, db, &run, err, errlen);
  store_run_free(&run);
  fputs("}\n", f);
  return rc ? -1 : 0;
}

void cli_json_sprt_fields(FILE *f, const rating_sprt *s, double llr) {
  fputs("\"llr\":", f);
  cli_json_num(f, llr);
  num_field(f, "lower", rating_sprt_lower(s));
  num_field(f, "upper", rating_sprt_upper(s));
  str_field(f, "decision", rating_decision_name(rating_sprt_decide(s, llr)));
  num_field(f, "elo0", s->elo0);
  num_field(f, "elo1", s->elo1);
  num_field(f, "alpha", s->alpha);
  num_field(f, "beta", s->beta);
  str_field(f, "model", s->model == RATING_MODEL_NORMALIZED ? "normalized" : "logistic");
}

/* The index of name in the pool, or -1. */
static int pool_index(const rating_pool *p, const char *name) {
  for (int i = 0; i < p->n; i++)
    if (!strcmp(p->name[i], name)) return i;
  return -1;
}

int cli_json_run_sprt(FILE *f, store *db, const store_run *run, char *err, size_t errlen) {
  const char *text;
  int got = store_config_get_text(run, "sprt", &text, err, errlen);
  if (got) return got < 0 ? -1 : 0; /* no SPRT in this run */
  rating_sprt s;
  if (rating_sprt_parse_stored(text, &s, err, errlen)) return -1;
  rating_pool p;
  rating_pool_init(&p);
  if (rating_pool_load(&p, db, &run->id, 1, NULL, err, errlen)) {
    rating_pool_free(&p);
    return -1;
  }
  rating_match m = {0};
  int a = pool_index(&p, run->player_name[0]), b = pool_index(&p, run->player_name[1]);
  if (a >= 0 && b >= 0) rating_pool_match(&p, a, b, &m);
  rating_sprt_result res = rating_sprt_test(&s, &m, 0);
  fputs(",\n\"sprt\":{\"first\":", f);
  cli_json_str(f, run->player_name[0]);
  str_field(f, "second", run->player_name[1]);
  fprintf(f, ",\"pairs\":%lld,", m.penta[0] + m.penta[1] + m.penta[2] + m.penta[3] + m.penta[4]);
  cli_json_sprt_fields(f, &s, res.llr);
  fputc('}', f);
  rating_pool_free(&p);
  return 0;
}

/* The "standings" array of a run. */
static void standings_array(FILE *f, const plot_run *r) {
  fputs("[", f);
  for (int k = 0; k < r->nplayers; k++) {
    int i = r->order[k];
    const plot_player *p = &r->player[i];
    fprintf(f, "%s\n{\"rank\":%d,\"name\":", k ? "," : "", k + 1);
    cli_json_str(f, r->run.player_name[i]);
    fprintf(f, ",\"games\":%lld,\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,\"points\":",
            p->games, p->wins, p->draws, p->losses);
    cli_json_num(f, p->points);
    num_field(f, "score", p->games ? p->points / (double)p->games : NAN);
    const double v[] = {p->elo, p->lo, p->hi}, none[] = {NAN, NAN, NAN};
    const char *names[] = {"elo", "lo", "hi"};
    num_fields(f, 3, names, p->has_elo ? v : none); /* NaN: null */
    fprintf(f, ",\"bounded\":%s}", p->has_elo && p->bound ? "true" : "false");
  }
  fputs("]", f);
}

void cli_json_standings(FILE *f, const plot_run *r) {
  fputs("{\"run\":", f);
  cli_json_run(f, &r->run, r->games);
  fputs(",\n\"standings\":", f);
  standings_array(f, r);
  fputs("}\n", f);
}

int cli_json_standings_sprt(FILE *f, const plot_run *r, store *db, char *err, size_t errlen) {
  fputs("{\"run\":", f);
  cli_json_run(f, &r->run, r->games);
  fputs(",\n\"standings\":", f);
  standings_array(f, r);
  int rc = cli_json_run_sprt(f, db, &r->run, err, errlen);
  fputs("}\n", f);
  return rc;
}

/* "name":{"value":v,"lo":l,"hi":h} (after a comma). */
static void interval(FILE *f, const char *name, const study_interval *x) {
  fprintf(f, ",\"%s\":{\"value\":", name);
  cli_json_num(f, x->value);
  num_field(f, "lo", x->lo);
  num_field(f, "hi", x->hi);
  fputc('}', f);
}

static void tests_array(FILE *f, const char *name, const study *s, const study_test *t) {
  fprintf(f, ",\n\"%s\":[", name);
  for (int k = 0; k < s->ntests; k++) {
    fprintf(f, "%s{\"a\":", k ? "," : "");
    cli_json_str(f, s->variant[t[k].a].name);
    str_field(f, "b", s->variant[t[k].b].name);
    const double v[] = {t[k].pa, t[k].pb, t[k].diff, t[k].z, t[k].p, t[k].p_holm};
    const char *names[] = {"pa", "pb", "diff", "z", "p", "p_holm"};
    num_fields(f, 6, names, v);
    fputc('}', f);
  }
  fputc(']', f);
}

/* A metric's name and its interval, for intervals(). */
struct named {
  const char *name;
  const study_interval *x;
};

static void intervals(FILE *f, const struct named *m, size_t n) {
  for (size_t i = 0; i < n; i++) interval(f, m[i].name, m[i].x);
}

/* One variant's metrics and Elos. */
static void study_variant_json(FILE *f, const study *s, const study_variant *v) {
  fputs("{\"name\":", f);
  cli_json_str(f, v->name);
  fprintf(f, ",\"games\":%lld,\"south_wins\":%lld,\"draws\":%lld,\"north_wins\":%lld",
          v->games, v->south_wins, v->draws, v->north_wins);
  const struct named outcomes[] = {{"south_win", &v->south_win}, {"draw", &v->draw},
                                   {"north_win", &v->north_win}, {"decisive", &v->decisive},
                                   {"south_score", &v->south_score}, {"balance", &v->balance},
                                   {"length", &v->length}};
  intervals(f, outcomes, sizeof outcomes / sizeof *outcomes);
  const double l[] = {v->length_sd, v->length_median, v->length_q1, v->length_q3};
  const char *lnames[] = {"length_sd", "length_median", "length_q1", "length_q3"};
  num_fields(f, 4, lnames, l);
  fprintf(f, ",\"length_min\":%d,\"length_max\":%d,\"ends\":{", v->length_min, v->length_max);
  for (int e = 0; e < STUDY_NENDS; e++) {
    fprintf(f, "%s\"%s\":{\"games\":%lld", e ? "," : "", study_end_name(e), v->ends[e]);
    interval(f, "share", &v->end_share[e]);
    fputc('}', f);
  }
  fprintf(f, "},\"positions\":%lld,\"legal_moves\":%lld,\"choice\":%lld,\"gs_available\":%lld,"
             "\"gs_played\":%lld,\"gs_games\":%lld",
          v->positions, v->legal_sum, v->choice, v->gs_available, v->gs_played, v->gs_games);
  const struct named positions[] = {{"branching", &v->branching},
                                    {"choice_share", &v->choice_share},
                                    {"gs_available_share", &v->gs_available_share},
                                    {"gs_played_share", &v->gs_played_share},
                                    {"gs_played_positions", &v->gs_played_positions},
                                    {"gs_games_share", &v->gs_games_share}};
  intervals(f, positions, sizeof positions / sizeof *positions);
  fputs(",\"elo\":", f);
  if (!v->rated) {
    fputs("null}", f);
    return;
  }
  fputc('[', f);
  for (int i = 0; i < s->run.nplayers; i++) {
    fprintf(f, "%s{\"name\":", i ? "," : "");
    cli_json_str(f, s->run.player_name[i]);
    fputs(",\"rank\":", f);
    if (v->rank[i]) fprintf(f, "%d", v->rank[i]);
    else fputs("null", f);
    const double x[] = {v->elo[i], v->elo_lo[i], v->elo_hi[i], v->player_score[i]},
                 none[] = {NAN, NAN, NAN, NAN};
    const char *names[] = {"elo", "lo", "hi", "score"};
    num_fields(f, 4, names, v->rank[i] ? x : none); /* NaN: null */
    fprintf(f, ",\"games\":%lld,\"bounded\":%s}", v->player_games[i],
            v->bounded[i] ? "true" : "false");
  }
  fputs("]}", f);
}

void cli_json_study(FILE *f, const plot_run *r, const study *s) {
  fputs("{\"run\":", f);
  cli_json_run(f, &r->run, r->games);
  fputs(",\n\"standings\":", f);
  standings_array(f, r);
  fprintf(f, ",\n\"bootstrap\":%d,\n\"variants\":[", s->bootstrap);
  for (int vi = 0; vi < s->nvariants; vi++) {
    fputs(vi ? ",\n" : "\n", f);
    study_variant_json(f, s, &s->variant[vi]);
  }
  fputc(']', f);
  tests_array(f, "score_tests", s, s->score_test);
  tests_array(f, "draw_tests", s, s->draw_test);
  fputs(",\n\"swaps\":[", f);
  for (int k = 0; k < s->nswaps; k++) {
    const study_swap *x = &s->swaps[k];
    fprintf(f, "%s{\"above\":", k ? "," : "");
    cli_json_str(f, s->run.player_name[x->i]);
    str_field(f, "below", s->run.player_name[x->j]);
    str_field(f, "under", s->variant[x->va].name);
    str_field(f, "reversed_under", s->variant[x->vb].name);
    num_field(f, "los", x->los_a);
    num_field(f, "los_reversed", x->los_b);
    fprintf(f, ",\"significant\":%s}", x->significant ? "true" : "false");
  }
  fputs("]}\n", f);
}

void cli_json_calibration(FILE *f, const tuner_calibrate_config *c, const tuner_calibration *r,
                          const char *levels_file) {
  const calibrate_arena *ar = r->arena;
  const calibrate_result *cr = r->search;
  fputs("{\"base\":", f);
  cli_json_str(f, c->base);
  str_field(f, "knob", c->knob);
  fputs(",\"range\":[", f);
  cli_json_num(f, c->lo);
  fputc(',', f);
  cli_json_num(f, c->hi);
  fputs("],\"anchor\":{\"name\":", f);
  cli_json_str(f, c->anchor_spec);
  num_field(f, "elo", c->anchor_elo);
  fputs("},\n\"reference_pool\":[", f);
  for (int i = 0; i < ar->nrefs; i++) {
    fprintf(f, "%s{\"name\":", i ? "," : "");
    cli_json_str(f, ar->ref_name[i]);
    const double v[] = {ar->ref_elo[i], ar->ref_lo[i], ar->ref_hi[i]};
    const char *names[] = {"elo", "lo", "hi"};
    num_fields(f, 3, names, v);
    fprintf(f, ",\"bounded\":%s}", ar->ref_bounded[i] ? "true" : "false");
  }
  fprintf(f, "],\n\"search\":{\"direction\":%d,\"se_target\":", cr->direction);
  cli_json_num(f, cr->se_target);
  fprintf(f, ",\"games\":%lld,\"capped\":%d,\"points\":[", cr->games, cr->capped);
  for (int i = 0; i < cr->npoints; i++) {
    const calibrate_point *pt = &cr->point[i];
    fputs(i ? ",\n{\"knob\":" : "\n{\"knob\":", f);
    cli_json_num(f, pt->knob);
    const double v[] = {pt->elo, pt->elo - 1.959964 * pt->se, pt->elo + 1.959964 * pt->se, pt->se,
                        cr->fitted[i]};
    const char *names[] = {"elo", "lo", "hi", "se", "fitted"};
    num_fields(f, 5, names, v);
    fprintf(f, ",\"games\":%lld,\"bounded\":%s}", pt->games, pt->bounded ? "true" : "false");
  }
  fputs("]},\n\"verification\":", f);
  cli_json_rating(f, "verification", c->anchor_spec, c->anchor_elo, &r->verify, NULL, NULL, NULL, 0);
  fputs(",\"levels\":[", f);
  for (int k = 0; k < cr->nlevels; k++) {
    int i = r->order[k];
    const calibrate_found *fd = &cr->found[i];
    const rating_player *p = &r->verify.player[r->first_level + i];
    fprintf(f, "%s{\"name\":", k ? ",\n" : "\n");
    cli_json_str(f, fd->level.name);
    str_field(f, "spec", r->level_spec[i]);
    const double v[] = {r->level_knob[i], fd->level.target, p->elo, p->lo, p->hi, p->se,
                        r->tol[i], fd->point.elo, fd->knob};
    const char *names[] = {"knob", "target", "elo", "lo", "hi", "se", "tolerance", "search_elo",
                           "search_knob"};
    num_fields(f, 9, names, v);
    fputs(",\"rounds\":[", f);
    for (int t = 0; t < r->rounds; t++) {
      const double rv[] = {r->round_elo[t][i], r->round_se[t][i]};
      const char *rn[] = {"elo", "se"};
      fputs(t ? ",{\"knob\":" : "{\"knob\":", f);
      cli_json_num(f, r->round_knob[t][i]);
      num_fields(f, 2, rn, rv);
      fputc('}', f);
    }
    fputc(']', f);
    str_field(f, "search_status", calibrate_status_name(fd->status));
    fprintf(f, ",\"within\":%s,\"verdict\":\"%s\"}", r->within[i] ? "true" : "false",
            r->ok[i] ? "ok" : "off");
  }
  fprintf(f, "],\n\"in_order\":%s,\"all_ok\":%s,\"levels_file\":",
          r->in_order ? "true" : "false", r->all_ok ? "true" : "false");
  if (levels_file) cli_json_str(f, levels_file);
  else fputs("null", f);
  fputs("}\n", f);
}
