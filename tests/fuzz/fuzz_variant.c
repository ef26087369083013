/* fuzz_variant.c: variant strings: no crash; a parsed variant formats to a string that parses back to it. */
#include "core/variant.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  variant v, w;
  char err[256] = "", buf[256];
  if (variant_parse(text, &v, err, sizeof err) == 0) {
    FUZZ_CHECK(v.houses >= VARIANT_MIN_HOUSES && v.houses <= VARIANT_MAX_HOUSES, "houses %d", v.houses);
    FUZZ_CHECK(v.seeds >= VARIANT_MIN_SEEDS && v.seeds <= VARIANT_MAX_SEEDS, "seeds %d", v.seeds);
    FUZZ_CHECK(v.repetition || v.max_plies, "a variant without an end was accepted: %s", text);
    variant_format(&v, buf, sizeof buf);
    FUZZ_CHECK(variant_parse(buf, &w, err, sizeof err) == 0, "'%s' does not parse: %s", buf, err);
    FUZZ_CHECK(!memcmp(&v, &w, sizeof v), "'%s' parses to another variant", buf);
  } else {
    FUZZ_CHECK_ERR(err);
  }
  free(text);
  return 0;
}
