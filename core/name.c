/* name.c: name_check, the check of every name that enters (specs, run names, imported records). */
#include "core/name.h"

#include <stdint.h>
#include <stdio.h>

#include "core/error.h"

/* The code point of the UTF-8 sequence at s (its length in *len), or -1
 * when it is not a valid shortest-form sequence. */
static long decode(const unsigned char *s, int *len) {
  unsigned c = s[0];
  int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
  if (!n) return -1;
  long cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) return -1;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  static const long least[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
  *len = n;
  return cp;
}

static int is_bidi(long cp) {
  return cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

/* How the character at a fault is shown: "a newline", "byte 0x09" (a tab), "U+0085". */
static void shown(long cp, char *buf, size_t len) {
  if (cp == '\n') snprintf(buf, len, "a newline");
  else if (cp == '\r') snprintf(buf, len, "a carriage return");
  else if (cp < 0x80) snprintf(buf, len, "byte 0x%02lx", cp);
  else snprintf(buf, len, "U+%04lX", cp);
}

int name_check(const char *what, const char *name, char *err, size_t errlen) {
  const unsigned char *s = (const unsigned char *)name;
  for (size_t at = 0; s[at];) {
    int len = 1;
    long cp = decode(s + at, &len);
    char c[32];
    if (cp < 0) {
      error_set(err, errlen, "%s '%.*s…' is not valid UTF-8 (byte 0x%02x at position %zu); names "
                "are one line of printable text", what, (int)at, name, s[at], at + 1);
      return -1;
    }
    if (cp < 32 || cp == 127 || (cp >= 0x80 && cp <= 0x9f) || is_bidi(cp)) {
      shown(cp, c, sizeof c);
      error_set(err, errlen, "%s '%.*s…' holds a %s (%s at position %zu); names are one line of "
                "printable text", what, (int)at, name,
                is_bidi(cp) ? "bidirectional control" : "control character", c, at + 1);
      return -1;
    }
    at += (size_t)len;
  }
  return 0;
}
