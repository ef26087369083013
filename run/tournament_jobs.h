/* tournament_jobs.h: a tournament's jobs (the games of a series still to play) and the schedule the runner asks of them; private to run/. */
#ifndef OWARE_TOURNAMENT_JOBS_H
#define OWARE_TOURNAMENT_JOBS_H

#include "run/runner.h"
#include "run/tournament.h"

/* A job: the games of one series still to play, in order. For games:N a
 * series is cut into pairs (one job a pair); other formats depend on
 * earlier results, so a job is the rest of the series. */
typedef struct tournament_unit {
  int series_no;
  int first_game; /* the first game number to play */
  int last_game;  /* games:N: the last one; -1: until the series ends (its
                     state so far is start_states[series_no]) */
} tournament_unit;

/* What the runner's schedule reads: the tournament, its jobs, and for
 * formats other than games:N the state each series starts from (as stored
 * when the play began). The owner frees units and start_states. */
typedef struct tournament_jobs {
  tournament *t;
  tournament_unit *units;
  long long nunits;
  series_state *start_states;
} tournament_jobs;

/* The runner's schedule of j (j its context; sent to other processes as
 * tournament_schedule_kind). */
runner_schedule tournament_jobs_schedule(tournament_jobs *j);

/* The number of pairings of a round (round-robin or gauntlet). */
int tournament_npairings(const tournament *t);

/* Series number -> variant, round and the two players. */
void tournament_series_identity(const tournament *t, int series_no, int *vi, int *round, int *a,
                                int *b);

#endif
