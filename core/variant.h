/* variant.h: the rule switches of shared/RULES.md, named presets and the variant-string parser. */
#ifndef OWARE_VARIANT_H
#define OWARE_VARIANT_H

#include <stddef.h>

#define VARIANT_MIN_HOUSES 3
#define VARIANT_MAX_HOUSES 8
#define VARIANT_MIN_SEEDS 1
#define VARIANT_MAX_SEEDS 12
#define VARIANT_MAX_PITS (2 * VARIANT_MAX_HOUSES)
/* Largest seed count a house or store can hold: 2 * 8 * 12. */
#define VARIANT_MAX_TOTAL (2 * VARIANT_MAX_HOUSES * VARIANT_MAX_SEEDS)

typedef enum { VARIANT_LAP_SKIP, VARIANT_LAP_FILL } variant_lap;
typedef enum {
  VARIANT_GS_NOTHING,   /* grand slam played, captures nothing (abapa) */
  VARIANT_GS_FORBIDDEN, /* illegal unless every legal move is one */
  VARIANT_GS_ALL,       /* captures everything it reaches */
  VARIANT_GS_WIN        /* captures only if that reaches more than T/2 */
} variant_grand_slam;
typedef enum { VARIANT_FEED_MUST, VARIANT_FEED_NONE } variant_feeding;
typedef enum { VARIANT_CYCLE_OWN, VARIANT_CYCLE_SPLIT } variant_cycle;

/* A full rule set. Fields after max_plies are derived by variant_finish(). */
typedef struct variant {
  int houses;     /* H: houses per side, 3..8 */
  int seeds;      /* S: seeds per house at the start, 1..12 */
  variant_lap lap;
  variant_grand_slam grand_slam;
  variant_feeding feeding;
  int repetition; /* N-th occurrence ends the game; 0 = off, else 2..100 */
  variant_cycle cycle;
  int max_plies;  /* 0 = none */
  /* derived */
  int pits;       /* 2H */
  int total;      /* T = 2HS */
  int half;       /* T/2: more than this wins */
} variant;

/* Fills v with abapa, the default rule set. */
void variant_default(variant *v);

/* Recomputes the derived fields after a switch was changed. */
void variant_finish(variant *v);

/* Parses "name[,switch=value…]" or "switch=value,…" (on top of abapa).
 * Returns 0, or -1 with a message naming the bad part in err. */
int variant_parse(const char *text, variant *v, char *err, size_t errlen);

/* Writes the shortest string that variant_parse reads back as v:
 * the closest named preset followed by the switches that differ. */
void variant_format(const variant *v, char *buf, size_t len);

/* Named presets, for listings: NULL-terminated. */
extern const char *const variant_names[];

/* Names of switch values, for messages and formatting. */
const char *variant_grand_slam_name(variant_grand_slam g);

#endif
