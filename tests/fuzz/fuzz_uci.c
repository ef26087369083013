/* fuzz_uci.c: the `oware uci` command reader: any sequence of command lines against one server. */
#include "players/uci.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  static FILE *out;
  if (!out && !(out = fopen("/dev/null", "w"))) abort();
  /* Players that answer at once whatever the limits: the fuzzer looks at the reader, not the search. */
  static const char *const specs[] = {"random", "greedy"};
  char err[512];
  uci_server *s = uci_server_new(specs[data[0] % 2], out, err, sizeof err);
  if (!s) abort();
  char *text = fuzz_text(data + 1, size - 1);
  char *p = text, *end = text + (size - 1);
  while (p < end) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    if (nl) *nl = '\0';
    /* uci_serve refuses lines with a NUL byte before they get here. */
    if (!nl || strlen(p) == (size_t)(nl - p)) {
      /* go infinite waits for stop; a search never outlives a few lines. */
      if (uci_server_line(s, p)) break;
    }
    if (!nl) break;
    p = nl + 1;
  }
  uci_server_free(s);
  free(text);
  return 0;
}
