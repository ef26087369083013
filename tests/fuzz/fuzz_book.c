/* fuzz_book.c: opening book files (book_load): no crash; an accepted book answers probes with legal moves of its variant. */
#include <unistd.h>

#include "core/board.h"
#include "players/book.h"
#include "tests/fuzz/fuzz.h"

static char path[64];

/* The fuzzer's file goes when it exits. */
static void remove_file(void) { unlink(path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!*path && !atexit(remove_file))
    snprintf(path, sizeof path, "%s/oware-fuzz-book-%ld.bin",
             access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm", (long)getpid());
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (size) fwrite(data, 1, size, f);
  fclose(f);
  book *b = NULL;
  char err[1024] = "";
  if (book_load(path, &b, err, sizeof err) == 0) {
    const book_info *in = book_get_info(b);
    FUZZ_CHECK(in->count >= 0 && in->plies >= 0, "count %lld, plies %d", in->count, in->plies);
    board start;
    board_start(&start, &in->v);
    int move = -1, score = 0;
    if (book_probe(b, &start, &move, &score))
      FUZZ_CHECK(move >= 0 && move < 32 && (board_legal(&start, &in->v) >> move & 1u),
                 "book move %d at the start", move);
    book_free(b);
  } else {
    FUZZ_CHECK_ERR(err);
  }
  return 0;
}
