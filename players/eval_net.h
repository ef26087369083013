/* eval_net.h: the network evaluation: its input layout, the forward pass in floats, its file (header, checksum, weights). */
#ifndef OWARE_EVAL_NET_H
#define OWARE_EVAL_NET_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/variant.h"

/* The input layout "hb16", from the side to move's view: for each house of
 * the mover's row, then of the opponent's row (in sowing order), a one-hot
 * of 16 buckets of its seed count (0..11 one each, 12-15, 16-19, 20-27,
 * 28 and more), then two plain inputs: each store (the mover's, then the
 * opponent's) as a share of half the seeds. A position has 2H active
 * one-hot inputs; the first layer sums their columns. */
#define EVAL_NET_LAYOUT "hb16"
#define EVAL_NET_BUCKETS 16
#define EVAL_NET_PLAIN 2
/* Largest layer the format takes (hidden layers are at most this wide),
 * and the multiple their sizes are (the forward pass works in blocks of it). */
#define EVAL_NET_MAX_HIDDEN 256
#define EVAL_NET_LANES 8
#define EVAL_NET_MAX_ACTIVE (2 * VARIANT_MAX_HOUSES)

/* The inputs of one position: the indices of its active one-hot inputs
 * and the plain inputs' values (the one-hot part has 2H·16 inputs). */
typedef struct eval_net_input {
  int nactive;
  int active[EVAL_NET_MAX_ACTIVE];
  float plain[EVAL_NET_PLAIN];
} eval_net_input;

/* A network: inputs → h1 (ReLU) → h2 (ReLU; n2 = 0: no second layer) → 1.
 * The output y is in seeds: the evaluation in centiseeds is
 * 100·(y + the mover's store minus the opponent's), so that the network
 * learns what the board is worth beyond what is already won. Weights:
 * w1 input-major (row i: the n1 weights from input i), w2 output-major
 * (row k: the n1 weights into unit k of h2), w3 (from the last hidden
 * layer), biases b1, b2, b3. All in one block (`mem`), in the file's order;
 * the forward pass reads w2 transposed (w2t, made by eval_net_ready). */
typedef struct eval_net {
  int houses, seeds; /* the variant family: its row length and seed total */
  int nin, n1, n2;
  float *w1, *b1, *w2, *b2, *w3, *b3;
  float *mem;
  float *w2t; /* w2 input-major, for the forward pass (eval_net_ready) */
  size_t nweights;
} eval_net;

/* Inputs of the layout for houses H (2·H·16 + 2). */
static inline int eval_net_inputs(int houses) {
  return 2 * houses * EVAL_NET_BUCKETS + EVAL_NET_PLAIN;
}

/* Allocates a zeroed network of the layout for the family (houses, seeds)
 * with hidden layers n1 and n2 (multiples of EVAL_NET_LANES; n2 = 0: one
 * hidden layer). 0, or -1 with err (sizes out of range, out of memory). */
int eval_net_alloc(eval_net *n, int houses, int seeds, int n1, int n2, char *err, size_t errlen);

/* Whether hidden layers of n1 and n2 units can be made: the first
 * EVAL_NET_LANES..EVAL_NET_MAX_HIDDEN, the second 0 (none) up to the same,
 * both multiples of EVAL_NET_LANES. 0, or -1 with err. */
int eval_net_shape_check(int n1, int n2, char *err, size_t errlen);
void eval_net_free(eval_net *n);
/* After the weights in mem are set or changed: what the forward pass
 * derives from them (w2t). eval_net_parse and the trainer call it. */
void eval_net_ready(eval_net *n);

/* The inputs of b (the side to move's view) under v. */
void eval_net_encode(const board *b, const variant *v, eval_net_input *in);

/* The network's output y for in (seeds, before the store difference),
 * summed in a fixed order (the same result wherever it runs). */
float eval_net_forward(const eval_net *n, const eval_net_input *in);

/* The evaluation of b in centiseeds from the side to move (rounded). */
int eval_net_value(const eval_net *n, const board *b, const variant *v);

/* Whether n was trained for v's family (the same houses and seeds): 0, or
 * -1 with err saying which differs. */
int eval_net_check_variant(const eval_net *n, const variant *v, char *err, size_t errlen);

/* The checksum of the weights: FNV-1a of their float bytes, little-endian. */
uint64_t eval_net_checksum(const eval_net *n);

/* The file: "oware-net 1", "layout hb16", "family houses=H seeds=S",
 * "layers NIN N1 N2 1", "checksum HEX", "weights", then the weights in the
 * order of mem, %.9g one layer's row a line (floats read back exactly).
 * eval_net_parse refuses, naming it: another magic or version, another
 * layout, a malformed header line, sizes out of range, a weight that is not
 * a finite number, too few weights (truncated) or too many, a checksum
 * that does not match. 0, or -1 with err. n is allocated on success. */
int eval_net_parse(const char *text, eval_net *n, char *err, size_t errlen);
int eval_net_load(const char *path, eval_net *n, char *err, size_t errlen);
/* The built-in networks, files of networks trained by `oware tune net`
 * (docs/TUNING.md): "net", players/eval_net_default.h (issue 23: 4,000
 * games of the linear evaluation), "net2", players/eval_net2.h (40,000
 * auale games of "net" and of its own first cut; issue 22), and "net3",
 * players/eval_net3.h (a first layer of 64: those games and 20,000 of
 * net2's own). eval_net_builtin returns 1 when name is none of them, else
 * 0 with *n or -1 with err; eval_net_named reads any other name as a
 * network file. */
int eval_net_builtin(const char *name, eval_net *n, char *err, size_t errlen);
int eval_net_named(const char *name, eval_net *n, char *err, size_t errlen);
/* The built-in network minimax's eval=auto takes (store schema 14 on). */
#define EVAL_NET_AUTO "net3"
/* Written whole (temporary file, then rename). 0, or -1 with err. */
int eval_net_save(const char *path, const eval_net *n, char *err, size_t errlen);

#endif
