#!/usr/bin/env bash
# test_analyse.sh: oware analyse end to end: a tournament of random, greedy and perfect from endings with 8 seeds
# (abapa and awari), analysed against tables built to 8 seeds: perfect keeps every value, random and greedy
# lose some; the stored rows, --json, --force, the chart and the report's section; a schema-5 database
# upgraded; the errors (no run, missing tables). Usage: test_analyse.sh OWARE DATA_DIR
set -u
oware=$(realpath "$1")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
. "$(dirname "$0")/check.sh"

nice -n 10 "$oware" egdb build --variant abapa --seeds 8 --dir eg --quiet >/dev/null || exit 1
nice -n 10 "$oware" egdb build --variant awari --seeds 8 --dir eg --quiet >/dev/null || exit 1
cat >op.txt <<'OPENINGS'
0-1-0-2-0-1-1-0-2-0-0-1-20-20-S
1-0-1-0-1-1-0-2-0-1-0-1-18-22-S
0-0-2-1-0-1-0-1-1-0-1-1-19-21-S
2-0-0-0-1-1-1-0-0-1-1-1-21-19-S
OPENINGS
players='random;greedy;perfect:egdb=eg'
"$oware" tournament --players "$players" --openings file:op.txt --rounds 4 --db t.db --quiet \
  --seed 5 --threads 1 >/dev/null || exit 1
"$oware" tournament --players "$players" --variant awari --openings file:op.txt --rounds 2 \
  --db t.db --quiet --seed 6 --threads 1 >/dev/null || exit 1

"$oware" analyse --run 1 --db t.db --egdb-dir eg --json >a1.json 2>err.txt
check "analyse run 1 exits 0" test $? -eq 0
cat err.txt
# shellcheck disable=SC2016
judge='
import json, sys
a = json.load(open(sys.argv[1]))
p = {x["name"]: x for x in a["players"]}
assert a["seeds"] == 8 and a["games"] > 0, a
perfect = p["perfect:egdb=eg"]
assert perfect["mistakes"] == 0 and perfect["seeds_lost"] == 0 and perfect["kept_share"] == 1, perfect
assert perfect["decided"] > 100, perfect
for name in ("random", "greedy"):
    x = p[name]
    assert x["mistakes"] > 0 and x["seeds_lost"] > 0 and x["kept_share"] < 1, x
    assert abs(x["lost_per_move"] - x["seeds_lost"] / x["decided"]) < 1e-9, x
for x in a["players"]:
    assert x["exact"] + x["cycle"] + x["proven"] == x["positions"], x
    assert x["decided"] == x["exact"] + x["proven"], x
    assert x["mistakes"] == x["exact"] - x["kept"] + x["proven"], x
    assert x["changed"] <= x["games"], x
if sys.argv[2] == "split":
    assert all(x["cycle"] == 0 and x["proven"] == 0 for x in a["players"]), a
print(" ".join("%s %.3f" % (x["name"], x["lost_per_move"]) for x in a["players"]))
'
check "run 1 (abapa): perfect keeps every value, random and greedy lose some" python3 -c "$judge" a1.json bounds
check "run 1: computed" grep -q '"computed":true' a1.json
"$oware" analyse --run 2 --db t.db --egdb-dir eg --json >a2.json
check "run 2 (awari, split values): perfect keeps every value, no cycle-sensitive move" \
  python3 -c "$judge" a2.json split

# The stored rows.
sq() { sqlite3 t.db "$1"; }
check "one summary row per player" test "$(sq 'SELECT count(*) FROM analysis WHERE run_id = 1')" = 3
mistakes=$(python3 -c 'import json,sys; print(sum(x["mistakes"] for x in json.load(open("a1.json"))["players"]))')
check "one row per mistake" test "$(sq 'SELECT count(*) FROM analysis_mistakes WHERE run_id = 1')" = "$mistakes"
decided=$(python3 -c 'import json,sys; print(sum(x["decided"] for x in json.load(open("a1.json"))["players"]))')
check "moves by seeds add up" test "$(sq 'SELECT sum(moves) FROM analysis_seeds WHERE run_id = 1')" = "$decided"
check "no mistake of perfect is stored" test "$(sq "SELECT count(*) FROM analysis_mistakes m JOIN players p ON p.run_id = m.run_id AND p.idx = m.player_idx WHERE p.name LIKE 'perfect%'")" = 0
# A stored mistake, probed again: the move played is worth less than the position.
row=$(sq "SELECT position, played, best2, played2 FROM analysis_mistakes WHERE run_id = 1 AND proven = 0 LIMIT 1")
IFS='|' read -r pos played best2 played2 <<<"$row"
letter=$(python3 -c "import sys; m=int(sys.argv[1]); print('ABCDEFabcdef'[m])" "$played")
"$oware" egdb probe "$pos" --dir eg >probe.txt
check "a stored mistake agrees with egdb probe" \
  grep -q "^move $letter $((played2 / 2))\b.*(exact)" probe.txt
check "... and the position's value" grep -q "^value $((best2 / 2)) (exact)" probe.txt

# Read back, not recomputed; --force recomputes; the text table.
"$oware" analyse --run 1 --db t.db --egdb-dir eg --mistakes 3 >t1.txt
check "second call reads the stored analysis" grep -q '; stored ' t1.txt
check "the table names every player" grep -q '^perfect:egdb=eg .* 100.0 *0.000 *0 ' t1.txt
check "three mistakes listed" test "$(grep -c '^  series ' t1.txt)" = 3
"$oware" analyse --run 1 --db t.db --egdb-dir none --force >/dev/null 2>err.txt
check "--force recomputes (and needs the tables)" grep -q 'no endgame tables' err.txt
"$oware" analyse --run 1 --db t.db --egdb-dir eg --force --json >a1b.json
check "--force gives the same figures" python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert b["computed"] and a["players"] == b["players"], (a, b)' a1.json a1b.json

# The chart and the report.
if command -v gnuplot >/dev/null; then
  "$oware" analyse --run 1 --db t.db --egdb-dir eg --chart acc >/dev/null
  check "chart drawn" test -s acc.png -a -s acc.svg -a -s acc.dat
  check "chart data: one column per player" test "$(grep -c . acc.dat)" = 10
fi
"$oware" report --run 1 --db t.db --out rep >/dev/null 2>&1
check "report has the Endgame accuracy section" grep -q 'id="accuracy"' rep/index.html
check "report.md too" grep -q '^## Endgame accuracy' rep/report.md
"$oware" report --run 3 --db t.db --out rep3 >/dev/null 2>&1
"$oware" tournament --players 'random;greedy' --rounds 1 --db t.db --quiet >/dev/null
"$oware" report --run 3 --db t.db --out rep3 >/dev/null 2>&1
check "no section without an analysis" bash -c '! grep -q "Endgame accuracy" rep3/index.html'

# A database of schema 5 (this schema less the analysis tables and the games' move records, as
# schema 5 was) is upgraded.
schema=$(sqlite3 t.db 'PRAGMA user_version') # this oware's
cp t.db v5.db
sqlite3 v5.db 'DROP TABLE analysis_mistakes; DROP TABLE analysis_seeds; DROP TABLE analysis;
  ALTER TABLE games DROP COLUMN move_records; PRAGMA user_version = 5'
"$oware" runs --db v5.db >/dev/null
check "schema 5 upgraded to $schema" test "$(sqlite3 v5.db 'PRAGMA user_version')" = "$schema"
"$oware" analyse --run 1 --db v5.db --egdb-dir eg --json >a5.json
check "... and analysed" python3 -c "$judge" a5.json bounds

# Errors.
"$oware" analyse --run 9 --db t.db --egdb-dir eg >/dev/null 2>err.txt
check "no run: exit 2" test $? -eq 2
check "no run: says so" grep -q 'no run 9' err.txt
"$oware" analyse --run 1 --db t.db --egdb-dir missing --force >/dev/null 2>err.txt
check "tables missing: exit 1" test $? -eq 1
check "tables missing: what to build" \
  grep -q "no endgame tables of variant 'abapa' in missing: build them with 'oware egdb build --variant abapa --seeds 12 --dir missing'" err.txt
"$oware" analyse --run 1 --db t.db --egdb-dir eg --seeds 10 >/dev/null 2>err.txt
check "too few tables: exit 1" test $? -eq 1
check "too few tables: what to build" grep -q 'stop at 8 seeds, not 10' err.txt
"$oware" analyse --db t.db >/dev/null 2>err.txt
check "no --run: exit 2" test $? -eq 2

[ "$fails" -eq 0 ] && echo "all passed" || { echo "$fails failed"; exit 1; }
