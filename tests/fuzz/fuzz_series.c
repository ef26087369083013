/* fuzz_series.c: series formats and SPRT options: no crash; a parsed format round-trips and a series of it ends within its bound. */
#include "stats/sprt.h"
#include "run/series.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char *text = fuzz_text(data + 1, size - 1);
  char err[512] = "";
  if (data[0] & 1) {
    rating_sprt s;
    if (rating_sprt_parse(text, &s, err, sizeof err) == 0) {
      FUZZ_CHECK(rating_sprt_check(&s, err, sizeof err) == 0, "accepted, then refused: %s", err);
      long long penta[5] = {1, 2, 3, 2, 1};
      double llr = rating_sprt_llr_penta(&s, penta);
      FUZZ_CHECK(llr == llr, "LLR is NaN");
    } else {
      FUZZ_CHECK_ERR(err);
    }
  } else {
    series_format f, g;
    if (series_parse(text, &f, err, sizeof err) == 0) {
      char buf[128];
      series_format_string(&f, buf, sizeof buf);
      FUZZ_CHECK(series_parse(buf, &g, err, sizeof err) == 0, "'%s': %s", buf, err);
      FUZZ_CHECK(!memcmp(&f, &g, sizeof f), "'%s' reads back as another format", buf);
      int max = series_max_games(&f);
      FUZZ_CHECK(max >= 1, "max games %d", max);
      /* Draws only, then alternating wins: the series must end within its bound. */
      for (int pattern = 0; pattern < 2; pattern++) {
        series_state st;
        series_start(&st);
        int games = 0, done = 0;
        while (!done) {
          FUZZ_CHECK(++games <= max, "more than %d games of '%s'", max, buf);
          done = series_add(&st, &f, pattern ? games % 2 : -1);
        }
      }
    } else {
      FUZZ_CHECK_ERR(err);
    }
  }
  free(text);
  return 0;
}
