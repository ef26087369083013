# mcts.cmake: tests of the `mcts` player (included by tests/CMakeLists.txt).
oware_test(test_mcts test_mcts.c LIBS oware_report oware_run oware_store oware_players)
