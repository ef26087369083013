/* fuzz_ogn.c: OGN files of several records: no crash, every record read is played, written and read back. */
#include "core/game.h"
#include "core/notation.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  const char *p = text;
  for (int records = 0; records < 64; records++) {
    notation_ogn o;
    size_t used = 0;
    char err[512] = "";
    int r = notation_ogn_read(p, &used, &o, err, sizeof err);
    if (r < 0) {
      FUZZ_CHECK_ERR(err);
      break;
    }
    if (r == 0) break;
    FUZZ_CHECK(used > 0 && used <= strlen(p), "used %zu of %zu", used, strlen(p));
    game g;
    if (notation_ogn_play(&o, &g, err, sizeof err) == 0) {
      /* What is written must read back as the same game. */
      char *buf = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&buf, &len);
      if (!f) abort();
      notation_meta meta = {"fuzz", "?", "????.??.??", "1", "S", "N", NULL, NULL};
      int w = notation_ogn_write(f, &g, &meta);
      fclose(f);
      FUZZ_CHECK(w == 0, "write failed");
      notation_ogn back;
      size_t u2;
      FUZZ_CHECK(notation_ogn_read(buf, &u2, &back, err, sizeof err) == 1, "rewritten record: %s\n%s", err, buf);
      FUZZ_CHECK(back.nmoves == g.plies, "%d moves read back, %d played", back.nmoves, g.plies);
      game g2;
      FUZZ_CHECK(notation_ogn_play(&back, &g2, err, sizeof err) == 0, "replay: %s", err);
      FUZZ_CHECK(g2.end == g.end && g2.winner == g.winner, "another ending");
      game_free(&g2);
      notation_ogn_free(&back);
      free(buf);
      game_free(&g);
    } else {
      FUZZ_CHECK_ERR(err);
    }
    notation_ogn_free(&o);
    p += used;
  }
  free(text);
  return 0;
}
