#!/usr/bin/env bash
# test_report.sh: end to end: `oware chart` and `oware report` on a fixture run, bad input, and gnuplot missing from PATH.
set -u
oware=$1 # $2: tests/data
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
db=$tmp/t.db

"$oware" tournament --players 'random;greedy;minimax:depth=2,name=mm2' --format games:4 \
  --seed 3 --threads 2 --db "$db" --quiet --name 'cli <test>' >"$tmp/t.out" 2>&1
check "the fixture tournament runs" test $? = 0

# --- oware chart ---
"$oware" chart --run 1 --db "$db" --out "$tmp/c" >"$tmp/c.out" 2>"$tmp/c.err"; rc=$?
check "chart --kind all (default) exits 0" test $rc = 0
for k in elo matrix length ends; do
  check "chart $k.png is an 800x500 PNG" test "$(png_size "$tmp/c/$k.png")" = 800x500
  check "chart $k.svg is well-formed XML" xmllint --noout "$tmp/c/$k.svg"
  check "chart $k.dat is written" test -s "$tmp/c/$k.dat"
done
# The tournament may store a rating fit as it ends: the chart is drawn, or its absence said.
check "ratings over the run: drawn, or said why not" bash -c "grep -q 'chart ratings: $tmp/c/ratings.png' '$tmp/c.err' || grep -q 'chart ratings: nothing to draw: run 1 has no stored ratings' '$tmp/c.err'"
check "no tuning: said, not drawn" grep -q "chart tuning: nothing to draw: run 1 has no tuning iterations" "$tmp/c.err"
check "the made charts are listed" grep -q "chart elo: $tmp/c/elo.png, $tmp/c/elo.svg" "$tmp/c.err"

"$oware" chart --run 1 --db "$db" --kind tuning --out "$tmp/tu" >/dev/null 2>"$tmp/tu.err"; rc=$?
check "chart --kind tuning of a tournament exits 0" test $rc = 0
check "... and says that the run has no tuning iterations" grep -q "run 1 has no tuning iterations" "$tmp/tu.err"
check "... and draws nothing" test ! -e "$tmp/tu/tuning.png"

"$oware" chart --run 1 --db "$db" --kind elo,matrix --size 640x400 --out "$tmp/s" 2>/dev/null
check "--size 640x400 gives a 640x400 PNG" test "$(png_size "$tmp/s/elo.png")" = 640x400
check "--size 640x400 gives a 640x400 SVG" grep -q 'width="640" height="400"' "$tmp/s/matrix.svg"
check "only the kinds asked for" test ! -e "$tmp/s/length.png"

# Stored ratings over the run, through `oware rate` (which stores a fit).
if "$oware" rate --help >/dev/null 2>&1; then
  "$oware" rate --run 1 --db "$db" >"$tmp/rate.out" 2>&1
  check "oware rate stores a fit of run 1" test $? = 0
  "$oware" chart --run 1 --db "$db" --kind ratings --out "$tmp/r" 2>"$tmp/r.err"
  check "chart ratings from the stored fits" test "$(png_size "$tmp/r/ratings.png")" = 800x500
  check "chart ratings.svg is well-formed XML" xmllint --noout "$tmp/r/ratings.svg"
else
  echo "skip ratings chart through the CLI: there is no 'oware rate' (test_report covers the chart)"
fi

# The ladder without Elo (score % with Wilson intervals), straight from its script.
scripts=$(cd "$2/../../scripts" && pwd)
printf '# score ladder\n3 "random" 10.5 4.2 23.1 20 0\n2 "greedy" 48 30 66 20 0\n1 "x y" 91.5 78 97 20 0\n' >"$tmp/score.dat"
gnuplot -e "datafile='$tmp/score.dat'; outfile='$tmp/score.png'; metric='score'; title='score'" \
  "$scripts/elo.gp" 2>"$tmp/score.err"
check "elo.gp draws a score ladder (metric='score')" test "$(png_size "$tmp/score.png")" = 800x500

# --- bad input ---
"$oware" chart --run 1 --db "$db" --kind bogus >/dev/null 2>"$tmp/e1"; rc=$?
check "an unknown kind is bad input (2)" test $rc = 2
check "... named" grep -q "unknown chart kind 'bogus'" "$tmp/e1"
"$oware" chart --run 9 --db "$db" --out "$tmp/x" >/dev/null 2>"$tmp/e2"; rc=$?
check "an unknown run is bad input (2)" test $rc = 2
check "... named" grep -q "no run 9" "$tmp/e2"
"$oware" chart --db "$db" >/dev/null 2>"$tmp/e3"; rc=$?
check "no --run is bad input (2)" test $rc = 2
"$oware" report --run 1 --db "$tmp/none.db" >/dev/null 2>"$tmp/e4"; rc=$?
check "a missing database is an error" test $rc != 0
"$oware" chart --run 1 --db "$db" --size 10x10 >/dev/null 2>&1; rc=$?
check "a bad --size is bad input (2)" test $rc = 2
check "chart --help" bash -c "'$oware' chart --help | grep -q 'usage: oware chart'"
check "report --help" bash -c "'$oware' report --help | grep -q 'usage: oware report'"

# --- oware report, default folder results/run-N ---
(cd "$tmp" && "$oware" report --run 1 --db "$db" >"$tmp/rep.out" 2>"$tmp/rep.err"); rc=$?
check "report exits 0" test $rc = 0
check "report writes results/run-1/index.html" test -s "$tmp/results/run-1/index.html"
check "report writes report.md" test -s "$tmp/results/run-1/report.md"
check "report writes the games as OGN" grep -q '^\[Event ' "$tmp/results/run-1/run-1.ogn"
check "report says where the page is" grep -q "report: results/run-1/index.html" "$tmp/rep.err"
check "the run name is escaped" grep -q 'cli &lt;test&gt;' "$tmp/results/run-1/index.html"
# every href and src names a file of the folder
links_ok() {
  local dir=$1 f
  for f in $(grep -o -E '(href|src)="[^"#][^"]*"' "$dir/index.html" | sed -E 's/^[a-z]+="//; s/"$//'); do
    case $f in *:* | /*) echo "outside link $f"; return 1 ;; esac
    [ -f "$dir/$f" ] || { echo "missing $f"; return 1; }
  done
}
check "the report links only files that exist" links_ok "$tmp/results/run-1"
check "the report shows the charts" test "$(grep -c '<img src=' "$tmp/results/run-1/index.html")" -ge 4

# --- gnuplot missing: PATH without it ---
PATH=/nonexistent "$oware" chart --run 1 --db "$db" --out "$tmp/ng" >"$tmp/ng.out" 2>"$tmp/ng.err"; rc=$?
check "without gnuplot, chart exits 0" test $rc = 0
check "... with one clear message" test "$(grep -c 'gnuplot is not installed' "$tmp/ng.err")" = 1
check "... and nothing else" test "$(wc -l <"$tmp/ng.err")" = 1
check "... which names the package" grep -q 'gnuplot-nox' "$tmp/ng.err"
check "... no image" bash -c "! ls '$tmp/ng/'*.png >/dev/null 2>&1"
check "... the data files are there" test -s "$tmp/ng/elo.dat"
PATH=/nonexistent "$oware" report --run 1 --db "$db" --out "$tmp/ngr" >"$tmp/ngr.out" 2>"$tmp/ngr.err"; rc=$?
check "without gnuplot, report exits 0" test $rc = 0
check "... writes index.html" test -s "$tmp/ngr/index.html"
check "... which says there are no charts" grep -q 'gnuplot is not installed' "$tmp/ngr/index.html"
check "... and has no image" bash -c "! grep -q '<img' '$tmp/ngr/index.html'"
check "... one message" test "$(grep -c 'gnuplot is not installed' "$tmp/ngr.err")" = 1
check "... and the links still hold" links_ok "$tmp/ngr"

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
