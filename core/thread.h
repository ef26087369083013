/* thread.h: threads: the one place the project creates them (starting and joining one, a team parked between runs, a parallel for). */
#ifndef OWARE_THREAD_H
#define OWARE_THREAD_H

#include <stddef.h>

typedef struct thread thread;

/* Starts fn(arg) on a new thread. NULL with err when it cannot. */
thread *thread_start(void *(*fn)(void *), void *arg, char *err, size_t errlen);
/* Waits for t to end and releases it (t may be NULL). */
void thread_join(thread *t);

/* A team: n threads started once, parked between runs, each run woken by
 * the owner (as a lazy SMP engine keeps its helpers from move to move).
 * The owner's calls (wake, wait, free) come from one thread. */
typedef struct thread_team thread_team;

/* Starts n threads (n >= 1) that park at once; each run calls fn(ctx, i) on
 * thread i (1..n). NULL with err when one cannot start (none is left). */
thread_team *thread_team_start(int n, void (*fn)(void *ctx, int i), void *ctx, char *err,
                               size_t errlen);
/* Wakes every thread of the team for one run. What the owner wrote before
 * is seen by the runs. */
void thread_team_wake(thread_team *t);
/* Waits until every thread has finished the run woken last and parked:
 * what the runs wrote is seen by the owner after. */
void thread_team_wait(thread_team *t);
/* Ends the team (after thread_team_wait when a run was woken) and frees it
 * (t may be NULL). */
void thread_team_free(thread_team *t);

/* Runs fn(ctx, i, worker) for every i in 0..n-1 on `threads` threads (the
 * caller's is worker 0, the others 1..threads-1), each taking the next item
 * from a shared counter: which worker runs an item depends on timing, so fn
 * must give the same result whoever runs it. An fn that returns non-zero
 * stops the loop: no item is started after it. When a thread cannot start,
 * the others do its share. Returns 0 when every item ran, 1 when an fn
 * stopped the loop. */
int thread_parallel_for(long long n, int threads, int (*fn)(void *ctx, long long i, int worker),
                        void *ctx);

#endif
