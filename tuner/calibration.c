/* calibration.c: a calibration from end to end: reference pool, search, verification, verdicts. */
#include "tuner/calibration.h"
#include "core/error.h"
#include "core/interp.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void search_config(const tuner_calibrate_config *c, calibrate_arena *ar, int integer,
                          const tuner_calibrate_observer *obs, calibrate_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->lo = c->lo;
  cfg->hi = c->hi;
  cfg->integer = integer;
  cfg->log_scale = c->log_scale;
  cfg->nlevels = c->nlevels;
  memcpy(cfg->level, c->level, sizeof cfg->level);
  cfg->pairs = (int)((c->games + 1) / 2);
  cfg->max_pairs = (int)((c->max_games + 1) / 2);
  cfg->tolerance = c->tolerance;
  cfg->se_target = c->se;
  cfg->eval = calibrate_arena_eval;
  cfg->ctx = ar;
  cfg->progress = obs ? obs->progress : NULL;
  cfg->progress_ctx = obs ? obs->ctx : NULL;
}

/* The observer's games hook, from the arena's games as they finish. */
typedef struct cal_watch {
  const tuner_calibrate_config *c;
  const tuner_calibrate_observer *obs;
  tuner_calibration *out;
  tuner_calibrate_phase phase;
  long long start; /* the arena's games when the phase began */
} cal_watch;

static void phase(cal_watch *w, tuner_calibrate_phase p) {
  w->phase = p;
  w->start = w->out->arena->play.games;
}

/* The verification round robin of the anchor, the pool and the levels at
 * the knobs of round out->rounds, which it measures. */
static int verify(const tuner_calibrate_config *c, tuner_calibration *out, char *err,
                  size_t errlen) {
  calibrate_result *cr = out->search;
  int round = out->rounds;
  int nv = 0;
  const char *vspecs[CALIBRATE_MAX_LEVELS + CALIBRATE_MAX_REFS];
  const char *vnames[CALIBRATE_MAX_LEVELS + CALIBRATE_MAX_REFS];
  vspecs[nv] = c->anchor_spec, vnames[nv++] = c->anchor_spec;
  for (int i = 0; i < c->npool; i++) vspecs[nv] = c->pool[i], vnames[nv++] = c->pool[i];
  out->first_level = nv;
  for (int i = 0; i < cr->nlevels; i++) {
    calibrate_spec(out->level_spec[i], sizeof out->level_spec[i], c->base, c->knob,
                   out->round_knob[round][i], out->arena->integer);
    vspecs[nv] = out->level_spec[i], vnames[nv++] = cr->found[i].level.name;
  }
  calibrate_play *pl = &out->arena->play;
  if (round)
    calibrate_say(pl->progress, pl->progress_ctx, "refinement %d: round robin again, %lld games per pairing", round, c->verify_games);
  else
    calibrate_say(pl->progress, pl->progress_ctx, "verification: round robin of the levels, the anchor and the pool, %lld games per pairing", c->verify_games);
  /* Each round's games are its own: the seed of round r > 0 is derived
   * from the run's (round 0 keeps it, as before refinements existed). */
  pl->seed = c->seed ^ ((uint64_t)round * 0x9E3779B97F4A7C15ull);
  long long before = pl->games;
  char e[ERROR_MAX];
  if (out->has_verify) rating_result_free(&out->verify);
  out->has_verify = 0;
  if (calibrate_round_robin(pl, vspecs, vnames, nv, (int)((c->verify_games + 1) / 2), 0,
                            c->anchor_elo, &out->verify, e, sizeof e)) {
    rating_result_free(&out->verify);
    return error_set(err, errlen, "%s: %s", round ? "refinement" : "verification", e), -1;
  }
  pl->seed = c->seed;
  out->has_verify = 1;
  out->verify_games = pl->games - before;
  for (int i = 0; i < cr->nlevels; i++) {
    out->round_elo[round][i] = out->verify.player[out->first_level + i].elo;
    out->round_se[round][i] = out->verify.player[out->first_level + i].se;
  }
  out->rounds = round + 1;
  return 0;
}

/* The search's monotone curve: Elo against the knob. */
static double curve_elo(const tuner_calibrate_config *c, const calibrate_result *cr, double knob) {
  double x[CALIBRATE_MAX_POINTS];
  for (int i = 0; i < cr->npoints; i++) x[i] = cr->point[i].knob;
  return interp_y(x, cr->fitted, cr->npoints, c->log_scale, knob);
}

/* The knob values of the next round from every round so far (the pool
 * offsets of tuner_calibrate); 1 when one of them moved, else 0. */
static int refine(const tuner_calibrate_config *c, tuner_calibration *out) {
  const calibrate_result *cr = out->search;
  double x[CALIBRATE_MAX_POINTS];
  for (int i = 0; i < cr->npoints; i++) x[i] = cr->point[i].knob;
  int next = out->rounds, moved = 0;
  for (int i = 0; i < cr->nlevels; i++) {
    double sw = 0, sr = 0;
    for (int r = 0; r < out->rounds; r++) {
      double se = fmax(out->round_se[r][i], 1.0), w = 1.0 / (se * se);
      sw += w;
      sr += w * (out->round_elo[r][i] - curve_elo(c, cr, out->round_knob[r][i]));
    }
    out->offset[i] = sr / sw;
    double k = interp_x(x, cr->fitted, cr->npoints, c->log_scale,
                        cr->found[i].level.target - out->offset[i]);
    if (out->arena->integer) k = round(k);
    k = fmin(fmax(k, c->lo), c->hi);
    out->round_knob[next][i] = k;
    moved |= k != out->round_knob[next - 1][i];
  }
  return moved;
}

/* The verification, and the refinements asked. 0, or -1 with err. */
static int verify_and_refine(const tuner_calibrate_config *c, cal_watch *w, char *err,
                             size_t errlen) {
  tuner_calibration *out = w->out;
  for (int i = 0; i < out->search->nlevels; i++) out->round_knob[0][i] = out->search->found[i].knob;
  if (verify(c, out, err, errlen)) return -1;
  for (int r = 1; r <= c->refine && r < TUNER_CAL_MAX_ROUNDS; r++) {
    if (!refine(c, out)) {
      calibrate_say(w->out->arena->play.progress, w->out->arena->play.progress_ctx, "refinement %d: no level's %s moves: done", r, c->knob);
      break;
    }
    phase(w, TUNER_CAL_REFINE);
    if (verify(c, out, err, errlen)) return -1;
  }
  memcpy(out->level_knob, out->round_knob[out->rounds - 1], sizeof out->level_knob);
  return 0;
}


static void on_played(void *ctx, long long games) {
  static const char *const names[] = {"reference pool", "search", "verification", "refinement"};
  const cal_watch *w = ctx;
  const tuner_calibrate_config *c = w->c;
  long long n = 0, pairs = 0;
  if (w->phase == TUNER_CAL_POOL) n = w->out->arena->nrefs, pairs = (c->ref_games + 1) / 2;
  else if (w->phase == TUNER_CAL_VERIFY || w->phase == TUNER_CAL_REFINE)
    n = 1 + c->npool + c->nlevels, pairs = (c->verify_games + 1) / 2;
  int li = w->out->search->searching;
  tuner_calibrate_games g = {w->phase, names[w->phase],
                             w->phase == TUNER_CAL_SEARCH && li >= 0 ? c->level[li].name : NULL,
                             games - w->start, n * (n - 1) / 2 * 2 * pairs, w->out->rounds};
  w->obs->games(w->obs->ctx, &g);
}

/* Levels in target order must be in Elo order, each within tolerance. */
static void judge(const tuner_calibrate_config *c, tuner_calibration *out) {
  const calibrate_result *cr = out->search;
  int *order = out->order;
  for (int i = 0; i < cr->nlevels; i++) order[i] = i;
  for (int i = 1; i < cr->nlevels; i++)
    for (int j = i; j > 0 && c->level[order[j]].target < c->level[order[j - 1]].target; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  out->in_order = 1;
  out->all_ok = 1;
  const rating_player *p = out->verify.player + out->first_level;
  for (int k = 1; k < cr->nlevels; k++) out->in_order &= p[order[k]].elo > p[order[k - 1]].elo;
  for (int i = 0; i < cr->nlevels; i++) {
    out->tol[i] = fmax(2 * p[i].se, c->tolerance);
    out->within[i] = fabs(p[i].elo - cr->found[i].level.target) <= out->tol[i];
    out->ok[i] = out->within[i] && cr->found[i].status == CALIBRATE_OK;
    out->all_ok &= out->ok[i];
  }
}

int tuner_calibrate(const tuner_calibrate_config *c, const tuner_calibrate_observer *obs,
                    atomic_int *stop, tuner_calibration *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  int integer;
  if (calibrate_check_knob(c->base, c->knob, c->lo, c->hi, &integer, err, errlen)) return -1;
  out->arena = calloc(1, sizeof *out->arena);
  out->search = calloc(1, sizeof *out->search);
  if (!out->arena || !out->search) return error_set(err, errlen, "out of memory"), -1;
  calibrate_arena *ar = out->arena;
  ar->play.v = c->v;
  ar->play.opening_plies = c->opening_plies;
  snprintf(ar->base, sizeof ar->base, "%s", c->base);
  snprintf(ar->knob, sizeof ar->knob, "%s", c->knob);
  ar->integer = integer;
  ar->play.threads = c->threads;
  ar->play.seed = c->seed;
  ar->play.stop = stop;
  ar->play.journal = c->journal;
  ar->play.progress = obs ? obs->progress : NULL;
  ar->play.progress_ctx = obs ? obs->ctx : NULL;
  cal_watch watch = {c, obs, out, TUNER_CAL_POOL, 0};
  if (obs && obs->games) {
    ar->play.played = on_played;
    ar->play.played_ctx = &watch;
  }
  calibrate_config cfg;
  search_config(c, ar, integer, obs, &cfg);
  char e[ERROR_MAX];
  calibrate_say(ar->play.progress, ar->play.progress_ctx, "reference pool: round robin, %lld games per pairing", c->ref_games);
  if (calibrate_arena_setup(ar, c->anchor_spec, c->anchor_elo, c->pool, c->npool, c->ladder,
                            c->lo, c->hi, c->log_scale, (int)((c->ref_games + 1) / 2), e,
                            sizeof e))
    return error_set(err, errlen, "reference pool: %s", e), -1;
  if (obs && obs->pool_rated) obs->pool_rated(obs->ctx, ar);
  calibrate_say(ar->play.progress, ar->play.progress_ctx, "search on %s in [%g, %g]%s", c->knob, c->lo, c->hi, c->log_scale ? " (log scale)" : "");
  phase(&watch, TUNER_CAL_SEARCH);
  if (calibrate_run(&cfg, out->search, err, errlen)) return -1;
  if (obs && obs->searched) obs->searched(obs->ctx, out->search);
  phase(&watch, TUNER_CAL_VERIFY);
  if (verify_and_refine(c, &watch, err, errlen)) return -1;
  judge(c, out);
  return 0;
}

void tuner_calibration_free(tuner_calibration *out) {
  if (out->has_verify) rating_result_free(&out->verify);
  free(out->arena);
  free(out->search);
  memset(out, 0, sizeof *out);
}
