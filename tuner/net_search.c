/* net_search.c: a player's search score of each of many positions, as one-ply games of the runner (local threads or MPI ranks). */
#include "tuner/net_search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"
#include "run/adjudicate.h"
#include "run/runner.h"

/* Positions a job: one worker plays them in order. */
#define NET_SEARCH_JOB 64

typedef struct net_search {
  char *spec;           /* slot 0: the searching player; slot 1 plays no move */
  variant v;
  uint64_t seed;
  board *b;             /* n positions */
  size_t n;
  adjudicator *adj;     /* maxplies=1 */
  float *score;         /* the caller's (NULL in another process) */
} net_search;

static const char *ns_spec(void *ctx, int slot) {
  return slot ? "random" : ((net_search *)ctx)->spec;
}

/* Game k of job i: position i·64 + k, the searching player on its mover's
 * side, the other side a player that never moves (the game is cut first). */
static int ns_next(void *ctx, long long job, int k, const runner_outcome *prev, runner_game *g) {
  (void)prev;
  net_search *s = ctx;
  size_t i = (size_t)job * NET_SEARCH_JOB + (size_t)k;
  if (k >= NET_SEARCH_JOB || i >= s->n) return 0;
  g->game_no = k;
  g->south = s->b[i].side == BOARD_SOUTH ? 0 : 1;
  g->north = 1 - g->south;
  g->variant_idx = 0;
  g->v = &s->v;
  g->start = s->b[i];
  g->seed = rng_mix(s->seed, (uint64_t)i);
  g->adjudicator = s->adj;
  return 1;
}

/* The first move's record of each game: its score. */
static int ns_game(void *ctx, const runner_result *r, char *err, size_t errlen) {
  net_search *s = ctx;
  size_t i = (size_t)r->job * NET_SEARCH_JOB + (size_t)r->k;
  if (outcome_is_forfeit(r->mr.end)) {
    error_set(err, errlen, "--search %s: position %zu: %s", s->spec, i, r->mr.detail);
    return -1;
  }
  if (r->plies < 1 || !r->records || r->records[0].depth <= 0) {
    error_set(err, errlen, "--search %s: it reports no score", s->spec);
    return -1;
  }
  s->score[i] = (float)r->records[0].score;
  return 0;
}

static int ns_pack(void *ctx, pack_buf *out, char *err, size_t errlen) {
  const net_search *s = ctx;
  char vs[256];
  variant_format(&s->v, vs, sizeof vs);
  pack_str(out, s->spec);
  pack_str(out, vs);
  pack_u64(out, s->seed);
  pack_u64(out, s->n);
  for (size_t i = 0; i < s->n; i++) pack_board(out, &s->b[i], &s->v);
  return pack_finish(out, err, errlen);
}

/* The maxplies=1 rule, opened for v. */
static int open_cut(const variant *v, adjudicator **out, char *err, size_t errlen) {
  adjudicate_rules rules;
  return adjudicate_parse("maxplies=1", &rules, err, errlen) ||
                 adjudicate_open(&rules, v, 1, out, err, errlen)
             ? -1
             : 0;
}

static void ns_release(runner_schedule *sch) {
  net_search *s = sch->ctx;
  if (!s) return;
  adjudicate_close(s->adj);
  free(s->spec);
  free(s->b);
  free(s);
  sch->ctx = NULL;
}

static int ns_unpack(pack_reader *in, runner_schedule *sch, char *err, size_t errlen) {
  net_search *s = runner_schedule_ctx(sch, sizeof *s, err, errlen);
  if (!s) return -1;
  s->spec = pack_get_strdup(in);
  char vs[256];
  pack_get_str(in, vs, sizeof vs);
  s->seed = pack_get_u64(in);
  uint64_t n = pack_get_u64(in);
  int bad = in->failed || !s->spec || variant_parse(vs, &s->v, err, errlen);
  /* Each position takes at least one byte a pit: n cannot exceed what is left. */
  if (!bad && n > pack_left(in)) in->failed = 1;
  if (!bad && !in->failed && n && !(s->b = malloc((size_t)n * sizeof *s->b))) {
    error_set(err, errlen, "out of memory");
    bad = 1;
  }
  for (uint64_t i = 0; !bad && i < n && !in->failed; i++) pack_get_board(in, &s->b[i], &s->v);
  s->n = (size_t)n;
  if (!bad && in->failed)
    error_set(err, errlen, "net search: a schedule that does not read back (another oware version?)"),
        bad = 1;
  if (!bad && open_cut(&s->v, &s->adj, err, errlen)) bad = 1;
  if (bad) {
    ns_release(sch);
    return -1;
  }
  *sch = (runner_schedule){0, 2, s, ns_spec, NULL, ns_next, tuner_net_search_kind.name, ns_pack};
  return 0;
}

const runner_kind tuner_net_search_kind = {"net-search", ns_unpack, ns_release};

int tuner_net_search(const char *spec, const variant *v, uint64_t seed, const board *b, size_t n,
                     int threads, float *score, char *err, size_t errlen) {
  if (!n) return 0;
  net_search s = {(char *)spec, *v, seed, (board *)b, n, NULL, score};
  if (open_cut(v, &s.adj, err, errlen)) return -1;
  runner_schedule sch = {(long long)((n + NET_SEARCH_JOB - 1) / NET_SEARCH_JOB),
                         2,
                         &s,
                         ns_spec,
                         NULL,
                         ns_next,
                         tuner_net_search_kind.name,
                         ns_pack};
  runner_sink k = {&s, ns_game, NULL, NULL};
  runner_config c = {threads < 1 ? 1 : threads, 0, NULL, NULL};
  char e[ERROR_MAX];
  int rc = runner_run(&sch, &k, &c, NULL, e, sizeof e);
  adjudicate_close(s.adj);
  if (rc) {
    /* The sink's errors name the spec already; the runner's (a player that
     * cannot be made) do not. */
    if (!strncmp(e, "--search ", 9)) error_set(err, errlen, "%s", e);
    else error_set(err, errlen, "--search %s: %s", spec, e);
    return -1;
  }
  return 0;
}
