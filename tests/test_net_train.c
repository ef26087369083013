/* test_net_train.c: network training: it fits a known target (the linear evaluation), gives the same network on 1 and 2 threads, and resumes from its state exactly. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/board.h"
#include "core/rng.h"
#include "players/eval.h"
#include "players/eval_net.h"
#include "tuner/net_data.h"
#include "tuner/net_train.h"

#define K 400.0

static int weights[EVAL_N];

/* The linear evaluation (default weights, no corrections) in centiseeds. */
static int linear(const board *b, const variant *v) {
  int f[EVAL_N];
  eval_compute(b, v, f);
  return eval_dot(weights, f);
}

/* n positions of random games (each position of a game kept with
 * probability 1/4) labelled by the linear evaluation. */
static void make_set(const variant *v, uint64_t seed, size_t n, tuner_net_set *set) {
  rng r;
  rng_seed(&r, seed);
  memset(set, 0, sizeof *set);
  while (set->n < n) {
    board b;
    board_start(&b, v);
    for (int ply = 0; ply < 150 && set->n < n; ply++) {
      uint32_t legal;
      if (board_status(&b, v, &legal) != BOARD_END_NONE || !legal) break;
      if (rng_below(&r, 4) == 0)
        assert_int_equal(tuner_net_set_add(set, &b, v, tuner_net_prob(linear(&b, v), K)), 0);
      int m;
      do m = (int)rng_below(&r, (uint32_t)v->pits);
      while (!(legal >> m & 1));
      board_play(&b, v, m);
    }
  }
}

static tuner_net_train_config config(int threads) {
  tuner_net_train_config c = {6, 48, 32, 16, 128, 1e-2, K, 4, 5, threads};
  return c;
}

static int quick(void) { return getenv("OWARE_TEST_QUICK") != NULL; }

/* The network learns the linear evaluation: its mean absolute error in
 * centiseeds on held-out positions falls from hundreds to a small part of
 * a seed. */
static void test_fits_linear(void **state) {
  (void)state;
  variant v;
  variant_default(&v);
  tuner_net_set train, valid;
  make_set(&v, 1, quick() ? 30000 : 200000, &train);
  make_set(&v, 2, 2000, &valid);
  char err[256];
  tuner_net_train_config c = config(1);
  tuner_net_trainer *t = tuner_net_trainer_new(&c, err, sizeof err);
  assert_non_null(t);
  double l0 = tuner_net_trainer_loss(t, &valid), tl = 0, vl = 0;
  for (int e = 0; e < 40 && !tuner_net_trainer_epoch(t, &train, &valid, &tl, &vl); e++) {}
  eval_net n;
  assert_int_equal(tuner_net_trainer_network(t, &n, err, sizeof err), 0);
  /* The error in centiseeds, where the evaluation is not past the sigmoid's flat ends. */
  double abs_err = 0, abs_lin = 0;
  int m = 0;
  rng r;
  rng_seed(&r, 3);
  for (int k = 0; k < 3000; k++) {
    board b;
    board_start(&b, &v);
    int plies = (int)rng_below(&r, 50);
    for (int i = 0; i < plies; i++) {
      uint32_t legal;
      if (board_status(&b, &v, &legal) != BOARD_END_NONE || !legal) break;
      int mv;
      do mv = (int)rng_below(&r, (uint32_t)v.pits);
      while (!(legal >> mv & 1));
      board_play(&b, &v, mv);
    }
    int want = linear(&b, &v);
    if (abs(want) > 800) continue;
    abs_err += fabs((double)eval_net_value(&n, &b, &v) - want);
    abs_lin += fabs((double)want);
    m++;
  }
  abs_err /= m, abs_lin /= m;
  int best_epoch;
  double best = tuner_net_trainer_best(t, &best_epoch);
  print_message("fit of the linear evaluation: validation loss %.5f -> %.5f (epoch %d of %d); "
                "training loss %.5f; mean |error| %.1f centiseeds, mean |evaluation| %.1f, over %d positions\n",
                l0, best, best_epoch, tuner_net_trainer_epochs(t), tl, abs_err, abs_lin, m);
  /* 200,000 positions: about 34 centiseeds; the sanitizer pass's 30,000: about 70. */
  assert_true(best < l0 / (quick() ? 5 : 10));
  assert_true(abs_err < (quick() ? 100 : 45));
  assert_true(abs_err < abs_lin / (quick() ? 3 : 6));
  eval_net_free(&n);
  tuner_net_trainer_free(t);
  tuner_net_set_free(&train);
  tuner_net_set_free(&valid);
}

/* Epochs of a trainer on threads, optionally stopped after `stop` epochs,
 * saved and loaded into a new trainer that goes on: the network's file. */
static char *train_file(int threads, int epochs, int stop, const tuner_net_set *train,
                        const tuner_net_set *valid, const char *dir, const char *name) {
  char err[256], path[256], st[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  snprintf(st, sizeof st, "%s/%s.state", dir, name);
  tuner_net_train_config c = config(threads);
  tuner_net_trainer *t = tuner_net_trainer_new(&c, err, sizeof err);
  double tl, vl;
  for (int e = 0; e < epochs; e++) {
    if (e == stop) {
      assert_int_equal(tuner_net_trainer_save(t, st, err, sizeof err), 0);
      tuner_net_trainer_free(t);
      t = tuner_net_trainer_new(&c, err, sizeof err);
      if (tuner_net_trainer_load(t, st, err, sizeof err)) fail_msg("%s", err);
      assert_int_equal(tuner_net_trainer_epochs(t), stop);
    }
    tuner_net_trainer_epoch(t, train, valid, &tl, &vl);
  }
  eval_net n;
  assert_int_equal(tuner_net_trainer_network(t, &n, err, sizeof err), 0);
  assert_int_equal(eval_net_save(path, &n, err, sizeof err), 0);
  eval_net_free(&n);
  tuner_net_trainer_free(t);
  FILE *f = fopen(path, "rb");
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  char *text = calloc(1, (size_t)len + 1);
  assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
  fclose(f);
  return text;
}

/* 1 and 2 threads, and a stop with a resume, give the same file byte for byte. */
static void test_same_file(void **state) {
  (void)state;
  variant v;
  variant_default(&v);
  tuner_net_set train, valid;
  make_set(&v, 4, 3000, &train);
  make_set(&v, 5, 500, &valid);
  char dir[] = "/tmp/test_net_train.XXXXXX";
  assert_non_null(mkdtemp(dir));
  char *one = train_file(1, 3, -1, &train, &valid, dir, "one.net");
  char *two = train_file(2, 3, -1, &train, &valid, dir, "two.net");
  char *resumed = train_file(2, 3, 2, &train, &valid, dir, "resumed.net");
  char *other = train_file(1, 2, -1, &train, &valid, dir, "other.net");
  assert_string_equal(one, two);
  assert_string_equal(one, resumed);
  assert_string_not_equal(one, other); /* the comparison can fail */
  free(one), free(two), free(resumed), free(other);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
  tuner_net_set_free(&train);
  tuner_net_set_free(&valid);
}

/* A state file of another configuration, or cut short, is refused by name. */
static void test_state_errors(void **state) {
  (void)state;
  char dir[] = "/tmp/test_net_state.XXXXXX", path[128], err[256];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/s.state", dir);
  tuner_net_train_config c = config(1), other = config(1);
  other.n1 = 16;
  tuner_net_trainer *t = tuner_net_trainer_new(&c, err, sizeof err);
  tuner_net_trainer *u = tuner_net_trainer_new(&other, err, sizeof err);
  assert_int_equal(tuner_net_trainer_save(t, path, err, sizeof err), 0);
  assert_int_equal(tuner_net_trainer_load(u, path, err, sizeof err), -1);
  assert_non_null(strstr(err, "another configuration"));
  assert_int_equal(truncate(path, 200), 0);
  assert_int_equal(tuner_net_trainer_load(t, path, err, sizeof err), -1);
  assert_non_null(strstr(err, "cut short"));
  assert_int_equal(tuner_net_trainer_load(t, "/nonexistent/s.state", err, sizeof err), -1);
  assert_non_null(strstr(err, "/nonexistent/s.state"));
  tuner_net_trainer_free(t);
  tuner_net_trainer_free(u);
  unlink(path);
  rmdir(dir);
}

int main(void) {
  eval_weights w;
  eval_default(&w);
  for (int i = 0; i < EVAL_N; i++) weights[i] = (int)lround(w.w[i]);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fits_linear),
      cmocka_unit_test(test_same_file),
      cmocka_unit_test(test_state_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
