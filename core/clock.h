/* clock.h: the monotonic clock in seconds, for time limits and timings. */
#ifndef OWARE_CLOCK_H
#define OWARE_CLOCK_H

/* Seconds on the monotonic clock (CLOCK_MONOTONIC) since an arbitrary
 * start: only differences mean something. */
double clock_now(void);

#endif
