/* example.c: an example program for the embeddable library: minimax against greedy under a variant, move by move.
 * Build: cc example.c $(pkg-config --cflags --libs oware) -o example */
#include <stdio.h>

#include <oware.h>

int main(int argc, char **argv) {
  const char *variant = argc > 1 ? argv[1] : "abapa";
  const char *south_spec = argc > 2 ? argv[2] : "minimax:depth=4";
  const char *north_spec = argc > 3 ? argv[3] : "greedy";
  char err[512], pos[128], moves[4096];
  oware_game *g = oware_game_new(variant, NULL, err, sizeof err);
  if (!g) {
    fprintf(stderr, "example: %s\n", err);
    return 2;
  }
  oware_player *side[2] = {oware_player_new(south_spec, err, sizeof err), NULL};
  if (side[0]) side[1] = oware_player_new(north_spec, err, sizeof err);
  if (!side[0] || !side[1]) {
    fprintf(stderr, "example: %s\n", err);
    oware_player_free(side[0]);
    oware_game_free(g);
    return 2;
  }
  printf("oware %s: %s (South) against %s (North), variant %s\n", oware_version(),
         oware_player_name(side[0]), oware_player_name(side[1]), variant);
  int rc = 0;
  while (!oware_game_over(g)) {
    char m;
    if (oware_player_move(side[oware_game_side(g)], g, &m, err, sizeof err) ||
        oware_game_play(g, m, err, sizeof err)) {
      fprintf(stderr, "example: %s\n", err);
      rc = 1;
      break;
    }
  }
  double score[2];
  const char *reason;
  int winner = oware_game_result(g, score, &reason);
  oware_game_position(g, pos, sizeof pos);
  int n = oware_game_moves(g, moves, sizeof moves);
  printf("moves (%d): %s\nfinal position: %s\nresult: %g-%g (%s), %s\n", n, moves, pos, score[0],
         score[1], reason,
         winner == 0 ? "South wins" : winner == 1 ? "North wins" : winner == -1 ? "draw" : "unfinished");
  oware_player_free(side[0]);
  oware_player_free(side[1]);
  oware_game_free(g);
  return rc;
}
