/* analyse_result.c: an analysis result's derived figures (decided moves, mistakes, the share kept, seeds lost per move) and its freeing. */
#include "run/analyse.h"

#include <math.h>
#include <stdlib.h>

long long analyse_decided(const analyse_player *p) { return p->exact + p->proven; }

long long analyse_mistakes(const analyse_player *p) { return p->exact - p->kept + p->proven; }

double analyse_kept_share(const analyse_player *p) {
  long long d = analyse_decided(p);
  return d ? (double)p->kept / (double)d : NAN;
}

double analyse_lost_per_move(const analyse_player *p) {
  long long d = analyse_decided(p);
  return d ? (double)p->lost2 / 2.0 / (double)d : NAN;
}

void analyse_free(analyse_result *r) {
  if (!r) return;
  free(r->mistake);
  free(r);
}
