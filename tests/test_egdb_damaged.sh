#!/usr/bin/env bash
# test_egdb_damaged.sh: end to end: a table damaged in place (one byte flipped inside a value
# table, the size and the header intact) is found before it gives a value, whatever reads it
# (issue 26 point 16): minimax and mcts with egdb=DIR or egdb=auto refuse to start in oware
# match and oware uci, perfect loses its game, oware analyse stops, each naming the file.
# Usage: bash test_egdb_damaged.sh OWARE_BINARY TESTS_DATA_DIR
set -u
OWARE=${1:?usage: test_egdb_damaged.sh OWARE_BINARY DATA_DIR}
checks=0
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp" || exit 1
has() { grep -q -- "$1" <<<"$2"; }

run egdb build --seeds 8 --dir eg --quiet
expect_rc 0
# A game and a run from endings of 8 seeds, played before the damage, for the analysis.
printf '%s\n' 0-1-0-2-0-1-1-0-2-0-0-1-20-20-S 1-0-1-0-1-1-0-2-0-1-0-1-18-22-S >ops.txt
run tournament --players 'random;greedy' --openings file:ops.txt --rounds 1 --db t.db --quiet --threads 1
expect_rc 0

# One byte of n07's upper table flipped in place: the file keeps its size and header.
table=eg/abapa/n07.egdb
cp "$table" n07.keep
python3 - "$table" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    at = 128 + 31824 + 1000  # the header, the lower table (31,824 positions), into the upper
    f.seek(at)
    b = f.read(1)[0]
    f.seek(at)
    f.write(bytes([b ^ 0x01]))
PY
check "the damaged table keeps its size" test "$(stat -c %s "$table")" = "$(stat -c %s n07.keep)"
named="eg/abapa/n07.egdb: checksum mismatch"

for p in minimax:depth=2,egdb=eg mcts:playouts=100,egdb=eg; do
  run match --south "$p" --north random --games 1
  check "match, $p: no game is played with the damaged table" bash -c "[ $rc -ne 0 ] && ! grep -q '^game 1' <<<'$out'"
  check "match, $p: the error names the file and the fault" has "$named" "$err"
done
run match --south perfect:egdb=eg --north random --games 1
check "match, perfect: it loses its game on the error, naming the file" \
  has "forfeit-error, 0 plies: perfect: cannot use the endgame tables in eg: .*$named" "$out"

# egdb=auto (the default) with the damaged table in the default folder.
mkdir -p cache/oware
cp -r eg cache/oware/egdb
run match --south minimax:depth=2 --north random --games 1
check "match, egdb=auto: refused, naming the file" bash -c "[ $rc -ne 0 ] && grep -q 'egdb=auto: .*abapa/n07.egdb: checksum mismatch' <<<'$err'"
rm -rf cache/oware/egdb

# oware uci: the player of the command line, and one set by setoption.
uci() { # uci SPEC: the session's output in out
  out=$(printf 'uci\nisready\nposition fen 2-1-0-1-0-1-1-0-1-0-0-1-20-20-S\ngo depth 2\nisready\nquit\n' |
    timeout 60 "$OWARE" uci --player "$1" 2>&1)
  rc=$?
}
uci minimax:depth=2,egdb=eg
check "uci, minimax: refused, naming the file" bash -c "[ $rc -ne 0 ] && grep -q '$named' <<<'$out' && ! grep -q '^bestmove [A-F]' <<<'$out'"
uci perfect:egdb=eg
check "uci, perfect: an error naming the file, no move" bash -c "grep -q 'info string error: .*$named' <<<'$out' && grep -q '^bestmove 0000' <<<'$out'"
out=$(printf 'uci\nsetoption name egdb value eg\nposition fen 2-1-0-1-0-1-1-0-1-0-0-1-20-20-S\ngo depth 2\nisready\nquit\n' |
  timeout 60 "$OWARE" uci --player minimax:depth=2,egdb=off 2>&1)
check "uci, setoption egdb: an error naming the file, the player kept" \
  bash -c "grep -q 'info string error: .*$named' <<<'$out' && grep -q '^bestmove [A-F]' <<<'$out'"

# oware analyse reads the same tables.
run analyse --run 1 --db t.db --egdb-dir eg
check "analyse: refused, naming the file" bash -c "[ $rc -ne 0 ] && grep -q '$named' <<<'$err'"

# The byte put back: the same commands play.
cp n07.keep "$table"
run match --south minimax:depth=2,egdb=eg --north random --games 1
expect_rc 0
check "the table put back: the game is played" has '^game 1' "$out"
uci perfect:egdb=eg
check "the table put back: uci's perfect moves" grep -q '^bestmove [A-F]' <<<"$out"

echo "$checks checks run by expect_*, $fails failures"
[ "$fails" -eq 0 ]
