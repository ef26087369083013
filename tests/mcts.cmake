# mcts.cmake: tests of the `mcts` player (included by tests/CMakeLists.txt).
oware_test(test_mcts test_mcts.c LIBS oware_arena oware_players)
