# The installed library: cmake --install to a temporary prefix, the example and a plug-in built with pkg-config.
add_test(NAME test_install COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_install.sh ${CMAKE_BINARY_DIR}
         ${PROJECT_SOURCE_DIR})
