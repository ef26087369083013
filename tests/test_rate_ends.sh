#!/usr/bin/env bash
# test_rate_ends.sh: end to end: `oware rate`'s score by end (text, --json, a PGN file alone, the report, the
# table at a tournament's end) against the games counted here apart, game by game, from the
# database: each player's wins, draws and losses per end reason, and of them the games that
# ended on its own move (the last letter of the moves: capital for South).
# Usage: bash test_rate_ends.sh OWARE_BINARY DATA_DIR
set -u
OWARE=$(realpath "${1:?usage: test_rate_ends.sh OWARE_BINARY DATA_DIR}")
checks=0
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
cd "$tmp" || exit 1

# Endings of a few seeds under auale's rule: games that end by repetition and by no move, some on
# the winner's move and some on the loser's.
printf '%s\n' 0-0-1-0-0-1-0-0-1-0-0-1-22-22-S 1-0-0-1-0-0-1-0-0-1-0-0-22-22-N \
  0-1-0-1-0-1-0-1-0-0-1-0-22-21-S 2-1-0-1-0-1-1-0-2-0-1-1-19-19-S >ops.txt
run tournament --players "minimax:depth=4,egdb=off,name=a;minimax:depth=2,egdb=off,name=b;greedy:name=c" \
  --variant auale --openings file:ops.txt --format games:8 --seed 3 --db t.db
expect_rc 0
tournament_out=$out

# The counts, game by game: "NAME END W D L OWN_W OWN_D OWN_L" lines, sorted.
want=$(sqlite3 -separator ' ' t.db "SELECT ps.name, pn.name, g.end_reason, g.winner, g.moves FROM games g
  JOIN players ps ON ps.run_id = g.run_id AND ps.idx = g.south_idx
  JOIN players pn ON pn.run_id = g.run_id AND pn.idx = g.north_idx" |
  while read -r south north end winner moves; do
    last=${moves: -1}
    [[ $last == [A-Z] ]] && mover=0 || mover=1
    for side in 0 1; do
      [ $side = 0 ] && name=$south || name=$north
      if [ "$winner" = -1 ]; then r=d; elif [ "$winner" = $side ]; then r=w; else r=l; fi
      echo "$name $end $r $([ $mover = $side ] && echo own || echo other)"
    done
  done | awk '{k = $1 " " $2; n[k]; c[k, $3]++; if ($4 == "own") o[k, $3]++}
    END {for (k in n) print k, c[k, "w"] + 0, c[k, "d"] + 0, c[k, "l"] + 0, o[k, "w"] + 0, o[k, "d"] + 0, o[k, "l"] + 0}' |
  sort)
check "the run has games that end by repetition and by no move" \
  bash -c "grep -q ' repetition ' <<<'$want' && grep -q ' no-move ' <<<'$want'"
check "... some of them on the loser's own move" \
  bash -c "awk '\$7 > 0' <<<'$want' | grep -q ."

# table TEXT: the score-by-end rows of rate's text as "NAME END W D L OWN_W+OWN_D+OWN_L", sorted
# (the name is written on a player's first row only; a score without games is "-").
table() {
  awk '/^Score by end/ {on = 1; getline; next} on && NF == 0 {on = 0}
    on {if ($1 ~ /^(majority|no-move|repetition|ply-limit|forfeit-|adjudicated-)/) $0 = name " " $0
        else name = $1
        print $1, $2, $4, $5, $6, $7 == "-" ? $8 : $10}' <<<"$1" | sort
}
# The same from the counts: own games in all.
want_table=$(awk '{print $1, $2, $3, $4, $5, $6 + $7 + $8}' <<<"$want")

run rate --db t.db
expect_rc 0
check "rate: the score by end, every player and end as counted game by game" \
  test -n "$want" -a "$(table "$out")" = "$want_table"
# a's repetition row: its score with the interval, and the own games' score.
a_rep() { awk '/^Score by end/ {on = 1} on && $1 == "a" {a = 1} a && /repetition/ {print; exit}' <<<"$out"; }
check "... a score with its 95% interval, for all and for the own games" \
  bash -c "grep -qE '[0-9.]+% \[[0-9.]+, [0-9.]+\] +[0-9]+ +[0-9.]+% \[[0-9.]+, [0-9.]+\]$' <<<\"\$1\"" _ "$(a_rep)"
check "the tournament's own end prints the same table" test "$(table "$tournament_out")" = "$want_table"

# --json: "ends", each end's games and the own ones, as counted.
run rate --db t.db --json
expect_rc 0
got_json=$(python3 -c '
import json, sys
d = json.load(sys.stdin)
for p in d["ends"]:
    for end, x in p["by"].items():
        o = x["own"]
        assert x["games"] == x["wins"] + x["draws"] + x["losses"]
        assert x["score"]["lo"] <= x["score"]["value"] <= x["score"]["hi"]
        print(p["name"], end, x["wins"], x["draws"], x["losses"], o["wins"], o["draws"], o["losses"])
' <<<"$out" | sort)
check "rate --json: ends, with the own games by result, as counted" test -n "$want" -a "$got_json" = "$want"

# A PGN file alone (no database): the records' Termination and moves give the same table.
run export --db t.db --run 1 --format pgn --out t.pgn
expect_rc 0
run rate --pgn t.pgn
expect_rc 0
check "rate --pgn FILE: the same table from the file's records" test "$(table "$out")" = "$want_table"

# The run's report has the same table (report.md, and index.html's section).
run report --db t.db --run 1 --out rep
expect_rc 0
got_report=$(awk -F' *[|] *' '/^### Each player.s score by end/ {on = 1} on && /^$/ && rows {exit}
  on && /^[|] [^-]/ && $2 != "player" {rows = 1; print $2, $3, $5, $6, $7, $10}' rep/report.md | sort)
check "report: each player's score by end, as counted" test -n "$want" -a "$got_report" = "$want_table"
check "... in index.html too" grep -q 'id="score-by-end"' rep/index.html

# A run of one end only, and --variant that keeps no game: the table is there, or not at all.
run rate --db t.db --variant abapa
expect_rc 0
check "rate --variant with no game of it: no table" bash -c "! grep -q '^Score by end' <<<'$out'"

echo "$checks runs, $fails failures"
[ "$fails" -eq 0 ]
