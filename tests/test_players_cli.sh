#!/usr/bin/env bash
# test_players_cli.sh: end to end: oware players, weights, match (with OGN), plug-ins, bench signature.
set -u
oware=$1
plugin=$3
# The node count of `oware bench search` at its default depth: the signature
# of the search. It changes only when the search changes on purpose; then
# update it here and give the new count in the commit message.
# The other evaluations' counts change with the search too. With reverse
# futility pruning (rfp=150, store schema 16) they fell from 135,183 (net3),
# 232,823 (linear), 209,444 (net) and 192,261 (net2); with aspiration
# windows (asp=50, store schema 17) from 84,214, 141,018, 98,392 and 75,856;
# with internal iterative reduction (iir=1, store schema 18) from 81,712,
# 106,535, 96,386 and 90,791.
BENCH_NODES=69980   # the default evaluation: the built-in network net3 (eval=auto)
BENCH_LINEAR=117148 # eval=linear, the default before the network shipped
BENCH_NET1=85125    # eval=net, auto's network before net2 shipped (store schema 13)
BENCH_NET2=74520    # eval=net2, auto's network before net3 shipped (store schema 14)

fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # check NAME CONDITION...
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
has() { grep -q -- "$2" "$1"; }

"$oware" players >"$tmp/players" 2>&1
check "players lists every type" bash -c "for t in random greedy minimax mcts engine plugin; do grep -q \"^\$t:\" '$tmp/players' || exit 1; done"
"$oware" players minimax >"$tmp/mm" 2>&1
check "players minimax shows its options" bash -c "grep -q depth '$tmp/mm' && grep -q movetime '$tmp/mm' && grep -q noise '$tmp/mm' && ! grep -q '^greedy' '$tmp/mm'"
"$oware" players nosuch >/dev/null 2>"$tmp/err"; rc=$?
check "players of an unknown type exits 2" test $rc = 2

"$oware" weights >"$tmp/w.txt"
check "weights prints every feature" bash -c "for f in store seeds targets empty kroo kroo_seeds mobility capture threat right; do grep -q \"^\$f \" '$tmp/w.txt' || exit 1; done"
"$oware" weights --check "$tmp/w.txt" >"$tmp/w2.txt"
check "weights read back the same" cmp -s "$tmp/w.txt" "$tmp/w2.txt"
printf 'store 120\nthreat x\n' >"$tmp/bad.txt"
"$oware" weights --check "$tmp/bad.txt" >/dev/null 2>"$tmp/err"; rc=$?
check "a bad weights file exits 2 naming the line" bash -c "test $rc = 2 && grep -q 'line 2' '$tmp/err'"
"$oware" match --south "minimax:depth=2,weights=$tmp/bad.txt" --north random >/dev/null 2>"$tmp/err"; rc=$?
check "minimax with a bad weights file exits 2" bash -c "test $rc = 2 && grep -q 'line 2' '$tmp/err'"

"$oware" match --south minimax:depth=4 --north greedy --games 4 --seed 9 --ogn "$tmp/m.ogn" >"$tmp/match" 2>&1; rc=$?
check "match plays 4 games" bash -c "test $rc = 0 && test \$(grep -c '^game ' '$tmp/match') = 4 && grep -q '^total:' '$tmp/match'"
check "match writes 4 OGN games" bash -c "test \$(grep -c '^\[Result' '$tmp/m.ogn') = 4"
"$oware" replay --ogn "$tmp/m.ogn" >"$tmp/replay" 2>&1; rc=$?
check "the first OGN game replays to its end" bash -c "test $rc = 0 && grep -q '^status over' '$tmp/replay'"
"$oware" match --south minimax:depth=4 --north greedy --games 4 --seed 9 >"$tmp/match2" 2>&1
check "match replays exactly with the same seed" cmp -s "$tmp/match" "$tmp/match2"
"$oware" match --south minimax:dept=4 --north greedy >/dev/null 2>"$tmp/err"; rc=$?
check "match with a bad spec exits 2 naming the key" bash -c "test $rc = 2 && grep -q \"unknown option 'dept'\" '$tmp/err'"
"$oware" match --south random --north greedy --variant abapa,seeds=13 >/dev/null 2>"$tmp/err"; rc=$?
check "match with a bad variant exits 2" bash -c "test $rc = 2 && grep -q seeds '$tmp/err'"

"$oware" match --south "plugin:path=$plugin,prefer=fewest" --north random --games 2 >"$tmp/pl" 2>&1; rc=$?
check "a plug-in player plays" bash -c "test $rc = 0 && grep -q '^total:' '$tmp/pl'"
# South's houses hold 1 2 5 3 7 6: fewest plays A, most plays E (not the last house F).
pick() { printf 'position fen 1-2-5-3-7-6-4-4-4-4-4-4-0-0-S\ngo\nquit\n' | "$oware" uci --player "plugin:path=$plugin,prefer=$1" 2>&1 | sed -n 's/^bestmove //p'; }
check "a plug-in with prefer=fewest plays the emptiest house" test "$(pick fewest)" = A
check "a plug-in with prefer=most plays the fullest house" test "$(pick most)" = E
"$oware" match --south "plugin:path=$plugin,prefer=sideways" --north random >/dev/null 2>"$tmp/err"; rc=$?
check "a plug-in checks its options" bash -c "test $rc = 2 && grep -q 'most|fewest' '$tmp/err'"
"$oware" match --south "plugin:path=$tmp/none.so" --north random >/dev/null 2>"$tmp/err"; rc=$?
check "a missing plug-in file is an error" bash -c "test $rc = 2 && grep -q 'cannot load' '$tmp/err'"
libc=$(ldd "$oware" | awk '/libc.so/ {print $3}')
"$oware" match --south "plugin:path=$libc" --north random >/dev/null 2>"$tmp/err"; rc=$?
check "a shared object that is no plug-in is an error" bash -c "test $rc = 2 && grep -q 'does not export' '$tmp/err'"

nodes=$("$oware" bench search --nodes-only)
check "bench node count is the signature $BENCH_NODES (got $nodes)" test "$nodes" = "$BENCH_NODES"
"$oware" bench search --repeat 1 --depth 8 --mcts-playouts 2000 >"$tmp/bench" 2>&1; rc=$?
check "bench search: MCTS's playouts and its network leaves, each a figure" \
  bash -c "test $rc = 0 && grep -Eq '^mcts playouts/s [0-9]+ \(2000 playouts' '$tmp/bench' &&
    grep -Eq '^mcts eval=net iterations/s [0-9]+ \(2000 iterations' '$tmp/bench'"
"$oware" bench search --eval linear,net,net2,net3 --repeat 1 >"$tmp/evals" 2>&1; rc=$?
check "bench search --eval: net3's row counts the signature's nodes, the others their own" \
  bash -c "test $rc = 0 && grep -Eq '^linear +$BENCH_LINEAR ' '$tmp/evals' &&
    grep -Eq '^net +$BENCH_NET1 ' '$tmp/evals' && grep -Eq '^net2 +$BENCH_NET2 ' '$tmp/evals' &&
    grep -Eq '^net3 +$BENCH_NODES ' '$tmp/evals'"
"$oware" bench search --eval "linear,$tmp/none.net" --repeat 1 >/dev/null 2>"$tmp/err"; rc=$?
check "bench search --eval with a missing network file names it" bash -c "test $rc != 0 && grep -q 'none.net' '$tmp/err'"
"$oware" bench search --settings "rfp=0;depth=2" --depth 3 --repeat 1 >"$tmp/sd" 2>&1; rc=$?
check "bench search --settings: a limit of the bench's own (depth=) is refused, named" \
  bash -c "test $rc = 2 && grep -q 'depth= is the bench' '$tmp/sd'"
"$oware" bench search --settings ";lmr=0;rfp=0" --depth 8 --repeat 1 >"$tmp/settings" 2>&1; rc=$?
check "bench search --settings: a row each, the defaults' row (empty settings) the signature's nodes at its depth" \
  bash -c "test $rc = 0 && test \$(grep -Ec '^[(a-z=0-9)]+ +[0-9]+ +[0-9]+ ' '$tmp/settings') = 3 &&
    grep -Eq '^\(defaults\) +$("$oware" bench search --nodes-only --depth 8) ' '$tmp/settings' &&
    grep -Eq '^lmr=0 +[0-9]+ ' '$tmp/settings' && grep -Eq '^rfp=0 +[0-9]+ ' '$tmp/settings' &&
    ! grep -Eq '^lmr=0 +$("$oware" bench search --nodes-only --depth 8) ' '$tmp/settings'"
"$oware" bench search --settings "rfp=0;lmr=7" --repeat 1 >/dev/null 2>"$tmp/err"; rc=$?
check "bench search --settings with a bad value names it" bash -c "test $rc != 0 && grep -q 'lmr' '$tmp/err'"
"$oware" bench search --settings "rfp=0" --eval net >/dev/null 2>"$tmp/err"; rc=$?
check "bench search --settings with --eval exits 2" bash -c "test $rc = 2 && grep -q 'give one' '$tmp/err'"
"$oware" bench smp --threads 1,2 --depth 8 --repeat 1 >"$tmp/smp" 2>&1; rc=$?
check "bench smp prints a line for 1 and 2 threads" bash -c "test $rc = 0 && grep -q '^threads  1: .* speed-up 1.00' '$tmp/smp' && grep -q '^threads  2: .* nodes/s, speed-up ' '$tmp/smp'"
"$oware" bench smp --threads 1,x >/dev/null 2>"$tmp/err"; rc=$?
check "bench smp with a bad thread list exits 2 naming it" bash -c "test $rc = 2 && grep -q \"'1,x'\" '$tmp/err'"

# threads > 1 is not reproducible: the cli says so, and only then.
"$oware" match --south minimax:depth=2,threads=2 --north minimax:depth=2 --games 1 >/dev/null 2>"$tmp/err"; rc=$?
check "match with a threads=2 player warns that its games are not reproducible" \
  bash -c "test $rc = 0 && grep -q \"warning: player 'minimax:depth=2,threads=2' searches on 2 threads\" '$tmp/err'"
"$oware" match --south minimax:depth=2,threads=1 --north minimax:depth=2 --games 1 >/dev/null 2>"$tmp/err"
check "... and threads=1 does not" bash -c "! grep -q warning '$tmp/err'"

# A match that stops early (the OGN file cannot grow past 2 KiB: a write
# error after some games) says how many games it played, not the number asked.
( trap '' XFSZ; ulimit -f 2
  "$oware" match --south random --north greedy --games 200 --seed 3 --quiet --ogn "$tmp/big.ogn" \
    2>"$tmp/big.err" | cat >"$tmp/big.out" )
check "a match stopped by a write error exits 1 and says so" grep -q "cannot write" "$tmp/big.err"
check "... and its total counts the games played, not the 200 asked" \
  bash -c "grep -q 'the match stopped after [0-9]* of 200 games' '$tmp/big.out' && ! grep -q 'of 200\$' '$tmp/big.out'"

echo "$fails failed"
[ $fails = 0 ]
