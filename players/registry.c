/* registry.c: the player types by name, and configs and players made from specs, level:NAME and plug-in types resolved (above players/level and players/plugin). */
#include "players/player.h"
#include "core/error.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "players/level.h"
#include "players/plugin.h"

/* The table player_types is in players/player_types.c (web/player_types.c
 * in the WebAssembly build); plug-in specs are told apart by this type. */
extern const player_type player_plugin;

const player_type *player_find_type(const char *name) {
  for (int i = 0; player_types[i]; i++)
    if (!strcmp(player_types[i]->name, name)) return player_types[i];
  return NULL;
}

void player_config_free(player_config *cfg) {
  player_config_clear(cfg);
  if (cfg->plugin) plugin_unload(cfg->plugin);
  cfg->plugin = NULL;
}

/* A level spec: the spec it resolves to, parsed. */
static int parse_level(const char *spec, player_config *cfg, char *err, size_t errlen) {
  char *resolved = malloc(LEVEL_SPEC_MAX + 512);
  if (!resolved) return error_set(err, errlen, "out of memory"), -1;
  int rc = level_resolve(spec, resolved, LEVEL_SPEC_MAX + 512, err, errlen);
  if (!rc) {
    char e[ERROR_MAX];
    rc = player_parse_spec(resolved, cfg, e, sizeof e);
    if (rc) error_set(err, errlen, "%s (its spec '%s'): %s", spec, resolved, e);
  }
  free(resolved);
  return rc;
}

/* The built-in type named by the first tlen characters of spec, or NULL
 * with err listing the types. */
static const player_type *find_type(const char *spec, size_t tlen, char *err, size_t errlen) {
  const player_type *t = NULL;
  for (int i = 0; player_types[i]; i++)
    if (strlen(player_types[i]->name) == tlen && !strncmp(player_types[i]->name, spec, tlen))
      t = player_types[i];
  if (!t) {
    char names[256] = "";
    for (int i = 0; player_types[i]; i++) {
      if (i) strcat(names, ", ");
      strcat(names, player_types[i]->name);
    }
    error_set(err, errlen, "unknown player type '%.*s'; types are %s, and level:NAME for a level", (int)tlen,
        spec, names);
  }
  return t;
}

/* The plug-in's own type and table, from the shared object that path= of
 * items names; its handle goes to cfg->plugin. */
static int load_plugin(const char *spec, const char *items, const player_type **t, player_config *cfg,
                       char *err, size_t errlen) {
  char *item = malloc(strlen(spec) + 1);
  if (!item) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  const char *p = items;
  char path[PATH_MAX] = "";
  while (*p) {
    if (player_spec_item(spec, &p, item, err, errlen)) {
      free(item);
      return -1;
    }
    size_t l = strlen(item);
    if (l > 5 && !strncmp(item, "path=", 5)) {
      if (l - 5 >= sizeof path) {
        error_set(err, errlen, "plugin: path= is %zu bytes, longer than the %zu that fit", l - 5,
                  sizeof path - 1);
        free(item);
        return -1;
      }
      memcpy(path, item + 5, l - 4);
    }
    if (*p == ',') p++;
  }
  free(item);
  if (!*path) {
    error_set(err, errlen, "plugin: missing path=FILE.so (the shared object of the plug-in)");
    return -1;
  }
  return plugin_load(path, t, &cfg->plugin, err, errlen);
}

int player_parse_spec(const char *spec, player_config *cfg, char *err, size_t errlen) {
  memset(cfg, 0, sizeof *cfg);
  cfg->seed = 1;
  if (level_is_spec(spec)) return parse_level(spec, cfg, err, errlen);
  if (!spec || !*spec) {
    error_set(err, errlen, "empty player spec; expected type[:key=value,...]");
    return -1;
  }
  const char *colon = strchr(spec, ':');
  size_t tlen = colon ? (size_t)(colon - spec) : strlen(spec);
  const player_type *t = find_type(spec, tlen, err, errlen);
  if (!t) return -1;
  if (t == &player_plugin && load_plugin(spec, colon ? colon + 1 : "", &t, cfg, err, errlen)) return -1;
  if (player_config_parse(t, spec, colon ? colon + 1 : NULL, cfg, err, errlen)) {
    player_config_free(cfg);
    return -1;
  }
  return 0;
}

player *player_create(const char *spec, char *err, size_t errlen) {
  player *p = calloc(1, sizeof *p);
  if (!p) {
    error_set(err, errlen, "out of memory");
    return NULL;
  }
  if (player_parse_spec(spec, &p->config, err, errlen)) {
    free(p);
    return NULL;
  }
  p->type = p->config.type;
  p->seed = p->config.seed;
  snprintf(p->name, sizeof p->name, "%s", p->config.name);
  atomic_init(&p->stop, 0);
  variant_default(&p->v);
  if (p->type->create(p, err, errlen)) {
    player_config_free(&p->config);
    free(p);
    return NULL;
  }
  if (player_new_game(p, &p->v, 0, err, errlen)) {
    player_free(p);
    return NULL;
  }
  return p;
}

void player_free(player *p) {
  if (!p) return;
  if (p->destroy) p->destroy(p);
  player_config_free(&p->config);
  free(p);
}

void player_print_help(void *file, const char *type_name) {
  FILE *f = file;
  for (int i = 0; player_types[i]; i++) {
    if (type_name && strcmp(type_name, player_types[i]->name)) continue;
    player_type_help(f, player_types[i]);
    fputc('\n', f);
  }
}
