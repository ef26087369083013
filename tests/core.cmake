# core.cmake: tests of core/'s notation parsers and writers, and end-to-end tests of the oware CLI.
oware_test(test_notation test_notation.c)
oware_test(test_interp test_interp.c)
oware_shell_test(test_cli test_cli.sh)
# The option tables of the commands (cli/options.c), on their own.
oware_test(test_options test_options.c ${PROJECT_SOURCE_DIR}/cli/options.c)
