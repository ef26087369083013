/* notation.h: position strings, move letters and OGN game records, read and written. */
#ifndef OWARE_NOTATION_H
#define OWARE_NOTATION_H

#include <stddef.h>
#include <stdio.h>

#include "core/board.h"
#include "core/game.h"
#include "core/move_record.h"
#include "core/outcome.h"
#include "core/variant.h"

/* Longest position string: 16 houses and 2 stores of up to 5 chars + side. */
#define NOTATION_POSITION_MAX 128

/* Reads "4-4-…-0-0-S" for variant v into b. Returns 0, or -1 with a message
 * naming the bad field (count of fields, a house, a store, side, total). */
int notation_parse_position(const char *text, const variant *v, board *b, char *err,
                            size_t errlen);

/* Writes b as a position string; the stores come from score2 (half seeds,
 * written "23.5") when it is not NULL, else from b. */
void notation_format_position(const board *b, const variant *v, const int *score2, char *buf,
                              size_t len);

/* Half seeds as text: 47 -> "23.5", 48 -> "24". buf holds 16 chars. */
void notation_format_half(int score2, char *buf, size_t len);

/* The letter of house m ('A'.. for South, 'a'.. for North). */
char notation_move_letter(const variant *v, int m);

/* House index of letter c under v, or -1. */
int notation_move_index(const variant *v, char c);

/* Reads move letters, separate ("F d E e") or together ("FdEe"), appending
 * house indices to moves[] (room for max). Returns the count, or -1 with a
 * message naming the bad character and where it is. Legality is not checked. */
int notation_parse_moves(const char *text, const variant *v, int *moves, int max, char *err,
                         size_t errlen);

/* One OGN record. */
#define NOTATION_TAG_MAX 24
typedef struct notation_tag {
  char name[32];
  char value[256];
} notation_tag;

typedef struct notation_ogn {
  notation_tag tags[NOTATION_TAG_MAX];
  int ntags;
  variant v;       /* from the Variant tag (abapa when absent) */
  board start;     /* from the FEN tag, else the start position */
  int *moves;      /* owned; freed by notation_ogn_free */
  int nmoves;
} notation_ogn;

/* Reads the next OGN record from text; *used gets how many characters were
 * read (so that a file of several games can be read in a loop). Returns 1
 * for a record, 0 when only blank space is left, -1 with a message (with the
 * line number) for malformed input: a bad tag line, an unknown variant, a
 * bad FEN, an unknown move letter, an unclosed comment. */
int notation_ogn_read(const char *text, size_t *used, notation_ogn *out, char *err,
                      size_t errlen);

void notation_ogn_free(notation_ogn *o);

/* The value of tag `name`, or NULL. */
const char *notation_ogn_tag(const notation_ogn *o, const char *name);

/* Plays the record's moves into a new game (game_init'ed here). Returns 0,
 * or -1 with a message naming the move number, its letter and the legal
 * moves when a move is illegal or comes after the end. */
int notation_ogn_play(const notation_ogn *o, game *g, char *err, size_t errlen);

/* Tags for writing; NULL fields are written "?" (Date defaults to today
 * only when the caller puts it there). */
typedef struct notation_meta {
  const char *event, *site, *date, *round, *south, *north;
  /* When not NULL, how the game ended as played or stored; it replaces
   * the end the game's moves give (a forfeit or an adjudication ends a game
   * that the rules have not ended). Its end is the Termination. An end of
   * the rules keeps the final seeds as the Result (25-23, from ended);
   * another (forfeit-*, adjudicated-*) writes its winner as PGN does, 1-0
   * (South), 0-1 or 1/2-1/2, with its final seeds in a Score tag, since the
   * seeds need not say who won. */
  const outcome *ended;
  /* When not NULL, each move's record (g->plies of them), written after
   * the move as a comment (move_record_comment). */
  const move_record *records;
} notation_meta;

/* Writes game g as OGN. Without meta->ended, Result is the final seeds
 * of a game the rules ended (its Termination the rules' end), else "*".
 * Returns 0, or -1 on a write error. */
int notation_ogn_write(FILE *f, const game *g, const notation_meta *meta);

/* The legal moves of a position as letters separated by spaces ("-" when
 * none) into buf. */
void notation_format_legal(const variant *v, uint32_t legal, char *buf, size_t len);

#endif
