/* tournament.c: the schedule (series, openings, colours, seeds), the worker pool and the one writer. */
#include "arena/tournament.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arena/match.h"
#include "arena/rating_print.h"
#include "arena/rating_store.h"
#include "core/clock.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/rng.h"
#include "players/player.h"

#define ERR(...) snprintf(err, errlen, __VA_ARGS__)

/* ---- Configuration ---- */

int tournament_parse_openings(const char *text, int *plies, char *path, size_t pathlen,
                              char *err, size_t errlen) {
  if (!strncmp(text, "random:", 7) || !strcmp(text, "random")) {
    const char *n = text[6] ? text + 7 : "2";
    char *end;
    errno = 0;
    long x = strtol(n, &end, 10);
    if (errno || end == n || *end || x < 0 || x > 40) {
      ERR("openings: '%s': random:PLIES takes a number of plies from 0 to 40", text);
      return -1;
    }
    *plies = (int)x;
    if (path && pathlen) path[0] = '\0';
    return 0;
  }
  if (!strncmp(text, "file:", 5) && text[5]) {
    *plies = -1;
    snprintf(path, pathlen, "%s", text + 5);
    return 0;
  }
  ERR("openings: '%s' is neither random:PLIES nor file:PATH", text);
  return -1;
}

static int npairings(const tournament *t) {
  int n = t->run.nplayers;
  return strcmp(t->run.kind, "gauntlet") ? n * (n - 1) / 2 : n - 1;
}

/* Series number -> variant, round and the two players. */
static void series_identity(const tournament *t, int series_no, int *vi, int *round, int *a,
                            int *b) {
  int np = npairings(t);
  int pairing = series_no % np;
  int vr = series_no / np;
  *round = vr % t->run.rounds;
  *vi = vr / t->run.rounds;
  if (!strcmp(t->run.kind, "gauntlet")) {
    *a = 0;
    *b = pairing + 1;
    return;
  }
  int n = t->run.nplayers;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (pairing-- == 0) {
        *a = i;
        *b = j;
        return;
      }
}

static int load_openings(tournament *t, const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    ERR("openings: cannot open '%s': %s", path, strerror(errno));
    return -1;
  }
  char line[512];
  int n = 0, cap = 0, lineno = 0, rc = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    size_t l = strlen(line);
    while (l && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' ')) line[--l] = 0;
    if (!l || line[0] == '#') continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      for (int v = 0; v < t->run.nvariants; v++) {
        board *nb = realloc(t->opening_file[v], (size_t)cap * sizeof *nb);
        if (!nb) {
          ERR("openings: out of memory");
          rc = -1;
          goto out;
        }
        t->opening_file[v] = nb;
      }
    }
    for (int v = 0; v < t->run.nvariants; v++) {
      char perr[256];
      if (notation_parse_position(line, &t->variants[v], &t->opening_file[v][n], perr,
                                  sizeof perr)) {
        ERR("openings: %s line %d (variant %s): %s", path, lineno, t->run.variant[v], perr);
        rc = -1;
        goto out;
      }
      uint32_t legal;
      if (board_status(&t->opening_file[v][n], &t->variants[v], &legal) != BOARD_END_NONE) {
        ERR("openings: %s line %d: the game is already over in this position", path, lineno);
        rc = -1;
        goto out;
      }
    }
    n++;
  }
  if (!n && !rc) {
    ERR("openings: '%s' holds no position", path);
    rc = -1;
  }
out:
  fclose(f);
  t->opening_count = n;
  return rc;
}

int tournament_prepare(tournament *t, char *err, size_t errlen) {
  store_run *r = &t->run;
  for (int v = 0; v < STORE_MAX_VARIANTS; v++) t->opening_file[v] = NULL;
  if (r->nplayers < 2) {
    ERR("a tournament needs at least 2 players (got %d)", r->nplayers);
    return -1;
  }
  if (strcmp(r->kind, "round-robin") && strcmp(r->kind, "gauntlet")) {
    ERR("kind '%s': expected round-robin or gauntlet", r->kind);
    return -1;
  }
  if (r->rounds < 1 || r->threads < 1 || r->nvariants < 1) {
    ERR("rounds, threads and variants must be at least 1");
    return -1;
  }
  for (int v = 0; v < r->nvariants; v++)
    if (variant_parse(r->variant[v], &t->variants[v], err, errlen)) return -1;
  if (series_parse(r->format, &t->format, err, errlen)) return -1;
  char path[512];
  if (tournament_parse_openings(r->openings, &t->opening_plies, path, sizeof path, err, errlen))
    return -1;
  if (t->opening_plies < 0 && load_openings(t, path, err, errlen)) return -1;
  for (int i = 0; i < r->nplayers; i++) {
    char perr[512];
    player *p = player_create(r->player_spec[i], perr, sizeof perr);
    if (!p) {
      ERR("player %d (%s): %s", i + 1, r->player_name[i], perr);
      return -1;
    }
    player_free(p);
  }
  t->pairs_per_series = (series_max_games(&t->format) + 1) / 2;
  t->nseries = r->nvariants * r->rounds * npairings(t);
  if (t->sprt_on && (r->nplayers != 2 || t->format.kind != SERIES_GAMES)) {
    ERR("an SPRT takes two players and a games:N format (N is the cap)");
    return -1;
  }
  /* Ratings are stored about ten times along the run, for the charts. */
  long long most = (long long)t->nseries * series_max_games(&t->format);
  t->ratings_every = most >= 20 ? (int)((most + 9) / 10) : 0;
  return 0;
}

void tournament_free(tournament *t) {
  for (int v = 0; v < STORE_MAX_VARIANTS; v++) {
    free(t->opening_file[v]);
    t->opening_file[v] = NULL;
  }
}

void tournament_game_setup(const tournament *t, int series_no, int game_no, board *start,
                           int *a_is_south, uint64_t *seed) {
  int vi, round, a, b;
  series_identity(t, series_no, &vi, &round, &a, &b);
  const variant *v = &t->variants[vi];
  /* Openings are shared by every pairing and every variant: the k-th game
   * pair of each series of a round uses opening round * pairs_per_series + k. */
  long oi = (long)round * t->pairs_per_series + game_no / 2;
  if (t->opening_plies < 0) {
    *start = t->opening_file[vi][oi % t->opening_count];
  } else {
    /* The same draws under every variant: a study of variants compares
     * the same openings (identical where the boards are alike). */
    uint64_t os = rng_mix(rng_mix(t->run.seed, 0x6f70656e00ULL), (uint64_t)oi);
    board_random_opening(start, v, t->opening_plies, os);
  }
  *a_is_south = game_no % 2 == 0;
  /* The game's seed: from its series' place within its variant, so that
   * every variant plays the same pairings with the same seeds. */
  int per_variant = t->run.rounds * npairings(t);
  *seed = rng_mix(rng_mix(t->run.seed, 0x67616d6500ULL + (uint64_t)(series_no % per_variant)),
                  (uint64_t)game_no);
}

/* ---- The pool ---- */

/* A piece of work: games of one series, played in order by one worker. */
typedef struct unit {
  int series_no;
  int first_game;   /* the next game number to play */
  int last_game;    /* play up to this game number (games:N pairs), or -1:
                       until the series ends (other formats) */
  series_state state; /* the series so far (other formats) */
} unit;

/* A finished game on its way to the writer. */
typedef struct result {
  store_game g;
  char *moves; /* owned: freed by the writer */
} result;

typedef struct pool {
  tournament *t;
  atomic_int *stop;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unit *units;
  int nunits, next_unit;
  result *queue;
  int qlen, qcap;
  int running;        /* workers still working */
  atomic_int failed;  /* a worker hit a fatal error */
  char error[512];
} pool;

static void push_result(pool *pl, result *r) {
  pthread_mutex_lock(&pl->mu);
  if (pl->qlen == pl->qcap) {
    int ncap = pl->qcap ? 2 * pl->qcap : 256;
    result *nq = realloc(pl->queue, (size_t)ncap * sizeof *nq);
    if (!nq) {
      free(r->moves);
      if (!atomic_load(&pl->failed)) snprintf(pl->error, sizeof pl->error, "out of memory");
      atomic_store(&pl->failed, 1);
      pthread_mutex_unlock(&pl->mu);
      return;
    }
    pl->queue = nq;
    pl->qcap = ncap;
  }
  pl->queue[pl->qlen++] = *r;
  pthread_cond_signal(&pl->cv);
  pthread_mutex_unlock(&pl->mu);
}

static void fail(pool *pl, const char *msg) {
  pthread_mutex_lock(&pl->mu);
  if (!atomic_load(&pl->failed)) snprintf(pl->error, sizeof pl->error, "%s", msg);
  atomic_store(&pl->failed, 1);
  pthread_mutex_unlock(&pl->mu);
}

/* Plays one game of unit u with the worker's players; fills r. */
static int play_game(pool *pl, player **players, const unit *u, int game_no, result *r) {
  tournament *t = pl->t;
  int vi, round, a, b, a_south;
  uint64_t seed;
  board start;
  series_identity(t, u->series_no, &vi, &round, &a, &b);
  tournament_game_setup(t, u->series_no, game_no, &start, &a_south, &seed);
  char err[512];
  int ids[2] = {a, b};
  for (int k = 0; k < 2; k++) {
    if (players[ids[k]]) continue;
    players[ids[k]] = player_create(t->run.player_spec[ids[k]], err, sizeof err);
    if (!players[ids[k]]) {
      char msg[700];
      snprintf(msg, sizeof msg, "player %s: %s", t->run.player_name[ids[k]], err);
      fail(pl, msg);
      return -1;
    }
  }
  int south = a_south ? a : b, north = a_south ? b : a;
  game g;
  match_result mr;
  if (match_play(players[south], players[north], &t->variants[vi], &start, seed, &g, &mr, err,
                 sizeof err)) {
    fail(pl, err);
    return -1;
  }
  memset(r, 0, sizeof *r);
  r->moves = malloc((size_t)g.plies + 1);
  if (!r->moves) {
    game_free(&g);
    fail(pl, "out of memory");
    return -1;
  }
  for (int i = 0; i < g.plies; i++) r->moves[i] = notation_move_letter(&g.v, g.moves[i]);
  r->moves[g.plies] = '\0';
  store_game *s = &r->g;
  s->run_id = t->run.id;
  s->series_no = u->series_no;
  s->game_no = game_no;
  s->variant_idx = vi;
  s->round = round;
  s->a_idx = a;
  s->b_idx = b;
  s->south_idx = south;
  s->north_idx = north;
  notation_format_position(&start, &g.v, NULL, s->opening, sizeof s->opening);
  s->winner = mr.winner;
  s->score2[0] = mr.score2[0];
  s->score2[1] = mr.score2[1];
  s->plies = mr.plies;
  snprintf(s->end, sizeof s->end, "%s", match_end_name(mr.end));
  snprintf(s->detail, sizeof s->detail, "%s", mr.detail);
  s->seed = seed;
  s->seconds = mr.seconds;
  game_free(&g);
  return 0;
}

/* Result of a game for series A/B: 0 A won, 1 B won, -1 draw. */
static int ab_result(const store_game *g) {
  if (g->winner < 0) return -1;
  int winner_idx = g->winner == 0 ? g->south_idx : g->north_idx;
  return winner_idx == g->a_idx ? 0 : 1;
}

static void *worker(void *arg) {
  pool *pl = arg;
  tournament *t = pl->t;
  player **players = calloc((size_t)t->run.nplayers, sizeof *players);
  if (!players) fail(pl, "out of memory");
  while (players) {
    pthread_mutex_lock(&pl->mu);
    int stop = atomic_load(&pl->failed) || atomic_load(pl->stop) || pl->next_unit == pl->nunits;
    unit u = stop ? (unit){0} : pl->units[pl->next_unit++];
    pthread_mutex_unlock(&pl->mu);
    if (stop) break;
    for (int k = u.first_game; u.last_game < 0 || k <= u.last_game; k++) {
      if (atomic_load(pl->stop) || atomic_load(&pl->failed)) break;
      if (u.last_game < 0 && u.state.done) break;
      result r;
      if (play_game(pl, players, &u, k, &r)) break;
      if (u.last_game < 0) series_add(&u.state, &t->format, ab_result(&r.g));
      push_result(pl, &r);
    }
  }
  if (players) {
    for (int i = 0; i < t->run.nplayers; i++) player_free(players[i]);
    free(players);
  }
  pthread_mutex_lock(&pl->mu);
  pl->running--;
  pthread_cond_signal(&pl->cv);
  pthread_mutex_unlock(&pl->mu);
  return NULL;
}

/* ---- What is already stored (resume) ---- */

typedef struct pair_book pair_book;
typedef struct done_games {
  tournament *t;
  pair_book *pb;
  rating_pool *pool;
  series_state *states;  /* per series, from its stored games in order */
  unsigned char **bits;  /* per series: a bit per stored game (allocated lazily) */
  long long count;
} done_games;

static void pair_book_add(tournament *t, pair_book *pb, const store_game *g);

/* A game into the rating pool (players by index = pool index). */
static void pool_add_game(rating_pool *p, const store_game *g) {
  int s = g->south_idx, n = g->north_idx;
  rating_pool_add(p, s, n, g->winner == 0, g->winner < 0, g->winner == 1);
}

static int collect(void *ctx, const store_game *g) {
  done_games *d = ctx;
  if (g->series_no < 0 || g->series_no >= d->t->nseries) return 0;
  series_add(&d->states[g->series_no], &d->t->format, ab_result(g));
  pool_add_game(d->pool, g);
  pair_book_add(d->t, d->pb, g);
  int maxg = series_max_games(&d->t->format);
  if (g->game_no >= 0 && g->game_no < maxg) {
    if (!d->bits[g->series_no]) {
      d->bits[g->series_no] = calloc((size_t)maxg / 8 + 1, 1);
      if (!d->bits[g->series_no]) return 1;
    }
    d->bits[g->series_no][g->game_no / 8] |= (unsigned char)(1u << (g->game_no % 8));
  }
  d->count++;
  return 0;
}

static void progress(const tournament *t, long long done, long long total, long long fresh,
                     double t0, int final) {
  if (t->quiet || !isatty(STDERR_FILENO)) return;
  double el = clock_now() - t0, rate = el > 0 ? (double)fresh / el : 0;
  double left = rate > 0 ? (double)(total - done) / rate : 0;
  fprintf(stderr, "\r%lld/%lld games, %.1f games/s, %s %.0f s   ", done, total, rate,
          final ? "took" : "about", final ? el : left);
  if (final) fputc('\n', stderr);
}

/* Game pairs (same opening, colours swapped) for the SPRT: the first game's
 * result waits here for the second. */
typedef struct pair_book {
  signed char *first; /* per (series, pair): 0 none, else result + 2 (A's side) */
  int per_series;
} pair_book;

static void pair_book_add(tournament *t, pair_book *pb, const store_game *g) {
  if (!pb->first || g->a_idx != 0 || g->b_idx != 1) return;
  int r = ab_result(g); /* 0 A won, 1 B won, -1 draw */
  int res = r < 0 ? 0 : r == 0 ? 1 : -1;
  size_t at = (size_t)g->series_no * (size_t)pb->per_series + (size_t)(g->game_no / 2);
  if (!pb->first[at]) {
    pb->first[at] = (signed char)(res + 2);
  } else {
    rating_match_add_pair(&t->sprt_match, pb->first[at] - 2, res);
    pb->first[at] = 0;
  }
}

/* Stores the ratings of the run's players from the counts so far. */
static int checkpoint(tournament *t, store *db, const rating_pool *rp, long long games,
                      char *err, size_t errlen) {
  rating_result rr;
  rating_options opt = {0};
  int rc = 0;
  if (rating_fit(rp, &opt, &rr, err, errlen)) {
    rating_result_free(&rr);
    return -1;
  }
  store_rating *rows = calloc((size_t)rr.n, sizeof *rows);
  if (!rows) {
    snprintf(err, errlen, "out of memory");
    rc = -1;
  } else {
    char scope[64];
    snprintf(scope, sizeof scope, "run %lld (in progress)", (long long)t->run.id);
    rating_to_store(&rr, t->run.id, scope, rows);
    for (int i = 0; i < rr.n; i++) rows[i].games_total = games;
    rc = store_ratings_insert(db, rows, rr.n, err, errlen);
  }
  free(rows);
  rating_result_free(&rr);
  return rc;
}

int tournament_play(tournament *t, store *db, atomic_int *stop, char *err, size_t errlen) {
  const int maxg = series_max_games(&t->format);
  const int fixed = t->format.kind == SERIES_GAMES;
  done_games d = {t, NULL, NULL, NULL, NULL, 0};
  pool pl;
  memset(&pl, 0, sizeof pl);
  int rc = -1;
  pair_book pb = {NULL, t->pairs_per_series};
  rating_pool rpool;
  rating_pool_init(&rpool);
  for (int i = 0; i < t->run.nplayers; i++)
    if (rating_pool_player(&rpool, t->run.player_name[i]) != i) {
      ERR("out of memory");
      goto out;
    }
  memset(&t->sprt_match, 0, sizeof t->sprt_match);
  if (t->sprt_on) {
    pb.first = calloc((size_t)t->nseries * (size_t)t->pairs_per_series, 1);
    if (!pb.first) {
      ERR("out of memory");
      goto out;
    }
  }
  d.pb = &pb;
  d.pool = &rpool;
  d.states = calloc((size_t)t->nseries, sizeof *d.states);
  d.bits = calloc((size_t)t->nseries, sizeof *d.bits);
  if (!d.states || !d.bits) {
    ERR("out of memory");
    goto out;
  }
  for (int s = 0; s < t->nseries; s++) series_start(&d.states[s]);
  if (store_games_foreach(db, t->run.id, collect, &d, err, errlen)) goto out;
  if (t->sprt_on) {
    t->sprt_result = rating_sprt_test(&t->sprt, &t->sprt_match, 0);
    if (t->sprt_result.decision) { /* decided before the stop: nothing left to play */
      char serr[256];
      rc = store_run_status(db, t->run.id, "finished", serr, sizeof serr) ? -1 : 0;
      if (rc) ERR("%s", serr);
      goto out;
    }
  }

  /* The units: the games of each series that are not stored yet. */
  long long total = 0;
  pl.units = malloc(((size_t)t->nseries * (fixed ? (size_t)(maxg + 1) / 2 : 1)) * sizeof *pl.units);
  if (!pl.units) {
    ERR("out of memory");
    goto out;
  }
  for (int s = 0; s < t->nseries; s++) {
    if (fixed) {
      for (int k = 0; k < maxg; k += 2) {
        int last = k + 1 < maxg ? k + 1 : k, first = -1;
        for (int j = k; j <= last; j++) {
          int have = d.bits[s] && (d.bits[s][j / 8] >> (j % 8) & 1);
          if (!have && first < 0) first = j;
          if (!have) total++;
        }
        if (first < 0) continue;
        /* A pair with its first game stored plays only the second. */
        unit u = {s, first, last, {0}};
        series_start(&u.state);
        pl.units[pl.nunits++] = u;
      }
    } else {
      series_state st = d.states[s];
      if (st.done) continue;
      unit u = {s, st.games, -1, st};
      pl.units[pl.nunits++] = u;
      total += maxg - st.games;
    }
  }
  long long stored = d.count;
  total += stored;
  if (t->ratings_every < 0) t->ratings_every = 0;

  /* The pool: workers play, this thread writes. */
  if (pthread_mutex_init(&pl.mu, NULL) || pthread_cond_init(&pl.cv, NULL)) {
    ERR("cannot create a mutex");
    goto out;
  }
  pl.t = t;
  pl.stop = stop;
  int nthreads = t->run.threads < pl.nunits ? t->run.threads : pl.nunits;
  pthread_t *tid = calloc((size_t)(nthreads > 0 ? nthreads : 1), sizeof *tid);
  if (!tid) {
    ERR("out of memory");
    goto out_sync;
  }
  int started = 0;
  pl.running = nthreads;
  for (; started < nthreads; started++)
    if (pthread_create(&tid[started], NULL, worker, &pl)) {
      pthread_mutex_lock(&pl.mu);
      pl.running -= nthreads - started;
      atomic_store(&pl.failed, 1);
      snprintf(pl.error, sizeof pl.error, "cannot start a worker thread");
      pthread_mutex_unlock(&pl.mu);
      break;
    }
  double t0 = clock_now();
  long long fresh = 0;
  int write_failed = 0;
  for (;;) {
    pthread_mutex_lock(&pl.mu);
    while (pl.qlen == 0 && pl.running > 0) pthread_cond_wait(&pl.cv, &pl.mu);
    int n = pl.qlen, running = pl.running;
    result *batch = NULL;
    if (n) {
      batch = pl.queue;
      pl.queue = NULL;
      pl.qlen = pl.qcap = 0;
    }
    pthread_mutex_unlock(&pl.mu);
    if (n) {
      store_game *gs = malloc((size_t)n * sizeof *gs);
      if (!gs) {
        write_failed = 1;
        ERR("out of memory");
      } else if (!write_failed) {
        for (int i = 0; i < n; i++) {
          gs[i] = batch[i].g;
          gs[i].moves = batch[i].moves;
        }
        /* One transaction for the batch: a game counts as done once committed. */
        if (store_games_insert(db, gs, n, err, errlen)) {
          write_failed = 1;
          atomic_store(stop, 1);
        } else {
          long long before = stored;
          stored += n;
          fresh += n;
          for (int i = 0; i < n; i++) {
            pool_add_game(&rpool, &gs[i]);
            pair_book_add(t, &pb, &gs[i]);
            series_state *st = &d.states[gs[i].series_no];
            int was_done = st->done;
            series_add(st, &t->format, ab_result(&gs[i]));
            if (st->done && !was_done) {
              store_series sr = {t->run.id, gs[i].series_no, gs[i].variant_idx, gs[i].round,
                                 gs[i].a_idx, gs[i].b_idx, st->games, st->wins[0], st->wins[1],
                                 st->draws, st->winner};
              if (store_series_finish(db, &sr, err, errlen)) {
                write_failed = 1;
                atomic_store(stop, 1);
              }
            }
          }
          if (!write_failed && t->ratings_every > 0 &&
              stored / t->ratings_every != before / t->ratings_every &&
              checkpoint(t, db, &rpool, stored, err, errlen)) {
            write_failed = 1;
            atomic_store(stop, 1);
          }
          if (t->sprt_on && !t->sprt_result.decision) {
            t->sprt_result = rating_sprt_test(&t->sprt, &t->sprt_match, 0);
            if (!t->quiet)
              fprintf(stderr, "%sSPRT: LLR %.3f (%.3f, %.3f), %lld pairs%s\n",
                      isatty(STDERR_FILENO) ? "\r" : "", t->sprt_result.llr, t->sprt_result.lower,
                      t->sprt_result.upper,
                      t->sprt_match.penta[0] + t->sprt_match.penta[1] + t->sprt_match.penta[2] +
                          t->sprt_match.penta[3] + t->sprt_match.penta[4],
                      t->sprt_result.decision ? ": decided" : "");
            if (t->sprt_result.decision) atomic_store(stop, 1);
          }
        }
        free(gs);
      }
      for (int i = 0; i < n; i++) free(batch[i].moves);
      free(batch);
      progress(t, stored, total, fresh, t0, 0);
    }
    if (!n && running == 0) break;
  }
  for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
  free(tid);
  progress(t, stored, total, fresh, t0, 1);
  if (write_failed) {
    rc = -1;
  } else if (atomic_load(&pl.failed)) {
    ERR("%s", pl.error);
    rc = -1;
  } else {
    int complete = 1;
    for (int s = 0; s < t->nseries && complete; s++) {
      if (fixed) complete = d.states[s].games >= maxg;
      else complete = d.states[s].done;
    }
    rc = complete || (t->sprt_on && t->sprt_result.decision) ? 0 : 1;
  }
  {
    char serr[256];
    const char *status = rc == 0 ? "finished" : rc == 1 ? "interrupted" : "failed";
    if (store_run_status(db, t->run.id, status, serr, sizeof serr) && rc >= 0) {
      ERR("%s", serr);
      rc = -1;
    }
  }
out_sync:
  pthread_mutex_destroy(&pl.mu);
  pthread_cond_destroy(&pl.cv);
out:
  for (int i = 0; i < pl.qlen; i++) free(pl.queue[i].moves);
  free(pl.queue);
  free(pl.units);
  if (d.bits)
    for (int s = 0; s < t->nseries; s++) free(d.bits[s]);
  free(d.bits);
  free(d.states);
  free(pb.first);
  rating_pool_free(&rpool);
  return rc;
}

/* ---- Ratings ---- */

int tournament_print_ratings(store *db, int64_t run_id, const tournament *t, FILE *out,
                             char *err, size_t errlen) {
  (void)t; /* the SPRT's own line, at its decision, is printed by the caller */
  fputc('\n', out);
  return rating_print_run(db, run_id, out, 1, NULL, err, errlen);
}

/* ---- Standings ---- */

typedef struct tally {
  int n;
  long long *w, *d, *l; /* [i * n + j]: results of i against j */
} tally;

static int count_game(void *ctx, const store_game *g) {
  tally *t = ctx;
  int s = g->south_idx, n = g->north_idx;
  if (s < 0 || n < 0 || s >= t->n || n >= t->n) return 0;
  if (g->winner < 0) {
    t->d[s * t->n + n]++;
    t->d[n * t->n + s]++;
  } else {
    int w = g->winner == 0 ? s : n, l = g->winner == 0 ? n : s;
    t->w[w * t->n + l]++;
    t->l[l * t->n + w]++;
  }
  return 0;
}

int tournament_print_standings(store *db, int64_t run_id, FILE *out, char *err,
                               size_t errlen) {
  store_run *r = malloc(sizeof *r);
  if (!r) {
    ERR("out of memory");
    return -1;
  }
  if (store_run_load(db, run_id, r, err, errlen)) {
    free(r);
    return -1;
  }
  int n = r->nplayers, rc = -1;
  tally t = {n, calloc((size_t)(n * n), sizeof(long long)), calloc((size_t)(n * n), sizeof(long long)),
             calloc((size_t)(n * n), sizeof(long long))};
  int *order = calloc((size_t)n, sizeof *order);
  double *pts = calloc((size_t)n, sizeof *pts);
  long long *games = calloc((size_t)n, sizeof *games);
  if (!t.w || !t.d || !t.l || !order || !pts || !games) {
    ERR("out of memory");
    goto done;
  }
  if (store_games_foreach(db, run_id, count_game, &t, err, errlen)) goto done;
  int width = 6;
  for (int i = 0; i < n; i++) {
    order[i] = i;
    for (int j = 0; j < n; j++) {
      pts[i] += (double)t.w[i * n + j] + 0.5 * (double)t.d[i * n + j];
      games[i] += t.w[i * n + j] + t.d[i * n + j] + t.l[i * n + j];
    }
    int l = (int)strlen(r->player_name[i]);
    if (l > width) width = l < 40 ? l : 40;
  }
  for (int i = 1; i < n; i++) /* by points, then by name */
    for (int j = i; j > 0; j--) {
      int a = order[j - 1], b = order[j];
      if (pts[a] < pts[b] || (pts[a] == pts[b] && strcmp(r->player_name[a], r->player_name[b]) > 0)) {
        order[j - 1] = b;
        order[j] = a;
      }
    }
  fprintf(out, "Run %lld (%s, %s): standings\n", (long long)run_id, r->name, r->status);
  fprintf(out, "%4s  %-*s %7s %7s %7s %7s %8s %7s\n", "rank", width, "player", "games", "wins",
          "draws", "losses", "points", "score%");
  for (int k = 0; k < n; k++) {
    int i = order[k];
    long long w = 0, dr = 0, l = 0;
    for (int j = 0; j < n; j++) w += t.w[i * n + j], dr += t.d[i * n + j], l += t.l[i * n + j];
    fprintf(out, "%4d  %-*.*s %7lld %7lld %7lld %7lld %8.1f %6.1f%%\n", k + 1, width, width,
            r->player_name[i], games[i], w, dr, l, pts[i],
            games[i] ? 100.0 * pts[i] / (double)games[i] : 0.0);
  }
  fprintf(out, "\nCross table: points scored by the row player against the column player (games)\n");
  fprintf(out, "%-*s", width + 6, "");
  for (int k = 0; k < n; k++) fprintf(out, " %12d", k + 1);
  fputc('\n', out);
  for (int k = 0; k < n; k++) {
    int i = order[k];
    fprintf(out, "%4d  %-*.*s", k + 1, width, width, r->player_name[i]);
    for (int c = 0; c < n; c++) {
      int j = order[c];
      long long g = t.w[i * n + j] + t.d[i * n + j] + t.l[i * n + j];
      if (i == j || !g) {
        fprintf(out, " %12s", i == j ? "x" : "-");
      } else {
        char cell[32];
        snprintf(cell, sizeof cell, "%.1f (%lld)", (double)t.w[i * n + j] + 0.5 * (double)t.d[i * n + j], g);
        fprintf(out, " %12s", cell);
      }
    }
    fputc('\n', out);
  }
  rc = 0;
done:
  free(t.w);
  free(t.d);
  free(t.l);
  free(order);
  free(pts);
  free(games);
  free(r);
  return rc;
}
