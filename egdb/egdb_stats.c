/* egdb_stats.c: won, drawn, lost, open and cycle-sensitive counts and the mean value of one table. */
#include "egdb/egdb_stats.h"

#include <string.h>

void egdb_level_stats_count(const egdb *db, int n, egdb_level_stats *s) {
  const int P = egdb_variant(db)->pits;
  const uint8_t *lo = egdb_table(db, n, 0), *up = egdb_table(db, n, 1), *sp = egdb_table(db, n, 2);
  memset(s, 0, sizeof *s);
  s->n = n;
  s->count = egdb_count(n, P);
  double sl = 0, su = 0, ss = 0;
  for (uint64_t i = 0; i < s->count; i++) {
    int l = lo[i], u = up[i];
    sl += l;
    su += u;
    if (l != u) s->sensitive++;
    if (sp) {
      int x = sp[i]; /* half seeds: n is an even split */
      ss += x;
      if (x > n) s->won++;
      else if (x < n) s->lost++;
      else s->drawn++;
    } else if (2 * l > n) {
      s->won++;
    } else if (2 * u < n) {
      s->lost++;
    } else if (2 * l == n && 2 * u == n) {
      s->drawn++;
    } else {
      s->open++;
    }
  }
  s->mean_lower = sl / (double)s->count;
  s->mean_upper = su / (double)s->count;
  s->mean_split = sp ? ss / 2 / (double)s->count : -1;
}

double egdb_level_share(const egdb_level_stats *s, uint64_t k) {
  return s->count ? 100.0 * (double)k / (double)s->count : 0.0;
}
