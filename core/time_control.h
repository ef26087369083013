/* time_control.h: a game clock's setting (tc=): BASE+INC or MOVES/BASE[+INC] in seconds, parsed and written back. */
#ifndef OWARE_TIME_CONTROL_H
#define OWARE_TIME_CONTROL_H

#include <stddef.h>

/* The longest base or increment taken: a week, in ms. */
#define TIME_CONTROL_MAX_MS (7LL * 24 * 3600 * 1000)

/* A time control: each side starts with base_ms; inc_ms is added after each
 * of its moves; with moves > 0, base_ms is added again after every `moves`
 * moves of that side (a repeating control, "40/60"). All 0: no clock. */
typedef struct time_control {
  int moves;        /* moves per period (0: the whole game is one period) */
  long long base_ms;
  long long inc_ms;
} time_control;

/* Whether tc sets a clock (its base is not 0). */
int time_control_on(const time_control *tc);

/* Parses "BASE+INC" (10+0.1), "BASE" (60), "MOVES/BASE" (40/60) or
 * "MOVES/BASE+INC" (40/60+0.5): seconds as decimal numbers (to the ms),
 * MOVES a whole number from 1 to 10000, BASE above 0, both at most
 * TIME_CONTROL_MAX_MS. Returns 0, or -1 with a message naming what is wrong
 * ("tc '10+x': the increment 'x' is not a number of seconds"). */
int time_control_parse(const char *text, time_control *tc, char *err, size_t errlen);

/* Writes tc back in the form time_control_parse reads ("40/60+0.5", "10+0.1",
 * "" for no clock). */
void time_control_format(const time_control *tc, char *buf, size_t len);

#endif
