# PGN: export read back by an independent reader (pgn_read.py), rate --pgn/--ogn as the database rates.
oware_shell_test(test_pgn test_pgn.sh)
# The winner of an adjudicated or forfeited game survives OGN (match, export, the report's file).
oware_shell_test(test_ogn_result test_ogn_result.sh)
