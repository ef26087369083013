#!/usr/bin/env bash
# test_mpi.sh: the MPI backend end to end: the same games under mpirun as on threads (tournament, SPRT, --adjudicate, tune spsa, texel, a loop of network generations, tune net's search labels), a worker rank killed then --resume, a rank that cannot start a player, a rank without the run's endgame tables, --root-threads, bench mpi.
set -u
oware=$1
data=$2
mpirun=$3
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMPI_MCA_rmaps_base_oversubscribe=1
mpi() { # mpi N ARGS...: oware on N ranks (at most 5 minutes)
  local n=$1
  shift
  timeout 300 "$mpirun" --oversubscribe -np "$n" "$oware" "$@"
}
# The games of a run without the timing column, for comparisons.
games() { "$oware" export --db "$1" --run "$2" --format csv | cut -d, -f1-13,15-; }
# The OGN without the times of the moves' comments (their scores and depths stay: the records
# travel between ranks).
ogn() { "$oware" export --db "$1" --run "$2" --format ogn | grep -v -i 'time\|seconds' |
  sed -E 's/ ?[0-9]+\.[0-9]{2}s\}/}/g'; }
count() { "$oware" export --db "$1" --run "$2" --format csv | tail -n +2 | wc -l; }

# --- The same games with threads and with 2, 3 or 4 ranks. ---
P='random:name=rand;greedy;minimax:depth=3,name=mm3;mcts:playouts=300,name=mc'
T=(--players "$P" --format games:4 --rounds 2 --seed 7 --quiet)
"$oware" tournament "${T[@]}" --threads 2 --db "$tmp/t.db" >/dev/null 2>&1
mpi 3 tournament "${T[@]}" --threads 1 --db "$tmp/m3.db" >"$tmp/m3.out" 2>&1; rc=$?
check "mpirun -np 3 oware tournament finishes" test $rc = 0
check "it prints the standings once (rank 0)" test "$(grep -c standings "$tmp/m3.out")" = 1
check "3 ranks store the games of 2 threads (CSV)" cmp -s <(games "$tmp/t.db" 1) <(games "$tmp/m3.db" 1)
check "3 ranks store the games of 2 threads (OGN)" cmp -s <(ogn "$tmp/t.db" 1) <(ogn "$tmp/m3.db" 1)
check "48 games, none twice" test "$(count "$tmp/m3.db" 1)" = 48
mpi 4 tournament "${T[@]}" --threads 2 --db "$tmp/m4.db" >/dev/null 2>&1
check "4 ranks of 2 threads: the same games" cmp -s <(games "$tmp/t.db" 1) <(games "$tmp/m4.db" 1)
mpi 1 tournament "${T[@]}" --threads 2 --db "$tmp/m1.db" >/dev/null 2>&1
check "1 rank: the same games" cmp -s <(games "$tmp/t.db" 1) <(games "$tmp/m1.db" 1)

# Series that depend on their results, a gauntlet, several variants, openings from a file.
printf '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\n# a comment\n0-5-5-5-5-4-4-4-4-4-4-4-0-0-N\n' >"$tmp/open.txt"
G=(--players 'greedy;random:name=r1;random:seed=2,name=r2;minimax:depth=2' --kind gauntlet
  --format first-to:2,cap:6 --variant 'abapa;grandslam-all' --openings "file:$tmp/open.txt"
  --rounds 2 --seed 5 --quiet)
"$oware" tournament "${G[@]}" --threads 1 --db "$tmp/g1.db" >"$tmp/g1.out" 2>&1; rc1=$?
mpi 3 tournament "${G[@]}" --threads 1 --db "$tmp/g3.db" >/dev/null 2>&1; rc=$?
check "a gauntlet of first-to series from an openings file runs on 3 ranks" test $rc = 0 -a $rc1 = 0
check "... with the same games as on one thread" cmp -s <(games "$tmp/g1.db" 1) <(games "$tmp/g3.db" 1)

# An SPRT decides at the same game pair.
SP='minimax:depth=3,name=m3;minimax:depth=2,name=m2'
S=(--players "$SP" --sprt elo0=0,elo1=15 --openings random:6 --seed 3 --quiet)
"$oware" tournament "${S[@]}" --threads 2 --db "$tmp/s.db" >/dev/null 2>&1
mpi 3 tournament "${S[@]}" --threads 1 --db "$tmp/s3.db" >/dev/null 2>&1
n=$(count "$tmp/s.db" 1)
check "an SPRT run decides after the same $n games on 3 ranks" cmp -s <(games "$tmp/s.db" 1) <(games "$tmp/s3.db" 1)

# --adjudicate travels with the schedule: the same games on 3 ranks (the tables pinned).
XDG_CACHE_HOME=$tmp/adjcache "$oware" egdb build --seeds 8 --quiet >/dev/null
A=(--players 'minimax:depth=3,egdb=off,name=m3;mcts:playouts=300,egdb=off,name=mc;greedy' --format games:4
  --rounds 2 --seed 9 --quiet --adjudicate 'egdb;draw=60,5,4;resign=300,3')
XDG_CACHE_HOME=$tmp/adjcache "$oware" tournament "${A[@]}" --threads 2 --db "$tmp/a.db" >/dev/null 2>&1
XDG_CACHE_HOME=$tmp/adjcache mpi 3 tournament "${A[@]}" --threads 1 --db "$tmp/a3.db" >/dev/null 2>&1
check "adjudicated games (egdb, draw, resign) on 3 ranks: the same" cmp -s <(games "$tmp/a.db" 1) <(games "$tmp/a3.db" 1)
check "... and some of them adjudicated" grep -q adjudicated <(games "$tmp/a3.db" 1)

# --- tune spsa and texel: the same table rows and weights files. ---
U=(tune spsa --player minimax:depth=2 --params threat,capture --iterations 5 --pairs 3 --seed 5
  --validate 3 --quiet)
rows() { sqlite3 "$1" 'select iteration, kind, weights, step, wins, draws, losses, value, lo, hi, games from tuning order by iteration'; }
"$oware" "${U[@]}" --threads 2 --db "$tmp/u.db" --out "$tmp/u.txt" >/dev/null 2>&1
mpi 3 "${U[@]}" --threads 1 --db "$tmp/u3.db" --out "$tmp/u3.txt" >/dev/null 2>&1; rc=$?
check "mpirun -np 3 oware tune spsa finishes" test $rc = 0
check "tune spsa on 3 ranks: the same tuning rows" bash -c "test -n \"\$(sqlite3 '$tmp/u.db' 'select 1 from tuning limit 1')\" && cmp -s <(sqlite3 '$tmp/u.db' 'select iteration, kind, weights, step, wins, draws, losses, value, lo, hi, games from tuning order by iteration') <(sqlite3 '$tmp/u3.db' 'select iteration, kind, weights, step, wins, draws, losses, value, lo, hi, games from tuning order by iteration')"
check "tune spsa on 3 ranks: the same weights file" cmp -s "$tmp/u.txt" "$tmp/u3.txt"
X=(tune texel --player minimax:depth=2 --games 30 --seed 5 --max-iter 5 --quiet)
"$oware" "${X[@]}" --threads 2 --db "$tmp/x.db" --out "$tmp/x.txt" >/dev/null 2>&1
mpi 3 "${X[@]}" --threads 1 --db "$tmp/x3.db" --out "$tmp/x3.txt" >/dev/null 2>&1
check "tune texel on 3 ranks: the same weights file" cmp -s "$tmp/x.txt" "$tmp/x3.txt"
N=(tune net --generations 2 --games 30 --valid 0.3 --max-pairs 20 --player minimax:nodes=100,egdb=off
  --batch 16 --epochs 3 --egdb off --quiet)
"$oware" "${N[@]}" --threads 2 --db "$tmp/n.db" --out "$tmp/n.net" >/dev/null 2>&1
mpi 3 "${N[@]}" --threads 1 --db "$tmp/n3.db" --out "$tmp/n3.net" >/dev/null 2>&1; rc=$?
nrows() { sqlite3 "$1" 'select run_id, iteration, kind, weights, wins, draws, losses, value, games from tuning order by run_id, iteration'; }
check "a loop of network generations on 3 ranks: the same networks and SPRTs" bash -c "test $rc = 0 && cmp -s '$tmp/n.net' '$tmp/n3.net' && cmp -s '$tmp/n-gen2.net' '$tmp/n3-gen2.net' && test '$(nrows "$tmp/n.db" | md5sum)' = '$(nrows "$tmp/n3.db" | md5sum)'"

# tune net's search labels are the runner's games: the same network on 3 ranks; a rank
# that cannot start the search player (below, engine.sh) fails the run naming it.
L=(tune net --from-db "$tmp/t.db" --epochs 2 --egdb off --quiet --search minimax:depth=3,egdb=off,hash=1)
"$oware" "${L[@]}" --threads 2 --db "$tmp/l.db" --out "$tmp/l.net" >/dev/null 2>&1
mpi 3 "${L[@]}" --threads 1 --db "$tmp/l3.db" --out "$tmp/l3.net" >/dev/null 2>&1; rc=$?
check "tune net --search on 3 ranks: the same network" bash -c "test $rc = 0 && test -s '$tmp/l.net' && cmp -s '$tmp/l.net' '$tmp/l3.net'"

# --- A variant study and a calibration: the same tables and levels. ---
V=(study --players 'random;greedy;minimax:depth=1' --variants 'abapa;grandslam-all' --games 4
  --seed 5 --quiet)
"$oware" "${V[@]}" --threads 2 --db "$tmp/v.db" >"$tmp/v.out" 2>&1
mpi 3 "${V[@]}" --threads 1 --db "$tmp/v3.db" >"$tmp/v3.out" 2>&1; rc=$?
check "a variant study on 3 ranks prints the same table" bash -c "test $rc = 0 && grep -q '^Variant study' '$tmp/v3.out' && cmp -s '$tmp/v.out' '$tmp/v3.out'"
C=(calibrate --base minimax:depth=1 --knob noise --range 0:100 --levels 'mid=300' --anchor random=0
  --games 8 --max-games 16 --verify-games 8 --ladder 2 --seed 3 --quiet)
"$oware" "${C[@]}" --threads 2 --out "$tmp/c.txt" 2>&1 | grep -v 'written to' >"$tmp/c.out"
mpi 3 "${C[@]}" --threads 1 --out "$tmp/c3.txt" 2>&1 | grep -v 'written to' >"$tmp/c3.out"
check "a calibration on 3 ranks: the same search and levels" bash -c "test -s '$tmp/c3.txt' && cmp -s '$tmp/c.out' '$tmp/c3.out' && cmp -s '$tmp/c.txt' '$tmp/c3.txt'"

# --- A worker rank killed with SIGKILL mid-run: what rank 0 committed stays; --resume finishes. ---
K=(--players 'minimax:depth=5,name=a;minimax:depth=4,name=b;greedy;mcts:playouts=500,name=m'
  --format games:6 --rounds 4 --seed 3 --quiet)
"$oware" tournament "${K[@]}" --threads 2 --db "$tmp/full.db" >/dev/null 2>&1
rank_pid() { # rank_pid RANK DB: the pid of that rank of our run
  local p
  for p in $(pgrep -f -- "$2"); do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1" && { echo "$p"; return; }
  done
}
killed_run() { # killed_run DB: starts the run on 3 ranks, kills rank 2 once games are stored
  mpi 3 tournament "${K[@]}" --threads 1 --db "$1" >/dev/null 2>&1 &
  local job=$! n pid=""
  for _ in $(seq 1 600); do
    n=$(sqlite3 "$1" 'select count(*) from games' 2>/dev/null || echo 0)
    [ "${n:-0}" -ge 4 ] && break
    sleep 0.05
  done
  local root
  root=$(rank_pid 0 "$1")
  pid=$(rank_pid 2 "$1")
  [ -n "$pid" ] && kill -9 "$pid"
  wait $job 2>/dev/null
  # mpirun may return before rank 0 (stopping on its SIGTERM) is gone, and
  # the run's lock refuses a resume while that pid exists: wait for it.
  for _ in $(seq 1 600); do [ -n "$root" ] && kill -0 "$root" 2>/dev/null || break; sleep 0.1; done
  echo "${pid:-none}"
}
pid=$(killed_run "$tmp/kill.db")
before=$(count "$tmp/kill.db" 1)
check "rank 2 was found and killed ($pid); $before of 144 games were kept" test "$pid" != none -a "$before" -ge 1 -a "$before" -lt 144
check "the kept games are the first games of the uninterrupted run" cmp -s <(games "$tmp/kill.db" 1) <(games "$tmp/full.db" 1 | head -n $((before + 1)))
"$oware" tournament --resume 1 --db "$tmp/kill.db" --quiet >/dev/null 2>"$tmp/resume.err"; rc=$?
check "--resume without MPI finishes the run" test $rc = 0
[ $rc = 0 ] || sed 's/^/  | /' "$tmp/resume.err"
check "resumed = uninterrupted, game for game" cmp -s <(games "$tmp/full.db" 1) <(games "$tmp/kill.db" 1)
check "no duplicates after resume" test "$(sqlite3 "$tmp/kill.db" 'select count(*) from games')" = 144
pid=$(killed_run "$tmp/kill2.db")
mpi 3 tournament --resume 1 --db "$tmp/kill2.db" --quiet >/dev/null 2>&1; rc=$?
check "--resume on 3 ranks finishes the run (rank $pid killed before)" test $rc = 0
check "... with the games of the uninterrupted run" cmp -s <(games "$tmp/full.db" 1) <(games "$tmp/kill2.db" 1)

# --- A rank that cannot start a player: a clear error, the run stops, no hang. ---
cat >"$tmp/engine.sh" <<EOT
#!/bin/sh
# an engine missing on rank 2's host
[ "\${OMPI_COMM_WORLD_RANK:-0}" = 2 ] && { echo "not installed here" >&2; exit 127; }
exec "$oware" uci --player random:seed=3
EOT
chmod +x "$tmp/engine.sh"
start=$(date +%s)
mpi 3 tournament --players "greedy;engine:cmd=$tmp/engine.sh,timeout=5000,name=e" --format games:20 \
  --rounds 4 --db "$tmp/e.db" --quiet >/dev/null 2>"$tmp/e.err"; rc=$?
took=$(($(date +%s) - start))
check "a player rank 2 cannot start fails the run (exit $rc, ${took}s)" test $rc != 0 -a $rc != 124 -a $took -lt 120
check "the error names the rank and the player" bash -c "grep -q 'rank 2 (.*): player engine:cmd=.*engine.sh' '$tmp/e.err'"
check "the run is marked failed" bash -c "'$oware' runs --db '$tmp/e.db' | grep -q failed"
"$oware" tournament --players "greedy;engine:cmd=$tmp/engine.sh,timeout=5000,name=e" --format games:20 \
  --rounds 4 --db "$tmp/e1.db" --quiet >/dev/null 2>&1
check "... which plays without MPI (the engine exists on rank 0)" test $? = 0
cat >"$tmp/engine2.sh" <<EOT
#!/bin/sh
[ "\${OMPI_COMM_WORLD_RANK:-0}" = 2 ] && { echo "not installed here" >&2; exit 127; }
exec "$oware" uci --player minimax:depth=2,egdb=off,hash=1
EOT
chmod +x "$tmp/engine2.sh"
mpi 3 tune net --from-db "$tmp/t.db" --epochs 2 --egdb off --quiet --threads 1 --db "$tmp/l4.db" \
  --out "$tmp/l4.net" --search "engine:cmd=$tmp/engine2.sh,timeout=5000" >/dev/null 2>"$tmp/l4.err"; rc=$?
check "tune net's searches run on the ranks: one that cannot start the player fails the run, named" \
  bash -c "test $rc != 0 -a $rc != 124 && grep -q 'search engine:cmd=.*rank 2 (' '$tmp/l4.err' && test ! -e '$tmp/l4.net'"

# --- A rank whose default folder lacks the run's endgame tables refuses to play (issue 13). ---
XDG_CACHE_HOME=$tmp/cache "$oware" egdb build --seeds 6 --quiet >/dev/null
mkdir -p "$tmp/nocache"
start=$(date +%s)
timeout 300 "$mpirun" --oversubscribe -np 1 env XDG_CACHE_HOME="$tmp/cache" "$oware" tournament \
  --players 'minimax:depth=2,name=m;greedy' --format games:400 --threads 1 --db "$tmp/eg.db" --quiet : \
  -np 1 env XDG_CACHE_HOME="$tmp/nocache" "$oware" tournament >/dev/null 2>"$tmp/eg.err"; rc=$?
took=$(($(date +%s) - start))
check "a rank without the run's tables fails the run (exit $rc, ${took}s)" test $rc != 0 -a $rc != 124
check "... naming the rank and the tables" bash -c "grep -q 'rank 1 (.*): player minimax:depth=2,name=m,egdb=auto@.*tables to 6 seeds from $tmp/nocache' '$tmp/eg.err'"

# --- --root-threads 0: rank 0 hands out the jobs and stores the games, and plays none. ---
# The engine says which rank started it; rank 0 starts each player once before the run, to
# check that it starts (run/tournament.c), and not again unless it plays.
cat >"$tmp/where.sh" <<EOT
#!/bin/sh
echo "\${OMPI_COMM_WORLD_RANK:-none}" >>"$tmp/where.log"
exec "$oware" uci --player greedy
EOT
chmod +x "$tmp/where.sh"
rm -f "$tmp/where.log"
mpi 3 --root-threads 0 tournament --players "random;engine:cmd=$tmp/where.sh,name=w" --format games:4 \
  --rounds 6 --threads 2 --db "$tmp/r0.db" --quiet >/dev/null 2>"$tmp/r0.err"; rc=$?
check "mpirun -np 3 oware --root-threads 0 tournament finishes, 24 games" \
  bash -c "test $rc = 0 && test \$('$oware' export --db '$tmp/r0.db' --run 1 --format csv | tail -n +2 | wc -l) = 24"
check "... rank 0 started the engine only for the check before the run (ranks: $(sort "$tmp/where.log" | tr '\n' ' '))" \
  bash -c "test \$(grep -c '^0\$' '$tmp/where.log') = 1 && grep -q '^1\$' '$tmp/where.log' && grep -q '^2\$' '$tmp/where.log'"
rm -f "$tmp/where.log"
mpi 3 --root-threads 1 tournament --players "random;engine:cmd=$tmp/where.sh,name=w" --format games:4 \
  --rounds 6 --threads 1 --db "$tmp/r1.db" --quiet >/dev/null 2>&1
check "--root-threads 1: rank 0 plays too (ranks: $(sort "$tmp/where.log" | tr '\n' ' '))" \
  test "$(grep -c '^0$' "$tmp/where.log")" -ge 2
mpi 3 --root-threads 0 tournament --players "random;greedy;minimax:depth=2,egdb=off" --format games:4 \
  --rounds 3 --threads 2 --db "$tmp/r0g.db" --quiet >/dev/null 2>&1
"$oware" tournament --players "random;greedy;minimax:depth=2,egdb=off" --format games:4 --rounds 3 \
  --threads 1 --db "$tmp/r0t.db" --quiet >/dev/null 2>&1
check "... and the games are those of one thread" \
  bash -c "test -s '$tmp/r0t.db' && cmp -s <(games '$tmp/r0t.db' 1) <(games '$tmp/r0g.db' 1)"
"$oware" --root-threads 0 runs --db "$tmp/r0.db" >/dev/null 2>"$tmp/r0n.err"; rc=$?
check "--root-threads without mpirun is refused, saying so" \
  bash -c "test $rc = 2 && grep -q 'applies under mpirun' '$tmp/r0n.err'"
"$oware" --root-threads two runs --db "$tmp/r0.db" >/dev/null 2>"$tmp/r0x.err"; rc=$?
check "--root-threads two is refused, naming it" bash -c "test $rc = 2 && grep -q \"'two' is not a number\" '$tmp/r0x.err'"

# --- The bench. ---
mpi 3 bench mpi --random-pairs 200 --pairs 2 --depth 3 --repeat 1 >"$tmp/b.out" 2>&1; rc=$?
check "bench mpi prints jobs/s at 2 and 3 ranks" bash -c "test $rc = 0 && grep -q '3 ranks.*jobs/s' '$tmp/b.out' && grep -q 'efficiency' '$tmp/b.out'"
mpi 3 bench mpi --random-pairs 200 --pairs 2 --depth 3 --repeat 1 --json >"$tmp/b.json" 2>/dev/null; rc=$?
check "bench mpi --json: 2 and 3 ranks in the feed and the efficiency" test \
  "$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print([r['ranks'] for r in d['feed']['ranks']], [r['ranks'] for r in d['efficiency']['ranks']], d['ranks'])" "$tmp/b.json" 2>&1)" = "[2, 3] [2, 3] 3"
"$oware" bench mpi >/dev/null 2>"$tmp/b.err"; rc=$?
check "bench mpi without mpirun says how to run it" bash -c "test $rc = 2 && grep -q 'mpirun' '$tmp/b.err'"

echo "$fails failure(s)"
[ "$fails" = 0 ]
