/* outcome.c: the names of the ways a game ends, and their parser. */
#include "core/outcome.h"

#include <string.h>

/* The one table of end names (index 0 is BOARD_END_NONE: no end). */
static const char *const end_names[OUTCOME_NENDS] = {
    "playing",         "majority",      "no-move",          "repetition",    "ply-limit",
    "forfeit-timeout", "forfeit-illegal", "forfeit-crash", "forfeit-protocol", "forfeit-error",
    "forfeit-time", "adjudicated-egdb", "adjudicated-draw", "adjudicated-resign"};

const char *outcome_end_name(outcome_end e) {
  return (unsigned)e < OUTCOME_NENDS ? end_names[e] : "?";
}

int outcome_end_parse(const char *name, outcome_end *out) {
  for (int i = OUTCOME_MAJORITY; name && i < OUTCOME_NENDS; i++)
    if (!strcmp(name, end_names[i])) {
      *out = (outcome_end)i;
      return 0;
    }
  return -1;
}

/* By the name, so that an end added anywhere in the enum is classed by
 * its name alone. */
int outcome_is_forfeit(outcome_end e) {
  return (unsigned)e < OUTCOME_NENDS && !strncmp(end_names[e], "forfeit-", 8);
}

int outcome_is_adjudicated(outcome_end e) {
  return (unsigned)e < OUTCOME_NENDS && !strncmp(end_names[e], "adjudicated-", 12);
}
