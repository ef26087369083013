/* fuzz_levels.c: levels files (level_parse): no crash; every accepted line written back by level_format reads as the same level. */
#include "players/level.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  level_file f, again;
  char err[1024] = "";
  if (level_parse(text, "fuzz.txt", &f, err, sizeof err) == 0) {
    for (int i = 0; i < f.n; i++) {
      const level_entry *e = &f.entry[i];
      FUZZ_CHECK(e->name[0] && e->spec[0], "entry %d: empty name or spec", i);
      FUZZ_CHECK(level_find(&f, e->name) != NULL, "entry %d: not found by its name", i);
      char line[LEVEL_LINE_MAX + 64]; /* room for a line level_format must refuse */
      if (level_format(e, line, sizeof line) < 0) continue; /* a value that cannot be written */
      char err2[1024] = "";
      FUZZ_CHECK(level_parse(line, "again.txt", &again, err2, sizeof err2) == 0,
                 "entry %d written as '%s' does not read back: %s", i, line, err2);
      FUZZ_CHECK(again.n == 1 && !strcmp(again.entry[0].name, e->name) &&
                     !strcmp(again.entry[0].spec, e->spec),
                 "entry %d: '%s' reads back as another level", i, line);
      level_file_free(&again);
    }
    level_file_free(&f);
  } else {
    FUZZ_CHECK_ERR(err);
  }
  free(text);
  return 0;
}
