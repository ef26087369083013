/* spec_rules.h: the check the cmocka tests share for a rule that rewrites the player specs of older runs (store migrations). */
#ifndef OWARE_TESTS_SPEC_RULES_H
#define OWARE_TESTS_SPEC_RULES_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "players/player.h"

/* Checks a rule for the specs of older runs (players/minimax.h, mcts.h) on
 * n cases {spec, as written now (NULL: unchanged)}; each spec it gives must
 * make a player. */
static inline void check_spec_rule(int (*rule)(const char *, char **),
                                   const char *const cases[][2], size_t n) {
  for (size_t i = 0; i < n; i++) {
    char *out;
    int rc = rule(cases[i][0], &out);
    if (!cases[i][1]) {
      if (rc != 0) fail_msg("%s: changed to %s", cases[i][0], out);
      assert_null(out);
      continue;
    }
    assert_int_equal(rc, 1);
    assert_string_equal(out, cases[i][1]);
    char err[512];
    player *p = player_create(out, err, sizeof err);
    if (!p) fail_msg("%s: %s", out, err);
    player_free(p);
    free(out);
  }
}

#endif
