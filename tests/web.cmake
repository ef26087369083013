# web.cmake: the WebAssembly build (web/, scripts/web): the module in node, the npm package installed offline, the play page in headless Chromium. Without emcc they skip, or fail under CI=true.
set(web_dir ${CMAKE_BINARY_DIR}/web)
add_test(NAME test_web_build COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_web_build.sh ${web_dir})
set_tests_properties(test_web_build PROPERTIES FIXTURES_SETUP web SKIP_RETURN_CODE 77 TIMEOUT 600)
foreach(t test_web_node test_web_npm test_web_page)
  add_test(NAME ${t} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/${t}.sh $<TARGET_FILE:oware> ${web_dir})
  set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED web SKIP_RETURN_CODE 77 TIMEOUT 300)
endforeach()
