/* series.c: parses match formats and decides, game by game, when a series is over. */
#include "run/series.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"

#define SERIES_DEFAULT_CAP 100
#define SERIES_MAX_CAP 100000
#define SERIES_FORMATS "best-of:N, first-to:K[,lead:M][,cap:C], streak:K[,cap:C], games:N"

/* The formats, indexed by series_kind: name, letter of the number, range of the number. */
static const struct {
  const char *name;
  series_kind kind;
  const char *letter;
  long lo, hi;
} kinds[] = {
    {"best-of", SERIES_BEST_OF, "N", 1, 1000},
    {"first-to", SERIES_FIRST_TO, "K", 1, 1000},
    {"streak", SERIES_STREAK, "K", 1, 1000},
    {"games", SERIES_GAMES, "N", 1, 1000000},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

#define LEAD_MAX 1000

typedef enum { NUM_OK, NUM_MISSING, NUM_NOT_DIGITS, NUM_RANGE } num_status;

/* Reads the decimal number s[0..len) (digits only) into *out, checking lo..hi. */
static num_status parse_number(const char *s, size_t len, long lo, long hi, long *out) {
  if (len == 0) return NUM_MISSING;
  long x = 0;
  int big = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return NUM_NOT_DIGITS;
    if (!big) {
      x = 10 * x + (s[i] - '0');
      if (x > hi) big = 1;
    }
  }
  if (big || x < lo) return NUM_RANGE;
  *out = x;
  return NUM_OK;
}

/* Reports a bad number of item s[0..len) (value at v[0..vlen)); what: "N", "lead M", … */
static void bad_number(num_status st, const char *s, size_t len, const char *v, size_t vlen,
                       const char *what, long lo, long hi, char *err, size_t errlen) {
  switch (st) {
  case NUM_MISSING:
    error_set(err, errlen, "series: '%.*s' has no number; %s must be a whole number %ld..%ld", (int)len,
        s, what, lo, hi);
    break;
  case NUM_NOT_DIGITS:
    error_set(err, errlen, "series: '%.*s' has '%.*s', not a number; %s must be a whole number %ld..%ld",
        (int)len, s, (int)vlen, v, what, lo, hi);
    break;
  default:
    error_set(err, errlen, "series: '%.*s' is out of range; %s must be %ld..%ld", (int)len, s, what, lo,
        hi);
    break;
  }
}

/* Splits item s[0..len) at its ':' into a key and a value (the value may be empty or absent). */
static void split_item(const char *s, size_t len, size_t *klen, const char **v, size_t *vlen) {
  const char *colon = memchr(s, ':', len);
  *klen = colon ? (size_t)(colon - s) : len;
  *v = colon ? colon + 1 : s + len;
  *vlen = colon ? len - *klen - 1 : 0;
}

#define KEY_IS(k, klen, name) ((klen) == strlen(name) && !strncmp((k), (name), (klen)))

/* The head item "name:number". */
static int parse_head(const char *s, size_t len, series_format *f, char *err, size_t errlen) {
  size_t klen, vlen;
  const char *v;
  split_item(s, len, &klen, &v, &vlen);
  if (klen == 0) {
    error_set(err, errlen, "series: empty format name in '%.*s'; formats are " SERIES_FORMATS, (int)len,
        s);
    return -1;
  }
  for (size_t i = 0; i < NKINDS; i++) {
    if (!KEY_IS(s, klen, kinds[i].name)) continue;
    long x;
    num_status st = parse_number(v, vlen, kinds[i].lo, kinds[i].hi, &x);
    if (st != NUM_OK) {
      bad_number(st, s, len, v, vlen, kinds[i].letter, kinds[i].lo, kinds[i].hi, err, errlen);
      return -1;
    }
    f->kind = kinds[i].kind;
    f->n = (int)x;
    return 0;
  }
  if (KEY_IS(s, klen, "cap") || KEY_IS(s, klen, "lead"))
    error_set(err, errlen,
        "series: '%.*s' is not a format (the format goes first, then lead/cap); "
        "formats are " SERIES_FORMATS,
        (int)len, s);
  else
    error_set(err, errlen, "series: unknown format '%.*s'; formats are " SERIES_FORMATS, (int)klen, s);
  return -1;
}

/* One item after the head: "lead:M" or "cap:C". seen: bit 0 lead, bit 1 cap. */
static int parse_item(const char *s, size_t len, series_format *f, int *seen, char *err,
                      size_t errlen) {
  const char *name = kinds[f->kind].name;
  size_t klen, vlen;
  const char *v;
  split_item(s, len, &klen, &v, &vlen);
  int is_lead = KEY_IS(s, klen, "lead"), is_cap = KEY_IS(s, klen, "cap");
  if (!is_lead && !is_cap) {
    if (f->kind == SERIES_FIRST_TO)
      error_set(err, errlen, "series: unknown item '%.*s'; first-to takes lead:M and cap:C", (int)len,
          s);
    else if (f->kind == SERIES_STREAK)
      error_set(err, errlen, "series: unknown item '%.*s'; streak takes only cap:C", (int)len, s);
    else
      error_set(err, errlen, "series: unknown item '%.*s'; %s takes no cap or lead", (int)len, s, name);
    return -1;
  }
  if (f->kind == SERIES_BEST_OF || f->kind == SERIES_GAMES) {
    error_set(err, errlen,
        "series: '%.*s' is not allowed; %s takes no cap or lead (it always plays at most %s games)",
        (int)len, s, name, kinds[f->kind].letter);
    return -1;
  }
  if (is_lead && f->kind == SERIES_STREAK) {
    error_set(err, errlen, "series: '%.*s' is not allowed; streak takes no lead, only cap:C", (int)len,
        s);
    return -1;
  }
  int bit = is_lead ? 1 : 2;
  if (*seen & bit) {
    error_set(err, errlen, "series: repeated item '%.*s'; %s may be given once", (int)len, s,
        is_lead ? "lead" : "cap");
    return -1;
  }
  *seen |= bit;
  long x, lo = is_lead ? 1 : f->n, hi = is_lead ? LEAD_MAX : SERIES_MAX_CAP;
  num_status st = parse_number(v, vlen, lo, hi, &x);
  if (st != NUM_OK) {
    char what[64];
    if (is_lead)
      snprintf(what, sizeof what, "lead M");
    else
      snprintf(what, sizeof what, "cap C of %s:%d", name, f->n);
    bad_number(st, s, len, v, vlen, what, lo, hi, err, errlen);
    return -1;
  }
  if (is_lead)
    f->lead = (int)x;
  else
    f->cap = (int)x;
  return 0;
}

int series_parse(const char *text, series_format *f, char *err, size_t errlen) {
  if (!text || !*text) {
    error_set(err, errlen, "series: empty format string; formats are " SERIES_FORMATS);
    return -1;
  }
  series_format w = {SERIES_BEST_OF, 0, 0, 0};
  int seen = 0;
  const char *p = text;
  for (int first = 1;; first = 0) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == 0) {
      if (first)
        error_set(err, errlen,
            "series: empty format name at the start of '%s'; formats are " SERIES_FORMATS, text);
      else
        error_set(err, errlen, "series: empty item between commas in '%s'", text);
      return -1;
    }
    if (first ? parse_head(p, len, &w, err, errlen)
              : parse_item(p, len, &w, &seen, err, errlen))
      return -1;
    if (!comma) break;
    p = comma + 1;
    if (!*p) {
      error_set(err, errlen, "series: trailing ',' in '%s'; remove it or add an item", text);
      return -1;
    }
  }
  if (w.kind == SERIES_FIRST_TO || w.kind == SERIES_STREAK) {
    if (!(seen & 2)) {
      if (w.n > SERIES_DEFAULT_CAP) {
        error_set(err, errlen,
            "series: %s:%d needs a cap of at least %d games, more than the default cap:%d; "
            "add ,cap:C with C %d..%d",
            kinds[w.kind].name, w.n, w.n, SERIES_DEFAULT_CAP, w.n, SERIES_MAX_CAP);
        return -1;
      }
      w.cap = SERIES_DEFAULT_CAP;
    }
  }
  *f = w;
  return 0;
}

void series_format_string(const series_format *f, char *buf, size_t len) {
  if (!buf || !len) return;
  const char *name = (size_t)f->kind < NKINDS ? kinds[f->kind].name : "?";
  int n = snprintf(buf, len, "%s:%d", name, f->n);
  if (n < 0 || (size_t)n >= len) return;
  if (f->kind == SERIES_FIRST_TO && f->lead > 0) {
    int m = snprintf(buf + n, len - (size_t)n, ",lead:%d", f->lead);
    if (m < 0 || (size_t)(n + m) >= len) return;
    n += m;
  }
  if (f->kind == SERIES_FIRST_TO || f->kind == SERIES_STREAK)
    snprintf(buf + n, len - (size_t)n, ",cap:%d", f->cap);
}

int series_max_games(const series_format *f) {
  switch (f->kind) {
  case SERIES_BEST_OF:
  case SERIES_GAMES: return f->n;
  default: return f->cap;
  }
}

void series_start(series_state *s) {
  memset(s, 0, sizeof *s);
  s->winner = -1;
}

/* Ends the series with winner w (0, 1, or -1 for drawn). */
static void finish(series_state *s, int w) {
  s->done = 1;
  s->winner = w;
}

/* The player with more wins, or -1 when they are level. */
static int more_wins(const series_state *s) {
  return s->wins[0] > s->wins[1] ? 0 : s->wins[1] > s->wins[0] ? 1 : -1;
}

int series_add(series_state *s, const series_format *f, int result) {
  if (s->done) return 1;
  if (result != 0 && result != 1 && result != -1) return s->done; /* not a result: ignored */
  s->games++;
  if (result < 0) {
    s->draws++;
    s->streak[0] = s->streak[1] = 0;
  } else {
    s->wins[result]++;
    s->streak[result]++;
    s->streak[1 - result] = 0;
  }
  switch (f->kind) {
  case SERIES_BEST_OF: {
    int left = f->n - s->games;
    for (int x = 0; x < 2; x++)
      if (s->wins[x] > s->wins[1 - x] + left) {
        finish(s, x);
        return 1;
      }
    if (left <= 0) finish(s, more_wins(s));
    break;
  }
  case SERIES_FIRST_TO:
    for (int x = 0; x < 2; x++)
      if (s->wins[x] >= f->n || (f->lead > 0 && s->wins[x] - s->wins[1 - x] >= f->lead)) {
        finish(s, x);
        return 1;
      }
    if (s->games >= f->cap) finish(s, -1);
    break;
  case SERIES_STREAK:
    for (int x = 0; x < 2; x++)
      if (s->streak[x] >= f->n) {
        finish(s, x);
        return 1;
      }
    if (s->games >= f->cap) finish(s, -1);
    break;
  case SERIES_GAMES:
    if (s->games >= f->n) finish(s, more_wins(s));
    break;
  }
  return s->done;
}
