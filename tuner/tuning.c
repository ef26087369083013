/* tuning.c: what the tuning drivers share: the observer's lines, the start weights, the tuning table's rows. */
#include "tuner/tuning.h"
#include "core/error.h"

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

int tuner_weights_parse(const char *text, eval_weights *w) {
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL;
  for (char *name = strtok_r(buf, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
    char *val = strtok_r(NULL, " ", &save);
    int i = eval_find(name);
    if (!val || i < 0) return -1;
    w->w[i] = strtod(val, NULL);
  }
  return 0;
}

static int keep_last(void *ctx, const tuning_row *t) {
  tuner_last *l = ctx;
  if (!strcmp(t->kind, "validation")) {
    l->validated = 1;
    return 0;
  }
  if (!l->found || t->iteration >= l->row.iteration) l->row = *t;
  l->found = 1;
  return 0;
}

int tuner_last_row(store *db, int64_t run_id, tuner_last *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  return tuning_store_foreach(db, run_id, keep_last, out, err, errlen);
}

int tuner_resume_point(store *db, int64_t run_id, const eval_weights *start, tuner_result *out,
                       tuner_last *last, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  if (tuner_last_row(db, run_id, last, err, errlen)) return -1;
  out->w = *start;
  out->resumed = last->found;
  out->validated = last->validated;
  if (!last->found) return 0;
  if (tuner_weights_parse(last->row.weights, &out->w))
    return error_set(err, errlen, "run %lld: unreadable stored weights", (long long)run_id), -1;
  out->games = last->row.games;
  return 0;
}

void tuner_games_relay_fn(void *ctx, long long done, long long total) {
  const tuner_games_relay *r = ctx;
  if (!r->obs || !r->obs->games) return;
  r->obs->games(r->obs->ctx, r->what, r->before + done, r->total > 0 ? r->total : total);
}
