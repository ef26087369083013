/* fuzz.h: what the libFuzzer harnesses share: the input as a C string, and a check that stops the run. */
#ifndef OWARE_FUZZ_H
#define OWARE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a malloc'ed NUL-terminated string (it may hold earlier NULs). */
static inline char *fuzz_text(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) abort();
  if (size) memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

/* A property that must hold: a failure is a crash with the reason. */
#define FUZZ_CHECK(cond, ...)                                                \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "fuzz check failed at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                          \
      fputc('\n', stderr);                                                   \
      abort();                                                               \
    }                                                                        \
  } while (0)

/* An error message must be a C string within its buffer, and say something. */
#define FUZZ_CHECK_ERR(err) FUZZ_CHECK(memchr(err, '\0', sizeof err) && (err)[0], "empty or unterminated error")

#endif
