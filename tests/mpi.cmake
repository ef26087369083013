# MPI: the runner's MPI backend under mpirun, or the message of a build without it.
if(OWARE_MPI AND MPIEXEC_EXECUTABLE)
  add_test(NAME test_mpi COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_mpi.sh $<TARGET_FILE:oware>
           ${CMAKE_CURRENT_SOURCE_DIR}/data ${MPIEXEC_EXECUTABLE})
  set_tests_properties(test_mpi PROPERTIES LABELS "threads;mpi" TIMEOUT 1200 RUN_SERIAL ON)
else()
  oware_shell_test(test_mpi_off test_mpi_off.sh)
endif()
