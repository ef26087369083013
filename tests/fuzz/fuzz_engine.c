/* fuzz_engine.c: the engine player's reading of an engine's output lines: no crash, moves in range. */
#include "players/engine.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 5000) return 0;
  variant v;
  char err[256];
  if (variant_parse(data[0] & 1 ? "houses=8,seeds=3" : "abapa", &v, err, sizeof err)) abort();
  char *line = fuzz_text(data + 1, size - 1);
  engine_line el;
  engine_says k = engine_read_line(&v, line, size - 1, &el);
  FUZZ_CHECK(k == el.kind, "kind");
  FUZZ_CHECK(strlen(line) <= size - 1, "line grew");
  if (k == ENGINE_SAYS_BESTMOVE)
    FUZZ_CHECK(el.move == ENGINE_MOVE_NONE || el.move == ENGINE_MOVE_BAD ||
                   (el.move >= 0 && el.move < v.pits),
               "move %d", el.move);
  if (k == ENGINE_SAYS_INFO && el.info_any) {
    FUZZ_CHECK(el.info.pvlen >= 0 && el.info.pvlen <= PLAYER_PV_MAX, "pv length %d", el.info.pvlen);
    for (int i = 0; i < el.info.pvlen; i++)
      FUZZ_CHECK(el.info.pv[i] >= 0 && el.info.pv[i] < v.pits, "pv move %d", el.info.pv[i]);
  }
  if (k == ENGINE_SAYS_ID_NAME)
    for (const char *c = el.text; *c; c++) FUZZ_CHECK((unsigned char)*c >= 32, "control character in the name");
  free(line);
  return 0;
}
