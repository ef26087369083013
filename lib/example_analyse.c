/* example_analyse.c: an example program for the library's API 2: the shipped levels with their Elo, an analysis (score, depth, principal variation) under a limit given per call, a take-back and a copy.
 * Build: cc example_analyse.c $(pkg-config --cflags --libs oware) -o example_analyse
 * Run:   ./example_analyse [VARIANT [SPEC [MOVES [DEPTH]]]]   e.g. ./example_analyse abapa minimax FdE 8 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <oware.h>

/* Lists the levels of the default levels file with the Elo each was
 * calibrated at. 0, or -1 with a message in err. */
static int list_levels(char *err, size_t errlen) {
  oware_levels *l = oware_levels_open(NULL, err, errlen);
  if (!l) return -1;
  printf("levels (%s):\n", oware_levels_path(l));
  for (int i = 0; i < oware_levels_count(l); i++) {
    oware_level v;
    if (oware_levels_get(l, i, &v, err, errlen)) break;
    if (isnan(v.elo)) printf("  %-8s not calibrated  %s\n", v.name, v.spec);
    else printf("  %-8s Elo %6.1f [%.1f, %.1f]  %s\n", v.name, v.elo, v.lo, v.hi, v.spec);
  }
  double lo, hi;
  if (!oware_levels_elo_range(l, &lo, &hi, err, errlen))
    printf("level:elo=N plays at any N from %.0f to %.0f\n", ceil(lo), floor(hi));
  oware_levels_free(l);
  return 0;
}

/* Plays the letters of moves into g. 0, or -1 with a message. */
static int play(oware_game *g, const char *moves, char *err, size_t errlen) {
  for (const char *m = moves; *m; m++)
    if (oware_game_play(g, *m, err, errlen)) return -1;
  return 0;
}

/* Analyses g with p to depth, plays the move, takes it back, then follows
 * the principal variation on a copy of g. 0, or -1 with a message. */
static int analyse(oware_game *g, oware_player *p, int depth, char *err, size_t errlen) {
  char before[128], after[128];
  oware_analysis a;
  if (oware_player_analyse(p, g, 0, 0, depth, &a, err, errlen)) return -1;
  printf("analysis: move %c score %d depth %d nodes %lld pv %s\n", a.move, a.score, a.depth,
         a.nodes, a.pv);
  if (a.end_in) printf("the game's end seen: %s in %d plies\n", a.end_in > 0 ? "a win" : "a loss",
                       abs(a.end_in));
  else if (abs(a.score) >= 1000000 - 1000)
    printf("the endgame tables prove %s\n", a.score > 0 ? "a win" : "a loss");
  oware_game_position(g, before, sizeof before);
  if (oware_game_play(g, a.move, err, errlen) || oware_game_undo(g, err, errlen)) return -1;
  oware_game_position(g, after, sizeof after);
  printf("take-back: %s -> %s\n", before, after);
  oware_game *c = oware_game_copy(g, err, errlen);
  if (!c) return -1;
  int rc = play(c, a.pv, err, errlen);
  if (!rc) {
    oware_game_position(c, after, sizeof after);
    printf("after the pv: %s\n", after);
  }
  oware_game_free(c);
  return rc;
}

int main(int argc, char **argv) {
  const char *variant = argc > 1 ? argv[1] : "abapa";
  const char *spec = argc > 2 ? argv[2] : "minimax";
  const char *moves = argc > 3 ? argv[3] : "";
  int depth = argc > 4 ? atoi(argv[4]) : 8;
  char err[512];
  if (list_levels(err, sizeof err)) fprintf(stderr, "example_analyse: %s\n", err);
  oware_game *g = oware_game_new(variant, NULL, err, sizeof err);
  oware_player *p = g ? oware_player_new(spec, err, sizeof err) : NULL;
  int rc = !p || play(g, moves, err, sizeof err) || analyse(g, p, depth, err, sizeof err);
  if (rc) fprintf(stderr, "example_analyse: %s\n", err);
  oware_player_free(p);
  oware_game_free(g);
  return rc ? 2 : 0;
}
