# test_solve.sh: end-to-end checks of oware solve: the plan and the build, text and --json, a position, a refused board, bad input.
# Usage: bash test_solve.sh OWARE_BINARY TESTS_DATA_DIR
set -u

OWARE=${1:?usage: test_solve.sh OWARE_BINARY DATA_DIR}
checks=0
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
expect_in() { # expect_in TEXT WHERE(out|err)
  checks=$((checks + 1))
  local s
  if [ "$2" = out ]; then s=$out; else s=$err; fi
  case "$s" in *"$1"*) ;; *) fail "$2 lacks '$1':
$s" ;; esac
}
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
expect_py() { # expect_py EXPRESSION VALUE: of the JSON in $tmp/out
  checks=$((checks + 1))
  local got
  got=$(py "$tmp/out" "$1" 2>&1)
  [ "$got" = "$2" ] || fail "JSON $1 is '$got', expected '$2'"
}

eg=$tmp/eg
V=abapa,houses=3,seeds=2
# The start of 3 houses of 2 seeds: the tables 0..12 built first, after the plan.
run solve --variant $V --dir "$eg" --quiet
expect_rc 0
expect_in "tables: building abapa,houses=3 0..12 in $eg (0 there): 18564 positions" out
expect_in "position 2-2-2-2-2-2-0-0-S: 12 seeds on the board, South to move" out
expect_in "value: South ends with 8 to 10 of the 12 seeds, cycle-sensitive" out
expect_in "own (repetition" out
expect_in "oware solve 2-2-2-2-2-2-0-0-S --variant '$V,cycle=split' --dir '$eg'" out
expect_in "a ply limit" out
expect_in "line (22 plies, the mover securing its lower bound): " out
expect_in "end: repetition after ply 22 (neither side can force a capture: play goes round), South 9 North 3" out
[ -f "$eg/abapa,houses=3/n12.egdb" ] || fail "no table n12"
# Again: nothing to build.
run solve --variant $V --dir "$eg"
expect_rc 0
expect_in "tables: $eg/abapa,houses=3 has 0..12" out
# A cycle-sensitive position: the split rule's command names it, not the start.
run solve 1-1-1-1-1-1-3-3-S --variant $V --dir "$eg"
expect_rc 0
expect_in "oware solve 1-1-1-1-1-1-3-3-S --variant '$V,cycle=split' --dir '$eg'" out
# --json, and a position with North to move, exact.
run solve --variant $V --dir "$eg" --json
expect_rc 0
expect_py 'd["value"]["lower"], d["value"]["upper"], d["value"]["exact"], d["value"]["split"]' '8 10 False None'
expect_py 'd["seeds"], d["mover"], d["winner"], d["margin"]["lower"], d["margin"]["upper"]' '12 south south 4 8'
expect_py 'd["line"]["plies"], d["line"]["goal"], d["line"]["end"], d["line"]["score"]' '22 lower repetition [9, 3]'
expect_py 'len(d["line"]["moves"].split()), d["build"]["positions"], d["tables"]' '22 0 abapa,houses=3'
run solve 0-0-1-1-0-0-5-5-N --variant $V --dir "$eg" --json
expect_rc 0
expect_py 'd["value"]["exact"], d["value"]["lower"], d["mover"], d["winner"], d["margin"]["lower"]' 'True 2 north north 2'
expect_py 'd["line"]["moves"], d["line"]["score"]' 'a C [5, 7]'
# Neither side can force a capture: the line ends at its first repetition, the seeds by the cycle rule.
run solve 0-0-1-0-0-1-10-0-S --variant $V --dir "$eg"
expect_rc 0
expect_in "value: South ends with 0 to 2 of the 2 seeds, cycle-sensitive" out
expect_in "end: repetition after ply 6 (neither side can force a capture: play goes round), South 11 North 1 (majority reached after ply 0)" out
run solve 0-0-1-0-0-1-10-0-S --variant $V --dir "$eg" --json
expect_py 'd["line"]["end"], d["line"]["plies"], d["line"]["score"], d["line"]["majority_ply"], d["winner"]' 'repetition 6 [11, 1] 0 south'
# The split table decides awari's value.
run solve --variant awari,houses=3,seeds=2 --dir "$eg" --quiet
expect_rc 0
expect_in "split (endless play shares the seeds left): 7.5, exact (the split table)" out
# A plan only, and a board too large for the tables: refused with the reason.
run solve --variant abapa,houses=4,seeds=4 --plan --dir "$tmp/none"
expect_rc 0
expect_in "76904685 positions" out
[ ! -e "$tmp/none" ] || fail "--plan made the folder"
run solve --variant abapa,houses=4,seeds=4 --plan --json --dir "$tmp/none"
expect_rc 0
expect_py 'd["plan"], d["seeds"], d["build"]["positions"], d["build"]["present"]' 'True 32 76904685 0'
[ ! -e "$tmp/none" ] || fail "--plan --json made the folder"
run solve --variant abapa --dir "$eg"
expect_rc 1
expect_in "cannot solve abapa: 48 seeds on the board; the tables hold at most 32" err
# A damaged table: the error names it and the command that builds it again.
printf 'X' | dd of="$eg/abapa,houses=3/n05.egdb" bs=1 seek=200 conv=notrunc 2>/dev/null
run solve --variant $V --dir "$eg"
expect_rc 1
expect_in "n05.egdb: checksum mismatch" err
expect_in "'oware egdb build --variant $V --seeds 12 --dir $eg' builds it again" err
# Bad input.
run solve --variant nope --dir "$eg"
expect_rc 2
expect_in "unknown variant 'nope'" err
run solve 1-2-3 --variant $V --dir "$eg"
expect_rc 2
expect_in "position '1-2-3': position: 3 fields, expected 9" err
expect_in "for 3 houses a side, as in 2-2-2-2-2-2-0-0-S (the start)" err
run solve --variant grandslam-win,houses=3,seeds=2 --dir "$eg"
expect_rc 2
expect_in "grand_slam=win is not supported" err
run solve 9-2-2-2-2-2-0-0-S --variant $V --dir "$eg"
expect_rc 2
run solve a b
expect_rc 2

echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
