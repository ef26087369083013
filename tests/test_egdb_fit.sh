#!/usr/bin/env bash
# test_egdb_fit.sh: end to end: `oware egdb fit` on small tables and a small run: the fit lowers the evaluation's error, its file loads as minimax's ending=, and the errors.
set -u
OWARE=$1 # $2: tests/data
fails=0
checks=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
"$OWARE" egdb build --variant abapa --seeds 8 --dir "$tmp/db" --quiet >/dev/null 2>&1
check "tables of abapa to 8 seeds" test $? = 0
# eval=net2: the games its ranges were set on (net3's leave under 100 positions of 1 to 4 seeds).
"$OWARE" tournament --players "minimax:depth=2,noise=1,eval=net2,name=a;minimax:depth=3,noise=1,eval=net2,name=b" \
  --format games:60 --openings random:6 --db "$tmp/g.db" --threads 2 >/dev/null 2>&1
check "a run of 60 games" test $? = 0

run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --out "$tmp/end.txt"
expect_rc 0
check "the positions are counted" grep -q "^[0-9]* positions with 1 to 8 seeds on the board, from 60 games of 1 runs" "$tmp/out"
check "two ranges of 4 seeds" test "$(grep -c '^[15]\.\.[48] ' "$tmp/out")" = 2
# The fit can only lower the error (the zero correction is one it could
# choose), and on these positions it must lower it.
check "the error falls in every range" awk '/^[0-9]+\.\.[0-9]+ / {
    split($4, e, "->"); split($5, r, "->"); n++
    if (!(e[2] + 0 < e[1] + 0 && r[2] + 0 > r[1] + 0)) bad = 1 }
  END { exit !(n == 2 && !bad) }' "$tmp/out"
check "the file is the table printed" diff <(grep -v '^[0-9]*\.\.\|positions with\|^seeds  ' "$tmp/out") "$tmp/end.txt"
check "the file has two ranges" test "$(grep -c '^[0-9]' "$tmp/end.txt")" = 2

# The file is what minimax:ending= reads; a game with it is played.
run match --south "minimax:depth=3,ending=$tmp/end.txt" --north greedy --seed 3
expect_rc 0
run match --south "minimax:depth=3,ending=off" --north greedy --seed 3
expect_rc 0
printf '1 4 0 1 2 3\n' >"$tmp/bad.txt"
run match --south "minimax:depth=3,ending=$tmp/bad.txt" --north greedy
expect_rc 2
check "a bad endings file names its line" grep -q "bad.txt: endings line 1: 6 columns, not 12" "$tmp/err"
run match --south "minimax:depth=3,ending=$tmp/none.txt" --north greedy
check "a missing endings file is an error" grep -q "endings: cannot open '$tmp/none.txt'" "$tmp/err"

# --width and --seeds
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --seeds 7 --width 6
expect_rc 0
check "--seeds 7 --width 6: ranges 1..6 and 7..7" test "$(grep -c '^1\.\.6 \|^7\.\.7 ' "$tmp/out")" = 2

# --cycle-label game: a cycle-sensitive position's value is what its game gave
# the side to move, within the tables' bounds (issue 22 point 3): other values
# to fit than the bounds' mean, so other errors before the fit and another table.
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --out "$tmp/mean.txt"
cp "$tmp/out" "$tmp/mean.out"
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --cycle-label game --out "$tmp/game.txt"
expect_rc 0
check "--cycle-label game: the same positions" diff <(grep "positions with" "$tmp/mean.out") <(grep "positions with" "$tmp/out")
check "... other errors before the fit (other values) in every range" bash -c \
  "paste <(awk '/^[0-9]+\.\./ {split(\$4, e, \"->\"); print e[1]}' '$tmp/mean.out') \
         <(awk '/^[0-9]+\.\./ {split(\$4, e, \"->\"); print e[1]}' '$tmp/out') | awk '\$1 == \$2 {bad = 1} END {exit bad || NR != 2}'"
check "... another table, which says how it was fitted" bash -c \
  "! cmp -s '$tmp/mean.txt' '$tmp/game.txt' && grep -q -- '--cycle-label game' '$tmp/game.txt'"
run match --south "minimax:depth=3,ending=$tmp/game.txt" --north greedy --seed 3
expect_rc 0
# --cycle-label row: the side to move's own row, within the bounds (what a
# repetition there gives it under cycle=own): another table again.
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --cycle-label row --out "$tmp/row.txt"
expect_rc 0
check "--cycle-label row: another table than mean's and game's" bash -c \
  "! cmp -s '$tmp/mean.txt' '$tmp/row.txt' && ! cmp -s '$tmp/game.txt' '$tmp/row.txt' && grep -q -- '--cycle-label row' '$tmp/row.txt'"
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --cycle-label median
expect_rc 2
check "a bad --cycle-label is named" grep -q "cycle-label" "$tmp/err"

# Errors
run egdb fit --dir "$tmp/db"
expect_rc 2
check "no --from-db" grep -q "missing --from-db" "$tmp/err"
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/nothing"
expect_rc 2
check "no tables: named" grep -q "the endgame tables of abapa.* in $tmp/nothing" "$tmp/err"
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --seeds 12
expect_rc 2
check "tables too small: named" grep -q "stop at 8 seeds, not 12" "$tmp/err"
run egdb fit --from-db "$tmp/none.db" --dir "$tmp/db"
expect_rc 2
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --variant awari
expect_rc 2
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --width 1
expect_rc 2
check "too few positions in a range: said" grep -q "too few for a fit" "$tmp/err"
run egdb fit --from-db "$tmp/g.db" --dir "$tmp/db" --out "$tmp/no/such/dir/x.txt"
expect_rc 1
check "an unwritable --out is refused before the work" test ! -e "$tmp/no"

echo "$checks runs, $fails failures"
[ "$fails" -eq 0 ]
