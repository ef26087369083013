#!/usr/bin/env bash
# test_mpi_off.sh: a build without MPI runs alone, and says "MPI was not compiled in" when MPI is asked for.
set -u
oware=$1
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$oware" --mpi perft 1 >/dev/null 2>"$err"; rc=$?
check "--mpi: exit 1, 'MPI was not compiled in'" bash -c "test $rc = 1 && grep -q 'MPI was not compiled in' '$err'"
OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=1 "$oware" perft 1 >/dev/null 2>"$err"; rc=$?
check "launched as one of 3 ranks: the same message" bash -c "test $rc = 1 && grep -q 'MPI was not compiled in' '$err'"
OMPI_COMM_WORLD_SIZE=1 "$oware" perft 1 >/dev/null 2>&1
check "launched as the only rank: runs" test $? = 0
"$oware" bench mpi >/dev/null 2>"$err"; rc=$?
check "bench mpi says it too" grep -q 'MPI was not compiled in' "$err"
echo "$fails failure(s)"
[ "$fails" = 0 ]
