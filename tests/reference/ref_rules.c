/* ref_rules.c: the rules of shared/RULES.md written as plainly as possible, an oracle for core/. */
#include "tests/reference/ref_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ref_pits(const ref_variant *v) { return 2 * v->houses; }

int ref_total(const ref_variant *v) { return 2 * v->houses * v->seeds; }

/* More than this many seeds in a store wins. */
static int half_total(const ref_variant *v) { return ref_total(v) / 2; }

void ref_start(ref_pos *p, const ref_variant *v) {
  memset(p, 0, sizeof *p);
  for (int i = 0; i < ref_pits(v); i++) p->house[i] = v->seeds;
  p->side = REF_SOUTH;
}

/* South owns houses 0 .. H-1, North owns H .. 2H-1. */
int ref_owner(const ref_variant *v, int m) { return m < v->houses ? REF_SOUTH : REF_NORTH; }

/* Seeds on side s's row. */
static int row_seeds(const ref_pos *p, const ref_variant *v, int s) {
  int n = 0;
  for (int i = 0; i < ref_pits(v); i++)
    if (ref_owner(v, i) == s) n += p->house[i];
  return n;
}

/* Rule "A move" 1-2: empties house m and sows its seeds one by one into the
 * following houses, wrapping round; on a lap the emptied house is skipped
 * unless lap=fill. Returns the house the last seed fell into. */
static int sow(ref_pos *p, const ref_variant *v, int m, int *laps) {
  int n = p->house[m];
  int i = m;
  p->house[m] = 0;
  *laps = 0;
  while (n > 0) {
    i = (i + 1) % ref_pits(v);
    if (i == m) {
      (*laps)++;
      if (!v->lap_fill) continue;
    }
    p->house[i]++;
    n--;
  }
  return i;
}

/* Rule "A move" 3: the houses the capture takes when the last seed fell in
 * house `last` of the position after sowing: the last house if it is the
 * opponent's and holds 2 or 3, then backwards while the house is still the
 * opponent's and holds 2 or 3. Marks them in take[]; returns the seeds. */
static int capture_reach(const ref_pos *p, const ref_variant *v, int mover, int last, int take[],
                         int *to_edge) {
  int opp = 1 - mover;
  int first_of_opp = opp == REF_SOUTH ? 0 : v->houses;
  int seeds = 0;
  int i = last;
  for (int k = 0; k < ref_pits(v); k++) take[k] = 0;
  *to_edge = 0;
  while (ref_owner(v, i) == opp && (p->house[i] == 2 || p->house[i] == 3)) {
    take[i] = 1;
    seeds += p->house[i];
    if (i == first_of_opp) { /* the house before it is the mover's own */
      *to_edge = 1;
      break;
    }
    i = i - 1;
  }
  return seeds;
}

int ref_is_grand_slam(const ref_pos *p, const ref_variant *v, int m) {
  ref_pos after = *p;
  int laps, take[REF_MAX_PITS], edge;
  int last = sow(&after, v, m, &laps);
  int reach = capture_reach(&after, v, p->side, last, take, &edge);
  /* "would take every seed on the opponent's side": something is taken and
   * nothing is left there. */
  return reach > 0 && reach == row_seeds(&after, v, 1 - p->side);
}

uint32_t ref_legal(const ref_pos *p, const ref_variant *v) {
  int mover = p->side, opp = 1 - p->side;
  uint32_t legal = 0;
  for (int m = 0; m < ref_pits(v); m++) {
    if (ref_owner(v, m) != mover || p->house[m] == 0) continue;
    if (v->feed_must && row_seeds(p, v, opp) == 0) {
      ref_pos after = *p;
      int laps;
      sow(&after, v, m, &laps);
      if (row_seeds(&after, v, opp) == 0) continue; /* does not feed */
    }
    legal |= 1u << m;
  }
  if (v->grand_slam == REF_GS_FORBIDDEN) {
    uint32_t not_slams = 0;
    for (int m = 0; m < ref_pits(v); m++)
      if ((legal >> m & 1u) && !ref_is_grand_slam(p, v, m)) not_slams |= 1u << m;
    if (not_slams) legal = not_slams; /* else every legal move is a grand slam */
  }
  return legal;
}

void ref_play_move(ref_pos *p, const ref_variant *v, int m, ref_move_info *info) {
  ref_move_info in;
  int mover = p->side, opp = 1 - p->side;
  int take[REF_MAX_PITS];
  memset(&in, 0, sizeof in);
  int opp_before = row_seeds(p, v, opp);
  in.sown = p->house[m];
  int last = sow(p, v, m, &in.laps_origin);
  in.fed = opp_before == 0 && row_seeds(p, v, opp) > 0;
  in.would_take = capture_reach(p, v, mover, last, take, &in.chain_to_edge);
  in.grand_slam = in.would_take > 0 && in.would_take == row_seeds(p, v, opp);
  int capture = 1;
  if (in.grand_slam) {
    switch (v->grand_slam) {
    case REF_GS_NOTHING: capture = 0; break;
    case REF_GS_FORBIDDEN: capture = 1; break; /* played only when every move is one */
    case REF_GS_ALL: capture = 1; break;
    case REF_GS_WIN: capture = p->store[mover] + in.would_take > half_total(v); break;
    default: abort();
    }
  }
  if (capture && in.would_take > 0) {
    for (int i = 0; i < ref_pits(v); i++) {
      if (!take[i]) continue;
      p->store[mover] += p->house[i];
      in.captured += p->house[i];
      in.houses_taken++;
      p->house[i] = 0;
    }
  }
  if (!in.captured) in.chain_to_edge = 0;
  p->side = opp;
  if (info) *info = in;
}

int ref_status(const ref_pos *p, const ref_variant *v) {
  int half = half_total(v);
  if (p->store[0] > half || p->store[1] > half) return REF_MAJORITY;
  if (p->store[0] == half && p->store[1] == half) return REF_MAJORITY;
  if (ref_legal(p, v) == 0) return REF_NO_MOVE;
  return REF_PLAYING;
}

uint64_t ref_perft(const ref_pos *p, const ref_variant *v, int depth) {
  if (depth == 0) return 1;
  if (ref_status(p, v) != REF_PLAYING) return 0;
  uint32_t legal = ref_legal(p, v);
  uint64_t n = 0;
  for (int m = 0; m < ref_pits(v); m++) {
    if (!(legal >> m & 1u)) continue;
    ref_pos c = *p;
    ref_play_move(&c, v, m, NULL);
    n += ref_perft(&c, v, depth - 1);
  }
  return n;
}

static int same_position(const ref_pos *a, const ref_pos *b, const ref_variant *v) {
  if (a->side != b->side) return 0;
  for (int i = 0; i < ref_pits(v); i++)
    if (a->house[i] != b->house[i]) return 0;
  return 1;
}

static int hist_push(ref_game *g) {
  if (g->hist_len == g->hist_cap) {
    int cap = g->hist_cap ? 2 * g->hist_cap : 64;
    ref_pos *h = realloc(g->hist, (size_t)cap * sizeof *h);
    if (!h) return -1;
    g->hist = h;
    g->hist_cap = cap;
  }
  g->hist[g->hist_len++] = g->pos;
  return 0;
}

/* Ends the game for `reason` and works out the final scores. */
static void finish(ref_game *g, int reason) {
  const ref_pos *p = &g->pos;
  int own[2] = {row_seeds(p, &g->v, REF_SOUTH), row_seeds(p, &g->v, REF_NORTH)};
  int left = own[0] + own[1];
  g->reason = reason;
  for (int s = 0; s < 2; s++) {
    g->score2[s] = 2 * p->store[s];
    if (reason == REF_NO_MOVE) g->score2[s] += 2 * own[s];
    if (reason == REF_REPETITION || reason == REF_PLY_LIMIT)
      g->score2[s] += g->v.cycle_split ? left : 2 * own[s];
  }
  if (g->score2[0] > g->score2[1])
    g->winner = REF_SOUTH;
  else if (g->score2[1] > g->score2[0])
    g->winner = REF_NORTH;
  else
    g->winner = REF_DRAW;
}

int ref_game_init(ref_game *g, const ref_variant *v, const ref_pos *p) {
  memset(g, 0, sizeof *g);
  g->v = *v;
  g->pos = *p;
  g->reason = REF_PLAYING;
  g->winner = REF_NONE;
  if (hist_push(g)) return -1;
  int st = ref_status(&g->pos, v);
  if (st != REF_PLAYING) finish(g, st);
  return 0;
}

void ref_game_free(ref_game *g) {
  free(g->hist);
  g->hist = NULL;
  g->hist_len = g->hist_cap = 0;
}

int ref_game_play(ref_game *g, int m, ref_move_info *info) {
  ref_move_info in;
  if (g->reason != REF_PLAYING) return -1;
  if (m < 0 || m >= ref_pits(&g->v) || !(ref_legal(&g->pos, &g->v) >> m & 1u)) return -1;
  ref_play_move(&g->pos, &g->v, m, &in);
  if (info) *info = in;
  g->plies++;
  if (in.captured > 0) g->hist_len = 0; /* earlier positions are unreachable */
  if (hist_push(g)) return -2;
  /* End rules, in their order. */
  int st = ref_status(&g->pos, &g->v);
  if (st != REF_PLAYING) {
    finish(g, st);
    return 0;
  }
  if (g->v.repetition > 0) {
    int seen = 0;
    for (int i = 0; i < g->hist_len; i++)
      if (same_position(&g->hist[i], &g->pos, &g->v)) seen++;
    if (seen >= g->v.repetition) {
      finish(g, REF_REPETITION);
      return 0;
    }
  }
  if (g->v.max_plies > 0 && g->plies >= g->v.max_plies) finish(g, REF_PLY_LIMIT);
  return 0;
}

void ref_game_shown(const ref_game *g, ref_pos *out) {
  *out = g->pos;
  if (g->reason == REF_PLAYING || g->reason == REF_MAJORITY) return;
  for (int i = 0; i < ref_pits(&g->v); i++) out->house[i] = 0;
  out->store[0] = g->score2[0] / 2;
  out->store[1] = g->score2[1] / 2;
}

static void format_half(int score2, char *buf, size_t len) {
  if (score2 % 2)
    snprintf(buf, len, "%d.5", score2 / 2);
  else
    snprintf(buf, len, "%d", score2 / 2);
}

void ref_format_position(const ref_pos *p, const ref_variant *v, const int *score2, char *buf,
                         size_t len) {
  char s0[16], s1[16];
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < ref_pits(v); i++) {
    int w = snprintf(buf + n, len - n, "%d-", p->house[i]);
    if (w < 0 || (size_t)w >= len - n) return;
    n += (size_t)w;
  }
  format_half(score2 ? score2[0] : 2 * p->store[0], s0, sizeof s0);
  format_half(score2 ? score2[1] : 2 * p->store[1], s1, sizeof s1);
  snprintf(buf + n, len - n, "%s-%s-%c", s0, s1, p->side == REF_SOUTH ? 'S' : 'N');
}
