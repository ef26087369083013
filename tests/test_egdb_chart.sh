#!/usr/bin/env bash
# test_egdb_chart.sh: end to end: `oware egdb stats --chart` on small tables: the data file, a valid PNG and SVG, and the errors.
set -u
oware=$1 # $2: tests/data
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
db=$tmp/db
for v in abapa grandslam-forbidden grandslam-all; do
  "$oware" egdb build --variant $v --seeds 8 --dir "$db" --quiet >/dev/null 2>&1
  check "tables of $v to 8 seeds" test $? = 0
done
"$oware" egdb build --variant awari --seeds 6 --dir "$db" --quiet >/dev/null 2>&1
check "tables of awari to 6 seeds" test $? = 0

stats() { # stats ARGS...: runs oware egdb stats on the tables, rc in $rc
  "$oware" egdb stats --dir "$db" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}
has() { grep -q -- "$1" "$2"; }

# Four variants, the grand-slam rules side by side and awari with fewer tables.
stats --variant abapa --variant grandslam-forbidden --variant grandslam-all --variant awari \
  --chart "$tmp/c"
check "stats --chart exits 0" test $rc = 0
check "the table is printed" has '^grandslam-all  *8 ' "$tmp/out"
check "the chart is named" has "^chart: $tmp/c.png, $tmp/c.svg" "$tmp/out"
check "c.png is a 1000x720 PNG" test "$(png_size "$tmp/c.png")" = 1000x720
check "c.svg is well-formed XML" xmllint --noout "$tmp/c.svg"
check "c.svg is an SVG" has '<svg' "$tmp/c.svg"
check "c.dat names each variant five times" \
  test "$(grep -o '"grandslam-forbidden"' "$tmp/c.dat" | wc -l)" = 5
check "c.dat has a line for n = 1..8" test "$(grep -c '^[0-9]' "$tmp/c.dat")" = 8
check "c.dat: 21 columns a line" \
  test "$(awk '/^[0-9]/ && NF != 21' "$tmp/c.dat" | wc -l)" = 0
check "c.dat: awari has no table of 7 or 8 seeds (NaN)" \
  test "$(awk '$1 >= 7 && $17 == "NaN"' "$tmp/c.dat" | wc -l)" = 2
# abapa, 8 seeds: won + drawn + lost + open = 100, as in the printed table.
check "c.dat: the shares of abapa at 8 seeds add up to 100" \
  awk '$1 == 8 { s = $2 + $3 + $4 + $5; exit !(s > 99.99 && s < 100.01) }' "$tmp/c.dat"
won=$(awk '$1 == "abapa" && $2 == 8 { print $4 }' "$tmp/out")
check "c.dat: abapa's won share at 8 seeds is the table's ($won)" \
  awk -v w="$won" '$1 == 8 { exit !(sprintf("%.2f", $2) == w) }' "$tmp/c.dat"
check "no temporary image is left" test -z "$(ls "$tmp" | grep tmp)"

# --markdown: stdout holds the table only; the chart line goes to stderr.
stats --variant abapa --markdown --chart "$tmp/m"
check "--markdown --chart exits 0" test $rc = 0
check "--markdown: the chart line on stderr" has '^chart: ' "$tmp/err"
check "--markdown: stdout is the table" test "$(grep -vc '^|' "$tmp/out")" = 0
check "m.png is a PNG" test "$(png_size "$tmp/m.png")" = 1000x720

# Errors: a folder that does not exist, no stem, missing tables, a variant the
# tables cannot hold; nothing is drawn for them.
stats --variant abapa --chart "$tmp/none/c"
check "--chart into a missing folder: exit 2" test $rc = 2
check "--chart into a missing folder: says so" has "chart.*none" "$tmp/err"
check "--chart into a missing folder: nothing printed" test ! -s "$tmp/out"
stats --variant abapa --chart ''
check "--chart '': exit 2" test $rc = 2
mkdir "$tmp/cf"
stats --variant abapa --chart "$tmp/cf/"
check "--chart DIR/: exit 2, a stem asked for, no hidden .dat written" \
  bash -c "test $rc = 2 && grep -q 'give a file stem' '$tmp/err' && test -z \"\$(ls -A '$tmp/cf')\""
stats --variant abapa --variant oware-no-such --chart "$tmp/bad"
check "an unknown variant: exit 2" test $rc = 2
stats --variant abapa --variant grandslam-win --chart "$tmp/bad"
check "grandslam-win: exit 2" test $rc = 2
check "grandslam-win: not supported" has "not supported" "$tmp/err"
stats --variant abapa --variant grandslam-all --chart "$tmp/bad" --dir "$tmp/empty"
check "no tables: exit 1" test $rc = 1
check "no tables: says so" has "no endgame tables" "$tmp/err"
check "no chart for the errors" test -z "$(ls "$tmp" | grep '^bad')"

# gnuplot missing: the table and the data file, the images skipped, exit 0.
PATH=/nonexistent "$oware" egdb stats --dir "$db" --chart "$tmp/g" >"$tmp/out" 2>"$tmp/err"
check "without gnuplot: exit 0" test $? = 0
check "without gnuplot: says so" has "gnuplot is not installed.*wrote $tmp/g.dat only" "$tmp/err"
check "without gnuplot: the data file" test -s "$tmp/g.dat"
check "without gnuplot: no image" test ! -e "$tmp/g.png"
# A script that fails: exit 1 with gnuplot's message; the stale image is gone.
mkdir -p "$tmp/scripts"
echo 'plot undefined_variable_here' >"$tmp/scripts/egdb.gp"
echo stale >"$tmp/c.png"
OWARE_SCRIPTS=$tmp/scripts "$oware" egdb stats --dir "$db" --chart "$tmp/c" >"$tmp/out" 2>"$tmp/err"
check "a failing script: exit 1" test $? = 1
check "a failing script: gnuplot's message" has "chart: gnuplot exited with status" "$tmp/err"
check "a failing script: no stale image" test ! -e "$tmp/c.png"
check "a failing script: no temporary image" test -z "$(ls "$tmp" | grep tmp)"

[ "$fails" = 0 ] && echo "all egdb chart checks passed"
exit "$fails"
