/* ending_fit.c: the corrections in endings, fitted by least squares on the endgame tables' values of real games' positions. */
#include "tuner/ending_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>

#include "core/error.h"
#include "core/game.h"
#include "egdb/egdb.h"
#include "tuner/db_games.h"


/* Terms of a range: the tempo and the features but the store. */
#define TERMS EVAL_N

/* The samples of one range: rows of TERMS features (tempo first), the
 * residual to fit, and the evaluation's own estimate. */
typedef struct samples {
  double *x, *y, *cur;
  size_t n, cap;
  long long cycle;
} samples;

typedef struct collect {
  const tuner_ending_config *c;
  const egdb *db;
  int seeds, nranges;
  samples s[EVAL_ENDING_MAX];
  long long positions;
} collect;

static int push(samples *s, const int f[EVAL_N], double y, double cur) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 4096;
    double *x = realloc(s->x, cap * TERMS * sizeof *x);
    if (!x) return -1;
    s->x = x;
    double *yy = realloc(s->y, cap * sizeof *yy);
    if (!yy) return -1;
    s->y = yy;
    double *cc = realloc(s->cur, cap * sizeof *cc);
    if (!cc) return -1;
    s->cur = cc;
    s->cap = cap;
  }
  double *row = s->x + s->n * TERMS;
  row[0] = 1; /* the tempo; the store's slot */
  for (int i = 1; i < EVAL_N; i++) row[i] = f[i];
  s->y[s->n] = y;
  s->cur[s->n] = cur;
  s->n++;
  return 0;
}

/* The final scores (half seeds) of the game of moves from start into
 * final2: 1 when it ends within them, else 0. */
static int game_final(const variant *v, const board *start, const int *moves, int plies,
                      int final2[2]) {
  game g;
  if (game_init(&g, v, start)) return 0;
  for (int ply = 0; ply < plies && g.end == BOARD_END_NONE; ply++)
    if (game_play(&g, moves[ply])) break;
  int ended = g.end != BOARD_END_NONE;
  if (ended) memcpy(final2, g.score2, sizeof g.score2);
  game_free(&g);
  return ended;
}

static int add_game(void *ctx, const board *start, const int *moves, int plies, int winner,
                    long long number) {
  (void)winner, (void)number;
  collect *k = ctx;
  const variant *v = &k->c->v;
  int final2[2];
  int ended = k->c->cycle_label == TUNER_ENDING_GAME && game_final(v, start, moves, plies, final2);
  game g;
  if (game_init(&g, v, start)) return -1;
  int rc = 0;
  for (int ply = 0; ply <= plies && g.end == BOARD_END_NONE && !rc; ply++) {
    const board *b = &g.pos;
    int n = v->total - b->store[0] - b->store[1];
    egdb_value ev;
    if (n >= 1 && n <= k->seeds && !egdb_probe(k->db, b, &ev)) {
      int f[EVAL_N];
      eval_compute(b, v, f);
      double cur = 0;
      for (int i = 1; i < EVAL_N; i++) cur += k->c->w.w[i] * f[i];
      double v2 = ev.lower + ev.upper; /* 2V, V the mean */
      if (ev.lower != ev.upper && (ended || k->c->cycle_label == TUNER_ENDING_ROW)) {
        /* what the game gave the mover of the seeds now on the board, or its
         * own row, in half seeds, within the bounds */
        v2 = ended ? final2[b->side] - 2 * b->store[b->side] : 2 * board_row(b, v, b->side);
        if (v2 < 2 * ev.lower) v2 = 2 * ev.lower;
        if (v2 > 2 * ev.upper) v2 = 2 * ev.upper;
      }
      double value = 100.0 * (v2 - n); /* 100 (2V - n) */
      samples *s = &k->s[(n - 1) / k->c->width];
      s->cycle += ev.lower != ev.upper;
      rc = push(s, f, value - cur, cur);
      k->positions++;
    }
    if (ply < plies && game_play(&g, moves[ply])) break; /* a stored game that goes on no further */
  }
  game_free(&g);
  return rc ? -1 : 0;
}

/* Fits one range: the correction, and the errors before and after. */
static int fit_range(const samples *s, int lo, int hi, int tempo_w[1], int w[EVAL_N],
                     tuner_ending_range *out, char *err, size_t errlen) {
  if (s->n < 10 * TERMS)
    return error_set(err, errlen, "seeds %d..%d: %zu positions, too few for a fit of %d terms (at least %d): "
               "give more games",
               lo, hi, s->n, TERMS, 10 * TERMS),
           -1;
  gsl_matrix_const_view X = gsl_matrix_const_view_array(s->x, s->n, TERMS);
  gsl_vector_const_view y = gsl_vector_const_view_array(s->y, s->n);
  gsl_vector *coef = gsl_vector_alloc(TERMS);
  gsl_matrix *cov = gsl_matrix_alloc(TERMS, TERMS);
  gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(s->n, TERMS);
  int rc = -1;
  double chisq;
  if (!coef || !cov || !ws) {
    error_set(err, errlen, "out of memory");
  } else if (gsl_multifit_linear(&X.matrix, &y.vector, coef, cov, &chisq, ws)) {
    error_set(err, errlen, "seeds %d..%d: the least-squares fit failed", lo, hi);
  } else {
    /* The correction in whole centiseeds, and the errors it gives. */
    tempo_w[0] = (int)lround(gsl_vector_get(coef, 0));
    w[EVAL_STORE] = 0;
    for (int i = 1; i < EVAL_N; i++) w[i] = (int)lround(gsl_vector_get(coef, i));
    double mean = 0, var = 0, sse0 = 0, sse = 0;
    for (size_t j = 0; j < s->n; j++) mean += s->y[j] + s->cur[j];
    mean /= (double)s->n;
    for (size_t j = 0; j < s->n; j++) {
      const double *row = s->x + j * TERMS;
      double value = s->y[j] + s->cur[j], d = tempo_w[0];
      for (int i = 1; i < EVAL_N; i++) d += w[i] * row[i];
      var += (value - mean) * (value - mean);
      sse0 += s->y[j] * s->y[j];
      sse += (s->y[j] - d) * (s->y[j] - d);
    }
    out->positions = (long long)s->n;
    out->cycle_share = (double)s->cycle / (double)s->n;
    out->rmse0 = sqrt(sse0 / (double)s->n);
    out->rmse = sqrt(sse / (double)s->n);
    out->r2_0 = var > 0 ? 1 - sse0 / var : NAN;
    out->r2 = var > 0 ? 1 - sse / var : NAN;
    rc = 0;
  }
  gsl_multifit_linear_free(ws);
  gsl_matrix_free(cov);
  gsl_vector_free(coef);
  return rc;
}

int tuner_ending_fit(const tuner_ending_config *c, tuner_ending_result *r, char *err,
                     size_t errlen) {
  memset(r, 0, sizeof *r);
  if (c->width < 1) return error_set(err, errlen, "the width of a range is at least 1 seed"), -1;
  egdb *db;
  char e[ERROR_MAX];
  if (egdb_open(c->egdb_dir, &c->v, c->seeds, 0, &db, e, sizeof e)) {
    char vname[160];
    variant_format(&c->v, vname, sizeof vname);
    return error_set(err, errlen, "the endgame tables of %s in %s: %s", vname, c->egdb_dir, e), -1;
  }
  collect k;
  memset(&k, 0, sizeof k);
  k.c = c;
  k.db = db;
  k.seeds = egdb_max_seeds(db);
  if (c->seeds >= 0 && c->seeds < k.seeds) k.seeds = c->seeds;
  if (c->seeds >= 0 && k.seeds < c->seeds) {
    error_set(err, errlen, "the endgame tables in %s stop at %d seeds, not %d", c->egdb_dir, k.seeds, c->seeds);
    egdb_close(db);
    return -1;
  }
  k.nranges = (k.seeds + c->width - 1) / c->width;
  int rc = -1;
  gsl_error_handler_t *old = gsl_set_error_handler_off();
  if (k.seeds < 1) {
    error_set(err, errlen, "the tables in %s stop at %d seeds: nothing to fit", c->egdb_dir, k.seeds);
  } else if (k.nranges > EVAL_ENDING_MAX) {
    error_set(err, errlen, "%d ranges of %d seeds: at most %d (a wider --width)", k.nranges, c->width,
        EVAL_ENDING_MAX);
  } else if (tuner_db_games(c->from_db, &c->v, add_game, &k, &r->games, &r->runs, e,
                            sizeof e)) {
    error_set(err, errlen, "%s", e);
  } else if (!k.positions) {
    error_set(err, errlen, "%s: no position with 1 to %d seeds on the board in %lld games of the variant",
        c->from_db, k.seeds, r->games);
  } else {
    rc = 0;
    memset(r->table.at, -1, sizeof r->table.at);
    for (int i = 0; i < k.nranges && !rc; i++) {
      int lo = i * c->width + 1, hi = lo + c->width - 1 < k.seeds ? lo + c->width - 1 : k.seeds;
      int tempo, w[EVAL_N];
      rc = fit_range(&k.s[i], lo, hi, &tempo, w, &r->range[i], err, errlen);
      if (!rc) rc = eval_ending_add(&r->table, lo, hi, tempo, w, err, errlen);
    }
    r->positions = k.positions;
    r->seeds = k.seeds;
  }
  gsl_set_error_handler(old);
  for (int i = 0; i < EVAL_ENDING_MAX; i++) {
    free(k.s[i].x);
    free(k.s[i].y);
    free(k.s[i].cur);
  }
  egdb_close(db);
  return rc;
}
