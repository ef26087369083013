/* plugin.c: the `plugin` player type: loads a player type from a shared object with dlopen. */
#include "players/plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "players/player.h"

int plugin_load(const char *path, const player_type **type, void **handle, char *err,
                size_t errlen) {
  /* A bare file name would be searched in the library path: say ./ for here. */
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(err, errlen, "plugin: cannot load '%s': %s", path, dlerror());
    return -1;
  }
  const plugin_entry *e = dlsym(h, PLUGIN_SYMBOL);
  if (!e) {
    snprintf(err, errlen, "plugin: '%s' does not export %s (is it an oware plug-in?)", path,
             PLUGIN_SYMBOL);
    dlclose(h);
    return -1;
  }
  if (e->abi_version != PLUGIN_ABI_VERSION) {
    snprintf(err, errlen, "plugin: '%s' was built for plug-in ABI %d; this oware has ABI %d",
             path, e->abi_version, PLUGIN_ABI_VERSION);
    dlclose(h);
    return -1;
  }
  if (!e->type || !e->type->name || !e->type->options || !e->type->create) {
    snprintf(err, errlen, "plugin: '%s' exports an incomplete player type", path);
    dlclose(h);
    return -1;
  }
  *type = e->type;
  *handle = h;
  return 0;
}

void plugin_unload(void *handle) { dlclose(handle); }

static const player_option options[] = {
    {"path", PLAYER_OPT_TEXT, NULL, 0, 0, NULL,
     "shared object of the plug-in (./libfoo.so); its own options follow"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static int create(player *p, char *err, size_t errlen) {
  /* Never reached: player_parse_spec replaces this type by the plug-in's. */
  snprintf(err, errlen, "plugin: no path= given");
  return -1;
}

const player_type player_plugin = {
    "plugin", "a player type loaded from a shared object (plugin:path=./libfoo.so,key=value...)",
    options, create, 0};
