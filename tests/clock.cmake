# clock.cmake: game clocks (tc=): the parser, the clock, time budgets, move records; end to end in tournaments.
oware_test(test_clock test_clock.c LIBS oware_run oware_store oware_stats oware_players oware_egdb)
oware_shell_test(test_clock_e2e test_clock.sh)
set_tests_properties(test_clock_e2e PROPERTIES LABELS threads TIMEOUT 600)
