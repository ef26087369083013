# --json of runs, rate, sprt and tournament (docs/JSON.md).
oware_shell_test(test_json test_json.sh)
