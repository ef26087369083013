/* eval_net.c: the network evaluation: inputs, forward pass, the network file. */
#include "players/eval_net.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/outfile.h"
#include "core/textfile.h"

#define EVAL_NET_MAGIC "oware-net"
#define EVAL_NET_VERSION 1
/* A network file larger than this is not one (256·256 weights in text). */
#define EVAL_NET_FILE_MAX (64u << 20)

int eval_net_shape_check(int n1, int n2, char *err, size_t errlen) {
  if (n1 < 1 || n1 > EVAL_NET_MAX_HIDDEN || n2 < 0 || n2 > EVAL_NET_MAX_HIDDEN ||
      n1 % EVAL_NET_LANES || n2 % EVAL_NET_LANES)
    return error_set(err, errlen, "network: hidden layers %d and %d: the first is %d..%d, the "
                     "second 0..%d, both multiples of %d", n1, n2, EVAL_NET_LANES,
                     EVAL_NET_MAX_HIDDEN, EVAL_NET_MAX_HIDDEN, EVAL_NET_LANES),
           -1;
  return 0;
}

int eval_net_alloc(eval_net *n, int houses, int seeds, int n1, int n2, char *err, size_t errlen) {
  memset(n, 0, sizeof *n);
  if (houses < 1 || houses > VARIANT_MAX_HOUSES || seeds < 1 || seeds > VARIANT_MAX_TOTAL)
    return error_set(err, errlen, "network: family houses=%d seeds=%d out of range", houses,
                     seeds),
           -1;
  if (eval_net_shape_check(n1, n2, err, errlen)) return -1;
  n->houses = houses, n->seeds = seeds;
  n->nin = eval_net_inputs(houses), n->n1 = n1, n->n2 = n2;
  size_t last = (size_t)(n2 ? n2 : n1);
  size_t sz[6] = {(size_t)n->nin * (size_t)n1, (size_t)n1, n2 ? (size_t)n1 * (size_t)n2 : 0,
                  (size_t)n2, last, 1};
  n->nweights = sz[0] + sz[1] + sz[2] + sz[3] + sz[4] + sz[5];
  if (!(n->mem = calloc(n->nweights, sizeof *n->mem)) ||
      !(n->w2t = calloc(sz[2] ? sz[2] : 1, sizeof *n->w2t))) {
    free(n->mem);
    n->mem = NULL;
    return error_set(err, errlen, "network: out of memory"), -1;
  }
  float **part[6] = {&n->w1, &n->b1, &n->w2, &n->b2, &n->w3, &n->b3};
  float *p = n->mem;
  for (int i = 0; i < 6; i++) *part[i] = p, p += sz[i];
  return 0;
}

void eval_net_ready(eval_net *n) {
  const size_t n1 = (size_t)n->n1, n2 = (size_t)n->n2;
  for (size_t k = 0; k < n2; k++)
    for (size_t j = 0; j < n1; j++) n->w2t[j * n2 + k] = n->w2[k * n1 + j];
}

void eval_net_free(eval_net *n) {
  free(n->mem);
  free(n->w2t);
  memset(n, 0, sizeof *n);
}

static inline int bucket(int seeds) {
  if (seeds < 12) return seeds;
  if (seeds < 16) return 12;
  if (seeds < 20) return 13;
  return seeds < 28 ? 14 : 15;
}

void eval_net_encode(const board *b, const variant *v, eval_net_input *in) {
  const int H = v->houses, s = b->side;
  in->nactive = 2 * H;
  for (int side = 0; side < 2; side++) {
    const uint8_t *row = b->pit + (side ? 1 - s : s) * H;
    for (int r = 0; r < H; r++)
      in->active[side * H + r] = (side * H + r) * EVAL_NET_BUCKETS + bucket(row[r]);
  }
  const float half = (float)v->total / 2;
  in->plain[0] = (float)b->store[s] / half;
  in->plain[1] = (float)b->store[1 - s] / half;
}

/* The forward pass works on blocks of EVAL_NET_LANES units held in a small
 * local array, which the compiler keeps in a vector register: no store and
 * reload of a layer's sums between inputs. */
#define L EVAL_NET_LANES

/* The first layer after its ReLU: per block, the bias, then the active
 * inputs' columns in order, then the plain inputs. */
static void layer1(const eval_net *n, const eval_net_input *in, float *restrict h1) {
  const int n1 = n->n1, onehot = n->nin - EVAL_NET_PLAIN;
  for (int j = 0; j < n1; j += L) {
    float acc[L];
    for (int u = 0; u < L; u++) acc[u] = n->b1[j + u];
    for (int a = 0; a < in->nactive; a++) {
      const float *col = n->w1 + (size_t)in->active[a] * (size_t)n1 + (size_t)j;
      for (int u = 0; u < L; u++) acc[u] += col[u];
    }
    for (int p = 0; p < EVAL_NET_PLAIN; p++) {
      const float *col = n->w1 + (size_t)(onehot + p) * (size_t)n1 + (size_t)j, x = in->plain[p];
      for (int u = 0; u < L; u++) acc[u] += x * col[u];
    }
    for (int u = 0; u < L; u++) h1[j + u] = acc[u] > 0 ? acc[u] : 0;
  }
}

/* The second layer after its ReLU: per block of units, four partial sums
 * over the inputs (j mod 4), added at the end, so that the four chains of
 * additions run side by side. */
static void layer2(const eval_net *n, const float *restrict h1, float *restrict h2) {
  const int n1 = n->n1, n2 = n->n2;
  const size_t stride = (size_t)n2;
  for (int k = 0; k < n2; k += L) {
    float a0[L] = {0}, a1[L] = {0}, a2[L] = {0}, a3[L] = {0};
    for (int j = 0; j < n1; j += 4) {
      const float *r0 = n->w2t + (size_t)j * stride + (size_t)k, *r1 = r0 + stride;
      const float *r2 = r1 + stride, *r3 = r2 + stride;
      const float x0 = h1[j], x1 = h1[j + 1], x2 = h1[j + 2], x3 = h1[j + 3];
      for (int u = 0; u < L; u++) a0[u] += x0 * r0[u];
      for (int u = 0; u < L; u++) a1[u] += x1 * r1[u];
      for (int u = 0; u < L; u++) a2[u] += x2 * r2[u];
      for (int u = 0; u < L; u++) a3[u] += x3 * r3[u];
    }
    for (int u = 0; u < L; u++) {
      float sum = n->b2[k + u] + ((a0[u] + a1[u]) + (a2[u] + a3[u]));
      h2[k + u] = sum > 0 ? sum : 0;
    }
  }
}

float eval_net_forward(const eval_net *n, const eval_net_input *in) {
  float h1[EVAL_NET_MAX_HIDDEN], h2[EVAL_NET_MAX_HIDDEN];
  layer1(n, in, h1);
  const float *last = h1;
  int nl = n->n1;
  if (n->n2) {
    layer2(n, h1, h2);
    last = h2, nl = n->n2;
  }
  float acc[L] = {0};
  for (int k = 0; k < nl; k += L)
    for (int u = 0; u < L; u++) acc[u] += n->w3[k + u] * last[k + u];
  float y = n->b3[0];
  for (int u = 0; u < L; u++) y += acc[u];
  return y;
}

#undef L

int eval_net_value(const eval_net *n, const board *b, const variant *v) {
  eval_net_input in;
  eval_net_encode(b, v, &in);
  float y = eval_net_forward(n, &in) + (float)(b->store[b->side] - b->store[1 - b->side]);
  y *= 100;
  if (y > 1e6f) y = 1e6f;
  if (y < -1e6f) y = -1e6f;
  return (int)lrintf(y);
}

int eval_net_check_variant(const eval_net *n, const variant *v, char *err, size_t errlen) {
  if (n->houses == v->houses && n->seeds == v->total) return 0;
  return error_set(err, errlen,
                   "the network is for the family houses=%d seeds=%d; the variant has "
                   "houses=%d seeds=%d",
                   n->houses, n->seeds, v->houses, v->total),
         -1;
}

uint64_t eval_net_checksum(const eval_net *n) {
  uint8_t *bytes = malloc(n->nweights * 4);
  if (!bytes) return 0; /* never matches a file's: refused as a mismatch */
  for (size_t i = 0; i < n->nweights; i++) {
    uint32_t u;
    memcpy(&u, &n->mem[i], 4);
    for (int k = 0; k < 4; k++) bytes[4 * i + (size_t)k] = (uint8_t)(u >> (8 * k));
  }
  uint64_t h = hash_fnv1a(bytes, n->nweights * 4);
  free(bytes);
  return h;
}

/* ---- The file ---- */

/* The next line of *p into buf (without its end); 0 at the end of text. */
static int next_line(const char **p, char *buf, size_t len) {
  if (!**p) return 0;
  size_t l = strcspn(*p, "\n");
  snprintf(buf, len, "%.*s", (int)(l < len - 1 ? l : len - 1), *p);
  *p += l + ((*p)[l] == '\n');
  return 1;
}

/* The header's lines, checked in order. */
static int parse_header(const char **p, int f[6], uint64_t *sum, char *err, size_t errlen) {
  char line[256], word[64];
  int version;
  if (!next_line(p, line, sizeof line) || sscanf(line, "%63s %d", word, &version) != 2 ||
      strcmp(word, EVAL_NET_MAGIC))
    return error_set(err, errlen, "not a network file: the first line is not '%s %d'",
                     EVAL_NET_MAGIC, EVAL_NET_VERSION),
           -1;
  if (version != EVAL_NET_VERSION)
    return error_set(err, errlen, "network file version %d; this build reads version %d", version,
                     EVAL_NET_VERSION),
           -1;
  if (!next_line(p, line, sizeof line) || sscanf(line, "layout %63s", word) != 1)
    return error_set(err, errlen, "line 2: expected 'layout NAME'"), -1;
  if (strcmp(word, EVAL_NET_LAYOUT))
    return error_set(err, errlen, "input layout '%s'; this build knows '%s'", word,
                     EVAL_NET_LAYOUT),
           -1;
  if (!next_line(p, line, sizeof line) ||
      sscanf(line, "family houses=%d seeds=%d", &f[0], &f[1]) != 2)
    return error_set(err, errlen, "line 3: expected 'family houses=H seeds=S'"), -1;
  int one;
  if (!next_line(p, line, sizeof line) ||
      sscanf(line, "layers %d %d %d %d", &f[2], &f[3], &f[4], &one) != 4 || one != 1)
    return error_set(err, errlen, "line 4: expected 'layers INPUTS H1 H2 1'"), -1;
  unsigned long long h;
  if (!next_line(p, line, sizeof line) || sscanf(line, "checksum %16llx", &h) != 1)
    return error_set(err, errlen, "line 5: expected 'checksum HEX'"), -1;
  *sum = h;
  if (!next_line(p, line, sizeof line) || strcmp(line, "weights"))
    return error_set(err, errlen, "line 6: expected 'weights'"), -1;
  return 0;
}

/* The weights after the header: exactly n->nweights finite numbers. */
static int parse_weights(const char *p, eval_net *n, char *err, size_t errlen) {
  size_t i = 0;
  for (;;) {
    while (*p == ' ' || *p == '\n' || *p == '\t') p++;
    if (!*p) break;
    if (i == n->nweights)
      return error_set(err, errlen, "more than the %zu weights the layers need", n->nweights),
             -1;
    char *end;
    errno = 0;
    float x = strtof(p, &end);
    if (end == p || errno || !isfinite(x) || (*end && !strchr(" \t\n", *end)))
      return error_set(err, errlen, "weight %zu is not a finite number: '%.20s'", i + 1, p), -1;
    n->mem[i++] = x;
    p = end;
  }
  if (i < n->nweights)
    return error_set(err, errlen, "truncated: %zu weights of the %zu the layers need", i,
                     n->nweights),
           -1;
  return 0;
}

int eval_net_parse(const char *text, eval_net *n, char *err, size_t errlen) {
  int f[6];
  uint64_t sum;
  const char *p = text;
  memset(n, 0, sizeof *n);
  if (parse_header(&p, f, &sum, err, errlen)) return -1;
  if (eval_net_alloc(n, f[0], f[1], f[3], f[4], err, errlen)) return -1;
  if (f[2] != n->nin) {
    error_set(err, errlen, "layers: %d inputs, but layout %s over %d houses has %d", f[2],
              EVAL_NET_LAYOUT, f[0], n->nin);
    eval_net_free(n);
    return -1;
  }
  if (parse_weights(p, n, err, errlen)) {
    eval_net_free(n);
    return -1;
  }
  eval_net_ready(n);
  uint64_t got = eval_net_checksum(n);
  if (got != sum) {
    error_set(err, errlen, "checksum mismatch: the header says %016llx, the weights give %016llx",
              (unsigned long long)sum, (unsigned long long)got);
    eval_net_free(n);
    return -1;
  }
  return 0;
}

static int parse_file(const char *text, void *n, char *err, size_t errlen) {
  return eval_net_parse(text, n, err, errlen);
}

static const char net1_text[] =
#include "players/eval_net_default.h"
    ;

static const char net2_text[] =
#include "players/eval_net2.h"
    ;

static const char net3_text[] =
#include "players/eval_net3.h"
    ;

int eval_net_builtin(const char *name, eval_net *n, char *err, size_t errlen) {
  if (!strcmp(name, "net")) return eval_net_parse(net1_text, n, err, errlen);
  if (!strcmp(name, "net2")) return eval_net_parse(net2_text, n, err, errlen);
  if (!strcmp(name, "net3")) return eval_net_parse(net3_text, n, err, errlen);
  return 1;
}

int eval_net_named(const char *name, eval_net *n, char *err, size_t errlen) {
  int rc = eval_net_builtin(name, n, err, errlen);
  return rc == 1 ? eval_net_load(name, n, err, errlen) : rc;
}

int eval_net_load(const char *path, eval_net *n, char *err, size_t errlen) {
  memset(n, 0, sizeof *n);
  return textfile_load(path, "network", EVAL_NET_FILE_MAX, parse_file, n, err, errlen);
}

/* rows of len weights from w, one row a line. */
static void put_rows(FILE *f, const float *w, size_t rows, size_t len) {
  for (size_t r = 0; r < rows; r++)
    for (size_t j = 0; j < len; j++) fprintf(f, "%.9g%c", (double)w[r * len + j], j + 1 < len ? ' ' : '\n');
}

int eval_net_save(const char *path, const eval_net *n, char *err, size_t errlen) {
  outfile o;
  if (outfile_open(&o, path, err, errlen)) return -1;
  FILE *f = o.f;
  fprintf(f, "%s %d\nlayout %s\nfamily houses=%d seeds=%d\nlayers %d %d %d 1\n", EVAL_NET_MAGIC,
          EVAL_NET_VERSION, EVAL_NET_LAYOUT, n->houses, n->seeds, n->nin, n->n1, n->n2);
  fprintf(f, "checksum %016llx\nweights\n", (unsigned long long)eval_net_checksum(n));
  const size_t n1 = (size_t)n->n1, n2 = (size_t)n->n2;
  put_rows(f, n->w1, (size_t)n->nin, n1);
  put_rows(f, n->b1, 1, n1);
  if (n2) {
    put_rows(f, n->w2, n2, n1);
    put_rows(f, n->b2, 1, n2);
  }
  put_rows(f, n->w3, 1, n2 ? n2 : n1);
  put_rows(f, n->b3, 1, 1);
  return outfile_commit(&o, err, errlen);
}
