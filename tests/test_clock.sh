#!/usr/bin/env bash
# test_clock.sh: end to end: tournaments on game clocks (tc=, --tc): minimax against an engine over `go wtime btime`, a slow engine losing on time, each move's time, score and depth stored and exported as PGN/OGN comments that rate reads unchanged, the warning, the resume note, bad input.
set -u
oware=$1
data=$2
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
body() { tail -n +2 "$1"; }
db=$tmp/c.db

# --- Minimax and an engine (oware uci) on 1+0.01 clocks (a margin of 1.5 s: on a loaded machine a
# thread can wait that long for the CPU, docs/STRENGTH.md). ---
"$oware" tournament --db "$db" --rounds 1 --quiet --tc-margin 1500 \
  --players "minimax:tc=1+0.01;engine:cmd=$oware,arg=uci,tc=1+0.01,name=uci" >"$tmp/out" 2>"$tmp/err"
check "a tournament on clocks exits 0" test $? = 0
check "it warns that clocks make games depend on timing" grep -q "warning: players play on game clocks" "$tmp/err"
sqlite3 "$db" "select end_reason from games" >"$tmp/ends"
check "both games end by the rules (nobody past the clock)" test "$(grep -c -v forfeit "$tmp/ends")" = 2 ||
  sqlite3 "$db" "select end_reason, detail from games"
# Per game and side: moves, the sum of their ms, the moves with a depth;
# the game's plies and its seconds.
sqlite3 -separator ' ' "$db" "select plies, seconds, move_records from games" | python3 -c '
import sys
ok = True
for line in sys.stdin:
    f = line.split()
    plies, seconds, recs = int(f[0]), float(f[1]), [tuple(map(int, x.split("/"))) for x in f[2:]]
    if len(recs) != plies:
        print("records %d, plies %d" % (len(recs), plies)); ok = False
    for side in (0, 1):
        mine = recs[side::2]
        used = sum(r[0] for r in mine)
        left = 1000 + 10 * len(mine) - used  # the clock: base + increments - time used
        if left < -1500:
            print("side %d used %d ms of %d" % (side, used, 1000 + 10 * len(mine))); ok = False
        if any(r[2] <= 0 for r in mine):
            print("side %d: a move without a depth" % side); ok = False
    if sum(r[0] for r in recs) > seconds * 1000 + 2 * plies:
        print("moves %d ms, the game %.0f ms" % (sum(r[0] for r in recs), seconds * 1000)); ok = False
sys.exit(0 if ok else 1)
' >"$tmp/py" 2>&1
check "each move stored with its time and depth; each clock ends within the margin; move times fit in the game's time" test $? = 0
cat "$tmp/py"

# --- PGN and OGN carry the records as comments; rate reads them unchanged. ---
"$oware" export --db "$db" --run 1 --format pgn --out "$tmp/c.pgn"
"$oware" export --db "$db" --run 1 --format ogn --out "$tmp/c.ogn"
"$oware" export --db "$db" --run 1 --format csv --out "$tmp/c.csv"
check "PGN moves carry {+S.SS/D T.TTs} comments" grep -qE '^1\. [A-F] \{[+-][0-9]+\.[0-9]{2}/[0-9]+ [0-9]+\.[0-9]{2}s\}' "$tmp/c.pgn"
check "OGN moves carry the same comments" grep -qE '^[A-Fa-f] \{[+-][0-9]+\.[0-9]{2}/[0-9]+ [0-9]+\.[0-9]{2}s\}' "$tmp/c.ogn"
check "every PGN line is under 80 characters" test "$(awk 'length > 79' "$tmp/c.pgn" | wc -l)" = 0
python3 "$(dirname "${BASH_SOURCE[0]}")/pgn_read.py" "$tmp/c.pgn" "$tmp/c.csv" >"$tmp/p.out" 2>&1
check "an independent reader (and Ordo's and BayesElo's scans) read the commented PGN" test $? = 0
"$oware" rate --db "$db" --run 1 >"$tmp/db.txt" 2>&1
"$oware" rate --pgn "$tmp/c.pgn" >"$tmp/pgn.txt" 2>&1
check "rate --pgn reads the commented PGN as the database" cmp -s <(body "$tmp/db.txt") <(body "$tmp/pgn.txt")
"$oware" rate --ogn "$tmp/c.ogn" >"$tmp/ogn.txt" 2>&1
check "rate --ogn reads the commented OGN as the database" cmp -s <(body "$tmp/db.txt") <(body "$tmp/ogn.txt")

# --- The time per move charted, in the report too. ---
"$oware" chart --run 1 --db "$db" --kind time --out "$tmp/ch" >/dev/null 2>"$tmp/ch.err"
check "chart --kind time exits 0" test $? = 0
check "time.png is an 800x500 PNG" test "$(png_size "$tmp/ch/time.png")" = 800x500
check "time.dat: a column per player" grep -q '^"move" "minimax:tc=1+0.01" "uci"$' "$tmp/ch/time.dat"
check "time.dat: each player's mean time on move 1" grep -qE '^1 [0-9.]+ [0-9.]+$' "$tmp/ch/time.dat"
"$oware" report --run 1 --db "$db" --out "$tmp/rep" >/dev/null 2>&1
check "the report shows the time per move" grep -q '<img src="time.png"' "$tmp/rep/index.html"

# --- A slow engine loses on time under the run's --tc. ---
slow="engine:cmd=sh,arg=$data/engines/fake_engine.sh,arg=slow,name=slow"
"$oware" tournament --db "$db" --rounds 1 --quiet --tc 0.5 --tc-margin 100 \
  --players "random;$slow" >"$tmp/out" 2>"$tmp/err"
check "a run with a slow engine exits 0" test $? = 0
check "the slow engine loses every game on time" \
  test "$(sqlite3 "$db" "select count(*) from games where run_id = 2 and end_reason = 'forfeit-time'
    and ((winner = 0 and north_idx = 1) or (winner = 1 and south_idx = 1))")" = 2
check "the forfeit says how long it took and what was left" \
  grep -q "slow took [0-9]* ms with 500 ms left on its clock (margin 100 ms)" <(sqlite3 "$db" "select detail from games where run_id = 2")
check "the run's clock is stored with its settings" \
  test "$(sqlite3 "$db" "select group_concat(key || '=' || value, ' ') from run_config where run_id = 2 and key like 'tc%' order by key")" = "tc=0.5 tc-margin=100"
"$oware" tournament --db "$db" --rounds 1 --quiet --tc 0.5 --tc-margin 3000 \
  --players "random;$slow" >"$tmp/out" 2>"$tmp/err"
check "with a margin of 3000 ms the same engine is in time" \
  test "$(sqlite3 "$db" "select count(*) from games where run_id = 3 and end_reason = 'forfeit-time'")" = 0

# --- oware match takes --tc too. ---
"$oware" match --south random --north "$slow" --tc 0.5 --games 2 >"$tmp/out" 2>"$tmp/err"
check "match --tc: the slow engine loses both games on time" test "$(grep -c "forfeit-time, [01] plies: slow took" "$tmp/out")" = 2
check "match --tc warns" grep -q "oware match: warning: players play on game clocks" "$tmp/err"
"$oware" match --south random --north greedy --tc 0.5+x >"$tmp/out" 2>"$tmp/err"
check "match --tc 0.5+x: exit 2 naming the increment" bash -c "test $? = 2 && grep -q \"tc '0.5+x': the increment 'x'\" '$tmp/err'"

# --- Resume: a stopped run on clocks says its next games are new ones. ---
"$oware" tournament --db "$db" --rounds 20 --quiet --tc 0.3+0.003 --players "minimax;greedy" \
  >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 500); do
  [ "$(sqlite3 "$db" "select count(*) from games where run_id = 4" 2>/dev/null || echo 0)" -ge 2 ] && break
  sleep 0.02
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
"$oware" tournament --db "$db" --resume 4 --quiet >"$tmp/out" 2>"$tmp/err"
check "the resumed run on clocks finishes" test $? = 0
check "the resume says the games after the stop are new ones" grep -q "run 4 plays on game clocks (tc=): the games from here on are new ones" "$tmp/err"
"$oware" tournament --db "$db" --rounds 1 --quiet --players "minimax:depth=2;greedy" >"$tmp/out" 2>"$tmp/err"
check "a run without clocks does not warn" test "$(grep -c "game clocks" "$tmp/err")" = 0

# --- Bad input names what is wrong. ---
"$oware" tournament --db "$db" --players "random;greedy" --tc 10+x >"$tmp/out" 2>"$tmp/err"
check "--tc 10+x: exit 2" test $? = 2
check "--tc 10+x names the increment" grep -q "\-\-tc: tc '10+x': the increment 'x' is not a number of seconds" "$tmp/err"
"$oware" tournament --db "$db" --players "random:tc=0/5;greedy" >"$tmp/out" 2>"$tmp/err"
check "tc=0/5 in a spec: exit 2" test $? = 2
check "tc=0/5 names the moves" grep -q "the moves '0' before '/' are not a whole number from 1 to 10000" "$tmp/err"
echo "$fails failure(s)"
[ "$fails" = 0 ]
