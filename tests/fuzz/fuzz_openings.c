/* fuzz_openings.c: openings files (file:PATH, a position a line) read for a run of two variants, and the openings option itself. */
#include <unistd.h>

#include "run/tournament.h"
#include "tests/fuzz/fuzz.h"

static char path[64];

/* The fuzzer's file goes when it exits. */
static void remove_file(void) { unlink(path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!*path && !atexit(remove_file))
    snprintf(path, sizeof path, "%s/oware-fuzz-openings-%ld.txt",
             access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm", (long)getpid());
  char err[1024] = "";
  if (size && data[0] == '!') {
    /* The --openings option: "random:PLIES" or "file:PATH". */
    char *text = fuzz_text(data + 1, size - 1), p[512];
    int plies, after;
    if (tournament_parse_openings(text, &plies, &after, p, sizeof p, err, sizeof err))
      FUZZ_CHECK_ERR(err);
    free(text);
    return 0;
  }
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size) fwrite(data, 1, size, f);
  fclose(f);
  tournament *t = calloc(1, sizeof *t);
  if (!t) abort();
  store_run *r = &t->run;
  store_run_init(r);
  char openings[96];
  snprintf(openings, sizeof openings, "file:%s", path);
  r->kind = STORE_ROUND_ROBIN;
  r->rounds = 1;
  r->threads = 1;
  r->seed = 1;
  if (store_run_set(&r->name, "fuzz") || store_run_set(&r->format, "games:2") ||
      store_run_set(&r->openings, openings) || store_run_add_player(r, "random", "random") ||
      store_run_add_player(r, "greedy", "greedy") || store_run_add_variant(r, "abapa") ||
      store_run_add_variant(r, "awari"))
    abort();
  if (tournament_prepare(t, err, sizeof err) == 0) {
    FUZZ_CHECK(t->opening_count > 0, "no openings read");
    for (int g = 0; g < 4; g++) {
      board b;
      int a_south;
      uint64_t seed;
      tournament_game_setup(t, 0, g, &b, &a_south, &seed);
    }
  } else {
    FUZZ_CHECK_ERR(err);
  }
  tournament_free(t);
  free(t);
  return 0;
}
