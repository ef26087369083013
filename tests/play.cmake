# oware play: scripted games on stdin, and the screen under tmux.
oware_shell_test(test_play test_play.sh)
