#!/usr/bin/env bash
# test_pgn.sh: end to end: `oware export --format pgn` read back by an independent reader, and `oware rate --pgn/--ogn` rating as the database does.
set -u
oware=$1 # $2: tests/data
here=$(cd "$(dirname "$0")" && pwd)
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
# Ratings printed without their first line (which names what was rated).
body() { tail -n +2 "$1"; }

# Openings: one where North moves first, so that movetext starts "1... x".
printf '4-4-4-4-4-0-5-5-5-5-4-4-0-0-N\n5-1-5-5-5-5-4-4-4-0-5-5-0-0-S\n' >"$tmp/open.txt"
"$oware" tournament --players 'random;greedy;minimax:depth=2,name=mm "two"' --format games:4 \
  --openings "file:$tmp/open.txt" --seed 7 --threads 2 --db "$tmp/t.db" --quiet --name 'pgn run' \
  >"$tmp/t.out" 2>&1
check "the fixture tournament runs" test $? = 0
"$oware" tournament --players 'greedy;mcts:playouts=40' --format games:6 --rounds 2 --variant awari \
  --seed 9 --threads 2 --db "$tmp/t.db" --quiet >"$tmp/t2.out" 2>&1
check "the two-player awari tournament runs" test $? = 0

for run in 1 2; do
  "$oware" export --run $run --db "$tmp/t.db" --format pgn --out "$tmp/r$run.pgn" 2>"$tmp/e.err"
  check "export --format pgn run $run exits 0" test $? = 0
  "$oware" export --run $run --db "$tmp/t.db" --format csv --out "$tmp/r$run.csv"
  "$oware" export --run $run --db "$tmp/t.db" --format ogn --out "$tmp/r$run.ogn"
  python3 "$here/pgn_read.py" "$tmp/r$run.pgn" "$tmp/r$run.csv" >"$tmp/p.out" 2>&1
  check "run $run: an independent reader reads every record back as stored" test $? = 0
  check "run $run: every line of the PGN is under 80 characters, the result token counted" \
    test "$(awk 'length > 79' "$tmp/r$run.pgn" | wc -l)" = 0
  cat "$tmp/p.out"
  "$oware" rate --db "$tmp/t.db" --run $run >"$tmp/db$run.txt" 2>&1
  "$oware" rate --pgn "$tmp/r$run.pgn" >"$tmp/pgn$run.txt" 2>&1
  check "run $run: rate --pgn exits 0" test $? = 0
  check "run $run: rate --pgn gives the database's ratings" \
    cmp -s <(body "$tmp/db$run.txt") <(body "$tmp/pgn$run.txt")
  "$oware" rate --ogn "$tmp/r$run.ogn" >"$tmp/ogn$run.txt" 2>&1
  check "run $run: rate --ogn gives the database's ratings" \
    cmp -s <(body "$tmp/db$run.txt") <(body "$tmp/ogn$run.txt")
done
grep -q '^1\.\.\. [a-f]' "$tmp/r1.pgn"
check "a game North starts begins '1... x'" test $? = 0
grep -q '^\[Score "[0-9]*\.5-' "$tmp/r2.pgn"
check "awari's split cycles give half-seed scores in Score" test $? = 0
grep -q '\[White "mm \\"two\\""\]' "$tmp/r1.pgn"
check "a quote in a name is escaped" test $? = 0

# Into a database as an imported run: rated as the original run.
cp "$tmp/t.db" "$tmp/i.db"
"$oware" rate --pgn "$tmp/r2.pgn" --db "$tmp/i.db" --name from-pgn >"$tmp/imp.txt" 2>&1
check "rate --pgn --db exits 0" test $? = 0
check "it says which run it stored" grep -q 'as run 3 (imported)' "$tmp/imp.txt"
check "the imported run rates as the original" cmp -s <(body "$tmp/db2.txt") <(tail -n +3 "$tmp/imp.txt")
"$oware" rate --db "$tmp/i.db" --run 3 >"$tmp/imp3.txt" 2>&1
check "rate --run of the imported run gives the same" cmp -s <(body "$tmp/db2.txt") <(body "$tmp/imp3.txt")
"$oware" runs --db "$tmp/i.db" >"$tmp/runs.txt" 2>&1
check "runs lists the imported run with its kind" grep -q 'imported' "$tmp/runs.txt"
"$oware" export --run 3 --db "$tmp/i.db" --format csv --out "$tmp/i3.csv"
check "the imported games are the same games" \
  cmp -s <(cut -d, -f1-12 "$tmp/r2.csv") <(cut -d, -f1-12 "$tmp/i3.csv")

# Games from elsewhere: no Round tags, pairs by colour swaps, comments, NAGs.
cat >"$tmp/else.pgn" <<'PGN'
[Event "club"]
[White "ann"]
[Black "bob"]
[Result "1-0"]

1. F {a comment} d 2. E $1 e 3. D ; to the end of the line
f 4. C 1-0
PGN
"$oware" rate --pgn "$tmp/else.pgn" >"$tmp/else.out" 2>&1
check "a game whose moves do not end it is rated by its Result" grep -q 'ann' "$tmp/else.out"
cat >"$tmp/two.pgn" <<'PGN'
[White "ann"] [Black "bob"] [Result "1-0"]
1. F d 1-0
[White "bob"] [Black "ann"] [Result "1/2-1/2"]
1. F d 1/2-1/2
[White "ann"] [Black "bob"] [Result "0-1"] 0-1
PGN
"$oware" rate --pgn "$tmp/two.pgn" >"$tmp/two.out" 2>&1
check "tags on one line, records without moves" grep -q 'Games: 3, Wins: 1, Losses: 1, Draws: 1' "$tmp/two.out"
check "two records that swap colours are a pair" grep -q 'Ptnml(0-2): \[0, 0, 0, 1, 0\]' "$tmp/two.out"
"$oware" rate --pgn "$tmp/two.pgn" --db "$tmp/two.db" >"$tmp/two2.out" 2>&1
check "stored, they rate the same" cmp -s <(body "$tmp/two.out") <(tail -n +3 "$tmp/two2.out")

# A file that starts with a byte-order mark (issue 26 point 14) reads as
# the same file without it.
printf '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. F 1-0\n' >"$tmp/nobom.pgn"
{ printf '\xef\xbb\xbf'; cat "$tmp/nobom.pgn"; } >"$tmp/bom.pgn"
"$oware" rate --pgn "$tmp/bom.pgn" >"$tmp/bom.out" 2>&1
check "a PGN file with a byte-order mark is read" test $? = 0
"$oware" rate --pgn "$tmp/nobom.pgn" >"$tmp/nobom.out" 2>&1
check "... and rates as the same file without it" cmp -s <(body "$tmp/bom.out") <(body "$tmp/nobom.out")
# A lopsided pool (issue 26 point 4): rate names the groups that results
# connect only one way, the pool Ordo refuses.
printf '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. F 1-0\n\n[White "b"]\n[Black "c"]\n[Result "1-0"]\n\n1. F 1-0\n' >"$tmp/chain.pgn"
"$oware" rate --pgn "$tmp/chain.pgn" >"$tmp/chain.out" 2>&1
check "rate names the groups of a pool not connected both ways" \
  grep -q "Not connected by results both ways: 3 groups.*: a | b | c\$" "$tmp/chain.out"
printf '[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. F 1-0\n\n[White "b"]\n[Black "a"]\n[Result "1-0"]\n\n1. F 1-0\n' >"$tmp/both.pgn"
"$oware" rate --pgn "$tmp/both.pgn" >"$tmp/both.out" 2>&1
check "... and says nothing of a pool connected both ways" bash -c "! grep -q 'Not connected' '$tmp/both.out'"
# The middle of the chain is rated 0 up to rounding (a tiny negative here):
# printed 0.0, never -0.0, in the table, the match block and the report.
check "an Elo that rounds to zero is printed 0.0, not -0.0" grep -qE '^ +2  b +0\.0\* ' "$tmp/chain.out"
"$oware" rate --pgn "$tmp/both.pgn" >"$tmp/both.out" 2>&1
check "... and 0.00 in the match block (Elo, trinomial Elo, nElo)" \
  bash -c "grep -q '^Elo (trinomial): 0.00 ' '$tmp/both.out' && ! grep -q -- '-0\.00 ' '$tmp/both.out'"
"$oware" rate --pgn "$tmp/chain.pgn" --db "$tmp/chain.db" >/dev/null 2>&1
"$oware" report --db "$tmp/chain.db" --run 1 --out "$tmp/chain-report" >/dev/null 2>&1
check "... and +0 / +0.0 in the report's tables" \
  bash -c "grep -q '| b | +0.0 (bound) |' '$tmp/chain-report/report.md' && ! grep -qE -- '-0(\.0)?( |$)' '$tmp/chain-report/report.md'"
# The same file imported twice into one database (issue 26 point 7): the
# second import is refused, naming the run that has it, unless --again.
"$oware" rate --pgn "$tmp/nobom.pgn" --db "$tmp/twice.db" >/dev/null 2>&1
check "a file imported once is stored" test $? = 0
"$oware" rate --pgn "$tmp/nobom.pgn" --db "$tmp/twice.db" >/dev/null 2>"$tmp/twice.err"
check "the same file again is refused (exit 2)" test $? = 2
check "... naming the run that has it" grep -q "is already in .* as run 1 (the same content): give --again" "$tmp/twice.err"
"$oware" rate --pgn "$tmp/bom.pgn" --db "$tmp/twice.db" >/dev/null 2>&1
check "... another content (a byte-order mark more) is not the same file" test $? = 0
"$oware" rate --pgn "$tmp/nobom.pgn" --db "$tmp/twice.db" --again >/dev/null 2>&1
check "--again imports it once more" test $? = 0
check "... so the database has three imported runs" \
  test "$("$oware" runs --db "$tmp/twice.db" | grep -c imported)" = 3
# An empty file (or one with no finished game) is not imported as a run
# of 0 games (issue 26 point 13): exit 2, and no database is made.
: >"$tmp/empty.pgn"
"$oware" rate --pgn "$tmp/empty.pgn" --db "$tmp/empty.db" >"$tmp/empty.out" 2>"$tmp/empty.err"
check "importing an empty PGN exits 2" test $? = 2
check "... says there is nothing to import" grep -q "no game with a result: nothing to import" "$tmp/empty.err"
check "... and makes no database" test ! -e "$tmp/empty.db"

# Bad input: exit 2 and a message naming the record, its line and the fault.
bad() { # bad NAME EXPECTED-TEXT PGN-TEXT
  printf '%s\n' "$3" >"$tmp/bad.pgn"
  "$oware" rate --pgn "$tmp/bad.pgn" >"$tmp/bad.out" 2>"$tmp/bad.err"
  local rc=$?
  check "bad input ($1) exits 2" test $rc = 2
  check "bad input ($1) says: $2" grep -qF "$2" "$tmp/bad.err"
}
bad "illegal move" "record 2 (line 5): move 3 (F) is not legal" \
  $'[White "a"]\n[Black "b"]\n[Result "*"]\n\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. F d 2. F e 1-0'
bad "cut short" "record 1 (line 1): the moves stop after ply 1, before the end the record states (Termination majority)" \
  $'[White "a"]\n[Black "b"]\n[Result "1-0"]\n[Termination "majority"]\n\n1. F 1-0'
bad "not a letter" "'x' is not a house letter" $'[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. F x 1-0'
bad "no Black" "the North player is not named" $'[White "a"]\n[Result "1-0"]\n\n1. F 1-0'
bad "a player on both sides" "record 2 (line 5): 'a' plays both sides (South and North)" \
  $'[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n[White "a"]\n[Black "a"]\n[Result "0-1"]\n\n1. F a'
bad "the only game a player against itself" "record 1 (line 1): 'a' plays both sides" \
  $'[South "a"]\n[North "a"]\n[Result "1-0"]\n\n1. F a'
# ... and with --db, refused before a database is made: no run that export
# and report could not read back (the store keeps a game between two players).
"$oware" rate --pgn "$tmp/bad.pgn" --db "$tmp/self.db" >/dev/null 2>"$tmp/bad.err"
check "a player on both sides with --db exits 2" test $? = 2
check "... and makes no database" test ! -e "$tmp/self.db"
bad "bad Result" "tag Result is 'won'" $'[White "a"]\n[Black "b"]\n[Result "won"]\n\n1. F *'
bad "Result against movetext" "tag Result says South wins, the movetext's result North wins" \
  $'[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. F 0-1'
bad "bad tag" "record 1 (line 2): a tag is not" $'[White "a"]\n[Black b]\n[Result "1-0"]'
bad "bad variant" "tag Variant" $'[White "a"]\n[Black "b"]\n[Variant "nosuch"]\n[Result "1-0"]\n1-0'
bad "unclosed comment" "'{' is never closed" $'[White "a"]\n[Black "b"]\n[Result "1-0"]\n1. F { open'
"$oware" rate --pgn "$tmp/none.pgn" >/dev/null 2>"$tmp/bad.err"
check "a missing file exits 2" test $? = 2
"$oware" rate --pgn "$tmp/two.pgn" --run 1 >/dev/null 2>"$tmp/bad.err"
check "--pgn with --run exits 2" test $? = 2
# --name and --again go with --pgn/--ogn: without a file they are refused,
# not ignored.
"$oware" rate --name x --db "$tmp/twice.db" >/dev/null 2>"$tmp/bad.err"
check "--name without --pgn exits 2" test $? = 2
check "... naming --name" grep -q "^oware rate: --name is for a file imported with --pgn/--ogn" "$tmp/bad.err"
"$oware" rate --again --db "$tmp/twice.db" >/dev/null 2>"$tmp/bad.err"
check "--again without --pgn exits 2" test $? = 2
check "... naming --again" grep -q "^oware rate: --again is for a file imported with --pgn/--ogn" "$tmp/bad.err"
# The imported run's name: not empty, not longer than a player's (127 bytes);
# refused before the database is made.
"$oware" rate --pgn "$tmp/two.pgn" --db "$tmp/named.db" --name '' >/dev/null 2>"$tmp/bad.err"
check "an empty --name exits 2" test $? = 2
check "... saying it is empty" grep -q "the run name (--name) is empty" "$tmp/bad.err"
"$oware" rate --pgn "$tmp/two.pgn" --db "$tmp/named2.db" --name "$(printf 'n%.0s' {1..128})" \
  >/dev/null 2>"$tmp/bad.err"
check "a --name of 128 bytes exits 2" test $? = 2
check "... saying how long it is" grep -q "is 128 bytes long; at most 127" "$tmp/bad.err"
check "... and no database is made" bash -c "test ! -e '$tmp/named.db' && test ! -e '$tmp/named2.db'"
"$oware" rate --pgn "$tmp/two.pgn" --db "$tmp/named3.db" --name "$(printf 'n%.0s' {1..127})" \
  >/dev/null 2>"$tmp/bad.err"
check "a --name of 127 bytes is taken" test $? = 0

echo "$fails failure(s)"
[ "$fails" = 0 ]
