# The library: its calls through the shared object (test_lib); the installed library: cmake --install to a temporary prefix, the example and a plug-in built with pkg-config.
add_test(NAME test_install COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_install.sh ${CMAKE_BINARY_DIR}
         ${PROJECT_SOURCE_DIR})
# The library's calls through the shared object and its public header only (tests/test_lib.c).
add_executable(test_lib test_lib.c)
target_include_directories(test_lib PRIVATE ${CMOCKA_INCLUDE_DIR})
target_link_libraries(test_lib PRIVATE oware_lib ${CMOCKA_LIBRARY} m)
add_test(NAME test_lib COMMAND test_lib)
set_tests_properties(test_lib PROPERTIES ENVIRONMENT
                     "CMOCKA_MESSAGE_OUTPUT=stdout;OWARE_LEVELS=${PROJECT_SOURCE_DIR}/data/levels.txt;OWARE_BIN=$<TARGET_FILE:oware>")
