/* thread.c: threads over pthreads. */
#include "core/thread.h"
#include "core/error.h"

#include <pthread.h>
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
