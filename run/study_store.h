/* study_store.h: a variant study's metrics as rows of the store (table variant_metrics, which this driver declares). */
#ifndef OWARE_STUDY_STORE_H
#define OWARE_STUDY_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* One measured number of a variant study (`oware study`). (Schema
 * version 4.) A test between two variants is stored under the first one,
 * with the other's index in the metric's name ("south_score_p_vs_2"). */
typedef struct study_metric {
  int variant_idx;
  char metric[64];   /* e.g. "south_win", "length_mean", "gs_available" */
  double value;
  double lo, hi;     /* the 95% interval, when has_interval */
  int has_interval;
  long long n;       /* what the value is over: games, positions, pairs */
} study_metric;

/* The table variant_metrics: registered by the program (cli/main.c), so
 * that every new database has it; created when first written otherwise. */
extern const store_tables study_store_tables;

/* Replaces the study metrics of run_id by these n rows, in one transaction. */
int study_store_replace(store *s, int64_t run_id, const study_metric *m, int n, char *err,
                        size_t errlen);
/* Calls fn for each stored metric of run_id, by variant then name (none
 * when a read-only database lacks the table). */
int study_store_foreach(store *s, int64_t run_id, int (*fn)(void *ctx, const study_metric *m),
                        void *ctx, char *err, size_t errlen);

#endif
