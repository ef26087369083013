/* fuzz_openings.c: openings files (file:PATH, a position a line) read for a run of two variants, and the openings option itself. */
#include <unistd.h>

#include "arena/tournament.h"
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
    int plies;
    if (tournament_parse_openings(text, &plies, p, sizeof p, err, sizeof err)) FUZZ_CHECK_ERR(err);
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
  snprintf(r->name, sizeof r->name, "fuzz");
  snprintf(r->kind, sizeof r->kind, "round-robin");
  snprintf(r->format, sizeof r->format, "games:2");
  snprintf(r->openings, sizeof r->openings, "file:%s", path);
  r->rounds = 1;
  r->threads = 1;
  r->seed = 1;
  r->nplayers = 2;
  snprintf(r->player_name[0], sizeof r->player_name[0], "random");
  snprintf(r->player_spec[0], sizeof r->player_spec[0], "random");
  snprintf(r->player_name[1], sizeof r->player_name[1], "greedy");
  snprintf(r->player_spec[1], sizeof r->player_spec[1], "greedy");
  r->nvariants = 2;
  snprintf(r->variant[0], sizeof r->variant[0], "abapa");
  snprintf(r->variant[1], sizeof r->variant[1], "awari");
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
