#!/usr/bin/env bash
# test_egdb_openings.sh: scripts/egdb_openings.sh end to end: with its default players (whose specs have commas, which the CSV export quotes and a cut used to split: the script stopped at its first replay), a few games give an openings file of positions in LO..HI seeds that a tournament reads.
# Usage: test_egdb_openings.sh OWARE SCRIPTS_DIR
set -u
oware=$(realpath "$1")
script=$(realpath "$2")/egdb_openings.sh
fails=0
. "$(dirname "$0")/check.sh"
check_tmp
cd "$tmp" || exit 1

bash "$script" "$oware" op.txt 8 7 13 20 >log.txt 2>&1
check "exits 0" test $? -eq 0
cat log.txt
n=$(grep -vc '^#' op.txt 2>/dev/null)
check "some positions (${n:-0})" test "${n:-0}" -ge 1
# Every position: 15 fields, LO..HI seeds on the board, 48 in all.
check "every position within 13..20 seeds, 48 in all" awk -F- '!/^#/ {
    if (NF != 15) exit 1
    n = 0; for (i = 1; i <= 12; i++) n += $i
    if (n < 13 || n > 20 || n + $13 + $14 != 48) exit 1 } ' op.txt
check "the log names the count" grep -q "op.txt: $n positions from 8 games" log.txt
"$oware" tournament --players "random;greedy" --openings file:op.txt --format games:$((2 * n)) \
  --db t.db --quiet --seed 3 \
  --threads 1 >/dev/null 2>&1
check "a tournament plays them" test "$(sqlite3 t.db 'SELECT count(*) FROM games')" -eq $((2 * n))
exit $((fails > 0))
