/* variant.c: rule switches, presets and the variant-string parser. */
#include "core/variant.h"
#include "core/error.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const variant_names[] = {"abapa",         "grandslam-forbidden", "grandslam-all",
                                     "grandslam-win", "auale",               "awari",
                                     NULL};

static const char *const lap_names[] = {"skip", "fill", NULL};
static const char *const gs_names[] = {"nothing", "forbidden", "all", "win", NULL};
static const char *const feed_names[] = {"must", "none", NULL};
static const char *const cycle_names[] = {"own", "split", NULL};

#define MAX_PLIES_LIMIT 1000000
#define REPETITION_LIMIT 100

void variant_default(variant *v) {
  v->houses = 6;
  v->seeds = 4;
  v->lap = VARIANT_LAP_SKIP;
  v->grand_slam = VARIANT_GS_NOTHING;
  v->feeding = VARIANT_FEED_MUST;
  v->repetition = 3;
  v->cycle = VARIANT_CYCLE_OWN;
  v->max_plies = 1000;
  variant_finish(v);
}

void variant_finish(variant *v) {
  v->pits = 2 * v->houses;
  v->total = 2 * v->houses * v->seeds;
  v->half = v->total / 2;
}

const char *variant_grand_slam_name(variant_grand_slam g) { return gs_names[g]; }

/* Sets v to preset `name`; returns 0, or -1 when there is no such preset. */
static int preset(const char *name, size_t len, variant *v) {
  variant_default(v);
  if (len == 5 && !strncmp(name, "abapa", 5)) return 0;
  if (len == 19 && !strncmp(name, "grandslam-forbidden", 19)) {
    v->grand_slam = VARIANT_GS_FORBIDDEN;
  } else if (len == 13 && !strncmp(name, "grandslam-all", 13)) {
    v->grand_slam = VARIANT_GS_ALL;
  } else if (len == 13 && !strncmp(name, "grandslam-win", 13)) {
    v->grand_slam = VARIANT_GS_WIN;
  } else if (len == 5 && !strncmp(name, "auale", 5)) {
    v->repetition = 2;
  } else if (len == 5 && !strncmp(name, "awari", 5)) {
    v->grand_slam = VARIANT_GS_FORBIDDEN;
    v->cycle = VARIANT_CYCLE_SPLIT;
  } else {
    return -1;
  }
  return 0;
}

static int parse_int(const char *s, size_t len, long lo, long hi, long *out) {
  char buf[32];
  if (len == 0 || len >= sizeof buf) return -1;
  memcpy(buf, s, len);
  buf[len] = '\0';
  for (size_t i = 0; i < len; i++)
    if (!isdigit((unsigned char)buf[i])) return -1;
  errno = 0;
  long x = strtol(buf, NULL, 10);
  if (errno || x < lo || x > hi) return -1;
  *out = x;
  return 0;
}

/* The index of the name s[0..len) in names; -1 when it is none of them,
 * with the names joined by '|' into allowed. */
static int parse_enum(const char *s, size_t len, const char *const *names, char *allowed,
                      size_t alen) {
  for (int i = 0; names[i]; i++)
    if (strlen(names[i]) == len && !strncmp(s, names[i], len)) return i;
  allowed[0] = '\0';
  for (int i = 0; names[i]; i++) {
    if (i) strncat(allowed, "|", alen - strlen(allowed) - 1);
    strncat(allowed, names[i], alen - strlen(allowed) - 1);
  }
  return -1;
}

/* The names of the enum switch key[0..klen) (lap, grand_slam, feeding,
 * cycle), or NULL when it is not one of them. */
static const char *const *enum_switch(const char *key, size_t klen) {
  static const struct {
    const char *key;
    const char *const *names;
  } sw[] = {{"lap", lap_names}, {"grand_slam", gs_names}, {"feeding", feed_names},
            {"cycle", cycle_names}};
  for (size_t i = 0; i < sizeof sw / sizeof *sw; i++)
    if (strlen(sw[i].key) == klen && !strncmp(key, sw[i].key, klen)) return sw[i].names;
  return NULL;
}

/* Value e of the enum switch whose names are `names`. */
static void set_enum(variant *v, const char *const *names, int e) {
  if (names == lap_names) v->lap = (variant_lap)e;
  else if (names == gs_names) v->grand_slam = (variant_grand_slam)e;
  else if (names == feed_names) v->feeding = (variant_feeding)e;
  else v->cycle = (variant_cycle)e;
}

/* One "key=value" item. */
static int parse_switch(const char *s, size_t len, variant *v, char *err, size_t errlen) {
  const char *eq = memchr(s, '=', len);
  if (!eq) {
    error_set(err, errlen, "variant: '%.*s' is not a switch=value pair (presets go first)",
             (int)len, s);
    return -1;
  }
  size_t klen = (size_t)(eq - s);
  const char *val = eq + 1;
  size_t vlen = len - klen - 1;
  long x, lo = 0, hi = 0;
  int e;
  const char *const *names;
  char allowed[64];
#define KEY(k) (klen == strlen(k) && !strncmp(s, k, klen))
  if (KEY("houses")) {
    lo = VARIANT_MIN_HOUSES, hi = VARIANT_MAX_HOUSES;
    if (parse_int(val, vlen, lo, hi, &x)) goto bad_int;
    v->houses = (int)x;
  } else if (KEY("seeds")) {
    lo = VARIANT_MIN_SEEDS, hi = VARIANT_MAX_SEEDS;
    if (parse_int(val, vlen, lo, hi, &x)) goto bad_int;
    v->seeds = (int)x;
  } else if (KEY("repetition")) {
    if (parse_int(val, vlen, 0, REPETITION_LIMIT, &x) || x == 1) {
      error_set(err, errlen,
               "variant: switch 'repetition' has value '%.*s'; allowed: 0 (off) or 2..%d",
               (int)vlen, val, REPETITION_LIMIT);
      return -1;
    }
    v->repetition = (int)x;
  } else if (KEY("max_plies")) {
    hi = MAX_PLIES_LIMIT;
    if (parse_int(val, vlen, lo, hi, &x)) goto bad_int;
    v->max_plies = (int)x;
  } else if ((names = enum_switch(s, klen))) {
    if ((e = parse_enum(val, vlen, names, allowed, sizeof allowed)) < 0) goto bad_enum;
    set_enum(v, names, e);
  } else {
    error_set(err, errlen,
             "variant: unknown switch '%.*s'; switches are houses, seeds, lap, grand_slam, "
             "feeding, repetition, cycle, max_plies",
             (int)klen, s);
    return -1;
  }
#undef KEY
  return 0;
bad_int:
  error_set(err, errlen, "variant: switch '%.*s' has value '%.*s'; allowed: %ld..%ld", (int)klen,
           s, (int)vlen, val, lo, hi);
  return -1;
bad_enum:
  error_set(err, errlen, "variant: switch '%.*s' has value '%.*s'; allowed: %s", (int)klen, s,
           (int)vlen, val, allowed);
  return -1;
}

int variant_parse(const char *text, variant *v, char *err, size_t errlen) {
  variant w;
  if (!text || !*text) {
    error_set(err, errlen, "variant: empty variant string");
    return -1;
  }
  const char *p = text;
  const char *end = strchr(p, ',');
  size_t len = end ? (size_t)(end - p) : strlen(p);
  if (!memchr(p, '=', len)) {
    if (preset(p, len, &w)) {
      char names[160] = "";
      for (int i = 0; variant_names[i]; i++) {
        if (i) strcat(names, ", ");
        strcat(names, variant_names[i]);
      }
      error_set(err, errlen, "variant: unknown variant '%.*s'; named variants are %s", (int)len,
               p, names);
      return -1;
    }
    p = end ? end + 1 : p + len;
    if (end && !*p) {
      error_set(err, errlen, "variant: trailing ',' in '%s'", text);
      return -1;
    }
  } else {
    variant_default(&w);
  }
  while (*p) {
    end = strchr(p, ',');
    len = end ? (size_t)(end - p) : strlen(p);
    if (len == 0) {
      error_set(err, errlen, "variant: empty switch in '%s'", text);
      return -1;
    }
    if (parse_switch(p, len, &w, err, errlen)) return -1;
    p += len;
    if (*p == ',') {
      p++;
      if (!*p) {
        error_set(err, errlen, "variant: trailing ',' in '%s'", text);
        return -1;
      }
    }
  }
  if (w.repetition == 0 && w.max_plies == 0) {
    /* Seeds can circle for ever: with neither rule a game need never end. */
    error_set(err, errlen,
             "variant: repetition=0 with max_plies=0 lets a game cycle for ever; keep the "
             "repetition rule (2..%d) or set a ply limit (1..%d)",
             REPETITION_LIMIT, MAX_PLIES_LIMIT);
    return -1;
  }
  variant_finish(&w);
  *v = w;
  return 0;
}

static int differences(const variant *a, const variant *b) {
  return (a->houses != b->houses) + (a->seeds != b->seeds) + (a->lap != b->lap) +
         (a->grand_slam != b->grand_slam) + (a->feeding != b->feeding) +
         (a->repetition != b->repetition) + (a->cycle != b->cycle) +
         (a->max_plies != b->max_plies);
}

void variant_format(const variant *v, char *buf, size_t len) {
  int best = 0, bestd = 1 << 30;
  variant p;
  for (int i = 0; variant_names[i]; i++) {
    preset(variant_names[i], strlen(variant_names[i]), &p);
    int d = differences(v, &p);
    if (d < bestd) bestd = d, best = i;
  }
  preset(variant_names[best], strlen(variant_names[best]), &p);
  size_t n = (size_t)snprintf(buf, len, "%s", variant_names[best]);
#define ADD(...)                                              \
  do {                                                        \
    if (n < len) n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__); \
  } while (0)
  if (v->houses != p.houses) ADD(",houses=%d", v->houses);
  if (v->seeds != p.seeds) ADD(",seeds=%d", v->seeds);
  if (v->lap != p.lap) ADD(",lap=%s", lap_names[v->lap]);
  if (v->grand_slam != p.grand_slam) ADD(",grand_slam=%s", gs_names[v->grand_slam]);
  if (v->feeding != p.feeding) ADD(",feeding=%s", feed_names[v->feeding]);
  if (v->repetition != p.repetition) ADD(",repetition=%d", v->repetition);
  if (v->cycle != p.cycle) ADD(",cycle=%s", cycle_names[v->cycle]);
  if (v->max_plies != p.max_plies) ADD(",max_plies=%d", v->max_plies);
#undef ADD
}
