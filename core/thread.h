/* thread.h: starting and joining threads: the one place the project creates them (the runner's workers, the UCI server's search, the endgame build, the book build). */
#ifndef OWARE_THREAD_H
#define OWARE_THREAD_H

#include <stddef.h>

typedef struct thread thread;

/* Starts fn(arg) on a new thread. NULL with err when it cannot. */
thread *thread_start(void *(*fn)(void *), void *arg, char *err, size_t errlen);
/* Waits for t to end and releases it (t may be NULL). */
void thread_join(thread *t);

#endif
