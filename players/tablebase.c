/* tablebase.c: a player's handle on the endgame databases: the egdb= option, opening per variant, decided results. */
#include "players/tablebase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tablebase_default_dir(char *buf, size_t len) {
  const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
  if (x && *x)
    snprintf(buf, len, "%s/oware/egdb", x);
  else
    snprintf(buf, len, "%s/.cache/oware/egdb", h && *h ? h : ".");
}

void tablebase_init(tablebase *t, const char *option) {
  memset(t, 0, sizeof *t);
  t->max_n = -1;
  if (!option || !*option || !strcmp(option, "off")) {
    t->mode = TABLEBASE_OFF;
  } else if (!strcmp(option, "auto")) {
    t->mode = TABLEBASE_AUTO;
    tablebase_default_dir(t->dir, sizeof t->dir);
  } else {
    t->mode = TABLEBASE_DIR;
    snprintf(t->dir, sizeof t->dir, "%s", option);
  }
}

int tablebase_new_game(tablebase *t, const variant *v, char *err, size_t errlen) {
  char key[128], e[600];
  if (t->mode == TABLEBASE_OFF) return 0;
  if (egdb_variant_key(v, key, sizeof key, e, sizeof e)) {
    /* A variant the tables cannot represent: play without them. */
    egdb_close(t->db);
    t->db = NULL;
    t->max_n = -1;
    t->key[0] = '\0';
    return 0;
  }
  if (t->db && !strcmp(key, t->key)) return 0;
  egdb_close(t->db);
  t->db = NULL;
  t->max_n = -1;
  t->key[0] = '\0';
  if (egdb_open(t->dir, v, -1, 0, &t->db, e, sizeof e)) {
    t->db = NULL;
    if (t->mode == TABLEBASE_DIR) {
      snprintf(err, errlen, "egdb=%s: %s", t->dir, e);
      return -1;
    }
    return 0;
  }
  snprintf(t->key, sizeof t->key, "%s", key);
  t->max_n = egdb_max_seeds(t->db);
  return 0;
}

int tablebase_result(const tablebase *t, const board *b, const variant *v, int *result) {
  egdb_value x;
  if (!t->db || !tablebase_covers(t, b, v) || egdb_probe(t->db, b, &x)) return 0;
  const int me = b->store[b->side], you = b->store[1 - b->side];
  /* Final difference in half seeds: the stores plus the board seeds each ends with. */
  const int stores2 = 2 * (me - you);
  int lo, hi;
  if (x.split2 >= 0 && v->cycle == VARIANT_CYCLE_SPLIT) {
    lo = hi = stores2 + 2 * x.split2 - 2 * x.n;
  } else {
    lo = stores2 + 4 * x.lower - 2 * x.n;
    hi = stores2 + 4 * x.upper - 2 * x.n;
  }
  if (lo > 0) *result = 1;
  else if (hi < 0) *result = -1;
  else if (lo == 0 && hi == 0) *result = 0;
  else return 0;
  return 1;
}

void tablebase_free(tablebase *t) {
  egdb_close(t->db);
  t->db = NULL;
  t->max_n = -1;
}
