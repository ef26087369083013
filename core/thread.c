/* thread.c: threads over pthreads: one thread, a team parked between runs, a parallel for. */
#include "core/thread.h"
#include "core/error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct thread {
  pthread_t id;
};

thread *thread_start(void *(*fn)(void *), void *arg, char *err, size_t errlen) {
  thread *t = malloc(sizeof *t);
  if (!t) {
    error_set(err, errlen, "cannot start a thread: out of memory");
    return NULL;
  }
  int rc = pthread_create(&t->id, NULL, fn, arg);
  if (rc) {
    error_set(err, errlen, "cannot start a thread: %s", strerror(rc));
    free(t);
    return NULL;
  }
  return t;
}

void thread_join(thread *t) {
  if (!t) return;
  pthread_join(t->id, NULL);
  free(t);
}

/* ---- A team ---- */

typedef struct member {
  thread_team *team;
  int i;
  thread *th;
} member;

struct thread_team {
  void (*fn)(void *ctx, int i);
  void *ctx;
  int n;
  member *m;
  pthread_mutex_t mu;
  pthread_cond_t go, idle;
  unsigned long run; /* runs woken so far */
  int running;       /* threads of the current run not yet parked */
  int quit;
};

static void *member_main(void *arg) {
  member *m = arg;
  thread_team *t = m->team;
  unsigned long seen = 0;
  pthread_mutex_lock(&t->mu);
  for (;;) {
    while (t->run == seen && !t->quit) pthread_cond_wait(&t->go, &t->mu);
    if (t->quit) break;
    seen = t->run;
    pthread_mutex_unlock(&t->mu);
    t->fn(t->ctx, m->i);
    pthread_mutex_lock(&t->mu);
    if (--t->running == 0) pthread_cond_signal(&t->idle);
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

/* Tells the threads to end, joins the first `started` and frees t. */
static void team_end(thread_team *t, int started) {
  pthread_mutex_lock(&t->mu);
  t->quit = 1;
  pthread_cond_broadcast(&t->go);
  pthread_mutex_unlock(&t->mu);
  for (int i = 0; i < started; i++) thread_join(t->m[i].th);
  pthread_mutex_destroy(&t->mu);
  pthread_cond_destroy(&t->go);
  pthread_cond_destroy(&t->idle);
  free(t->m);
  free(t);
}

thread_team *thread_team_start(int n, void (*fn)(void *ctx, int i), void *ctx, char *err,
                               size_t errlen) {
  thread_team *t = calloc(1, sizeof *t);
  member *m = calloc((size_t)(n > 0 ? n : 1), sizeof *m);
  if (!t || !m) {
    free(t);
    free(m);
    error_set(err, errlen, "cannot start a thread: out of memory");
    return NULL;
  }
  t->fn = fn;
  t->ctx = ctx;
  t->n = n;
  t->m = m;
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->go, NULL);
  pthread_cond_init(&t->idle, NULL);
  for (int i = 0; i < n; i++) {
    m[i] = (member){t, i + 1, NULL};
    if (!(m[i].th = thread_start(member_main, &m[i], err, errlen))) {
      team_end(t, i);
      return NULL;
    }
  }
  return t;
}

void thread_team_wake(thread_team *t) {
  pthread_mutex_lock(&t->mu);
  t->run++;
  t->running = t->n;
  pthread_cond_broadcast(&t->go);
  pthread_mutex_unlock(&t->mu);
}

void thread_team_wait(thread_team *t) {
  pthread_mutex_lock(&t->mu);
  while (t->running > 0) pthread_cond_wait(&t->idle, &t->mu);
  pthread_mutex_unlock(&t->mu);
}

void thread_team_free(thread_team *t) {
  if (t) team_end(t, t->n);
}

/* ---- A parallel for ---- */

typedef struct loop {
  long long n;
  int (*fn)(void *ctx, long long i, int worker);
  void *ctx;
  atomic_llong next;
  atomic_int stopped;
} loop;

typedef struct loop_worker {
  loop *l;
  int worker;
} loop_worker;

static void *loop_main(void *arg) {
  const loop_worker *w = arg;
  loop *l = w->l;
  while (!atomic_load(&l->stopped)) {
    long long i = atomic_fetch_add(&l->next, 1);
    if (i >= l->n) break;
    if (l->fn(l->ctx, i, w->worker)) atomic_store(&l->stopped, 1);
  }
  return NULL;
}

int thread_parallel_for(long long n, int threads, int (*fn)(void *ctx, long long i, int worker),
                        void *ctx) {
  loop l = {.n = n, .fn = fn, .ctx = ctx};
  atomic_init(&l.next, 0);
  atomic_init(&l.stopped, 0);
  if (threads > n) threads = n > 1 ? (int)n : 1;
  if (threads < 1) threads = 1;
  loop_worker *w = calloc((size_t)threads, sizeof *w);
  thread **th = calloc((size_t)threads, sizeof *th);
  int helpers = w && th ? threads - 1 : 0;
  for (int i = 1; i <= helpers; i++) {
    w[i] = (loop_worker){&l, i};
    char err[128];
    th[i] = thread_start(loop_main, &w[i], err, sizeof err); /* NULL: the others do its share */
  }
  loop_worker self = {&l, 0};
  loop_main(&self);
  for (int i = 1; i <= helpers; i++) thread_join(th[i]);
  free(w);
  free(th);
  return atomic_load(&l.stopped);
}
