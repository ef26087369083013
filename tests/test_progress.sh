#!/usr/bin/env bash
# test_progress.sh: end to end: the progress line (cli/progress.c) on a pseudo-terminal (script from bsdutils): tune spsa, study, calibrate, tournament, book build and egdb build show done/total, the rate and the time left, and clear it; without a terminal, or with --quiet, no progress line (egdb build: a plain line now and then, no carriage return).
set -u
oware=$1 # $2: tests/data
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
command -v script >/dev/null || { echo "script (bsdutils) is missing: skipped"; exit 77; }
cd "$tmp" || exit 1

# on_tty OUT COMMAND...: runs COMMAND on a pseudo-terminal (stdout and
# stderr both to it), what the terminal got in OUT.
on_tty() {
  local out=$1
  shift
  script -qfec "$(printf '%q ' "$@")" /dev/null >"$out" 2>&1 </dev/null
}
# has OUT ERE: the terminal output holds a match (carriage returns as line ends).
has() { tr '\r' '\n' <"$1" | grep -aEq -- "$2"; }
# A progress line: "LABEL ...: DONE/TOTAL games, RATE games/s, TIME left".
left='[0-9]+/[0-9]+ games, [0-9.]+ games/s, [0-9hms]+ left'
clear=$'\r\033[K'

spsa=("$oware" tune spsa --player minimax:depth=2 --iterations 6 --pairs 4 --threads 1)
on_tty spsa.tty "${spsa[@]}" --db spsa.db --out w1.txt
check "tune spsa on a terminal: the iteration of N and the time left" has spsa.tty "^spsa iteration [0-9]+/6.*: $left"
check "tune spsa on a terminal: the line is rewritten in place" grep -aq $'\r''spsa iteration' spsa.tty
check "tune spsa on a terminal: the line is cleared at the end" grep -aqF "$clear" spsa.tty
check "tune spsa on a terminal: the results are still printed" grep -aq 'tuned: store=' spsa.tty
"${spsa[@]}" --db spsa2.db --out w2.txt >spsa.out 2>spsa.err
check "tune spsa without a terminal: no progress line on stderr" \
  test -z "$(grep -a -e $'\r' -e ' left' -e $'\033' spsa.err)"
check "tune spsa without a terminal: the same weights" cmp -s w1.txt w2.txt
on_tty quiet.tty "${spsa[@]}" --db spsa3.db --out w3.txt --quiet
check "tune spsa --quiet on a terminal: no progress line" test -z "$(grep -a -e ' left' -e $'\033' quiet.tty)"

on_tty texel.tty "$oware" tune texel --player minimax:depth=1 --games 40 --threads 1 --db texel.db --out w4.txt
check "tune texel on a terminal: the self-play's games and the time left" has texel.tty "^self-play: $left"

study=("$oware" study --players 'random;greedy' --variants 'abapa;grandslam-forbidden' --games 60
  --threads 1 --no-charts --bootstrap 20)
on_tty study.tty "${study[@]}" --db v.db
check "study on a terminal: the games played and the time left" has study.tty "^played: $left"
check "study on a terminal: the line is cleared before the standings" \
  grep -aqF "${clear}Run 1 (variants, finished)" study.tty
"${study[@]}" --db v2.db >study.out 2>study.err
check "study without a terminal: no progress line on stderr" \
  test -z "$(grep -a -e $'\r' -e ' left' -e $'\033' study.err)"

on_tty tour.tty "$oware" tournament --players 'random;greedy' --format games:40 --threads 1 --db t.db
check "tournament on a terminal: the games played and the time left" has tour.tty "^played: $left"

on_tty cal.tty "$oware" calibrate --base mcts --knob playouts --range 4:100 --log \
  --levels 'easy=-50;hard=100' --anchor greedy=0 --games 4 --max-games 8 --threads 1 --out lv.txt
check "calibrate on a terminal: the reference pool's games and the time left" has cal.tty "^reference pool: $left"
check "calibrate on a terminal: the level being searched" has cal.tty "^search level (easy|hard): [0-9]+ games"
check "calibrate on a terminal: the verification's games and the time left" has cal.tty "^verification: $left"

on_tty book.tty "$oware" book build --plies 3 --depth 2 --out b.bin
check "book build on a terminal: the positions searched and the time left" \
  has book.tty "^searched: [0-9]+/[0-9]+ positions, [0-9.]+ positions/s, [0-9hms]+ left"
check "book build on a terminal: the line is cleared before the summary" \
  grep -aqF "${clear}book b.bin: " book.tty
"$oware" book build --plies 3 --depth 2 --out b2.bin >book.out 2>book.err
check "book build without a terminal: no progress line on stderr" test ! -s book.err
check "book build without a terminal: the same book" cmp -s b.bin b2.bin

on_tty egdb.tty "$oware" egdb build --seeds 8 --threads 1 --dir egdb1
check "egdb build on a terminal: the table, the phase and the positions of all tables" \
  has egdb.tty "^egdb build n=[0-9]+/8 [a-z]+.*: [0-9]+/[0-9]+ positions"
check "egdb build on a terminal: the line is cleared before the summary" \
  grep -aqF "${clear}egdb abapa seeds 0..8" egdb.tty
"$oware" egdb build --seeds 8 --threads 1 --dir egdb2 2>egdb.err | cat >egdb.out
check "egdb build into a pipe: no carriage return or escape on stderr" \
  test -z "$(grep -a -e $'\r' -e $'\033' egdb.err)"
check "egdb build into a pipe: the summary" grep -q '^egdb abapa seeds 0..8' egdb.out
"$oware" egdb build --seeds 8 --threads 1 --dir egdb3 --quiet 2>egdb.quiet | cat >/dev/null
check "egdb build --quiet: nothing on stderr" test ! -s egdb.quiet

echo "$fails failure(s)"
[ "$fails" = 0 ]
