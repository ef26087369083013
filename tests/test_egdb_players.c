/* test_egdb_players.c: the perfect player keeps the database value; minimax and mcts with egdb= keep won endings won; perfect and minimax convert won endings (no repetition end first); minimax fights on when lost and plays on in draws; an iteration cut short keeps the best move. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/game.h"
#include "core/notation.h"
#include "core/rng.h"
#include "egdb/egdb.h"
#include "players/fight.h"
#include "players/player.h"
#include "players/tablebase.h"
#include "tests/fixture.h"

static int quick(void) { return getenv("OWARE_TEST_QUICK") != NULL; }

static char tmpdir[64];
#define N_SEEDS 10

static int setup(void **state) {
  (void)state;
  if (fixture_mkdtemp(tmpdir, sizeof tmpdir, "egdbp")) return -1;
  const char *names[] = {"abapa", "awari"};
  for (int k = 0; k < 2; k++)
    if (fixture_egdb(names[k], tmpdir, N_SEEDS, 2)) return -1;
  return 0;
}

static int teardown(void **state) {
  (void)state;
  return fixture_remove(tmpdir);
}

/* A random position of v with n seeds on the board and the rest in the
 * stores, neither above half (so that the game is on). */
static void random_position(const variant *v, int n, int side, rng *r, board *b) {
  int pits[VARIANT_MAX_PITS] = {0}, stores[2];
  for (int s = 0; s < n; s++) pits[rng_below(r, (uint32_t)v->pits)]++;
  stores[0] = (v->total - n) / 2;
  stores[1] = v->total - n - stores[0];
  board_set(b, v, pits, stores, side);
}

/* The variant vname into *v and the player of spec_fmt with the tables'
 * folder for its %s (the spec in spec[len]). */
static player *make_player(const char *vname, const char *spec_fmt, variant *v, char *spec,
                           size_t len) {
  char err[512];
  assert_int_equal(variant_parse(vname, v, err, sizeof err), 0);
  snprintf(spec, len, spec_fmt, tmpdir);
  player *p = player_create(spec, err, sizeof err);
  if (!p) fail_msg("%s: %s", spec, err);
  return p;
}

/* Plays games of `spec` against random from random endings; at every move
 * of spec checks the move's database value against the position's. mode 0:
 * the lower bound (split value for cycle=split) is kept; mode 1: a won (or drawn)
 * result, when the tables decide it, stays won (drawn or better). */
static void play(const char *vname, const char *spec_fmt, int games, int mode) {
  variant v;
  char err[512], spec[512];
  player *p = make_player(vname, spec_fmt, &v, spec, sizeof spec);
  player *opp = player_create("random:seed=7", err, sizeof err);
  assert_non_null(opp);
  egdb *db;
  assert_int_equal(egdb_open(tmpdir, &v, -1, EGDB_VERIFY, &db, err, sizeof err), 0);
  rng r;
  rng_seed(&r, 99);
  long moves = 0, kept = 0;
  for (int i = 0; i < games; i++) {
    board start;
    random_position(&v, 2 + (int)rng_below(&r, N_SEEDS - 1), (int)rng_below(&r, 2), &r, &start);
    game g;
    assert_int_equal(game_init(&g, &v, &start), 0);
    if (player_new_game(p, &v, (uint64_t)i + 1, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(player_new_game(opp, &v, (uint64_t)i + 1, err, sizeof err), 0);
    int me = i % 2 ? BOARD_NORTH : BOARD_SOUTH;
    while (g.end == BOARD_END_NONE) {
      int m;
      if (g.pos.side == me) {
        player_info info;
        player_status st = player_choose(p, &g, NULL, &m, &info, err, sizeof err);
        if (st != PLAYER_OK) fail_msg("%s: %s", spec, err);
        /* perfect reports its table value as a search of one ply (a game's
         * records keep a score only with a depth) */
        if (!strncmp(spec, "perfect", 7) && (!info.scored || info.depth != 1))
          fail_msg("%s game %d ply %d: scored %d at depth %d", spec, i, g.plies, info.scored,
                   info.depth);
        egdb_value here, mv[VARIANT_MAX_PITS];
        uint32_t legal;
        assert_int_equal(egdb_probe(db, &g.pos, &here), 0);
        assert_int_equal(egdb_probe_moves(db, &g.pos, &legal, mv), 0);
        moves++;
        if (mode == 0) {
          /* awari ranks by the split value (exact there), the others by the lower bound */
          if (v.cycle == VARIANT_CYCLE_SPLIT ? mv[m].split2 != here.split2
                                             : mv[m].lower != here.lower)
            fail_msg("%s game %d ply %d: move %d worth lower %d split2 %d, the position %d %d",
                     spec, i, g.plies, m, mv[m].lower, mv[m].split2, here.lower, here.split2);
          kept++;
        } else {
          /* Results with the stores, by the split value (awari) or exact values. */
          int exact = v.cycle == VARIANT_CYCLE_SPLIT || here.lower == here.upper;
          if (exact) {
            int st2 = 2 * (g.pos.store[me] - g.pos.store[1 - me]);
            int a = v.cycle == VARIANT_CYCLE_SPLIT ? here.split2 : 2 * here.lower;
            int b = v.cycle == VARIANT_CYCLE_SPLIT ? mv[m].split2 : 2 * mv[m].lower;
            int before = st2 + 2 * a - 2 * here.n, after = st2 + 2 * b - 2 * here.n;
            int rb = (before > 0) - (before < 0), ra = (after > 0) - (after < 0);
            if (ra < rb)
              fail_msg("%s game %d ply %d: move %d turns result %d into %d", spec, i, g.plies, m,
                       rb, ra);
            kept++;
          }
        }
      } else {
        assert_int_equal(player_choose(opp, &g, NULL, &m, NULL, err, sizeof err), PLAYER_OK);
      }
      assert_int_equal(game_play(&g, m), 0);
    }
    game_free(&g);
  }
  printf("%s (%s): %d games, %ld moves, %ld checked, none lost value\n", spec, vname, games,
         moves, kept);
  egdb_close(db);
  player_free(p);
  player_free(opp);
}

static void test_perfect_abapa(void **state) {
  (void)state;
  play("abapa", "perfect:egdb=%s,fallback=random", quick() ? 60 : 300, 0);
}
static void test_perfect_awari(void **state) {
  (void)state;
  play("awari", "perfect:egdb=%s,fallback=random", quick() ? 60 : 300, 0);
}
static void test_minimax_egdb(void **state) {
  (void)state;
  play("abapa", "minimax:depth=2,egdb=%s", quick() ? 30 : 150, 1);
  play("awari", "minimax:depth=2,egdb=%s", quick() ? 30 : 150, 1);
}
static void test_mcts_egdb(void **state) {
  (void)state;
  play("abapa", "mcts:playouts=300,egdb=%s", quick() ? 20 : 100, 1);
}

/* Whether the game g converted me's win: it ended by a capture majority or
 * a no-move end (not by repetition or the ply limit) with me the winner. */
static int converted(const game *g, int me) {
  return (g->end == BOARD_END_MAJORITY || g->end == BOARD_END_NO_MOVE) && g->winner == me;
}

/* Wins converted (issue 22 point 5): from won positions sampled from the
 * tables (the mover wins by the lower bound alone, with the stores: endless
 * play giving it none of the seeds left), `spec` plays the winner against
 * perfect and must win the game by captures or a no-move end, not let it
 * end by repetition first. */
static void convert(const char *vname, const char *spec_fmt, int games) {
  variant v;
  char err[512], spec[512];
  player *p = make_player(vname, spec_fmt, &v, spec, sizeof spec);
  snprintf(err, sizeof err, "perfect:egdb=%s,fallback=random", tmpdir);
  player *def = player_create(err, err, sizeof err);
  assert_non_null(def);
  egdb *db;
  assert_int_equal(egdb_open(tmpdir, &v, -1, EGDB_VERIFY, &db, err, sizeof err), 0);
  rng r;
  rng_seed(&r, 2205);
  int played = 0, failed = 0, plies = 0;
  while (played < games) {
    board start;
    random_position(&v, 2 + (int)rng_below(&r, N_SEEDS - 1), (int)rng_below(&r, 2), &r, &start);
    egdb_value here;
    assert_int_equal(egdb_probe(db, &start, &here), 0);
    int me = start.side, target = start.store[me] + here.lower;
    if (2 * target <= v.total) continue; /* not won by the lower bound */
    game g;
    assert_int_equal(game_init(&g, &v, &start), 0);
    if (g.end != BOARD_END_NONE) {
      game_free(&g);
      continue;
    }
    played++;
    if (player_new_game(p, &v, (uint64_t)played, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(player_new_game(def, &v, (uint64_t)played, err, sizeof err), 0);
    while (g.end == BOARD_END_NONE) {
      int m;
      player *to_move = g.pos.side == me ? p : def;
      if (player_choose(to_move, &g, NULL, &m, NULL, err, sizeof err) != PLAYER_OK)
        fail_msg("%s", err);
      assert_int_equal(game_play(&g, m), 0);
    }
    plies += g.plies;
    if (!converted(&g, me)) {
      failed++;
      char pos[NOTATION_POSITION_MAX];
      notation_format_position(&start, &v, NULL, pos, sizeof pos);
      printf("%s (%s): from %s (proven %d) the game ended (%d) at %g after %d plies\n", spec,
             vname, pos, target, (int)g.end, g.score2[me] / 2.0, g.plies);
    }
    game_free(&g);
  }
  printf("%s (%s): %d won positions, %d converted against perfect, %d plies\n", spec, vname,
         played, played - failed, plies);
  egdb_close(db);
  player_free(p);
  player_free(def);
  assert_int_equal(failed, 0);
}

static void test_wins_converted(void **state) {
  (void)state;
  const char *vs[] = {"abapa", "auale"};
  for (int i = 0; i < 2; i++) {
    convert(vs[i], "perfect:egdb=%s,fallback=random", quick() ? 30 : 150);
    convert(vs[i], "minimax:depth=4,egdb=%s", quick() ? 30 : 150);
  }
}

/* The reference of test_fights_on, written apart from players/fight.c:
 * +1, 0, -1 for the side to move at b (v abapa-like: cycle own) when the game
 * is over there or both bounds of the tables agree on the sign; 2 else. */
/* The final difference for the side to move at b (not over), half seeds,
 * that the tables prove: lo (endless play none for the mover) .. hi (all). */
static void ref_bounds(const egdb *db, const board *b, int *lo, int *hi) {
  egdb_value x;
  assert_int_equal(egdb_probe(db, b, &x), 0);
  int me = b->store[b->side], you = b->store[1 - b->side];
  *lo = 2 * (me - you) + 4 * x.lower - 2 * x.n;
  *hi = 2 * (me - you) + 4 * x.upper - 2 * x.n;
}

static int ref_result(const egdb *db, const variant *v, const board *b) {
  uint32_t legal;
  board_end e = board_status(b, v, &legal);
  int s2[2];
  if (e != BOARD_END_NONE) {
    board_final(b, v, e, s2);
  } else {
    int lo, hi;
    ref_bounds(db, b, &lo, &hi);
    if (lo > 0) return 1;
    if (hi < 0) return -1;
    return lo == 0 && hi == 0 ? 0 : 2;
  }
  int d = s2[b->side] - s2[1 - b->side];
  return (d > 0) - (d < 0);
}

/* The moves the reference keeps at g's start (no history): 0 when a move
 * is undecided or wins. */
static uint32_t ref_fight(const egdb *db, const game *g) {
  const variant *v = &g->v;
  int res[VARIANT_MAX_PITS], root = -1, best = -VARIANT_MAX_PITS - 2;
  for (int m = 0; m < v->pits; m++) {
    if (!(g->legal >> m & 1u)) continue;
    board c = g->pos;
    board_play(&c, v, m);
    int r = ref_result(db, v, &c);
    if (r == 2 || r == -1) return 0;
    res[m] = -r;
    if (res[m] > root) root = res[m];
  }
  uint32_t keep = 0;
  for (int m = 0; m < v->pits; m++) {
    if (!(g->legal >> m & 1u) || res[m] != root) continue;
    board c = g->pos;
    board_play(&c, v, m);
    int count = 0; /* lost: the replies that keep the win; drawn: those that lose */
    uint32_t legal;
    int score = -VARIANT_MAX_PITS - 1; /* a move that ends the game: last */
    if (board_status(&c, v, &legal) == BOARD_END_NONE) {
      for (int q = 0; q < v->pits; q++) {
        if (!(legal >> q & 1u)) continue;
        board d = c;
        board_play(&d, v, q);
        count += ref_result(db, v, &d) == (root ? -1 : 1);
      }
      score = root ? -count : count;
    }
    if (score > best) {
      best = score;
      keep = 0;
    }
    if (score == best) keep |= 1u << m;
  }
  return keep;
}

/* g: a game of v from start with moves played (the history since the last capture). */
static void game_after(game *g, const variant *v, const char *start, const char *moves) {
  char err[256];
  board b;
  if (notation_parse_position(start, v, &b, err, sizeof err)) fail_msg("%s: %s", start, err);
  assert_int_equal(game_init(g, v, &b), 0);
  int mv[128];
  int n = notation_parse_moves(moves, v, mv, 128, err, sizeof err);
  if (n < 0) fail_msg("%s: %s", moves, err);
  for (int i = 0; i < n; i++) assert_int_equal(game_play(g, mv[i]), 0);
}

/* Game 42 of issue 22's match of 2026-12-05 (auale, tables to 20): North,
 * lost, had d, which plays on, and e, which repeats the position after the
 * last capture's eleventh move and so ends the game (26-22 by the rows).
 * fight_moves counted e's replies as if the game went on, kept e alone, and
 * the game was given up at once in 9 of that match's 15 losses by
 * repetition. A move that ends the game now comes last; minimax plays d. */
static void test_fight_not_given_up(void **state) {
  (void)state;
  variant v;
  char err[512], spec[512];
  player *p = make_player("auale", "minimax:depth=5,book=off,egdb=%s", &v, spec, sizeof spec);
  game g;
  game_after(&g, &v, "0-0-0-1-0-1-0-0-0-1-0-1-24-20-S", "DdEfAeBfFbCaAcBbDdCcE");
  int d = notation_move_index(&v, 'd'), e = notation_move_index(&v, 'e');
  assert_int_equal(g.legal, (1u << d) | (1u << e));
  tablebase tb;
  assert_int_equal(tablebase_init(&tb, tmpdir, err, sizeof err), 0);
  assert_int_equal(tablebase_new_game(&tb, &v, err, sizeof err), 0);
  int lost = -1;
  uint32_t keep = fight_moves(&tb, &g, &lost);
  assert_int_equal(lost, 1);
  assert_int_equal(keep, 1u << d);
  int m;
  player_info info;
  if (player_new_game(p, &v, 1, err, sizeof err)) fail_msg("%s", err);
  assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
  assert_int_equal(m, d);
  tablebase_free(&tb);
  game_free(&g);
  player_free(p);
}

/* Six positions of issue 22's match of 2026-12-05 (auale, tables to 20;
 * games 82, 159, 262, 350, 788 and 807), each from its last capture, where
 * new took a repetition draw at once (24-24) though another move drew too
 * and played on. The tables decide none of them (cycle-sensitive, or
 * lost): the choice is the search's. Minimax now plays a move that plays
 * on, and its own search after that move, with the history, sees the draw
 * whole. Before, it played the repetition in all six (the move searched
 * first of the tied ones). */
static void test_play_on_in_draws(void **state) {
  (void)state;
  static const struct {
    const char *start, *moves;
    char ends; /* the move that repeats */
  } cases[] = {
      {"1-1-0-0-0-1-0-1-1-0-1-0-21-21-S", "BcCeAbBdDcCeEdDeEfFcCdBbDcE", 'a'},
      {"0-1-1-0-1-0-1-0-0-0-1-1-21-21-N", "eBaEbCcEdDeEfFcCbBcCaAdDbBe", 'C'},
      {"0-2-0-0-1-0-0-2-0-0-1-0-21-21-S", "BeEbDdCeEcDdEeFfCcBbDdEaCeAcBdD", 'b'},
      {"1-0-0-1-1-1-1-1-0-0-0-0-21-21-N", "aAbBdEcDeCdEeDfFbEaBcCeAdBbDcCeEdDeEfFcCdBbDcE", 'a'},
      {"1-0-0-1-1-1-0-0-2-1-1-0-20-20-S", "AeBdEeDcCeEdDeEfFdDeAaCcEdDbBeEdD", 'c'},
      {"1-1-0-0-0-1-1-0-0-0-0-0-21-23-N", "aBbCcDdAeBfFaAbCcBdEe", 'D'},
  };
  variant v;
  char err[512], spec[512];
  player *p = make_player("auale", "minimax:book=off,egdb=%s", &v, spec, sizeof spec);
  /* traps=1 spends the time left on the tied moves' replies: it plays on too. */
  player *pt = make_player("auale", "minimax:book=off,traps=1,egdb=%s", &v, spec, sizeof spec);
  if (player_new_game(p, &v, 1, err, sizeof err) || player_new_game(pt, &v, 1, err, sizeof err))
    fail_msg("%s", err);
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    game g, after;
    game_after(&g, &v, cases[k].start, cases[k].moves);
    const int e = notation_move_index(&v, cases[k].ends);
    /* The repeating move draws by the rows. */
    game_after(&after, &v, cases[k].start, cases[k].moves);
    assert_int_equal(game_play(&after, e), 0);
    assert_int_equal(after.end, BOARD_END_REPETITION);
    assert_true(after.score2[0] == after.score2[1]);
    game_free(&after);
    player_limits lim = {.nodes = 3000000};
    player_info info;
    int m;
    assert_int_equal(player_choose(p, &g, &lim, &m, &info, err, sizeof err), PLAYER_OK);
    if (m == e || info.score != 0)
      fail_msg("case %zu (%s %s): minimax plays house %d with %d; house %d repeats", k,
               cases[k].start, cases[k].moves, m, info.score, e);
    int mt;
    assert_int_equal(player_choose(pt, &g, &lim, &mt, &info, err, sizeof err), PLAYER_OK);
    if (mt == e || info.score != 0)
      fail_msg("case %zu: minimax:traps=1 plays house %d with %d; house %d repeats", k, mt,
               info.score, e);
    /* The move played draws: the opponent's search after it sees a draw whole. */
    game_after(&after, &v, cases[k].start, cases[k].moves);
    assert_int_equal(game_play(&after, m), 0);
    assert_int_equal(after.end, BOARD_END_NONE);
    int r;
    assert_int_equal(player_choose(p, &after, &lim, &r, &info, err, sizeof err), PLAYER_OK);
    if (info.score != 0 || info.depth < 120)
      fail_msg("case %zu: after house %d the opponent's search gives %d at depth %d", k, m,
               info.score, info.depth);
    game_free(&after);
    game_free(&g);
  }
  player_free(p);
  player_free(pt);
}

/* Game 748 of issue 22's match of 2026-12-06 (auale, tables to 20), new's
 * 45th move, from the last capture: of North's moves the tables prove b
 * and e lost (North ends with 20 seeds, 22 or 23 at most), c is not
 * decided (up to 25). Without a hash table the root had no move to search
 * first: the one the history ordered first, often e, settled at once by
 * the tables; an iteration cut short by the limit while c was searched
 * then fell back on it. At each of the 10 node limits below minimax:hash=0
 * played e or b. The last whole iteration's best move now comes first at
 * the root. */
static void test_cut_iteration_keeps_best(void **state) {
  (void)state;
  variant v;
  char err[512], spec[512];
  player *p = make_player("auale", "minimax:hash=0,lmr=0,rfp=0,iir=0,asp=0,book=off,egdb=%s",
                          &v, spec, sizeof spec);
  game g;
  game_after(&g, &v, "0-2-0-1-0-1-1-1-0-0-1-2-21-18-N", "aBbDeCdEcDeFaEdFfDeAbEaCdDfE");
  const int b = notation_move_index(&v, 'b'), c = notation_move_index(&v, 'c'),
            e = notation_move_index(&v, 'e');
  assert_int_equal(g.legal, (1u << b) | (1u << c) | (1u << e));
  if (player_new_game(p, &v, 1, err, sizeof err)) fail_msg("%s", err);
  const int limits = quick() ? 4 : 10;
  for (int k = 1; k <= limits; k++) {
    player_limits lim = {.nodes = 100000LL * k};
    player_info info;
    int m;
    assert_int_equal(player_choose(p, &g, &lim, &m, &info, err, sizeof err), PLAYER_OK);
    if (m != c)
      fail_msg("nodes=%lld: minimax:hash=0 plays house %d (score %d, depth %d); c is house %d",
               lim.nodes, m, info.score, info.depth, c);
  }
  game_free(&g);
  player_free(p);
}

/* Positions whose every move the tables decide, none a win (lost, drawn,
 * or cycle-sensitive with decided moves): fight_moves keeps the moves the
 * reference keeps; minimax with the tables searches them on to its depth
 * (it used to stop at depth 1, every move scoring the same table result)
 * and plays one. */
static void test_fights_on(void **state) {
  (void)state;
  const char *vs[] = {"abapa", "auale"};
  for (int k = 0; k < 2; k++) {
    variant v;
    char err[512], spec[512];
    player *p = make_player(vs[k], "minimax:depth=5,egdb=%s", &v, spec, sizeof spec);
    tablebase tb;
    egdb *db;
    assert_int_equal(tablebase_init(&tb, tmpdir, err, sizeof err), 0);
    assert_int_equal(tablebase_new_game(&tb, &v, err, sizeof err), 0);
    assert_int_equal(egdb_open(tmpdir, &v, -1, EGDB_VERIFY, &db, err, sizeof err), 0);
    rng r;
    rng_seed(&r, 2212);
    int seen[2] = {0, 0}, narrowed = 0;
    /* Drawn positions are rare (one in about forty): go on until a few are seen. */
    const int lost_wanted = quick() ? 60 : 300, drawn_wanted = quick() ? 2 : 8;
    for (int tries = 0; tries < 40000 && (seen[1] < lost_wanted || seen[0] < drawn_wanted);
         tries++) {
      board start;
      random_position(&v, 3 + (int)rng_below(&r, N_SEEDS - 2), (int)rng_below(&r, 2), &r, &start);
      game g;
      assert_int_equal(game_init(&g, &v, &start), 0);
      int lost = -1;
      uint32_t want = g.end == BOARD_END_NONE ? ref_fight(db, &g) : 0;
      uint32_t got = g.end == BOARD_END_NONE ? fight_moves(&tb, &g, &lost) : 0;
      if (got != want) {
        char pos[NOTATION_POSITION_MAX];
        notation_format_position(&start, &v, NULL, pos, sizeof pos);
        fail_msg("%s %s: fight_moves %#x, the reference %#x", vs[k], pos, got, want);
      }
      if (want && __builtin_popcount(g.legal) > 1 && seen[lost] < (lost ? lost_wanted : drawn_wanted)) {
        seen[lost]++;
        narrowed += want != g.legal;
        int m;
        player_info info;
        if (player_new_game(p, &v, 1, err, sizeof err)) fail_msg("%s", err);
        assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
        assert_true(want >> m & 1u);
        assert_int_equal(info.depth, 5);
      }
      game_free(&g);
    }
    printf("%s: %d lost and %d drawn positions, %d with fewer moves kept\n", vs[k], seen[1],
           seen[0], narrowed);
    assert_true(seen[0] > 0 && seen[1] > 0 && narrowed > 0);
    egdb_close(db);
    tablebase_free(&tb);
    player_free(p);
  }
}

/* Positions above the tables that a search with them proves lost: minimax
 * fights on with the tables off for the rest of its depth or nodes (it
 * used to play at once, at the depth where the loss was proven), and still
 * reports the proven loss. */
static void fights_on_above(const char *vname, const char *spec_fmt, int depth, long long nodes) {
  variant v;
  char err[512], spec[512];
  player *p = make_player(vname, spec_fmt, &v, spec, sizeof spec);
  rng r;
  rng_seed(&r, 2214);
  int proven = 0, early = 0;
  const int wanted = quick() ? 10 : 40;
  for (int tries = 0; tries < 3000 && proven < wanted; tries++) {
    board start;
    random_position(&v, N_SEEDS + 1 + (int)rng_below(&r, 3), (int)rng_below(&r, 2), &r, &start);
    game g;
    assert_int_equal(game_init(&g, &v, &start), 0);
    if (g.end != BOARD_END_NONE || __builtin_popcount(g.legal) < 2) {
      game_free(&g);
      continue;
    }
    int m;
    player_info info;
    if (player_new_game(p, &v, 1, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
    assert_true(g.legal >> m & 1u);
    if (info.score < -PLAYER_WIN + 1000) {
      proven++;
      if (depth) {
        early += info.depth < depth;
      } else {
        early += info.nodes < nodes;
      }
    }
    game_free(&g);
  }
  printf("%s %s: %d positions proven lost above the tables, %d searched short of the limit\n",
         vname, spec, proven, early);
  assert_true(proven > 0);
  assert_int_equal(early, 0);
  player_free(p);
}

static void test_fights_on_above(void **state) {
  (void)state;
  fights_on_above("abapa", "minimax:depth=6,book=off,egdb=%s", 6, 0);
  /* Two threads: the helpers are parked and started again with the tables off. */
  fights_on_above("auale", "minimax:nodes=20000,threads=2,book=off,egdb=%s", 0, 20000);
}

/* The depths of one move's iterations, as on_info reports them. */
typedef struct depth_log {
  int n, depth[256], score[256];
} depth_log;

static void log_depth(void *ctx, const player_info *info) {
  depth_log *l = ctx;
  if (l->n < 256) {
    l->depth[l->n] = info->depth;
    l->score[l->n++] = info->score;
  }
}

/* Without tables a loss is the search's own: minimax searches on to the
 * limit as one search (its iterations deepen without starting again at
 * depth 1, as a fight on with the tables off would) and reports the last
 * iteration's score (it used to start again, and to show the first
 * proof's score over the later searches). */
static void test_no_fight_without_tables(void **state) {
  (void)state;
  const char *vs[] = {"abapa", "auale"};
  for (int k = 0; k < 2; k++) {
    variant v;
    char err[512], spec[512];
    player *p = make_player(vs[k], "minimax:depth=12,book=off,egdb=off%.0s", &v, spec, sizeof spec);
    depth_log log;
    p->on_info = log_depth;
    p->info_ctx = &log;
    rng r;
    rng_seed(&r, 2215 + (uint64_t)k);
    int proven = 0;
    const int wanted = quick() ? 10 : 40;
    for (int tries = 0; tries < 3000 && proven < wanted; tries++) {
      board start;
      random_position(&v, 4 + (int)rng_below(&r, 8), (int)rng_below(&r, 2), &r, &start);
      game g;
      assert_int_equal(game_init(&g, &v, &start), 0);
      if (g.end != BOARD_END_NONE || __builtin_popcount(g.legal) < 2) {
        game_free(&g);
        continue;
      }
      int m;
      player_info info;
      log.n = 0;
      if (player_new_game(p, &v, 1, err, sizeof err)) fail_msg("%s", err);
      assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
      int lost = 0;
      for (int i = 0; i < log.n; i++) lost |= log.score[i] < -PLAYER_WIN + 1000;
      if (lost) {
        proven++;
        char pos[NOTATION_POSITION_MAX];
        notation_format_position(&start, &v, NULL, pos, sizeof pos);
        for (int i = 1; i < log.n; i++)
          if (log.depth[i] <= log.depth[i - 1])
            fail_msg("%s %s: depth %d after depth %d (the search started again)", vs[k], pos,
                     log.depth[i], log.depth[i - 1]);
        assert_true(log.n > 0);
        if (info.score != log.score[log.n - 1])
          fail_msg("%s %s: score %d reported, the last iteration's %d", vs[k], pos, info.score,
                   log.score[log.n - 1]);
      }
      game_free(&g);
    }
    printf("%s: %d positions with a loss proven by the search without tables\n", vs[k], proven);
    assert_true(proven > 0);
    player_free(p);
  }
}

/* Where the tables bound a position without deciding it, minimax keeps
 * its evaluation within the bounds: at depth 1 (no quiescence) the root's
 * score lies between the best of its moves' lowest and highest values that
 * the children's bounds allow (a decided child counts as its game end).
 * With tb_bounds=0 it does not (the test's own check). */
static int bounds_kept(const char *spec_fmt, const egdb *db, int positions) {
  variant v;
  char err[512], spec[512];
  player *p = make_player("abapa", spec_fmt, &v, spec, sizeof spec);
  const int w = 109; /* the store's default weight: centiseeds a seed */
  rng r;
  rng_seed(&r, 2213);
  int outside = 0, tried = 0;
  while (tried < positions) {
    board start;
    random_position(&v, 6 + (int)rng_below(&r, N_SEEDS - 5), (int)rng_below(&r, 2), &r, &start);
    game g;
    assert_int_equal(game_init(&g, &v, &start), 0);
    int lo = -PLAYER_WIN - 1, hi = -PLAYER_WIN - 1, sensitive = 0;
    for (int m = 0; m < v.pits && g.end == BOARD_END_NONE; m++) {
      if (!(g.legal >> m & 1u)) continue;
      board c = g.pos;
      board_play(&c, &v, m);
      int res = ref_result(db, &v, &c), clo, chi;
      if (res == 2) {
        int l2, h2;
        ref_bounds(db, &c, &l2, &h2);
        clo = -h2 * w / 2; /* from the mover's side */
        chi = -l2 * w / 2;
        sensitive = 1;
      } else {
        uint32_t l;
        int end = board_status(&c, &v, &l) != BOARD_END_NONE; /* a game end, else the tables' */
        int win = end ? PLAYER_WIN - 1 : PLAYER_WIN - 201;
        clo = chi = res > 0 ? -win : res < 0 ? win : 0;
      }
      if (clo > lo) lo = clo;
      if (chi > hi) hi = chi;
    }
    /* A root the tables decide is played otherwise (convert.h, fight.h). */
    if (g.end != BOARD_END_NONE || !sensitive || ref_result(db, &v, &g.pos) != 2) {
      game_free(&g);
      continue;
    }
    tried++;
    int m;
    player_info info;
    if (player_new_game(p, &v, 1, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(player_choose(p, &g, NULL, &m, &info, err, sizeof err), PLAYER_OK);
    outside += info.score < lo || info.score > hi;
    game_free(&g);
  }
  player_free(p);
  return outside;
}

static void test_bounds_in_search(void **state) {
  (void)state;
  variant v;
  char err[512];
  egdb *db;
  assert_int_equal(variant_parse("abapa", &v, err, sizeof err), 0);
  assert_int_equal(egdb_open(tmpdir, &v, -1, EGDB_VERIFY, &db, err, sizeof err), 0);
  int n = quick() ? 100 : 400;
  int on = bounds_kept("minimax:depth=1,qs=0,book=off,egdb=%s", db, n);
  int off = bounds_kept("minimax:depth=1,qs=0,book=off,tb_bounds=0,egdb=%s", db, n);
  printf("cycle-sensitive positions: the root's score outside the bounds %d of %d times with "
         "tb_bounds=1, %d with tb_bounds=0\n", on, n, off);
  assert_int_equal(on, 0);
  assert_true(off > 0);
  egdb_close(db);
}

/* A folder without the tables is an error for perfect and egdb=DIR, and
 * nothing for egdb=off. */
static void test_missing(void **state) {
  (void)state;
  char err[512], spec[256];
  variant v;
  assert_int_equal(variant_parse("grandslam-all", &v, err, sizeof err), 0);
  snprintf(spec, sizeof spec, "minimax:egdb=%s", tmpdir);
  player *p = player_create(spec, err, sizeof err); /* created under abapa: tables there */
  assert_non_null(p);
  assert_int_equal(player_new_game(p, &v, 1, err, sizeof err), -1);
  assert_non_null(strstr(err, "no endgame tables"));
  player_free(p);
  snprintf(spec, sizeof spec, "perfect:egdb=%s/nothing", tmpdir);
  p = player_create(spec, err, sizeof err);
  assert_non_null(p);
  game g;
  assert_int_equal(game_init(&g, &v, NULL), 0);
  int m;
  assert_int_equal(player_new_game(p, &v, 1, err, sizeof err), 0);
  assert_int_equal(player_choose(p, &g, NULL, &m, NULL, err, sizeof err), PLAYER_ERROR);
  assert_non_null(strstr(err, "no endgame tables"));
  game_free(&g);
  player_free(p);
  p = player_create("minimax:egdb=off", err, sizeof err);
  assert_non_null(p);
  player_free(p);
}

/* The specs of runs stored before egdb=auto (the store's schema 6 → 7
 * upgrade): as the SQL of that upgrade wrote them. */
static void test_spec_off_by_default(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"minimax", "minimax:egdb=off"},
      {"mcts", "mcts:egdb=off"},
      {"minimax:", "minimax:,egdb=off"},
      {"minimax:depth=3,book=off", "minimax:depth=3,book=off,egdb=off"},
      {"mcts:c=1.4", "mcts:c=1.4,egdb=off"},
      {"mcts:playouts=100,egdb=auto", NULL},
      {"mcts:weights=egdb=x", NULL},
      {"perfect", NULL},
      {"minimaxx:depth=1", NULL},
      {"level:easy", NULL},
      {"uci:cmd=minimax", NULL},
      {"greedy", NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *now = (char *)1;
    int rc = tablebase_spec_off_by_default(cases[i][0], &now);
    if (!cases[i][1]) {
      assert_int_equal(rc, 0);
      assert_null(now);
    } else {
      assert_int_equal(rc, 1);
      assert_string_equal(now, cases[i][1]);
      free(now);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_perfect_abapa), cmocka_unit_test(test_perfect_awari),
      cmocka_unit_test(test_minimax_egdb),  cmocka_unit_test(test_mcts_egdb),
      cmocka_unit_test(test_missing),       cmocka_unit_test(test_spec_off_by_default),
      cmocka_unit_test(test_wins_converted), cmocka_unit_test(test_fights_on),
      cmocka_unit_test(test_fight_not_given_up),
      cmocka_unit_test(test_play_on_in_draws),
      cmocka_unit_test(test_fights_on_above), cmocka_unit_test(test_no_fight_without_tables),
      cmocka_unit_test(test_bounds_in_search), cmocka_unit_test(test_cut_iteration_keeps_best),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
