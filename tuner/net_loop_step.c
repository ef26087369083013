/* net_loop_step.c: a network generation's steps as runs of their own: self-play and SPRT round robins through the runner, the training as a run of kind net; each tagged, found again on a resume. */
#include "tuner/net_loop_step.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "run/tournament.h"

/* The setting that tags a step's run: "LOOP/GENERATION/STEP". */
#define STEP_TAG "net-loop"

static void step_tag(const tuner_net_step *s, const char *what, char *buf, size_t len) {
  snprintf(buf, len, "%lld/%d/%s", (long long)s->loop_id, s->generation, what);
}

/* A step's seed: from the loop's, the generation and the step. */
static long long step_seed(const tuner_net_step *s, uint64_t step) {
  uint64_t x = rng_mix(rng_mix((uint64_t)s->c->seed, (uint64_t)s->generation), step);
  return (long long)(x & (uint64_t)LLONG_MAX);
}

static store_kind step_kind(const char *what) {
  return strcmp(what, "net") ? STORE_ROUND_ROBIN : STORE_NET;
}

int tuner_net_step_find(const tuner_net_step *s, const char *what, int64_t *id, char *err,
                        size_t errlen) {
  char tag[128];
  step_tag(s, what, tag, sizeof tag);
  return store_run_find(s->db, step_kind(what), STEP_TAG, tag, id, err, errlen);
}

/* A new round robin of the step `what`, stored, tagged and played. */
static int new_round_robin(const tuner_net_step *s, const char *what, const char *players,
                           const char *sprt, tournament *t, int64_t *id, char *err,
                           size_t errlen) {
  tournament_config tc;
  char name[128], openings[32], format[48], tag[128];
  if (settings_defaults(tournament_settings, &tc, err, errlen)) return -1;
  snprintf(name, sizeof name, "net loop %lld, generation %d, %s", (long long)s->loop_id,
           s->generation, what);
  snprintf(openings, sizeof openings, "random:%lld", s->l->plies);
  snprintf(format, sizeof format, "games:%lld", sprt ? 2 * s->l->max_pairs : s->l->games);
  step_tag(s, what, tag, sizeof tag);
  tc.players = players, tc.variants = s->c->variant, tc.format = format, tc.openings = openings;
  tc.name = name, tc.sprt = sprt, tc.seed = step_seed(s, sprt ? 3 : 1);
  if (tournament_describe(&tc, players, (int)s->c->threads, "oware tune net --generations", t,
                          err, errlen))
    return -1;
  if (store_config_set_text(&t->run, STEP_TAG, tag))
    return error_set(err, errlen, "out of memory"), -1;
  if (store_run_create(s->db, &t->run, err, errlen)) return -1;
  *id = t->run.id;
  if (store_run_lock(s->db, *id, err, errlen)) return -1;
  int rc = tournament_play(t, s->db, s->stop, err, errlen);
  char e[ERROR_MAX];
  store_run_unlock(s->db, *id, e, sizeof e);
  return rc;
}

/* The round robin of step `what`: resumed when it is stored, else made. */
static int round_robin(const tuner_net_step *s, const char *what, const char *players,
                       const char *sprt, int64_t *id, char *err, size_t errlen) {
  tournament *t = calloc(1, sizeof *t);
  if (!t) return error_set(err, errlen, "out of memory"), -1;
  int rc = tuner_net_step_find(s, what, id, err, errlen);
  if (rc == 1) rc = tournament_resume(s->db, *id, (int)s->c->threads, s->stop, t, err, errlen);
  else if (!rc) rc = new_round_robin(s, what, players, sprt, t, id, err, errlen);
  tournament_free(t);
  free(t);
  return rc;
}

int tuner_net_step_selfplay(const tuner_net_step *s, const char *best, int64_t *id, char *err,
                            size_t errlen) {
  char players[2 * 1400];
  snprintf(players, sizeof players, "%s,eval=%s,noise=%g,name=a;%s,eval=%s,noise=%g,name=b",
           s->l->player, best, s->l->noise, s->l->player, best, s->l->noise);
  return round_robin(s, "self-play", players, NULL, id, err, errlen);
}

/* The candidate's results from the stored games of run id (pair
 * "best"–"candidate", counted from best's side by the store). */
static int count_sprt(const tuner_net_step *s, int64_t id, tuner_net_sprt *out, char *err,
                      size_t errlen) {
  store_pair_count *pc = NULL;
  int n = 0;
  rating_sprt sp;
  memset(out, 0, sizeof *out);
  if (rating_sprt_parse_stored(s->l->sprt, &sp, err, errlen) ||
      store_pair_counts(s->db, &id, 1, NULL, &pc, &n, err, errlen))
    return -1;
  for (int i = 0; i < n; i++)
    if (!strcmp(pc[i].a, "best") && !strcmp(pc[i].b, "candidate")) {
      out->m.wins = pc[i].losses, out->m.draws = pc[i].draws, out->m.losses = pc[i].wins;
      for (int k = 0; k < 5; k++) out->m.penta[k] = pc[i].penta[4 - k];
      out->m.pairs_wl = pc[i].pairs_wl;
    }
  free(pc);
  for (int k = 0; k < 5; k++) out->pairs += out->m.penta[k];
  out->r = rating_sprt_test(&sp, &out->m, 0);
  rating_match_compute(&out->m, &out->st);
  return 0;
}

int tuner_net_step_sprt(const tuner_net_step *s, const char *cand, const char *best, int64_t *id,
                        tuner_net_sprt *out, char *err, size_t errlen) {
  char players[2 * 1400];
  snprintf(players, sizeof players, "%s,eval=%s,name=candidate;%s,eval=%s,name=best",
           s->l->player, cand, s->l->player, best);
  int rc = round_robin(s, "sprt", players, s->l->sprt, id, err, errlen);
  if (rc) return rc;
  return count_sprt(s, *id, out, err, errlen);
}

/* A training's line passed on to the loop's observer as a log line. */
static void relay_line(void *ctx, tuner_line kind, const char *text) {
  (void)kind;
  tuner_report(ctx, TUNER_LOG, "%s", text);
}

/* Trains the stored run id of configuration c, its status kept. */
static int train_run(const tuner_net_step *s, const tuner_net_config *c, int64_t id,
                     tuner_net_result *res, char *err, size_t errlen) {
  char e[ERROR_MAX];
  if (store_run_lock(s->db, id, err, errlen)) return -1;
  int rc = store_run_status(s->db, id, STORE_RUNNING, err, errlen);
  tuner_observer relay = {(void *)s->obs, relay_line, NULL, NULL};
  if (!rc) rc = tuner_net_run(c, s->db, id, &relay, s->stop, res, err, errlen);
  store_run_status(s->db, id, rc ? STORE_FAILED : res->complete ? STORE_FINISHED
                                                                : STORE_INTERRUPTED, e, sizeof e);
  store_run_unlock(s->db, id, e, sizeof e);
  return rc ? -1 : !res->complete;
}

int tuner_net_step_train(const tuner_net_step *s, const char *runs, const char *out, int64_t *id,
                         tuner_net_result *res, char *err, size_t errlen) {
  store_run run;
  store_run_init(&run);
  tuner_net_config c;
  char name[128], tag[128];
  int rc = tuner_net_step_find(s, "net", id, err, errlen);
  if (rc == 1) {
    rc = store_run_load(s->db, *id, &run, err, errlen) || tuner_net_load(&run, &c, err, errlen)
             ? -1 : 0;
  } else if (!rc) {
    c = *s->c;
    snprintf(name, sizeof name, "net loop %lld, generation %d, net", (long long)s->loop_id,
             s->generation);
    step_tag(s, "net", tag, sizeof tag);
    c.runs = runs, c.out = out, c.name = name, c.seed = step_seed(s, 2);
    rc = tuner_net_describe(&c, "oware tune net --generations", &run, err, errlen) ? -1 : 0;
    if (!rc && store_config_set_text(&run, STEP_TAG, tag))
      rc = (error_set(err, errlen, "out of memory"), -1);
    if (!rc) rc = store_run_create(s->db, &run, err, errlen);
    *id = run.id;
  }
  if (!rc) {
    c.threads = s->c->threads;
    rc = train_run(s, &c, *id, res, err, errlen);
  }
  store_run_free(&run);
  return rc;
}
