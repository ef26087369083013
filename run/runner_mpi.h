/* runner_mpi.h: the runner's MPI backend: under mpirun or srun, rank 0 runs the command and the other ranks play its jobs. */
#ifndef OWARE_RUNNER_MPI_H
#define OWARE_RUNNER_MPI_H

#include <stddef.h>

#include "run/runner.h"

/*
 * Under `mpirun -np N oware COMMAND ...` every rank starts the same binary.
 * Rank 0 runs the command as usual: it owns the schedules, the decisions
 * (SPRT) and the one database writer. Ranks 1..N-1 never run the command:
 * they serve (runner_mpi_serve). For each runner_run on rank 0 the backend
 * sends the workers the schedule (its kind and packed bytes); each worker
 * rank plays jobs on the runner's worker pool (config.threads threads, its
 * source the jobs given: runner_pool_given), asking rank 0 for job
 * numbers as its threads run short (a fast rank takes more), and streams
 * each finished job's games back. Rank 0 checks every game against its own
 * schedule and hands it to the runner (runner_put_result), which delivers
 * in schedule order as always: the games are those of a threaded run.
 * MPI calls on rank 0 happen on one thread at a time (the main thread
 * between runs, the backend's thread during a run): MPI_THREAD_SERIALIZED.
 */

typedef enum runner_mpi_role {
  RUNNER_MPI_NONE,   /* no MPI: a plain process */
  RUNNER_MPI_ROOT,   /* rank 0: runs the command */
  RUNNER_MPI_WORKER  /* rank 1..N-1: serves rank 0 */
} runner_mpi_role;

/* 1 when this binary was built with MPI. */
int runner_mpi_compiled(void);

/* The ranks an MPI launcher (mpirun, srun) says this process is one of,
 * from its environment; 0 when it was not launched by one. */
int runner_mpi_launched(void);

/* Starts MPI when the process was launched by an MPI launcher, or when
 * force is set, and says this process's role. Without MPI compiled in, a
 * launch of more than one rank or force is an error that says "MPI was not
 * compiled in". 0, or -1 with err. */
int runner_mpi_init(int *argc, char ***argv, int force, runner_mpi_role *role, char *err,
                    size_t errlen);

/* This process's rank and the job's size (0 and 1 without MPI). */
int runner_mpi_rank(void);
int runner_mpi_size(void);

/* Rank 0: the backend that sends runs to the other ranks (NULL without MPI). */
const runner_backend *runner_mpi_backend(void);

/* Rank 0: play the next runs on ranks 0..ranks-1 only (0: all), with
 * root_threads local workers on rank 0 (-1: the run's threads, like every
 * rank; 0: rank 0 only hands out jobs and takes games): `oware --root-threads`,
 * and the bench. */
void runner_mpi_limit(int ranks, int root_threads);

/* Ranks 1..N-1: plays the jobs of rank 0's runs until rank 0 says quit.
 * kinds: the schedule kinds this binary can rebuild. Errors of a run go to
 * rank 0 (which stops that run and says so); returns 0 at quit, -1 with err
 * when this rank cannot serve at all. */
int runner_mpi_serve(const runner_kind *const *kinds, int nkinds, char *err, size_t errlen);

/* Ends MPI (when it was started): rank 0 first tells the workers to quit. */
void runner_mpi_finalize(void);

#endif
