# test_egdb.sh: end-to-end checks of oware egdb build/probe/stats and bench egdb: output, resume, bad input, exit codes.
# Usage: bash test_egdb.sh OWARE_BINARY TESTS_DATA_DIR
set -u

OWARE=${1:?usage: test_egdb.sh OWARE_BINARY DATA_DIR}
checks=0
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
RUN_TIMEOUT=300
expect_in() { # expect_in TEXT WHERE(out|err)
  checks=$((checks + 1))
  local s
  if [ "$2" = out ]; then s=$out; else s=$err; fi
  case "$s" in *"$1"*) ;; *) fail "$2 lacks '$1':
$s" ;; esac
}

db=$tmp/db
# A build with its progress bar, then one that keeps every table.
run egdb build --seeds 7 --dir "$db"
expect_rc 0
expect_in "8 built, 0 kept" out
expect_in "egdb build n=7/7 done: 50388/50388 positions" err
run egdb build --seeds 7 --dir "$db" --quiet
expect_rc 0
expect_in "0 built, 8 kept" out
[ -z "$err" ] || fail "--quiet printed: $err"
# A killed build resumes at the table it was on (a leftover temporary file is ignored).
rm "$db/abapa/n07.egdb"
echo junk >"$db/abapa/n07.egdb.tmp"
run egdb build --seeds 7 --dir "$db" --quiet
expect_rc 0
expect_in "1 built, 7 kept" out
# The layout forced: the lean build writes the same tables; a made-up layout is refused.
run egdb build --seeds 7 --dir "$tmp/lean" --layout lean --quiet
expect_rc 0
expect_in "lean layout" out
for n in 0 3 7; do
  checks=$((checks + 1))
  cmp -s "$db/abapa/n0$n.egdb" "$tmp/lean/abapa/n0$n.egdb" || fail "lean n0$n.egdb differs from the fast build's"
done
run egdb build --seeds 7 --dir "$tmp/lean" --layout small --quiet
expect_rc 2
# XDG cache folder by default.
XDG_CACHE_HOME=$tmp/cache run egdb build --seeds 2 --quiet
expect_rc 0
[ -f "$tmp/cache/oware/egdb/abapa/n02.egdb" ] || { fails=$((fails + 1)); echo "FAIL: no table in the XDG cache"; }

# Probe: South has 1 in E, 2 in F; North 1 in d; 44 seeds in the stores.
run egdb probe 0-0-0-0-1-2-0-0-0-1-0-0-20-24-S --dir "$db"
expect_rc 0
expect_in "seeds 4" out
expect_in "move E " out
expect_in "move F " out
[ "$(grep -c '^move' "$tmp/out")" -eq 2 ] || fail "expected 2 moves: $out"
# North to move: South 2 in A, North 3 in f; 3 seeds captured... values from North's side.
run egdb probe 2-0-0-0-0-0-0-0-0-0-0-3-20-23-N --dir "$db"
expect_rc 0
expect_in "seeds 5" out
expect_in "move f " out
# Too many seeds, bad position, unsupported variant, missing tables.
run egdb probe 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S --dir "$db"
expect_rc 1
expect_in "covers up to 7" err
run egdb probe 1-2-3 --dir "$db"
expect_rc 2
run egdb build --seeds 3 --variant grandslam-win --dir "$db"
expect_rc 2
expect_in "not supported" err
run egdb probe 0-0-0-0-1-2-0-0-0-1-0-0-20-24-S --dir "$db" --variant grandslam-all
expect_rc 1
expect_in "no endgame tables" err
run egdb build --dir "$db"
expect_rc 2
expect_in "missing --seeds" err
run egdb build --seeds 99 --dir "$db"
expect_rc 2

# Awari: the split value.
run egdb build --seeds 5 --variant awari --dir "$db" --quiet
expect_rc 0
run egdb probe 0-0-0-0-1-2-0-0-0-1-0-1-20-23-N --dir "$db" --variant awari
expect_rc 0
expect_in "split" out

# Stats, plain and Markdown.
run egdb stats --variant abapa --variant awari --seeds 5 --dir "$db"
expect_rc 0
expect_in "cycle%" out
[ "$(grep -c '^awari' "$tmp/out")" -eq 6 ] || fail "expected 6 awari rows: $out"
run egdb stats --variant abapa --dir "$db" --markdown
expect_rc 0
expect_in "| abapa | 7 | 31824 |" out
run egdb stats --variant abapa --seeds 9 --dir "$db"
expect_rc 1
expect_in "the endgame tables of variant 'abapa' in $db stop at 7 seeds, not 9" err

# UseLeaves in oware uci: minimax's egdb= with the folder of --egdb-dir. A
# position of 6 seeds that the tables call a win (6 of 6 with the stores
# even): the search scores it as a proven win, and plays a winning move;
# without UseLeaves, it sees only an evaluation at depth 3.
leaves="$tmp/leaves"
mkdir -p "$leaves"
run egdb build --variant abapa --seeds 6 --dir "$leaves" --quiet
expect_rc 0
pos=1-1-1-0-0-0-0-0-1-1-1-0-21-21-S
run egdb probe "$pos" --dir "$leaves"
expect_in "value 6 (exact)" out
uci_leaves() { # uci_leaves ON: the answer to `go depth 3` at pos
  out=$(printf 'position fen %s\nsetoption name UseLeaves value %s\ngo depth 3\nisready\n' "$pos" "$1" |
    timeout 60 "$OWARE" uci --player minimax:depth=3 --egdb-dir "$leaves" 2>&1)
  what="oware uci, UseLeaves $1"
}
uci_leaves true
expect_in "score mate " out
case "$out" in *"score mate -"*) fail "a won position scored as a loss: $out" ;; esac
case "$out" in *"bestmove "[ABC]*) ;; *) fail "not a winning move (A, B or C): $out" ;; esac
case "$out" in *"info string"*) fail "an info string: $out" ;; esac
uci_leaves false
expect_in "score cp " out
case "$out" in *"score mate"*) fail "a mate score without the tables: $out" ;; esac
# The folder without tables: an error line naming it.
out=$(printf 'setoption name UseLeaves value true\nisready\n' | "$OWARE" uci --egdb-dir "$tmp/none" 2>&1)
what="oware uci --egdb-dir without tables"
expect_in "info string error: egdb=$tmp/none: no endgame tables" out

# A gap in the tables (a file lost) is an error naming it, not a coverage cut short silently;
# egdb build fills it.
mv "$db/abapa/n03.egdb" "$tmp/n03.egdb"
run egdb probe 0-0-0-0-1-2-0-0-0-1-0-0-20-24-S --dir "$db"
expect_rc 1
expect_in "$db/abapa/n03.egdb is missing, but $db/abapa/n04.egdb is there: the tables have a gap" err
run egdb stats --dir "$db"
expect_rc 1
expect_in "the tables have a gap" err
run egdb build --seeds 7 --dir "$db" --quiet
expect_rc 0
expect_in "1 built, 7 kept" out
cmp -s "$db/abapa/n03.egdb" "$tmp/n03.egdb" || fail "the gap's table built again differs"
# A corrupt table is rejected, naming the file and the fault.
printf 'X' | dd of="$db/abapa/n06.egdb" bs=1 seek=500 conv=notrunc 2>/dev/null
run egdb probe 0-0-0-0-1-2-0-0-0-1-0-0-20-24-S --dir "$db"
expect_rc 1
expect_in "n06.egdb: checksum mismatch" err
truncate -s 300 "$db/abapa/n06.egdb"
run egdb stats --dir "$db"
expect_rc 1
expect_in "n06.egdb: truncated" err

# The benchmark, small.
run bench egdb --seeds 4,6
expect_rc 0
expect_in "lookups/s" out
run bench egdb --seeds x
expect_rc 2
# A bench builds from scratch: a seed count twice, an empty item, or tables already in --dir are refused.
run bench egdb --seeds 4,4
expect_rc 2
expect_in "4 is there twice" err
for bad in "" "4," ",4" "4,,6"; do
  run bench egdb --seeds "$bad"
  expect_rc 2
  expect_in "separated by commas" err
done
run bench egdb --seeds 3 --repeat 1 --dir "$tmp/be"
expect_rc 0
[ -f "$tmp/be/bench-3/abapa/n03.egdb" ] || fail "bench egdb --dir left no tables"
run bench egdb --seeds 3 --repeat 1 --dir "$tmp/be"
expect_rc 2
expect_in "$tmp/be/bench-3/abapa/n00.egdb is there already" err
# A failed bench leaves no temporary folder behind (in $TMPDIR, which it honours).
TMPDIR=$tmp/none run bench egdb --seeds 3 --repeat 1
expect_rc 1
expect_in "cannot make a temporary folder" err
mkdir "$tmp/t"
TMPDIR=$tmp/t run bench egdb --seeds 4 --variant grandslam-win --repeat 1
expect_rc 2
[ -z "$(ls -A "$tmp/t")" ] || fail "a failed bench left $(ls -A "$tmp/t") in \$TMPDIR"
# An empty --dir is the current folder, as for every path (not the root's /abapa).
mkdir "$tmp/here"
cd "$tmp/here" || exit 1
run egdb build --seeds 2 --dir "" --quiet
expect_rc 0
expect_in "in ./abapa: 3 built" out
[ -f "$tmp/here/abapa/n02.egdb" ] || fail "egdb build --dir '' did not build in the current folder"
run egdb probe 0-0-0-0-0-1-0-0-0-0-1-0-23-23-S --dir ""
expect_rc 0
cd - >/dev/null || exit 1

echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
