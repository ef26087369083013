/* test_eval_net.c: the network evaluation: the forward pass against a plain reference, the file and its errors, minimax's eval=. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>

#include <cmocka.h>

#include "core/board.h"
#include "core/game.h"
#include "core/rng.h"
#include "players/eval.h"
#include "players/eval_net.h"
#include "players/minimax.h"
#include "players/player.h"
#include "spec_rules.h"

/* The forward pass may differ from the double reference by float rounding
 * only: at most this much relative to the scale of the output. */
#define TOLERANCE 1e-4

static void random_net(eval_net *n, int houses, int seeds, int n1, int n2, uint64_t seed) {
  char err[256];
  assert_int_equal(eval_net_alloc(n, houses, seeds, n1, n2, err, sizeof err), 0);
  rng r;
  rng_seed(&r, seed);
  for (size_t i = 0; i < n->nweights; i++)
    n->mem[i] = (float)((double)(rng_next(&r) >> 11) * 0x1.0p-53 - 0.5);
  eval_net_ready(n);
}

/* A position after a random number of random moves from the start. */
static void random_position(const variant *v, rng *r, board *b) {
  board_start(b, v);
  int plies = (int)rng_below(r, 60);
  for (int k = 0; k < plies; k++) {
    uint32_t legal;
    if (board_status(b, v, &legal) != BOARD_END_NONE || !legal) break;
    int m;
    do m = (int)rng_below(r, (uint32_t)v->pits);
    while (!(legal >> m & 1));
    board_play(b, v, m);
  }
}

/* The reference, written apart from players/eval_net.c: the dense input
 * vector from the layout's description, then each layer as a plain
 * matrix product in doubles. */
static double reference(const eval_net *n, const board *b, const variant *v) {
  static const int upper[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 19, 27, 1000};
  const int H = v->houses, me = b->side;
  double x[2 * VARIANT_MAX_HOUSES * 16 + 2] = {0};
  for (int row = 0; row < 2; row++) {
    int owner = row == 0 ? me : 1 - me;
    for (int r = 0; r < H; r++) {
      int seeds = b->pit[owner * H + r], k = 0;
      while (seeds > upper[k]) k++;
      x[(row * H + r) * 16 + k] = 1;
    }
  }
  x[2 * H * 16] = b->store[me] / (v->total / 2.0);
  x[2 * H * 16 + 1] = b->store[1 - me] / (v->total / 2.0);
  double h1[EVAL_NET_MAX_HIDDEN], h2[EVAL_NET_MAX_HIDDEN];
  for (int j = 0; j < n->n1; j++) {
    double s = n->b1[j];
    for (int i = 0; i < n->nin; i++) s += x[i] * n->w1[(size_t)i * (size_t)n->n1 + (size_t)j];
    h1[j] = s > 0 ? s : 0;
  }
  const double *last = h1;
  int nl = n->n1;
  if (n->n2) {
    for (int k = 0; k < n->n2; k++) {
      double s = n->b2[k];
      for (int j = 0; j < n->n1; j++) s += n->w2[(size_t)k * (size_t)n->n1 + (size_t)j] * h1[j];
      h2[k] = s > 0 ? s : 0;
    }
    last = h2, nl = n->n2;
  }
  double y = n->b3[0];
  for (int k = 0; k < nl; k++) y += n->w3[k] * last[k];
  return y;
}

static void check_forward(const char *vname, int n1, int n2) {
  variant v;
  char err[256];
  assert_int_equal(variant_parse(vname, &v, err, sizeof err), 0);
  eval_net n;
  random_net(&n, v.houses, v.total, n1, n2, 7);
  rng r;
  rng_seed(&r, 11);
  for (int k = 0; k < 2000; k++) {
    board b;
    if (k % 2) {
      random_position(&v, &r, &b);
    } else { /* any counts, every bucket met (the totals need not add up here) */
      int pits[VARIANT_MAX_PITS], stores[2] = {(int)rng_below(&r, 25), (int)rng_below(&r, 25)};
      for (int i = 0; i < v.pits; i++) pits[i] = (int)rng_below(&r, 36);
      board_set(&b, &v, pits, stores, (int)rng_below(&r, 2));
    }
    eval_net_input in;
    eval_net_encode(&b, &v, &in);
    double want = reference(&n, &b, &v), got = eval_net_forward(&n, &in);
    double scale = 1 + fabs(want);
    if (fabs(got - want) > TOLERANCE * scale)
      fail_msg("%s %d/%d position %d: forward %.9g, reference %.9g", vname, n1, n2, k, got, want);
    double cs = 100 * (want + b.store[b.side] - b.store[1 - b.side]);
    assert_true(fabs(eval_net_value(&n, &b, &v) - cs) <= 0.5 + TOLERANCE * 100 * scale);
  }
  eval_net_free(&n);
}

static void test_forward(void **state) {
  (void)state;
  check_forward("abapa", 32, 16);
  check_forward("abapa", 24, 0);
  check_forward("abapa,houses=5,seeds=3", 16, 8);
}

static char tmpdir[] = "/tmp/test_eval_net.XXXXXX";

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  char *t = malloc((size_t)len + 1);
  assert_int_equal(fread(t, 1, (size_t)len, f), (size_t)len);
  t[len] = 0;
  fclose(f);
  return t;
}

/* Saved, loaded back bit for bit, saved again byte for byte. */
static void test_file_roundtrip(void **state) {
  (void)state;
  char p1[128], p2[128], err[256];
  snprintf(p1, sizeof p1, "%s/a.net", tmpdir);
  snprintf(p2, sizeof p2, "%s/b.net", tmpdir);
  eval_net n, m;
  random_net(&n, 6, 48, 16, 8, 3);
  assert_int_equal(eval_net_save(p1, &n, err, sizeof err), 0);
  if (eval_net_load(p1, &m, err, sizeof err)) fail_msg("%s", err);
  assert_int_equal(m.nweights, n.nweights);
  assert_memory_equal(m.mem, n.mem, n.nweights * sizeof *n.mem);
  assert_int_equal(eval_net_save(p2, &m, err, sizeof err), 0);
  char *a = read_all(p1), *b = read_all(p2);
  assert_string_equal(a, b);
  free(a), free(b);
  eval_net_free(&n), eval_net_free(&m);
}

/* text with its first occurrence of from replaced by to (malloc'ed). */
static char *edit(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  assert_non_null(at);
  char *out = malloc(strlen(text) + strlen(to) + 1);
  sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  return out;
}

static void parse_bad(char *text, const char *want) {
  eval_net n;
  char err[512] = "";
  assert_int_equal(eval_net_parse(text, &n, err, sizeof err), -1);
  if (!strstr(err, want)) fail_msg("error '%s' does not say '%s'", err, want);
  free(text);
}

static void test_file_errors(void **state) {
  (void)state;
  char p[128], err[256];
  snprintf(p, sizeof p, "%s/e.net", tmpdir);
  eval_net n;
  random_net(&n, 6, 48, 8, 8, 5);
  n.mem[0] = 0.25f; /* a weight written exactly, to be edited below */
  assert_int_equal(eval_net_save(p, &n, err, sizeof err), 0);
  eval_net_free(&n);
  char *t = read_all(p);
  parse_bad(edit(t, "oware-net 1", "owere-net 1"), "not a network file");
  parse_bad(edit(t, "oware-net 1", "oware-net 2"), "version 2");
  parse_bad(edit(t, "layout hb16", "layout hb8"), "input layout 'hb8'");
  parse_bad(edit(t, "family houses=6", "family h=6"), "line 3");
  parse_bad(edit(t, "layers 194", "layers 190"), "190 inputs");
  parse_bad(edit(t, "layers 194 8 8", "layers 194 400 8"), "hidden layers 400");
  parse_bad(edit(t, "layers 194 8 8", "layers 194 8 4"), "multiples of 8");
  parse_bad(edit(t, "weights\n0.25 ", "weights\n0.5 "), "checksum mismatch");
  parse_bad(edit(t, "weights\n0.25 ", "weights\nx "), "weight 1 is not a finite number");
  parse_bad(edit(t, "weights\n0.25 ", "weights\nnan "), "weight 1 is not a finite number");
  size_t len = strlen(t);
  char *cut = strdup(t);
  cut[len - 1] = 0;
  *strrchr(cut, '\n') = 0; /* the last line (b3) gone */
  parse_bad(edit(cut, "weights", "weights"), "truncated");
  free(cut);
  char *more = malloc(len + 8);
  sprintf(more, "%s1.5\n", t);
  parse_bad(more, "more than the");
  /* A missing file and a file cut in the middle of a line are named. */
  assert_int_equal(eval_net_load("/nonexistent/x.net", &n, err, sizeof err), -1);
  assert_non_null(strstr(err, "/nonexistent/x.net"));
  free(t);
}

/* minimax takes eval=FILE; another family is refused with the reason. */
static void test_minimax_eval(void **state) {
  (void)state;
  char p[128], spec[256], err[512];
  snprintf(p, sizeof p, "%s/m.net", tmpdir);
  eval_net n;
  random_net(&n, 6, 48, 8, 0, 9);
  assert_int_equal(eval_net_save(p, &n, err, sizeof err), 0);
  eval_net_free(&n);
  snprintf(spec, sizeof spec, "minimax:depth=3,egdb=off,eval=%s", p);
  player *pl = player_create(spec, err, sizeof err);
  if (!pl) fail_msg("%s", err);
  variant v, v5;
  variant_default(&v);
  assert_int_equal(variant_parse("abapa,houses=5", &v5, err, sizeof err), 0);
  assert_int_equal(player_new_game(pl, &v, 1, err, sizeof err), 0);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  player_limits lim = {.depth = 3};
  int m;
  assert_int_equal(player_choose(pl, &g, &lim, &m, NULL, err, sizeof err), PLAYER_OK);
  assert_true(board_legal(&g.pos, &v) >> m & 1);
  game_free(&g);
  assert_int_equal(player_new_game(pl, &v5, 1, err, sizeof err), -1);
  assert_non_null(strstr(err, "houses=6 seeds=48"));
  player_free(pl);
  assert_null(player_create("minimax:eval=/nonexistent/y.net", err, sizeof err));
  assert_non_null(strstr(err, "eval=/nonexistent/y.net"));
  unlink(p);
}

/* The built-in networks parse (their checksums hold), differ, are found by
 * name (any other name is a file), and minimax plays with them. */
static void test_builtin(void **state) {
  (void)state;
  static const char *const names[] = {"net", "net2", "net3"};
  eval_net n[3], d;
  char err[512];
  for (int k = 0; k < 3; k++) {
    if (eval_net_builtin(names[k], &n[k], err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(n[k].houses, 6);
    assert_int_equal(n[k].seeds, 48);
    for (int j = 0; j < k; j++) assert_true(eval_net_checksum(&n[j]) != eval_net_checksum(&n[k]));
  }
  assert_int_equal(n[2].n1, 64); /* net3 is twice as wide */
  if (eval_net_builtin(EVAL_NET_AUTO, &d, err, sizeof err)) fail_msg("%s", err);
  assert_true(eval_net_checksum(&d) == eval_net_checksum(&n[2])); /* eval=auto's */
  for (int k = 0; k < 3; k++) eval_net_free(&n[k]);
  eval_net_free(&d);
  assert_int_equal(eval_net_builtin("net4", &d, err, sizeof err), 1);
  assert_int_equal(eval_net_named("/nonexistent/net2", &d, err, sizeof err), -1);
  for (int k = 0; k < 3; k++) {
    eval_net m;
    if (eval_net_named(names[k], &m, err, sizeof err)) fail_msg("%s", err);
    eval_net_free(&m);
  }
  player *pl = player_create("minimax:depth=4,egdb=off,eval=net", err, sizeof err);
  if (!pl) fail_msg("%s", err);
  variant v;
  variant_default(&v);
  assert_int_equal(player_new_game(pl, &v, 1, err, sizeof err), 0);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  player_limits lim = {.depth = 4};
  int m;
  assert_int_equal(player_choose(pl, &g, &lim, &m, NULL, err, sizeof err), PLAYER_OK);
  game_free(&g);
  player_free(pl);
}

/* One search of spec from position k of a few fixed openings of v: the
 * move, score and nodes, which tell the evaluations apart. */
typedef struct searched {
  int move, score;
  long long nodes;
} searched;

static searched search_of(player *pl, const variant *v, int k) {
  char err[512];
  board b;
  board_random_opening(&b, v, 4 + k, 31 + (uint64_t)k);
  game g;
  assert_int_equal(game_init(&g, v, &b), 0);
  assert_int_equal(player_new_game(pl, v, 1, err, sizeof err), 0);
  player_limits lim = {.depth = 5};
  player_info info;
  searched r;
  assert_int_equal(player_choose(pl, &g, &lim, &r.move, &info, err, sizeof err), PLAYER_OK);
  r.score = info.score;
  r.nodes = info.nodes;
  game_free(&g);
  return r;
}

static int same_search(const char *spec_a, const char *spec_b, const char *vtext, int set_a) {
  char err[512];
  player *a = player_create(spec_a, err, sizeof err), *b = player_create(spec_b, err, sizeof err);
  if (!a || !b) fail_msg("%s", err);
  if (set_a) { /* a weight set as the tuners set it, to its default value */
    eval_weights w;
    eval_default(&w);
    player_param wp[EVAL_N];
    eval_params(&w, wp);
    if (player_set_params(a, wp, EVAL_N, err, sizeof err)) fail_msg("%s", err);
  }
  variant v;
  assert_int_equal(variant_parse(vtext, &v, err, sizeof err), 0);
  int same = 1;
  for (int k = 0; k < 6; k++) {
    searched x = search_of(a, &v, k), y = search_of(b, &v, k);
    same &= x.move == y.move && x.score == y.score && x.nodes == y.nodes;
  }
  player_free(a);
  player_free(b);
  return same;
}

/* The default, eval=auto: the built-in network net2 on its own board (6 houses
 * of 4 seeds, any rules), the linear evaluation on other boards and when
 * the spec or a tuner asks for the linear evaluation's parts; a weight set
 * on an explicit network is refused, named. */
static void test_auto(void **state) {
  (void)state;
  const char *base = "minimax:depth=5,hash=1,egdb=off";
  char net[128], lin[128], spec[256], err[512];
  snprintf(net, sizeof net, "%s,eval=net3", base);
  snprintf(lin, sizeof lin, "%s,eval=linear", base);
  assert_true(same_search(base, net, "abapa", 0));
  assert_false(same_search(base, lin, "abapa", 0));
  assert_true(same_search(base, net, "auale", 0));
  assert_true(same_search(base, net, "grandslam-all", 0));
  assert_true(same_search(base, lin, "houses=5,seeds=6", 0)); /* eval=net refuses this board */
  assert_true(same_search(base, lin, "abapa,seeds=3", 0));
  snprintf(spec, sizeof spec, "%s,ending=on", base);
  assert_true(same_search(spec, lin, "abapa", 0));
  assert_true(same_search(base, lin, "abapa", 1));
  char before[128];
  snprintf(before, sizeof before, "%s,eval=net", base); /* auto's network before net2 */
  assert_false(same_search(base, before, "abapa", 0));
  snprintf(before, sizeof before, "%s,eval=net2", base); /* and before net3 */
  assert_false(same_search(base, before, "abapa", 0));
  assert_false(same_search(base, before, "auale", 0));
  player *pl = player_create(net, err, sizeof err);
  if (!pl) fail_msg("%s", err);
  assert_int_equal(player_set_param(pl, "store", 100, err, sizeof err), -1);
  assert_non_null(strstr(err, "'store' does not apply with a network"));
  player_free(pl);
}

/* The specs of runs stored before eval=auto, as they must read now. */
static void test_spec_linear_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"minimax", "minimax:eval=linear"},
      {"minimax:", "minimax:eval=linear"},
      {"minimax:depth=3", "minimax:depth=3,eval=linear"},
      {"minimax:depth=3,egdb=off,name=a", "minimax:depth=3,egdb=off,name=a,eval=linear"},
      {"minimax:name=my\\,eval=x", "minimax:name=my\\,eval=x,eval=linear"},
      {"minimax:eval=net", NULL},
      {"minimax:depth=2,eval=linear", NULL},
      {"minimaxx:depth=2", NULL},
      {"mcts:playouts=30", NULL},
      {"engine:cmd=oware,arg=uci,arg=--player,arg=minimax", NULL},
      {"level:hard", NULL},
  };
  check_spec_rule(minimax_spec_linear_by_default, cases, sizeof cases / sizeof cases[0]);
}

/* The specs of runs stored before cap_exact=1 became the default (store
 * schema 12), as they must read now. */
static void test_spec_cap_off_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"minimax", "minimax:cap_exact=0"},
      {"minimax:nodes=300,egdb=off,name=a", "minimax:nodes=300,egdb=off,name=a,cap_exact=0"},
      {"minimax:name=my\\,cap_exact=1", "minimax:name=my\\,cap_exact=1,cap_exact=0"},
      {"minimax:movetime=100,cap_exact=1", NULL},
      {"minimax:cap_exact=0", NULL},
      {"mcts:playouts=30", NULL},
      {"engine:cmd=oware,arg=uci,arg=--player,arg=minimax", NULL},
      {"level:hard", NULL},
  };
  check_spec_rule(minimax_spec_cap_off_by_default, cases, sizeof cases / sizeof cases[0]);
}

/* The specs of runs stored before rfp=150 became the default (store
 * schema 16), as they must read now. */
static void test_spec_rfp_off_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"minimax", "minimax:rfp=0"},
      {"minimax:nodes=3000,egdb=off,name=a", "minimax:nodes=3000,egdb=off,name=a,rfp=0"},
      {"minimax:name=my\\,rfp=90", "minimax:name=my\\,rfp=90,rfp=0"},
      {"minimax:movetime=100,rfp=150", NULL},
      {"minimax:rfp=0,depth=3", NULL},
      {"mcts:playouts=30", NULL},
      {"engine:cmd=oware,arg=uci,arg=--player,arg=minimax", NULL},
      {"level:hard", NULL},
  };
  check_spec_rule(minimax_spec_rfp_off_by_default, cases, sizeof cases / sizeof cases[0]);
}

/* The specs of runs stored before asp=50 became the default (store
 * schema 17), as they must read now. */
static void test_spec_asp_off_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"minimax", "minimax:asp=0"},
      {"minimax:nodes=3000,egdb=off,name=a", "minimax:nodes=3000,egdb=off,name=a,asp=0"},
      {"minimax:name=my\\,asp=90", "minimax:name=my\\,asp=90,asp=0"},
      {"minimax:movetime=100,asp=50", NULL},
      {"minimax:asp=0,depth=3", NULL},
      {"mcts:playouts=30", NULL},
      {"engine:cmd=oware,arg=uci,arg=--player,arg=minimax", NULL},
      {"level:hard", NULL},
  };
  check_spec_rule(minimax_spec_asp_off_by_default, cases, sizeof cases / sizeof cases[0]);
}

/* The specs of runs stored before iir=1 became the default (store schema
 * 18), as they must read now. */
static void test_spec_iir_off_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"minimax", "minimax:iir=0"},
      {"minimax:nodes=3000,egdb=off,name=a", "minimax:nodes=3000,egdb=off,name=a,iir=0"},
      {"minimax:name=my\\,iir=1", "minimax:name=my\\,iir=1,iir=0"},
      {"minimax:movetime=100,iir=1", NULL},
      {"minimax:iir=0,depth=3", NULL},
      {"mcts:playouts=30", NULL},
      {"engine:cmd=oware,arg=uci,arg=--player,arg=minimax", NULL},
      {"level:hard", NULL},
  };
  check_spec_rule(minimax_spec_iir_off_by_default, cases, sizeof cases / sizeof cases[0]);
}

/* The specs of runs stored when eval=auto took the network net (store
 * schemas 9 to 12), as they must read now. */
static void test_spec_net1_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"minimax", "minimax:eval=net"},
      {"minimax:", "minimax:eval=net"},
      {"minimax:nodes=300,egdb=off,name=a", "minimax:nodes=300,egdb=off,name=a,eval=net"},
      {"minimax:eval=auto", "minimax:eval=net"},
      {"minimax:depth=3,eval=auto,name=b", "minimax:depth=3,eval=net,name=b"},
      {"minimax:name=my\\,eval=auto,eval=auto", "minimax:name=my\\,eval=auto,eval=net"},
      {"minimax:name=\"x,eval=auto\"", "minimax:name=\"x,eval=auto\",eval=net"},
      {"minimax:eval=auto,weights=w.txt", NULL},
      {"minimax:ending=off", NULL},
      {"minimax:eval=net", NULL},
      {"minimax:eval=net2", NULL},
      {"minimax:eval=linear", NULL},
      {"minimax:eval=my.net", NULL},
      {"mcts:eval=net", NULL},
      {"engine:cmd=oware,arg=uci,arg=--player,arg=minimax", NULL},
      {"level:hard", NULL},
  };
  check_spec_rule(minimax_spec_net1_by_default, cases, sizeof cases / sizeof cases[0]);
}

/* The specs of runs stored when eval=auto took the network net2 (store
 * schema 13), as they must read now: the rule of net's, another name. */
static void test_spec_net2_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"minimax", "minimax:eval=net2"},
      {"minimax:nodes=300,egdb=off,name=a", "minimax:nodes=300,egdb=off,name=a,eval=net2"},
      {"minimax:eval=auto", "minimax:eval=net2"},
      {"minimax:depth=3,eval=auto,name=b", "minimax:depth=3,eval=net2,name=b"},
      {"minimax:name=my\\,eval=auto,eval=auto", "minimax:name=my\\,eval=auto,eval=net2"},
      {"minimax:name=\"x,eval=auto\"", "minimax:name=\"x,eval=auto\",eval=net2"},
      {"minimax:eval=auto,weights=w.txt", NULL},
      {"minimax:ending=off", NULL},
      {"minimax:eval=net", NULL},
      {"minimax:eval=net2", NULL},
      {"minimax:eval=net3", NULL},
      {"mcts:eval=net2", NULL},
      {"level:hard", NULL},
  };
  check_spec_rule(minimax_spec_net2_by_default, cases, sizeof cases / sizeof cases[0]);
}

static int setup(void **state) {
  (void)state;
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_forward),
      cmocka_unit_test(test_file_roundtrip),
      cmocka_unit_test(test_file_errors),
      cmocka_unit_test(test_minimax_eval),
      cmocka_unit_test(test_builtin),
      cmocka_unit_test(test_auto),
      cmocka_unit_test(test_spec_linear_by_default),
      cmocka_unit_test(test_spec_cap_off_by_default),
      cmocka_unit_test(test_spec_rfp_off_by_default),
      cmocka_unit_test(test_spec_asp_off_by_default),
      cmocka_unit_test(test_spec_iir_off_by_default),
      cmocka_unit_test(test_spec_net1_by_default),
      cmocka_unit_test(test_spec_net2_by_default),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
