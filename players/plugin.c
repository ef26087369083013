/* plugin.c: the `plugin` player type: loads a player type from a shared object with dlopen. */
#include "players/plugin.h"
#include "core/error.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "include/oware.h"
#include "players/player.h"

/* A plug-in of the public interface (include/oware.h, OWARE_PLUGIN_SYMBOL)
 * seen as a player type: its options become text options, its hooks are
 * called with strings. Made at load, freed at unload. */
typedef struct v2_type {
  player_type type; /* first: a player's config.type points here */
  const oware_plugin *entry;
  player_option *options;
  int noptions;
} v2_type;

/* What plugin_load hands out as the handle. */
typedef struct loaded {
  void *dl;
  v2_type *v2; /* NULL for a plug-in of the ABI of players/plugin.h */
} loaded;

typedef struct v2_player {
  const oware_plugin *entry;
  void *state;
} v2_player;

static player_status v2_choose(player *p, const game *g, const player_limits *lim, int *move,
                               player_info *info, char *err, size_t errlen) {
  v2_player *d = p->data;
  const variant *v = &g->v;
  char vname[160], start[NOTATION_POSITION_MAX], pos[NOTATION_POSITION_MAX], legal[32];
  char *moves = malloc((size_t)g->plies + 1);
  if (!moves) {
    error_set(err, errlen, "out of memory");
    return PLAYER_ERROR;
  }
  for (int i = 0; i < g->plies; i++) moves[i] = notation_move_letter(v, g->moves[i]);
  moves[g->plies] = 0;
  variant_format(v, vname, sizeof vname);
  notation_format_position(&g->start, v, NULL, start, sizeof start);
  notation_format_position(&g->pos, v, NULL, pos, sizeof pos);
  int n = 0;
  for (int i = 0; i < v->pits; i++)
    if (g->legal >> i & 1) legal[n++] = notation_move_letter(v, i);
  legal[n] = 0;
  char m = 0;
  err[0] = 0;
  int rc = d->entry->choose(d->state, vname, start, moves, pos, legal, &m, err, errlen);
  free(moves);
  if (rc) {
    if (!err[0]) error_set(err, errlen, "the plug-in gave no move");
    return PLAYER_ERROR;
  }
  *move = notation_move_index(v, m);
  return PLAYER_OK;
}

static void v2_destroy(player *p) {
  v2_player *d = p->data;
  if (!d) return;
  if (d->entry->destroy) d->entry->destroy(d->state);
  free(d);
  p->data = NULL;
}

static int v2_create(player *p, char *err, size_t errlen) {
  const v2_type *t = (const v2_type *)p->config.type;
  const char **values = calloc((size_t)t->noptions + 1, sizeof *values);
  v2_player *d = calloc(1, sizeof *d);
  if (!values || !d) {
    free(values);
    free(d);
    error_set(err, errlen, "out of memory");
    return -1;
  }
  for (int i = 0; i < t->noptions; i++) values[i] = player_config_text(&p->config, t->options[i].name);
  d->entry = t->entry;
  err[0] = 0;
  d->state = t->entry->create(values, p->seed, err, errlen);
  free(values);
  if (!d->state) {
    if (!err[0]) error_set(err, errlen, "%s: the plug-in could not make a player", t->type.name);
    free(d);
    return -1;
  }
  p->data = d;
  p->choose = v2_choose;
  p->destroy = v2_destroy;
  return 0;
}

/* The player type of a public-interface plug-in. */
static v2_type *v2_make(const oware_plugin *e, const char *path, char *err, size_t errlen) {
  /* struct oware_plugin is the same since API 1: a plug-in built for any
   * version up to this one loads. */
  if (e->api_version < 1 || e->api_version > OWARE_API_VERSION) {
    error_set(err, errlen, "plugin: '%s' was built for oware.h API %d; this oware has API 1 to %d",
             path, e->api_version, OWARE_API_VERSION);
    return NULL;
  }
  if (!e->name || !e->create || !e->choose) {
    error_set(err, errlen, "plugin: '%s' exports an incomplete oware_plugin", path);
    return NULL;
  }
  int n = 0;
  while (e->options && e->options[n].name) n++;
  v2_type *t = calloc(1, sizeof *t);
  player_option *o = calloc((size_t)n + 1, sizeof *o);
  if (!t || !o) {
    free(t);
    free(o);
    error_set(err, errlen, "out of memory");
    return NULL;
  }
  for (int i = 0; i < n; i++)
    o[i] = (player_option){e->options[i].name, PLAYER_OPT_TEXT, e->options[i].def, 0, 0, NULL,
                           e->options[i].help ? e->options[i].help : ""};
  t->type = (player_type){e->name, e->summary ? e->summary : "", o, v2_create, 0};
  t->entry = e;
  t->options = o;
  t->noptions = n;
  return t;
}

int plugin_load(const char *path, const player_type **type, void **handle, char *err,
                size_t errlen) {
  /* A bare file name would be searched in the library path: say ./ for here. */
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    error_set(err, errlen, "plugin: cannot load '%s': %s", path, dlerror());
    return -1;
  }
  loaded *l = calloc(1, sizeof *l);
  if (!l) {
    error_set(err, errlen, "out of memory");
    dlclose(h);
    return -1;
  }
  l->dl = h;
  const plugin_entry *e = dlsym(h, PLUGIN_SYMBOL);
  if (!e) {
    const oware_plugin *e2 = dlsym(h, OWARE_PLUGIN_SYMBOL);
    if (!e2) {
      error_set(err, errlen, "plugin: '%s' does not export %s or %s (is it an oware plug-in?)",
               path, OWARE_PLUGIN_SYMBOL, PLUGIN_SYMBOL);
      plugin_unload(l);
      return -1;
    }
    if (!(l->v2 = v2_make(e2, path, err, errlen))) {
      plugin_unload(l);
      return -1;
    }
    *type = &l->v2->type;
    *handle = l;
    return 0;
  }
  if (e->abi_version != PLUGIN_ABI_VERSION) {
    error_set(err, errlen, "plugin: '%s' was built for plug-in ABI %d; this oware has ABI %d",
             path, e->abi_version, PLUGIN_ABI_VERSION);
    plugin_unload(l);
    return -1;
  }
  if (!e->type || !e->type->name || !e->type->options || !e->type->create) {
    error_set(err, errlen, "plugin: '%s' exports an incomplete player type", path);
    plugin_unload(l);
    return -1;
  }
  *type = e->type;
  *handle = l;
  return 0;
}

void plugin_unload(void *handle) {
  loaded *l = handle;
  if (!l) return;
  if (l->v2) {
    free(l->v2->options);
    free(l->v2);
  }
  dlclose(l->dl);
  free(l);
}

static const player_option options[] = {
    {"path", PLAYER_OPT_TEXT, NULL, 0, 0, NULL,
     "shared object of the plug-in (./libfoo.so); its own options follow"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static int create(player *p, char *err, size_t errlen) {
  /* Never reached: player_parse_spec replaces this type by the plug-in's. */
  error_set(err, errlen, "plugin: no path= given");
  return -1;
}

const player_type player_plugin = {
    "plugin", "a player type loaded from a shared object (plugin:path=./libfoo.so,key=value...)",
    options, create, 0};
