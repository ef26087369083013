/* egdb_stats.h: what the tables of one seed count say about a variant: won, drawn, lost, open and cycle-sensitive shares, mean value. */
#ifndef OWARE_EGDB_STATS_H
#define OWARE_EGDB_STATS_H

#include <stdint.h>

#include "egdb/egdb.h"

/* The counts over every position of one seed count n, the side to move's
 * view. Won: it ends with more than n/2 seeds whatever endless play is
 * scored (lower > n/2), lost: fewer whatever (upper < n/2), drawn: exactly
 * n/2 both ways; open: the result depends on how endless play is scored.
 * With a split table (cycle = split), won/drawn/lost are by the split value
 * and open is 0. Sensitive: lower < upper. */
typedef struct egdb_level_stats {
  int n;
  uint64_t count, won, drawn, lost, open, sensitive;
  double mean_lower, mean_upper; /* mean seeds the mover ends with, bounds */
  double mean_split;             /* with the split table, else -1 */
} egdb_level_stats;

/* Counts the table of n seeds (n <= egdb_max_seeds(db)) into *s. */
void egdb_level_stats_count(const egdb *db, int n, egdb_level_stats *s);

/* A count as a percentage of the level's positions. */
double egdb_level_share(const egdb_level_stats *s, uint64_t k);

#endif
