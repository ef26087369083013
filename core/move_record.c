/* move_record.c: the per-move records of a game as text (the store's column). */
#include "core/move_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The longest item: three numbers and two slashes. */
#define ITEM_MAX 64

char *move_record_text(const move_record *m, int n) {
  char *t = malloc((size_t)n * ITEM_MAX + 1);
  if (!t) return NULL;
  size_t k = 0;
  t[0] = '\0';
  for (int i = 0; i < n; i++)
    k += (size_t)snprintf(t + k, ITEM_MAX, "%s%lld/%d/%d", i ? " " : "", m[i].ms, m[i].score, m[i].depth);
  return t;
}

/* A score at or beyond this (PLAYER_WIN - 1000 of players/player.h) is a
 * game end seen that many plies short of 1000000. */
#define MOVE_RECORD_WIN 1000000
#define MOVE_RECORD_WIN_BOUND (MOVE_RECORD_WIN - 1000)

void move_record_comment(const move_record *m, char *buf, size_t len) {
  char t[32];
  snprintf(t, sizeof t, "%lld.%02llds", m->ms / 1000, m->ms % 1000 / 10);
  if (m->depth <= 0) {
    snprintf(buf, len, "{%s}", t);
    return;
  }
  int s = m->score, a = s < 0 ? -s : s;
  if (a >= MOVE_RECORD_WIN_BOUND)
    snprintf(buf, len, "{%cM%d/%d %s}", s < 0 ? '-' : '+', MOVE_RECORD_WIN - a, m->depth, t);
  else
    snprintf(buf, len, "{%c%d.%02d/%d %s}", s < 0 ? '-' : '+', a / 100, a % 100, m->depth, t);
}

/* One item "MS/SCORE/DEPTH" at *pp into *m; *pp past it. 0, or -1. */
static int read_item(const char **pp, move_record *m) {
  const char *p = *pp;
  int used = 0;
  if (sscanf(p, "%lld/%d/%d%n", &m->ms, &m->score, &m->depth, &used) != 3 || used == 0) return -1;
  if (m->ms < 0 || m->depth < 0 || (p[used] && p[used] != ' ')) return -1;
  if (*p == ' ' || *p == '+') return -1;
  *pp = p + used;
  return 0;
}

int move_record_parse(const char *text, int n, move_record *m, char *err, size_t errlen) {
  const char *p = text;
  for (int i = 0; i < n; i++) {
    if (i && *p++ != ' ') {
      error_set(err, errlen, "moves' records: %d records where the game has %d moves", i, n);
      return -1;
    }
    if (!*p) {
      error_set(err, errlen, "moves' records: %d records where the game has %d moves", i, n);
      return -1;
    }
    if (read_item(&p, &m[i])) {
      const char *e = strchr(p, ' ');
      error_set(err, errlen, "moves' records: move %d: '%.*s' is not MS/SCORE/DEPTH", i + 1,
                (int)(e ? e - p : (long)strlen(p)), p);
      return -1;
    }
  }
  if (*p) {
    error_set(err, errlen, "moves' records: more records than the game's %d moves", n);
    return -1;
  }
  return 0;
}
