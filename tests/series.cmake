# series.cmake: tests of the match formats (arena/series.c), included by tests/CMakeLists.txt.
oware_test(test_series test_series.c LIBS oware_arena)
