/* sprt.h: the sequential probability ratio test (fishtest's GSPRT) of a match's results (docs/STATISTICS.md). */
#ifndef OWARE_SPRT_H
#define OWARE_SPRT_H

#include <stddef.h>

#include "stats/match_stats.h"

/* ------------------------------------------------------------------- SPRT */

typedef enum rating_model { RATING_MODEL_NORMALIZED, RATING_MODEL_LOGISTIC } rating_model;

/* A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1. */
typedef struct rating_sprt {
  double elo0, elo1;   /* in the model's units (logistic Elo or normalized Elo) */
  double alpha, beta;  /* error rates, in (0, 0.5) */
  rating_model model;
} rating_sprt;

typedef enum rating_decision {
  RATING_CONTINUE = 0,
  RATING_ACCEPT_H0 = 1, /* LLR <= lower bound */
  RATING_ACCEPT_H1 = 2  /* LLR >= upper bound */
} rating_decision;

typedef struct rating_sprt_result {
  double llr, lower, upper;
  rating_decision decision;
} rating_sprt_result;

/* elo0 0, elo1 5, alpha 0.05, beta 0.05, normalized. */
void rating_sprt_default(rating_sprt *s);
/* Parses "elo0=0,elo1=5[,alpha=0.05][,beta=0.05][,model=normalized|logistic]"
 * (keys in any order, each once; elo0 and elo1 required; alpha, beta and
 * model default to rating_sprt_default's values; no empty item) and checks
 * it (rating_sprt_check). -1 with a message naming the bad part. */
int rating_sprt_parse(const char *text, rating_sprt *s, char *err, size_t errlen);
/* The same for the text a run stored (a resume, a report): elo0 and elo1
 * may be missing, as they could before they were required (the defaults). */
int rating_sprt_parse_stored(const char *text, rating_sprt *s, char *err, size_t errlen);
/* elo0 < elo1, both finite; alpha and beta in (0, 0.5). */
int rating_sprt_check(const rating_sprt *s, char *err, size_t errlen);

/* fishtest's generalized log-likelihood ratio from the five pair counts
 * (LL, LD, WL+DD, WD, WW) or from W/D/L game counts (docs/STATISTICS.md);
 * finite for any counts, 0 with none. */
double rating_sprt_llr_penta(const rating_sprt *s, const long long penta[5]);
double rating_sprt_llr_wdl(const rating_sprt *s, long long wins, long long draws, long long losses);
double rating_sprt_lower(const rating_sprt *s); /* ln(β/(1−α)) */
double rating_sprt_upper(const rating_sprt *s); /* ln((1−β)/α) */
rating_decision rating_sprt_decide(const rating_sprt *s, double llr);
/* "continue", "H0 accepted", "H1 accepted". */
const char *rating_decision_name(rating_decision d);
/* All of it at once: LLR from m's pairs (or from its W/D/L when use_wdl is
 * set), the bounds and the decision. */
rating_sprt_result rating_sprt_test(const rating_sprt *s, const rating_match *m, int use_wdl);
#endif
