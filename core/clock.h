/* clock.h: the monotonic clock in seconds, for timings and time limits. */
#ifndef OWARE_CLOCK_H
#define OWARE_CLOCK_H

/* Seconds on the monotonic clock (an arbitrary origin). */
double clock_now(void);

#endif
