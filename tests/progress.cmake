# The progress line on a pseudo-terminal and its absence elsewhere (cli/progress.c).
oware_shell_test(test_progress test_progress.sh)
set_tests_properties(test_progress PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
