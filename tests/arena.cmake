# Arena: tournaments end to end (threads, kill and resume, faults, bad input, export).
oware_shell_test(test_arena test_arena.sh)
set_tests_properties(test_arena PROPERTIES LABELS threads TIMEOUT 900)

# The same commands give the same games: checksums recorded before the runner rewrite.
oware_shell_test(test_golden test_golden.sh)
set_tests_properties(test_golden PROPERTIES LABELS threads)

# The runner's contract on synthetic schedules.
oware_test(test_runner test_runner.c LIBS oware_report oware_run oware_store)
set_tests_properties(test_runner PROPERTIES LABELS threads)
