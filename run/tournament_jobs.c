/* tournament_jobs.c: the schedule the runner asks of a tournament's jobs (players, next games), and the same schedule sent to and read in another process (run/runner_mpi.c). */
#include "run/tournament_jobs.h"

#include <stdlib.h>

#include "core/error.h"
#include "core/time_control.h"
#include "run/adjudicate.h"
#include "run/pack.h"

static const char *slot_spec(void *ctx, int slot) {
  return ((tournament_jobs *)ctx)->t->run.player_spec[slot];
}

/* A player just made: the run's clock when its spec sets none, the run's margin. */
static int slot_prepare(void *ctx, int slot, player *p, char *err, size_t errlen) {
  const tournament *t = ((tournament_jobs *)ctx)->t;
  (void)slot, (void)err, (void)errlen;
  if (!t->tc_settings) return 0;
  if (!time_control_on(&p->config.tc)) p->config.tc = t->tc;
  p->config.tc_margin_ms = t->tc_margin_ms;
  return 0;
}

/* The runner's next game of a job: none once the job's games are played
 * (games:N) or its series is decided. */
static int next_game(void *ctx, long long job, int k, const runner_outcome *prev,
                     runner_game *g) {
  tournament_jobs *j = ctx;
  tournament *t = j->t;
  const tournament_unit *u = &j->units[job];
  int game_no = u->first_game + k;
  int vi, round, a, b, a_south;
  tournament_series_identity(t, u->series_no, &vi, &round, &a, &b);
  if (u->last_game >= 0) {
    if (game_no > u->last_game) return 0;
  } else {
    series_state st = j->start_states[u->series_no];
    for (int i = 0; i < k; i++) {
      int res = prev[i].winner < 0 ? -1 : (prev[i].winner == 0 ? prev[i].south : prev[i].north) == a ? 0 : 1;
      series_add(&st, &t->format, res);
    }
    if (st.done) return 0;
  }
  tournament_game_setup(t, u->series_no, game_no, &g->start, &a_south, &g->seed);
  g->game_no = game_no;
  g->south = a_south ? a : b;
  g->north = a_south ? b : a;
  g->variant_idx = vi;
  g->v = &t->variants[vi];
  g->adjudicator = t->adjudicator;
  return 1;
}

/* What next_game and slot_spec read: the run's kind, players, rounds, seed,
 * variants (canonical strings), format, openings (positions for a file),
 * the units (delta-coded), and for formats other than games:N the state
 * each unit's series starts from. */
static int pack_schedule(void *ctx, pack_buf *out, char *err, size_t errlen) {
  const tournament_jobs *j = ctx;
  const tournament *t = j->t;
  const store_run *r = &t->run;
  pack_str(out, store_kind_name(r->kind));
  pack_i64(out, r->nplayers);
  for (int i = 0; i < r->nplayers; i++) pack_str(out, r->player_spec[i]);
  pack_i64(out, r->rounds);
  pack_u64(out, r->seed);
  pack_i64(out, r->nvariants);
  for (int v = 0; v < r->nvariants; v++) pack_str(out, r->variant[v]);
  pack_str(out, r->format);
  pack_i64(out, t->tc.moves);
  pack_i64(out, t->tc.base_ms);
  pack_i64(out, t->tc.inc_ms);
  pack_i64(out, t->tc_margin_ms);
  pack_i64(out, t->tc_settings);
  pack_i64(out, t->opening_plies);
  if (t->opening_plies < 0) {
    pack_i64(out, t->opening_after);
    pack_i64(out, t->opening_count);
    for (int v = 0; v < r->nvariants; v++)
      for (int i = 0; i < t->opening_count; i++)
        pack_board(out, &t->opening_file[v][i], &t->variants[v]);
  }
  pack_i64(out, j->nunits);
  int prev = 0;
  for (long long i = 0; i < j->nunits; i++) {
    const tournament_unit *u = &j->units[i];
    pack_i64(out, u->series_no - prev);
    pack_i64(out, u->first_game);
    pack_i64(out, u->last_game);
    prev = u->series_no;
    if (u->last_game < 0) {
      const series_state *st = &j->start_states[u->series_no];
      pack_i64(out, st->games);
      pack_i64(out, st->wins[0]);
      pack_i64(out, st->wins[1]);
      pack_i64(out, st->draws);
      pack_i64(out, st->streak[0]);
      pack_i64(out, st->streak[1]);
      pack_i64(out, st->done);
      pack_i64(out, st->winner);
    }
  }
  char adj[ADJUDICATE_TEXT_MAX + 64] = "";
  if (t->adjudicate_on && adjudicate_format(&t->adjudicate, adj, sizeof adj))
    return error_set(err, errlen, "tournament: the adjudication is too long to send"), -1;
  pack_str(out, adj);
  return pack_finish(out, err, errlen);
}

/* A schedule read in another process: its jobs first (the callbacks' ctx),
 * and the tournament they point to. */
typedef struct remote_play {
  tournament_jobs jobs;
  tournament t;
} remote_play;

static void release_schedule(runner_schedule *s) {
  remote_play *rp = s->ctx;
  if (!rp) return;
  tournament_free(&rp->t);
  free(rp->jobs.units);
  free(rp->jobs.start_states);
  free(rp);
  s->ctx = NULL;
}

/* The adjudication pack_schedule wrote last ("" for none), its tables
 * opened here. 0, or -1 with err (or in->failed: the pack is bad). */
static int unpack_adjudicate(pack_reader *in, tournament *t, char *err, size_t errlen) {
  char adj[ADJUDICATE_TEXT_MAX + 64];
  pack_get_str(in, adj, sizeof adj);
  if (in->failed) return -1;
  if (!adj[0]) return 0;
  t->adjudicate_on = 1;
  return adjudicate_parse(adj, &t->adjudicate, err, errlen) ||
                 adjudicate_open(&t->adjudicate, t->variants, t->run.nvariants, &t->adjudicator,
                                 err, errlen)
             ? -1
             : 0;
}

static int unpack_schedule(pack_reader *in, runner_schedule *s, char *err, size_t errlen) {
  remote_play *rp = runner_schedule_ctx(s, sizeof *rp, err, errlen);
  if (!rp) return -1;
  tournament *t = &rp->t;
  store_run *r = &t->run;
  tournament_jobs *pl = &rp->jobs;
  pl->t = t;
  char kind[32];
  pack_get_str(in, kind, sizeof kind);
  if (!in->failed && store_kind_parse(kind, &r->kind)) in->failed = 1;
  int nplayers = (int)pack_get_int(in, 2, STORE_MAX_PLAYERS);
  for (int i = 0; i < nplayers && !in->failed; i++) {
    char *spec = pack_get_strdup(in);
    if (spec && store_run_add_player(r, "", spec)) in->failed = 1;
    free(spec);
  }
  r->rounds = (int)pack_get_int(in, 1, 1 << 30);
  r->seed = pack_get_u64(in);
  int nvariants = (int)pack_get_int(in, 1, STORE_MAX_VARIANTS);
  for (int v = 0; v < nvariants && !in->failed; v++) {
    char *text = pack_get_strdup(in);
    if (text && store_run_add_variant(r, text)) in->failed = 1;
    free(text);
  }
  char *format = pack_get_strdup(in);
  if (format && store_run_set(&r->format, format)) in->failed = 1;
  free(format);
  int rc = -1;
  if (in->failed || r->nplayers != nplayers || r->nvariants != nvariants) goto bad;
  for (int v = 0; v < r->nvariants; v++)
    if (variant_parse(r->variant[v], &t->variants[v], err, errlen)) goto out;
  if (series_parse(r->format, &t->format, err, errlen)) goto out;
  t->pairs_per_series = (series_max_games(&t->format) + 1) / 2;
  t->nseries = (int)((long long)r->nvariants * r->rounds * tournament_npairings(t));
  t->tc.moves = (int)pack_get_int(in, 0, 10000);
  t->tc.base_ms = pack_get_int(in, 0, TIME_CONTROL_MAX_MS);
  t->tc.inc_ms = pack_get_int(in, 0, TIME_CONTROL_MAX_MS);
  t->tc_margin_ms = (int)pack_get_int(in, 0, 3600000);
  t->tc_settings = (int)pack_get_int(in, 0, 1);
  t->opening_plies = (int)pack_get_int(in, -1, 1000);
  if (t->opening_plies < 0) {
    t->opening_after = (int)pack_get_int(in, 0, 40);
    t->opening_count = (int)pack_get_int(in, 1, 1 << 24);
    for (int v = 0; v < r->nvariants && !in->failed; v++) {
      t->opening_file[v] = malloc((size_t)t->opening_count * sizeof(board));
      if (!t->opening_file[v]) {
        error_set(err, errlen, "out of memory");
        goto out;
      }
      for (int i = 0; i < t->opening_count; i++)
        pack_get_board(in, &t->opening_file[v][i], &t->variants[v]);
    }
  }
  pl->nunits = pack_get_int(in, 0, TOURNAMENT_MAX_GAMES);
  if (in->failed) goto bad;
  pl->units = malloc((size_t)(pl->nunits ? pl->nunits : 1) * sizeof *pl->units);
  if (t->format.kind != SERIES_GAMES)
    pl->start_states = calloc((size_t)(t->nseries ? t->nseries : 1), sizeof *pl->start_states);
  if (!pl->units || (t->format.kind != SERIES_GAMES && !pl->start_states)) {
    error_set(err, errlen, "out of memory for the schedule (%lld jobs)", pl->nunits);
    goto out;
  }
  int prev = 0, maxg = series_max_games(&t->format);
  for (long long j = 0; j < pl->nunits && !in->failed; j++) {
    tournament_unit *u = &pl->units[j];
    u->series_no = prev + (int)pack_get_int(in, 0, t->nseries);
    u->first_game = (int)pack_get_int(in, 0, maxg);
    u->last_game = (int)pack_get_int(in, -1, maxg);
    prev = u->series_no;
    if (u->series_no >= t->nseries) in->failed = 1;
    if (u->last_game < 0) {
      if (!pl->start_states) {
        in->failed = 1;
        break;
      }
      series_state *st = &pl->start_states[u->series_no];
      st->games = (int)pack_get_int(in, 0, maxg);
      st->wins[0] = (int)pack_get_int(in, 0, maxg);
      st->wins[1] = (int)pack_get_int(in, 0, maxg);
      st->draws = (int)pack_get_int(in, 0, maxg);
      st->streak[0] = (int)pack_get_int(in, 0, maxg);
      st->streak[1] = (int)pack_get_int(in, 0, maxg);
      st->done = (int)pack_get_int(in, 0, 1);
      st->winner = (int)pack_get_int(in, -1, 1);
    }
  }
  if (unpack_adjudicate(in, t, err, errlen)) {
    if (in->failed) goto bad;
    goto out;
  }
  *s = tournament_jobs_schedule(pl);
  return 0;
bad:
  error_set(err, errlen, "tournament: a schedule that does not read back (another oware version?)");
out:
  release_schedule(s);
  return rc;
}

const runner_kind tournament_schedule_kind = {"tournament", unpack_schedule, release_schedule};

runner_schedule tournament_jobs_schedule(tournament_jobs *j) {
  return (runner_schedule){j->nunits, j->t->run.nplayers, j, slot_spec, slot_prepare, next_game,
                           tournament_schedule_kind.name, pack_schedule};
}

