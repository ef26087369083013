/* test_spec_rules_oom.c: the players' rules that the store's upgrades apply to old specs (minimax.h, mcts.h) when memory runs out: each says so (-1), never a spec with an option given twice or one left as it was where it must change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "players/mcts.h"
#include "players/minimax.h"
#include "players/player.h"

/* Linked with -Wl,--wrap=malloc: the players' library's allocations come
 * here, and the one numbered fail_at (from 0) fails. */
void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);
static int fail_at = -1, calls;
void *__wrap_malloc(size_t n) {
  if (calls++ == fail_at) return NULL;
  return __real_malloc(n);
}

typedef int (*rule_fn)(const char *spec, char **out);

/* rule on spec with allocation k failing (-1: none): its result, *out. */
static int run(rule_fn rule, const char *spec, int k, char **out) {
  fail_at = k;
  calls = 0;
  int rc = rule(spec, out);
  fail_at = -1;
  return rc;
}

/* Every allocation of rule on spec failing in turn: -1, or the result
 * without a failure. */
static void check_rule(rule_fn rule, const char *spec) {
  char *want = NULL;
  int want_rc = run(rule, spec, -1, &want);
  const int n = calls;
  assert_true(want_rc >= 0);
  for (int k = 0; k < n; k++) {
    char *got = NULL;
    int rc = run(rule, spec, k, &got);
    if (rc != -1) {
      if (rc != want_rc) print_error("%s: allocation %d failing gives %d (%s), not %d\n", spec, k, rc,
                                     got ? got : "-", want_rc);
      assert_int_equal(rc, want_rc);
      if (rc) assert_string_equal(got, want);
    } else {
      assert_null(got);
    }
    free(got);
  }
  free(want);
}

static void test_rules_out_of_memory(void **state) {
  (void)state;
  static const struct {
    rule_fn rule;
    const char *spec;
  } cases[] = {
      {mcts_spec_front_by_default, "mcts:budget=even,playouts=20"},
      {mcts_spec_front_by_default, "mcts:playouts=20"},
      {mcts_spec_playouts_by_default, "mcts:movetime=5,playouts=300"},
      {mcts_spec_playouts_by_default, "mcts:movetime=5"},
      {mcts_spec_playouts_by_default, "mcts:playouts=300"},
      {minimax_spec_linear_by_default, "minimax:depth=3,eval=net"},
      {minimax_spec_linear_by_default, "minimax:depth=3"},
      {minimax_spec_cap_off_by_default, "minimax:cap_exact=1,nodes=300"},
      {minimax_spec_cap_off_by_default, "minimax:nodes=300"},
      {minimax_spec_rfp_off_by_default, "minimax:rfp=90,nodes=300"},
      {minimax_spec_rfp_off_by_default, "minimax:nodes=300"},
      {minimax_spec_asp_off_by_default, "minimax:asp=90,nodes=300"},
      {minimax_spec_asp_off_by_default, "minimax:nodes=300"},
      {minimax_spec_iir_off_by_default, "minimax:iir=1,nodes=300"},
      {minimax_spec_iir_off_by_default, "minimax:nodes=300"},
      {minimax_spec_net1_by_default, "minimax:nodes=300,weights=w.txt"},
      {minimax_spec_net1_by_default, "minimax:nodes=300,ending=on"},
      {minimax_spec_net1_by_default, "minimax:nodes=300,eval=net2"},
      {minimax_spec_net1_by_default, "minimax:nodes=300,eval=auto"},
      {minimax_spec_net1_by_default, "minimax:nodes=300"},
      {minimax_spec_net2_by_default, "minimax:eval=linear"},
      {minimax_spec_net2_by_default, "minimax:depth=2"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) check_rule(cases[i].rule, cases[i].spec);
}

/* The lookup itself: -1 when it cannot look, never 0 for an option there. */
static void test_spec_has_out_of_memory(void **state) {
  (void)state;
  fail_at = 0;
  calls = 0;
  int rc = player_spec_has("mcts:budget=even", "budget");
  fail_at = -1;
  assert_int_equal(rc, -1);
  assert_int_equal(player_spec_has("mcts:budget=even", "budget"), 1);
  assert_int_equal(player_spec_has("mcts:budget=even", "playouts"), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rules_out_of_memory),
      cmocka_unit_test(test_spec_has_out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
