# analyse.cmake: oware analyse: a hand-checked mistake and the stored rows (C), and a tournament of random, greedy and perfect analysed end to end (bash).
oware_test(test_analyse test_analyse.c LIBS oware_report oware_run oware_store)
find_package(SQLite3 REQUIRED)
target_link_libraries(test_analyse PRIVATE SQLite::SQLite3)
oware_shell_test(test_analyse_cli test_analyse.sh)
set_tests_properties(test_analyse_cli PROPERTIES TIMEOUT 300)
# scripts/edge_classes.sh: a run's games sorted by the class at the tables' edge.
add_test(NAME test_edge_classes COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_edge_classes.sh
         $<TARGET_FILE:oware> ${PROJECT_SOURCE_DIR}/scripts)
set_tests_properties(test_edge_classes PROPERTIES TIMEOUT 300)
# scripts/egdb_openings.sh: endgame openings from a quick tournament.
add_test(NAME test_egdb_openings COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_egdb_openings.sh
         $<TARGET_FILE:oware> ${PROJECT_SOURCE_DIR}/scripts)
set_tests_properties(test_egdb_openings PROPERTIES TIMEOUT 300)
