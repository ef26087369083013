# MPI: the runner's MPI backend under mpirun, or the message of a build without it.
if(OWARE_MPI AND MPIEXEC_EXECUTABLE)
  add_test(NAME test_mpi COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_mpi.sh $<TARGET_FILE:oware>
           ${CMAKE_CURRENT_SOURCE_DIR}/data ${MPIEXEC_EXECUTABLE})
  set_tests_properties(test_mpi PROPERTIES LABELS "threads;mpi" TIMEOUT 1200 RUN_SERIAL ON)
  if(OWARE_SANITIZE STREQUAL "address")
    # Open MPI keeps memory until exit by design: leaks are its, not ours.
    set_tests_properties(test_mpi PROPERTIES ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  elseif(OWARE_SANITIZE STREQUAL "thread")
    # Open MPI's shared-memory transport is not built for the thread sanitizer
    # (its lock-free queues are reported): not in the sanitizer's threads run.
    set_tests_properties(test_mpi PROPERTIES LABELS "mpi")
  endif()
else()
  oware_shell_test(test_mpi_off test_mpi_off.sh)
endif()
