# The report's game viewer in headless Chromium (skipped when chromium is missing).
add_test(NAME test_report_viewer COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_report_viewer.sh
         $<TARGET_FILE:oware>)
set_tests_properties(test_report_viewer PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
