# book.cmake: the opening book end to end: build, show, reproducible on threads, minimax:book=, OwnBook, bad files.
oware_shell_test(test_book test_book.sh)
set_tests_properties(test_book PROPERTIES TIMEOUT 300 LABELS threads)
