# report.cmake: tests of the charts and reports (report/plot.c, report/report.c, `oware chart`, `oware report`).
oware_test(test_report test_report.c LIBS oware_report oware_run oware_store)
set_tests_properties(test_report PROPERTIES TIMEOUT 300)
# The command line, and gnuplot missing (PATH without it).
oware_shell_test(test_report_cli test_report.sh)
set_tests_properties(test_report_cli PROPERTIES TIMEOUT 300)
# The page in a real browser (headless Chromium); skipped, with a message, without it.
oware_shell_test(test_report_browser test_report_browser.sh)
set_tests_properties(test_report_browser PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
# test_report deletes rows through sqlite3 directly; store/'s imported target is not visible here.
find_package(SQLite3 REQUIRED)
target_link_libraries(test_report PRIVATE SQLite::SQLite3)
# One Elo scale throughout a report: the anchor of `oware rate --anchor`, or of --anchor.
oware_shell_test(test_report_anchor test_report_anchor.sh)
set_tests_properties(test_report_anchor PROPERTIES TIMEOUT 300)
