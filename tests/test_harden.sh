#!/usr/bin/env bash
# test_harden.sh: issue 12 end to end: games that end, a database read as input, write errors, names, output paths, files written whole.
set -u
oware=$1
data=$2
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
says() { grep -q -- "$1" "$2" || { echo "  expected '$1' in:"; sed 's/^/  | /' "$2"; return 1; }; }

# --- 1. A variant whose games could cycle for ever is refused at once. ---
timeout 10 "$oware" match --variant 'houses=3,seeds=1,repetition=0,max_plies=0' --south greedy \
  --north greedy:seed=2 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "1: match with neither repetition nor ply limit exits 2 (not 124: no endless game)" test $rc = 2
check "1: the message names both switches" says "repetition=0 with max_plies=0" "$tmp/err"
timeout 10 "$oware" tournament --players 'greedy;random' --variant 'houses=3,seeds=1,repetition=0,max_plies=0' \
  --db "$tmp/cyc.db" --quiet >/dev/null 2>"$tmp/err"
check "1: tournament refuses it before creating the database" bash -c "test $? = 2 && test ! -e '$tmp/cyc.db'"
timeout 60 "$oware" match --variant 'houses=3,seeds=1,repetition=0,max_plies=2000' --south greedy \
  --north greedy:seed=2 --games 1 >"$tmp/out" 2>&1
check "1: with a ply limit the same game ends" says "ply-limit" "$tmp/out"

# A run to read from: 2 players, 1 variant, 4 games.
"$oware" tournament --players 'random;greedy' --format games:4 --seed 3 --threads 1 \
  --db "$tmp/ok.db" --quiet >/dev/null 2>&1
check "a small run is stored" test "$("$oware" export --db "$tmp/ok.db" --run 1 --format csv | wc -l)" = 5

# --- 6. A database is input: bad rows are named. ---
corrupt() { # corrupt NAME SQL: a copy of ok.db with SQL applied
  cp "$tmp/ok.db" "$tmp/$1.db"
  sqlite3 "$tmp/$1.db" "PRAGMA ignore_check_constraints=ON; $2"
}
corrupt vidx "UPDATE games SET variant_idx = 40 WHERE series_no = 0 AND game_no = 1"
"$oware" export --db "$tmp/vidx.db" --run 1 --format ogn >/dev/null 2>"$tmp/err"
check "6: export of variant_idx 40 fails with exit 1" test $? = 1
check "6: ... and names the row" says "run 1 game 1 (series 0): variant_idx 40 out of range 0..0" "$tmp/err"
corrupt south "UPDATE games SET south_idx = 5000 WHERE series_no = 0 AND game_no = 2"
"$oware" export --db "$tmp/south.db" --run 1 --format csv >/dev/null 2>"$tmp/err"
check "6: export of south_idx 5000 names the row" says "run 1 game 2 (series 0): south_idx 5000 out of range 0..1" "$tmp/err"
corrupt moves "UPDATE games SET moves = 'FZ', plies = 2 WHERE series_no = 0 AND game_no = 0"
"$oware" export --db "$tmp/moves.db" --run 1 --format ogn >/dev/null 2>"$tmp/err"
check "6: a bad move letter is named" says "move 2 is 'Z'" "$tmp/err"
corrupt opening "UPDATE games SET opening = '1-2-3' WHERE series_no = 0 AND game_no = 3"
"$oware" export --db "$tmp/opening.db" --run 1 --format ogn >/dev/null 2>"$tmp/err"
check "6: a bad opening is named" says "game 3 (series 0): opening '1-2-3'" "$tmp/err"
"$oware" rate --db "$tmp/vidx.db" --run 1 >"$tmp/out" 2>"$tmp/err"
rc=$?
check "6: rate names the bad row (exit 1)" bash -c "test $rc = 1 && grep -q 'variant_idx 40 out of range 0..0' '$tmp/err'"
check "6: ... instead of 'No games to rate'" bash -c "! grep -q 'No games to rate' '$tmp/out'"
corrupt pidx "UPDATE games SET a_idx = 7 WHERE series_no = 0"
"$oware" rate --db "$tmp/pidx.db" --run 1 >/dev/null 2>"$tmp/err"
check "6: rate names a player index out of range" says "a_idx 7" "$tmp/err"
"$oware" report --db "$tmp/vidx.db" --run 1 --out "$tmp/rep" >/dev/null 2>"$tmp/err"
check "6: report names the bad row" says "variant_idx 40 out of range" "$tmp/err"
# Every reader (export, rate) checks a row the same way: the result against
# the rules, the columns' types, the indices against the stored players and
# variants (each of these was read in silence, or misnamed, before).
bad_row() { # bad_row NAME SQL MESSAGE: export and rate of ok.db with SQL applied both refuse it
  corrupt "$1" "$2"
  local cmd
  for cmd in "export --format pgn" "export --format csv" "rate"; do
    "$oware" $cmd --db "$tmp/$1.db" --run 1 >/dev/null 2>"$tmp/err"
    check "6: $cmd of $1 exits 1" test $? = 1
    check "6: ... and says why" says "$3" "$tmp/err"
  done
}
g0="WHERE series_no = 0 AND game_no = 0"
bad_row winner "UPDATE games SET winner = CASE WHEN score_south > score_north THEN 1 ELSE 0 END $g0" \
  "run 1 game 0 (series 0): winner [01] ([a-z]*) but the scores .* of a game ended by majority make it"
bad_row sum "UPDATE games SET score_south = 40, score_north = 40 $g0" \
  "scores 40-40 add up to more than the variant's 48 seeds"
bad_row allseeds "UPDATE games SET end_reason = 'repetition' $g0" \
  "of a game ended by repetition do not add up to the variant's 48 seeds"
bad_row sides "UPDATE games SET a_idx = 1, b_idx = 0 WHERE series_no = 0 AND game_no = 1" \
  "run 1 game 1 (series 0): variant_idx 0, a_idx 1, b_idx 0, but its series' first game has variant_idx 0, a_idx 0, b_idx 1"
bad_row text "UPDATE games SET score_south = 'ten' $g0" "score_south is the text 'ten', not a number"
bad_row huge "UPDATE games SET variant_idx = 4294967296 $g0" "variant_idx 4294967296 is beyond a 32-bit integer"
bad_row hugea "UPDATE games SET a_idx = 4294967296 $g0" "a_idx 4294967296 is beyond a 32-bit integer"
bad_row plies "UPDATE games SET plies = '52abc' $g0" "plies is the text '52abc', not an integer"
bad_row novariant "DELETE FROM variants" "variant_idx 0: the run has no variants stored"
corrupt noplayer "DELETE FROM players WHERE idx = 0"
"$oware" rate --db "$tmp/noplayer.db" --run 1 >/dev/null 2>"$tmp/err"
check "6: rate of a run whose player 0 is missing says so" says "a_idx 0: the run has no player 0 stored" "$tmp/err"
# An adjudicated game's winner is the decision stored, whatever the seeds.
corrupt resign "UPDATE games SET end_reason = 'adjudicated-resign', winner = CASE WHEN score_south > score_north THEN 1 ELSE 0 END $g0"
"$oware" rate --db "$tmp/resign.db" --run 1 >/dev/null 2>"$tmp/err"
check "6: rate reads an adjudicated game won by fewer seeds" test $? = 0
# What the row alone cannot show, the replay does (export, report, viewer).
corrupt replayed "UPDATE games SET score_south = score_south + 1 $g0"
"$oware" export --db "$tmp/replayed.db" --run 1 --format pgn >/dev/null 2>"$tmp/err"
check "6: export of a result the moves do not give exits 1" test $? = 1
check "6: ... and says why" says "series 0 game 0 does not replay as stored: the rules give" "$tmp/err"
corrupt forfeit "UPDATE games SET end_reason = 'forfeit-crash' $g0"
"$oware" export --db "$tmp/forfeit.db" --run 1 --format ogn >/dev/null 2>"$tmp/err"
check "6: a forfeit after the rules' end is refused" says "it is over by the rules (majority) before the stored forfeit-crash" "$tmp/err"

# --- 8. Write errors on standard output. ---
full() { # full NAME ARGS...: the command into /dev/full
  local name=$1
  shift
  "$oware" "$@" >/dev/full 2>"$tmp/err"
  local rc=$?
  check "8: $name into /dev/full exits 1" test $rc = 1
  check "8: $name says why" says "write error on standard output: No space left on device" "$tmp/err"
}
full weights weights
full runs runs --db "$tmp/ok.db"
full perft perft 3
full replay replay F d
full players players
full export export --db "$tmp/ok.db" --run 1 --format ogn
full help --help
cp "$tmp/ok.db" "$tmp/full.db"
full tournament tournament --players 'random;greedy' --format games:2 --db "$tmp/full.db" --quiet
"$oware" weights >"$tmp/w.txt"
check "8: weights to a file still exits 0" test -s "$tmp/w.txt"
: >"$tmp/empty.txt"
"$oware" weights --check "$tmp/empty.txt" >/dev/null 2>"$tmp/err"
check "8: an empty weights file is an error" bash -c "test $? = 2 && grep -q 'it is empty' '$tmp/err'"
head -c 100 "$tmp/w.txt" >"$tmp/cut.txt"
"$oware" weights --check "$tmp/cut.txt" >/dev/null 2>"$tmp/err"
check "8: a truncated weights file is an error" says "looks truncated" "$tmp/err"
"$oware" match --south "minimax:depth=1,weights=$tmp/empty.txt" --north random >/dev/null 2>"$tmp/err"
check "8: a player with an empty weights file is refused" says "it is empty" "$tmp/err"

# --- 9. uci time arithmetic with huge numbers (the sanitizer build aborts on overflow). ---
printf 'uci\nposition startpos\ngo wtime 1000 btime 1000 movestogo 9223372036854775807\ngo wtime 9223372036854775807 winc 9223372036854775807 binc 9223372036854775807\nisready\nquit\n' |
  timeout 60 "$oware" uci --player random >"$tmp/out" 2>"$tmp/err"
check "9: uci answers go with huge movestogo and winc" bash -c "test \$(grep -c '^bestmove' '$tmp/out') = 2 && grep -q readyok '$tmp/out'"
check "9: no runtime error" bash -c "! grep -q 'runtime error' '$tmp/err'"

# --- 11. Control characters in names. ---
"$oware" tournament --players 'random;greedy' --name $'two\nlines' --db "$tmp/n.db" --quiet >/dev/null 2>"$tmp/err"
check "11: a run name with a newline is refused (exit 2)" bash -c "test $? = 2 && grep -q 'control character (a newline at position 4)' '$tmp/err'"
check "11: ... before the database is made" test ! -e "$tmp/n.db"
"$oware" match --south $'random:name=a\tb' --north greedy >/dev/null 2>"$tmp/err"
check "11: a player name with a tab is refused" says "holds a control character (byte 0x09 at position 2)" "$tmp/err"
# One check of names wherever a name enters (issue 26 point 9): C1 controls,
# invalid UTF-8 and bidirectional overrides too, and names read from PGN.
"$oware" match --south $'random:name=a\xc2\x85b' --north greedy >/dev/null 2>"$tmp/err"
check "11: a player name with a C1 control (U+0085) is refused" says "holds a control character (U+0085 at position 2)" "$tmp/err"
"$oware" match --south $'random:name=a\xff\xfeb' --north greedy >/dev/null 2>"$tmp/err"
check "11: a player name that is not UTF-8 is refused" says "is not valid UTF-8 (byte 0xff at position 2)" "$tmp/err"
"$oware" tournament --players 'random;greedy' --name $'ab\xe2\x80\xaecd' --db "$tmp/n2.db" --quiet >/dev/null 2>"$tmp/err"
check "11: a run name with a bidirectional override (U+202E) is refused" says "holds a bidirectional control (U+202E at position 3)" "$tmp/err"
# A run's name is not empty and at most 127 bytes (a player's name's limit):
# the runs listing loses a column to an empty one.
"$oware" tournament --players 'random;greedy' --name '' --db "$tmp/n3.db" --quiet >/dev/null 2>"$tmp/err"
check "11: an empty run name is refused (exit 2)" bash -c "test $? = 2 && test ! -e '$tmp/n3.db'"
check "11: ... saying it is empty" says "the run name (--name) is empty" "$tmp/err"
"$oware" tournament --players 'random;greedy' --name "$(printf 'x%.0s' {1..5000})" --db "$tmp/n3.db" \
  --quiet >/dev/null 2>"$tmp/err"
check "11: a run name of 5000 bytes is refused (exit 2)" bash -c "test $? = 2 && test ! -e '$tmp/n3.db'"
check "11: ... saying how long it is" says "is 5000 bytes long; at most 127" "$tmp/err"
printf '[White "a\033[31mred\tx"]\n[Black "b"]\n[Result "1-0"]\n\n1. F 1-0\n' >"$tmp/esc.pgn"
"$oware" rate --pgn "$tmp/esc.pgn" --db "$tmp/esc.db" >/dev/null 2>"$tmp/err"
check "11: a PGN name with an escape sequence is refused (exit 2)" bash -c "test $? = 2 && grep -q 'record 1 (line 1): player name .* holds a control character (byte 0x1b at position 2)' '$tmp/err'"

# --- 12. Output paths checked before the work. ---
early() { # early NAME MESSAGE ARGS...: fails within 5 s with exit 2
  local name=$1 msg=$2
  shift 2
  local t0=$SECONDS
  timeout 60 "$oware" "$@" >/dev/null 2>"$tmp/err"
  local rc=$?
  check "12: $name fails at once (exit 2)" bash -c "test $rc = 2 && test $((SECONDS - t0)) -le 5"
  check "12: $name names the path" says "$msg" "$tmp/err"
}
early "calibrate --out" "$tmp/missing/l.txt" calibrate --base minimax --knob depth --range 1:3 \
  --levels 'easy=0;hard=100' --anchor greedy=0 --out $tmp/missing/l.txt
early "tune --out" "$tmp/missing/w.txt" tune spsa --player minimax:depth=1 --iterations 2 \
  --db "$tmp/tune.db" --out $tmp/missing/w.txt
early "export --out" "$tmp/missing/x.ogn" export --db "$tmp/ok.db" --run 1 --format ogn --out $tmp/missing/x.ogn
early "match --ogn" "$tmp/missing/m.ogn" match --south random --north greedy --ogn $tmp/missing/m.ogn
early "match --ogn a folder" "it is a folder" match --south random --north greedy --ogn "$tmp"
early "report --out" "$tmp/missing/a" report --db "$tmp/ok.db" --run 1 --out $tmp/missing/a/b
early "chart --out" "$tmp/missing/a" chart --db "$tmp/ok.db" --run 1 --out $tmp/missing/a/b
check "12: tune made no database" test ! -e "$tmp/tune.db"

# --- 13. Files written whole or not at all. ---
echo "precious" >"$tmp/keep.ogn"
"$oware" export --db "$tmp/moves.db" --run 1 --format ogn --out "$tmp/keep.ogn" >/dev/null 2>&1
check "13: a failed export leaves the existing file as it was" bash -c "test \"\$(cat '$tmp/keep.ogn')\" = precious"
check "13: ... and no temporary file" bash -c "! ls '$tmp' | grep -q 'keep.ogn.tmp'"
"$oware" export --db "$tmp/ok.db" --run 1 --format ogn --out "$tmp/keep.ogn" >/dev/null 2>&1
check "13: a good export replaces it" says '\[Result ' "$tmp/keep.ogn"
"$oware" match --south random --north greedy --ogn "$tmp/m.ogn" >/dev/null 2>&1
check "13: match --ogn writes its games" test "$(grep -c '^\[Round' "$tmp/m.ogn")" = 2
"$oware" export --db "$tmp/ok.db" --run 1 --format ogn --out /dev/null >/dev/null 2>&1
check "13: a device is written in place, not replaced" test -c /dev/null
# A full disk while the database is made: ulimit -f 1 stops SQLite at its first page write.
(trap '' XFSZ; ulimit -f 1; "$oware" tournament --players 'random;greedy' --db "$tmp/fulldisk.db" --quiet) >/dev/null 2>"$tmp/err"
check "13: a tournament that cannot write its new database fails" bash -c "test $? != 0"
check "13: ... and leaves no database file behind" bash -c "! ls '$tmp' | grep -q fulldisk"

# --- 14. Messages that say what. ---
mkdir -p "$tmp/d"
"$oware" tournament --players-file "$tmp/d" --db "$tmp/x.db" >/dev/null 2>"$tmp/err"
check "14: a folder given as a file says so" says "'$tmp/d': it is a folder" "$tmp/err"
"$oware" weights --check "$tmp/d" >/dev/null 2>"$tmp/err"
check "14: a folder given as weights says so" says "it is a folder" "$tmp/err"
"$oware" match --south random:seed=-1 --north greedy >/dev/null 2>"$tmp/err"
check "14: a bad seed says what is allowed" says "option 'seed' is '-1'; allowed: a whole number from 0 to" "$tmp/err"
sum0=$(md5sum <"$tmp/ok.db")
"$oware" runs --db "$tmp/ok.db" >/dev/null && "$oware" export --db "$tmp/ok.db" --run 1 --format csv >/dev/null &&
  "$oware" report --db "$tmp/ok.db" --run 1 --out "$tmp/rep2" >/dev/null 2>&1
check "14: runs, export and report leave the database untouched (opened read-only)" bash -c "test \"\$(md5sum <'$tmp/ok.db')\" = '$sum0'"
if [ "$(id -u)" != 0 ]; then
  cp "$tmp/ok.db" "$tmp/ro.db"
  chmod 444 "$tmp/ro.db"
  "$oware" export --db "$tmp/ro.db" --run 1 --format csv >/dev/null 2>"$tmp/err"
  check "14: a write-protected database can be exported" test $? = 0
  "$oware" rate --db "$tmp/ro.db" --run 1 >/dev/null 2>"$tmp/err"
  check "14: ... and rated (ratings not stored, and why)" says "the ratings are not stored: store: cannot write .*read-only" "$tmp/err"
else
  echo "skip 14: write-protected database (root ignores file permissions)"
fi
# An engine whose id holds a NUL byte.
cat >"$tmp/nul_engine.sh" <<'ENG'
while read -r line; do
  case "$line" in
    uci) printf 'id name \000evil\nuciok\n' ;;
    isready) echo readyok ;;
    go*) echo "bestmove Z" ;;
    quit) exit 0 ;;
  esac
done
ENG
"$oware" match --south "engine:cmd=sh,arg=$tmp/nul_engine.sh,timeout=2000" --north random --games 1 >"$tmp/out" 2>&1
check "14: an engine whose id holds NUL is named by what follows it" says "engine '?evil'" "$tmp/out"

echo "$fails failure(s)"
[ $fails = 0 ]
