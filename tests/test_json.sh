#!/usr/bin/env bash
# test_json.sh: end to end: --json of runs, rate, sprt and tournament, read by python3's json module and checked against the text output.
set -u
oware=$1 # $2: tests/data
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
# jq-like: py FILE EXPRESSION (d is the parsed document); prints the value.
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

"$oware" tournament --players 'random;greedy;minimax:depth=2,name=mm "2"' --format games:4 \
  --seed 3 --threads 2 --db "$tmp/t.db" --quiet --json >"$tmp/t.json" 2>"$tmp/t.err"
check "tournament --json exits 0" test $? = 0
check "tournament --json prints one JSON object" py "$tmp/t.json" "''"
check "the standings have every player" test "$(py "$tmp/t.json" "len(d['standings'])")" = 3
check "the standings add up to the games" \
  test "$(py "$tmp/t.json" "sum(p['games'] for p in d['standings'])")" = 24
check "the run object names the run" test "$(py "$tmp/t.json" "d['run']['id'], d['run']['games']")" = "1 12"
check "a quote in a name survives" test "$(py "$tmp/t.json" "d['standings'][0]['name']")" = 'mm "2"'
"$oware" rate --db "$tmp/t.db" --run 1 --json >"$tmp/r.json" 2>&1
check "rate --json exits 0 and parses" py "$tmp/r.json" "''"
"$oware" rate --db "$tmp/t.db" --run 1 >"$tmp/r.txt" 2>&1
elo_json=$(py "$tmp/r.json" "'%.1f' % d['players'][0]['elo']")
check "rate --json has the table's first Elo ($elo_json)" grep -q " $elo_json" "$tmp/r.txt"
check "rate --json: the LOS matrix is n x n" test "$(py "$tmp/r.json" "[len(r) for r in d['los']]")" = "[3, 3, 3]"
check "rate --json: the stored ratings are stored as without" \
  test "$("$oware" rate --db "$tmp/t.db" --run 1 --json | py /dev/stdin "d['scope']")" = "run 1"
"$oware" runs --db "$tmp/t.db" --json >"$tmp/runs.json" 2>&1
check "runs --json parses" py "$tmp/runs.json" "''"
check "runs --json lists the run with its games" test "$(py "$tmp/runs.json" "d['runs'][0]['games']")" = 12
check "runs --json: players in order" \
  test "$(py "$tmp/runs.json" "d['runs'][0]['players'][2]")" = 'mm "2"'

# Two players: the match block; a PGN import prints its note on stderr.
"$oware" tournament --players 'greedy;random' --format games:4 --seed 2 --db "$tmp/u.db" --quiet >/dev/null 2>&1
"$oware" export --run 1 --db "$tmp/u.db" --format pgn --out "$tmp/u.pgn"
"$oware" rate --pgn "$tmp/u.pgn" --db "$tmp/i.db" --json >"$tmp/m.json" 2>"$tmp/m.err"
check "rate --pgn --db --json: stdout is JSON only" py "$tmp/m.json" "''"
check "the import note goes to stderr" grep -q 'as run 1 (imported)' "$tmp/m.err"
check "two players: the match block" test "$(py "$tmp/m.json" "d['match']['wins']+d['match']['draws']+d['match']['losses']")" = 4
check "two players: pentanomial pairs" test "$(py "$tmp/m.json" "sum(d['match']['penta'])")" = 2

"$oware" sprt --elo0 0 --elo1 5 --penta 10,40,100,45,12 --json >"$tmp/s.json" 2>&1
check "sprt --json parses" py "$tmp/s.json" "''"
"$oware" sprt --elo0 0 --elo1 5 --penta 10,40,100,45,12 >"$tmp/s.txt" 2>&1
check "sprt --json has the text's LLR" grep -q "^LLR $(py "$tmp/s.json" "'%.4f' % d['llr']")\$" "$tmp/s.txt"
check "sprt --json has the decision" test "$(py "$tmp/s.json" "d['decision']")" = "$(sed -n 's/^decision //p' "$tmp/s.txt")"

"$oware" rate --db "$tmp/t.db" --run 1 --json --anchor greedy=100 >"$tmp/a.json" 2>&1
check "an anchor is in the JSON" test "$(py "$tmp/a.json" "d['anchor']")" = "{'name': 'greedy', 'elo': 100}"

echo "$fails failure(s)"
[ "$fails" = 0 ]
