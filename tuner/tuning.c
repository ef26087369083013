/* tuning.c: what the tuning drivers share: the observer's lines, the start weights, the tuning table's rows. */
#include "tuner/tuning.h"
#include "core/error.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "players/player.h"
#include "tuner/tuning_store.h"

void tuner_report(const tuner_observer *obs, tuner_line kind, const char *fmt, ...) {
  if (!obs || !obs->line) return;
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  obs->line(obs->ctx, kind, buf);
}

static int start_weights(const char *start, eval_weights *w, char *err, size_t errlen) {
  if (strncmp(start, "equal:", 6)) {
    char e[ERROR_MAX];
    if (eval_load(start, w, e, sizeof e)) return error_set(err, errlen, "--start: %s", e), -1;
    return 0;
  }
  char *end;
  double x = strtod(start + 6, &end);
  if (*end || end == start + 6 || !isfinite(x))
    return error_set(err, errlen, "--start equal:X needs a number (got '%s')", start + 6), -1;
  for (int i = 0; i < EVAL_N; i++) w->w[i] = x;
  return 0;
}

static int tuned_params(const char *params, int *tuned, char *err, size_t errlen) {
  for (int i = 0; i < EVAL_N; i++) tuned[i] = !strcmp(params, "all");
  if (!strcmp(params, "all")) return 0;
  if (!*params)
    return error_set(err, errlen, "--params is empty: name the weights to tune, separated by commas, or "
                                  "'all' ('oware weights' lists them)"),
           -1;
  for (const char *p = params;;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char name[64];
    if (!len)
      return error_set(err, errlen, "--params '%s': an empty name (two commas, or one at an end)", params),
             -1;
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
    int f = len < sizeof name ? eval_find(name) : -1;
    if (f < 0)
      return error_set(err, errlen, "--params: unknown weight '%.*s' ('oware weights' lists them)",
                       (int)len, p),
             -1;
    tuned[f] = 1;
    if (!end) return 0;
    p = end + 1;
  }
}

int tuner_weights_setup(const char *spec, const char *start, const char *params, eval_weights *w,
                        int *tuned, char *err, size_t errlen) {
  player_config pc;
  char e[ERROR_MAX];
  if (player_parse_spec(spec, &pc, e, sizeof e))
    return error_set(err, errlen, "--player: %s", e), -1;
  int is_minimax = !strcmp(pc.type->name, "minimax");
  const char *wfile = is_minimax ? player_config_text(&pc, "weights") : NULL;
  eval_default(w);
  int bad = 0;
  if (!is_minimax) {
    error_set(err, errlen, "--player must be a minimax player (got %s)", pc.type->name);
    bad = 1;
  } else if (wfile && eval_load(wfile, w, e, sizeof e)) {
    error_set(err, errlen, "%s", e);
    bad = 1;
  }
  player_config_free(&pc);
  if (bad) return -1;
  if (start && start_weights(start, w, err, errlen)) return -1;
  return tuned_params(params ? params : "all", tuned, err, errlen);
}

void tuner_weights_text(const eval_weights *w, const int *tuned, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < EVAL_N && n < len; i++)
    if (!tuned || tuned[i])
      n += (size_t)snprintf(buf + n, len - n, "%s%s %.17g", n ? " " : "", eval_features[i].name,
                            w->w[i]);
}

/* A stored number: all of val, finite, |x| <= max (what eval_parse asks
 * of a weights file). */
static int stored_number(const char *val, double max, double *x) {
  char *end;
  errno = 0;
  *x = strtod(val, &end);
  return end == val || *end || errno || !isfinite(*x) || fabs(*x) > max ? -1 : 0;
}

/* "name value name value ...", each name a weight once, each value a
 * stored_number: into w (NULL: only checked). what names the values in a
 * message ("weight", "step of"). */
static int pairs_parse(const char *text, const char *what, eval_weights *w, char *err,
                       size_t errlen) {
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL;
  int seen[EVAL_N] = {0};
  for (char *name = strtok_r(buf, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
    char *val = strtok_r(NULL, " ", &save);
    int i = eval_find(name);
    double x;
    if (i < 0)
      return error_set(err, errlen, "%s '%s': no such weight ('oware weights' lists them)", what,
                       name),
             -1;
    if (!val) return error_set(err, errlen, "%s %s has no value", what, name), -1;
    if (seen[i]) return error_set(err, errlen, "%s %s is given twice", what, name), -1;
    if (stored_number(val, EVAL_WEIGHT_MAX, &x))
      return error_set(err, errlen, "%s %s '%s' is not a number (|x| <= 1e6)", what, name, val),
             -1;
    seen[i] = 1;
    if (w) w->w[i] = x;
  }
  return 0;
}

int tuner_weights_parse(const char *text, eval_weights *w, char *err, size_t errlen) {
  eval_weights out = *w;
  if (pairs_parse(text, "weight", &out, err, errlen)) return -1;
  *w = out;
  return 0;
}

/* What keep_last checks the rows against, and what it keeps. */
typedef struct row_check {
  tuner_last *last;
  int64_t run_id;
  const char *kind; /* of the run's iterations: "spsa" or "texel" */
  int iterations;   /* of the run: its rows are 0..iterations-1, no gap */
  int next;         /* the iteration the next row must be */
  char *err;
  size_t errlen;
  int bad;
} row_check;

/* Is the row t as a tuning driver writes it? 0, or -1 with a message
 * naming it. */
static int check_row(row_check *c, const tuning_row *t) {
  char e[ERROR_MAX];
  const char *kind = t->iteration == -1 ? "validation" : c->kind;
  if (strcmp(t->kind, "spsa") && strcmp(t->kind, "texel") && strcmp(t->kind, "validation"))
    snprintf(e, sizeof e, "unknown kind '%s' (spsa, texel or validation)", t->kind);
  else if (strcmp(t->kind, kind))
    snprintf(e, sizeof e, "kind '%s' where the run's rows are %s", t->kind, kind);
  else if (t->iteration != -1 && (t->iteration < 0 || t->iteration >= c->iterations))
    snprintf(e, sizeof e, "iteration out of range 0..%d (the run has %d)", c->iterations - 1,
             c->iterations);
  else if (t->iteration != -1 && t->iteration != c->next)
    snprintf(e, sizeof e, "iteration %d is missing (the iterations are stored without a gap)",
             c->next);
  else if (t->wins < 0 || t->draws < 0 || t->losses < 0)
    snprintf(e, sizeof e, "negative wins, draws or losses (%lld, %lld, %lld)", t->wins, t->draws,
             t->losses);
  else if (t->games < 0)
    snprintf(e, sizeof e, "negative games (%lld)", t->games);
  else if (t->iteration != -1 && !t->weights[0])
    snprintf(e, sizeof e, "no weights");
  else if (t->iteration != -1 && pairs_parse(t->weights, "weight", NULL, e, sizeof e))
    ;
  else if (!strcmp(t->kind, "spsa") && pairs_parse(t->step, "step of", NULL, e, sizeof e))
    ;
  else if (!strcmp(t->kind, "texel")) {
    double k, mse;
    long long positions;
    int n = -1;
    if (sscanf(t->step, "K %lf positions %lld start_mse %lf%n", &k, &positions, &mse, &n) != 3 ||
        n < 0 || t->step[n] || !isfinite(k) || k <= 0 || positions < 0 || !isfinite(mse) ||
        mse < 0)
      snprintf(e, sizeof e, "step '%.64s' is not 'K X positions N start_mse X'", t->step);
    else return 0;
  } else return 0;
  if (t->iteration == -1)
    error_set(c->err, c->errlen, "run %lld validation row: %s", (long long)c->run_id, e);
  else
    error_set(c->err, c->errlen, "run %lld iteration %d: %s", (long long)c->run_id, t->iteration,
              e);
  return -1;
}

static int keep_last(void *ctx, const tuning_row *t) {
  row_check *c = ctx;
  tuner_last *l = c->last;
  if (check_row(c, t)) return c->bad = 1;
  if (t->iteration == -1) {
    l->validated = 1;
    return 0;
  }
  l->row = *t;
  l->found = 1;
  c->next = t->iteration + 1;
  return 0;
}

int tuner_last_row(store *db, int64_t run_id, const char *kind, int iterations, tuner_last *out,
                   char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  row_check c = {out, run_id, kind, iterations, 0, err, errlen, 0};
  if (tuning_store_foreach(db, run_id, keep_last, &c, err, errlen)) return -1;
  return c.bad ? -1 : 0;
}

int tuner_resume_point(store *db, int64_t run_id, const char *kind, int iterations,
                       const eval_weights *start, tuner_result *out, tuner_last *last, char *err,
                       size_t errlen) {
  memset(out, 0, sizeof *out);
  if (tuner_last_row(db, run_id, kind, iterations, last, err, errlen)) return -1;
  out->w = *start;
  out->resumed = last->found;
  out->validated = last->validated;
  if (!last->found) return 0;
  char e[ERROR_MAX];
  if (tuner_weights_parse(last->row.weights, &out->w, e, sizeof e))
    return error_set(err, errlen, "run %lld iteration %d: %s", (long long)run_id,
                     last->row.iteration, e),
           -1;
  out->games = last->row.games;
  return 0;
}

void tuner_games_relay_fn(void *ctx, long long done, long long total) {
  const tuner_games_relay *r = ctx;
  if (!r->obs || !r->obs->games) return;
  r->obs->games(r->obs->ctx, r->what, r->before + done, r->total > 0 ? r->total : total);
}
