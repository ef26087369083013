/* ref_rules.h: a slow, plain reference implementation of shared/RULES.md, independent of core/. */
#ifndef OWARE_REF_RULES_H
#define OWARE_REF_RULES_H

#include <stddef.h>
#include <stdint.h>

#define REF_MAX_HOUSES 8
#define REF_MAX_PITS (2 * REF_MAX_HOUSES)

enum { REF_SOUTH = 0, REF_NORTH = 1 };
enum { REF_GS_NOTHING, REF_GS_FORBIDDEN, REF_GS_ALL, REF_GS_WIN };
enum { REF_PLAYING, REF_MAJORITY, REF_NO_MOVE, REF_REPETITION, REF_PLY_LIMIT };
enum { REF_DRAW = -1, REF_NONE = -2 };

/* The rule switches, written out plainly. */
typedef struct ref_variant {
  int houses;     /* H, 3..8 */
  int seeds;      /* S, 1..12 */
  int lap_fill;   /* 0: lap=skip, 1: lap=fill */
  int grand_slam; /* REF_GS_* */
  int feed_must;  /* 1: feeding=must, 0: feeding=none */
  int repetition; /* N-th occurrence ends the game, 0 = off */
  int cycle_split; /* 0: cycle=own, 1: cycle=split */
  int max_plies;  /* 0 = none */
} ref_variant;

/* A position: house counts in sowing order, the stores, the side to move. */
typedef struct ref_pos {
  int house[REF_MAX_PITS];
  int store[2];
  int side;
} ref_pos;

/* What one move did, for tests that count situations. */
typedef struct ref_move_info {
  int sown;          /* seeds taken out of the house */
  int laps_origin;   /* times the sowing passed the emptied house */
  int grand_slam;    /* the move was a grand slam (whatever the rule made of it) */
  int would_take;    /* seeds the capture rule reaches, before the grand-slam rule */
  int captured;      /* seeds actually captured */
  int houses_taken;  /* houses actually captured */
  int chain_to_edge; /* a capture chain ran up to the opponent's first house */
  int fed;           /* the opponent's row was empty before and not after */
} ref_move_info;

/* A game: the position, every position since the last capture, the result. */
typedef struct ref_game {
  ref_variant v;
  ref_pos pos;       /* before any final transfer */
  int plies;
  ref_pos *hist;     /* positions since the last capture, pos's last; owned */
  int hist_len, hist_cap;
  int reason;        /* REF_PLAYING or the REF_* reason the game ended */
  int score2[2];     /* final scores in half seeds, once over */
  int winner;        /* REF_SOUTH, REF_NORTH, REF_DRAW, or REF_NONE while playing */
} ref_game;

int ref_pits(const ref_variant *v);
int ref_total(const ref_variant *v);

/* The start position of v. */
void ref_start(ref_pos *p, const ref_variant *v);

/* Whether house m belongs to side s. */
int ref_owner(const ref_variant *v, int m);

/* Legal moves as a bit mask (bit i = house i); empty when nothing is legal. */
uint32_t ref_legal(const ref_pos *p, const ref_variant *v);

/* Whether playing house m (non-empty, of the side to move) captures every seed
 * on the opponent's side by the capture rule alone. */
int ref_is_grand_slam(const ref_pos *p, const ref_variant *v, int m);

/* Plays house m (assumed legal) in p; fills info when not NULL. */
void ref_play_move(ref_pos *p, const ref_variant *v, int m, ref_move_info *info);

/* Majority or no-move end of p, else REF_PLAYING. */
int ref_status(const ref_pos *p, const ref_variant *v);

/* Leaf count of the legal-move tree (no repetition, no ply limit). */
uint64_t ref_perft(const ref_pos *p, const ref_variant *v, int depth);

/* A game from p; may already be over. Returns 0, or -1 when memory runs out. */
int ref_game_init(ref_game *g, const ref_variant *v, const ref_pos *p);
void ref_game_free(ref_game *g);

/* Plays m and applies the end rules. Returns 0, -1 when m is illegal or the
 * game is over, -2 when memory runs out. info is filled when not NULL. */
int ref_game_play(ref_game *g, int m, ref_move_info *info);

/* The position after the final transfer (p itself while playing). */
void ref_game_shown(const ref_game *g, ref_pos *out);

/* Writes "h0-h1-…-s0-s1-S"; stores from score2 (half seeds, "23.5") if not NULL. */
void ref_format_position(const ref_pos *p, const ref_variant *v, const int *score2, char *buf,
                         size_t len);

#endif
