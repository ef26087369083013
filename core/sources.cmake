# core/sources.cmake: the sources of core/ (file names without .c), one list for the native build (core/CMakeLists.txt) and the WebAssembly one (web/CMakeLists.txt).
set(OWARE_CORE_SOURCES array board clock error game hash interp move_record name notation outcome
    outfile path perft rng textfile thread time_control variant)
