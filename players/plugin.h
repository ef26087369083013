/* plugin.h: player types loaded from shared objects (dlopen) through one versioned symbol. */
#ifndef OWARE_PLUGIN_H
#define OWARE_PLUGIN_H

#include <stddef.h>

struct player_type;

/* The ABI version a plug-in must declare; bumped when player.h changes.
 * 2: the player struct has the params and set_param hooks.
 * 3: player_config has the game clock (tc, tc_margin_ms) and player_limits
 *    the clock's fields (issue 27). */
#define PLUGIN_ABI_VERSION 3

/* What a plug-in exports, under the symbol name PLUGIN_SYMBOL:
 *   const plugin_entry oware_plugin_v1 = {PLUGIN_ABI_VERSION, &my_type};
 * The type's create() fills the player's hooks like a built-in type; the
 * plug-in may call the functions of core/ and players/player.h, which the
 * oware binary exports. */
typedef struct plugin_entry {
  int abi_version;
  const struct player_type *type;
} plugin_entry;

#define PLUGIN_SYMBOL "oware_plugin_v1"

/* A plug-in may instead export the public interface's entry (include/oware.h,
 * OWARE_PLUGIN_SYMBOL "oware_plugin_v2"): it then needs that header only and
 * works wherever the embeddable library does.
 *
 * Opens path, checks the entry and its version. Returns 0 with the type and
 * the handle (to pass to plugin_unload), or -1 with a message. */
int plugin_load(const char *path, const struct player_type **type, void **handle, char *err,
                size_t errlen);

void plugin_unload(void *handle);

#endif
