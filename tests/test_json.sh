#!/usr/bin/env bash
# test_json.sh: end to end: --json of runs, rate, sprt, tournament, study, calibrate, match, egdb stats and bench, read by python3's json module and checked against the text output.
set -u
oware=$1 # $2: tests/data
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
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

# An SPRT run's verdict is in the JSON of the tournament and of rate --run
# (issue 26 point 5), the same as the text's SPRT line.
"$oware" tournament --players 'minimax:depth=3,name=a;greedy' --sprt elo0=0,elo1=50 --seed 1 \
  --db "$tmp/sprt.db" --quiet --json >"$tmp/ts.json" 2>/dev/null
"$oware" tournament --players 'minimax:depth=3,name=a;greedy' --sprt elo0=0,elo1=50 --seed 1 \
  --db "$tmp/sprt2.db" --quiet >"$tmp/ts.txt" 2>/dev/null
check "tournament --sprt --json has the SPRT's decision" \
  grep -q "SPRT (normalized Elo): $(py "$tmp/ts.json" "d['sprt']['decision']") (LLR $(py "$tmp/ts.json" "'%.3f' % d['sprt']['llr']"), bounds $(py "$tmp/ts.json" "'%.3f %.3f' % (d['sprt']['lower'], d['sprt']['upper'])")) after $(py "$tmp/ts.json" "d['sprt']['pairs']") game pairs" "$tmp/ts.txt"
"$oware" rate --run 1 --db "$tmp/sprt.db" --json >"$tmp/rs.json" 2>&1
check "rate --run --json of an SPRT run has the same SPRT object" \
  test "$(py "$tmp/rs.json" "d['sprt']")" = "$(py "$tmp/ts.json" "d['sprt']")"

"$oware" rate --db "$tmp/t.db" --run 1 --json --anchor greedy=100 >"$tmp/a.json" 2>&1
check "an anchor is in the JSON" test "$(py "$tmp/a.json" "d['anchor']")" = "{'name': 'greedy', 'elo': 100}"

# A variant study: --json in place of the tables, the same numbers as the text.
"$oware" study --players 'random;greedy' --variants 'abapa;grandslam-forbidden' --games 20 \
  --threads 2 --db "$tmp/v.db" --no-charts --bootstrap 50 --json >"$tmp/v.json" 2>"$tmp/v.err"
check "study --json exits 0" test $? = 0
check "study --json prints one JSON object" py "$tmp/v.json" "''"
check "study --json: the standings add up" \
  test "$(py "$tmp/v.json" "sum(p['games'] for p in d['standings'])")" = 80
check "study --json: two variants, in order" \
  test "$(py "$tmp/v.json" "','.join(v['name'] for v in d['variants'])")" = "abapa,grandslam-forbidden"
check "study --json: wins, draws and losses add up to the games" \
  test "$(py "$tmp/v.json" "all(v['south_wins']+v['draws']+v['north_wins']==v['games']==20 for v in d['variants'])")" = True
check "study --json: the end reasons add up" \
  test "$(py "$tmp/v.json" "sum(e['games'] for e in d['variants'][0]['ends'].values())")" = 20
check "study --json: one test of each kind between the two variants" \
  test "$(py "$tmp/v.json" "len(d['score_tests']), len(d['draw_tests'])")" = "1 1"
"$oware" study --run 1 --db "$tmp/v.db" --no-charts --bootstrap 50 >"$tmp/v.txt" 2>&1
row=$(py "$tmp/v.json" "'%.1f%% [%.1f, %.1f]' % tuple(100*d['variants'][0]['south_win'][k] for k in ('value','lo','hi'))")
in_text() { grep "^$1" "$tmp/v.txt" | grep -qF -- "$2"; } # in_text ROW TEXT
check "study --json: South's win rate as in the text ($row)" in_text "South wins " "$row"
len=$(py "$tmp/v.json" "'%.1f [%.1f, %.1f]' % tuple(d['variants'][1]['length'][k] for k in ('value','lo','hi'))")
check "study --json: the mean length as in the text ($len)" in_text "length: mean" "$len"
elo=$(py "$tmp/v.json" "'%.0f' % [p for p in d['variants'][0]['elo'] if p['name']=='greedy'][0]['elo']")
check "study --json: greedy's Elo under abapa as in the text (+$elo)" in_text "greedy " "+$elo"
"$oware" study --run 1 --db "$tmp/v.db" --no-charts --bootstrap 50 --json >"$tmp/v2.json" 2>&1
check "study --run --json: the same study" \
  test "$(py "$tmp/v2.json" "d['variants']")" = "$(py "$tmp/v.json" "d['variants']")"
"$oware" study --run 1 --db "$tmp/v.db" --json --out "$tmp/charts" --bootstrap 50 >"$tmp/v3.json" 2>"$tmp/v3.err"
check "study --json with charts: stdout stays JSON" py "$tmp/v3.json" "''"
check "study --json with charts: the note goes to stderr" grep -q "^Charts:" "$tmp/v3.err"

# A small calibration: the summary as JSON, the levels file as without --json.
cal=(calibrate --base mcts --knob playouts --range 4:200 --log --levels 'easy=-50;hard=100'
  --anchor greedy=0 --games 4 --max-games 8 --threads 2 --seed 5)
"$oware" "${cal[@]}" --out "$tmp/lv.txt" --json >"$tmp/c.json" 2>"$tmp/c.err"
crc=$?
check "calibrate --json exits 0 or 1 (a level off)" test $crc -le 1
check "calibrate --json prints one JSON object" py "$tmp/c.json" "''"
check "calibrate --json: the exit code is the verdict" \
  test "$(py "$tmp/c.json" "0 if d['all_ok'] and d['in_order'] else 1")" = $crc
check "calibrate --json: two levels in target order" \
  test "$(py "$tmp/c.json" "[l['name'] for l in d['levels']]")" = "['easy', 'hard']"
check "calibrate --json: the verification rates the anchor and the levels" \
  test "$(py "$tmp/c.json" "sorted(p['name'] for p in d['verification']['players'])")" = "['easy', 'greedy', 'hard']"
check "calibrate --json: the levels file is named and written" \
  test "$(py "$tmp/c.json" "d['levels_file']")" = "$tmp/lv.txt" -a -s "$tmp/lv.txt"
"$oware" "${cal[@]}" --out "$tmp/lv2.txt" >"$tmp/c.txt" 2>/dev/null
check "calibrate: the same levels file with and without --json" cmp -s "$tmp/lv.txt" "$tmp/lv2.txt"
for k in 0 1; do
  line=$(py "$tmp/c.json" "'  %-10s %-36s %7.0f %8.1f [%7.1f, %7.1f]' % tuple([d['levels'][$k][x] for x in ('name','spec','target','elo','lo','hi')])")
  check "calibrate --json: level $k as in the text table" grep -qF -- "$line" "$tmp/c.txt"
done
pts=$(py "$tmp/c.json" "len(d['search']['points'])")
check "calibrate --json: the search's $pts points as in the text" \
  test "$(py "$tmp/c.json" "d['search']['games']")" = "$(sed -n 's/.* values measured, \([0-9]*\) games$/\1/p' "$tmp/c.txt")" \
  -a "$(grep -c ' fit ' "$tmp/c.txt")" = "$pts"

# match --json: each game as the text says it, moves that replay to its end, the total.
mt=(match --south 'minimax:depth=2,egdb=off,name=m "1"' --north random --games 6 --seed 5 --variant auale)
"$oware" "${mt[@]}" --json --ogn "$tmp/mt.ogn" >"$tmp/mt.json" 2>"$tmp/mt.err"
check "match --json exits 0" test $? = 0
check "... which parses" py "$tmp/mt.json" "''"
"$oware" "${mt[@]}" >"$tmp/mt.txt" 2>&1
check "match --json: the games of the text (winner, end, plies, names)" test \
  "$(py "$tmp/mt.json" "'\\n'.join('game %d: %s (S) - %s (N) %s' % (g['game'], g['south'], g['north'], g['winner']) + ' %s, %d plies' % (g['end'], g['plies']) for g in d['games'])")" = \
  "$(sed -n 's/^\(game [0-9]*: .* (N)\) [0-9.]*-[0-9.]* \(south\|north\|draw\)\( wins\)\{0,1\}, \(.*\)$/\1 \2 \4/p' "$tmp/mt.txt")"
ok=1
for i in 0 1 2 3 4 5; do
  mv=$(py "$tmp/mt.json" "d['games'][$i]['moves']")
  want=$(py "$tmp/mt.json" "'%s %g-%g %s' % (d['games'][$i]['end'], *d['games'][$i]['score'], d['games'][$i]['winner'])")
  got=$("$oware" replay --variant auale "$mv" | sed -n 's/^status over //p')
  [ "$got" = "$want" ] || { ok=0; echo "game $i: replayed '$got', JSON '$want'"; }
done
check "match --json: each game's moves replay to its end, score and winner" test $ok = 1
check "match --json: the total of the text" test \
  "$(py "$tmp/mt.json" "'%s %d wins, %s %d wins, %d draws' % (d['players'][0], d['total']['wins'][0], d['players'][1], d['total']['wins'][1], d['total']['draws'])")" = \
  "$(sed -n 's/^total: \(.*draws\);.*/\1/p' "$tmp/mt.txt")"
check "match --json: points, games and the variant" test \
  "$(py "$tmp/mt.json" "sum(d['total']['points']), d['total']['games'], d['total']['of'], d['complete'], d['variant']")" = "6 6 6 True auale"
check "match --json --ogn: the OGN is written, 6 games" \
  test "$(grep -c '^\[Round' "$tmp/mt.ogn")" = 6
"$oware" "${mt[@]}" --json --quiet >"$tmp/mq.json" 2>&1
check "match --json --quiet: the total without the games" \
  test "$(py "$tmp/mq.json" "'games' in d, d['total'] == json.load(open('$tmp/mt.json'))['total']")" = "False True"

# egdb stats --json: the table's counts and shares, per variant.
"$oware" egdb build --seeds 5 --dir "$tmp/eg" --quiet >/dev/null 2>&1
"$oware" egdb stats --dir "$tmp/eg" --variant abapa --variant auale --json >"$tmp/eg.json" 2>"$tmp/eg.err"
check "egdb stats --json exits 0" test $? = 0
check "... which parses" py "$tmp/eg.json" "''"
"$oware" egdb stats --dir "$tmp/eg" --variant abapa --variant auale >"$tmp/eg.txt" 2>&1
check "egdb stats --json: each level as the table (positions, won, drawn, lost, open, cycle %)" test \
  "$(py "$tmp/eg.json" "'\\n'.join('%s %d %d %.2f %.2f %.2f %.2f %.2f' % (v['tables'], l['n'], l['positions'], *[100 * l[k] / l['positions'] for k in ('won', 'drawn', 'lost', 'open', 'sensitive')]) for v in d['variants'] for l in v['levels'])")" = \
  "$(awk 'NR > 1 { print $1, $2, $3, $4, $5, $6, $7, $9 }' "$tmp/eg.txt")"
check "egdb stats --json: the variants asked for, their tables and seeds" test \
  "$(py "$tmp/eg.json" "' '.join('%s/%s/%d' % (v['variant'], v['tables'], v['seeds']) for v in d['variants'])")" = \
  "abapa/abapa/5 auale/abapa/5"
"$oware" egdb stats --dir "$tmp/eg" --json --markdown >/dev/null 2>"$tmp/egm.err"; rc=$?
check "egdb stats --json --markdown is refused, saying so" \
  bash -c "test $rc = 2 && grep -q 'one or the other' '$tmp/egm.err'"

# bench --json: one object each, with the figures the text prints (the deterministic ones compared).
"$oware" bench core --games 200 --repeat 1 --perft 4 --json >"$tmp/bc.json" 2>&1
"$oware" bench core --games 200 --repeat 1 --perft 4 >"$tmp/bc.txt" 2>&1
check "bench core --json: the plies and perft leaves of the text" test \
  "$(py "$tmp/bc.json" "'%d %d %s' % (d['plies'], d['perft']['leaves'], d['bench'])")" = \
  "$(sed -n 's/^random games 200, plies \([0-9]*\) .*/\1/p' "$tmp/bc.txt") $(sed -n 's/^perft 4 \([0-9]*\) .*/\1/p' "$tmp/bc.txt") core"
"$oware" bench search --depth 5 --repeat 1 --mcts-playouts 500 --json >"$tmp/bs.json" 2>&1
"$oware" bench search --depth 5 --repeat 1 --mcts-playouts 500 >"$tmp/bs.txt" 2>&1
check "bench search --json: the node count is the signature at that depth" test \
  "$(py "$tmp/bs.json" "d['nodes']")" = "$("$oware" bench search --depth 5 --nodes-only)"
check "bench search --json: each position's best move, score and nodes as the text" test \
  "$(py "$tmp/bs.json" "'\\n'.join('%s %s %d %d' % (p['position'], p['best'], p['score'], p['nodes']) for p in d['positions'])")" = \
  "$(awk '/^position/ { print $3, $5, $7, $9 }' "$tmp/bs.txt")"
check "bench search --json: MCTS's playouts and iterations" \
  test "$(py "$tmp/bs.json" "d['mcts']['playouts'], d['mcts']['net_iterations']")" = "500 500"
"$oware" bench search --depth 4 --repeat 1 --settings ';rfp=0' --json >"$tmp/bss.json" 2>&1
check "bench search --settings --json: a row a setting, the defaults' nodes the signature" test \
  "$(py "$tmp/bss.json" "len(d['rows']), d['rows'][0]['nodes'], d['rows'][1]['settings']")" = \
  "2 $("$oware" bench search --depth 4 --nodes-only) rfp=0"
"$oware" bench smp --depth 6 --repeat 1 --threads 1,2 --json >"$tmp/bsmp.json" 2>&1
check "bench smp --json: a row a thread count" \
  test "$(py "$tmp/bsmp.json" "[t['threads'] for t in d['threads']], d['threads'][0]['speedup']")" = "[1, 2] 1"
"$oware" bench egdb --seeds 3,5 --repeat 1 --json >"$tmp/be.json" 2>&1
check "bench egdb --json: each build's positions, the open and the probes" test \
  "$(py "$tmp/be.json" "[b['positions'] for b in d['builds']], d['open']['seeds'], d['probe']['lookups_per_s'] > 0")" = \
  "[455, 6188] 5 True"
"$oware" bench adjudicate --tables "$tmp/eg" --games 2 --players 'minimax:depth=2,egdb=off,name=a;greedy' \
  --json >"$tmp/ba.json" 2>&1
check "bench adjudicate --json: both runs, their games and players" test \
  "$(py "$tmp/ba.json" "d['played_out']['games'], d['adjudicated']['games'], sorted(p['name'] for p in d['adjudicated']['players'])")" = \
  "2 2 ['a', 'greedy']"

echo "$fails failure(s)"
[ "$fails" = 0 ]
