/* perft.h: leaf counts of the legal-move tree, for tests and `oware perft`. */
#ifndef OWARE_PERFT_H
#define OWARE_PERFT_H

#include <stdint.h>

#include "core/board.h"

/* Number of legal move sequences of length depth from b. A position over by
 * majority or with no legal move has no successors; repetition and the ply
 * limit are not applied. perft_count(b, v, 0) is 1. */
uint64_t perft_count(const board *b, const variant *v, int depth);

#endif
