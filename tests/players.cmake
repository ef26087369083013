# Players: interface, specs, weights, random/greedy/minimax, strength ladder.
oware_test(test_players test_players.c LIBS oware_report oware_run oware_store oware_players)
set_tests_properties(test_players PROPERTIES TIMEOUT 600)
# test_params loads the example plug-in, which resolves core/ and players/
# functions from the test binary, as it does from oware.
set_target_properties(test_players PROPERTIES ENABLE_EXPORTS ON)
target_compile_definitions(test_players PRIVATE
                           OWARE_PLUGIN_EXAMPLE="$<TARGET_FILE:oware_plugin_example>")
add_dependencies(test_players oware_plugin_example)
add_test(NAME test_players_cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_players_cli.sh
         $<TARGET_FILE:oware> ${CMAKE_CURRENT_SOURCE_DIR}/data $<TARGET_FILE:oware_plugin_example>)
# Player specs: commas, quotes and backslashes in option values (docs/PLAYERS.md).
oware_test(test_spec test_spec.c LIBS oware_players)
# The rules the store's upgrades apply to old specs, with every allocation failing in turn
# (the players' library's malloc wrapped).
oware_test(test_spec_rules_oom test_spec_rules_oom.c LIBS oware_players)
target_link_options(test_spec_rules_oom PRIVATE -Wl,--wrap=malloc)
# Levels by name: the levels file and level:NAME specs (players/level.h).
oware_test(test_level test_level.c LIBS oware_players)
oware_shell_test(test_level_cli test_level.sh)
# minimax's threads=N (lazy SMP): the thread sanitizer stage runs it (label threads).
oware_test(test_smp test_smp.c LIBS oware_players)
set_tests_properties(test_smp PROPERTIES LABELS threads TIMEOUT 600)
# The repetition rule in minimax's search, hash table on and off, against a
# brute force over the game with its whole history (issue 22 point 1).
oware_test(test_search_repetition test_search_repetition.c LIBS oware_players)
# The network evaluation (players/eval_net.h): forward pass against a plain reference, the file's errors, eval=.
oware_test(test_eval_net test_eval_net.c LIBS oware_players)
# Ctrl-C and SIGTERM stop `oware match` cleanly: exit 130, the OGN whole, the JSON whole.
oware_shell_test(test_match_stop test_match_stop.sh)
