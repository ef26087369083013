#!/usr/bin/env bash
# test_match_stop.sh: end to end: Ctrl-C (SIGINT) and SIGTERM stop `oware match` cleanly: exit 130,
# the games played written whole to --ogn (no temporary file left), the total printed, --json's
# object whole with complete false; a second Ctrl-C quits at once and leaves no temporary file.
# Usage: bash test_match_stop.sh OWARE_BINARY TESTS_DATA_DIR
set -u
oware=$1
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
cd "$tmp" || exit 1
# Moves by the clock (wall time), so that a game lasts about as long however loaded the machine.
P=(--south minimax:movetime=20 --north minimax:movetime=20,name=other --games 200)
# records FILE: the OGN records in FILE (0 when it is absent).
records() { if [ -f "$1" ]; then grep -c '^\[Result ' "$1"; else echo 0; fi; }
# wait_for COMMAND...: polls COMMAND for up to 60 s.
wait_for() {
  for _ in $(seq 1 600); do "$@" && return 0; sleep 0.1; done
  return 1
}
# A script's background job starts with SIGINT ignored (bash without job control); at a terminal
# Ctrl-C finds it at its default, and so does the match here (env --default-signal).
oware_bg() { exec env --default-signal=INT,TERM "$oware" "$@"; } # run with &: $! is the match
no_tmp() { ! ls -A | grep -q '\.tmp-'; }
has_tmp() { ls -A | grep -q "^$1\.tmp-"; } # has_tmp NAME: NAME's temporary file is there

# --- Ctrl-C after the first game: text output. ---
oware_bg match "${P[@]}" --ogn t.ogn >t.out 2>t.err &
pid=$!
wait_for grep -q '^game 1:' t.out
check "the first game is played" grep -q '^game 1:' t.out
kill -INT $pid
wait $pid
rc=$?
check "Ctrl-C: exit 130 (rc $rc)" test $rc = 130
check "it says it stops" grep -q 'oware match: stopping' t.err
n=$(grep -c '^game ' t.out)
check "the total says the match stopped after the $n games played" \
  grep -q "^total: .* (the match stopped after $n of 200 games)$" t.out
check "the OGN holds those $n games" test "$(records t.ogn)" = "$n"
check "no temporary file is left" no_tmp
"$oware" rate --ogn t.ogn >t.rate 2>&1
check "the OGN reads back (rate --ogn)" test $? = 0

# --- Ctrl-C with --json: the object is whole, complete false. ---
oware_bg match "${P[@]}" --ogn j.ogn --json >j.out 2>j.err &
pid=$!
wait_for has_tmp 'j\.ogn'
sleep 5 # a game or so (standard output is not a terminal: nothing shows before the end)
kill -INT $pid
wait $pid
rc=$?
check "Ctrl-C with --json: exit 130 (rc $rc)" test $rc = 130
python3 - j.out "$(records j.ogn)" <<'EOF' >j.py 2>&1
import json, sys
o = json.load(open(sys.argv[1]))
n = o["total"]["games"]
assert o["complete"] is False, "complete is %r" % o["complete"]
assert o["total"]["of"] == 200, o["total"]
assert len(o["games"]) == n, "%d games listed, total %d" % (len(o["games"]), n)
assert int(sys.argv[2]) == n, "OGN records %s, total %d" % (sys.argv[2], n)
EOF
check "the JSON parses: complete false, its games the OGN's" test $? = 0
cat j.py
check "no temporary file is left" no_tmp

# --- SIGTERM does the same. ---
oware_bg match "${P[@]}" --ogn s.ogn >s.out 2>s.err &
pid=$!
wait_for grep -q '^game 1:' s.out
kill -TERM $pid
wait $pid
rc=$?
check "SIGTERM: exit 130 (rc $rc)" test $rc = 130
check "SIGTERM: the OGN holds the games played" test "$(records s.ogn)" = "$(grep -c '^game ' s.out)"
check "no temporary file is left" no_tmp

# --- A second Ctrl-C quits at once (in a 3-second move): no temporary file, no OGN. ---
oware_bg match --south minimax:movetime=3000 --north minimax:movetime=3000 --games 2 --ogn q.ogn \
  >q.out 2>q.err &
pid=$!
wait_for has_tmp 'q\.ogn'
sleep 0.5
kill -INT $pid
sleep 0.3
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
check "a second Ctrl-C: exit 130 (rc $rc)" test $rc = 130
check "a second Ctrl-C leaves no temporary file" no_tmp
check "the OGN is absent or whole" test ! -f q.ogn -o "$(records q.ogn)" = "$(grep -c '^game ' q.out)"

echo "$fails failure(s)"
[ "$fails" = 0 ]
