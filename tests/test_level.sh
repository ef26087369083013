#!/usr/bin/env bash
# test_level.sh: end to end: level:NAME in match, tournament (stored resolved, resumed without the file), uci, calibrate --pool, the shipped levels file, and the errors.
set -u
oware=$1
data=$2
fails=0
. "$(dirname "$0")/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$(cd "$(dirname "$0")/.." && pwd)
unset OWARE_LEVELS

lv=$tmp/levels.txt
cat >"$lv" <<'EOF'
# a levels file written by hand: name spec [elo lo hi target verdict status]
weak random
fair mcts:playouts=8 -150.0 -200.0 -100.0 -150 ok ok
strong "minimax:depth=2,name=Two Ply"
EOF

# --- match ---
"$oware" match --south "level:weak,file=$lv" --north "level:fair,file=$lv" --games 2 >"$tmp/m.out" 2>&1
check "match: two levels play" grep -q '^total: weak .* fair ' "$tmp/m.out"
check "match: a level's own name= is kept" \
  sh -c "'$oware' match --south 'level:strong,file=$lv' --north greedy --games 1 | grep -q 'Two Ply'"
check "match: name= and seed= after the level" \
  sh -c "'$oware' match --south 'level:fair,file=$lv,name=Me,seed=5' --north greedy --games 1 | grep -q '^game 1: Me (S)'"
OWARE_LEVELS=$lv "$oware" match --south level:fair --north greedy --games 1 >"$tmp/env.out" 2>&1
check "match: \$OWARE_LEVELS is the default file" grep -q '^game 1: fair (S)' "$tmp/env.out"
# The same games as the spec the level stands for.
"$oware" match --south "level:fair,file=$lv" --north greedy --games 4 --seed 7 --quiet >"$tmp/a.out"
"$oware" match --south "mcts:playouts=8,name=fair" --north greedy --games 4 --seed 7 --quiet >"$tmp/b.out"
check "match: a level plays as its spec" cmp -s "$tmp/a.out" "$tmp/b.out"

# --- play: a person against a level ---
printf 'quit\n' | "$oware" play --opponent "level:fair,file=$lv" >"$tmp/p.out" 2>&1
check "play: against a level" grep -q '^You play South against fair\.' "$tmp/p.out"

# --- the shipped levels file (data/levels.txt, installed as share/oware/levels.txt) ---
check "shipped: the four levels" test "$(grep -cE '^(easy|medium|hard|expert) ' "$src/data/levels.txt")" = 4
for l in easy medium hard expert; do
  "$oware" match --south "level:$l,file=$src/data/levels.txt" --north random --games 1 \
    --quiet >/dev/null 2>&1
  check "shipped: level:$l plays" test $? = 0
done
"$oware" match --south level:easy --north random --games 1 --quiet >/dev/null 2>&1
check "shipped: the default file when \$OWARE_LEVELS is unset" test $? = 0

# --- oware players level: the default file and its levels ---
OWARE_LEVELS=$lv "$oware" players level >"$tmp/pl.out" 2>&1
check "players level: names the default file" grep -q "default file: $lv, 3 levels" "$tmp/pl.out"
check "players level: lists a level with its Elo" grep -qE '^ +fair +mcts:playouts=8 +-150\.0 \[ *-200\.0, +-100\.0\] +target -150' "$tmp/pl.out"
"$oware" players level >"$tmp/pl2.out" 2>&1
check "players level: the shipped levels by default" grep -qE '^ +expert +mcts:(egdb=off,)?playouts=' "$tmp/pl2.out"
# oware players (every type) lists the levels too, with their Elo, and level:elo=N's range.
OWARE_LEVELS=$lv "$oware" players >"$tmp/pl3.out" 2>&1
check "players: the levels after the player types, with their Elo" \
  grep -qE '^ +fair +mcts:playouts=8 +-150\.0 \[ *-200\.0, +-100\.0\] +target -150' "$tmp/pl3.out"
check "players: and the player types before them" grep -q '^minimax: ' "$tmp/pl3.out"
check "players: level:elo=N and its range" grep -qE '^  level:elo=N: ' "$tmp/pl3.out"

# --- errors: exit 2, the message says what is wrong ---
bad() { # bad NAME REGEX SPEC: match with SPEC exits 2 saying REGEX
  "$oware" match --south "$3" --north greedy --games 1 >"$tmp/bad.out" 2>&1
  local rc=$?
  check "error: $1 (exit 2)" test $rc = 2
  check "error: $1 says so" grep -qE -- "$2" "$tmp/bad.out"
}
bad "unknown level" "unknown level 'nope' in .*levels.txt; its levels: weak, fair, strong" "level:nope,file=$lv"
bad "missing file" "levels file '$tmp/none.txt': No such file or directory" "level:weak,file=$tmp/none.txt"
printf 'ok greedy\nbroken mcts:playouts=3 12\n' >"$tmp/broken.txt"
bad "malformed line" "broken.txt:2: the Elo columns are elo, lo and hi" "level:ok,file=$tmp/broken.txt"
bad "no name" "no level name" "level:"
bad "unknown option" "unknown option 'depth'; options of level: file, name, seed" "level:weak,file=$lv,depth=3"
bad "a key twice" "option 'name' is given twice" "level:weak,file=$lv,name=x,name=y"
OWARE_LEVELS=$tmp/none.txt "$oware" match --south level:weak --north greedy >"$tmp/bad.out" 2>&1
check "error: \$OWARE_LEVELS names a missing file" grep -q "levels file '$tmp/none.txt'" "$tmp/bad.out"
mkdir "$tmp/unreadable.txt"
bad "a folder" "levels file '$tmp/unreadable.txt': Is a directory" "level:weak,file=$tmp/unreadable.txt"

# --- tournament: the run stores the resolved spec; --resume does not read the file ---
cp "$lv" "$tmp/t.txt"
"$oware" tournament --players "level:weak,file=$tmp/t.txt;level:fair,file=$tmp/t.txt;greedy" \
  --format games:2 --db "$tmp/t.db" --quiet >"$tmp/t.out" 2>&1
check "tournament: levels play" test $? = 0
check "tournament: the stored spec is the level's, its tables (none here) pinned" \
  grep -qx 'mcts:playouts=8,name=fair,egdb=auto@[0-9a-f]\{8\}:-' <<<"$(sqlite3 "$tmp/t.db" "SELECT spec FROM players WHERE name='fair'")"
check "tournament: no level: spec stored" \
  test "$(sqlite3 "$tmp/t.db" "SELECT count(*) FROM players WHERE spec LIKE 'level:%'")" = 0
# Cut short by a stop after its first games, then the file is gone and resumed.
"$oware" tournament --players "level:weak,file=$tmp/t.txt;level:fair,file=$tmp/t.txt" \
  --format games:2000 --threads 1 --db "$tmp/r.db" --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
  n=$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM games" 2>/dev/null || echo 0)
  [ "${n:-0}" -gt 4 ] && break
  sleep 0.1
done
kill -INT $pid 2>/dev/null
wait $pid
rm "$tmp/t.txt"
"$oware" tournament --resume 1 --db "$tmp/r.db" --quiet >"$tmp/r.out" 2>&1
check "tournament: --resume without the levels file finishes" test $? = 0
check "tournament: all the games" test "$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM games")" = 2000

# --- uci: oware uci --player level:NAME ---
out=$(printf 'uci\nsetoption name playouts value 5\nisready\nposition startpos\ngo\nquit\n' |
  "$oware" uci --player "level:fair,file=$lv" 2>&1)
check "uci: named for the level" grep -q '^id name oware fair' <<<"$out"
check "uci: the level's options" grep -q '^option name playouts type spin default 8 ' <<<"$out"
check "uci: setoption on a level" bash -c "! grep -q 'error' <<<'$out'"
check "uci: it moves" grep -qE '^bestmove [A-F]' <<<"$out"
"$oware" uci --player "level:nope,file=$lv" </dev/null >"$tmp/u.out" 2>&1
check "uci: an unknown level is exit 2" test $? = 2
check "uci: says which" grep -q "unknown level 'nope'" "$tmp/u.out"

# --- calibrate --pool takes a level ---
"$oware" calibrate --base mcts --knob playouts --range 1:30 --log --levels 'mid=0' \
  --anchor greedy=0 --pool "level:weak,file=$lv" --games 4 --max-games 4 --verify-games 4 \
  --ladder 2 --threads 2 --out "$tmp/cal.txt" --quiet >"$tmp/cal.out" 2>&1
check "calibrate: --pool level:weak plays as its spec" grep -q '^ *random:name=weak ' "$tmp/cal.out"
"$oware" calibrate --base mcts --knob playouts --range 1:30 --levels 'mid=0' --anchor greedy=0 \
  --pool "level:nope,file=$lv" --out "$tmp/cal2.txt" --quiet >"$tmp/cal2.out" 2>&1
check "calibrate: --pool with an unknown level is exit 2" test $? = 2

echo "$fails failed"
[ $fails = 0 ]
