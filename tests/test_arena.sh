#!/usr/bin/env bash
# test_arena.sh: end to end: tournaments, threads, kill and resume, faults, bad input, export.
set -u
oware=$1
data=$2
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
# The games of a run without the timing column, for comparisons.
games() { "$oware" export --db "$1" --run "$2" --format csv | cut -d, -f1-13,15-; }
count() { "$oware" export --db "$1" --run "$2" --format csv | tail -n +2 | wc -l; }
# wait_games DB N: waits (at most 10 s) until DB holds N games.
wait_games() {
  local n
  for _ in $(seq 1 1000); do
    n=$(sqlite3 "$1" 'select count(*) from games' 2>/dev/null || echo 0)
    [ "${n:-0}" -ge "$2" ] && return 0
    sleep 0.01
  done
}
# kill_run PID: kill -9, then reaps it.
kill_run() {
  kill -9 "$1" 2>/dev/null
  wait "$1" 2>/dev/null
}

P='random:name=rand;greedy;minimax:depth=3,name=mm3;mcts:playouts=300,name=mc'

# --- Bad input: exit 2, nothing written. ---
bad() { # bad NAME EXPECTED-MESSAGE ARGS...
  local name=$1 msg=$2
  shift 2
  rm -f "$tmp/bad.db"
  "$oware" tournament "$@" --quiet >/dev/null 2>"$tmp/bad.err"
  local rc=$?
  check "$name: exit 2" test $rc = 2
  check "$name: says '$msg'" grep -q -- "$msg" "$tmp/bad.err"
}

# --- Same seed, 1 thread or 2: the same games. ---
"$oware" tournament --players "$P" --format games:4 --rounds 2 --seed 7 --threads 1 \
  --db "$tmp/t1.db" --quiet >"$tmp/out1" 2>&1; rc=$?
check "a round robin finishes" test $rc = 0
check "it prints standings and a cross table" bash -c "grep -q 'standings' '$tmp/out1' && grep -q 'Cross table' '$tmp/out1'"
check "it stores 6 pairings x 2 rounds x 4 games" test "$(count "$tmp/t1.db" 1)" = 48
"$oware" tournament --players "$P" --format games:4 --rounds 2 --seed 7 --threads 2 \
  --db "$tmp/t2.db" --quiet >/dev/null 2>&1
check "1 thread and 2 threads give identical games" cmp -s <(games "$tmp/t1.db" 1) <(games "$tmp/t2.db" 1)
# The ratings stored along the run: each fitted on the games its row counts, whatever the threads.
along() { sqlite3 "$1" "select games_total, player, printf('%.6f', elo) from ratings where scope like '%in progress%' order by id"; }
check "there are ratings along the run" bash -c "test -n \"\$(sqlite3 '$tmp/t1.db' \"select 1 from ratings where scope like '%in progress%' limit 1\")\"" 
check "... and identical ratings along the run" cmp -s <(along "$tmp/t1.db") <(along "$tmp/t2.db")
"$oware" tournament --players "$P" --format games:4 --rounds 2 --seed 8 --threads 2 \
  --db "$tmp/t3.db" --quiet >/dev/null 2>&1
games "$tmp/t1.db" 1 >"$tmp/g1"
games "$tmp/t3.db" 1 >"$tmp/g3"
check "another seed gives other games" bash -c "test -s '$tmp/g1' && ! cmp -s '$tmp/g1' '$tmp/g3'"
check "a second run in the same database is run 2" bash -c \
  "'$oware' tournament --players 'random;greedy' --db '$tmp/t1.db' --quiet >/dev/null 2>&1 && '$oware' runs --db '$tmp/t1.db' | grep -q '^ *2 '"

# --- Every format, gauntlet, several variants. ---
"$oware" tournament --players 'greedy;random:name=r1;random:seed=2,name=r2' --kind gauntlet \
  --format best-of:5 --variant 'abapa;grandslam-all;houses=4,seeds=3' --db "$tmp/g.db" --quiet \
  >"$tmp/g.out" 2>&1; rc=$?
check "a gauntlet under three variants finishes" test $rc = 0
n=$(count "$tmp/g.db" 1)
check "best-of:5 series take 3 to 5 games each (6 series: $n games)" test "$n" -ge 18 -a "$n" -le 30
"$oware" tournament --players 'greedy;random' --format best-of:3 --rounds 2 --seed 2 --db "$tmp/bo.db" \
  --quiet >"$tmp/bo.out" 2>&1
check "a series of odd length: the match block says which games are in no pair" \
  grep -q '^Unpaired: 1 of the 5 games are in no pair (Elo, nElo and LOS above are of the 2 pairs' "$tmp/bo.out"
"$oware" export --db "$tmp/g.db" --run 1 --format csv >"$tmp/g.csv"
check "a gauntlet pairs the first player with each other" bash -c \
  "tail -n +2 '$tmp/g.csv' | awk -F, '\$4 != \"greedy\" && \$5 != \"greedy\"' | grep -q . && exit 1 || exit 0"
same=$(awk -F, 'NR > 1 && $15 == "abapa" {o[$4 "|" $5 "|" $2] = $6}
  NR > 1 && $15 == "grandslam-all" {k = $4 "|" $5 "|" $2; if (k in o) {if (o[k] == $6) s++; else d++}}
  END {print s + 0, d + 0}' "$tmp/g.csv")
check "every variant plays the same openings ($same: same, different)" bash -c "set -- $same; test \$1 -gt 0 -a \$2 = 0"
for f in first-to:2 first-to:6,lead:2 streak:2 games:3; do
  "$oware" tournament --players 'greedy;random' --format "$f" --db "$tmp/f.db" --quiet >/dev/null 2>&1
  check "format $f runs" test $? = 0
done

# --- Kill -9 midway, then resume: exactly the games of an uninterrupted run. ---
K='minimax:depth=4,name=a;minimax:depth=3,name=b;greedy;mcts:playouts=500,name=m'
"$oware" tournament --players "$K" --format games:6 --seed 3 --threads 2 --db "$tmp/full.db" \
  --quiet >/dev/null 2>&1
"$oware" tournament --players "$K" --format games:6 --seed 3 --threads 2 --db "$tmp/kill.db" \
  --quiet >/dev/null 2>&1 &
pid=$!
wait_games "$tmp/kill.db" 8
kill_run $pid
before=$(count "$tmp/kill.db" 1)
check "the killed run kept its finished games ($before of 36)" test "$before" -ge 1 -a "$before" -lt 36
"$oware" tournament --resume 1 --db "$tmp/kill.db" --quiet >/dev/null 2>&1; rc=$?
check "resume finishes the run" test $rc = 0
check "resumed run = uninterrupted run, game for game" cmp -s <(games "$tmp/full.db" 1) <(games "$tmp/kill.db" 1)
check "no duplicates after resume" test "$(sqlite3 "$tmp/kill.db" 'select count(*) from games')" = 36
check "the run is marked finished" bash -c "'$oware' runs --db '$tmp/kill.db' | grep -q finished"
"$oware" tournament --resume 1 --db "$tmp/kill.db" >/dev/null 2>"$tmp/err"; rc=$?
check "resuming a finished run plays nothing" bash -c "test $rc = 0 && grep -q 'already finished' '$tmp/err' && test \$(sqlite3 '$tmp/kill.db' 'select count(*) from games') = 36"

# --- Ctrl-C: stops cleanly, marked interrupted, resumable. ---
"$oware" tournament --players "$K" --format games:6 --seed 3 --threads 2 --db "$tmp/int.db" \
  >/dev/null 2>"$tmp/int.err" &
pid=$!
wait_games "$tmp/int.db" 4
kill -INT $pid
wait $pid; rc=$?
check "Ctrl-C exits with 130" test $rc = 130
check "an interrupted run says how to resume" grep -q -- '--resume 1' "$tmp/int.err"
check "the run is marked interrupted" bash -c "'$oware' runs --db '$tmp/int.db' | grep -q interrupted"
"$oware" tournament --resume 1 --db "$tmp/int.db" --quiet >/dev/null 2>&1
check "the interrupted run resumes to the same games" cmp -s <(games "$tmp/full.db" 1) <(games "$tmp/int.db" 1)

# --- A misbehaving engine loses its games, and the run goes on. ---
eng() { echo "engine:cmd=sh,arg=$data/engines/fake_engine.sh,arg=$1,arg=$tmp/count-$1,movetime=50,timeout=1000,margin=300,grace=100,name=$1"; }
"$oware" tournament --players "greedy;$(eng garbage);$(eng illegal);$(eng dieat);$(eng hanggo)" \
  --kind gauntlet --format games:2 --db "$tmp/e.db" --quiet >/dev/null 2>"$tmp/e.err"; rc=$?
check "a run with misbehaving engines finishes" test $rc = 0
"$oware" export --db "$tmp/e.db" --run 1 --format csv >"$tmp/e.csv"
check "garbage is a forfeit" grep -q 'garbage.*forfeit-\(protocol\|timeout\)' "$tmp/e.csv"
check "an illegal move is a forfeit" grep -q 'illegal.*forfeit-illegal' "$tmp/e.csv"
check "a crash is a forfeit" grep -q 'dieat.*forfeit-crash' "$tmp/e.csv"
check "a hang is a forfeit by timeout" grep -q 'hanggo.*forfeit-timeout' "$tmp/e.csv"
check "greedy wins every game" test "$(awk -F, 'NR > 1 && (($4 == "greedy" && $10 == "south") || ($5 == "greedy" && $10 == "north"))' "$tmp/e.csv" | wc -l)" = 8

# --- SPRT: runs game pairs until the test decides. ---
"$oware" tournament --players 'greedy;random' --sprt elo0=0,elo1=50 --db "$tmp/s.db" \
  >"$tmp/s.out" 2>&1; rc=$?
check "an SPRT of greedy against random accepts H1" bash -c "test $rc = 0 && grep -q 'H1 accepted' '$tmp/s.out'"
n=$(count "$tmp/s.db" 1)
check "the SPRT stopped long before its cap ($n games)" test "$n" -lt 2000
check "the SPRT run is finished" bash -c "'$oware' runs --db '$tmp/s.db' | grep -q finished"
check "the tournament prints ratings" grep -q 'Elo' "$tmp/s.out"
# An SPRT run cut short resumes with its SPRT (read back from the run's command line).
"$oware" tournament --players 'minimax:depth=3,name=m3;minimax:depth=2,name=m2' --sprt elo0=0,elo1=3 \
  --format games:400 --openings random:6 --db "$tmp/sr.db" >/dev/null 2>&1 &
pid=$!
wait_games "$tmp/sr.db" 20
kill_run $pid
"$oware" tournament --resume 1 --db "$tmp/sr.db" >"$tmp/sr.out" 2>&1; rc=$?
check "a resumed SPRT run tests again" bash -c "test $rc = 0 && grep -q '^SPRT' '$tmp/sr.out'"
# The SPRT decides on game pairs in schedule order: the same games with 1 or 2 threads, and
# after a kill and a resume (issue 12, item 3: it used to stop 28 to 771 games in).
SP='minimax:depth=3,name=m3;minimax:depth=2,name=m2'
for th in 1 2; do
  "$oware" tournament --players "$SP" --sprt elo0=0,elo1=15 --openings random:6 --seed 3 \
    --threads $th --db "$tmp/sd$th.db" --quiet >/dev/null 2>&1
done
n1=$(count "$tmp/sd1.db" 1)
check "an SPRT run decides after the same games with 1 and 2 threads ($n1 games)" \
  cmp -s <(games "$tmp/sd1.db" 1) <(games "$tmp/sd2.db" 1)
check "an SPRT run stores whole pairs up to its decision only" test $((n1 % 2)) = 0
"$oware" tournament --players "$SP" --sprt elo0=0,elo1=15 --openings random:6 --seed 3 \
  --threads 2 --db "$tmp/sk.db" --quiet >/dev/null 2>&1 &
pid=$!
wait_games "$tmp/sk.db" 30
kill_run $pid
"$oware" tournament --resume 1 --db "$tmp/sk.db" --quiet >/dev/null 2>&1
check "an SPRT run killed and resumed stores the games of an uninterrupted one" \
  cmp -s <(games "$tmp/sd1.db" 1) <(games "$tmp/sk.db" 1)
# A schedule too large is bad input, found before the database is touched (issue 12, item 5).
bad "a schedule of 10^11 games" "a run holds at most" --players 'random;greedy' --format games:1000000 \
  --rounds 100000 --db "$tmp/bad.db"
check "a schedule too large creates no database" test ! -e "$tmp/bad.db"
P64=$(for i in $(seq 64); do printf 'random:name=r%d;' "$i"; done)
V16=$(for i in $(seq 16); do printf 'abapa,seeds=%d,max_plies=%d;' $((i % 8 + 2)) $((200 + i)); done)
bad "64 players, 16 variants, 100000 rounds (the series count overflowed an int)" \
  "3225600000 series" --players "${P64%;}" --variant "${V16%;}" --rounds 100000 --db "$tmp/bad.db"
bad "an SPRT with three players" "two players" --players 'greedy;random;minimax:depth=1' --sprt elo0=0,elo1=5 --db "$tmp/bad.db"
bad "a bad SPRT" "sprt" --players 'greedy;random' --sprt elo0=5,elo1=0 --db "$tmp/bad.db"

# --- A worker keeps at most the two engines of its current game (issue 12, item 15). ---
E=""
for k in 1 2 3 4 5 6 7; do E="$E;engine:cmd=$oware,arg=uci,arg=--player,arg=random:seed=$k,timeout=5000,name=e$k"; done
"$oware" tournament --players "${E#;}" --format games:2 --threads 2 --db "$tmp/pile.db" --quiet \
  >/dev/null 2>&1 &
pid=$!
most=0
while kill -0 $pid 2>/dev/null; do
  n=$(pgrep -P $pid 2>/dev/null | wc -l)
  [ "$n" -gt "$most" ] && most=$n
  sleep 0.005
done
wait $pid; rc=$?
check "a round robin of 7 engines finishes" test $rc = 0
check "2 workers never held more than 4 engine processes (most: $most)" test "$most" -le 4
check "no engine process is left" bash -c "! pgrep -f 'random:seed=[1-7],timeout' >/dev/null"

# --- Export. ---
"$oware" export --db "$tmp/t1.db" --run 1 --format ogn --out "$tmp/t1.ogn"
check "OGN export holds every game" test "$(grep -c '^\[Result' "$tmp/t1.ogn")" = 48
check "exported OGN replays" bash -c "'$oware' replay --ogn '$tmp/t1.ogn' | grep -q '^status over'"
check "CSV export has a header and 48 rows" test "$(wc -l <"$tmp/g.csv")" -gt 1

bad "unknown player type" "unknown player type 'deepblue'" --players 'random;deepblue' --db "$tmp/bad.db"
check "unknown player type: no database written" test ! -e "$tmp/bad.db"
bad "bad spec" "unknown option 'dpth'" --players 'random;minimax:dpth=3' --db "$tmp/bad.db"
bad "bad format" "format" --players 'random;greedy' --format best-of:x --db "$tmp/bad.db"
bad "bad variant" "seeds" --players 'random;greedy' --variant 'abapa;abapa,seeds=0' --db "$tmp/bad.db"
bad "one player" "at least 2 players" --players 'random' --db "$tmp/bad.db"
bad "same name twice" "named 'random'" --players 'random;random' --db "$tmp/bad.db"
bad "bad openings" "openings" --players 'random;greedy' --openings random:x --db "$tmp/bad.db"
bad "unwritable database path" "/nonexistent/dir/x.db" --players 'random;greedy' --db /nonexistent/dir/x.db
sqlite3 "$tmp/foreign.db" 'create table accounts(id integer, owner text); insert into accounts values (1, "x");'
cp "$tmp/foreign.db" "$tmp/foreign.copy"
bad "a database of another program" "not an oware database" --players 'random;greedy' --db "$tmp/foreign.db"
check "the foreign database is untouched" cmp -s "$tmp/foreign.db" "$tmp/foreign.copy"
bad "resume of a missing run" "no run 99" --resume 99 --db "$tmp/t1.db"
bad "resume with a configuration" "--resume takes" --resume 1 --seed 3 --db "$tmp/t1.db"
printf 'not a position\n' >"$tmp/open.txt"
bad "a bad openings file" "position 1" --players 'random;greedy' --openings "file:$tmp/open.txt" --db "$tmp/bad.db"

# --- Openings from a file, shared by every pairing. ---
printf '# two openings\n4-4-4-4-4-0-5-5-5-5-4-4-0-0-N\n5-5-5-4-4-0-5-5-5-0-5-5-0-0-S\n' >"$tmp/open.txt"
"$oware" tournament --players 'greedy;random;minimax:depth=2' --openings "file:$tmp/open.txt" \
  --format games:4 --db "$tmp/o.db" --quiet >/dev/null 2>&1
check "file openings: every game starts from one of them" bash -c \
  "'$oware' export --db '$tmp/o.db' --run 1 --format csv | tail -n +2 | cut -d, -f6 | sort -u | tr '\n' ' ' | grep -qx '4-4-4-4-4-0-5-5-5-5-4-4-0-0-N 5-5-5-4-4-0-5-5-5-0-5-5-0-0-S '"

# file:PATH+random:N: N random plies from each of the file's positions, drawn
# anew for every game pair. A file shorter than the run (an SPRT) repeated its
# games exactly with players that do not draw (depth=, nodes=).
OPR='minimax:depth=2,name=a;minimax:depth=3,name=b'
"$oware" tournament --players "$OPR" --openings "file:$tmp/open.txt" --format games:16 --seed 5 \
  --db "$tmp/orp.db" --quiet >/dev/null 2>"$tmp/orp.err"
check "a warning says the file's openings are taken again" \
  grep -q "warning: --openings file:.*holds 2 positions and a pairing may play up to 8 pairs: they are taken again" "$tmp/orp.err"
distinct() { sqlite3 "$1" "select count(distinct opening) || ',' || count(distinct south_idx || moves) from games"; }
check "file openings repeat: 2 openings, 4 distinct games of 16" test "$(distinct "$tmp/orp.db")" = 2,4
"$oware" tournament --players "$OPR" --openings "file:$tmp/open.txt+random:3" --format games:16 --seed 5 \
  --db "$tmp/or.db" --quiet >/dev/null 2>"$tmp/or.err"
check "... not with +random, nor when the file is long enough" bash -c "! grep -q 'taken again' '$tmp/or.err' && \
  ! '$oware' tournament --players '$OPR' --openings 'file:$tmp/open.txt' --format games:4 --db '$tmp/orq.db' --quiet 2>&1 >/dev/null | grep -q 'taken again'"
check "file:PATH+random:3: 8 openings for 8 pairs, 16 distinct games" test "$(distinct "$tmp/or.db")" = 8,16
check "... none of them a position of the file" bash -c \
  "test \$(sqlite3 '$tmp/or.db' \"select count(*) from games where opening in ('4-4-4-4-4-0-5-5-5-5-4-4-0-0-N', '5-5-5-4-4-0-5-5-5-0-5-5-0-0-S')\") = 0"
check "... each 3 plies from one of them (the seeds sown: 3 moves from 44 seeds on the board)" bash -c \
  "sqlite3 '$tmp/or.db' 'select opening from games' | awk -F- '{s = 0; for (i = 1; i <= 12; i++) s += \$i; if (s + \$13 + \$14 != 48) bad = 1} END {exit bad}'"
"$oware" tournament --players "$OPR" --openings "file:$tmp/open.txt+random:3" --format games:16 --seed 5 \
  --threads 2 --db "$tmp/or2.db" --quiet >/dev/null 2>&1
check "... the same games on 2 threads" cmp -s <(games "$tmp/or.db" 1) <(games "$tmp/or2.db" 1)
bad "file openings naming no file" "names no file" --players 'random;greedy' --openings "file:+random:2" --db "$tmp/bad.db"
bad "file openings with too many random plies" "from 0 to 40" --players 'random;greedy' \
  --openings "file:$tmp/open.txt+random:41" --db "$tmp/bad.db"

# A resume never reads the openings file again, and refuses a changed weights file (issue 12, item 4).
printf '4-4-4-4-4-0-5-5-5-5-4-4-0-0-N\n5-5-5-4-4-0-5-5-5-0-5-5-0-0-S\n4-4-4-4-4-4-0-5-5-5-5-4-0-0-N\n' >"$tmp/op2.txt"
"$oware" weights >"$tmp/w.txt"
OP="minimax:depth=3,weights=$tmp/w.txt,name=mw;minimax:depth=2,name=m2;greedy"
"$oware" tournament --players "$OP" --openings "file:$tmp/op2.txt" --format games:12 --seed 4 \
  --threads 2 --db "$tmp/of.db" --quiet >/dev/null 2>&1
"$oware" tournament --players "$OP" --openings "file:$tmp/op2.txt" --format games:12 --seed 4 \
  --threads 2 --db "$tmp/ok.db" --quiet >/dev/null 2>&1 &
pid=$!
wait_games "$tmp/ok.db" 6
kill_run $pid
printf '0-4-4-4-4-4-5-5-5-5-4-4-4-0-N\n' >"$tmp/op2.txt"
"$oware" tournament --resume 1 --db "$tmp/ok.db" --quiet >/dev/null 2>&1; rc=$?
check "a run resumed after its openings file changed finishes" test $rc = 0
check "... with the games of the uninterrupted run (the stored openings)" \
  cmp -s <(games "$tmp/of.db" 1) <(games "$tmp/ok.db" 1)
sqlite3 "$tmp/ok.db" "update runs set status = 'interrupted'"
sed -i 's/^store .*/store 1/' "$tmp/w.txt"
"$oware" tournament --resume 1 --db "$tmp/ok.db" --quiet >/dev/null 2>"$tmp/wchg.err"; rc=$?
check "a resume refuses a weights file that changed" bash -c "test $rc != 0 && grep -q 'w.txt' '$tmp/wchg.err'"

echo "$fails failed"
[ $fails = 0 ]
