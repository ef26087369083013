/* name.h: the one check of a name (of a player, a run, an imported player): one line of printable UTF-8. */
#ifndef OWARE_NAME_H
#define OWARE_NAME_H

#include <stddef.h>

/* 0 when name is valid UTF-8 (shortest forms, no surrogates) without a
 * control character (C0, DEL, C1: U+0080..U+009F) or a bidirectional
 * control (U+200E, U+200F, U+202A..U+202E, U+2066..U+2069); else -1 with
 * "WHAT 'start…' holds …" naming the character and its position (in
 * bytes, from 1). */
int name_check(const char *what, const char *name, char *err, size_t errlen);

#endif
