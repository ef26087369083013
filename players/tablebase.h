/* tablebase.h: a player's handle on the endgame databases (egdb/): the egdb= option, opening per variant, decided results. */
#ifndef OWARE_TABLEBASE_H
#define OWARE_TABLEBASE_H

#include <stddef.h>

#include "core/board.h"
#include "egdb/egdb.h"

/* The option every player that reads the tables takes (egdb=...). */
#define TABLEBASE_OPTION_HELP                                                              \
  "endgame tables: off, auto (the default folder, ~/.cache/oware/egdb, when the variant's " \
  "tables are there) or a folder that must hold them"

typedef struct tablebase {
  int mode;          /* TABLEBASE_OFF, _AUTO, _DIR */
  char dir[4096];
  char key[128];     /* variant key of the open tables, "" when none */
  egdb *db;          /* NULL when off or missing */
  int max_n;         /* seeds the open tables cover, -1 when none */
  char err[600];     /* why a required folder could not be opened */
} tablebase;

enum { TABLEBASE_OFF, TABLEBASE_AUTO, TABLEBASE_DIR };

/* The egdb_default_dir folder for "auto". */
void tablebase_default_dir(char *buf, size_t len);

/* Reads the option value (NULL or "off", "auto", or a folder). */
void tablebase_init(tablebase *t, const char *option);

/* (Re)opens the tables for v when v's key differs from the open ones.
 * Returns 0, or -1 with the error in err when mode is DIR and they cannot be
 * opened; auto leaves the tables off silently. */
int tablebase_new_game(tablebase *t, const variant *v, char *err, size_t errlen);

/* The result of b's position for the side to move when the tables cover it
 * and decide it whatever the repetition rule (exact, or both bounds on the
 * same side; the split value for cycle=split variants): sets *result to
 * +1 win, 0 draw, -1 loss (final scores with the stores) and returns 1;
 * else returns 0. */
int tablebase_result(const tablebase *t, const board *b, const variant *v, int *result);

void tablebase_free(tablebase *t);

/* Whether the open tables cover b (a cheap test before a probe). */
static inline int tablebase_covers(const tablebase *t, const board *b, const variant *v) {
  return v->total - b->store[0] - b->store[1] <= t->max_n;
}

#endif
