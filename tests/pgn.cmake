# PGN: export read back by an independent reader (pgn_read.py), rate --pgn/--ogn as the database rates.
oware_shell_test(test_pgn test_pgn.sh)
