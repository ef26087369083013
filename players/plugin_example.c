/* plugin_example.c: an example plug-in player type, built as a shared object (oware_plugin_example.so).
 *
 * It plays the house with the most (or fewest) seeds, ties at random: a
 * weak player, but a whole one. Load it with
 *   oware match --south plugin:path=./build/release/players/oware_plugin_example.so,prefer=most ...
 * A plug-in is written like a built-in type (see random.c): an option table,
 * a create() that fills the hooks (here also params/set_param, which make
 * its parameter `most` settable by a tuner), and one exported entry, oware_plugin_v1,
 * that carries the ABI version. It may call core/ and players/player.h,
 * whose functions the oware binary exports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "core/error.h"
#include "players/player.h"
#include "players/plugin.h"

typedef struct example {
  int most; /* 1: the fullest house, 0: the emptiest non-empty one */
} example;

static player_status choose(player *p, const game *g, const player_limits *lim, int *move,
                            player_info *info, char *err, size_t errlen) {
  const example *e = p->data;
  rng r;
  rng_seed(&r, player_position_seed(p, g));
  int best = 0, ties = 0; /* ties == 0: no move seen yet */
  for (uint32_t l = g->legal; l; l &= l - 1) {
    int m = __builtin_ctz(l), n = g->pos.pit[m];
    int key = e->most ? n : -n;
    if (ties == 0 || key > best) {
      best = key;
      ties = 1;
      *move = m;
    } else if (key == best && rng_below(&r, (uint32_t)++ties) == 0) {
      *move = m;
    }
  }
  return PLAYER_OK;
}

/* Frees what create() allocated: here p->data, a static-free struct. */
static void destroy(player *p) {
  free(p->data);
  p->data = NULL;
}

/* Its one parameter, so that a tuner or a calibration can change it like a
 * built-in player's: most = 1 plays the fullest house, 0 the emptiest. */
static const player_param_info params_list[] = {
    {"most", "1: play the fullest house, 0: the emptiest", 0, 1, 0, 1, 1},
    {NULL, NULL, 0, 0, 0, 0, 0}};

static const player_param_info *params(const player *p) {
  (void)p;
  return params_list;
}

/* player_set_param has checked the name and rounded value to 0 or 1. */
static int set_param(player *p, const char *name, double value, char *err, size_t errlen) {
  example *e = p->data;
  (void)name, (void)err, (void)errlen;
  e->most = value > 0.5;
  return 0;
}

static int create(player *p, char *err, size_t errlen) {
  example *e = malloc(sizeof *e);
  if (!e) {
    error_set(err, errlen, "example: out of memory");
    return -1;
  }
  e->most = !strcmp(player_config_text(&p->config, "prefer"), "most");
  p->data = e;
  p->choose = choose;
  p->destroy = destroy;
  p->params = params;
  p->set_param = set_param;
  return 0;
}

static const player_option options[] = {
    {"prefer", PLAYER_OPT_CHOICE, "most", 0, 0, "most|fewest",
     "play the house with the most or the fewest seeds"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static const player_type example_type = {
    "example", "example plug-in: plays the fullest (or emptiest) house", options, create, 0};

/* The one exported symbol. */
const plugin_entry oware_plugin_v1 = {PLUGIN_ABI_VERSION, &example_type};
