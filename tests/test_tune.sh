#!/usr/bin/env bash
# test_tune.sh: end to end: `oware tune spsa|texel`, the tuning table, weights files, resume, validation.
set -u
oware=$1
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
P='minimax:depth=2,hash=1'

# A short SPSA run: its iterations are stored and its weights load.
"$oware" tune spsa --player "$P" --params threat,capture,targets --iterations 4 --pairs 2 \
  --threads 2 --seed 5 --db "$tmp/a.db" --out "$tmp/a.txt" --quiet >"$tmp/a.out" 2>&1; rc=$?
check "spsa runs" test $rc = 0
check "spsa stores 4 iterations" test "$(sqlite3 "$tmp/a.db" "select count(*) from tuning where kind = 'spsa'")" = 4
check "the run is finished" test "$(sqlite3 "$tmp/a.db" 'select status from runs')" = finished
check "the weights file loads" "$oware" weights --check "$tmp/a.txt"
check "minimax plays with it" "$oware" match --south "minimax:depth=2,weights=$tmp/a.txt" --north random --games 2

# Kill -9 in the middle, resume: the same weights as the uninterrupted run.
"$oware" tune spsa --player "$P" --params threat,capture --iterations 40 --pairs 2 --threads 2 \
  --seed 9 --db "$tmp/full.db" --out "$tmp/full.txt" --quiet >/dev/null 2>&1
"$oware" tune spsa --player "$P" --params threat,capture --iterations 40 --pairs 2 --threads 2 \
  --seed 9 --db "$tmp/cut.db" --out "$tmp/cut.txt" --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 400); do
  n=$(sqlite3 "$tmp/cut.db" 'select count(*) from tuning' 2>/dev/null || echo 0)
  [ "${n:-0}" -ge 3 ] && break
  sleep 0.02
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
n=$(sqlite3 "$tmp/cut.db" 'select count(*) from tuning')
check "the killed run kept its iterations ($n of 40)" test "$n" -ge 1 -a "$n" -lt 40
"$oware" tune --resume 1 --db "$tmp/cut.db" >/dev/null 2>&1; rc=$?
check "resume finishes" test $rc = 0
check "resume stored 40 iterations, no duplicate" test "$(sqlite3 "$tmp/cut.db" 'select count(*) from tuning')" = 40
check "resumed weights = uninterrupted weights" cmp -s \
  <(sqlite3 "$tmp/full.db" 'select weights from tuning order by iteration') \
  <(sqlite3 "$tmp/cut.db" 'select weights from tuning order by iteration')

# A database is input: a resume checks every stored row and names the bad one, exit 1, the
# run left as it was (interrupted, its rows). Once garbage or infinite weights were read as
# numbers (strtod without an end: 'inf', '12abc' as 12), and a row numbered beyond the run
# (1000 of 6) was taken as the last one and the run marked finished.
"$oware" tune spsa --player "$P" --params store,threat --iterations 6 --pairs 1 --seed 4 --threads 2 \
  --db "$tmp/tb.db" --out "$tmp/tb.txt" --quiet >/dev/null 2>&1
sqlite3 "$tmp/tb.db" 'select iteration, weights from tuning order by iteration' >"$tmp/tb.rows"
sqlite3 "$tmp/tb.db" "delete from tuning where iteration >= 3; update runs set status = 'interrupted'"
tamper() { # DB SQL MESSAGE: the row tampered, the resume refused with MESSAGE
  cp "$1" "$tmp/tt.db"
  sqlite3 "$tmp/tt.db" "$2"
  local n
  n=$(sqlite3 "$tmp/tt.db" 'select count(*) from tuning')
  "$oware" tune --resume 1 --db "$tmp/tt.db" >/dev/null 2>"$tmp/err"; rc=$?
  check "resume refuses '$2': exit 1, '$3'" bash -c "test $rc = 1 && grep -qF -- \"$3\" '$tmp/err'"
  check "... the run as it was" test \
    "$(sqlite3 "$tmp/tt.db" "select status || ' ' || (select count(*) from tuning) from runs")" = "interrupted $n"
}
for v in inf -inf nan 5e7x 12abc 2e6 0x; do
  tamper "$tmp/tb.db" "update tuning set weights = 'store $v threat -60' where iteration = 2" \
    "run 1 iteration 2: weight store '$v' is not a number (|x| <= 1e6)"
done
tamper "$tmp/tb.db" "update tuning set weights = 'stor 109 threat -60' where iteration = 2" \
  "run 1 iteration 2: weight 'stor': no such weight"
tamper "$tmp/tb.db" "update tuning set weights = 'store 109 threat' where iteration = 1" \
  "run 1 iteration 1: weight threat has no value"
tamper "$tmp/tb.db" "update tuning set weights = '' where iteration = 0" "run 1 iteration 0: no weights"
tamper "$tmp/tb.db" "update tuning set iteration = 1000 where iteration = 2" \
  "run 1 iteration 1000: iteration out of range 0..5 (the run has 6)"
tamper "$tmp/tb.db" "delete from tuning where iteration = 1" "run 1 iteration 2: iteration 1 is missing"
tamper "$tmp/tb.db" "update tuning set kind = 'spsb' where iteration = 1" "run 1 iteration 1: unknown kind 'spsb'"
tamper "$tmp/tb.db" "update tuning set kind = 'texel' where iteration = 1" \
  "run 1 iteration 1: kind 'texel' where the run's rows are spsa"
tamper "$tmp/tb.db" "update tuning set step = 'store 8.2 threat x' where iteration = 1" \
  "run 1 iteration 1: step of threat 'x' is not a number"
tamper "$tmp/tb.db" "update tuning set wins = -1 where iteration = 0" \
  "run 1 iteration 0: negative wins, draws or losses (-1, "
# The rows as stored resume (--quiet and --report go with --resume, as with tournament's):
# nothing on stderr, the run finished, the same rows as the uninterrupted run.
cp "$tmp/tb.db" "$tmp/tg.db"
"$oware" tune --resume 1 --db "$tmp/tg.db" --quiet >/dev/null 2>"$tmp/err"; rc=$?
check "resume --quiet: exit 0, nothing on stderr" bash -c "test $rc = 0 && ! test -s '$tmp/err'"
check "... the run finished with the uninterrupted run's rows" bash -c \
  "test \"\$(sqlite3 '$tmp/tg.db' 'select status from runs')\" = finished && sqlite3 '$tmp/tg.db' 'select iteration, weights from tuning order by iteration' | cmp -s - '$tmp/tb.rows'"
(cd "$tmp" && "$oware" tune --resume 1 --db "$tmp/tg.db" --report >/dev/null 2>/dev/null); rc=$?
check "resume --report: exit 0, the report written" bash -c "test $rc = 0 && test -s '$tmp/results/run-1/index.html'"
"$oware" tune --resume 1 --db "$tmp/tg.db" --seed 3 --quiet >/dev/null 2>"$tmp/err"; rc=$?
check "... but not with what changes its games (--seed): exit 2" bash -c \
  "test $rc = 2 && grep -q 'only --db, --threads, --quiet, --report and --json' '$tmp/err'"
# A Texel run's row is checked alike.
"$oware" tune texel --player "$P" --start equal:50 --games 20 --positions 1000 --threads 2 \
  --db "$tmp/tx.db" --out "$tmp/tx.txt" --quiet >/dev/null 2>&1
sqlite3 "$tmp/tx.db" "update runs set status = 'interrupted'"
tamper "$tmp/tx.db" "update tuning set weights = 'store nan' where iteration = 0" \
  "run 1 iteration 0: weight store 'nan' is not a number"
tamper "$tmp/tx.db" "update tuning set step = 'K abc' where iteration = 0" \
  "run 1 iteration 0: step 'K abc' is not 'K X positions N start_mse X'"
tamper "$tmp/tx.db" "update tuning set iteration = 3 where iteration = 0" \
  "run 1 iteration 3: iteration out of range 0..0 (the run has 1)"

# Texel from self-play, with a validation match.
"$oware" tune texel --player "$P" --start equal:50 --games 200 --positions 20000 --threads 2 \
  --validate 10 --db "$tmp/t.db" --out "$tmp/t.txt" --quiet >"$tmp/t.out" 2>&1; rc=$?
check "texel runs" test $rc = 0
check "texel reports the error before and after" bash -c "grep -q 'error at the start' '$tmp/t.out' && grep -q 'error after the fit' '$tmp/t.out'"
check "texel stores its fit and the validation" test "$(sqlite3 "$tmp/t.db" "select count(*) from tuning")" = 2
check "validation prints an Elo with its interval" grep -qi 'elo' "$tmp/t.out"
check "texel weights load" "$oware" weights --check "$tmp/t.txt"
# Texel from the games of a database.
"$oware" tournament --players 'minimax:depth=2;minimax:depth=3;greedy' --format games:10 \
  --db "$tmp/games.db" --quiet >/dev/null 2>&1
"$oware" tune texel --player "$P" --from-db "$tmp/games.db" --db "$tmp/t2.db" --out "$tmp/t2.txt" \
  --quiet >"$tmp/t2.out" 2>&1; rc=$?
check "texel reads the games of a database" bash -c "test $rc = 0 && grep -q 'quiet positions' '$tmp/t2.out'"

# Validation by an SPRT: game pairs until it decides.
"$oware" tune spsa --player "$P" --params threat --iterations 2 --pairs 1 --validate-sprt elo0=0,elo1=50 \
  --threads 2 --db "$tmp/v.db" --out "$tmp/v.txt" --quiet >"$tmp/v.out" 2>&1; rc=$?
check "a validation SPRT decides" bash -c "test $rc = 0 && grep -Eq 'H0 accepted|H1 accepted' '$tmp/v.out'"
check "the validation is stored" test "$(sqlite3 "$tmp/v.db" "select count(*) from tuning where kind = 'validation'")" = 1
"$oware" tune spsa --player "$P" --validate-sprt elo0=5,elo1=0 --db "$tmp/b.db" >/dev/null 2>"$tmp/err"; rc=$?
check "a bad validation SPRT: exit 2" bash -c "test $rc = 2 && grep -q 'validate-sprt' '$tmp/err'"

# --c-end=7 and --c-end 7 are the same option (they once set different fields): the
# two runs store the same tuning rows, and the rows differ from a run without it.
rows() { sqlite3 "$1" 'select iteration, kind, weights, step, wins, draws, losses, value, lo, hi, games from tuning order by iteration'; }
for form in eq sep none; do
  case $form in
  eq) opts=(--c-end=7 --r-end=0.01) ;;
  sep) opts=(--c-end 7 --r-end 0.01) ;;
  none) opts=() ;;
  esac
  "$oware" tune spsa --player minimax:depth=1 --params threat,capture --iterations 2 --pairs 1 \
    --threads 1 --seed 3 "${opts[@]}" --db "$tmp/ce-$form.db" --out "$tmp/ce-$form.txt" --quiet \
    >/dev/null 2>&1
done
check "--c-end=7 runs and stores 2 iterations" test "$(rows "$tmp/ce-eq.db" | wc -l)" = 2
check "--c-end=7 and --c-end 7 store the same run" cmp -s <(rows "$tmp/ce-eq.db") <(rows "$tmp/ce-sep.db")
check "... which is not the run without --c-end" bash -c "! cmp -s <(sqlite3 '$tmp/ce-eq.db' 'select step from tuning') <(sqlite3 '$tmp/ce-none.db' 'select step from tuning')"
"$oware" tune spsa --player "$P" --c-end=0 --db "$tmp/b.db" >/dev/null 2>"$tmp/err"; rc=$?
check "--c-end=0: exit 2 naming the option" bash -c "test $rc = 2 && grep -q -- \"--c-end is '0'; expected a positive number\" '$tmp/err'"
"$oware" tune spsa --player "$P" --iterations=0 --db "$tmp/b.db" >/dev/null 2>"$tmp/err"; rc=$?
check "--iterations=0: exit 2 with the range" bash -c "test $rc = 2 && grep -q -- '--iterations is .0.; expected a whole number from 1 to 10000000' '$tmp/err'"
"$oware" tune spsa --player "$P" --bogus 3 --db "$tmp/b.db" >/dev/null 2>"$tmp/err"; rc=$?
check "an unknown option: exit 2 naming it" bash -c "test $rc = 2 && grep -q \"unknown option '--bogus'\" '$tmp/err'"
"$oware" tune spsa --player >/dev/null 2>"$tmp/err"; rc=$?
check "a missing value: exit 2 naming the option" bash -c "test $rc = 2 && grep -q -- '--player needs a value' '$tmp/err'"
"$oware" tune --resume 1 --seed 3 --db "$tmp/cut.db" >/dev/null 2>"$tmp/err"; rc=$?
check "--resume with a configuration: exit 2" bash -c "test $rc = 2 && grep -q 'only --db, --threads, --quiet, --report and --json' '$tmp/err'"
check "tune --help lists every option" bash -c "for o in player params start iterations pairs c-end r-end games from-db positions max-iter threads variant seed opening-plies db out validate validate-sprt name report quiet resume json; do '$oware' tune --help | grep -q -- \"^  --\$o\" || exit 1; done"

# --json: one object with the run, both weight sets, the weights file and the validation.
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
"$oware" tune spsa --player "$P" --params threat,capture --iterations 3 --pairs 1 --validate 4 \
  --threads 2 --seed 4 --db "$tmp/j.db" --out "$tmp/j.txt" --quiet --json >"$tmp/j.json" 2>"$tmp/j.err"; rc=$?
check "spsa --json exits 0, stdout is JSON" bash -c "test $rc = 0 && python3 -m json.tool '$tmp/j.json' >/dev/null"
check "spsa --json: the run, the method, the weights tuned and their file" test \
  "$(py "$tmp/j.json" "d['run'], d['method'], d['complete'], sorted(d['tuned']), d['weights_file']")" = \
  "1 spsa True ['capture', 'threat'] $tmp/j.txt"
check "spsa --json: the tuned weights are the file's" test \
  "$(py "$tmp/j.json" "' '.join('%s=%.1f' % (k, v) for k, v in sorted(d['tuned'].items()))")" = \
  "$(grep -E '^(capture|threat) ' "$tmp/j.txt" | sort | awk '{ printf "%s%s=%.1f", (NR > 1 ? " " : ""), $1, $2 }')"
check "spsa --json: the validation as stored (W/D/L)" test \
  "$(py "$tmp/j.json" "'%d|%d|%d' % (d['validation']['wins'], d['validation']['draws'], d['validation']['losses'])")" = \
  "$(sqlite3 "$tmp/j.db" "select wins, draws, losses from tuning where kind = 'validation'")"
"$oware" tune texel --player "$P" --start equal:50 --games 40 --positions 2000 --threads 2 \
  --db "$tmp/tj.db" --out "$tmp/tj.txt" --quiet --json >"$tmp/tj.json" 2>"$tmp/tj.err"; rc=$?
check "texel --json: JSON on stdout, the fit's lines on stderr, no validation" bash -c \
  "test $rc = 0 && test \"\$(python3 -c \"import json; d=json.load(open('$tmp/tj.json')); print(d['method'], d['validation'])\")\" = 'texel None' && grep -q 'error after the fit' '$tmp/tj.err'"
"$oware" tune --resume 1 --db "$tmp/j.db" --json >"$tmp/jr.json" 2>&1; rc=$?
check "--resume --json of a finished run: the same tuned weights, no validation now" test \
  "$rc $(py "$tmp/jr.json" "d['tuned'] == json.load(open('$tmp/j.json'))['tuned'], d['validation']")" = "0 True None"

# Bad input.
"$oware" tune spsa --player greedy --db "$tmp/b.db" >/dev/null 2>"$tmp/err"; rc=$?
check "a player that is not minimax: exit 2" bash -c "test $rc = 2 && grep -q 'minimax' '$tmp/err'"
"$oware" tune spsa --player "$P" --params threat,bogus --db "$tmp/b.db" >/dev/null 2>"$tmp/err"; rc=$?
check "an unknown weight: exit 2" bash -c "test $rc = 2 && grep -q \"unknown weight 'bogus'\" '$tmp/err'"
for bad in "" "," "threat," "threat,,capture"; do
  "$oware" tune spsa --player "$P" --params "$bad" --iterations 1 --pairs 1 --db "$tmp/b.db" --quiet \
    --out "$tmp/pe.txt" >/dev/null 2>"$tmp/err"; rc=$?
  check "--params '$bad': exit 2, named, nothing written" bash -c \
    "test $rc = 2 && grep -q -- '--params' '$tmp/err' && ! test -e '$tmp/pe.txt'"
done
"$oware" tune texel --player "$P" --from-db "$tmp/none.db" --db "$tmp/fd.db" --quiet \
  --out "$tmp/fd.txt" >/dev/null 2>"$tmp/err"; rc=$?
check "texel --from-db a missing file: exit 2 before a run is made" bash -c \
  "test $rc = 2 && grep -q 'none.db' '$tmp/err' && test \"\$(sqlite3 '$tmp/fd.db' 'select count(*) from runs' 2>/dev/null || echo 0)\" = 0"
# A run that fails once made (no game of the variant in --from-db) is marked failed, not left running.
"$oware" tournament --players "greedy;random" --variant grandslam-win --format games:2 --db "$tmp/gw.db" \
  >/dev/null 2>&1
"$oware" tune texel --player "$P" --from-db "$tmp/gw.db" --db "$tmp/fd.db" --quiet \
  --out "$tmp/fd.txt" >/dev/null 2>"$tmp/err"; rc=$?
check "texel on a database with no game of its variant: exit 1, the run failed" bash -c \
  "test $rc = 1 && grep -q 'no quiet position' '$tmp/err' && test \"\$(sqlite3 '$tmp/fd.db' 'select status from runs')\" = failed"
"$oware" tune anneal --player "$P" >/dev/null 2>"$tmp/err"; rc=$?
check "an unknown method: exit 2" test $rc = 2
"$oware" tune --resume 5 --db "$tmp/a.db" >/dev/null 2>"$tmp/err"; rc=$?
check "resuming a missing run: exit 2" bash -c "test $rc = 2 && grep -q 'no run 5' '$tmp/err'"

echo "$fails failed"
[ $fails = 0 ]
