/* tuning_store.h: the iterations of tuning runs in the store (table tuning, declared here and registered with the store; docs/SCHEMA.md). */
#ifndef OWARE_TUNING_STORE_H
#define OWARE_TUNING_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* One iteration of a tuning run (`oware tune`). (Schema version 3; the table is tuner/'s, registered with the store.) */
typedef struct tuning_row {
  int64_t run_id;
  int iteration;       /* 0-based; -1 for the validation match */
  char kind[16];       /* "spsa", "texel" or "validation" */
  char weights[2048];  /* "name value name value …": the weights after the iteration */
  char step[2048];     /* spsa: "name c_k …" of the iteration; texel: K and the sample */
  long long wins, draws, losses; /* spsa: of the plus side; validation: of the tuned side */
  double value;        /* spsa: W − L; texel: mean squared error; validation: Elo gain */
  double lo, hi;       /* validation: the 95% interval of the Elo gain */
  long long games;     /* games played by the run so far */
  char created[32];    /* set by tuning_store_insert */
} tuning_row;

/* Stores one iteration (its own transaction). Storing an iteration twice is
 * an error. */
int tuning_store_insert(store *s, const tuning_row *t, char *err, size_t errlen);

/* Calls fn for each stored iteration of run_id, by iteration (validation last). */
int tuning_store_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const tuning_row *t),
                         void *ctx, char *err, size_t errlen);

/* The tuning table, registered with the store by the programs that tune or
 * draw tuning runs (cli/main.c). */
extern const store_tables tuning_store_tables;

#endif
