# rating.cmake: tests of arena/rating.c (fit, intervals, match statistics, SPRT), the store's schema 2, `oware rate` and `oware sprt`.
oware_test(test_rating test_rating.c LIBS oware_arena)
# The migration test writes a version-1 database through sqlite3 directly.
find_package(SQLite3 REQUIRED)
target_link_libraries(test_rating PRIVATE SQLite::SQLite3)
# The CLI part runs the oware binary.
add_dependencies(test_rating oware)
set_tests_properties(test_rating PROPERTIES TIMEOUT 300)
