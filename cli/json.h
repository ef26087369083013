/* json.h: the machine-readable output of `--json` (docs/JSON.md): values, and the runs, ratings, standings, study and calibration objects the commands print. */
#ifndef OWARE_CLI_JSON_H
#define OWARE_CLI_JSON_H

#include <stdio.h>

#include "stats/sprt.h"

#include "stats/elo_fit.h"
#include "stats/match_stats.h"
#include "store/store.h"
#include "tuner/calibration.h"

/* A JSON string (UTF-8 passed through; '"', '\' and control characters escaped). */
void cli_json_str(FILE *f, const char *s);
/* A number: integers without a fraction, others with up to 10 significant
 * digits; NaN and infinities (which JSON lacks) as null. */
void cli_json_num(FILE *f, double x);

/* An object or array written a member at a time (the commas between
 * them kept here): cli_json_open(&o, f, '{'), then cli_json_key and a
 * value, or cli_json_num_at / cli_json_str_at, cli_json_close at the end.
 * A nested one opens on the same FILE after a key (or as an array item
 * after cli_json_item). */
typedef struct cli_json_out {
  FILE *f;
  int n;     /* members written */
  char open; /* '{' or '[' */
} cli_json_out;
void cli_json_open(cli_json_out *o, FILE *f, char open);
/* ,"KEY": (without the comma before the first member). */
void cli_json_key(cli_json_out *o, const char *key);
/* The comma before an array's item (none before the first). */
void cli_json_item(cli_json_out *o);
void cli_json_num_at(cli_json_out *o, const char *key, double x);
void cli_json_str_at(cli_json_out *o, const char *key, const char *s);
/* The string s, or null when s is NULL. */
void cli_json_str_or_null_at(cli_json_out *o, const char *key, const char *s);
void cli_json_bool_at(cli_json_out *o, const char *key, int v);
void cli_json_close(cli_json_out *o);

/* One run as an object: id, name, kind, status, started, finished (null
 * while running), format, openings, rounds, seed, players (names), variants,
 * games. */
void cli_json_run(FILE *f, const store_run *r, long long games);

/* A fit as an object: scope, anchor (null or {name, elo}), games,
 * bootstrap, players (in rank order: rank, name, elo, lo, hi, se, games,
 * wins, draws, losses, score, draw_ratio, bounded) and los (rank order, a
 * matrix of probabilities); with two players in pool also "match": the
 * statistics of the first ranked against the second; with ends (the rated
 * games counted by end reason, OUTCOME_NENDS of them; NULL: none) also
 * "adjudicated": {games, of, and one count per adjudicated-* end}; with
 * scores (nscores rows, as store_end_scores gives them) also "ends": per
 * player in rank order, its games by end reason (rating_print_ends). */
void cli_json_rating(FILE *f, const char *scope, const char *anchor, double anchor_elo,
                     const rating_result *r, const rating_pool *pool, const long long *ends,
                     const store_end_score *scores, int nscores);
/* The same, then (when run has an SPRT setting) its "sprt" object as
 * cli_json_run_sprt writes it. 0, or -1 with err. */
int cli_json_rating_run(FILE *f, const char *scope, const char *anchor, double anchor_elo,
                        const rating_result *r, const rating_pool *pool, const long long *ends,
                        const store_end_score *scores, int nscores, store *db, int64_t run_id,
                        char *err, size_t errlen);

/* A match's fields (no braces): first, second, wins, draws, losses, penta
 * (LL, LD, WL+DD, WD, WW), points, score, elo, elo_err, nelo, nelo_err, los
 * (docs/STATISTICS.md), of first against second. */
void cli_json_match_fields(FILE *f, const char *first, const char *second, const rating_match *m,
                           const rating_match_stats *s);

/* An SPRT's settings and outcome as fields (no braces): llr, lower, upper,
 * decision, elo0, elo1, alpha, beta, model (the format of `oware sprt`). */
void cli_json_sprt_fields(FILE *f, const rating_sprt *s, double llr);
/* ,"sprt":{first, second, pairs, and cli_json_sprt_fields}: the SPRT of
 * run's stored game pairs, its first player against its second, when run
 * has an SPRT setting (nothing otherwise). 0, or -1 with err. */
int cli_json_run_sprt(FILE *f, store *db, const store_run *run, char *err, size_t errlen);

/* A run's standings (docs/JSON.md): {"run": the run object, "standings":
 * [{rank, name, games, wins, draws, losses, points, score, elo, lo, hi,
 * bounded}] in standings order (elo null when the run has no Elo)}. */
struct plot_run;
void cli_json_standings(FILE *f, const struct plot_run *r);
/* cli_json_standings and the run's "sprt" object (cli_json_run_sprt). 0, or
 * -1 with err. */
int cli_json_standings_sprt(FILE *f, const struct plot_run *r, store *db, char *err,
                            size_t errlen);

/* A variant study (docs/JSON.md): {"run", "standings" as above,
 * "bootstrap", "variants": [per variant: counts, rates with their 95%
 * intervals ({value, lo, hi}), length, ends, grand slams, branching and
 * "elo" (per player, or null)], "score_tests", "draw_tests", "swaps"}. */
struct study;
void cli_json_study(FILE *f, const struct plot_run *r, const struct study *s);

/* A calibration's summary (docs/JSON.md): the reference pool, the search's
 * points, the verification (as cli_json_rating), the levels with their
 * verdicts, levels_file (NULL: not written). */
void cli_json_calibration(FILE *f, const tuner_calibrate_config *c, const tuner_calibration *r,
                          const char *levels_file);

#endif
