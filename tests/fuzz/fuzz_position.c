/* fuzz_position.c: position strings under several variants: no crash; a parsed position formats back to the same string's board. */
#include "core/board.h"
#include "core/notation.h"
#include "core/variant.h"
#include "tests/fuzz/fuzz.h"

static const char *const variants[] = {"abapa", "houses=3,seeds=1", "houses=8,seeds=12",
                                       "awari", "houses=5,seeds=2,lap=fill"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  variant v;
  char err[256] = "";
  if (variant_parse(variants[data[0] % 5], &v, err, sizeof err)) abort();
  char *text = fuzz_text(data + 1, size - 1);
  board b, c;
  err[0] = '\0';
  if (notation_parse_position(text, &v, &b, err, sizeof err) == 0) {
    char buf[256];
    notation_format_position(&b, &v, NULL, buf, sizeof buf);
    FUZZ_CHECK(notation_parse_position(buf, &v, &c, err, sizeof err) == 0, "'%s': %s", buf, err);
    FUZZ_CHECK(!memcmp(&b, &c, sizeof b), "'%s' reads back as another board", buf);
    uint32_t legal;
    board_status(&b, &v, &legal); /* must not crash on any accepted position */
  } else {
    FUZZ_CHECK_ERR(err);
  }
  free(text);
  return 0;
}
