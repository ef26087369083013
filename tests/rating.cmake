# rating.cmake: test_stats (stats/: fit, intervals, match statistics, SPRT, without arena) and test_rating (store/rating_store.c and rating_print.c, the store's schema 2, `oware rate` and `oware sprt`).
oware_test(test_rating test_rating.c LIBS oware_report oware_run oware_store)
# The migration test writes a version-1 database through sqlite3 directly.
find_package(SQLite3 REQUIRED)
target_link_libraries(test_rating PRIVATE SQLite::SQLite3)
# The CLI part runs the oware binary.
add_dependencies(test_rating oware)
set_tests_properties(test_rating PROPERTIES TIMEOUT 300)
# The statistics alone: linked with oware_stats (GSL) and no arena, no SQLite.
oware_test(test_stats test_stats.c LIBS oware_stats)
set_tests_properties(test_stats PROPERTIES TIMEOUT 300)
# `oware rate`'s score by end (text, --json, a PGN file, a tournament's end, the report) against the games counted apart.
oware_shell_test(test_rate_ends test_rate_ends.sh)
