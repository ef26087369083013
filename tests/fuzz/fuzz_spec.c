/* fuzz_spec.c: player specs (type:key=value,...) and the egdb= values they give (a run's pins): no crash, names without control characters, errors that say something. */
#include "players/player.h"
#include "players/tablebase.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  /* plugin: loads a shared object named by the input: not for a fuzzer. */
  if (!strncmp(text, "plugin", 6)) {
    free(text);
    return 0;
  }
  player_config cfg;
  char err[512] = "";
  if (player_parse_spec(text, &cfg, err, sizeof err) == 0) {
    FUZZ_CHECK(cfg.type != NULL, "no type");
    for (const char *c = cfg.name; *c; c++)
      FUZZ_CHECK((unsigned char)*c >= 32 && *c != 127, "control character in the name");
    /* The egdb= value as a player reads it (a pinned auto@… is parsed and
     * checked against the default folder; a folder is only named). */
    const char *tb = player_type_takes(cfg.type, "egdb") ? player_config_text(&cfg, "egdb") : NULL;
    if (tb) {
      tablebase t;
      if (tablebase_init(&t, tb, err, sizeof err)) FUZZ_CHECK_ERR(err);
      tablebase_free(&t);
    }
    player_config_free(&cfg);
  } else {
    FUZZ_CHECK_ERR(err);
  }
  free(text);
  return 0;
}
