# Tuner: SPSA gains and convergence, Texel fits, and `oware tune` end to end.
oware_test(test_tuner test_tuner.c LIBS oware_tuner)
set_tests_properties(test_tuner PROPERTIES TIMEOUT 300)
oware_shell_test(test_tune test_tune.sh)
set_tests_properties(test_tune PROPERTIES LABELS threads TIMEOUT 600)
# The drivers as a library: SPSA rows and resume, Texel, validation, a calibration (test_drivers.c).
oware_test(test_drivers test_drivers.c LIBS oware_tuner)
set_tests_properties(test_drivers PROPERTIES LABELS threads TIMEOUT 900)
# Network training (tuner/net_train.h): it fits the linear evaluation, the same file on 1 and 2 threads and after a resume.
oware_test(test_net_train test_net_train.c LIBS oware_tuner)
set_tests_properties(test_net_train PROPERTIES LABELS threads)
# `oware tune net` end to end: epochs stored, same file on 1 and 2 threads and after kill -9 + --resume.
oware_shell_test(test_tune_net test_tune_net.sh)
set_tests_properties(test_tune_net PROPERTIES LABELS threads)
# The loop of network generations (`oware tune net --generations`): runs stored, same files on 1 and 2 threads and after kill -9 + --resume.
oware_shell_test(test_net_loop test_net_loop.sh)
set_tests_properties(test_net_loop PROPERTIES LABELS threads)
