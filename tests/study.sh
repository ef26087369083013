#!/usr/bin/env bash
# study.sh: end to end: `oware variants` (the list), `oware study` (a small study, its report, a stored run studied again, the old spelling `oware variants --run`, bad input) and `oware calibrate` (a tiny real calibration, killed and resumed, bad input, an unreachable level).
set -u
oware=$1 # $2: tests/data
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
# status CODE COMMAND...: runs COMMAND (output to $tmp/last.out, .err) and checks its exit code.
status() {
  local want=$1
  shift
  "$@" >"$tmp/last.out" 2>"$tmp/last.err"
  local rc=$?
  [ "$rc" = "$want" ] || { echo "  exit $rc, want $want: $*"; sed 's/^/  | /' "$tmp/last.err" | head -5; return 1; }
}

# --- oware variants: the list; oware study: the study ---
"$oware" variants >"$tmp/list.out" 2>&1
check "variants with no argument lists the variants" grep -q '^grandslam-win ' "$tmp/list.out"
"$oware" variants --list >"$tmp/list2.out" 2>&1
check "variants --list is the same list" cmp -s "$tmp/list.out" "$tmp/list2.out"
check "variants --help names the study" bash -c "'$oware' variants --help | grep -q 'oware study'"
check "study --help describes the study" bash -c "'$oware' study --help | grep -q -- '--players'"
check "the commands list study" bash -c "'$oware' --help | grep -q '^  study '"

# --- a small study ---
db=$tmp/s.db
players='random;greedy;minimax:depth=1'
"$oware" study --players "$players" --variants 'abapa;grandslam-all' --games 4 \
  --seed 5 --threads 2 --db "$db" --report --out "$tmp/out" --quiet >"$tmp/s.out" 2>"$tmp/s.err"
rc=$?
check "a study exits 0" test $rc = 0
[ $rc = 0 ] || sed 's/^/  | /' "$tmp/s.err" | head
check "the study table is printed" grep -q '^Variant study of run 1: 24 games, 3 players, 2 variants' "$tmp/s.out"
for row in 'South wins' 'balance' 'length: median' 'end: repetition' 'grand slam available' \
  'legal moves (mean)' 'real choice'; do
  check "row '$row'" grep -q "^$row" "$tmp/s.out"
done
check "the Elo per variant and the order" grep -q '^Strength order:' "$tmp/s.out"
check "the z-tests" grep -q '^abapa  *grandslam-all ' "$tmp/s.out"
check "the run's report" test -s "$tmp/out/index.html"
check "the study's page" test -s "$tmp/out/variants.html"
check "the study's Markdown" test -s "$tmp/out/variants.md"
for c in outcomes ends grandslam length branching choice elo; do
  check "chart variants-$c data" test -s "$tmp/out/variants-$c.dat"
  if command -v gnuplot >/dev/null; then
    check "chart variants-$c.png" test -s "$tmp/out/variants-$c.png"
  fi
done
check "the page embeds the charts" grep -q 'src="variants-outcomes.png"' "$tmp/out/variants.html"
check "the page needs no network" bash -c "! grep -Eq 'src=\"https?:|href=\"https?:' '$tmp/out/variants.html'"
opening_file=$(ls "$tmp"/variants-openings-*.txt 2>/dev/null | head -1)
check "the shared openings file is next to the database" test -s "$opening_file"
if command -v sqlite3 >/dev/null; then
  check "the run plays the shared openings" \
    bash -c "sqlite3 '$db' 'select openings from runs where id = 1' | grep -q '^file:.*variants-openings'"
  check "the per-variant ratings are stored" \
    test "$(sqlite3 "$db" "select count(*) from ratings where scope = 'run 1 variant grandslam-all'")" = 3
  check "the metrics of both variants are stored" \
    test "$(sqlite3 "$db" "select count(distinct variant_idx) from variant_metrics where run_id = 1 and metric = 'south_score' and lo <= value and value <= hi")" = 2
  check "the test between the variants is stored" \
    bash -c "sqlite3 '$db' \"select value from variant_metrics where run_id = 1 and variant_idx = 0 and metric = 'south_score_p_vs_1'\" | grep -Eq '^[0-9.e-]+$'"
  check "every variant's games start from the same openings" \
    test "$(sqlite3 "$db" "select count(distinct opening) from games where run_id = 1 and variant_idx = 0")" = \
    "$(sqlite3 "$db" "select count(distinct g.opening) from games g join games h on g.opening = h.opening and g.variant_idx = 0 and h.variant_idx = 1 where g.run_id = 1 and h.run_id = 1")"
fi

# --- the same study on one thread: the same numbers; and a stored run studied again ---
"$oware" study --players "$players" --variants 'abapa;grandslam-all' --games 4 \
  --seed 5 --threads 1 --db "$db" --no-charts --quiet >"$tmp/s1.out" 2>&1
study_part() { sed -n '/^Variant study/,$p' "$1" | sed 1d | grep -v '^Charts\|^Report\|^$'; }
study_part "$tmp/s.out" >"$tmp/a.txt"
study_part "$tmp/s1.out" >"$tmp/b.txt"
check "the study part is there to compare" test -s "$tmp/a.txt"
check "one thread or two: the same study" cmp -s "$tmp/a.txt" "$tmp/b.txt"
"$oware" study --run 1 --db "$db" --no-charts >"$tmp/r.out" 2>&1
study_part "$tmp/r.out" >"$tmp/c.txt"
check "study --run 1: the same study from the stored games" cmp -s "$tmp/a.txt" "$tmp/c.txt"

# --- the old spelling, `oware variants --run ...`: the same study, and a note ---
"$oware" variants --run 1 --db "$db" --no-charts >"$tmp/alias.out" 2>"$tmp/alias.err"
check "variants --run 1 (the old spelling) still studies" test $? = 0
study_part "$tmp/alias.out" >"$tmp/d.txt"
check "  the same study" cmp -s "$tmp/a.txt" "$tmp/d.txt"
check "  a one-line note names oware study" \
  test "$(grep -c "is now 'oware study'" "$tmp/alias.err")" = 1

# --- bad input: exit 2 before anything is played ---
check "unknown variant" status 2 "$oware" study --players "$players" --variants 'abapa;nosuch' --db "$tmp/x.db"
check "  names it" grep -q "unknown variant 'nosuch'" "$tmp/last.err"
check "odd --games" status 2 "$oware" study --players "$players" --games 5 --db "$tmp/x.db"
check "a bad player spec" status 2 "$oware" study --players 'random;nosuch' --db "$tmp/x.db"
check "one player" status 2 "$oware" study --players 'random' --db "$tmp/x.db"
check "no players" status 2 "$oware" study --games 4 --db "$tmp/x.db"
check "an unknown run" status 2 "$oware" study --run 99 --db "$db"
check "--run with a configuration" status 2 "$oware" study --run 1 --games 4 --db "$db"
check "nothing was created by bad input" test ! -e "$tmp/x.db"

# --- oware calibrate: a tiny real calibration ---
lv=$tmp/levels.txt
cal=(calibrate --base mcts --knob playouts --range 1:100 --log --levels 'easy=100;hard=400'
  --anchor random=0 --games 8 --max-games 32 --threads 2 --seed 3 --quiet)
"$oware" "${cal[@]}" --db "$tmp/cal.db" --out "$lv" --chart "$tmp/curve" >"$tmp/cal.out" 2>"$tmp/cal.err"
rc=$?
check "calibrate finds and verifies the levels (exit 0)" test $rc = 0
[ $rc = 0 ] || { sed 's/^/  | /' "$tmp/cal.err" | head; sed 's/^/  | /' "$tmp/cal.out" | tail -12; }
check "the levels file has the two levels" test "$(grep -c '^easy mcts:playouts=\|^hard mcts:playouts=' "$lv")" = 2
check "the levels file is read by level:NAME,file=" "$oware" match --south "level:easy,file=$lv" \
  --north "level:hard,file=$lv" --games 2 --quiet
check "the direction is found" grep -q '^Search: strength rises with playouts' "$tmp/cal.out"
check "the verification round robin is shown" grep -q '^Verification round robin' "$tmp/cal.out"
check "the levels come out in order" grep -q '^Order of the levels: as the targets' "$tmp/cal.out"
check "the curve's data" test -s "$tmp/curve.dat"
if command -v gnuplot >/dev/null; then check "the curve's chart" test -s "$tmp/curve.png"; fi

if command -v sqlite3 >/dev/null; then
  check "the calibration is a stored run" test "$(sqlite3 "$tmp/cal.db" "select kind || ' ' || status from runs")" = "calibration finished"

  # Killed (SIGKILL) partway, then --resume: what was stored is not played again, and the
  # levels file is the uninterrupted run's.
  "$oware" "${cal[@]}" --db "$tmp/kill.db" --out "$tmp/kill.txt" >/dev/null 2>&1 &
  job=$!
  for _ in $(seq 1 600); do
    n=$(sqlite3 "$tmp/kill.db" 'select count(*) from calibration_pairs' 2>/dev/null || echo 0)
    [ "${n:-0}" -ge 20 ] && break
    sleep 0.05
  done
  kill -9 $job 2>/dev/null
  wait $job 2>/dev/null
  check "killed partway: the calibration was not over" test ! -e "$tmp/kill.txt"
  check "killed partway: some pairings are stored" test "${n:-0}" -ge 20
  "$oware" calibrate --resume 1 --db "$tmp/kill.db" --threads 1 >"$tmp/kill.out" 2>"$tmp/kill.err"
  check "--resume finishes the calibration (exit 0)" test $? = 0
  check "--resume: the same levels file as the uninterrupted run" cmp -s "$lv" "$tmp/kill.txt"
  check "--resume: the same tables as the uninterrupted run" \
    cmp -s <(grep -v '^Levels written\|^Chart' "$tmp/cal.out") <(grep -v '^Levels written' "$tmp/kill.out")
  check "--resume: the run is finished" test "$(sqlite3 "$tmp/kill.db" 'select status from runs')" = finished
  check "--resume with other options" status 2 "$oware" calibrate --resume 1 --db "$tmp/kill.db" --games 4
  check "  says so" grep -q 'with --resume only --db and --threads are allowed' "$tmp/last.err"
  check "--resume of a run that is not a calibration" status 2 "$oware" calibrate --resume 1 --db "$db"
  check "  says so" grep -q 'run 1 is a round-robin, not a calibration' "$tmp/last.err"
fi

# A knob along which the strength falls (minimax's evaluation noise): the direction is found.
"$oware" calibrate --base minimax:depth=1 --knob noise --range 0:100 --levels 'mid=300' \
  --anchor random=0 --games 8 --max-games 16 --verify-games 8 --ladder 2 --threads 2 \
  --out "$tmp/noise.txt" --quiet >"$tmp/noise.out" 2>&1
check "noise: the strength falls with it" grep -q '^Search: strength falls with noise' "$tmp/noise.out"
check "noise: a real value is chosen" grep -q '^mid minimax:depth=1,noise=' "$tmp/noise.txt"

# --- calibrate: bad input (exit 2) and a level that cannot be reached (exit 1) ---
base=(--levels 'easy=100' --anchor random=0 --games 4 --out "$tmp/bad.txt")
check "a knob the player does not have" status 2 "$oware" calibrate --base random --knob depth --range 1:4 "${base[@]}"
check "  says so" grep -q "player type 'random' has no option 'depth'" "$tmp/last.err"
check "a range outside the option's" status 2 "$oware" calibrate --base minimax --knob depth --range 0:5 "${base[@]}"
check "  says so" grep -q "outside the range of minimax's option 'depth' \[1, 126\]" "$tmp/last.err"
check "a text option" status 2 "$oware" calibrate --base minimax --knob weights --range 1:5 "${base[@]}"
check "an unknown variant" status 2 "$oware" calibrate --base minimax --knob depth --range 1:3 --variant nosuch "${base[@]}"
check "bad levels" status 2 "$oware" calibrate --base minimax --knob depth --range 1:3 --levels 'easy' --anchor random=0
check "a bad anchor" status 2 "$oware" calibrate --base minimax --knob depth --range 1:3 --levels 'easy=1' --anchor random
check "a bad range" status 2 "$oware" calibrate --base minimax --knob depth --range 3:1 "${base[@]}"
check "a missing option" status 2 "$oware" calibrate --base minimax --knob depth "${base[@]}"
check "no file written on bad input" test ! -e "$tmp/bad.txt"
check "an unreachable level" status 1 "$oware" calibrate --base mcts --knob playouts --range 1:4 \
  --levels 'easy=50;master=3000' --anchor random=0 --games 4 --max-games 8 --ladder 2 --threads 2 \
  --out "$tmp/un.txt" --quiet
check "  says it cannot be reached, with the closest value" \
  grep -q '^Level master (target 3000) cannot be reached with playouts in \[1, 4\]: the closest is playouts=4' "$tmp/last.out"
check "  and still writes the levels" grep -q '^master mcts:playouts=4 .* unreachable$' "$tmp/un.txt"

echo "$fails failure(s)"
[ $fails = 0 ]
