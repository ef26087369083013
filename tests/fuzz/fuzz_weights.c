/* fuzz_weights.c: weights files: no crash; accepted weights are finite and within the file format's bound. */
#include <math.h>

#include "players/eval.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  eval_weights w;
  eval_default(&w);
  char err[1024] = "";
  if (eval_parse(text, &w, err, sizeof err) == 0) {
    for (int i = 0; i < EVAL_N; i++) FUZZ_CHECK(isfinite(w.w[i]) && fabs(w.w[i]) <= 1e6, "weight %d", i);
  } else {
    FUZZ_CHECK_ERR(err);
  }
  free(text);
  return 0;
}
