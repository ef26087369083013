#!/usr/bin/env bash
# test_tune_net.sh: end to end: `oware tune net`: epochs in the tuning table, the file minimax loads, the same file on 1 and 2 threads and after kill -9 and --resume, the tables' labels, errors.
set -u
oware=$1
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

"$oware" tournament --players 'minimax:nodes=300,noise=0.3,name=a;minimax:nodes=300,noise=0.3,name=b' \
  --format games:20 --openings random:8 --threads 2 --db "$tmp/g.db" --quiet >/dev/null 2>&1
check "self-play games to learn from" test "$(sqlite3 "$tmp/g.db" 'select count(*) from games')" = 20
# Small batches make an epoch slow enough to be killed in the middle;
# fewer epochs in the sanitizer pass (OWARE_TEST_QUICK).
E=30
[ -n "${OWARE_TEST_QUICK:-}" ] && E=10
N="--from-db $tmp/g.db --epochs $E --patience $E --batch 4 --egdb off --quiet"

"$oware" tune net $N --db "$tmp/a.db" --out "$tmp/a.net" --threads 1 >"$tmp/a.out" 2>&1; rc=$?
check "tune net runs" test $rc = 0
check "it stores $E epochs" test "$(sqlite3 "$tmp/a.db" "select count(*) from tuning where kind = 'net'")" = $E
check "the run is a finished run of kind net" test "$(sqlite3 "$tmp/a.db" 'select kind, status from runs')" = "net|finished"
check "it says which epoch it wrote" grep -q 'written to' "$tmp/a.out"
check "minimax plays with the network" "$oware" match --south "minimax:depth=3,eval=$tmp/a.net" --north random --games 2

# --json: the outcome as one object, the result line on stderr; the same from --resume of the run.
"$oware" tune net $N --epochs 3 --patience 3 --db "$tmp/j.db" --out "$tmp/j.net" --json >"$tmp/j.json" 2>"$tmp/j.err"; rc=$?
jq_() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
check "tune net --json: the run, its epochs as stored, the file written" test \
  "$rc $(jq_ "$tmp/j.json" "d['run'], d['method'], d['complete'], d['epochs'], d['games'], d['network_file']")" = \
  "0 1 net True $(sqlite3 "$tmp/j.db" "select count(*) from tuning where kind = 'net'") 20 $tmp/j.net"
check "... the best epoch and loss of the result line (on stderr)" \
  grep -q "net: epoch $(jq_ "$tmp/j.json" "d['best_epoch']") of 3 (validation loss $(jq_ "$tmp/j.json" "'%.6f' % d['best_loss']"))" "$tmp/j.err"
"$oware" tune --resume 1 --db "$tmp/j.db" --json >"$tmp/jr.json" 2>/dev/null
check "tune --resume --json of it: the same object" cmp -s "$tmp/j.json" "$tmp/jr.json"
"$oware" tune net $N --db "$tmp/b.db" --out "$tmp/b.net" --threads 2 >/dev/null 2>&1
check "2 threads give the same file byte for byte" cmp -s "$tmp/a.net" "$tmp/b.net"
"$oware" tune net $N --seed 2 --db "$tmp/b.db" --out "$tmp/s.net" >/dev/null 2>&1
check "another seed gives another network (the comparison can fail)" bash -c "! cmp -s '$tmp/a.net' '$tmp/s.net'"

# kill -9 during the epochs, then --resume: the same file.
"$oware" tune net $N --db "$tmp/c.db" --out "$tmp/c.net" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 400); do
  n=$(sqlite3 "$tmp/c.db" "select count(*) from tuning" 2>/dev/null || echo 0)
  [ "${n:-0}" -ge 3 ] && break
  sleep 0.01
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
n=$(sqlite3 "$tmp/c.db" 'select count(*) from tuning')
if [ "$n" -lt $E ]; then
  "$oware" tune --resume 1 --db "$tmp/c.db" >/dev/null 2>&1; rc=$?
  check "resume after kill -9 at epoch $n finishes" test $rc = 0
fi
check "$E epochs stored, none twice" test "$(sqlite3 "$tmp/c.db" 'select count(distinct iteration) || count(*) from tuning')" = "$E$E"
check "the resumed run writes the same file" cmp -s "$tmp/a.net" "$tmp/c.net"

# The endgame tables label the positions they cover.
"$oware" egdb build --seeds 6 --dir "$tmp/eg" >/dev/null 2>&1
"$oware" tune net --from-db "$tmp/g.db" --epochs 2 --egdb "$tmp/eg" --db "$tmp/e.db" \
  --out "$tmp/e.net" >/dev/null 2>"$tmp/e.err"; rc=$?
check "the tables label some positions exactly" bash -c "test $rc = 0 && grep -Eq '[1-9][0-9]* labelled exactly' '$tmp/e.err'"

# Search scores as labels: the same file on 1 and 2 threads, another than without them.
S="--from-db $tmp/g.db --epochs 3 --egdb off --quiet --search minimax:depth=2,egdb=off,hash=1"
"$oware" tune net $S --db "$tmp/s.db" --out "$tmp/s1.net" --threads 1 >/dev/null 2>"$tmp/s.err"; rc=$?
"$oware" tune net $S --db "$tmp/s.db" --out "$tmp/s2.net" --threads 2 >/dev/null 2>&1
"$oware" tune net --from-db "$tmp/g.db" --epochs 3 --egdb off --quiet --db "$tmp/s.db" --out "$tmp/s3.net" >/dev/null 2>&1
check "search labels: the same file on 1 and 2 threads" bash -c "test $rc = 0 && cmp -s '$tmp/s1.net' '$tmp/s2.net'"
check "search labels change the network" bash -c "! cmp -s '$tmp/s1.net' '$tmp/s3.net'"
"$oware" tune net --from-db "$tmp/g.db" --search random --db "$tmp/x.db" >/dev/null 2>"$tmp/err"; rc=$?
check "a search player without scores is refused by name" bash -c "test $rc != 0 && grep -q 'search random: it reports no score' '$tmp/err'"

# Errors are named.
"$oware" tune net --db "$tmp/x.db" >/dev/null 2>"$tmp/err"; rc=$?
check "without --from-db: exit 2 naming it" bash -c "test $rc = 2 && grep -q -- '--from-db' '$tmp/err'"
for h in "--hidden1 12" "--hidden1 32 --hidden2 20"; do
  "$oware" tune net --from-db "$tmp/g.db" $h --db "$tmp/h.db" >/dev/null 2>"$tmp/err"; rc=$?
  check "$h: exit 2 naming the multiples of 8, before a run is made" bash -c \
    "test $rc = 2 && grep -q 'multiples of 8' '$tmp/err' && ! test -e '$tmp/h.db'"
done
"$oware" tune net --from-db "$tmp/none.db" --db "$tmp/x.db" >/dev/null 2>"$tmp/err"; rc=$?
check "a missing database is named" bash -c "test $rc != 0 && grep -q 'none.db' '$tmp/err'"
"$oware" tune net --from-db "$tmp/g.db" --variant 'abapa,houses=5' --db "$tmp/x.db" >/dev/null 2>"$tmp/err"; rc=$?
check "no games of the variant: too few positions" bash -c "test $rc != 0 && grep -q 'too few' '$tmp/err'"
"$oware" match --south "minimax:eval=$tmp/a.net" --north random --variant 'abapa,houses=5' >"$tmp/out" 2>&1
check "a network of another family is refused (a forfeit) with the reason" \
  bash -c "grep -q 'forfeit-error.*the network is for the family houses=6 seeds=48; the variant has houses=5' '$tmp/out'"

echo "$fails failed"
[ $fails = 0 ]
