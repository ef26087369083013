# Arena: tournaments end to end (threads, kill and resume, faults, bad input, export).
oware_shell_test(test_arena test_arena.sh)
set_tests_properties(test_arena PROPERTIES LABELS threads TIMEOUT 900)

# A resume checks each stored game's place against the schedule; a refused row leaves the run failed.
oware_shell_test(test_resume_rows test_resume_rows.sh)

# The same commands give the same games: checksums recorded before the runner rewrite.
oware_shell_test(test_golden test_golden.sh)
set_tests_properties(test_golden PROPERTIES LABELS threads)

# The runner's contract on synthetic schedules.
oware_test(test_runner test_runner.c LIBS oware_report oware_run oware_store)
set_tests_properties(test_runner PROPERTIES LABELS threads)

# --adjudicate: the rules parsed, the draw and resign counters, the tables' ending (issue 27).
oware_test(test_adjudicate test_adjudicate.c LIBS oware_run)
oware_shell_test(test_adjudicate_cli test_adjudicate.sh)
set_tests_properties(test_adjudicate_cli PROPERTIES LABELS threads TIMEOUT 600)
