/* progress.c: the progress line on a terminal (rate and time left since the phase began, throttled, cleared in place), or a plain line now and then elsewhere. */
#include "cli/progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/clock.h"

#define REDRAW_SECONDS 0.25 /* at most 4 draws a second */

void cli_progress_init(cli_progress *p, int quiet) {
  memset(p, 0, sizeof *p);
  p->quiet = quiet;
  p->on = !quiet && isatty(STDERR_FILENO);
}

void cli_progress_every(cli_progress *p, double seconds) {
  p->every = !p->on && !p->quiet && seconds > 0 ? seconds : 0;
}

void cli_progress_begin(cli_progress *p, const char *label, long long done, double since) {
  snprintf(p->label, sizeof p->label, "%s", label);
  p->done0 = done;
  p->start = since;
  p->last = -INFINITY;
}

void cli_progress_duration(double seconds, char *buf, unsigned len) {
  long long s = seconds > 0 && seconds < 1e9 ? llround(seconds) : 0;
  if (s < 60) snprintf(buf, len, "%llds", s);
  else if (s < 3600) snprintf(buf, len, "%lldm%02llds", s / 60, s % 60);
  else snprintf(buf, len, "%lldh%02lldm", s / 3600, s / 60 % 60);
}

/* The terminal's width (80 when it does not say). */
static int columns(void) {
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10) return ws.ws_col;
  return 80;
}

void cli_progress_update(cli_progress *p, const char *label, const char *detail, long long done,
                         long long total, const char *unit) {
  if (!p->on && !p->every) return;
  double now = clock_now();
  if (strcmp(label, p->label)) cli_progress_begin(p, label, done, now);
  const double gap = p->on ? REDRAW_SECONDS : p->every;
  if (now - p->last < gap && !(total > 0 && done >= total)) return;
  p->last = now;
  double seconds = now - p->start;
  double rate = seconds > 0 && done > p->done0 ? (double)(done - p->done0) / seconds : 0;
  char line[512], left[32];
  int n = snprintf(line, sizeof line, "%s%s%s: %lld", label, detail ? " " : "", detail ? detail : "",
                   done);
  if (total > 0) n += snprintf(line + n, sizeof line - (size_t)n, "/%lld", total);
  n += snprintf(line + n, sizeof line - (size_t)n, " %s", unit);
  if (rate > 0) {
    n += snprintf(line + n, sizeof line - (size_t)n, ", %.*f %s/s", rate < 10 ? 1 : 0, rate, unit);
    if (total > 0) {
      cli_progress_duration((double)(total - done) / rate, left, sizeof left);
      snprintf(line + n, sizeof line - (size_t)n, ", %s left", left);
    }
  } else if (total > 0) {
    snprintf(line + n, sizeof line - (size_t)n, ", time left: measuring");
  }
  if (!p->on) { /* a plain line, kept in a log */
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
    return;
  }
  int width = columns() - 1;
  if ((int)strlen(line) > width) line[width] = 0;
  fprintf(stderr, "\r%s\033[K", line);
  fflush(stderr);
  p->shown = 1;
}

void cli_progress_clear(cli_progress *p) {
  if (!p->on || !p->shown) return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  p->shown = 0;
  p->last = -INFINITY; /* drawn again at the next update */
}
