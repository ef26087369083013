/* net_search.h: a player's search score of each of many positions, played through the runner (local threads or MPI ranks), for the labels of `oware tune net --search`. */
#ifndef OWARE_NET_SEARCH_H
#define OWARE_NET_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/variant.h"

/* Has a player of spec search each of the n positions b[0..n-1] (a side to
 * move, the game not over) and puts the score it reports with its move,
 * in centiseeds from the mover's side, into score[i]. Each position is a
 * game of one ply, from a new game seeded by rng_mix(seed, i), cut after
 * its first move (--adjudicate maxplies=1): the games are the runner's jobs
 * (64 positions a job) and are played wherever it plays them, on `threads`
 * local workers or on MPI ranks (cli sets the backend); the scores do not
 * depend on where. 0, or -1 with err naming the spec and what went wrong (a
 * player that cannot be made, one that reports no score with its move: a
 * record of depth 0). */
int tuner_net_search(const char *spec, const variant *v, uint64_t seed, const board *b, size_t n,
                     int threads, float *score, char *err, size_t errlen);

/* How the schedule travels to an MPI rank (cli/main.c serves it there). */
extern const struct runner_kind tuner_net_search_kind;

#endif
