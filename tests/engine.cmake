# engine.cmake: tests of the engine player (client) and of `oware uci` (server), included by tests/CMakeLists.txt.
oware_test(test_engine test_engine.c LIBS oware_report oware_run oware_store oware_players)
# The engine tests run the oware binary as an engine over pipes.
add_dependencies(test_engine oware)
set_tests_properties(test_engine PROPERTIES TIMEOUT 300 LABELS threads)
oware_shell_test(test_uci test_uci.sh)
set_tests_properties(test_uci PROPERTIES TIMEOUT 120 LABELS threads)
