# Arena: tournaments end to end (threads, kill and resume, faults, bad input, export).
oware_shell_test(test_arena test_arena.sh)
set_tests_properties(test_arena PROPERTIES LABELS threads TIMEOUT 900)
