#!/usr/bin/env bash
# test_egdb_default.sh: end to end: minimax and mcts read the default folder's endgame tables
# when they are there (egdb=auto, issue 13); a run pins the tables it began with into its
# specs, so that its games stay the same whatever tables are built later, and a resume with
# those tables missing or changed is refused, naming them.
# Usage: bash test_egdb_default.sh OWARE_BINARY TESTS_DATA_DIR
set -u
OWARE=${1:?usage: test_egdb_default.sh OWARE_BINARY DATA_DIR}
checks=0
fails=0
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
check_tmp
RUN_TIMEOUT=120
export XDG_CACHE_HOME=$tmp/cache
cd "$tmp" || exit 1
moves() { sqlite3 "$1" "SELECT group_concat(moves, '|') FROM (SELECT moves FROM games ORDER BY series_no, game_no)"; }
spec() { sqlite3 "$1" "SELECT spec FROM players WHERE name = '$2'"; }

# Endings of 10 seeds on the board, each played with both colours.
printf '%s\n' 2-1-0-1-0-1-1-0-2-0-1-1-19-19-S 0-2-1-1-0-1-2-0-1-1-0-1-20-18-N \
  1-1-1-0-2-0-0-2-0-1-1-1-18-20-S 3-0-0-1-1-0-1-1-0-0-2-1-19-19-N >ops.txt
P="minimax:depth=3,name=a;mcts:playouts=200,name=b;minimax:depth=2,egdb=off,name=c"
T=(tournament --players "$P" --openings file:ops.txt --format games:8 --seed 5 --threads 2 --quiet)

# No tables: the run pins "none" for abapa; egdb=off stays as given.
run "${T[@]}" --db none.db
expect_rc 0
check "no tables: the spec pins none" grep -qx 'minimax:depth=3,name=a,egdb=auto@[0-9a-f]\{8\}:-' <<<"$(spec none.db a)"
check "egdb=off is not pinned" test "$(spec none.db c)" = "minimax:depth=2,egdb=off,name=c"

# Tables to 8 seeds in the default folder: read by default, pinned with their digest.
run egdb build --seeds 8 --quiet
expect_rc 0
run "${T[@]}" --db full.db
expect_rc 0
check "tables to 8: the spec pins them" grep -qx 'mcts:playouts=200,name=b,egdb=auto@[0-9a-f]\{8\}:8:[0-9a-f]\{16\}' <<<"$(spec full.db b)"
check "the tables change the games (egdb=auto is the default)" test "$(moves full.db)" != "$(moves none.db)"

# oware uci: UseLeaves is on by default for minimax; a 6-seed win is scored as a proven win.
pos=1-1-1-0-0-0-0-0-1-1-1-0-21-21-S
out=$(printf 'uci\nposition fen %s\ngo depth 3\nisready\n' "$pos" | timeout 60 "$OWARE" uci --player minimax:depth=3 2>&1)
check "uci: UseLeaves defaults to true" grep -qx 'option name UseLeaves type check default true' <<<"$out"
check "uci: the tables score a won ending as a win by default" grep -q 'score mate [0-9]' <<<"$out"
out=$(printf 'setoption name UseLeaves value false\nposition fen %s\ngo depth 3\nisready\n' "$pos" | timeout 60 "$OWARE" uci --player minimax:depth=3 2>&1)
check "uci: UseLeaves false turns them off" bash -c "grep -q 'score cp ' <<<'$out' && ! grep -q 'score mate' <<<'$out'"

# More tables built (to 10): a new run reads them, and plays other games ...
run egdb build --seeds 10 --quiet
expect_rc 0
run "${T[@]}" --db grown.db
check "a new run pins the tables to 10" grep -q 'egdb=auto@[0-9a-f]\{8\}:10:' <<<"$(spec grown.db a)"
check "... and plays other games than with 8" test "$(moves grown.db)" != "$(moves full.db)"
# ... but a run that began with 8 resumes with 8: the games of the uninterrupted run.
cp full.db part.db
sqlite3 part.db "DELETE FROM games WHERE id > (SELECT min(id) + 9 FROM games); DELETE FROM series;
  UPDATE runs SET status = 'interrupted'"
run tournament --resume 1 --db part.db --quiet
expect_rc 0
check "a resume after more tables were built plays the run's games" test "$(moves part.db)" = "$(moves full.db)"

# The run's tables changed or gone: the resume is refused, naming them.
refused() { # refused WHAT TEXT
  cp full.db r.db
  sqlite3 r.db "DELETE FROM games WHERE id > (SELECT min(id) + 3 FROM games); DELETE FROM series;
    UPDATE runs SET status = 'interrupted'"
  run tournament --resume 1 --db r.db --quiet
  checks=$((checks + 1))
  if [ "$rc" -eq 0 ] || ! grep -qF -- "$2" <<<"$err"; then fail "$1: exit $rc: $err"; else echo "ok   $1"; fi
  [ "$(sqlite3 r.db 'SELECT count(*) FROM games')" = 4 ] || fail "$1: games were played"
}
egdb=$XDG_CACHE_HOME/oware/egdb/abapa
mv "$egdb/n08.egdb" n08.keep
mv "$egdb/n09.egdb" n09.keep
mv "$egdb/n10.egdb" n10.keep
refused "a pinned table missing" "only the tables to 7 seeds are there now"
mv n10.keep "$egdb/n10.egdb"
refused "a pinned table missing below a larger one" "n08.egdb is missing, but $egdb/n10.egdb is there: the tables have a gap"
mv n08.keep "$egdb/n08.egdb"
mv n09.keep "$egdb/n09.egdb"
cp "$egdb/n05.egdb" n05.keep
# Changed but whole (a value and the checksum in the header rewritten, as a
# different build would): the digest differs. A byte flipped alone is
# damage, found by the checksum (test_egdb_damaged.sh).
python3 - "$egdb/n05.egdb" <<'PY'
import struct, sys
M = (1 << 64) - 1
def checksum(h, data):
    for i in range(0, len(data) - len(data) % 8, 8):
        h = ((h ^ struct.unpack_from("<Q", data, i)[0]) * 0xff51afd7ed558ccd) & M
        h ^= h >> 29
    for b in data[len(data) - len(data) % 8:]:
        h = ((h ^ b) * 0xc4ceb9fe1a85ec53) & M
        h ^= h >> 29
    return h
f = bytearray(open(sys.argv[1], "rb").read())
count, tables = struct.unpack_from("<Q", f, 16)[0], struct.unpack_from("<I", f, 24)[0]
f[128 + 7] ^= 1
h = 0x9e3779b97f4a7c15
for t in range(tables):
    h = checksum(h, bytes(f[128 + t * count:128 + (t + 1) * count]))
struct.pack_into("<Q", f, 32, h)
open(sys.argv[1], "wb").write(f)
PY
refused "a pinned table changed" "they have changed since the run began"
cp n05.keep "$egdb/n05.egdb"
printf '\xff' | dd of="$egdb/n05.egdb" bs=1 seek=$((128 + 100)) conv=notrunc 2>/dev/null
refused "a pinned table damaged in place" "n05.egdb: checksum mismatch (the file is corrupt)"
cp n05.keep "$egdb/n05.egdb"
mv "$egdb" abapa.keep
refused "the pinned tables gone" "start a new run"
mv abapa.keep "$egdb"
run tournament --resume 1 --db part.db --quiet
expect_rc 0

# oware tune pins its player's tables too (the run's setting `player`); the name stays as given.
run tune spsa --player minimax:depth=1 --iterations 1 --pairs 1 --threads 1 --db tune.db --quiet --out w.txt
expect_rc 0
check "tune: the player setting is pinned" grep -qx 'minimax:depth=1,egdb=auto@[0-9a-f]\{8\}:10:[0-9a-f]\{16\}' \
  <<<"$(sqlite3 tune.db "SELECT value FROM run_config WHERE key = 'player'")"
check "tune: the player's name is its spec as given" test "$(sqlite3 tune.db 'SELECT name FROM players')" = minimax:depth=1

# A pin is written by a run, not by hand: a malformed one is an error naming it.
run match --south "minimax:depth=1,egdb=auto@zz" --north greedy --games 1
expect_rc 2
check "a malformed pin is named" grep -q "is not HASH:N:DIGEST or HASH:-" <<<"$err"

# A damaged table in the default folder is found before it gives a value,
# whatever the player (issue 26 point 16): an unpinned minimax (egdb=auto)
# no longer plays on without the tables but refuses to start, naming the
# file, as perfect refuses; tables that are simply absent are still played
# without.
cp "$egdb/n06.egdb" n06.keep
truncate -s -100 "$egdb/n06.egdb"
run match --south minimax:depth=2 --north random --games 1
check "egdb=auto with a truncated table: no game is played on without it" test "$rc" != 0
check "... the error names the file and the fault" grep -q "egdb=auto: .*n06.egdb: truncated" <<<"$err"
run match --south perfect --north random --games 1
check "perfect names the same fault" grep -q "n06.egdb: truncated" <<<"$out$err"
cp n06.keep "$egdb/n06.egdb"
run match --south minimax:depth=2 --north random --games 1
expect_rc 0
check "the table put back: the game is played" bash -c "! grep -q forfeit <<<'$out'"

echo "$checks checks run by expect_*, $fails failures"
[ "$fails" -eq 0 ]
