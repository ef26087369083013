/* tablebase.h: a player's handle on the endgame databases (egdb/): the egdb= option, opening per variant, decided results. */
#ifndef OWARE_TABLEBASE_H
#define OWARE_TABLEBASE_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/error.h"
#include "egdb/egdb.h"

/* The option every player that reads the tables takes (egdb=...). */
#define TABLEBASE_OPTION_HELP                                                              \
  "endgame tables: auto (the default folder, ~/.cache/oware/egdb, when the variant's "     \
  "tables are there; a run pins them as auto@...), off, or a folder that must hold them"

/* Variants a pinned auto (auto@...) can name: a run has at most 16. */
#define TABLEBASE_MAX_PINS 32

/* What a run found in the default folder for one variant when it began. */
typedef struct tablebase_pin {
  uint32_t key_hash; /* egdb_key_hash of the variant's key */
  int n;             /* tables 0..n were used; -1: none (the variant plays without) */
  uint64_t digest;   /* egdb_digest of tables 0..n */
} tablebase_pin;

typedef struct tablebase {
  int mode;          /* TABLEBASE_OFF, _AUTO, _DIR, _PINNED */
  char dir[4096];
  char key[128];     /* variant key of the open tables, "" when none */
  egdb *db;          /* NULL when off or missing */
  int max_n;         /* seeds the open tables cover, -1 when none */
  char err[ERROR_MAX]; /* why a required folder could not be opened */
  int npins;         /* TABLEBASE_PINNED: the run's tables, per variant */
  tablebase_pin pin[TABLEBASE_MAX_PINS];
} tablebase;

enum { TABLEBASE_OFF, TABLEBASE_AUTO, TABLEBASE_DIR, TABLEBASE_PINNED };

/* The egdb_default_dir folder for "auto". */
void tablebase_default_dir(char *buf, size_t len);

/* Reads the option value: NULL or "off"; "auto"; "auto@PINS", written by
 * tablebase_pin_spec, whose tables are checked here against the default
 * folder (present to the pinned seed count, with the pinned digest); or a
 * folder. Returns 0, or -1 with err naming what is wrong: a malformed pin,
 * or pinned tables that are missing or changed. */
int tablebase_init(tablebase *t, const char *option, char *err, size_t errlen);

/* (Re)opens the tables for v when v's key differs from the open ones.
 * Returns 0, or -1 with the error in err when mode is DIR and they cannot be
 * opened or mode is PINNED and the pinned tables cannot be; auto leaves the
 * tables off silently. PINNED opens v's tables to the pinned seed count
 * only, and none for a variant pinned without tables or not pinned. */
int tablebase_new_game(tablebase *t, const variant *v, char *err, size_t errlen);

/* The result of b's position for the side to move when the tables cover it
 * and decide it whatever the repetition rule (exact, or both bounds on the
 * same side; the split value for cycle=split variants): sets *result to
 * +1 win, 0 draw, -1 loss (final scores with the stores) and returns 1;
 * else returns 0. */
int tablebase_result(const tablebase *t, const board *b, const variant *v, int *result);

/* The bounds the tables prove on the final difference (the side to move's
 * seeds minus the opponent's, in half seeds, the stores counted) of b's
 * position when they cover it: *lo2 whatever the repetition rule makes of
 * endless play, *hi2 likewise (equal for cycle=split variants with the
 * split table). Returns 1, or 0 when not covered. tablebase_result is
 * their sign when they agree on it. */
int tablebase_bounds(const tablebase *t, const board *b, const variant *v, int *lo2, int *hi2);

void tablebase_free(tablebase *t);

/* The pin of the default folder's tables for the nv variants into buf
 * ("auto@PINS", the egdb= value tablebase_init reads back; "" when no
 * variant can have tables). 0, or -1 with err (corrupt tables, buf too
 * small). */
int tablebase_pin_tables(const variant *vs, int nv, char *buf, size_t len, char *err, size_t errlen);

/* A run's spec with its tables pinned: when the player's type takes egdb=
 * and the spec leaves it at auto (given or by default), out gets the spec
 * with egdb=auto@PINS in its place, PINS saying for each of the nv variants
 * which of the default folder's tables it has now (seed count and digest,
 * or none); any other spec is copied unchanged (a level spec resolved
 * first). Players made from the pinned spec play with exactly those tables
 * wherever and whenever the run is played or resumed, or refuse to be made.
 * Returns 0, or -1 with err (a bad spec, corrupt tables, out too small). */
int tablebase_pin_spec(const char *spec, const variant *vs, int nv, char *out, size_t outlen,
                       char *err, size_t errlen);

/* A spec stored when minimax and mcts read no tables unless told (before
 * egdb=auto became their default: runs of store schemas up to 6), as it
 * must be written now to play the same: a spec of such a type without
 * egdb= gets egdb=off (after its options, or after ':' when it has none);
 * any other is unchanged (perfect, which always read them, or a spec that
 * says egdb=). Returns 1 with *out (malloc'ed) the new spec, 0 (*out NULL)
 * when unchanged, -1 when out of memory. */
int tablebase_spec_off_by_default(const char *spec, char **out);

/* Whether the open tables cover b (a cheap test before a probe). */
static inline int tablebase_covers(const tablebase *t, const board *b, const variant *v) {
  return v->total - b->store[0] - b->store[1] <= t->max_n;
}

#endif
