/* test_players.c: the player interface, specs, weights, random/greedy/minimax behaviour and strength. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tests/fixture.h"

#include "run/match.h"
#include "core/clock.h"
#include "core/notation.h"
#include "core/rng.h"
#include "players/eval.h"
#include "players/player.h"

static const char *const variants[] = {"abapa",          "grandslam-forbidden",
                                       "grandslam-all",  "grandslam-win",
                                       "auale",          "awari",
                                       "houses=4,seeds=3", "houses=5,seeds=6,lap=fill",
                                       NULL};

static player *make(const char *spec) {
  char err[512];
  player *p = player_create(spec, err, sizeof err);
  if (!p) fail_msg("player_create(%s): %s", spec, err);
  return p;
}

static variant var(const char *text) {
  variant v;
  char err[256];
  if (variant_parse(text, &v, err, sizeof err)) fail_msg("%s", err);
  return v;
}

/* A position reached by `plies` random legal moves from the start. */
static board opening(const variant *v, uint64_t seed, int plies) {
  board b;
  board_random_opening(&b, v, plies, seed);
  return b;
}

/* ---- Specs and options ---- */

static void expect_spec_error(const char *spec, const char *needle) {
  char err[512];
  player *p = player_create(spec, err, sizeof err);
  if (p) {
    player_free(p);
    fail_msg("spec '%s' was accepted", spec);
  }
  if (!strstr(err, needle)) fail_msg("spec '%s': message '%s' lacks '%s'", spec, err, needle);
}

static void test_spec_errors(void **state) {
  (void)state;
  expect_spec_error("", "empty");
  expect_spec_error("alphazero", "unknown player type 'alphazero'");
  expect_spec_error("minimax:depht=4", "unknown option 'depht'");
  /* The list names every option the type takes, tc= too. */
  expect_spec_error("random:depth=3", "unknown option 'depth' for player type random; options: seed, name, tc");
  expect_spec_error("minimax:depth=0", "'depth'");
  expect_spec_error("minimax:depth=999", "from 1 to");
  expect_spec_error("minimax:depth=four", "'four'");
  expect_spec_error("minimax:depth=4,", "trailing");
  expect_spec_error("minimax:depth=4,depth=5", "twice");
  expect_spec_error("minimax:depth", "not key=value");
  expect_spec_error("minimax:", "nothing after");
  expect_spec_error("minimax:noise=-1", "'noise'");
  expect_spec_error("minimax:noise=nan", "'noise'");
  expect_spec_error("random:seed=-3", "'seed'");
  expect_spec_error("random:seed=12x", "'seed'");
  expect_spec_error("minimax:weights=/nonexistent/w.txt", "cannot open");
  expect_spec_error("plugin:foo=1", "path=");
  expect_spec_error("plugin:path=/nonexistent/libx.so", "cannot load");
}

static void test_spec_values(void **state) {
  (void)state;
  player *p = make("minimax:depth=5,seed=42,name=Deep Five");
  assert_string_equal(p->name, "Deep Five");
  assert_int_equal(p->seed, 42);
  assert_int_equal(player_config_int(&p->config, "depth"), 5);
  assert_int_equal(player_config_int(&p->config, "hash"), 16); /* the default */
  assert_true(player_config_isset(&p->config, "depth"));
  assert_false(player_config_isset(&p->config, "hash"));
  player_free(p);
  p = make("greedy");
  assert_string_equal(p->name, "greedy"); /* names default to the spec */
  player_free(p);
}

/* ---- Weights files ---- */

static void expect_weights_error(const char *text, const char *needle) {
  eval_weights w;
  char err[512];
  eval_default(&w);
  if (!eval_parse(text, &w, err, sizeof err)) fail_msg("weights '%s' were accepted", text);
  if (!strstr(err, needle)) fail_msg("weights '%s': '%s' lacks '%s'", text, err, needle);
}

static void test_weights(void **state) {
  (void)state;
  expect_weights_error("store 100\nbogus 3\n", "line 2: unknown feature 'bogus'");
  expect_weights_error("store abc\n", "line 1: value 'abc'");
  expect_weights_error("store\n", "no value");
  expect_weights_error("store 1 2\n", "unexpected '2'");
  expect_weights_error("store 1\nstore 2\n", "twice");
  expect_weights_error("store 1e400\n", "not a number");
  eval_weights w;
  char err[512];
  eval_default(&w);
  assert_int_equal(eval_parse("# comment\n\nstore 150 # trailing\nthreat -7.5\n", &w, err,
                              sizeof err),
                   0);
  assert_true(w.w[EVAL_STORE] == 150 && w.w[EVAL_THREAT] == -7.5);
  assert_true(w.w[EVAL_SEEDS] == eval_features[EVAL_SEEDS].def); /* others keep defaults */
  /* Written weights read back the same. */
  char path[] = "/tmp/oware-weights-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_int_equal(eval_write(f, &w), 0);
  fclose(f);
  eval_weights r;
  eval_default(&r);
  assert_int_equal(eval_load(path, &r, err, sizeof err), 0);
  for (int i = 0; i < EVAL_N; i++) assert_true(r.w[i] == w.w[i]);
  char spec[128];
  snprintf(spec, sizeof spec, "minimax:depth=2,weights=%s", path);
  player *p = make(spec);
  player_free(p);
  remove(path);
}

/* The parameter hook: minimax takes every weight by its feature name and
 * its numeric options, mcts its playouts and c, a plug-in its own; the
 * generic checks name the player and the parameter. */
static void test_params(void **state) {
  (void)state;
  variant v = var("abapa");
  char err[512];
  int m1, m2;
  player_info i1, i2;
  /* minimax lists every evaluation feature and its limits. */
  player *a = make("minimax:depth=5,hash=1");
  for (int i = 0; i < EVAL_N; i++) {
    const player_param_info *pi = player_find_param(a, eval_features[i].name);
    assert_non_null(pi);
    assert_true(pi->tune_lo == eval_features[i].lo && pi->tune_hi == eval_features[i].hi);
  }
  assert_non_null(player_find_param(a, "depth"));
  assert_non_null(player_find_param(a, "noise"));
  /* A parameter that is also an option has the option's range and kind,
   * and a tuning range inside it (players/player.h: PLAYER_PARAM_OF). */
  player *mc0 = make("mcts:playouts=10");
  const player *both[] = {a, mc0};
  int shared = 0;
  for (int k = 0; k < 2; k++)
    for (const player_param_info *pi = player_params(both[k]); pi->name; pi++)
      for (const player_option *o = both[k]->type->options; o->name; o++) {
        if (strcmp(o->name, pi->name)) continue;
        shared++;
        if (pi->lo != o->lo || pi->hi != o->hi || pi->integer != (o->type == PLAYER_OPT_INT) ||
            strcmp(pi->help, o->help) || !(o->lo <= pi->tune_lo && pi->tune_hi <= o->hi))
          fail_msg("%s: parameter %s differs from its option", both[k]->type->name, pi->name);
      }
  assert_int_equal(shared, 8); /* depth, nodes, movetime, noise; playouts, movetime, c, solver */
  player_free(mc0);
  /* Weights set through the hook play as the same weights loaded from a file. */
  eval_weights w;
  eval_default(&w);
  w.w[EVAL_STORE] = 150, w.w[EVAL_KROO] = -20, w.w[EVAL_THREAT] = -3;
  char path[] = "/tmp/oware-params-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_int_equal(eval_write(f, &w), 0);
  fclose(f);
  char spec[128];
  snprintf(spec, sizeof spec, "minimax:depth=5,hash=1,weights=%s", path);
  player *b = make(spec);
  player *d = make("minimax:depth=5,hash=1"); /* the defaults, for contrast */
  player_param wp[EVAL_N];
  eval_params(&w, wp);
  assert_int_equal(player_set_params(a, wp, EVAL_N, err, sizeof err), 0);
  int differs = 0;
  for (int k = 0; k < 20; k++) {
    game g;
    board start = opening(&v, 900 + (uint64_t)k, 6 + k % 7);
    assert_int_equal(game_init(&g, &v, &start), 0);
    if (g.end != BOARD_END_NONE) {
      game_free(&g);
      continue;
    }
    assert_int_equal(player_new_game(a, &v, 1, err, sizeof err), 0);
    assert_int_equal(player_new_game(b, &v, 1, err, sizeof err), 0);
    assert_int_equal(player_new_game(d, &v, 1, err, sizeof err), 0);
    assert_int_equal(player_choose(a, &g, NULL, &m1, &i1, err, sizeof err), PLAYER_OK);
    assert_int_equal(player_choose(b, &g, NULL, &m2, &i2, err, sizeof err), PLAYER_OK);
    assert_int_equal(m1, m2);
    assert_int_equal(i1.nodes, i2.nodes);
    assert_int_equal(i1.score, i2.score);
    assert_int_equal(player_choose(d, &g, NULL, &m2, &i2, err, sizeof err), PLAYER_OK);
    differs += i1.score != i2.score || i1.nodes != i2.nodes;
    game_free(&g);
  }
  assert_true(differs > 0);
  remove(path);
  /* A numeric option: the depth of the next search. */
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  assert_int_equal(player_set_param(a, "depth", 3, err, sizeof err), 0);
  assert_int_equal(player_choose(a, &g, NULL, &m1, &i1, err, sizeof err), PLAYER_OK);
  assert_int_equal(i1.depth, 3);
  assert_int_equal(player_set_param(a, "nodes", 1234, err, sizeof err), 0);
  assert_int_equal(player_set_param(a, "depth", 20, err, sizeof err), 0);
  assert_int_equal(player_choose(a, &g, NULL, &m1, &i1, err, sizeof err), PLAYER_OK);
  assert_int_equal(i1.nodes, 1234);
  /* Errors name the player and the parameter. */
  assert_int_equal(player_set_param(a, "bogus", 1, err, sizeof err), -1);
  assert_non_null(strstr(err, "no parameter 'bogus'"));
  assert_non_null(strstr(err, "store"));
  assert_int_equal(player_set_param(a, "depth", 0, err, sizeof err), -1);
  assert_non_null(strstr(err, "depth = 0 is outside"));
  player_free(a);
  player_free(b);
  player_free(d);
  player *gr = make("greedy");
  assert_null(player_params(gr)->name);
  assert_int_equal(player_set_params(gr, wp, EVAL_N, err, sizeof err), -1);
  assert_non_null(strstr(err, "takes no parameters"));
  /* greedy's score is a search of one ply's: kept in a game's records */
  assert_int_equal(player_new_game(gr, &v, 1, err, sizeof err), 0);
  assert_int_equal(player_choose(gr, &g, NULL, &m1, &i1, err, sizeof err), PLAYER_OK);
  assert_int_equal(i1.scored, 1);
  assert_int_equal(i1.depth, 1);
  player_free(gr);
  /* mcts: playouts. */
  player *mc = make("mcts:playouts=100");
  assert_int_equal(player_set_param(mc, "playouts", 321, err, sizeof err), 0);
  assert_int_equal(player_set_param(mc, "c", 0.7, err, sizeof err), 0);
  assert_int_equal(player_new_game(mc, &v, 1, err, sizeof err), 0);
  assert_int_equal(player_choose(mc, &g, NULL, &m1, &i1, err, sizeof err), PLAYER_OK);
  assert_int_equal(i1.playouts, 321);
  player_free(mc);
  game_free(&g);
  /* The example plug-in: its parameter `most` changes the house it plays. */
  player *pl = make("plugin:path=" OWARE_PLUGIN_EXAMPLE ",prefer=fewest");
  assert_string_equal(player_params(pl)->name, "most");
  board pos;
  assert_int_equal(notation_parse_position("1-2-5-3-7-6-4-4-4-4-4-4-0-0-S", &v, &pos, err,
                                           sizeof err),
                   0);
  assert_int_equal(game_init(&g, &v, &pos), 0);
  assert_int_equal(player_choose(pl, &g, NULL, &m1, NULL, err, sizeof err), PLAYER_OK);
  assert_int_equal(m1, 0); /* A, the emptiest */
  assert_int_equal(player_set_param(pl, "most", 1, err, sizeof err), 0);
  assert_int_equal(player_choose(pl, &g, NULL, &m1, NULL, err, sizeof err), PLAYER_OK);
  assert_int_equal(m1, 4); /* E, the fullest */
  assert_int_equal(player_set_param(pl, "most", 2, err, sizeof err), -1);
  game_free(&g);
  player_free(pl);
}

/* The SWAR evaluation against a plain loop over the houses. */
static void plain_features(const board *b, const variant *v, int f[EVAL_N]) {
  const int H = v->houses, s = b->side;
  const uint8_t *own = b->pit + s * H, *opp = b->pit + (1 - s) * H;
  memset(f, 0, EVAL_N * sizeof *f);
  f[EVAL_STORE] = b->store[s] - b->store[1 - s];
  for (int r = 0; r < H; r++) {
    int a = own[r], o = opp[r];
    f[EVAL_SEEDS] += a - o;
    f[EVAL_TARGETS] += (a == 1 || a == 2) - (o == 1 || o == 2);
    f[EVAL_EMPTY] += (a == 0) - (o == 0);
    f[EVAL_KROO] += (a >= 12) - (o >= 12);
    f[EVAL_KROO_SEEDS] += (a >= 12 ? a : 0) - (o >= 12 ? o : 0);
    f[EVAL_MOBILITY] += (a >= H - r) - (o >= H - r);
    if (r >= H - 2) f[EVAL_RIGHT] += a - o;
  }
  for (int side = 0; side < 2; side++) {
    int best = 0;
    for (int r = 0; r < H; r++) {
      int m = side * H + r;
      if (!b->pit[m]) continue;
      board c = *b;
      c.side = (uint8_t)side;
      int t = board_play(&c, v, m);
      if (t > best) best = t;
    }
    f[side == s ? EVAL_CAPTURE : EVAL_THREAT] = best;
  }
}

static void test_eval_features(void **state) {
  (void)state;
  rng r;
  rng_seed(&r, 99);
  for (int vi = 0; variants[vi]; vi++) {
    variant v = var(variants[vi]);
    for (int k = 0; k < 3000; k++) {
      /* A random deal of the seeds (stores included), either side to move. */
      int pits[VARIANT_MAX_PITS] = {0}, stores[2] = {0, 0};
      for (int t = 0; t < v.total; t++) {
        int q = (int)rng_below(&r, (uint32_t)v.pits + 2);
        if (q < v.pits) pits[q]++;
        else stores[q - v.pits]++;
      }
      board b;
      board_set(&b, &v, pits, stores, (int)rng_below(&r, 2));
      int f[EVAL_N], g[EVAL_N];
      eval_compute(&b, &v, f);
      plain_features(&b, &v, g);
      for (int i = 0; i < EVAL_N; i++)
        if (f[i] != g[i]) {
          char pos[NOTATION_POSITION_MAX];
          notation_format_position(&b, &v, NULL, pos, sizeof pos);
          fail_msg("%s %s: feature %s is %d, plainly %d", variants[vi], pos,
                   eval_features[i].name, f[i], g[i]);
        }
    }
  }
}

/* ---- Legality and determinism on every variant ---- */

static void test_legal_everywhere(void **state) {
  (void)state;
  const char *specs[] = {"random", "greedy", "minimax:depth=3", "minimax:depth=2,noise=3",
                         "minimax:nodes=500", "minimax:depth=3,qs=0", "minimax:depth=1,qs=64",
                         NULL};
  player *opp = make("random:seed=5");
  for (int vi = 0; variants[vi]; vi++) {
    variant v = var(variants[vi]);
    for (int si = 0; specs[si]; si++) {
      player *p = make(specs[si]);
      for (int k = 0; k < 4; k++) {
        game g;
        outcome res;
        char err[256];
        player *s = k % 2 ? opp : p, *n = k % 2 ? p : opp;
        assert_int_equal(match_play(s, n, &v, NULL, (uint64_t)k, &g, &res, err, sizeof err), 0);
        if (res.end >= OUTCOME_FORFEIT_TIMEOUT)
          fail_msg("%s on %s: %s (%s)", specs[si], variants[vi], outcome_end_name(res.end),
                   res.detail);
        assert_true(g.end != BOARD_END_NONE);
        game_free(&g);
      }
      player_free(p);
    }
  }
  player_free(opp);
}

static int first_move(player *p, const game *g) {
  int m;
  char err[256];
  assert_int_equal(player_choose(p, g, NULL, &m, NULL, err, sizeof err), PLAYER_OK);
  return m;
}

static void test_deterministic(void **state) {
  (void)state;
  variant v = var("abapa");
  const char *specs[] = {"random:seed=7", "greedy:seed=7", "minimax:depth=5,noise=2,seed=7",
                         "minimax:depth=4,qs=64", "minimax:nodes=3000", NULL};
  for (int si = 0; specs[si]; si++) {
    for (int k = 0; k < 40; k++) {
      board b = opening(&v, 1000 + (uint64_t)k, 7);
      game g;
      assert_int_equal(game_init(&g, &v, &b), 0);
      player *a = make(specs[si]), *c = make(specs[si]);
      player_new_game(a, &v, 11, NULL, 0);
      player_new_game(c, &v, 11, NULL, 0);
      int m1 = first_move(a, &g), m2 = first_move(c, &g);
      /* A second search by the same player starts a new game first: minimax's
       * hash table keeps what the searches of the game found, and with
       * reductions that can change a later search (player.h). */
      player_new_game(a, &v, 11, NULL, 0);
      int m3 = first_move(a, &g);
      assert_int_equal(m1, m2);
      assert_int_equal(m1, m3);
      player_free(a);
      player_free(c);
      game_free(&g);
    }
  }
  /* Different seeds do give different choices somewhere. */
  player *a = make("random:seed=1"), *c = make("random:seed=2");
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  int differ = 0;
  for (uint64_t gs = 0; gs < 20; gs++) {
    player_new_game(a, &v, gs, NULL, 0);
    player_new_game(c, &v, gs, NULL, 0);
    differ += first_move(a, &g) != first_move(c, &g);
  }
  assert_true(differ > 0);
  game_free(&g);
  player_free(a);
  player_free(c);
}

static void test_limits(void **state) {
  (void)state;
  variant v = var("abapa");
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  char err[256];
  int m;
  player_info info;
  /* Node limits are exact: the search stops on the limit. */
  const long long limits[] = {1, 37, 1000, 54321};
  for (int i = 0; i < 4; i++) {
    char spec[64];
    snprintf(spec, sizeof spec, "minimax:nodes=%lld", limits[i]);
    player *p = make(spec);
    assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
    assert_int_equal(info.nodes, limits[i]);
    player_free(p);
  }
  /* A per-move limit overrides the spec. */
  player *p = make("minimax:depth=3");
  player_limits lim = {.nodes = 777};
  assert_int_equal(player_choose(p, &g, &lim, &m, &info, err, sizeof err), PLAYER_OK);
  assert_int_equal(info.nodes, 777);
  lim = (player_limits){.depth = 7};
  assert_int_equal(player_choose(p, &g, &lim, &m, &info, err, sizeof err), PLAYER_OK);
  assert_int_equal(info.depth, 7);
  player_free(p);
  /* Time: 100 ms is honoured loosely. */
  p = make("minimax:movetime=100");
  double t0 = clock_now();
  assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
  double t = clock_now() - t0;
  assert_true(t >= 0.09 && t < 1.0);
  assert_true(info.depth >= 4);
  player_free(p);
  game_free(&g);
}

/* ---- minimax against a plain, unpruned negamax ---- */

typedef struct plain {
  long long rep_ends, ply_ends; /* how often these ends were met */
  const variant *v;
  int w[EVAL_N];
  uint64_t keys[256]; /* positions since the last capture, game then path */
  int base_plies;
} plain;

static int plain_negamax(plain *s, const board *b, int depth, int ply, int irrev, int top) {
  uint32_t legal;
  board_end e = board_status(b, s->v, &legal);
  if (e == BOARD_END_NONE && ply > 0) {
    int n = 0;
    for (int i = top; i >= irrev; i -= 2) n += s->keys[i] == b->key;
    if (s->v->repetition && n >= s->v->repetition) {
      e = BOARD_END_REPETITION;
      s->rep_ends++;
    } else if (s->v->max_plies && s->base_plies + ply >= s->v->max_plies) {
      e = BOARD_END_PLY_LIMIT;
      s->ply_ends++;
    }
  }
  if (e != BOARD_END_NONE) {
    int sc[2];
    board_final(b, s->v, e, sc);
    int d = sc[b->side] - sc[1 - b->side];
    return d > 0 ? PLAYER_WIN - ply : d < 0 ? -PLAYER_WIN + ply : 0;
  }
  if (depth == 0) {
    int f[EVAL_N];
    eval_compute(b, s->v, f);
    return eval_dot(s->w, f);
  }
  int best = -PLAYER_WIN - 1;
  for (; legal; legal &= legal - 1) {
    board c = *b;
    int taken = board_play(&c, s->v, __builtin_ctz(legal));
    s->keys[top + 1] = c.key;
    int sc = -plain_negamax(s, &c, depth - 1, ply + 1, taken ? top + 1 : irrev, top + 1);
    if (sc > best) best = sc;
  }
  return best;
}

static void test_minimax_equals_negamax(void **state) {
  (void)state;
  /* Small boards with few seeds make repetitions and the ply limit happen
   * inside the search, with the game's history before the root. */
  const char *vs[] = {"abapa",
                      "auale",
                      "grandslam-win,houses=4,seeds=3",
                      "awari,max_plies=30",
                      "auale,houses=3,seeds=1",
                      "abapa,houses=3,seeds=2,cycle=split",
                      "abapa,houses=4,seeds=1,max_plies=40",
                      NULL};
  rng r;
  rng_seed(&r, 4242);
  int checked = 0;
  long long rep_ends = 0, ply_ends = 0;
  for (int vi = 0; vs[vi]; vi++) {
    variant v = var(vs[vi]);
    player *p = make("minimax:hash=0,lmr=0,rfp=0,qs=0,ending=off");
    for (int k = 0; k < 40; k++) {
      /* A position deep in a random game, with its history for repetition. */
      game g;
      assert_int_equal(game_init(&g, &v, NULL), 0);
      int plies = 5 + (int)rng_below(&r, 30);
      while (g.end == BOARD_END_NONE && g.plies < plies) {
        uint32_t l = g.legal;
        for (uint32_t j = rng_below(&r, (uint32_t)__builtin_popcount(l)); j; j--) l &= l - 1;
        game_play(&g, __builtin_ctz(l));
      }
      if (g.end != BOARD_END_NONE || g.hist_len > 100) {
        game_free(&g);
        continue;
      }
      plain s = {.v = &v, .base_plies = g.plies};
      eval_weights w;
      eval_default(&w);
      for (int i = 0; i < EVAL_N; i++) s.w[i] = (int)w.w[i];
      memcpy(s.keys, g.hist, (size_t)g.hist_len * sizeof *g.hist);
      int maxd = v.houses <= 4 ? 8 : 5;
      for (int d = 1; d <= maxd; d++) {
        int want = plain_negamax(&s, &g.pos, d, 0, 0, g.hist_len - 1);
        player_limits lim = {.depth = d};
        player_info info;
        int m;
        char err[256];
        assert_int_equal(player_choose(p, &g, &lim, &m, &info, err, sizeof err), PLAYER_OK);
        if (info.score != want) {
          char pos[NOTATION_POSITION_MAX];
          notation_format_position(&g.pos, &v, NULL, pos, sizeof pos);
          fail_msg("%s %s depth %d: minimax %d, negamax %d", vs[vi], pos, d, info.score, want);
        }
        checked++;
      }
      game_free(&g);
      rep_ends += s.rep_ends;
      ply_ends += s.ply_ends;
    }
    player_free(p);
  }
  printf("minimax = negamax: %d searches compared; %lld repetition and %lld ply-limit ends "
         "inside them\n", checked, rep_ends, ply_ends);
  assert_true(checked >= 600 && rep_ends >= 50 && ply_ends >= 50);
}

/* Depth-1 score of spec at position text of variant vt (no quiescence). */
static int depth1_score(const char *vt, const char *text, const char *ending) {
  variant v = var(vt);
  board b;
  char err[256], spec[512];
  if (notation_parse_position(text, &v, &b, err, sizeof err)) fail_msg("%s", err);
  game g;
  assert_int_equal(game_init(&g, &v, &b), 0);
  snprintf(spec, sizeof spec, "minimax:depth=1,qs=0,ending=%s", ending);
  player *p = make(spec);
  assert_int_equal(player_new_game(p, &v, 0, err, sizeof err), 0);
  int m;
  player_info info;
  assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
  player_free(p);
  game_free(&g);
  return info.score;
}

/* ending=: the correction is added where the table has the leaf's seed
 * count, nowhere else; the built-in table only on abapa's board. */
static void test_ending_eval(void **state) {
  (void)state;
  char path[] = "/tmp/oware-ending-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs("# a tempo of 100 for the side to move from 1 to 12 seeds\n"
        "1 12 100 0 0 0 0 0 0 0 0 0\n", f);
  fclose(f);
  /* 8 seeds on the board; no move of South ends the game or captures. */
  const char *few = "0-1-0-2-0-0-0-1-0-3-0-1-20-20-S";
  int off = depth1_score("abapa", few, "off");
  assert_int_equal(depth1_score("abapa", few, path), off - 100); /* the leaves are North's */
  assert_true(depth1_score("abapa", few, "on") != off);
  /* 16 seeds: outside the file's ranges. */
  const char *more = "0-1-0-2-0-4-0-1-0-3-4-1-16-16-S";
  assert_int_equal(depth1_score("abapa", more, path), depth1_score("abapa", more, "off"));
  /* The start: 48 seeds, no correction. */
  const char *start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
  assert_int_equal(depth1_score("abapa", start, "on"), depth1_score("abapa", start, "off"));
  /* The built-in table stays out of another board; a file applies. */
  const char *small = "0-1-0-2-0-1-1-0-2-1-6-6-S";
  assert_int_equal(depth1_score("abapa,houses=5,seeds=2", small, "on"),
                   depth1_score("abapa,houses=5,seeds=2", small, "off"));
  assert_int_equal(depth1_score("abapa,houses=5,seeds=2", small, path),
                   depth1_score("abapa,houses=5,seeds=2", small, "off") - 100);
  remove(path);
}

/* Quiescence sees a recapture past the horizon. South to move: F takes
 * North's g (1 + 1 = 2 seeds), but then North's l sows into South's a
 * (1 + 1 = 2) and takes them back; A instead moves a's seed to b, where l
 * lands on an empty house (no capture), and keeps F's capture for later.
 * With the static evaluation at depth 1 (qs=0) F looks best; quiescence
 * (capture after capture) sees the recapture and plays A. */
static void test_quiescence(void **state) {
  (void)state;
  variant v = var("abapa");
  board b;
  char err[256];
  assert_int_equal(
      notation_parse_position("1-0-0-1-0-1-1-0-1-2-0-1-20-20-S", &v, &b, err, sizeof err), 0);
  game g;
  assert_int_equal(game_init(&g, &v, &b), 0);
  /* The position is as the comment says: F and then l each capture 2. */
  assert_int_equal(board_capture_of(&b, &v, BOARD_SOUTH, 5), 2);
  board after = b;
  assert_int_equal(board_play(&after, &v, 5), 2);
  assert_int_equal(board_capture_of(&after, &v, BOARD_NORTH, 11), 2);
  int m, m2;
  player_info flat, qs, again;
  player *p = make("minimax:depth=1,qs=0,ending=off");
  assert_int_equal(player_choose(p, &g, NULL, &m, &flat, err, sizeof err), PLAYER_OK);
  assert_int_equal(m, 5);
  player_free(p);
  p = make("minimax:depth=1,qs=8,ending=off");
  assert_int_equal(player_choose(p, &g, NULL, &m, &qs, err, sizeof err), PLAYER_OK);
  assert_int_equal(m, 0);
  assert_true(qs.score < flat.score); /* the bait's score fell with the recapture seen */
  assert_true(qs.seldepth > flat.seldepth);
  assert_true(qs.nodes > flat.nodes); /* the capture nodes count as nodes */
  /* The same search again, by the same player after a new game: the same. */
  player_new_game(p, &v, 0, err, sizeof err);
  assert_int_equal(player_choose(p, &g, NULL, &m2, &again, err, sizeof err), PLAYER_OK);
  assert_int_equal(m2, m);
  assert_int_equal(again.score, qs.score);
  assert_int_equal(again.nodes, qs.nodes);
  player_free(p);
  game_free(&g);
}

/* Internal iterative reduction (iir=1): fewer nodes over openings of
 * every variant at depth 10, a legal move each time; with no hash table
 * (no hash move to miss) the search is the same, node for node. */
static void test_iir(void **state) {
  (void)state;
  char err[256];
  int m0, m1;
  player_info off, on;
  long long nodes_off = 0, nodes_on = 0;
  for (int k = 0; variants[k]; k++) {
    variant v = var(variants[k]);
    game g;
    board b = opening(&v, 700 + (uint64_t)k, 4);
    assert_int_equal(game_init(&g, &v, &b), 0);
    static const char *const specs[2][2] = {
        {"minimax:depth=10,egdb=off,iir=0", "minimax:depth=10,egdb=off,iir=1"},
        {"minimax:depth=6,egdb=off,hash=0,iir=0", "minimax:depth=6,egdb=off,hash=0,iir=1"}};
    for (int h = 0; h < 2; h++) {
      player *p0 = make(specs[h][0]), *p1 = make(specs[h][1]);
      assert_int_equal(player_choose(p0, &g, NULL, &m0, &off, err, sizeof err), PLAYER_OK);
      assert_int_equal(player_choose(p1, &g, NULL, &m1, &on, err, sizeof err), PLAYER_OK);
      assert_true(g.legal >> m1 & 1);
      if (h == 0) {
        nodes_off += off.nodes;
        nodes_on += on.nodes;
      } else {
        assert_int_equal(m1, m0);
        assert_int_equal(on.score, off.score);
        assert_int_equal(on.nodes, off.nodes);
      }
      player_free(p0);
      player_free(p1);
    }
    game_free(&g);
  }
  printf("iir: %lld nodes against %lld without, at depth 10\n", nodes_on, nodes_off);
  assert_true(nodes_on < nodes_off);
}

/* hmalus=1 (history malus): a quiet cut takes from the history of the
 * quiet moves searched before it. Move ordering only: without the hash
 * table and the pruning that depends on order (lmr, rfp, iir), the value at
 * a depth is the same as without it over openings of eight variants, while
 * the nodes differ (the history it changes is used). Whether it pays is
 * the SPRT's to say (docs/STRENGTH.md), not a node count's. */
static void test_hmalus(void **state) {
  (void)state;
  char err[256];
  int m0, m1, differ = 0;
  player_info off, on;
  for (int k = 0; variants[k]; k++) {
    variant v = var(variants[k]);
    game g;
    board b = opening(&v, 900 + (uint64_t)k, 4);
    assert_int_equal(game_init(&g, &v, &b), 0);
    player *p0 = make("minimax:depth=8,egdb=off,hash=0,lmr=0,rfp=0,iir=0,hmalus=0");
    player *p1 = make("minimax:depth=8,egdb=off,hash=0,lmr=0,rfp=0,iir=0,hmalus=1");
    assert_int_equal(player_choose(p0, &g, NULL, &m0, &off, err, sizeof err), PLAYER_OK);
    assert_int_equal(player_choose(p1, &g, NULL, &m1, &on, err, sizeof err), PLAYER_OK);
    assert_true(g.legal >> m1 & 1);
    assert_int_equal(on.score, off.score);
    differ += on.nodes != off.nodes;
    player_free(p0);
    player_free(p1);
    game_free(&g);
  }
  printf("hmalus: %d of 8 plain searches take other nodes, every value the same\n", differ);
  assert_true(differ > 0);
}

/* Forced wins: a random endgame where a plain search proves a win in n
 * plies; minimax must find a winning move with the exact distance. */
static void test_forced_wins(void **state) {
  (void)state;
  variant v = var("abapa");
  /* By hand: F takes a's two seeds for 26 (e would stop it being a slam). */
  board b;
  char err[256];
  assert_int_equal(
      notation_parse_position("1-0-0-0-0-1-1-0-0-0-1-0-24-20-S", &v, &b, err, sizeof err), 0);
  game g;
  assert_int_equal(game_init(&g, &v, &b), 0);
  /* Exact at its depth: without reductions (with them a reduced quiet move
   * can hide a win that a full-width search of the same depth sees). */
  player *p = make("minimax:depth=6,lmr=0,rfp=0,iir=0");
  int m;
  player_info info;
  assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
  assert_int_equal(m, 5);
  assert_int_equal(info.score, PLAYER_WIN - 1);
  game_free(&g);
  /* Found ones: positions with few seeds where a win is forced in 3 or 5. */
  rng r;
  rng_seed(&r, 77);
  int found[6] = {0};
  for (int tries = 0; tries < 20000 && (found[3] < 10 || found[5] < 5); tries++) {
    if (fixture_random_ending(&r, &v, &b)) continue;
    plain s = {.v = &v};
    s.keys[0] = b.key;
    for (int d = 1; d <= 5; d += 2) {
      int sc = plain_negamax(&s, &b, d, 0, 0, 0);
      if (sc < PLAYER_WIN - 1000) continue;
      int dist = PLAYER_WIN - sc;
      if (dist != d) break; /* a faster win: counted at its own depth */
      /* The winning moves, by the plain search. */
      uint32_t winning = 0;
      for (uint32_t l = board_legal(&b, &v); l; l &= l - 1) {
        board c = b;
        int taken = board_play(&c, &v, __builtin_ctz(l));
        s.keys[1] = c.key;
        if (-plain_negamax(&s, &c, d - 1, 1, taken ? 1 : 0, 1) == sc)
          winning |= 1u << __builtin_ctz(l);
      }
      assert_int_equal(game_init(&g, &v, &b), 0);
      player_new_game(p, &v, 0, err, sizeof err);
      assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
      assert_int_equal(info.score, sc);
      assert_true(winning >> m & 1);
      game_free(&g);
      found[d]++;
      break;
    }
  }
  assert_true(found[1] > 0 && found[3] >= 10 && found[5] >= 5);
  player_free(p);
}

/* ---- Strength ---- */

/* Plays `pairs` game pairs (each opening twice, colours swapped) of a
 * against b; returns a's score in points (win 1, draw 1/2). */
static double score_of(const char *spec_a, const char *spec_b, int pairs, uint64_t seed) {
  variant v = var("abapa");
  player *a = make(spec_a), *b = make(spec_b);
  double points = 0;
  for (int k = 0; k < 2 * pairs; k++) {
    board start = opening(&v, seed + (uint64_t)(k / 2), 2 + (k / 2) % 3);
    int a_south = k % 2 == 0;
    game g;
    outcome res;
    char err[256];
    assert_int_equal(match_play(a_south ? a : b, a_south ? b : a, &v, &start,
                                rng_mix(seed, (uint64_t)k), &g, &res, err, sizeof err),
                     0);
    assert_true(res.end < OUTCOME_FORFEIT_TIMEOUT);
    int a_side = a_south ? BOARD_SOUTH : BOARD_NORTH;
    points += res.winner == GAME_DRAW ? 0.5 : res.winner == a_side ? 1 : 0;
    game_free(&g);
  }
  player_free(a);
  player_free(b);
  return points / (2 * pairs);
}

static void ladder(const char *a, const char *b, double at_least) {
  double s = score_of(a, b, 50, 2026);
  printf("ladder: %s scores %.3f against %s (at least %.2f asked)\n", a, s, b, at_least);
  if (s < at_least) fail_msg("%s scored only %.3f against %s", a, s, b);
}

static void test_strength_ladder(void **state) {
  (void)state;
  ladder("greedy", "random", 0.80);
  ladder("minimax:depth=4", "greedy", 0.75);
  ladder("minimax:depth=6", "minimax:depth=2", 0.70);
  ladder("minimax:depth=8", "minimax:depth=4", 0.60);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spec_errors),
      cmocka_unit_test(test_spec_values),
      cmocka_unit_test(test_weights),
      cmocka_unit_test(test_params),
      cmocka_unit_test(test_eval_features),
      cmocka_unit_test(test_legal_everywhere),
      cmocka_unit_test(test_deterministic),
      cmocka_unit_test(test_limits),
      cmocka_unit_test(test_minimax_equals_negamax),
      cmocka_unit_test(test_forced_wins),
      cmocka_unit_test(test_iir),
      cmocka_unit_test(test_hmalus),
      cmocka_unit_test(test_quiescence),
      cmocka_unit_test(test_ending_eval),
      cmocka_unit_test(test_strength_ladder),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
