#!/usr/bin/env bash
# test_readonly.sh: issue 26 point 15: a database that this user may not write (a read-only folder, a read-only file, both) is read by every command that only reads (and analysed, the analysis not stored), without a write and with its contents whole; a command that writes says what is wrong and what to do. Run as an unprivileged user (root ignores permissions): directly when not root, else through setpriv or runuser as uid 65534; skipped (exit 77) only when neither can drop root. Usage: test_readonly.sh OWARE DATA_DIR
set -u
SKIP=77 # ctest's SKIP_RETURN_CODE for this test
data=$(realpath "$2")
fails=0
tmp=$(mktemp -d) || exit 1
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
says() { grep -q -- "$1" "$2" || { echo "  expected '$1' in:"; sed 's/^/  | /' "$2"; return 1; }; }
skip() { echo "SKIP: $*"; exit $SKIP; }

# The binary is copied where the unprivileged user can run it (the build tree may be private).
chmod 755 "$tmp"
cp "$1" "$tmp/oware" && chmod 755 "$tmp/oware" || exit 1
oware=$tmp/oware
cd "$tmp" || exit 1 # what a command writes by default (results/) goes here
export XDG_CACHE_HOME=$tmp/cache # no endgame tables, and none of a private cache

# as_user COMMAND...: runs COMMAND as a user whom the permissions bind.
if [ "$(id -u)" != 0 ]; then
  as_user() { "$@"; }
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
  as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
elif command -v runuser >/dev/null && id nobody >/dev/null 2>&1 && runuser -u nobody -- true 2>/dev/null; then
  as_user() { runuser -u nobody -- "$@"; }
else
  skip "running as root, and neither setpriv nor runuser can drop to an unprivileged user"
fi
as_user test -x "$oware" || skip "the unprivileged user cannot reach $tmp"
mkdir "$tmp/probe" && chmod 555 "$tmp/probe"
as_user touch "$tmp/probe/x" 2>/dev/null && skip "the unprivileged user can write a read-only folder"
mkdir -m 777 "$tmp/out"

# The database, made by this user: a tournament (run 1) and a variant study (run 2), rated.
mkdir "$tmp/d"
"$oware" tournament --players 'random;greedy' --rounds 2 --seed 5 --db "$tmp/d/r.db" --quiet >/dev/null &&
  "$oware" study --players 'random;greedy' --games 2 --db "$tmp/d/r.db" --quiet >/dev/null ||
  { echo "FAIL: cannot make the database"; exit 1; }
[ ! -e "$tmp/d/r.db-wal" ] || { echo "FAIL: the writer left r.db-wal"; exit 1; }
cp "$data/v4/v4.db" "$tmp/d/v4.db"
# Tables to 6 seeds for analyse, readable by the unprivileged user.
"$oware" egdb build --variant abapa --seeds 6 --dir "$tmp/eg" >/dev/null 2>&1 && chmod -R a+rX "$tmp/eg" ||
  { echo "FAIL: cannot build the tables"; exit 1; }
# What it holds, read from a copy (a reader leaves empty r.db-wal and r.db-shm where it may).
cp "$tmp/d/r.db" "$tmp/copy.db"
csv=$("$oware" export --db "$tmp/copy.db" --run 1 --format csv)
runs=$("$oware" runs --db "$tmp/copy.db")

# reads NAME: every command that only reads, as the unprivileged user, on d/r.db (in a
# read-only folder, where nothing can be left beside it, when NAME is not "file").
reads() {
  local name=$1 db=$tmp/d/r.db sum
  sum=$(md5sum <"$db")
  as_user "$oware" runs --db "$db" >"$tmp/out.txt" 2>"$tmp/err"
  check "$name: runs" says "tournament" "$tmp/out.txt"
  check "$name: runs lists both runs" test "$(cat "$tmp/out.txt")" = "$runs"
  as_user "$oware" runs --db "$db" --json >"$tmp/out.txt" 2>"$tmp/err"
  check "$name: runs --json" says '"runs"' "$tmp/out.txt"
  as_user "$oware" export --db "$db" --run 1 --format csv >"$tmp/out.txt" 2>"$tmp/err"
  check "$name: export csv, every game" test "$(cat "$tmp/out.txt")" = "$csv"
  for f in pgn ogn; do
    as_user "$oware" export --db "$db" --run 1 --format $f >"$tmp/out.txt" 2>"$tmp/err"
    check "$name: export $f" says '^\[Event' "$tmp/out.txt"
  done
  for scope in "--run 1" "--all"; do
    as_user "$oware" rate --db "$db" $scope >"$tmp/out.txt" 2>"$tmp/err"
    check "$name: rate $scope" says "greedy" "$tmp/out.txt"
    check "$name: rate $scope says why the ratings are not stored" says \
      "the ratings are not stored: store: cannot write .*read-only" "$tmp/err"
  done
  as_user "$oware" analyse --db "$db" --run 1 --egdb-dir "$tmp/eg" --seeds 6 >"$tmp/out.txt" 2>"$tmp/err"
  check "$name: analyse (exit $?)" says "greedy" "$tmp/out.txt"
  check "$name: analyse says why the analysis is not stored" says \
    "the analysis is not stored: store: cannot write .*read-only" "$tmp/err"
  as_user "$oware" report --db "$db" --run 1 --out "$tmp/out/rep-$name" >/dev/null 2>"$tmp/err"
  check "$name: report" test -s "$tmp/out/rep-$name/index.html"
  as_user "$oware" study --run 2 --db "$db" --out "$tmp/out/study-$name" >"$tmp/out.txt" 2>"$tmp/err"
  check "$name: study --run (exit $?)" says "abapa" "$tmp/out.txt"
  # texel's own run goes into --db; the games come from the read-only one.
  as_user "$oware" tune texel --player minimax:depth=1 --from-db "$db" --max-iter 2 --quiet \
    --db "$tmp/out/tune-$name.db" --out "$tmp/out/w-$name.txt" >/dev/null 2>"$tmp/err"
  check "$name: tune texel --from-db (exit $?)" test -s "$tmp/out/w-$name.txt"
  check "$name: nothing written" test "$(md5sum <"$db")" = "$sum"
  [ "$name" = file ] || check "$name: no -wal or -shm left" test ! -e "$db-wal" -a ! -e "$db-shm"
}

# --- A writable database in a read-only folder (the issue's case). ---
chmod 666 "$tmp/d/r.db" "$tmp/d/v4.db"
chmod 555 "$tmp/d"
reads "folder"
# A command that writes says what is wrong and what to do.
as_user "$oware" tournament --players 'random;greedy' --db "$tmp/d/r.db" --quiet >/dev/null 2>"$tmp/err"
check "folder: a tournament into it fails" test $? != 0
check "folder: ... saying the folder is read-only and what to do" says \
  "cannot write $tmp/d/r.db: its folder $tmp/d is read-only .*: copy the database to a folder that can be written" "$tmp/err"
as_user "$oware" tournament --players 'random;greedy' --db "$tmp/d/new.db" --quiet >/dev/null 2>"$tmp/err"
check "folder: a new database in it fails, saying so" says \
  "cannot create $tmp/d/new.db: its folder $tmp/d is read-only" "$tmp/err"
check "folder: ... and leaves nothing" test ! -e "$tmp/d/new.db"
# A database of an older schema is upgraded before it is read: not here, which is said.
as_user "$oware" runs --db "$tmp/d/v4.db" >/dev/null 2>"$tmp/err"
check "folder: an older schema is refused (exit $?)" says \
  "v4.db has an older schema: it is upgraded once, .*cannot be written here: its folder" "$tmp/err"
check "folder: ... untouched" test "$(md5sum <"$tmp/d/v4.db")" = "$(md5sum <"$data/v4/v4.db")"

# --- A read-only database in a read-only folder. ---
chmod 444 "$tmp/d/r.db"
reads "both"
as_user "$oware" tournament --players 'random;greedy' --db "$tmp/d/r.db" --quiet >/dev/null 2>"$tmp/err"
check "both: a tournament into it says both are read-only" says \
  "the file and its folder $tmp/d are read-only" "$tmp/err"

# A folder whose name a URI would read otherwise (the immutable opening is one): read the same.
odd="$tmp/odd ?#%41"
mkdir "$odd" && cp "$tmp/copy.db" "$odd/r.db" && chmod 555 "$odd"
as_user "$oware" runs --db "$odd/r.db" >"$tmp/out.txt" 2>"$tmp/err"
check "odd name: runs (exit $?)" test "$(cat "$tmp/out.txt")" = "$runs"
(cd "$odd" && as_user "$oware" runs --db r.db >"$tmp/out.txt" 2>"$tmp/err")
check "odd name: runs from inside, a relative path (exit $?)" test "$(cat "$tmp/out.txt")" = "$runs"

# --- A read-only database in a folder that can be written. ---
chmod 777 "$tmp/d"
reads "file"
as_user "$oware" tournament --players 'random;greedy' --db "$tmp/d/r.db" --quiet >/dev/null 2>"$tmp/err"
check "file: a tournament into it says the file is read-only" says \
  "the file is read-only: make it writable" "$tmp/err"

# --- A writer killed in a read-only folder: its changes are in r.db-wal. ---
chmod 755 "$tmp/d"
rm -f "$tmp/d/r.db-wal" "$tmp/d/r.db-shm" # the empty ones of the readers above
chmod 644 "$tmp/d/r.db"
mkfifo "$tmp/fifo"
sqlite3 "$tmp/d/r.db" <"$tmp/fifo" >/dev/null 2>&1 &
writer=$!
exec 3>"$tmp/fifo"
# The shell has no busy timeout of its own: without one, the UPDATE fails
# ("database is locked") whenever a poll below holds the lock as it closes.
echo ".timeout 20000" >&3
echo "UPDATE runs SET name = 'renamed' WHERE id = 1;" >&3
for _ in $(seq 300); do
  [ "$(sqlite3 "$tmp/d/r.db" 'SELECT name FROM runs WHERE id = 1' 2>/dev/null)" = renamed ] && break
  sleep 0.1
done
kill -9 $writer
wait $writer 2>/dev/null
exec 3>&-
check "wal: the killed writer left r.db-wal and r.db-shm" test -s "$tmp/d/r.db-wal" -a -e "$tmp/d/r.db-shm"
chmod 555 "$tmp/d"
as_user "$oware" runs --db "$tmp/d/r.db" >"$tmp/out.txt" 2>"$tmp/err"
check "wal: read with the changes in r.db-wal (through r.db-shm)" says "renamed" "$tmp/out.txt"
chmod 755 "$tmp/d"
rm "$tmp/d/r.db-shm"
chmod 555 "$tmp/d"
as_user "$oware" runs --db "$tmp/d/r.db" >"$tmp/out.txt" 2>"$tmp/err"
check "wal: without r.db-shm it cannot be read, and says why (exit $?)" says \
  "its write-ahead log $tmp/d/r.db-wal holds changes, .*: copy the database with its -wal file" "$tmp/err"
check "wal: ... never the database without its changes" test ! -s "$tmp/out.txt"

echo "$fails failure(s)"
[ "$fails" = 0 ]
