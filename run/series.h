/* series.h: the match formats of shared/RULES.md (best-of, first-to, lead, streak, games) as a state machine. */
#ifndef OWARE_SERIES_H
#define OWARE_SERIES_H

#include <stddef.h>

typedef enum {
  SERIES_BEST_OF,  /* best-of:N */
  SERIES_FIRST_TO, /* first-to:K[,lead:M][,cap:C] */
  SERIES_STREAK,   /* streak:K[,cap:C] */
  SERIES_GAMES     /* games:N */
} series_kind;

typedef struct series_format {
  series_kind kind;
  int n;    /* N (best-of, games) or K (first-to, streak) */
  int lead; /* M of first-to:K,lead:M; 0 = none */
  int cap;  /* games at most for first-to and streak (default 100) */
} series_format;

/* Parses a format string; -1 with a message naming the bad part. */
int series_parse(const char *text, series_format *f, char *err, size_t errlen);

/* The canonical string of f (what series_parse reads back). */
void series_format_string(const series_format *f, char *buf, size_t len);

/* Most games the series can take. */
int series_max_games(const series_format *f);

/* The state of a series between players A and B. */
typedef struct series_state {
  int games;     /* games played */
  int wins[2];   /* wins of A and of B */
  int draws;
  int streak[2]; /* current run of consecutive wins of A and of B */
  int done;      /* the series is over */
  int winner;    /* once done: 0 = A, 1 = B, -1 = drawn */
} series_state;

void series_start(series_state *s);

/* Adds a game: result 0 = A won, 1 = B won, -1 = draw. Returns s->done. */
int series_add(series_state *s, const series_format *f, int result);

#endif
