#!/usr/bin/env bash
# test_adjudicate.sh: end to end: `oware tournament --adjudicate` and `oware match --adjudicate` (issue 27): games ended by
# the endgame tables (scores as the tables say, checked by hand with replay and egdb probe),
# by the draw and resign rules on the players' scores (never for a player without scores);
# the same games on 1 and 2 threads and after a resume, with the tables pinned; rate (text and
# --json) and the report count them; every bad spec named.
# Usage: bash test_adjudicate.sh OWARE_BINARY TESTS_DATA_DIR
set -u
OWARE=${1:?usage: test_adjudicate.sh OWARE_BINARY DATA_DIR}
checks=0
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
RUN_TIMEOUT=240
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp" || exit 1
q() { sqlite3 "$1" "$2"; }
# same A B: the games of two databases, the same and not none.
same() { local a b; a=$(games "$1"); b=$(games "$2"); [ -n "$a" ] && [ "$a" = "$b" ]; }
games() { q "$1" "SELECT group_concat(series_no || ':' || game_no || ':' || moves || ':' || end_reason || ':' ||
  score_south || '-' || score_north || ':' || winner, '|') FROM (SELECT * FROM games ORDER BY series_no, game_no)"; }

# Endings of 10 seeds on the board (each played with both colours): they reach the tables
# (to 8 seeds) within a few captures.
printf '%s\n' 2-1-0-1-0-1-1-0-2-0-1-1-19-19-S 0-2-1-1-0-1-2-0-1-1-0-1-20-18-N \
  1-1-1-0-2-0-0-2-0-1-1-1-18-20-S 3-0-0-1-1-0-1-1-0-0-2-1-19-19-N >ops.txt
P="minimax:depth=3,egdb=off,name=a;mcts:playouts=200,egdb=off,name=b;greedy:name=c"
T=(tournament --players "$P" --openings file:ops.txt --format games:8 --seed 5 --quiet)

# No tables: --adjudicate egdb says so.
run "${T[@]}" --adjudicate egdb --db none.db
expect_rc 2
check "no tables: refused, saying where they were looked for" grep -q "adjudicate egdb: no variant of the run has endgame tables in $tmp/cache" <<<"$err"

run egdb build --seeds 8 --quiet
expect_rc 0

# oware match --adjudicate egdb: the same rule on a match (minimax at depths 3 and 4 with the
# network net and without reverse futility pruning play the same two games every time, both
# reaching the tables; with net2, auto's since store schema 13, or with rfp=150, the default
# since schema 16, the second ends by majority above them); each game line and the OGN say so.
M=(match --south minimax:depth=3,egdb=off,eval=net,rfp=0 --north minimax:depth=4,egdb=off,eval=net,rfp=0 --games 2)
run "${M[@]}" --adjudicate egdb --ogn m.ogn
expect_rc 0
check "match: the tables end both games adjudicated-egdb" test "$(grep -c '^game [12]: .*, adjudicated-egdb, [0-9]* plies: ' <<<"$out")" = 2
check "match: the OGN's Termination says so" test "$(grep -cx '\[Termination "adjudicated-egdb"\]' m.ogn)" = 2
adj_plies=$(sed -n 's/.*, \([0-9]*\) plies.*/\1/p' <<<"$out" | tr '\n' ' ')
run "${M[@]}"
full_plies=$(sed -n 's/.*, \([0-9]*\) plies.*/\1/p' <<<"$out" | tr '\n' ' ')
check "match: played out, the same games are longer ($adj_plies/$full_plies plies)" \
  bash -c 'read -r a1 a2 <<<"$0"; read -r f1 f2 <<<"$1"; [ "$a1" -lt "$f1" ] && [ "$a2" -lt "$f2" ]' "$adj_plies" "$full_plies"

# The tables end games; the same run played out is the same games up to the adjudication.
run "${T[@]}" --adjudicate egdb --threads 1 --db egdb1.db
expect_rc 0
run "${T[@]}" --threads 1 --db plain.db
expect_rc 0
n_egdb=$(q egdb1.db "SELECT count(*) FROM games WHERE end_reason = 'adjudicated-egdb'")
n_all=$(q egdb1.db "SELECT count(*) FROM games")
check "tables: games end adjudicated-egdb ($n_egdb of $n_all)" test "$n_egdb" -gt 10
check "tables: no game of the plain run is adjudicated" test "$(q plain.db "SELECT count(*) FROM games WHERE end_reason LIKE 'adjudicated%'")" = 0
check "tables: the setting is stored, its tables pinned" grep -qx 'egdb=auto@[0-9a-f]\{8\}:8:[0-9a-f]\{16\}' <<<"$(q egdb1.db "SELECT value FROM run_config WHERE key = 'adjudicate'")"
prefix_ok=1
while IFS='|' read -r s g m; do
  full=$(q plain.db "SELECT moves FROM games WHERE series_no = $s AND game_no = $g")
  case "$full" in "$m"*) ;; *) prefix_ok=0; echo "  series $s game $g: '$m' is not a prefix of '$full'" ;; esac
done < <(q egdb1.db "SELECT series_no, game_no, moves FROM games WHERE end_reason = 'adjudicated-egdb'")
check "tables: each adjudicated game is the played-out game cut short" test "$prefix_ok" = 1

# Every adjudicated game by hand: replayed to its last position, probed: the stores plus the
# tables' exact value of the seeds left, or for a cycle-sensitive value (lower..upper) whose
# result the stores already decide, the bound that decides it (lower for a win of the side to
# move, upper for its loss).
hand_ok=1 bounds=0
while IFS='|' read -r op m ss sn w; do
  pos=$("$OWARE" replay --position "$op" "$m" | sed -n 's/^position //p')
  IFS=- read -r -a f <<<"$pos"
  side=${f[14]} st_s=${f[12]} st_n=${f[13]}
  probe=$("$OWARE" egdb probe "$pos")
  seeds=$(sed -n 's/^seeds //p' <<<"$probe")
  lo=$(sed -n 's/^value \([0-9]*\).*/\1/p' <<<"$probe")
  hi=$(sed -n 's/^value [0-9]*\.\.\([0-9]*\) (cycle-sensitive)$/\1/p' <<<"$probe")
  if [ "$side" = S ]; then me=$st_s you=$st_n; else me=$st_n you=$st_s; fi
  if [ -z "$hi" ]; then val=$lo
  elif [ $((me + lo - you - seeds + lo)) -gt 0 ]; then val=$lo bounds=$((bounds + 1))
  elif [ $((me + hi - you - seeds + hi)) -lt 0 ]; then val=$hi bounds=$((bounds + 1))
  else hand_ok=0; echo "  $op $m: $pos is not decided by the tables ($lo..$hi)"; continue; fi
  if [ "$side" = S ]; then es=$((st_s + val)) en=$((st_n + seeds - val)); else es=$((st_s + seeds - val)) en=$((st_n + val)); fi
  ew=$([ "$es" -gt "$en" ] && echo 0 || { [ "$es" -lt "$en" ] && echo 1 || echo -1; })
  [ "$ss" = "$es.0" ] && [ "$sn" = "$en.0" ] && [ "$w" = "$ew" ] || { hand_ok=0; echo "  $op $m: stored $ss-$sn ($w), tables $es-$en ($ew)"; }
done < <(q egdb1.db "SELECT opening, moves, score_south, score_north, winner FROM games WHERE end_reason = 'adjudicated-egdb'")
check "tables: the stored scores are the stores plus the tables' value (replay, egdb probe; $bounds by a bound)" test "$hand_ok" = 1

# The same games on two threads, and after a stop and a resume.
run "${T[@]}" --adjudicate egdb --threads 2 --db egdb2.db
expect_rc 0
check "tables: the same games on 1 and 2 threads" same egdb1.db egdb2.db
# More tables built since: the run's resume still adjudicates by the 8-seed tables it pinned.
run egdb build --seeds 10 --quiet
expect_rc 0
cp egdb1.db part.db
q part.db "DELETE FROM games WHERE id > (SELECT min(id) + 19 FROM games); DELETE FROM series;
  UPDATE runs SET status = 'interrupted'"
run tournament --resume 1 --db part.db --quiet
expect_rc 0
check "tables: a resume after more tables were built plays the run's games" same part.db egdb1.db
run "${T[@]}" --adjudicate egdb --threads 2 --db egdb10.db
plies() { q "$1" "SELECT sum(plies) FROM games"; }
check "tables: a new run pins the tables to 10 and ends its games sooner" test "$(plies egdb10.db)" -lt "$(plies egdb1.db)"
# A folder of tables, given.
mkdir -p mine && cp -r cache/oware/egdb/abapa mine/
run "${T[@]}" --adjudicate "egdb=$tmp/mine" --threads 2 --db dir.db
expect_rc 0
check "tables: egdb=DIR is kept as given" test "$(q dir.db "SELECT value FROM run_config WHERE key = 'adjudicate'")" = "egdb=$tmp/mine"
check "tables: egdb=DIR with the same tables ends the same games as auto" same dir.db egdb10.db

# rate and the report count the adjudicated games.
run rate --db egdb1.db
expect_rc 0
check "rate: the adjudicated games are counted" grep -q "^Adjudicated (counted as played): $n_egdb of $n_all games: $n_egdb adjudicated-egdb\.$" <<<"$out"
# adj_json EXPECTED: the "adjudicated" object of rate --json's output ($out), as "games of egdb draw resign".
adj_json() {
  python3 -c 'import json, sys
a = json.loads(sys.stdin.read())["adjudicated"]
print(a["games"], a["of"], a["adjudicated-egdb"], a["adjudicated-draw"], a["adjudicated-resign"])' <<<"$out" 2>&1
}
run rate --db egdb1.db --json
expect_rc 0
check "rate --json: the adjudicated games counted as the text counts them" test "$(adj_json)" = "$n_egdb $n_all $n_egdb 0 0"
run rate --db egdb1.db --run 1 --json
check "rate --run 1 --json: the same" test "$(adj_json)" = "$n_egdb $n_all $n_egdb 0 0"
# Exported as PGN (each move's {score/depth time} comment, Termination adjudicated-egdb), the
# games rate the same from the file, and its Termination tags count the adjudicated games as
# the database does (without --db too).
run export --db egdb1.db --run 1 --format pgn --out egdb1.pgn
expect_rc 0
run rate --db egdb1.db --run 1
db_ratings=$(sed -n '2,/^$/p' <<<"$out")
run rate --pgn egdb1.pgn
check "rate --pgn: the commented PGN of adjudicated games rates as the database" \
  bash -c 'grep -q "^1\. [A-F] {[+-][0-9.]*/[0-9]* [0-9.]*s}" egdb1.pgn && grep -q "^\[Termination \"adjudicated-egdb\"\]" egdb1.pgn && [ -n "$0" ] && [ "$0" = "$1" ]' \
  "$db_ratings" "$(sed -n '2,/^$/p' <<<"$out")"
check "rate --pgn: the file's adjudicated games are counted" grep -q "^Adjudicated (counted as played): $n_egdb of $n_all games: $n_egdb adjudicated-egdb\.$" <<<"$out"
run rate --pgn egdb1.pgn --json
check "rate --pgn --json: the same count" test "$(adj_json)" = "$n_egdb $n_all $n_egdb 0 0"
run rate --db plain.db
check "rate: nothing said when no game was adjudicated" bash -c '! grep -q Adjudicated <<<"$0"' "$out"
run rate --db plain.db --json
check "rate --json: none adjudicated is counted 0" test "$(adj_json)" = "0 $n_all 0 0 0"
run report --db egdb1.db --run 1 --out rep
expect_rc 0
check "report: a column of adjudicated-egdb in the table of ends" grep -q "| ply-limit | forfeit | adjudicated-egdb | other |" rep/report.md
check "report: none of the others" bash -c '! grep -q "adjudicated-draw\|adjudicated-resign" rep/report.md'
check "report: the ends chart's data has the column" grep -q '"forfeit" "adjudicated-egdb"$' rep/ends.dat

# The score rules. Every player here reports a score within 100 seeds: a draw after 3 moves
# each, at ply 6 at the earliest (plies counted from the opening).
S=(tournament --players "minimax:depth=2,egdb=off,name=m;greedy:name=g;random:name=r" --rounds 2 --seed 3 --quiet)
run "${S[@]}" --adjudicate 'draw=6,10000,3' --db draw.db
expect_rc 0
check "draw: every game of two scoring players ends adjudicated-draw at ply 6" test \
  "$(q draw.db "SELECT count(*) FROM games g JOIN players s ON s.run_id = g.run_id AND s.idx = g.south_idx
     JOIN players n ON n.run_id = g.run_id AND n.idx = g.north_idx
     WHERE s.name != 'r' AND n.name != 'r' AND NOT (end_reason = 'adjudicated-draw' AND plies = 6 AND winner = -1)")" = 0
check "draw: a game with random (no score) is never adjudicated" test \
  "$(q draw.db "SELECT count(*) FROM games g JOIN players p ON p.run_id = g.run_id AND p.name = 'r'
     AND p.idx IN (g.south_idx, g.north_idx) WHERE end_reason LIKE 'adjudicated%'")" = 0
# stores_ok DB REASON: every game that ended so, replayed: its scores are the stores of its last
# position, and for a resignation the winner is the side to move there (the loser just moved).
stores_ok() {
  local ok=1 op m w ss sn pos f
  while IFS='|' read -r op m w ss sn; do
    pos=$("$OWARE" replay --position "$op" "$m" | sed -n 's/^position //p')
    IFS=- read -r -a f <<<"$pos"
    [ "$ss" = "${f[12]}.0" ] && [ "$sn" = "${f[13]}.0" ] || ok=0
    [ "$2" != adjudicated-resign ] || [ "${f[14]}" = "$([ "$w" = 0 ] && echo S || echo N)" ] || ok=0
    [ "$ok" = 1 ] || { echo "  $op $m: winner $w, scores $ss-$sn, last position $pos"; return 1; }
  done < <(q "$1" "SELECT opening, moves, winner, score_south, score_north FROM games WHERE end_reason = '$2'")
}
check "draw: the stored scores are the stores" stores_ok draw.db adjudicated-draw
# resign=0,2: a side whose score is at or below 0 for two of its moves in a row loses.
run "${S[@]}" --adjudicate 'resign=0,2' --db resign.db
expect_rc 0
n_res=$(q resign.db "SELECT count(*) FROM games WHERE end_reason = 'adjudicated-resign'")
check "resign: games end adjudicated-resign ($n_res)" test "$n_res" -gt 0
check "resign: the side that just moved lost, the scores are the stores" stores_ok resign.db adjudicated-resign
run tournament --players "random:name=x;random:name=y" --rounds 4 --quiet --adjudicate 'resign=0,1;draw=0,10000,1' --db rnd.db
expect_rc 0
check "players without a score never trigger draw or resign" test "$(q rnd.db "SELECT count(*) FROM games WHERE end_reason LIKE 'adjudicated%'")" = 0
run "${S[@]}" --adjudicate 'draw=6,10000,3;resign=0,2' --threads 2 --db both2.db
run "${S[@]}" --adjudicate 'draw=6,10000,3;resign=0,2' --threads 1 --db both1.db
check "score rules: the same games on 1 and 2 threads" same both1.db both2.db
run rate --db both1.db
check "rate: draws and resignations counted" grep -q '^Adjudicated (counted as played): [0-9]* of [0-9]* games: [0-9]* adjudicated-draw, [0-9]* adjudicated-resign\.$' <<<"$out"
text=$(sed -n 's/^Adjudicated (counted as played): \([0-9]*\) of \([0-9]*\) games: \([0-9]*\) adjudicated-draw, \([0-9]*\) adjudicated-resign\.$/\1 \2 0 \3 \4/p' <<<"$out")
run rate --db both1.db --json
check "rate --json: draws and resignations counted as the text says ($text)" test "$(adj_json)" = "$text"

# The score rules in a match: every game of two scoring players is a draw at ply 6; resign.
run match --south minimax:depth=2,egdb=off --north greedy --games 4 --adjudicate 'draw=6,10000,3'
expect_rc 0
check "match: draw: every game ends adjudicated-draw at ply 6" test "$(grep -c '^game [0-9]*: .* draw, adjudicated-draw, 6 plies: ' <<<"$out")" = 4
# (eval=net scores South's first moves at or below 0, which resign=0,2 needs; net2 above it)
run match --south minimax:depth=2,egdb=off,eval=net --north random --games 4 --adjudicate 'resign=0,2'
expect_rc 0
check "match: resign: games end adjudicated-resign, won by the other player" grep -qE '^game [0-9]*: minimax:depth=2,egdb=off,eval=net \(S\) - random \(N\) .* north wins, adjudicated-resign, |^game [0-9]*: random \(S\) - minimax:depth=2,egdb=off,eval=net \(N\) .* south wins, adjudicated-resign, ' <<<"$out"
run match --south random --north random:seed=2 --games 4 --adjudicate 'resign=0,1;draw=0,10000,1'
expect_rc 0
check "match: players without a score never trigger draw or resign" bash -c '! grep -q adjudicated <<<"$0"' "$out"

# Bad specs: exit 2, the rule named (tournament and match alike).
bad() { # bad SPEC WORDS
  run "${S[@]}" --adjudicate "$1" --db bad.db
  expect_rc 2
  check "bad spec '$1' names '$2'" grep -qF -- "$2" <<<"$err"
  run match --south greedy --north random --adjudicate "$1"
  expect_rc 2
  check "match: bad spec '$1' names '$2'" grep -qF -- "$2" <<<"$err"
}
bad 'tables' "'tables' is not a rule"
bad 'draw=1,2' 'draw=1,2: expected draw=PLIES,SCORE,MOVES'
bad 'resign=5,0' 'resign=5,0: expected resign=SCORE,MOVES'
bad 'egdb;egdb' 'the egdb rule is given twice'
bad '' '--adjudicate names no rule'
bad "egdb=$tmp/nothing" '--adjudicate egdb: egdb='
check "a refused run stores nothing" bash -c "! test -s bad.db || test \"\$(sqlite3 bad.db 'SELECT count(*) FROM runs')\" = 0"

echo "$checks runs checked, $fails failures"
[ "$fails" -eq 0 ]
