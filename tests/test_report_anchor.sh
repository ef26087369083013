#!/usr/bin/env bash
# test_report_anchor.sh: end to end: one Elo scale throughout a report: after `oware rate --anchor greedy=0`, every fit of the ratings-over-the-run chart is on it (no jump at the last fit) and the ladder, the charts and the pages say "relative to greedy = 0"; `oware report --anchor` and `oware chart --anchor` choose another; without an anchor, "the field's mean".
set -u
oware=$1 # $2: tests/data
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1
db=$tmp/t.db

# Four players (greedy is not at the field's mean), 24 games: the tournament stores a fit
# about every tenth of the run and one at the end, all on the field's mean.
"$oware" tournament --players 'random;greedy;minimax:depth=2;minimax:depth=3' --rounds 2 \
  --seed 5 --threads 2 --db "$db" --quiet >"$tmp/t.out" 2>&1
check "the fixture tournament runs" test $? = 0

# block FILE PLAYER: the data lines of PLAYER's block of a ratings.dat.
block() { awk -v p="\"$2\"" '$2 == p && $1 == "\"games\"" {on = 1; next} NF == 0 {on = 0} on' "$1"; }
# all_at FILE PLAYER ELO: every fit of PLAYER's block has PLAYER at ELO, with no spread.
all_at() {
  local lines
  lines=$(block "$1" "$2")
  [ -n "$lines" ] && echo "$lines" | awk -v e="$3" '$2 + 0 != e || $3 + 0 != e || $4 + 0 != e {bad = 1} END {exit bad}'
}
# no_jump FILE PLAYER: the last two fits of PLAYER (the tournament's own at its end and the
# one of `oware rate`, of the same games) are the same point.
no_jump() {
  local last
  last=$(block "$1" "$2" | tail -n 2)
  [ "$(echo "$last" | wc -l)" = 2 ] && [ "$(echo "$last" | head -n 1)" = "$(echo "$last" | tail -n 1)" ]
}

# --- Before any anchor: the field's mean ---
"$oware" report --run 1 --db "$db" --out "$tmp/m" >/dev/null 2>&1
check "report without an anchor" test $? = 0
check "... the ladder's data says the field's mean" grep -q "relative to the field's mean" "$tmp/m/elo.dat"
check "... the ratings' data says the field's mean" grep -q "relative to the field's mean" "$tmp/m/ratings.dat"
check "... and the page" grep -q "relative to the field&#39;s mean" "$tmp/m/index.html"
check "... and report.md" grep -q "relative to the field's mean" "$tmp/m/report.md"

# --- oware rate --anchor greedy=0: the latest fit is anchored ---
"$oware" rate --run 1 --db "$db" --anchor greedy=0 >"$tmp/rate.out" 2>&1
check "oware rate --anchor greedy=0 stores a fit" test $? = 0
"$oware" report --run 1 --db "$db" --out "$tmp/a" >/dev/null 2>"$tmp/a.err"
check "report after rate --anchor" test $? = 0
for p in random greedy minimax:depth=2 minimax:depth=3; do
  check "ratings.dat: no jump at the last fit for $p" no_jump "$tmp/a/ratings.dat" "$p"
done
check "ratings.dat: greedy is 0 at every fit" all_at "$tmp/a/ratings.dat" greedy 0
check "ratings.dat: more than two fits" test "$(block "$tmp/a/ratings.dat" greedy | wc -l)" -gt 2
check "ratings.dat says relative to greedy = 0" grep -q "relative to greedy = 0" "$tmp/a/ratings.dat"
check "elo.dat says relative to greedy = 0" grep -q "relative to greedy = 0" "$tmp/a/elo.dat"
check "elo.dat: greedy at 0" grep -q '^[0-9]* "greedy" 0.00 0.00 0.00 ' "$tmp/a/elo.dat"
for f in index.html report.md elo.dat ratings.dat; do
  check "$f does not say the field's mean" bash -c "! grep -q 'field' '$tmp/a/$f'"
done
check "the page says relative to greedy = 0" grep -q "relative to greedy = 0" "$tmp/a/index.html"
check "report.md says relative to greedy = 0" grep -q "relative to greedy = 0" "$tmp/a/report.md"
if [ $have_gnuplot = 1 ]; then
  check "the ladder's axis says greedy = 0" grep -q "relative to greedy = 0" "$tmp/a/elo.svg"
  check "the ratings' axis says greedy = 0" grep -q "relative to greedy = 0" "$tmp/a/ratings.svg"
  check "the axes do not say the field's mean" bash -c "! grep -q 'field' '$tmp/a/elo.svg' '$tmp/a/ratings.svg'"
else
  echo "skip the charts' axis labels: gnuplot is not installed"
fi

# --- report --anchor: another scale for every fit, as `oware rate --anchor` takes it ---
"$oware" report --run 1 --db "$db" --anchor random=100 --out "$tmp/r" >/dev/null 2>&1
check "report --anchor random=100" test $? = 0
check "... random is 100 at every fit" all_at "$tmp/r/ratings.dat" random 100
check "... no jump at the last fit" no_jump "$tmp/r/ratings.dat" greedy
check "... the ladder has random at 100" grep -q '^[0-9]* "random" 100.00 100.00 100.00 ' "$tmp/r/elo.dat"
check "... the page says relative to random = 100" grep -q "relative to random = 100" "$tmp/r/index.html"
"$oware" chart --run 1 --db "$db" --kind ratings --anchor random=100 --out "$tmp/c" >/dev/null 2>&1
check "chart --anchor random=100: the same data" cmp -s "$tmp/c/ratings.dat" "$tmp/r/ratings.dat"

"$oware" report --run 1 --db "$db" --anchor nobody=0 --out "$tmp/x" >/dev/null 2>"$tmp/x.err"
check "report --anchor nobody=0 exits 2" test $? = 2
check "... naming the anchor" grep -q "nobody" "$tmp/x.err"
check "... and writes nothing" test ! -e "$tmp/x/index.html"
"$oware" report --run 1 --db "$db" --anchor greedy --out "$tmp/y" >/dev/null 2>"$tmp/y.err"
check "report --anchor greedy (no Elo) exits 2" test $? = 2
check "... saying NAME=ELO" grep -q "NAME=ELO" "$tmp/y.err"

echo "$fails failure(s)"
[ $fails = 0 ]
