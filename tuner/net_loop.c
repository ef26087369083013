/* net_loop.c: the loop of network generations: its settings, the run described and loaded, each generation's steps in order and its tuning row, the best network written at the end. */
#include "tuner/net_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/path.h"
#include "players/eval_net.h"
#include "stats/sprt.h"
#include "tuner/net_loop_step.h"
#include "tuner/tuning_store.h"

#define T tuner_net_loop_config
const settings_key tuner_net_loop_settings[] = {
    SETTINGS_K_INT("generations", T, generations, 0, 1000, "G", "0",
                   "a loop of G generations: self-play of the best network, the next trained on "
                   "all their games, kept if it passes an SPRT against the best (0: no loop)", 0),
    SETTINGS_K_INT("games", T, games, 2, 10000000, "N", "400", "loop: self-play games a generation",
                   0),
    SETTINGS_K_INT("max-pairs", T, max_pairs, 1, 1000000, "P", "1000",
                   "loop: the SPRT's cap in game pairs (undecided: not kept)", 0),
    SETTINGS_K_INT("plies", T, plies, 0, 100, "PLIES", "8", "loop: random plies of each opening",
                   0),
    SETTINGS_K_REAL("noise", T, noise, 0, 10, "X", "0.3", "loop: the self-play players' noise=", 0),
    SETTINGS_K_TEXT("player", T, player, "SPEC", "minimax:nodes=2000",
                    "loop: the player (eval= and name= are added; noise= in self-play)", 0),
    SETTINGS_K_TEXT("start", T, start, "net|FILE", "net", "loop: the first best network", 0),
    SETTINGS_K_TEXT("sprt", T, sprt, "elo0=E0,elo1=E1[,...]", "elo0=0,elo1=10",
                    "loop: the SPRT of a candidate against the best", 0),
    SETTINGS_END,
};
#undef T

int tuner_net_loop_is(const store_run *run) {
  long long g = 0;
  char e[ERROR_MAX];
  return run->kind == STORE_NET && !store_config_get_int(run, "generations", &g, e, sizeof e) &&
         g > 0;
}

/* The start network and the SPRT, checked. */
static int check_loop(const tuner_net_loop_config *l, char *err, size_t errlen) {
  char e[ERROR_MAX];
  rating_sprt sp;
  if (rating_sprt_parse(l->sprt, &sp, e, sizeof e))
    return error_set(err, errlen, "--sprt: %s", e), -1;
  eval_net n;
  if (eval_net_named(l->start, &n, e, sizeof e))
    return error_set(err, errlen, "--start: %s", e), -1;
  eval_net_free(&n);
  return 0;
}

int tuner_net_loop_describe(const tuner_net_loop_config *l, const tuner_net_config *c,
                            const char *command, store_run *run, char *err, size_t errlen) {
  char format[96];
  if (check_loop(l, err, errlen) || tuner_net_describe(c, command, run, err, errlen)) return -1;
  snprintf(format, sizeof format, "generations:%lld,games:%lld", l->generations, l->games);
  if (store_run_set(&run->format, format) ||
      store_run_set(&run->name, c->name ? c->name : "net loop"))
    return error_set(err, errlen, "out of memory"), -1;
  return settings_save(tuner_net_loop_settings, l, run, err, errlen);
}

int tuner_net_loop_load(const store_run *run, tuner_net_loop_config *l, tuner_net_config *c,
                        char *err, size_t errlen) {
  if (tuner_net_load(run, c, err, errlen) ||
      settings_load(tuner_net_loop_settings, run, l, err, errlen))
    return -1;
  return check_loop(l, err, errlen);
}

/* Generation g's candidate: OUT without ".net", then -genG.net. */
static void candidate_path(const tuner_net_config *c, int64_t run_id, int g, char *buf,
                           size_t len) {
  char out[1024];
  tuner_net_out(c, run_id, out, sizeof out);
  size_t n = strlen(out);
  if (n > 4 && !strcmp(out + n - 4, ".net")) out[n - 4] = 0;
  snprintf(buf, len, "%s-gen%d.net", out, g);
}

/* Where the loop stands: the stored generations, the best, the self-play runs. */
typedef struct loop_state {
  const tuner_net_config *c;
  int64_t run_id;
  int done, kept;
  double elo;
  long long games;
  char best[1100];
  char runs[4096]; /* the self-play runs so far, "ID,ID,..." */
} loop_state;

static int read_row(void *ctx, const tuning_row *t) {
  loop_state *s = ctx;
  if (strcmp(t->kind, "generation")) return 0;
  s->done = t->iteration + 1;
  s->games = t->games;
  if (!strncmp(t->step, "kept", 4)) {
    s->kept++, s->elo += t->value;
    candidate_path(s->c, s->run_id, s->done, s->best, sizeof s->best);
  }
  return 0;
}

static int add_run(loop_state *s, int64_t id, char *err, size_t errlen) {
  size_t n = strlen(s->runs);
  if (n + 24 > sizeof s->runs) return error_set(err, errlen, "too many generations"), -1;
  snprintf(s->runs + n, sizeof s->runs - n, "%s%lld", n ? "," : "", (long long)id);
  return 0;
}

/* The stored generations into s (their self-play runs found again). */
static int read_state(const tuner_net_step *st, loop_state *s, char *err, size_t errlen) {
  if (tuning_store_foreach(st->db, s->run_id, read_row, s, err, errlen)) return -1;
  tuner_net_step k = *st;
  for (k.generation = 1; k.generation <= s->done; k.generation++) {
    int64_t id;
    int rc = tuner_net_step_find(&k, "self-play", &id, err, errlen);
    if (rc < 0) return -1;
    if (!rc)
      return error_set(err, errlen, "generation %d of run %lld has no self-play run",
                       k.generation, (long long)s->run_id),
             -1;
    if (add_run(s, id, err, errlen)) return -1;
  }
  return 0;
}

/* Generation g's row: the candidate's Elo and results, the runs, kept or not. */
static int store_row(const tuner_net_step *st, loop_state *s, const int64_t ids[3],
                     const tuner_net_sprt *sp, const char *cand, char *err, size_t errlen) {
  int kept = sp->r.decision == RATING_ACCEPT_H1;
  tuning_row row;
  memset(&row, 0, sizeof row);
  row.run_id = s->run_id;
  row.iteration = st->generation - 1;
  snprintf(row.kind, sizeof row.kind, "generation");
  s->elo += kept ? sp->st.penta_elo : 0;
  s->games += st->l->games + sp->m.wins + sp->m.draws + sp->m.losses;
  snprintf(row.weights, sizeof row.weights, "candidate %.3f best %.3f", sp->st.penta_elo, s->elo);
  snprintf(row.step, sizeof row.step,
           "%s: SPRT %s after %lld pairs (LLR %.3f); self-play run %lld, network run %lld (%s), "
           "SPRT run %lld", kept ? "kept" : "not kept",
           sp->r.decision ? rating_decision_name(sp->r.decision) : "undecided within the cap",
           sp->pairs, sp->r.llr, (long long)ids[0], (long long)ids[1], cand, (long long)ids[2]);
  row.wins = sp->m.wins, row.draws = sp->m.draws, row.losses = sp->m.losses;
  row.value = sp->st.penta_elo;
  row.lo = sp->st.penta_elo - sp->st.penta_err, row.hi = sp->st.penta_elo + sp->st.penta_err;
  row.games = s->games;
  if (tuning_store_insert(st->db, &row, err, errlen)) return -1;
  s->done = st->generation, s->kept += kept;
  if (kept) snprintf(s->best, sizeof s->best, "%s", cand);
  return 0;
}

/* Generation st->generation, step by step. 0, 1 (stopped) or -1. */
static int generation(const tuner_net_step *st, loop_state *s, const tuner_observer *obs,
                      char *err, size_t errlen) {
  int64_t ids[3];
  char cand[1100];
  tuner_net_result tr;
  tuner_net_sprt sp;
  int g = st->generation, rc;
  candidate_path(s->c, s->run_id, g, cand, sizeof cand);
  tuner_report(obs, TUNER_LOG, "generation %d: %lld self-play games of %s", g, st->l->games,
               s->best);
  if ((rc = tuner_net_step_selfplay(st, s->best, &ids[0], err, errlen))) return rc;
  if (add_run(s, ids[0], err, errlen)) return -1;
  tuner_report(obs, TUNER_LOG, "generation %d: training on the games of runs %s", g, s->runs);
  if ((rc = tuner_net_step_train(st, s->runs, cand, &ids[1], &tr, err, errlen))) return rc;
  tuner_report(obs, TUNER_LOG, "generation %d: SPRT (%s) of %s against %s", g, st->l->sprt,
               cand, s->best);
  if ((rc = tuner_net_step_sprt(st, cand, s->best, &ids[2], &sp, err, errlen))) return rc;
  if (store_row(st, s, ids, &sp, cand, err, errlen)) return -1;
  int kept = !strcmp(s->best, cand);
  tuner_report(obs, TUNER_RESULT,
               "generation %d: %s (epoch %d, validation loss %.6f): %+.1f ± %.1f Elo against "
               "the best, %lld-%lld-%lld in %lld pairs, SPRT %s: %s; total %+.1f Elo",
               g, cand, tr.best_epoch, tr.best_loss, sp.st.penta_elo, sp.st.penta_err, sp.m.wins,
               sp.m.draws, sp.m.losses, sp.pairs,
               sp.r.decision ? rating_decision_name(sp.r.decision) : "undecided within the cap",
               kept ? "kept" : "not kept", s->elo);
  return 0;
}

/* The best network written to the loop's out file. */
static int write_best(const loop_state *s, char *out, size_t len, char *err, size_t errlen) {
  eval_net n;
  tuner_net_out(s->c, s->run_id, out, len);
  if (eval_net_named(s->best, &n, err, errlen)) return -1;
  int rc = eval_net_save(out, &n, err, errlen);
  eval_net_free(&n);
  return rc;
}

int tuner_net_loop_run(const tuner_net_loop_config *l, const tuner_net_config *c, store *db,
                       int64_t run_id, const tuner_observer *obs, atomic_int *stop,
                       tuner_net_loop_result *res, char *err, size_t errlen) {
  memset(res, 0, sizeof *res);
  loop_state *s = calloc(1, sizeof *s);
  if (!s) return error_set(err, errlen, "out of memory"), -1;
  s->c = c, s->run_id = run_id;
  snprintf(s->best, sizeof s->best, "%s", l->start);
  tuner_net_step st = {l, c, db, run_id, 0, stop, obs};
  char e[ERROR_MAX];
  if (!c->out) path_mkdirs("results", e, sizeof e); /* an error shows when a file is written */
  int rc = read_state(&st, s, err, errlen);
  for (st.generation = s->done + 1; !rc && st.generation <= l->generations; st.generation++)
    rc = stop && atomic_load(stop) ? 1 : generation(&st, s, obs, err, errlen);
  res->generations = s->done, res->kept = s->kept, res->elo = s->elo;
  snprintf(res->best, sizeof res->best, "%s", s->best);
  res->complete = !rc && s->done >= l->generations;
  if (res->complete && write_best(s, res->out, sizeof res->out, err, errlen)) rc = -1;
  if (res->complete && !rc)
    tuner_report(obs, TUNER_RESULT, "net loop: %d generations, %d kept (%+.1f Elo); the best, "
                 "%s, written to %s (minimax:eval=%s)", s->done, s->kept, s->elo, s->best,
                 res->out, res->out);
  free(s);
  return rc;
}
