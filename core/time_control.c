/* time_control.c: parsing and writing a game clock's setting (tc=). */
#include "core/time_control.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int time_control_on(const time_control *tc) { return tc->base_ms > 0; }

/* Seconds as written ("0.1", "60") into ms, in 0..TIME_CONTROL_MAX_MS; the
 * text is [s, e). 0, or -1. */
static int read_seconds(const char *s, const char *e, long long *ms) {
  char buf[40], *end;
  size_t n = (size_t)(e - s);
  if (n == 0 || n >= sizeof buf || strspn(s, "0123456789.") < n) return -1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  errno = 0;
  double x = strtod(buf, &end);
  if (errno || *end || x * 1000.0 > (double)TIME_CONTROL_MAX_MS) return -1;
  *ms = (long long)(x * 1000.0 + 0.5);
  return 0;
}

/* MOVES of "MOVES/..." in [s, e). 0, or -1. */
static int read_moves(const char *s, const char *e, int *moves) {
  size_t n = (size_t)(e - s);
  if (n == 0 || n > 5 || strspn(s, "0123456789") < n) return -1;
  int m = atoi(s);
  if (m < 1 || m > 10000) return -1;
  *moves = m;
  return 0;
}

int time_control_parse(const char *text, time_control *tc, char *err, size_t errlen) {
  time_control t = {0, 0, 0};
  const char *base = text, *end = text + strlen(text);
  const char *slash = strchr(text, '/'), *plus = strchr(text, '+');
  if (slash) {
    if (read_moves(text, slash, &t.moves)) {
      error_set(err, errlen, "tc '%s': the moves '%.*s' before '/' are not a whole number from 1 to 10000",
                text, (int)(slash - text), text);
      return -1;
    }
    base = slash + 1;
  }
  if (plus && plus < base) plus = NULL;
  const char *base_end = plus ? plus : end;
  if (read_seconds(base, base_end, &t.base_ms) || t.base_ms <= 0) {
    error_set(err, errlen, "tc '%s': the base '%.*s' is not a number of seconds of 0.001 or more (at most %lld); "
              "forms: BASE+INC (10+0.1), MOVES/BASE[+INC] (40/60)", text, (int)(base_end - base), base,
              TIME_CONTROL_MAX_MS / 1000);
    return -1;
  }
  if (plus && read_seconds(plus + 1, end, &t.inc_ms)) {
    error_set(err, errlen, "tc '%s': the increment '%s' is not a number of seconds from 0 to %lld", text,
              plus + 1, TIME_CONTROL_MAX_MS / 1000);
    return -1;
  }
  *tc = t;
  return 0;
}

/* ms as seconds, without trailing zeros ("0.1", "60"). */
static void seconds_text(long long ms, char *buf, size_t len) {
  if (ms % 1000 == 0) {
    snprintf(buf, len, "%lld", ms / 1000);
    return;
  }
  snprintf(buf, len, "%lld.%03lld", ms / 1000, ms % 1000);
  char *z = buf + strlen(buf) - 1;
  while (*z == '0') *z-- = '\0';
}

void time_control_format(const time_control *tc, char *buf, size_t len) {
  char b[32], i[32];
  if (!time_control_on(tc)) {
    snprintf(buf, len, "%s", "");
    return;
  }
  seconds_text(tc->base_ms, b, sizeof b);
  seconds_text(tc->inc_ms, i, sizeof i);
  char moves[16] = "";
  if (tc->moves) snprintf(moves, sizeof moves, "%d/", tc->moves);
  snprintf(buf, len, "%s%s%s%s", moves, b, tc->inc_ms ? "+" : "", tc->inc_ms ? i : "");
}
