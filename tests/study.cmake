# study.cmake: the variant study (run/study.c), the calibration (tuner/calibrate.c), and `oware variants` / `oware study` / `oware calibrate` end to end.
oware_test(test_study test_study.c LIBS oware_report oware_run oware_store)
set_tests_properties(test_study PROPERTIES TIMEOUT 120)
oware_test(test_calibrate test_calibrate.c LIBS oware_tuner)
set_tests_properties(test_calibrate PROPERTIES TIMEOUT 120)
oware_shell_test(test_study_cli study.sh)
set_tests_properties(test_study_cli PROPERTIES LABELS threads TIMEOUT 300)
