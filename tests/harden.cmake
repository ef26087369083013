# harden.cmake: issue 12 (hardening): the defects' regression tests and the fuzzers' crash corpus replayed, included by tests/CMakeLists.txt.
oware_test(test_harden test_harden.c LIBS oware_report oware_run oware_store oware_players)
set_tests_properties(test_harden PROPERTIES TIMEOUT 300)
oware_shell_test(test_harden_cli test_harden.sh)
set_tests_properties(test_harden_cli PROPERTIES TIMEOUT 300)

# Every fuzz harness replays its corpus (seeds, and each crash once found:
# tests/fuzz/NAME/corpus) in the ordinary builds, sanitizers included.
find_package(SQLite3 REQUIRED)
foreach(name variant position moves ogn spec weights endings series uci engine openings store levels book)
  add_executable(replay_${name} fuzz/fuzz_${name}.c fuzz/replay.c)
  target_link_libraries(replay_${name} PRIVATE oware_tuner oware_report oware_run oware_store oware_players oware_core
                        SQLite::SQLite3 m)
  add_test(NAME fuzz_replay_${name} COMMAND replay_${name} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/${name}/corpus)
endforeach()
