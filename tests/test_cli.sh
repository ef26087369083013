# test_cli.sh: end-to-end checks of oware --help/--version, perft and replay: output, exit codes.
# Usage: bash test_cli.sh OWARE_BINARY TESTS_DATA_DIR
set -u

OWARE=${1:?usage: test_cli.sh OWARE_BINARY DATA_DIR}
DATA=${2:?usage: test_cli.sh OWARE_BINARY DATA_DIR}
checks=0
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp

# expect_out TEXT: the whole stdout of the last run.
expect_out() {
  checks=$((checks + 1))
  [ "$out" == "$1" ] || fail "stdout was:
$out
---- expected:
$1"
}

# expect_out_has TEXT / expect_err_has TEXT: a substring of stdout / stderr.
expect_out_has() {
  checks=$((checks + 1))
  [[ "$out" == *"$1"* ]] || fail "stdout does not contain '$1'; it was: ${out:0:300}"
}
expect_err_has() {
  checks=$((checks + 1))
  [[ "$err" == *"$1"* ]] || fail "stderr does not contain '$1'; it was: ${err:0:300}"
}
expect_out_empty() {
  checks=$((checks + 1))
  [ -z "$out" ] || fail "stdout should be empty; it was: ${out:0:300}"
}
expect_err_empty() {
  checks=$((checks + 1))
  [ -z "$err" ] || fail "stderr should be empty; it was: ${err:0:300}"
}

# usage_error ARGS... -- SUBSTRINGS...: exit 2, nothing on stdout, each substring on stderr.
usage_error() {
  local args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    args+=("$1")
    shift
  done
  shift
  run "${args[@]}"
  expect_rc 2
  expect_out_empty
  checks=$((checks + 1))
  [ -n "$err" ] || fail "no message on stderr"
  for s in "$@"; do expect_err_has "$s"; done
}

# replay_is ARGS... -- POSITION LEGAL STATUS: replay succeeds with exactly these three lines.
replay_is() {
  local args=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    args+=("$1")
    shift
  done
  shift
  run replay "${args[@]}"
  expect_rc 0
  expect_err_empty
  expect_out "position $1
legal $2
status $3"
}

[ -x "$OWARE" ] || { echo "FAIL: $OWARE is not an executable"; exit 1; }
[ -d "$DATA" ] || { echo "FAIL: $DATA is not a folder"; exit 1; }

# ---- the command itself -------------------------------------------------------
run --version
expect_rc 0
checks=$((checks + 1))
[[ "$out" =~ ^oware\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "version line is '$out'"

run --help
expect_rc 0
expect_out_has "usage: oware"
expect_out_has "perft"
expect_out_has "replay"
# Every command that --help lists has its own --help.
commands=$(printf '%s\n' "$out" | sed -n '/^commands:/,/^$/{/^  [a-z]/p}' | awk '{print $1}')
checks=$((checks + 1))
[ "$(printf '%s\n' "$commands" | grep -c .)" -ge 3 ] || fail "no command list in --help"
for c in $commands perft replay variants; do
  run "$c" --help
  expect_rc 0
  expect_out_has "usage: oware $c"
done
run help
expect_rc 0
expect_out_has "usage: oware"

usage_error -- "usage: oware"
usage_error no-such-command -- "'no-such-command'" "--help"
usage_error --no-such-option -- "--no-such-option"

# ---- perft --------------------------------------------------------------------
run perft 5
expect_rc 0
expect_err_empty
expect_out "perft 1 6
perft 2 36
perft 3 190
perft 4 1014
perft 5 5219"
run perft 0
expect_rc 0
expect_out_empty

# Counts from an independent brute force of RULES.md (a few lines of Python).
run perft --variant houses=4,seeds=3 7
expect_rc 0
expect_out "perft 1 4
perft 2 16
perft 3 54
perft 4 195
perft 5 638
perft 6 2168
perft 7 7123"
run perft --variant=houses=3,seeds=1 8
expect_rc 0
expect_out_has "perft 7 107
perft 8 180"
# A position with a 13-seed house (a full lap), captures and North to move.
run perft --position 0-3-0-2-0-13-2-1-0-3-2-0-10-12-N 6
expect_rc 0
expect_out "perft 1 4
perft 2 14
perft 3 61
perft 4 261
perft 5 1078
perft 6 4635"
run perft --variant houses=5 --position=0-2-7-1-3-0-4-12-2-1-3-5-N 6
expect_rc 0
expect_out "perft 1 4
perft 2 19
perft 3 70
perft 4 268
perft 5 1037
perft 6 4044"
# perft 4 summed over the positions after each first move is perft 5 of the start.
sum=0
for m in A B C D E F; do
  run replay "$m"
  pos=$(printf '%s\n' "$out" | sed -n 's/^position //p')
  run perft --position "$pos" 4
  expect_rc 0
  sum=$((sum + $(printf '%s\n' "$out" | sed -n 's/^perft 4 //p')))
done
what="sum of perft 4 after A..F"
checks=$((checks + 1))
want=5219
[ "$sum" -eq "$want" ] || fail "$sum, expected $want"
# Repetition is not applied by perft: auale counts like abapa.
run perft --variant auale 5
expect_rc 0
expect_out_has "perft 5 5219"

usage_error perft -- "DEPTH"
usage_error perft x -- "DEPTH" "'x'"
usage_error perft 3x -- "DEPTH" "'3x'"
usage_error perft 41 -- "DEPTH" "'41'" "0 to 40"
usage_error perft -1 -- "'-1'"
usage_error perft 3 4 -- "'4'"
usage_error perft --variant foo 3 -- "unknown variant 'foo'"
usage_error perft --variant seeds=13 3 -- "'seeds'" "1..12"
usage_error perft --variant -- "--variant" "needs a value"
# Options come from one table per command: --x=v and --x v alike, clear errors.
run perft --variant=auale 5
expect_rc 0
expect_out_has "perft 5 5219"
run perft 5 --variant auale
expect_rc 0
expect_out_has "perft 5 5219"
usage_error perft --bogus 3 -- "unknown option '--bogus'" "--help"
usage_error perft --time=1 3 -- "--time takes no value"
usage_error match --games=0 -- "--games is '0'" "from 1 to 100000000"
run perft -- 2
expect_rc 0
expect_out_has "perft 2 36"
usage_error perft --position 4-4-4 3 -- "3 fields" "expected 15"
usage_error perft --position 5-4-4-4-4-4-4-4-4-4-4-4-0-0-S 3 -- "add up to 49"
usage_error perft --position 4-4-4-4-4-4-4-4-4-4-4-4-0-0-X 3 -- "side to move" "'X'"
usage_error perft --position 4--1-4-4-4-4-4-4-4-4-4-4-0-0-S 3 -- "field 2" "-1"
usage_error perft --variant houses=5 --position 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S 3 -- "expected 13"

# ---- replay -------------------------------------------------------------------
replay_is -- 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S "A B C D E F" playing
after_fdee="6-6-6-5-0-1-6-6-6-0-0-6-0-0-S"
replay_is F d E e -- "$after_fdee" "A B C D F" playing
replay_is FdEe -- "$after_fdee" "A B C D F" playing
replay_is "F d" Ee -- "$after_fdee" "A B C D F" playing
replay_is F -- 4-4-4-4-4-0-5-5-5-5-4-4-0-0-N "a b c d e f" playing
replay_is --variant houses=5 --position 0-2-7-1-3-0-4-12-2-1-3-5-N -- \
  0-2-7-1-3-0-4-12-2-1-3-5-N "b c d e" playing

# No move: North's last seed goes to South, who cannot feed North; South takes its seed.
replay_is --position 0-0-0-0-0-0-0-0-0-0-0-1-24-23-N f -- \
  0-0-0-0-0-0-0-0-0-0-0-0-25-23-S - "over no-move 25-23 south"
# Majority: F's seed makes a = 2, South reaches 26 and wins at once; no transfer.
replay_is --position 0-0-0-0-0-1-1-5-5-5-5-2-24-0-S F -- \
  0-0-0-0-0-0-0-5-5-5-5-2-26-0-N - "over majority 26-0 south"
# A start that is already over.
replay_is --position 0-0-0-0-0-0-0-0-0-0-0-0-24-24-S -- \
  0-0-0-0-0-0-0-0-0-0-0-0-24-24-S - "over majority 24-24 draw"
# Repetition: three seeds circle; after 24 plies the start comes back. auale ends
# at its second occurrence; each side takes its own seeds (E, F: 2; f: 1).
cycle="EfFaAbBcCdDeEfFaAbBcCdDe"
rep_start=0-0-0-0-1-1-0-0-0-0-0-1-23-22-S
replay_is --variant auale --position $rep_start ${cycle:0:23} -- \
  0-0-0-0-1-1-0-0-0-0-1-0-23-22-N e playing
replay_is --variant auale --position $rep_start $cycle -- \
  0-0-0-0-0-0-0-0-0-0-0-0-25-23-S - "over repetition 25-23 south"
# abapa needs a third occurrence: still playing.
replay_is --position $rep_start $cycle -- $rep_start "E F" playing
usage_error replay --variant auale --position $rep_start $cycle E -- "move 25" "(E)" \
  "after the end" "repetition"
# cycle=split shares the three seeds: 1.5 each.
replay_is --variant auale,cycle=split --position 0-0-0-0-1-1-0-0-0-0-0-1-22-23-S $cycle -- \
  0-0-0-0-0-0-0-0-0-0-0-0-23.5-24.5-S - "over repetition 23.5-24.5 north"
# Ply limit under awari (cycle=split): 25 seeds left, 12.5 each.
replay_is --variant awari,max_plies=1 --position 4-4-4-4-4-5-0-0-0-0-0-0-11-12-S F -- \
  0-0-0-0-0-0-0-0-0-0-0-0-23.5-24.5-N - "over ply-limit 23.5-24.5 north"
replay_is --variant awari,max_plies=2 --position 4-4-4-4-4-5-0-0-0-0-0-0-11-12-S F -- \
  4-4-4-4-4-0-1-1-1-1-1-0-11-12-N "a b c d e" playing

# Illegal moves: exit 2, nothing on stdout, the move's number, letter and the legal moves.
usage_error replay F F -- "move 2" "(F)" "illegal" "legal moves: a b c d e f"
usage_error replay F d E d -- "move 4" "(d)" "legal moves: a b c e f"
usage_error replay a -- "move 1" "(a)" "legal moves: A B C D E F"
usage_error replay --position 0-0-0-0-0-0-0-0-0-0-0-1-24-23-N f A -- "move 2" "(A)" \
  "after the end" "no-move"
usage_error replay --position 0-0-0-0-0-0-0-0-0-0-0-0-24-24-S A -- "move 1" "(A)" "after the end"
usage_error replay F G -- "'G'"
usage_error replay F 1 -- "'1'"
usage_error replay --variant houses=5 F -- "'F'" "A-E"
usage_error replay --variant foo -- "unknown variant 'foo'"
usage_error replay --position 4-4-4-4-4-4-4-4-4-4-4-4-0-0 -- "14 fields"
usage_error replay --bogus -- "--bogus"

# ---- replay --ogn -------------------------------------------------------------
cat >"$tmp/game.ogn" <<'EOF'
[Event "CLI \"test\""]
[South "a"]
[North "b"]
[Result "*"]

1. F d {the usual start} 2. E e *

[Event "second game, not read"]

A
EOF
replay_is --ogn "$tmp/game.ogn" -- "$after_fdee" "A B C D F" playing
replay_is --ogn="$tmp/game.ogn" -- "$after_fdee" "A B C D F" playing
replay_is --ogn "$tmp/game.ogn" A b -- 1-8-7-6-1-2-7-0-7-1-1-7-0-0-S "A B C D E F" playing
run replay F d E e A b
expect_out "position 1-8-7-6-1-2-7-0-7-1-1-7-0-0-S
legal A B C D E F
status playing"
usage_error replay --ogn "$tmp/game.ogn" E -- "move 5" "(E)" "legal moves: A B C D F"

cat >"$tmp/rep.ogn" <<EOF
[Variant "auale"]
[FEN "$rep_start"]

$cycle
EOF
replay_is --ogn "$tmp/rep.ogn" -- 0-0-0-0-0-0-0-0-0-0-0-0-25-23-S - "over repetition 25-23 south"
usage_error replay --ogn "$tmp/rep.ogn" A -- "after the end"

usage_error replay --ogn "$tmp/game.ogn" --variant abapa -- "--variant"
usage_error replay --variant abapa --ogn "$tmp/game.ogn" -- "--variant"
usage_error replay --ogn "$tmp/game.ogn" --position "$after_fdee" -- "--position"
usage_error replay --ogn "$tmp/missing.ogn" -- "missing.ogn"
usage_error replay --ogn "$tmp" -- "$tmp"
: >"$tmp/empty.ogn"
usage_error replay --ogn "$tmp/empty.ogn" -- "empty.ogn" "no game"
printf '[Event "x"]\n[Variant "nope"]\n\nF\n' >"$tmp/badvar.ogn"
usage_error replay --ogn "$tmp/badvar.ogn" -- "badvar.ogn" "line 2" "'nope'"
printf '[Event "x"\n\nF\n' >"$tmp/badtag.ogn"
usage_error replay --ogn "$tmp/badtag.ogn" -- "line 1" "malformed tag"
printf '\nF d {open\n' >"$tmp/badcomment.ogn"
usage_error replay --ogn "$tmp/badcomment.ogn" -- "line 2" "comment"
printf 'F d\nE x\n' >"$tmp/badmove.ogn"
usage_error replay --ogn "$tmp/badmove.ogn" -- "line 2" "'x'"
printf 'F F\n' >"$tmp/illegal.ogn"
usage_error replay --ogn "$tmp/illegal.ogn" -- "move 2" "(F)" "illegal"

# An error that names a long path comes whole, the reason at its end: the cli's error buffers
# hold ERROR_MAX (they held 1024 bytes, and a 2,000-byte folder lost the file and the reason).
seg="$(printf 'd%.0s' {1..200})/$(printf 'e%.0s' {1..200})/$(printf 'f%.0s' {1..200})"
long="$tmp/$seg/$seg/$seg"
usage_error rate --db "$long/x.db" -- "/x.db: unable to open database file"
usage_error analyse --db "$long/x.db" --run 1 -- "/x.db: unable to open database file"
usage_error tournament --players "random;greedy" --format games:2 --db "$long/x.db" -- \
  "/x.db: unable to open database file"

# A file under a long folder is the file named, not a cut of its path: the openings file, a
# plug-in and a --from-db database each went to a path cut at 511 or 1,023 bytes.
mkdir -p "$long"
printf '%s\n' 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S >"$long/ops.txt"
run tournament --players "random;greedy" --format games:2 --openings "file:$long/ops.txt" \
  --db "$tmp/longops.db" --quiet
expect_rc 0
expect_err_empty
usage_error tournament --players "plugin:path=$long/none.so;random" --format games:2 \
  --db "$tmp/longplug.db" -- "/none.so"
run tune net --from-db "$long/none.db" --out "$tmp/net.bin" --db "$tmp/net.db"
expect_rc 1
expect_err_has "/none.db: unable to open database file"
tail="$(printf 'g%.0s' {1..5000})"
usage_error tournament --players "random;greedy" --format games:2 --openings "file:$long/$tail" \
  --db "$tmp/longops2.db" -- "openings:" "longer than"

echo "test_cli: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
