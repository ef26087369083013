/* test_diff.c: core/ against the reference rules (tests/reference): random games and perft. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/board.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/rng.h"
#include "core/variant.h"
#include "tests/reference/ref_rules.h"

/* A game longer than this is stopped (not failed): only a rule set with
 * neither repetition nor ply limit could reach it. */
#define SAFETY_PLIES 20000

/* Situations the random games must reach at least once; counted from the
 * reference's view of each move. */
typedef struct counters {
  long games, moves, positions, starts_over, random_starts, illegal_tries;
  long lap_moves, double_laps, fill_laps, sown12, sown17, sown23;
  long captures, chains, chain_to_edge;
  long gs_nothing, gs_forbidden_filtered, gs_forbidden_played, gs_all, gs_win_captured,
      gs_win_nothing;
  long feed_restricted, feed_moves, feed_cannot, feed_none_starve;
  long end_majority, end_draw_half, end_no_move, end_repetition_own, end_repetition_split,
      end_split_half, end_ply_limit, end_safety;
  long perft_positions, perft_nodes;
} counters;

static counters total;

static double scale(void) {
  const char *s = getenv("OWARE_DIFF_SCALE");
  double x = s ? atof(s) : 1.0;
  return x > 0 ? x : 1.0;
}

static int scaled(int n) {
  double x = n * scale();
  return x < 1 ? 1 : (int)x;
}

static void to_ref(const variant *v, ref_variant *r) {
  r->houses = v->houses;
  r->seeds = v->seeds;
  r->lap_fill = v->lap == VARIANT_LAP_FILL;
  switch (v->grand_slam) {
  case VARIANT_GS_NOTHING: r->grand_slam = REF_GS_NOTHING; break;
  case VARIANT_GS_FORBIDDEN: r->grand_slam = REF_GS_FORBIDDEN; break;
  case VARIANT_GS_ALL: r->grand_slam = REF_GS_ALL; break;
  case VARIANT_GS_WIN: r->grand_slam = REF_GS_WIN; break;
  }
  r->feed_must = v->feeding == VARIANT_FEED_MUST;
  r->repetition = v->repetition;
  r->cycle_split = v->cycle == VARIANT_CYCLE_SPLIT;
  r->max_plies = v->max_plies;
}

static void parse_variant(const char *text, variant *v) {
  char err[256];
  if (variant_parse(text, v, err, sizeof err)) fail_msg("variant '%s': %s", text, err);
}

static int ref_end_of(board_end e) {
  switch (e) {
  case BOARD_END_NONE: return REF_PLAYING;
  case BOARD_END_MAJORITY: return REF_MAJORITY;
  case BOARD_END_NO_MOVE: return REF_NO_MOVE;
  case BOARD_END_REPETITION: return REF_REPETITION;
  case BOARD_END_PLY_LIMIT: return REF_PLY_LIMIT;
  }
  return -100;
}

static const char *ref_end_name(int r) {
  static const char *const names[] = {"playing", "majority", "no-move", "repetition", "ply-limit"};
  return r >= 0 && r <= REF_PLY_LIMIT ? names[r] : "?";
}

/* What a lockstep game needs to report a mismatch. */
typedef struct lockstep {
  const variant *v;
  ref_variant rv;
  board start;
  game g;
  ref_game r;
  int moves[SAFETY_PLIES + 1];
  int nmoves;
} lockstep;

static void fail_at(const lockstep *ls, const char *fmt, ...) {
  char what[512], vbuf[256], sbuf[NOTATION_POSITION_MAX], cpos[NOTATION_POSITION_MAX],
      rpos[NOTATION_POSITION_MAX];
  static char moves[3 * SAFETY_PLIES + 8];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  variant_format(ls->v, vbuf, sizeof vbuf);
  notation_format_position(&ls->start, ls->v, NULL, sbuf, sizeof sbuf);
  notation_format_position(&ls->g.pos, ls->v, NULL, cpos, sizeof cpos);
  ref_format_position(&ls->r.pos, &ls->rv, NULL, rpos, sizeof rpos);
  size_t n = 0;
  moves[0] = '\0';
  for (int i = 0; i < ls->nmoves && n + 3 < sizeof moves; i++) {
    moves[n++] = notation_move_letter(ls->v, ls->moves[i]);
    moves[n++] = ' ';
    moves[n] = '\0';
  }
  fail_msg("core and reference disagree after %d moves: %s\n"
           "  core:      %s\n  reference: %s\n"
           "  reproduce: oware replay --variant '%s' --position '%s' %s",
           ls->nmoves, what, cpos, rpos, vbuf, sbuf, moves);
}

static int ref_occurrences(const ref_game *r, const ref_variant *v) {
  int n = 0;
  for (int i = 0; i < r->hist_len; i++) {
    const ref_pos *a = &r->hist[i];
    int same = a->side == r->pos.side;
    for (int k = 0; same && k < ref_pits(v); k++) same = a->house[k] == r->pos.house[k];
    n += same;
  }
  return n;
}

/* Every comparison between the two games, and core's own invariants. */
static void compare(lockstep *ls) {
  const variant *v = ls->v;
  const board *b = &ls->g.pos;
  const ref_pos *p = &ls->r.pos;
  for (int i = 0; i < v->pits; i++)
    if (b->pit[i] != p->house[i])
      fail_at(ls, "house %d holds %d, reference %d", i, b->pit[i], p->house[i]);
  for (int s = 0; s < 2; s++)
    if (b->store[s] != p->store[s])
      fail_at(ls, "store %d holds %d, reference %d", s, b->store[s], p->store[s]);
  if (b->side != p->side) fail_at(ls, "side to move %d, reference %d", b->side, p->side);
  if (!board_ok(b, v)) fail_at(ls, "board_ok() fails (seed total or key)");
  if (b->key != board_compute_key(b, v)) fail_at(ls, "incremental key differs from recomputed key");
  {
    board fresh;
    int pits[VARIANT_MAX_PITS], stores[2] = {b->store[0], b->store[1]};
    for (int i = 0; i < v->pits; i++) pits[i] = b->pit[i];
    board_set(&fresh, v, pits, stores, b->side);
    if (fresh.key != b->key) fail_at(ls, "key differs from board_set's key of the same position");
  }
  int rend = ls->r.reason;
  if (ref_end_of(ls->g.end) != rend)
    fail_at(ls, "end '%s', reference '%s'", board_end_name(ls->g.end), ref_end_name(rend));
  uint32_t rlegal = rend == REF_PLAYING ? ref_legal(p, &ls->rv) : 0;
  if (ls->g.legal != rlegal) {
    char c[64], r[64];
    notation_format_legal(v, ls->g.legal, c, sizeof c);
    notation_format_legal(v, rlegal, r, sizeof r);
    fail_at(ls, "legal moves {%s}, reference {%s}", c, r);
  }
  if (rend == REF_PLAYING) {
    uint32_t bl = board_legal(b, v);
    if (bl != rlegal) fail_at(ls, "board_legal 0x%x, reference 0x%x", bl, rlegal);
    if (ls->g.winner != GAME_PLAYING) fail_at(ls, "winner %d while playing", ls->g.winner);
    int occ = game_occurrences(&ls->g), rocc = ref_occurrences(&ls->r, &ls->rv);
    if (occ != rocc) fail_at(ls, "position occurred %d times, reference %d", occ, rocc);
  } else {
    for (int s = 0; s < 2; s++)
      if (ls->g.score2[s] != ls->r.score2[s])
        fail_at(ls, "final score2[%d] %d, reference %d", s, ls->g.score2[s], ls->r.score2[s]);
    int rw = ls->r.winner == REF_DRAW ? GAME_DRAW : ls->r.winner;
    if (ls->g.winner != rw) fail_at(ls, "winner %d, reference %d", ls->g.winner, rw);
    board shown;
    ref_pos rshown;
    char cs[NOTATION_POSITION_MAX], rs[NOTATION_POSITION_MAX];
    game_shown_position(&ls->g, &shown);
    ref_game_shown(&ls->r, &rshown);
    notation_format_position(&shown, v, ls->g.score2, cs, sizeof cs);
    ref_format_position(&rshown, &ls->rv, ls->r.score2, rs, sizeof rs);
    if (strcmp(cs, rs)) fail_at(ls, "shown final position %s, reference %s", cs, rs);
  }
}

/* Counts the situations of the position before a move. */
static void count_position(const lockstep *ls, counters *c) {
  const ref_pos *p = &ls->r.pos;
  const ref_variant *rv = &ls->rv;
  int opp_row = 0;
  for (int i = 0; i < ref_pits(rv); i++)
    if (ref_owner(rv, i) != p->side) opp_row += p->house[i];
  ref_variant plain = *rv;
  plain.feed_must = 0;
  plain.grand_slam = REF_GS_NOTHING;
  uint32_t all = ref_legal(p, &plain);
  ref_variant fed = *rv;
  fed.grand_slam = REF_GS_NOTHING;
  uint32_t feeding = ref_legal(p, &fed);
  uint32_t legal = ref_legal(p, rv);
  if (rv->feed_must && opp_row == 0 && feeding != all) c->feed_restricted++;
  if (rv->grand_slam == REF_GS_FORBIDDEN && legal != feeding) c->gs_forbidden_filtered++;
}

static void count_move(const lockstep *ls, const ref_move_info *in, int opp_row_before,
                       counters *c) {
  const ref_variant *rv = &ls->rv;
  c->moves++;
  if (in->sown >= 2 * rv->houses) {
    c->lap_moves++;
    if (rv->lap_fill) c->fill_laps++;
  }
  if (in->laps_origin >= 2) c->double_laps++;
  if (rv->houses == 6) {
    if (in->sown >= 12 && in->sown < 17) c->sown12++;
    if (in->sown >= 17 && in->sown < 23) c->sown17++;
    if (in->sown >= 23) c->sown23++;
  }
  if (in->captured) c->captures++;
  if (in->houses_taken >= 2) c->chains++;
  if (in->chain_to_edge) c->chain_to_edge++;
  if (in->grand_slam) {
    switch (rv->grand_slam) {
    case REF_GS_NOTHING: c->gs_nothing++; break;
    case REF_GS_FORBIDDEN: c->gs_forbidden_played++; break;
    case REF_GS_ALL: c->gs_all++; break;
    case REF_GS_WIN:
      if (in->captured)
        c->gs_win_captured++;
      else
        c->gs_win_nothing++;
      break;
    }
  }
  if (in->fed) c->feed_moves++;
  if (!rv->feed_must && opp_row_before == 0 && !in->fed) c->feed_none_starve++;
}

static void count_end(const lockstep *ls, counters *c) {
  const ref_game *r = &ls->r;
  int half = ref_total(&ls->rv) / 2;
  switch (r->reason) {
  case REF_MAJORITY:
    c->end_majority++;
    if (r->pos.store[0] == half && r->pos.store[1] == half) c->end_draw_half++;
    break;
  case REF_NO_MOVE: {
    c->end_no_move++;
    int own = 0;
    for (int i = 0; i < ref_pits(&ls->rv); i++)
      if (ref_owner(&ls->rv, i) == r->pos.side) own += r->pos.house[i];
    if (own) c->feed_cannot++;
    break;
  }
  case REF_REPETITION:
    if (ls->rv.cycle_split)
      c->end_repetition_split++;
    else
      c->end_repetition_own++;
    break;
  case REF_PLY_LIMIT: c->end_ply_limit++; break;
  }
  if (r->reason != REF_PLAYING && (r->score2[0] & 1)) c->end_split_half++;
}

/* Plays one random game from start in both implementations, comparing
 * after every move. Now and then tries an illegal move, which both must
 * refuse without changing anything. */
static void play_lockstep(lockstep *ls, rng *r, counters *c) {
  ref_pos rp;
  const variant *v = ls->v;
  memset(&rp, 0, sizeof rp);
  for (int i = 0; i < v->pits; i++) rp.house[i] = ls->start.pit[i];
  rp.store[0] = ls->start.store[0];
  rp.store[1] = ls->start.store[1];
  rp.side = ls->start.side;
  ls->nmoves = 0;
  assert_int_equal(game_init(&ls->g, v, &ls->start), 0);
  assert_int_equal(ref_game_init(&ls->r, &ls->rv, &rp), 0);
  c->games++;
  compare(ls);
  if (ls->r.reason != REF_PLAYING) c->starts_over++;
  while (ls->r.reason == REF_PLAYING && ls->nmoves < SAFETY_PLIES) {
    uint32_t legal = ls->g.legal;
    c->positions++;
    count_position(ls, c);
    if (rng_below(r, 16) == 0) {
      int bad = (int)rng_below(r, (uint32_t)v->pits + 2) - 1; /* -1 .. pits */
      if (bad < 0 || bad >= v->pits || !(legal >> bad & 1u)) {
        board before = ls->g.pos;
        c->illegal_tries++;
        if (game_play(&ls->g, bad) != -1) fail_at(ls, "illegal move %d accepted", bad);
        if (ref_game_play(&ls->r, bad, NULL) != -1)
          fail_at(ls, "reference accepted illegal move %d", bad);
        if (memcmp(&before, &ls->g.pos, sizeof before) || ls->g.plies != ls->nmoves)
          fail_at(ls, "refused move %d changed the game", bad);
      }
    }
    int n = __builtin_popcount(legal), k = (int)rng_below(r, (uint32_t)n), m = -1;
    for (int i = 0; i < v->pits; i++)
      if ((legal >> i & 1u) && k-- == 0) {
        m = i;
        break;
      }
    int opp_row = board_row(&ls->g.pos, v, 1 - ls->g.pos.side);
    int lo = (1 - ls->g.pos.side) * v->houses;
    board marked = ls->g.pos;
    uint32_t caps;
    board_play_captured(&marked, v, m, &caps);
    ls->moves[ls->nmoves++] = m;
    ref_move_info in;
    int rc = game_play(&ls->g, m);
    if (rc != 0) fail_at(ls, "game_play(%d) returned %d", m, rc);
    rc = ref_game_play(&ls->r, m, &in);
    if (rc != 0) fail_at(ls, "ref_game_play(%d) returned %d", m, rc);
    if (ls->g.plies != ls->nmoves) fail_at(ls, "plies %d", ls->g.plies);
    count_move(ls, &in, opp_row, c);
    compare(ls);
    /* The houses board_play_captured marks: as many as the reference
     * captured, in the opponent's row, empty after the move. */
    if (memcmp(&marked, &ls->g.pos, sizeof marked) ||
        __builtin_popcount(caps) != in.houses_taken || (caps & ~(((1u << v->houses) - 1) << lo)))
      fail_at(ls, "board_play_captured(%d): mask %#x, the reference took %d houses", m, caps,
              in.houses_taken);
    for (int i = 0; i < v->pits; i++)
      if ((caps >> i & 1u) && ls->g.pos.pit[i])
        fail_at(ls, "board_play_captured(%d) marks house %d, which holds seeds", m, i);
  }
  if (ls->r.reason == REF_PLAYING) {
    c->end_safety++;
  } else {
    count_end(ls, c);
    if (game_play(&ls->g, 0) != -1 || game_play(&ls->g, v->houses) != -1)
      fail_at(ls, "a move was accepted after the end");
  }
  game_free(&ls->g);
  ref_game_free(&ls->r);
}

/* Deals the T seeds out at random, with a shape chosen by `mode`:
 * 0 uniform over houses and stores, 1 one big house (a lap or more),
 * 2 an endgame (few seeds on the board), 3 the opponent's row empty,
 * 4 the mover's row empty but for a few seeds. */
static void random_position(const variant *v, rng *r, int mode, board *b) {
  int pits[VARIANT_MAX_PITS] = {0}, stores[2] = {0, 0};
  int P = v->pits, H = v->houses, T = v->total, half = v->half;
  int side = (int)rng_below(r, 2), left = T;
  int mine0 = side == BOARD_SOUTH ? 0 : H, opp0 = side == BOARD_SOUTH ? H : 0;
  int on_board;
  switch (mode) {
  case 1: {
    int room = T - 2 * H;
    if (room >= 0) {
      int k = 2 * H + (int)rng_below(r, (uint32_t)(room < 6 * H ? room : 6 * H) + 1);
      pits[mine0 + (int)rng_below(r, (uint32_t)H)] += k;
      left -= k;
    }
    on_board = (int)rng_below(r, (uint32_t)left + 1);
    break;
  }
  case 2: on_board = 1 + (int)rng_below(r, (uint32_t)(T < 3 * H ? T : 3 * H)); break;
  case 3:
  case 4: on_board = 1 + (int)rng_below(r, (uint32_t)(T < 4 * H ? T : 4 * H)); break;
  default: on_board = -1; break;
  }
  if (mode == 0) {
    for (int s = 0; s < left; s++) {
      int slot = (int)rng_below(r, (uint32_t)P + 2);
      if (slot < P)
        pits[slot]++;
      else
        stores[slot - P]++;
    }
  } else {
    int rest = left - on_board;
    /* Stores share the rest, each at most T/2 when that is possible. */
    int lo = rest - half > 0 ? rest - half : 0, hi = rest < half ? rest : half;
    if (hi < lo) hi = lo;
    stores[0] = lo + (int)rng_below(r, (uint32_t)(hi - lo + 1));
    stores[1] = rest - stores[0];
    for (int s = 0; s < on_board; s++) {
      int h;
      if (mode == 3)
        h = mine0 + (int)rng_below(r, (uint32_t)H);
      else if (mode == 4)
        h = s < 2 ? mine0 + (int)rng_below(r, (uint32_t)H) : opp0 + (int)rng_below(r, (uint32_t)H);
      else
        h = (int)rng_below(r, (uint32_t)P);
      pits[h]++;
    }
  }
  board_set(b, v, pits, stores, side);
}

/* Random games of one variant: `n` of them, `from_random` percent from
 * random positions, the rest from the start. */
static void run_variant(const char *text, int n, int from_random, uint64_t seed) {
  static lockstep ls;
  variant v;
  rng r;
  parse_variant(text, &v);
  memset(&ls, 0, sizeof ls);
  ls.v = &v;
  to_ref(&v, &ls.rv);
  rng_seed(&r, seed);
  for (int i = 0; i < n; i++) {
    if ((int)rng_below(&r, 100) < from_random) {
      random_position(&v, &r, (int)rng_below(&r, 5), &ls.start);
      total.random_starts++;
    } else {
      board_start(&ls.start, &v);
    }
    play_lockstep(&ls, &r, &total);
  }
}

/* The variants of the differential test: every named one and combinations
 * chosen so that every switch value occurs, many on small boards. */
static const struct {
  const char *text;
  int games;
} variants[] = {
    {"abapa", 1000},
    {"grandslam-forbidden", 600},
    {"grandslam-all", 600},
    {"grandslam-win", 600},
    {"auale", 600},
    {"awari", 600},
    {"abapa,houses=3,seeds=3", 600},
    {"abapa,houses=3,seeds=1", 400},
    {"abapa,houses=5,seeds=6", 400},
    {"abapa,houses=8,seeds=12", 200},
    {"abapa,lap=fill", 600},
    {"abapa,feeding=none", 600},
    {"abapa,repetition=0,max_plies=200", 400},
    {"abapa,repetition=2,cycle=split", 600},
    {"grandslam-win,houses=4,seeds=2", 800},
    {"grandslam-all,houses=3,seeds=2,lap=fill", 600},
    {"grandslam-forbidden,houses=4,seeds=3,lap=fill,feeding=none", 600},
    {"awari,houses=3,seeds=2,repetition=5", 600},
    {"auale,houses=7,seeds=5,cycle=split,max_plies=300", 300},
    {"grandslam-win,houses=3,seeds=4,feeding=none,repetition=4", 600},
    {"abapa,houses=4,seeds=1,max_plies=50,cycle=split", 600},
    {"grandslam-forbidden,houses=5,seeds=2,cycle=split,lap=fill", 600},
    {"grandslam-all,seeds=12,lap=fill", 200},
    {"abapa,houses=8,seeds=1,repetition=0,max_plies=120", 400},
    {"grandslam-forbidden,houses=3,seeds=12,lap=fill", 400},
    {"grandslam-win,houses=3,seeds=6,lap=fill,repetition=100,max_plies=0", 300},
    {"abapa,max_plies=1", 100},
    {"auale,houses=4,seeds=4,grand_slam=all,feeding=none,cycle=split,max_plies=7", 400},
};

static void test_named_and_combined(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
    run_variant(variants[i].text, scaled(variants[i].games), 40, rng_mix(2024, i));
}

/* Every houses x seeds pair, the other switches rotating through their values. */
static void test_sweep(void **state) {
  static const char *const laps[] = {"skip", "fill"};
  static const char *const slams[] = {"nothing", "forbidden", "all", "win"};
  static const char *const feeds[] = {"must", "none"};
  static const int reps[] = {3, 2, 0, 4};
  static const char *const cycles[] = {"own", "split"};
  static const int plies[] = {1000, 0, 80, 300, 0};
  int k = 0;
  (void)state;
  for (int h = VARIANT_MIN_HOUSES; h <= VARIANT_MAX_HOUSES; h++)
    for (int s = VARIANT_MIN_SEEDS; s <= VARIANT_MAX_SEEDS; s++, k++) {
      char text[256];
      int rep = reps[k % 4], mp = plies[k % 5];
      if (rep == 0 && mp == 0) mp = 150;
      snprintf(text, sizeof text,
               "abapa,houses=%d,seeds=%d,lap=%s,grand_slam=%s,feeding=%s,repetition=%d,"
               "cycle=%s,max_plies=%d",
               h, s, laps[k % 2], slams[(k / 2) % 4], feeds[(k / 3) % 2], rep, cycles[(k / 5) % 2],
               mp);
      run_variant(text, scaled(24), 50, rng_mix(777, (uint64_t)k));
    }
}

static void report(const counters *c) {
  printf("[diff] games %ld (%ld from random positions, %ld over at the start), moves %ld, "
         "illegal tries %ld\n",
         c->games, c->random_starts, c->starts_over, c->moves, c->illegal_tries);
  printf("[diff] laps %ld (double %ld, lap=fill %ld; 6 houses: 12-16 seeds %ld, 17-22 %ld, 23+ "
         "%ld)\n",
         c->lap_moves, c->double_laps, c->fill_laps, c->sown12, c->sown17, c->sown23);
  printf("[diff] captures %ld, chains of 2+ houses %ld, captures reaching the row's end %ld\n",
         c->captures, c->chains, c->chain_to_edge);
  printf("[diff] grand slams: nothing %ld, forbidden filtered %ld / played %ld, all %ld, "
         "win captured %ld / nothing %ld\n",
         c->gs_nothing, c->gs_forbidden_filtered, c->gs_forbidden_played, c->gs_all,
         c->gs_win_captured, c->gs_win_nothing);
  printf("[diff] feeding: restricted positions %ld, feeding moves %ld, can't feed %ld, "
         "feeding=none starving moves %ld\n",
         c->feed_restricted, c->feed_moves, c->feed_cannot, c->feed_none_starve);
  printf("[diff] ends: majority %ld (24-24 style draws %ld), no-move %ld, repetition own %ld / "
         "split %ld, half-seed scores %ld, ply-limit %ld, stopped %ld\n",
         c->end_majority, c->end_draw_half, c->end_no_move, c->end_repetition_own,
         c->end_repetition_split, c->end_split_half, c->end_ply_limit, c->end_safety);
}

/* board_capture_of (the capture and grand-slam rule that the evaluation,
 * move ordering and MCTS playouts use without playing the move) against
 * board_play on a copy, on a million random positions: every grand_slam
 * switch, both lap rules, every row length; rows are drawn sparse often so
 * that chains and grand slams are common, stores so that `win` goes both
 * ways. */
static void test_capture_of(void **state) {
  static const char *const slams[] = {"nothing", "forbidden", "all", "win"};
  static const char *const laps[] = {"skip", "fill"};
  long calls = 0, captures = 0, slams_seen = 0, slam_nothing = 0, lap_moves = 0;
  int k = 0;
  (void)state;
  for (int g = 0; g < 4; g++)
    for (int l = 0; l < 2; l++)
      for (int h = VARIANT_MIN_HOUSES; h <= VARIANT_MAX_HOUSES; h++, k++) {
        char text[128], err[256];
        variant v;
        snprintf(text, sizeof text, "abapa,houses=%d,lap=%s,grand_slam=%s", h, laps[l], slams[g]);
        assert_int_equal(variant_parse(text, &v, err, sizeof err), 0);
        rng r;
        rng_seed(&r, rng_mix(4242, (uint64_t)k));
        const int positions = 1000000 / 48 + 1;
        for (int n = 0; n < positions; n++) {
          int pits[VARIANT_MAX_PITS], stores[2], sum = 0;
          int sparse = (int)rng_below(&r, 3); /* 0: any counts, 1-2: mostly 0..3 */
          for (int p = 0; p < v.pits; p++) {
            int c = sparse ? (int)rng_below(&r, 4) : (int)rng_below(&r, (uint32_t)(3 * v.seeds));
            if (rng_below(&r, 40) == 0) c = v.pits + (int)rng_below(&r, (uint32_t)v.pits); /* laps */
            if (sum + c > v.total) c = 0;
            pits[p] = c;
            sum += c;
          }
          stores[0] = (int)rng_below(&r, (uint32_t)(v.total - sum + 1));
          stores[1] = v.total - sum - stores[0];
          for (int side = 0; side < 2; side++) {
            board b;
            board_set(&b, &v, pits, stores, side);
            for (int m = side * h; m < (side + 1) * h; m++) {
              if (!b.pit[m]) continue;
              board c = b;
              int want = board_play(&c, &v, m);
              int got = board_capture_of(&b, &v, side, m);
              assert_int_equal(board_quiet_move(&b, &v, m), (board_legal(&b, &v) >> m & 1) && !want);
              if (got != want) {
                char pos[NOTATION_POSITION_MAX];
                notation_format_position(&b, &v, NULL, pos, sizeof pos);
                fail_msg("%s: %s house %d: board_capture_of %d, board_play %d", text, pos, m, got,
                         want);
              }
              /* The same from the other side's turn (the evaluation asks for both sides). */
              board o = b;
              o.side = (uint8_t)(1 - side);
              assert_int_equal(board_capture_of(&o, &v, side, m), want);
              calls++;
              captures += want > 0;
              lap_moves += b.pit[m] >= v.pits;
              if (board_is_grand_slam(&b, &v, m)) {
                slams_seen++;
                slam_nothing += want == 0;
              }
            }
          }
        }
      }
  printf("[diff] capture_of: %ld moves, %ld captures, %ld lap moves, %ld grand slams (%ld take "
         "nothing)\n",
         calls, captures, lap_moves, slams_seen, slam_nothing);
  assert_true(captures > 100000 && lap_moves > 10000 && slams_seen > 10000);
  assert_true(slam_nothing > 1000 && slam_nothing < slams_seen);
}

/* Runs after the game tests: every situation must have occurred. */
static void test_situations_covered(void **state) {
  const counters *c = &total;
  (void)state;
  report(c);
  assert_true(c->games > 0);
  assert_true(c->random_starts > 0);
  assert_true(c->starts_over > 0);
  assert_true(c->illegal_tries > 0);
  assert_true(c->lap_moves > 0);
  assert_true(c->double_laps > 0);
  assert_true(c->fill_laps > 0);
  assert_true(c->sown12 > 0);
  assert_true(c->sown17 > 0);
  assert_true(c->sown23 > 0);
  assert_true(c->chains > 0);
  assert_true(c->chain_to_edge > 0);
  assert_true(c->gs_nothing > 0);
  assert_true(c->gs_forbidden_filtered > 0);
  assert_true(c->gs_forbidden_played > 0);
  assert_true(c->gs_all > 0);
  assert_true(c->gs_win_captured > 0);
  assert_true(c->gs_win_nothing > 0);
  assert_true(c->feed_restricted > 0);
  assert_true(c->feed_moves > 0);
  assert_true(c->feed_cannot > 0);
  assert_true(c->feed_none_starve > 0);
  assert_true(c->end_majority > 0);
  assert_true(c->end_draw_half > 0);
  assert_true(c->end_no_move > 0);
  assert_true(c->end_repetition_own > 0);
  assert_true(c->end_repetition_split > 0);
  assert_true(c->end_split_half > 0);
  assert_true(c->end_ply_limit > 0);
  assert_int_equal(c->end_safety, 0);
}

static void check_perft(const variant *v, const board *b, int maxdepth, counters *c) {
  ref_variant rv;
  ref_pos p;
  to_ref(v, &rv);
  memset(&p, 0, sizeof p);
  for (int i = 0; i < v->pits; i++) p.house[i] = b->pit[i];
  p.store[0] = b->store[0];
  p.store[1] = b->store[1];
  p.side = b->side;
  c->perft_positions++;
  for (int d = 0; d <= maxdepth; d++) {
    uint64_t core_n = perft_count(b, v, d), ref_n = ref_perft(&p, &rv, d);
    c->perft_nodes += (long)ref_n;
    if (core_n != ref_n) {
      char vbuf[256], pbuf[NOTATION_POSITION_MAX];
      variant_format(v, vbuf, sizeof vbuf);
      notation_format_position(b, v, NULL, pbuf, sizeof pbuf);
      fail_msg("perft %d: core %llu, reference %llu\n  reproduce: oware perft --variant '%s' "
               "--position '%s' %d",
               d, (unsigned long long)core_n, (unsigned long long)ref_n, vbuf, pbuf, d);
    }
    if (ref_n == 0) break;
  }
}

/* Perft from the start and from positions of random play and random deals. */
static void test_perft(void **state) {
  static const struct {
    const char *text;
    int start_depth, depth, positions;
  } pv[] = {
      {"abapa", 7, 6, 40},
      {"grandslam-forbidden", 6, 6, 60},
      {"grandslam-all", 6, 6, 60},
      {"grandslam-win", 6, 6, 60},
      {"auale,lap=fill,feeding=none", 6, 5, 60},
      {"abapa,houses=3,seeds=2", 6, 6, 200},
      {"grandslam-forbidden,houses=3,seeds=3,feeding=none", 6, 6, 200},
      {"grandslam-win,houses=4,seeds=2,lap=fill", 6, 6, 150},
      {"grandslam-all,houses=4,seeds=5,lap=fill", 6, 6, 60},
      {"abapa,houses=8,seeds=12", 6, 4, 20},
      {"awari,houses=5,seeds=6", 6, 6, 40},
      {"abapa,houses=7,seeds=1,grand_slam=forbidden", 6, 6, 100},
  };
  counters c;
  (void)state;
  memset(&c, 0, sizeof c);
  for (size_t i = 0; i < sizeof pv / sizeof pv[0]; i++) {
    variant v;
    rng r;
    board b;
    parse_variant(pv[i].text, &v);
    rng_seed(&r, rng_mix(99, i));
    board_start(&b, &v);
    check_perft(&v, &b, pv[i].start_depth, &c);
    int n = scaled(pv[i].positions);
    for (int k = 0; k < n; k++) {
      if (k % 2) {
        random_position(&v, &r, 1 + (int)rng_below(&r, 4), &b);
      } else { /* a few random plies from the start */
        board_start(&b, &v);
        int plies = (int)rng_below(&r, 60);
        for (int j = 0; j < plies; j++) {
          uint32_t legal;
          if (board_status(&b, &v, &legal) != BOARD_END_NONE) break;
          int cnt = __builtin_popcount(legal), pick = (int)rng_below(&r, (uint32_t)cnt);
          while (pick--) legal &= legal - 1;
          board_play(&b, &v, __builtin_ctz(legal));
        }
      }
      check_perft(&v, &b, pv[i].depth, &c);
    }
  }
  printf("[diff] perft: %ld positions, %ld leaf nodes compared\n", c.perft_positions,
         c.perft_nodes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_named_and_combined),
      cmocka_unit_test(test_sweep),
      cmocka_unit_test(test_situations_covered),
      cmocka_unit_test(test_perft),
      cmocka_unit_test(test_capture_of),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
