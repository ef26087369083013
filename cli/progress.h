/* progress.h: the progress line of a long command: done of total, the rate and the time left, rewritten in place on stderr when it is a terminal; otherwise nothing, or a plain line now and then when asked. */
#ifndef OWARE_CLI_PROGRESS_H
#define OWARE_CLI_PROGRESS_H

/* One line for one command. Zero it, then cli_progress_init. */
typedef struct cli_progress {
  int on;             /* stderr is a terminal and --quiet was not given */
  int quiet;          /* --quiet was given */
  double every;       /* not a terminal: a plain line every `every` seconds (0: none) */
  int shown;          /* a line is on the screen */
  char label[64];     /* the phase: its rate starts again when it changes */
  double start, last; /* when the phase began, when the line was last drawn */
  long long done0;    /* done when the phase began */
} cli_progress;

/* The line is drawn only when stderr is a terminal and quiet is 0. */
void cli_progress_init(cli_progress *p, int quiet);

/* Where stderr is not a terminal (a pipe, a file) and quiet was 0: the
 * same line, whole and ended by a newline, at most every `seconds` (and
 * when done reaches total); never a carriage return or an escape. */
void cli_progress_every(cli_progress *p, double seconds);

/* The phase `label` begins now with `done` already done (a resumed run) and
 * the clock at `since` (clock_now() of when its work started). An update
 * with another label begins a phase by itself, at that update. */
void cli_progress_begin(cli_progress *p, const char *label, long long done, double since);

/* Draws "LABEL DETAIL: DONE/TOTAL UNIT, R UNIT/s, T left" (DETAIL may be
 * NULL; TOTAL 0 when it is not known: then no time left), cut to the
 * terminal's width. Drawn at most 4 times a second, and always when done
 * reaches total. */
void cli_progress_update(cli_progress *p, const char *label, const char *detail, long long done,
                         long long total, const char *unit);

/* Erases the line: before anything else is written to the terminal, and at
 * the end. The next update draws it again. */
void cli_progress_clear(cli_progress *p);

/* "42s", "3m05s", "2h07m": a duration for people (into buf). */
void cli_progress_duration(double seconds, char *buf, unsigned len);

#endif
