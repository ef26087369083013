#!/usr/bin/env bash
# test_ogn_result.sh: end to end: the winner of a game that the rules did not end (adjudicated-*,
# forfeit-*) survives OGN: `match --ogn`, `export --format ogn` and the report's run-N.ogn write
# it, and `rate --ogn` rates those files as the match and `rate --run` do (docs/PGN.md).
# Usage: bash test_ogn_result.sh OWARE_BINARY TESTS_DATA_DIR
set -u
oware=$1
data=$2
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
export XDG_CACHE_HOME=$tmp/cache # no endgame tables: the adjudication is by scores alone
cd "$tmp" || exit 1
# Ratings printed without their first line (which names what was rated).
body() { tail -n +2 "$1"; }
# points FILE: "name points" per player of a rate --json (or match --json) object, sorted.
points() {
  python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
if "total" in o:
    for name, p in zip(o["players"], o["total"]["points"]): print(name, float(p))
else:
    for p in o["players"]: print(p["name"], p["wins"] + 0.5 * p["draws"])
' "$1" | sort
}

# --- A match adjudicated by resignation: the stronger side wins every game on fewer seeds. ---
"$oware" match --south minimax:depth=3 --north minimax:depth=2 --games 4 --adjudicate 'resign=300,2' \
  --ogn m.ogn --json >m.json 2>m.err
check "the adjudicated match exits 0" test $? = 0
check "its games are adjudicated-resign" test "$(grep -cx '\[Termination "adjudicated-resign"\]' m.ogn)" = 4
"$oware" rate --ogn m.ogn --json >mr.json 2>mr.err
check "rate --ogn reads the match's OGN" test $? = 0
check "rate --ogn gives each player the match's points" cmp -s <(points m.json) <(points mr.json)
check "each record's Result is its winner, its Score the final seeds" \
  test "$(grep -c '^\[Score "[0-9.]*-[0-9.]*"\]$' m.ogn)" = 4 -a \
  "$(grep -cE '^\[Result "(1-0|0-1)"\]$' m.ogn)" = 4
"$oware" replay --ogn m.ogn >m.replay 2>&1
check "replay --ogn reads the match's OGN" test $? = 0

# --- A match with a forfeit on time: a slow engine under a 0.5 s clock loses at 0-0. ---
slow="engine:cmd=sh,arg=$data/engines/fake_engine.sh,arg=slow,name=slow"
"$oware" match --south random --north "$slow" --tc 0.5 --tc-margin 100 --games 2 --ogn f.ogn \
  --json >f.json 2>f.err
check "the match with a slow engine exits 0" test $? = 0
check "the slow engine loses both games on time" test "$(grep -cx '\[Termination "forfeit-time"\]' f.ogn)" = 2
"$oware" rate --ogn f.ogn --json >fr.json 2>fr.err
check "rate --ogn gives the forfeits' winner his points" cmp -s <(points f.json) <(points fr.json)

# --- A tournament with adjudicated games and forfeits on time: export and report OGN. ---
"$oware" tournament --players "minimax:depth=3;minimax:depth=2;$slow" --format games:2 --seed 3 \
  --tc 0.5 --tc-margin 100 --adjudicate 'resign=300,2' --db t.db --quiet >t.out 2>t.err
check "the tournament exits 0" test $? = 0
n_adj=$(sqlite3 t.db "select count(*) from games where end_reason like 'adjudicated-%'")
n_ff=$(sqlite3 t.db "select count(*) from games where end_reason = 'forfeit-time'")
check "it has adjudicated games ($n_adj) and forfeits on time ($n_ff)" test "$n_adj" -gt 0 -a "$n_ff" -gt 0
"$oware" rate --db t.db --run 1 >db.txt 2>&1
"$oware" export --db t.db --run 1 --format ogn --out t.ogn 2>e.err
check "export --format ogn exits 0" test $? = 0
"$oware" rate --ogn t.ogn >ogn.txt 2>&1
check "rate --ogn of the export gives the database's ratings" cmp -s <(body db.txt) <(body ogn.txt)
"$oware" export --db t.db --run 1 --format pgn --out t.pgn 2>/dev/null
"$oware" rate --pgn t.pgn >pgn.txt 2>&1
check "rate --pgn of the export agrees" cmp -s <(body db.txt) <(body pgn.txt)
"$oware" report --db t.db --run 1 --out rep >/dev/null 2>rep.err
check "the report is written" test -f rep/run-1.ogn
"$oware" rate --ogn rep/run-1.ogn >rogn.txt 2>&1
check "rate --ogn of the report's run-1.ogn gives the database's ratings" cmp -s <(body db.txt) <(body rogn.txt)
# Plain games keep their final seeds as the Result (Aualé's form).
check "games ended by the rules keep the seeds as their Result" \
  test "$(grep -B1 -E '^\[Termination "(majority|no-move|repetition|ply-limit)"\]$' t.ogn |
    grep -cE '^\[Result "[0-9.]+-[0-9.]+"\]$')" = \
  "$(grep -cE '^\[Termination "(majority|no-move|repetition|ply-limit)"\]$' t.ogn)"

# --- An OGN written before the change (seeds as the Result of an adjudicated game) still reads. ---
cat >old.ogn <<'EOF'
[Variant "abapa"]
[South "a"]
[North "b"]
[Result "4-8"]
[Termination "adjudicated-resign"]

D c F d 4-8

EOF
"$oware" rate --ogn old.ogn >old.txt 2>&1
check "an old OGN still reads (its Result as written)" test $? = 0

echo "$fails failure(s)"
[ "$fails" = 0 ]
