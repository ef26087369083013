# core.cmake: tests of core/'s notation parsers and writers, and end-to-end tests of the oware CLI.
oware_test(test_notation test_notation.c)
oware_shell_test(test_cli test_cli.sh)
