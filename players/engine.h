/* engine.h: how the engine player reads one line of an engine's output (used by engine.c, its tests and the fuzzer). */
#ifndef OWARE_ENGINE_H
#define OWARE_ENGINE_H

#include <stddef.h>

#include "core/variant.h"
#include "players/player.h"

/* What a line of an engine says. */
typedef enum {
  ENGINE_SAYS_BLANK,    /* nothing: harmless */
  ENGINE_SAYS_BESTMOVE, /* bestmove X */
  ENGINE_SAYS_INFO,     /* info … */
  ENGINE_SAYS_ID_NAME,  /* id name X */
  ENGINE_SAYS_VARIANT,  /* option name Variant type … [default V] */
  ENGINE_SAYS_PROTOCOL, /* another line the protocol allows (id author, option, uciok, …) */
  ENGINE_SAYS_GARBAGE   /* anything else */
} engine_says;

typedef struct engine_line {
  engine_says kind;
  const char *word;  /* the line from its first word (leading blanks skipped) */
  int move;          /* BESTMOVE: the house of X, ENGINE_MOVE_NONE for 0000,
                        ENGINE_MOVE_BAD when X is missing or not a house letter */
  int info_any;      /* INFO: whether the line says something (depth, score, nodes, pv) */
  player_info info;  /* INFO: what it says */
  char text[96];     /* ID_NAME: the name, control characters as '?' ("" if none);
                        VARIANT: the default as a canonical variant string, "" if none
                        or unreadable */
} engine_line;

#define ENGINE_MOVE_NONE (-1)
#define ENGINE_MOVE_BAD (-2)

/* Reads one line of len bytes (it may hold NUL bytes, which are read as '?';
 * a trailing '\r' is dropped) under variant v. line is changed in place.
 * Fills *out; returns out->kind. */
engine_says engine_read_line(const variant *v, char *line, size_t len, engine_line *out);

#endif
