/* match.h: one game between two players under a variant, with forfeits for misbehaving players; a plain sequence of such games (`oware match`). */
#ifndef OWARE_MATCH_H
#define OWARE_MATCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/move_record.h"
#include "core/outcome.h"
#include "players/player.h"

/* Plays a game from `start` (NULL: the variant's start) with the two
 * players, both told of the new game with game_seed first. g receives the
 * game (game_init'ed here; the caller frees it with game_free). Returns 0,
 * or -1 with err when the game could not be played at all (out of memory,
 * a player that cannot start a game is a forfeit, not an error). */
int match_play(player *south, player *north, const variant *v, const board *start,
               uint64_t game_seed, game *g, outcome *r, char *err, size_t errlen);

/* match_play that also looks at *stop (NULL: never stops) before every
 * move: once it is set the game is abandoned unfinished and 1 is returned
 * (r->plies says how far it got; g still needs game_free; nothing about the
 * game may be recorded as a result). Ctrl-C and SIGTERM thus end a game in
 * progress within one move's time. */
int match_play_stoppable(player *south, player *north, const variant *v, const board *start,
                         uint64_t game_seed, const atomic_int *stop, game *g, outcome *r,
                         char *err, size_t errlen);

struct adjudicator;
/* match_play_stoppable under the run's adjudication (run/adjudicate.h; adj
 * NULL: none: before each move the tables may end the game, after it the
 * players' scores; r->end adjudicated-*, g holds the moves played), that
 * also keeps what is known of each move: when records is not NULL,
 * *records is set to a malloc'ed array of r->plies move_records (time,
 * score, depth; NULL when no move was played; the caller frees it). Every
 * match_play* plays on game clocks when a player's config sets one (tc=,
 * run/game_clock.h): the player is told its time through player_limits,
 * and a move that comes past its time left plus config.tc_margin_ms loses
 * on time (OUTCOME_FORFEIT_TIME). */
int match_play_recorded(player *south, player *north, const variant *v, const board *start,
                        uint64_t game_seed, const atomic_int *stop, const struct adjudicator *adj,
                        game *g, outcome *r, move_record **records, char *err, size_t errlen);

/* Called after game k (from 0) of match_games: a is the index of the
 * player who was South; g and r are valid during the call only. Non-zero
 * stops the match after this game. */
typedef int (*match_game_fn)(void *ctx, long long k, int a, const game *g, const outcome *r);

typedef struct match_totals {
  long long games;  /* played */
  int wins[2];      /* of pl[0], pl[1] */
  int draws;
} match_totals;

/* Plays `games` games between pl[0] and pl[1] one after the other on this
 * thread, pl[0] South in games 0, 2, 4 ..., game k seeded with
 * rng_mix(seed, k), under the adjudication adj (NULL: none; opened for v),
 * and calls fn (may be NULL) after each. *t counts them. Once *stop is set
 * (stop NULL: never) the game in progress is abandoned, as
 * match_play_stoppable does, and neither counted nor passed to fn. 0 when
 * all are played, 1 when fn or *stop stopped it, -1 with err when a game
 * could not be played. */
int match_games(player *const pl[2], const variant *v, long long games, uint64_t seed,
                const struct adjudicator *adj, const atomic_int *stop, match_game_fn fn,
                void *ctx, match_totals *t, char *err, size_t errlen);

#endif
