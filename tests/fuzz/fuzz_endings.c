/* fuzz_endings.c: endings files (eval_ending_parse): no crash; an accepted table has ordered ranges in bounds and reads back the same once written. */
#include "players/eval_ending.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  eval_ending e, back;
  char err[1024] = "";
  if (eval_ending_parse(text, &e, err, sizeof err) == 0) {
    FUZZ_CHECK(e.n >= 1 && e.n <= EVAL_ENDING_MAX, "%d ranges", e.n);
    for (int r = 0; r < e.n; r++) {
      FUZZ_CHECK(e.lo[r] >= 1 && e.lo[r] <= e.hi[r] && e.hi[r] <= VARIANT_MAX_TOTAL, "range %d", r);
      FUZZ_CHECK(r == 0 || e.lo[r] > e.hi[r - 1], "range %d overlaps", r);
      FUZZ_CHECK(e.w[r][EVAL_STORE] == 0, "range %d: a store weight", r);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    FUZZ_CHECK(f && eval_ending_write(f, &e, "fuzz") == 0, "write");
    fclose(f);
    char err2[1024] = "";
    FUZZ_CHECK(eval_ending_parse(buf, &back, err2, sizeof err2) == 0, "written table refused: %s", err2);
    FUZZ_CHECK(back.n == e.n && !memcmp(back.lo, e.lo, sizeof e.lo) && !memcmp(back.hi, e.hi, sizeof e.hi) &&
                   !memcmp(back.tempo, e.tempo, sizeof e.tempo) && !memcmp(back.w, e.w, sizeof e.w),
               "the table reads back as another");
    free(buf);
  } else {
    FUZZ_CHECK_ERR(err);
  }
  free(text);
  return 0;
}
