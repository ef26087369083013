# egdb.cmake: endgame databases: every value against a plain solver on the reference rules, table equations, files, threads.
oware_test(test_egdb test_egdb.c reference/ref_egdb.c reference/ref_rules.c LIBS oware_egdb)
set_tests_properties(test_egdb PROPERTIES LABELS threads TIMEOUT 1500)
# The fast and lean layouts of the build write the same files.
oware_test(test_egdb_layout test_egdb_layout.c LIBS oware_egdb)
set_tests_properties(test_egdb_layout PROPERTIES LABELS threads TIMEOUT 600)
oware_shell_test(test_egdb_cli test_egdb.sh)
oware_test(test_egdb_players test_egdb_players.c LIBS oware_players oware_egdb)
set_tests_properties(test_egdb_players PROPERTIES LABELS threads TIMEOUT 900)
oware_shell_test(test_egdb_chart test_egdb_chart.sh)
# The evaluation's corrections in endings fitted on the tables (oware egdb fit).
oware_test(test_eval_ending test_eval_ending.c LIBS oware_players)
oware_shell_test(test_egdb_fit test_egdb_fit.sh)
oware_shell_test(test_egdb_default test_egdb_default.sh)
# A table damaged in place is found before it gives a value, whatever the player (issue 26 point 16).
oware_shell_test(test_egdb_damaged test_egdb_damaged.sh)
oware_test(test_solve test_solve.c LIBS oware_egdb)
oware_shell_test(test_solve_cli test_solve.sh)
