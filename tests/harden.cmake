# harden.cmake: issue 12 (hardening): the defects' regression tests and the fuzzers' crash corpus replayed, included by tests/CMakeLists.txt.
oware_test(test_harden test_harden.c LIBS oware_arena oware_players)
set_tests_properties(test_harden PROPERTIES TIMEOUT 300)
oware_shell_test(test_harden_cli test_harden.sh)
set_tests_properties(test_harden_cli PROPERTIES TIMEOUT 300)
