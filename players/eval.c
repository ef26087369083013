/* eval.c: feature values of a position and the weights file. */
#include "players/eval.h"
#include "core/error.h"

#include "core/textfile.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A weights file larger than this is not one. */
#define EVAL_FILE_MAX (1 << 20)

const eval_feature_info eval_features[EVAL_N] = {
#define EVAL_INFO(id, name, help, def, lo, hi) {#name, help, def, lo, hi},
    EVAL_FEATURES(EVAL_INFO)
#undef EVAL_INFO
};

void eval_default(eval_weights *w) {
  for (int i = 0; i < EVAL_N; i++) w->w[i] = eval_features[i].def;
}

int eval_find(const char *name) {
  for (int i = 0; i < EVAL_N; i++)
    if (!strcmp(eval_features[i].name, name)) return i;
  return -1;
}

int eval_parse(const char *text, eval_weights *w, char *err, size_t errlen) {
  eval_weights out = *w;
  int seen[EVAL_N] = {0};
  int line = 0;
  const char *p = text;
  while (*p) {
    line++;
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char buf[256];
    if (len >= sizeof buf) {
      error_set(err, errlen, "weights line %d: longer than %zu characters", line,
               sizeof buf - 1);
      return -1;
    }
    memcpy(buf, p, len);
    buf[len] = '\0';
    p += len + (eol != NULL);
    char *hash = strchr(buf, '#');
    if (hash) *hash = '\0';
    char name[64], value[64], extra[8];
    int n = sscanf(buf, "%63s %63s %7s", name, value, extra);
    if (n <= 0) continue;
    if (n == 1) {
      error_set(err, errlen, "weights line %d: '%s' has no value; expected 'name value'", line,
               name);
      return -1;
    }
    if (n == 3) {
      error_set(err, errlen, "weights line %d: unexpected '%s' after the value", line, extra);
      return -1;
    }
    int i = eval_find(name);
    if (i < 0) {
      char names[512] = "";
      for (int k = 0; k < EVAL_N; k++) {
        if (k) strcat(names, " ");
        strcat(names, eval_features[k].name);
      }
      error_set(err, errlen, "weights line %d: unknown feature '%s'; features: %s", line, name,
               names);
      return -1;
    }
    if (seen[i]) {
      error_set(err, errlen, "weights line %d: feature '%s' is given twice", line, name);
      return -1;
    }
    char *end;
    errno = 0;
    double x = strtod(value, &end);
    if (errno || *end || !isfinite(x) || fabs(x) > EVAL_WEIGHT_MAX) {
      error_set(err, errlen, "weights line %d: value '%s' of %s is not a number (|x| <= 1e6)",
               line, value, name);
      return -1;
    }
    seen[i] = 1;
    out.w[i] = x;
  }
  *w = out;
  return 0;
}

static int parse_weights(const char *text, void *w, char *err, size_t errlen) {
  return eval_parse(text, w, err, errlen);
}

int eval_load(const char *path, eval_weights *w, char *err, size_t errlen) {
  return textfile_load(path, "weights", EVAL_FILE_MAX, parse_weights, w, err, errlen);
}

int eval_write(FILE *f, const eval_weights *w) {
  if (fprintf(f, "# oware evaluation weights: name value (centiseeds per unit)\n") < 0)
    return -1;
  for (int i = 0; i < EVAL_N; i++)
    if (fprintf(f, "%-12s %g\t# %s [%g..%g]\n", eval_features[i].name, w->w[i],
                eval_features[i].help, eval_features[i].lo, eval_features[i].hi) < 0)
      return -1;
  return 0;
}

void eval_params(const eval_weights *w, player_param out[EVAL_N]) {
  for (int i = 0; i < EVAL_N; i++) out[i] = (player_param){eval_features[i].name, w->w[i]};
}

int eval_move_capture(const board *b, const variant *v, int m) {
  return board_capture_of(b, v, b->side, m);
}

int eval_best_capture(const board *b, const variant *v, int s) {
  const int H = v->houses, P = v->pits, base = s * H;
  int opp, best = 0;
  uint32_t small = eval_small_houses(b, v, s, &opp);
  /* Houses that lap are played out; the others land at m + n (mod P). */
  uint32_t laps = eval_pack(eval_ge(board_row_word(b, v, s), (uint64_t)P * EVAL_B01));
  if (small) {
    uint32_t hits = 0;
    for (int r = 0; r < H; r++) {
      int last = base + r + b->pit[base + r];
      last -= last >= P ? P : 0;
      hits |= (small >> (last & 31) & 1) << r; /* an empty house lands on itself: no hit */
    }
    for (hits &= ~laps; hits; hits &= hits - 1) {
      int take = board_capture_of(b, v, s, base + __builtin_ctz(hits));
      if (take > best) best = take;
    }
  }
  for (; laps; laps &= laps - 1) {
    board c = *b;
    c.side = (uint8_t)s;
    int take = board_play(&c, v, base + __builtin_ctz(laps));
    if (take > best) best = take;
  }
  return best;
}

/* Per row length H: byte r holds H - r, the seeds house r needs to reach
 * the other row; bytes past the row hold 1 (never met by their 0). */
#define REACH_BYTE(H, r) ((uint64_t)((r) < (H) ? (H) - (r) : 1) << (8 * (r)))
#define REACH(H)                                                                             \
  (REACH_BYTE(H, 0) | REACH_BYTE(H, 1) | REACH_BYTE(H, 2) | REACH_BYTE(H, 3) |               \
   REACH_BYTE(H, 4) | REACH_BYTE(H, 5) | REACH_BYTE(H, 6) | REACH_BYTE(H, 7))

void eval_compute(const board *b, const variant *v, int f[EVAL_N]) {
  static const uint64_t reach[VARIANT_MAX_HOUSES + 1] = {
      0, 0, 0, REACH(3), REACH(4), REACH(5), REACH(6), REACH(7), REACH(8)};
  const int H = v->houses, s = b->side;
  const uint64_t a = board_row_word(b, v, s), o = board_row_word(b, v, 1 - s);
  const uint64_t k1 = EVAL_B01, k3 = 3 * EVAL_B01, k12 = 12 * EVAL_B01;
  const uint64_t anz = eval_ge(a, k1), onz = eval_ge(o, k1);
  const uint64_t akr = eval_ge(a, k12), okr = eval_ge(o, k12);
  f[EVAL_STORE] = b->store[s] - b->store[1 - s];
  f[EVAL_SEEDS] = eval_bytesum(a) - eval_bytesum(o);
  f[EVAL_TARGETS] = __builtin_popcountll(anz & ~eval_ge(a, k3)) -
                    __builtin_popcountll(onz & ~eval_ge(o, k3));
  f[EVAL_EMPTY] = __builtin_popcountll(onz) - __builtin_popcountll(anz);
  f[EVAL_KROO] = __builtin_popcountll(akr) - __builtin_popcountll(okr);
  f[EVAL_KROO_SEEDS] = eval_bytesum(a & ((akr >> 7) * 0xff)) - eval_bytesum(o & ((okr >> 7) * 0xff));
  f[EVAL_MOBILITY] = __builtin_popcountll(eval_ge(a, reach[H])) -
                     __builtin_popcountll(eval_ge(o, reach[H]));
  f[EVAL_CAPTURE] = eval_best_capture(b, v, s);
  f[EVAL_THREAT] = eval_best_capture(b, v, 1 - s);
  const int sh = 8 * (H - 2);
  f[EVAL_RIGHT] = eval_bytesum((a >> sh) & 0xffff) - eval_bytesum((o >> sh) & 0xffff);
}

