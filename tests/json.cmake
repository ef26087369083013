# --json of runs, rate, sprt, tournament, variants and calibrate (docs/JSON.md).
oware_shell_test(test_json test_json.sh)
