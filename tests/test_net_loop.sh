#!/usr/bin/env bash
# test_net_loop.sh: end to end: `oware tune net --generations 2`: each generation's runs (self-play, network, SPRT) and row stored, the networks written, the best kept on H1, the same files on 1 and 2 threads and after kill -9 and --resume, the chart, bad options named.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
oware=$1 fails=0
check_tmp
rows() { sqlite3 "$1" "select count(*) from tuning where kind = 'generation'"; }

# Tiny sizes: 30 self-play games a generation at 100 nodes, an SPRT of at most 20 pairs.
L=(--generations 2 --games 30 --valid 0.3 --max-pairs 20 --player minimax:nodes=100,egdb=off
  --batch 16 --epochs 5 --egdb off --quiet)
# The sanitizer pass (OWARE_TEST_QUICK): fewer epochs and nodes, one kill, no second thread count.
[ -n "${OWARE_TEST_QUICK:-}" ] && L=("${L[@]}" --epochs 2 --batch 32 --player minimax:nodes=50,egdb=off)
"$oware" tune net "${L[@]}" --db "$tmp/a.db" --out "$tmp/a.net" >"$tmp/a.out" 2>&1; rc=$?
check "a loop of 2 generations runs" test $rc = 0
check "it stores 2 generations" test "$(rows "$tmp/a.db")" = 2
check "each generation is 3 runs of its own, the loop a run of kind net" \
  test "$(sqlite3 "$tmp/a.db" "select group_concat(kind) from runs")" = \
  "net,round-robin,net,round-robin,round-robin,net,round-robin"
check "every run is finished" test "$(sqlite3 "$tmp/a.db" "select count(*) from runs where status != 'finished'")" = 0
"$oware" tune --resume 1 --db "$tmp/a.db" --json >"$tmp/aj.json" 2>"$tmp/aj.err"; rc=$?
check "tune --resume --json of the finished loop: its generations, kept, best and file" test \
  "$rc $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['method'], d['complete'], d['generations'], d['kept'], d['network_file'])" "$tmp/aj.json")" = \
  "0 net-loop True 2 $(sqlite3 "$tmp/a.db" "select count(*) from tuning where kind = 'generation' and step like 'kept%'") $tmp/a.net"
check "each generation's self-play has its 30 games" \
  test "$(sqlite3 "$tmp/a.db" "select count(*) from games where run_id in (2, 5)")" = 60
check "the second network learns from both generations' games" \
  test "$(sqlite3 "$tmp/a.db" "select value from run_config where run_id = 6 and key = 'from-runs'")" = "2,5"
check "the networks and the best are written" \
  test -s "$tmp/a-gen1.net" -a -s "$tmp/a-gen2.net" -a -s "$tmp/a.net"
check "a line per generation" test "$(grep -c '^generation [12]: .*SPRT' "$tmp/a.out")" = 2
check "minimax plays with the best" "$oware" match --south "minimax:depth=2,eval=$tmp/a.net" --north random --games 2

# Without --quiet, each step and the training's epochs on stderr; the results on stdout.
"$oware" tune net --generations 1 --games 30 --valid 0.3 --max-pairs 4 --epochs 2 --egdb off \
  --player minimax:nodes=50,egdb=off --db "$tmp/v.db" --out "$tmp/v.net" >"$tmp/v.out" 2>"$tmp/v.err"
check "the steps and the epochs are logged on stderr" \
  bash -c "grep -q '^generation 1: training' '$tmp/v.err' && grep -q '^net: epoch 2' '$tmp/v.err'"
check "the generation's line and the loop's end on stdout" \
  bash -c "grep -q '^generation 1: .*undecided within the cap: not kept' '$tmp/v.out' && grep -q '^net loop: 1 generations' '$tmp/v.out'"

# From a weak start (the first candidate) with lenient bounds, candidates are kept.
K=("${L[@]}" --start "$tmp/a-gen1.net" --sprt elo0=-300,elo1=-200)
"$oware" tune net "${K[@]}" --db "$tmp/k.db" --out "$tmp/k.net" >"$tmp/k.out" 2>&1
kept=$(sqlite3 "$tmp/k.db" "select count(*) from tuning where step like 'kept:%'")
check "candidates that pass are kept" test "$kept" -ge 1
last=$(sqlite3 "$tmp/k.db" "select max(iteration) + 1 from tuning where step like 'kept:%'")
check "the best written is the last kept candidate" cmp -s "$tmp/k.net" "$tmp/k-gen$last.net"
# Generation 2's self-play (run 5) plays the best so far: generation 1's
# network when it was kept, else the start (which of the two depends on
# the games, not on the loop).
first=$(sqlite3 "$tmp/k.db" "select count(*) from tuning where iteration = 0 and step like 'kept:%'")
want=$([ "$first" = 1 ] && echo k-gen1.net || echo a-gen1.net)
check "the next self-play plays the kept one" \
  bash -c "sqlite3 '$tmp/k.db' \"select spec from players where run_id = 5\" | grep -q '$want'"
if [ -z "${OWARE_TEST_QUICK:-}" ]; then
  "$oware" tune net "${K[@]}" --db "$tmp/t.db" --out "$tmp/t.net" --threads 2 >/dev/null 2>&1
  check "2 threads give the same networks byte for byte" \
    bash -c "cmp -s '$tmp/k.net' '$tmp/t.net' && cmp -s '$tmp/k-gen2.net' '$tmp/t-gen2.net'"
  check "and the same SPRTs" test "$(sqlite3 "$tmp/k.db" "select group_concat(wins || '-' || draws || '-' || losses || ' ' || value) from tuning")" = \
    "$(sqlite3 "$tmp/t.db" "select group_concat(wins || '-' || draws || '-' || losses || ' ' || value) from tuning")"
fi

# kill -9 in the middle (slower epochs), then --resume: the same networks.
S=("${K[@]}" --batch 4 --epochs 20 --patience 20)
cuts="3 4 6"
[ -n "${OWARE_TEST_QUICK:-}" ] && S=("${K[@]}" --batch 8 --epochs 6 --patience 6) cuts=3
"$oware" tune net "${S[@]}" --db "$tmp/s.db" --out "$tmp/s.net" >/dev/null 2>&1
for cut in $cuts; do
  "$oware" tune net "${S[@]}" --db "$tmp/c$cut.db" --out "$tmp/c$cut.net" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 500); do
    n=$(sqlite3 "$tmp/c$cut.db" "select count(*) from runs" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge $cut ] && break
    sleep 0.01
  done
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  at="$(sqlite3 "$tmp/c$cut.db" "select count(*) || ' runs, ' || sum(status = 'finished') || ' finished' from runs")"
  "$oware" tune --resume 1 --db "$tmp/c$cut.db" >/dev/null 2>&1; rc=$?
  check "resume after kill -9 (at $at) finishes" test $rc = 0
  check "it gives the same best network byte for byte" cmp -s "$tmp/s.net" "$tmp/c$cut.net"
  check "and the same generations, none twice" test \
    "$(sqlite3 "$tmp/s.db" "select group_concat(iteration || ' ' || wins || ' ' || losses || ' ' || value) from tuning")" = \
    "$(sqlite3 "$tmp/c$cut.db" "select group_concat(iteration || ' ' || wins || ' ' || losses || ' ' || value) from tuning")"
done

# The chart of Elo by generation.
if command -v gnuplot >/dev/null; then
  OWARE_SCRIPTS="$(dirname "${BASH_SOURCE[0]}")/../scripts" \
    "$oware" chart --run 1 --kind tuning --db "$tmp/k.db" --out "$tmp/chart" >/dev/null 2>&1
  check "the chart of Elo by generation is drawn" test -s "$tmp/chart/tuning.png"
  check "its data: the candidate's Elo and the best's" grep -q '"candidate" "best"' "$tmp/chart/tuning.dat"
fi

# Bad options, named.
bad() { # bad NAME WORD ARGS...: fails, and its message names WORD
  local name=$1 word=$2
  shift 2
  "$oware" tune net "$@" --db "$tmp/bad.db" >"$tmp/bad.out" 2>&1; local r=$?
  check "$name" bash -c "test $r != 0 && grep -q -- '$word' '$tmp/bad.out'"
}
bad "--from-db with --generations is refused" --from-db --generations 2 --from-db "$tmp/a.db"
bad "a missing start network is named" --start --generations 2 --start "$tmp/none.net"
bad "a bad SPRT is named" --sprt --generations 2 --sprt elo0=5,elo1=1
bad "a bad generations count is named" --generations --generations -1
bad "a bad games count is named" --games --generations 2 --games 1
bad "a loop's option without --generations is named" "--games goes with --generations" --from-db "$tmp/a.db" --games 10
bad "--from-runs that is not a list of runs is named" "not a list of run numbers" --from-db "$tmp/a.db" --from-runs 2,x
bad "--from-runs naming a run the database lacks is named" "of the runs 2,99, 1 is not in it" --from-db "$tmp/a.db" --from-runs 2,99
check "nothing was stored for the bad loops" bash -c "! test -s '$tmp/bad.db' || test \"\$(sqlite3 '$tmp/bad.db' \"select count(*) from runs where format like 'generations%'\")\" = 0"

[ $fails = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all passed"
