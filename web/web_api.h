/* web_api.h: what the JavaScript API needs beyond include/oware.h: the variants' names, perft counts and a game as OGN text. */
#ifndef OWARE_WEB_API_H
#define OWARE_WEB_API_H

#include <stddef.h>

/* The i-th named variant (core/variant.h), or NULL past the last. */
const char *web_api_variant_name(int i);

/* The perft count at depth (core/perft.h) from position (NULL: the start)
 * under variant (NULL: abapa) into *count. 0, or -1 with a message. */
int web_api_perft(const char *variant, const char *position, int depth, double *count, char *err,
                  size_t errlen);

/* The game of variant from position (NULL: the start) and moves (letters)
 * as OGN (docs/RULES.md) into out, with the tags south, north, event and
 * date (NULL: "?"). The text's length, or -1 with a message (a bad variant,
 * position or move, out too small). */
int web_api_ogn(const char *variant, const char *position, const char *moves, const char *south,
                const char *north, const char *event, const char *date, char *out, size_t len,
                char *err, size_t errlen);

#endif
