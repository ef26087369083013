# store.cmake: tests of store/store.c, the SQLite store (round trips, foreign and newer files, kills, throughput).
oware_test(test_store test_store.c LIBS oware_report oware_run oware_store)
# The test also opens databases through sqlite3 directly; the imported
# target of store/'s find_package is not visible in this directory.
find_package(SQLite3 REQUIRED)
target_link_libraries(test_store PRIVATE SQLite::SQLite3)
set_tests_properties(test_store PROPERTIES TIMEOUT 300)

# A schema-4 database migrated on open: listed, exported, resumed from its settings.
oware_shell_test(test_migrate test_migrate.sh)
set_tests_properties(test_migrate PROPERTIES LABELS threads TIMEOUT 600)

# A driver's settings table (store/settings.c): defaults, round trip, a missing or mistyped key.
oware_test(test_settings test_settings.c LIBS oware_store)

# A database this user may not write (read-only folder, file, or both): read by the commands
# that only read, refused with what to do by those that write (as uid 65534 when run as root).
oware_shell_test(test_readonly test_readonly.sh)
set_tests_properties(test_readonly PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
