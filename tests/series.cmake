# series.cmake: tests of the match formats (run/series.c), included by tests/CMakeLists.txt.
oware_test(test_series test_series.c LIBS oware_report oware_run oware_store)
