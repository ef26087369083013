/* book_build.c: the opening book's build: the positions of the first plies, each searched by minimax on thread_parallel_for's threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/game.h"
#include "core/outfile.h"
#include "core/thread.h"
#include "players/book.h"
#include "players/book_file.h"
#include "players/player.h"

#define BOOK_MAX_THREADS 64

static int by_key(const void *a, const void *b) {
  uint8_t ka[BOOK_KEY], kb[BOOK_KEY];
  book_key(a, ka);
  book_key(b, kb);
  return memcmp(ka, kb, BOOK_KEY);
}

/* Sorts the n boards of a by key and drops repeats; returns how many are left. */
static size_t sort_unique(board *a, size_t n) {
  if (!n) return 0;
  qsort(a, n, sizeof *a, by_key);
  size_t k = 1;
  for (size_t i = 1; i < n; i++)
    if (by_key(&a[k - 1], &a[i])) a[k++] = a[i];
  return k;
}

/* A growing array of boards. */
typedef struct boards {
  board *b;
  size_t n, cap;
} boards;

static int push(boards *a, const board *x) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 64;
    board *nb = realloc(a->b, cap * sizeof *nb);
    if (!nb) return -1;
    a->b = nb;
    a->cap = cap;
  }
  a->b[a->n++] = *x;
  return 0;
}

/* The positions before each of the first `plies` moves, where the game is
 * not over, sorted by key and distinct, into *out. */
static int enumerate(const variant *v, int plies, boards *out) {
  boards cur = {0}, next = {0};
  board start;
  board_start(&start, v);
  int rc = push(&cur, &start);
  for (int k = 0; k < plies && !rc; k++) {
    cur.n = sort_unique(cur.b, cur.n);
    next.n = 0;
    for (size_t i = 0; i < cur.n && !rc; i++) {
      uint32_t legal;
      if (board_status(&cur.b[i], v, &legal) != BOARD_END_NONE || !legal) continue;
      rc = push(out, &cur.b[i]);
      for (uint32_t l = legal; l && k + 1 < plies && !rc; l &= l - 1) {
        board c = cur.b[i];
        board_play(&c, v, __builtin_ctz(l));
        rc = push(&next, &c);
      }
    }
    boards t = cur;
    cur = next;
    next = t;
  }
  free(cur.b);
  free(next.b);
  if (!rc) out->n = sort_unique(out->b, out->n);
  return rc;
}

typedef struct work {
  const book_build_config *c;
  char spec[128];
  const board *pos;
  size_t count;
  uint8_t *entries;
  player *players[BOOK_MAX_THREADS]; /* a worker's, made at its first position */
  pthread_mutex_t lock;              /* guards what follows */
  long long done, nodes;
  int failed;
  char err[ERROR_MAX];
  book_progress_fn progress;
  void *ctx;
} work;

static int fail(work *w, const char *msg) {
  pthread_mutex_lock(&w->lock);
  if (!w->failed) error_set(w->err, sizeof w->err, "%s", msg);
  w->failed = 1;
  pthread_mutex_unlock(&w->lock);
  return 1;
}

/* Position i, on worker `worker` (thread_parallel_for): searched as the
 * first move of a new game (the table cleared: the result depends on the
 * position only), its entry stored at the position's place. Non-zero stops
 * the build. */
static int search_position(void *ctx, long long i, int worker) {
  work *w = ctx;
  char err[ERROR_MAX];
  player **p = &w->players[worker];
  if (!*p && !(*p = player_create(w->spec, err, sizeof err))) return fail(w, err);
  game g;
  int m = -1;
  player_info info = {0};
  if (player_new_game(*p, &w->c->v, 0, err, sizeof err)) return fail(w, err);
  if (game_init(&g, &w->c->v, &w->pos[i])) return fail(w, "book: out of memory");
  player_status st = player_choose(*p, &g, NULL, &m, &info, err, sizeof err);
  game_free(&g);
  if (st != PLAYER_OK) return fail(w, err);
  book_entry(w->entries + i * BOOK_ENTRY_SIZE, &w->pos[i], m, info.score);
  pthread_mutex_lock(&w->lock);
  w->done++;
  w->nodes += info.nodes;
  if (w->progress) w->progress(w->ctx, w->done, (long long)w->count);
  pthread_mutex_unlock(&w->lock);
  return 0;
}

int book_build(const book_build_config *c, const char *path, book_progress_fn progress, void *ctx,
               book_build_stats *stats, char *err, size_t errlen) {
  const double t0 = clock_now();
  if (c->plies < 1 || c->threads < 1 || c->threads > BOOK_MAX_THREADS || c->depth < 0 ||
      c->nodes < 0 || (!c->depth && !c->nodes)) {
    error_set(err, errlen, "book: plies and threads (1..%d) must be at least 1, and a depth or a "
             "node budget given", BOOK_MAX_THREADS);
    return -1;
  }
  book_info info = {0};
  info.v = c->v;
  info.plies = c->plies;
  info.depth = c->depth;
  info.nodes = c->nodes;
  variant_format(&c->v, info.variant_text, sizeof info.variant_text);
  if (strlen(info.variant_text) + 1 >= sizeof info.variant_text) {
    error_set(err, errlen, "book: the variant's string is too long for the book's header");
    return -1;
  }
  if (outfile_check(path, err, errlen)) return -1;
  boards pos = {0};
  if (enumerate(&c->v, c->plies, &pos)) {
    free(pos.b);
    error_set(err, errlen, "book: out of memory listing the positions of %d plies", c->plies);
    return -1;
  }
  work w = {.c = c, .pos = pos.b, .count = pos.n, .progress = progress, .ctx = ctx};
  int n = snprintf(w.spec, sizeof w.spec, "minimax:hash=16,egdb=off");
  if (c->depth) n += snprintf(w.spec + n, sizeof w.spec - (size_t)n, ",depth=%d", c->depth);
  if (c->nodes) snprintf(w.spec + n, sizeof w.spec - (size_t)n, ",nodes=%lld", c->nodes);
  w.entries = calloc(pos.n ? pos.n : 1, BOOK_ENTRY_SIZE);
  if (!w.entries || pthread_mutex_init(&w.lock, NULL)) {
    free(w.entries);
    free(pos.b);
    error_set(err, errlen, "book: out of memory");
    return -1;
  }
  thread_parallel_for((long long)pos.n, c->threads, search_position, &w);
  for (int i = 0; i < c->threads; i++) player_free(w.players[i]);
  pthread_mutex_destroy(&w.lock);
  int rc = 0;
  if (w.failed) {
    error_set(err, errlen, "book: %s", w.err);
    rc = -1;
  } else {
    rc = book_write(path, &info, w.entries, pos.n, err, errlen);
  }
  if (stats) {
    stats->positions = (long long)pos.n;
    stats->nodes = w.nodes;
    stats->seconds = clock_now() - t0;
  }
  free(w.entries);
  free(pos.b);
  return rc;
}
