#!/usr/bin/env bash
# test_migrate.sh: databases written by older oware binaries (tests/data/vV/vV.db, schema V),
# opened by this one and migrated to schema 18, one step at a time (from schema 16 on, rfp=0 in
# every minimax spec stored before, from 17 on asp=0, from 18 on iir=0):
# - v4: an SPRT tournament and a file-openings tournament cut short, an SPSA run cut short, a
#   variant study: its runs listed, exported and resumed from their settings, with endgame
#   tables in the cache that the old runs never read;
# - v7: a round robin stopped by Ctrl-C after 26 of its 36 games (no move records in the old
#   games; eval=linear and cap_exact=0 in its minimax specs), resumed to the uninterrupted
#   run's games;
# - v9 (mcts on movetime=: playouts=10000), v10 (mcts: budget=front), v11 (minimax:
#   cap_exact=0): the specs the upgrade rewrites;
# - v12 and v13: a round robin of three minimax players (without eval=, with eval=auto, with
#   auto's network named) and greedy, stopped by Ctrl-C after 6 of its 24 games: the network
#   auto took then named in the specs (net, net2), resumed to the games of an uninterrupted
#   run of the migrated specs;
# - v13 and v14: a calibration stopped by Ctrl-C, resumed to an uninterrupted one's pairings;
# - v15: the round robin of v12 and v13 with eval=net3 for its third player: rfp=0 written into
#   the minimax specs, resumed to the games of an uninterrupted run of the migrated specs;
# - v16: the same round robin written by the oware of schema 16: asp=0 written in the same way,
#   resumed in the same way;
# - v17: the same round robin written by the oware of schema 17: iir=0 written in the same way,
#   resumed in the same way.
# Usage: test_migrate.sh OWARE DATA_DIR
set -euo pipefail
oware=$(realpath "$1")
data=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*"; exit 1; }
sum() { md5sum | cut -d' ' -f1; }
cp "$data/v4/v4.db" v4.db
[ "$(sqlite3 v4.db 'PRAGMA user_version')" = 4 ] || fail "the kept file is not schema 4"

# Listed (the open migrates), every run with its kind and status.
"$oware" runs --db v4.db >runs.txt || fail "runs"
cat runs.txt
[ "$(sqlite3 v4.db 'PRAGMA user_version')" = 18 ] || fail "not migrated to schema 18"
# Schema 7: minimax reads the default folder's endgame tables unless told not to; the old runs
# played without, and their specs now say so. Schema 9: minimax evaluates with the built-in
# network unless told otherwise; the old runs played the linear evaluation, and say so too.
# Schema 12: cap_exact is on unless told otherwise; the old runs say cap_exact=0.
[ "$(sqlite3 v4.db "SELECT spec FROM players WHERE run_id = 3")" = \
  "minimax:depth=1,egdb=off,eval=linear,cap_exact=0,rfp=0,asp=0,iir=0" ] ||
  fail "run 3: the player's spec lacks egdb=off, eval=linear, cap_exact=0, rfp=0, asp=0 or iir=0"
[ "$(sqlite3 v4.db "SELECT value FROM run_config WHERE run_id = 3 AND key = 'player'")" = \
  "minimax:depth=1,egdb=off,eval=linear,cap_exact=0,rfp=0,asp=0,iir=0" ] ||
  fail "run 3: the player setting lacks egdb=off, eval=linear, cap_exact=0, rfp=0, asp=0 or iir=0"
[ "$(sqlite3 v4.db "SELECT spec FROM players WHERE run_id = 1 ORDER BY idx" | tr '\n' ' ')" = \
  "random greedy " ] || fail "run 1: specs without egdb= changed"
# Tables in the default folder (8 seeds): the resumes below must not read them.
export XDG_CACHE_HOME=$tmp/cache
"$oware" egdb build --seeds 8 --quiet >/dev/null || fail "egdb build"
grep -q '^ *1  interrupted sprt run .*round-robin' runs.txt || fail "run 1 listed"
grep -q '^ *3  interrupted spsa run .*spsa' runs.txt || fail "run 3 listed"
grep -q '^ *4  finished    variants' runs.txt || fail "run 4 listed"
# The settings derived from the old command lines.
[ "$(sqlite3 v4.db "SELECT value FROM run_config WHERE run_id = 1 AND key = 'sprt'")" = \
  "elo0=0,elo1=200" ] || fail "run 1: no sprt setting"
[ "$(sqlite3 v4.db "SELECT type || ' ' || value FROM run_config WHERE run_id = 3 AND key = 'iterations'")" = \
  "integer 3" ] || fail "run 3: no iterations setting"

# Exported as before the migration (checksums taken from the schema-4 oware).
[ "$("$oware" export --db v4.db --run 4 --format csv | cut -d, -f1-13,15- | sum)" = \
  327ed4cda6aa9276c012c740fbdd6fa6 ] || fail "run 4 export changed"

# A file-openings run of schema 4 cannot be resumed (its positions were never stored).
set +e
"$oware" tournament --resume 2 --db v4.db 2>err.txt
rc=$?
set -e
[ $rc -ne 0 ] || fail "run 2 resumed"
grep -q 'run 2 cannot be resumed: schema 4 stored only the path of its openings file' err.txt ||
  fail "run 2: $(cat err.txt)"

# Two --resume of one run at once: the second is refused at once while the first lives (a
# process holding the run lock), and takes the lock over once it is dead.
sleep 60 &
holder=$!
sqlite3 v4.db "INSERT INTO run_locks VALUES (1, $holder, '$(hostname)', '2026-01-01T00:00:00Z')"
set +e
timeout 20 "$oware" tournament --resume 1 --db v4.db --threads 1 --quiet >/dev/null 2>err.txt
rc=$?
set -e
kill $holder
wait $holder 2>/dev/null || true
[ $rc -eq 1 ] || fail "a locked run: exit $rc"
grep -q "run 1 is being played by pid $holder on host $(hostname) since 2026-01-01T00:00:00Z" err.txt ||
  fail "a locked run: $(cat err.txt)"
[ "$(sqlite3 v4.db 'SELECT count(*) FROM games WHERE run_id = 1')" = 2 ] || fail "a locked run played"

# The SPRT run resumes with its SPRT (kept only in the old command line): it stops when the
# test decides instead of playing on to the 20000-game cap, and its first games are the
# six games of the uninterrupted run (checksum from the schema-4 oware).
"$oware" tournament --resume 1 --db v4.db --threads 1 --quiet >sprt.txt || fail "resume 1"
grep -q '^SPRT (normalized Elo): H0 accepted' sprt.txt || fail "run 1 resumed without its SPRT"
games=$(sqlite3 v4.db 'SELECT count(*) FROM games WHERE run_id = 1')
[ "$games" -lt 20000 ] || fail "run 1 played to the cap"
[ "$(sqlite3 v4.db 'SELECT count(*) FROM run_locks')" = 0 ] || fail "the lock stayed"
[ "$("$oware" export --db v4.db --run 1 --format csv | head -7 | cut -d, -f1-13,15- | sum)" = \
  743601d95ed9ed2c138d342e25537676 ] || fail "run 1: its first games differ from the original"

# The SPSA run resumes from its settings and ends as recorded. Its player (minimax:depth=1)
# searches as this oware does: the checksums were the uninterrupted schema-4 run's until
# quiescence and then the endings corrections (ending=on) changed the search on purpose
# (issue 15), and were re-recorded each time.
"$oware" tune --resume 3 --db v4.db >/dev/null 2>&1 || fail "resume 3"
[ "$(sqlite3 v4.db 'select iteration,kind,weights,step,wins,draws,losses,value,games from tuning' | sum)" = \
  d64a3bc556c0b54cfda38fbc4cd66665 ] || fail "run 3: tuning table differs"
[ "$(sum <s.txt)" = 70eb8731b7ce3fda28dca52fdae482f7 ] || fail "run 3: weights differ"

# A run being played by the process that created it is locked too.
"$oware" tournament --players 'random;greedy' --format games:1000000 --threads 1 --db new.db \
  --quiet >/dev/null 2>&1 &
player=$!
for _ in $(seq 100); do
  [ -f new.db ] && [ "$(sqlite3 new.db 'SELECT count(*) FROM run_locks' 2>/dev/null)" = 1 ] && break
  sleep 0.1
done
set +e
"$oware" tournament --resume 1 --db new.db --quiet >/dev/null 2>err.txt
rc=$?
set -e
kill -9 $player
wait $player 2>/dev/null || true
[ $rc -eq 1 ] && grep -q "run 1 is being played by pid $player on host" err.txt ||
  fail "a run being created and played: exit $rc: $(cat err.txt)"

# Schema 7 -> 8: the games gain their move records (time, score, depth), none in the old ones;
# 8 -> 9: its minimax specs say eval=linear; 11 -> 12: and cap_exact=0.
cp "$data/v7/v7.db" v7.db
[ "$(sqlite3 v7.db 'PRAGMA user_version')" = 7 ] || fail "the kept file is not schema 7"
"$oware" runs --db v7.db >/dev/null || fail "runs of v7.db"
[ "$(sqlite3 v7.db 'PRAGMA user_version')" = 18 ] || fail "v7.db not migrated to schema 18"
sqlite3 v7.db "SELECT spec FROM players WHERE run_id = 1 AND spec LIKE 'minimax%'" >specs.txt
[ -s specs.txt ] && ! grep -v ',eval=linear,cap_exact=0,rfp=0,asp=0,iir=0$' specs.txt ||
  fail "v7.db: minimax specs: $(cat specs.txt)"
[ "$(sqlite3 v7.db 'SELECT count(*) FROM games WHERE move_records IS NULL')" = 26 ] ||
  fail "v7.db: the old games have records"
"$oware" export --db v7.db --run 1 --format pgn --out v7.pgn || fail "v7.db: export pgn"
grep -q '{' v7.pgn && fail "v7.db: old games exported with comments"
# Resumed, it plays the uninterrupted run's games (checksum from the schema-7 oware), the new
# ones with their records.
"$oware" tournament --resume 1 --db v7.db --threads 1 --quiet >/dev/null || fail "resume v7.db"
[ "$("$oware" export --db v7.db --run 1 --format csv | cut -d, -f1-13,15- | sum)" = \
  00a796aede1c4e9cf5d77c030c5fce34 ] || fail "v7.db: the resumed run's games differ from the original"
[ "$(sqlite3 v7.db 'SELECT count(*) FROM games WHERE move_records IS NOT NULL')" = 10 ] ||
  fail "v7.db: the new games lack records"

# migrated_specs V SPECS: tests/data/vV/vV.db, of schema V, upgraded to 18 by listing its runs,
# has these player specs (space-separated, in order).
migrated_specs() {
  cp "$data/v$1/v$1.db" "v$1.db"
  [ "$(sqlite3 "v$1.db" 'PRAGMA user_version')" = "$1" ] || fail "the kept file is not schema $1"
  "$oware" runs --db "v$1.db" >/dev/null || fail "runs of v$1.db"
  [ "$(sqlite3 "v$1.db" 'PRAGMA user_version')" = 18 ] || fail "v$1.db not migrated to schema 18"
  local got
  got=$(sqlite3 "v$1.db" 'SELECT spec FROM players ORDER BY idx' | tr '\n' ' ')
  [ "$got" = "$2 " ] || fail "v$1.db: specs: $got"
}

# Schema 9 -> 10: an mcts spec's own movetime= searches for that time, where the playouts'
# default (10000) stopped it first before; the runs before say so.
migrated_specs 9 "mcts:movetime=5,egdb=off,name=a,playouts=10000,budget=front \
mcts:movetime=5,playouts=300,egdb=off,name=b,budget=front greedy"

# Schema 10 -> 11: mcts on a clock spends its own even budget by default, where it took
# minimax's front-loaded share before; the runs before say budget=front (tests/data/v10/v10.db,
# written by the oware of schema 10: a round robin of two mcts players, one with budget=even,
# and greedy).
migrated_specs 10 "mcts:playouts=20,egdb=off,name=a,budget=front \
mcts:playouts=20,budget=even,egdb=off,name=b greedy"

# Schema 11 -> 12: minimax checks a search cut short at the cap or on a win with the history in
# its keys by default; the runs before say cap_exact=0 (tests/data/v11/v11.db, written by the
# oware of schema 11: a round robin of two minimax players on nodes=, one with cap_exact=1, and
# greedy).
migrated_specs 11 "minimax:nodes=300,egdb=off,name=a,cap_exact=0,eval=net,rfp=0,asp=0,iir=0 \
minimax:nodes=300,cap_exact=1,egdb=off,name=b,eval=net,rfp=0,asp=0,iir=0 greedy"

# after_stop V DB: the sum of run 1's games in DB that tests/data/vV/vV.db did not have (the
# games before the stop were played by the old oware, whose search was not this one's).
after_stop() {
  sqlite3 "$data/v$1/v$1.db" "SELECT series_no || ',' || game_no || ',' FROM games" |
    sed 's/^/^/' >"old$1.txt"
  "$oware" export --db "$2" --run 1 --format csv | tail -n +2 | grep -v -f "old$1.txt" |
    cut -d, -f1-13,15- | sum
}
# fresh_run V DB SPECS: vV.db's command, run afresh into DB with these players; after_stop.
fresh_run() {
  "$oware" tournament --players "$3" --format games:4 --openings random:2 --threads 1 \
    --seed 3 --db "$2" --quiet >/dev/null || fail "run $2"
  after_stop "$1" "$2"
}
# resumed_as_migrated V OTHER: vV.db (stopped by Ctrl-C after 6 of its 24 games), migrated and
# resumed, plays after its stop what a fresh run of its migrated specs plays (the same command),
# and not what the players OTHER (the old specs as this oware reads them) play.
resumed_as_migrated() {
  [ "$(sqlite3 "v$1.db" 'SELECT count(*) FROM games')" = 6 ] || fail "v$1.db: not 6 games"
  "$oware" tournament --resume 1 --db "v$1.db" --threads 1 --quiet >/dev/null ||
    fail "resume v$1.db"
  local resumed specs
  resumed=$(after_stop "$1" "v$1.db")
  [ "$(wc -l <"old$1.txt")" = 6 ] || fail "v$1.db: its games not read"
  specs=$(sqlite3 "v$1.db" 'SELECT spec FROM players ORDER BY idx' | tr '\n' ';')
  [ "$resumed" = "$(fresh_run "$1" "v$1-migrated.db" "$specs")" ] ||
    fail "v$1.db: the resumed run's games differ from an uninterrupted run of its specs"
  # The sanitizer pass (OWARE_TEST_QUICK) leaves out the run that shows the check means
  # something: its games change nothing the migration's code does.
  [ -n "${OWARE_TEST_QUICK:-}" ] || [ "$resumed" != "$(fresh_run "$1" "v$1-other.db" "$2")" ] ||
    fail "v$1.db: the migrated specs play the games of $2"
}

# Schema 12 -> 13: minimax's eval=auto takes the network net2, where it took net before; the runs
# before say eval=net where auto gave them a network (tests/data/v12/v12.db, written by the oware
# of schema 12: a round robin of minimax without eval=, with eval=auto and with eval=net, and
# greedy). Resumed, the run plays what an uninterrupted run of the migrated specs plays here,
# which the original specs (auto's network by default) do not.
migrated_specs 12 "minimax:nodes=3000,egdb=off,name=a,eval=net,rfp=0,asp=0,iir=0 \
minimax:nodes=3000,eval=net,egdb=off,name=b,rfp=0,asp=0,iir=0 minimax:nodes=3000,eval=net,egdb=off,name=c,rfp=0,asp=0,iir=0 greedy"
# (The sanitizer passes resume only the newest, v17 below: the same code, a third of the games.)
[ -n "${OWARE_TEST_QUICK:-}" ] ||
  resumed_as_migrated 12 "minimax:nodes=3000,egdb=off,name=a;minimax:nodes=3000,eval=auto,egdb=off,name=b;minimax:nodes=3000,eval=net,egdb=off,name=c;greedy"

# Schema 13 -> 14: eval=auto takes the network net3, where it took net2 before; the runs before
# say eval=net2 where auto gave them a network (tests/data/v13/v13.db, written by the oware of
# schema 13: the same round robin with eval=net2 for c), and resume as above.
migrated_specs 13 "minimax:nodes=3000,egdb=off,name=a,eval=net2,rfp=0,asp=0,iir=0 \
minimax:nodes=3000,eval=net2,egdb=off,name=b,rfp=0,asp=0,iir=0 minimax:nodes=3000,eval=net2,egdb=off,name=c,rfp=0,asp=0,iir=0 greedy"
[ -n "${OWARE_TEST_QUICK:-}" ] ||
  resumed_as_migrated 13 "minimax:nodes=3000,egdb=off,name=a;minimax:nodes=3000,eval=auto,egdb=off,name=b;minimax:nodes=3000,eval=net2,egdb=off,name=c;greedy"

# Schema 14 -> 15: a calibration stored before resumes. The earlier steps rewrote its players'
# specs and its base, but neither its anchor and pool settings nor the specs of its stored
# pairings: its resume stopped at "does not replay as it was stored" (and its anchor would have
# played auto's network of the day). tests/data/v13/calibration.db, written by the oware of
# schema 13 (minimax's depth calibrated on nodes=2000,egdb=off; the anchor and one pool player minimax
# without eval=, stopped by Ctrl-C after 32 of its 81 pairings), and tests/data/v14/
# calibration.db, the same file upgraded by the oware of schema 14, resume to the pairings and
# levels of an uninterrupted calibration of their migrated settings (eval=net2 and, since
# schema 16, rfp=0 throughout, since 17 asp=0 and since 18 iir=0).
# calibration_setting V KEY: the setting KEY of run 1 in cV.db.
calibration_setting() {
  sqlite3 "c$1.db" "SELECT value FROM run_config WHERE run_id = 1 AND key = '$2'"
}
# calibration_resumes V: tests/data/vV/calibration.db resumed as cV.db, against fresh.db (the
# uninterrupted calibration of the migrated settings, run once).
calibration_resumes() {
  cp "$data/v$1/calibration.db" "c$1.db"
  [ "$(sqlite3 "c$1.db" 'PRAGMA user_version')" = "$1" ] || fail "the kept calibration is not schema $1"
  rm -f levels.txt # its --out
  "$oware" calibrate --resume 1 --db "c$1.db" >"c$1.log" 2>&1 ||
    fail "calibration of schema $1: resume: $(tail -1 "c$1.log")"
  [ "$(calibration_setting "$1" anchor)" = "minimax:depth=2,egdb=off,eval=net2,rfp=0,asp=0,iir=0=1000" ] &&
    [ "$(calibration_setting "$1" pool)" = "minimax:depth=3,egdb=off,eval=net2,rfp=0,asp=0,iir=0;greedy" ] &&
    [ "$(calibration_setting "$1" base)" = "minimax:nodes=2000,egdb=off,eval=net2,rfp=0,asp=0,iir=0" ] ||
    fail "calibration of schema $1: settings $(calibration_setting "$1" anchor) $(calibration_setting "$1" pool)"
  if [ ! -f fresh.pairs ]; then
    "$oware" calibrate --base "$(calibration_setting "$1" base)" --knob depth --range 1:6 \
      --levels 'a=1000;b=1200' --anchor "$(calibration_setting "$1" anchor)" --pool "$(calibration_setting "$1" pool)" \
      --games 8 --ladder 2 --seed 5 --threads 2 --db fresh.db --out fresh.txt >/dev/null 2>&1 ||
      fail "fresh calibration"
    sqlite3 fresh.db 'SELECT * FROM calibration_pairs ORDER BY step' >fresh.pairs
  fi
  [ "$(wc -l <fresh.pairs)" = 81 ] || fail "the fresh calibration has $(wc -l <fresh.pairs) pairings"
  sqlite3 "c$1.db" 'SELECT * FROM calibration_pairs ORDER BY step' | cmp -s - fresh.pairs ||
    fail "calibration of schema $1: its pairings differ from an uninterrupted run's"
  cmp -s levels.txt fresh.txt || fail "calibration of schema $1: its levels differ"
}
# (The sanitizer passes resume only the newer file: the same code from schema 14 on; the
# thread sanitizer's (OWARE_TEST_TSAN) neither: what this checks, the stored settings'
# migration, runs on one thread, and calibrate's workers, a resume from the store included,
# run under it in test_golden and test_drivers.)
[ -n "${OWARE_TEST_QUICK:-}" ] || calibration_resumes 13
[ -n "${OWARE_TEST_TSAN:-}" ] || calibration_resumes 14

# Schema 15 -> 16: minimax prunes by reverse futility by default (rfp=150), where it did not
# before; the runs before say rfp=0 (tests/data/v15/v15.db, written by the oware of schema 15:
# the round robin of v12 and v13 with eval=net3 for c), and resume as above, against the same
# specs without rfp=0.
migrated_specs 15 "minimax:nodes=3000,egdb=off,name=a,rfp=0,asp=0,iir=0 \
minimax:nodes=3000,eval=auto,egdb=off,name=b,rfp=0,asp=0,iir=0 minimax:nodes=3000,eval=net3,egdb=off,name=c,rfp=0,asp=0,iir=0 greedy"
[ -n "${OWARE_TEST_QUICK:-}" ] ||
  resumed_as_migrated 15 "minimax:nodes=3000,egdb=off,name=a;minimax:nodes=3000,eval=auto,egdb=off,name=b;minimax:nodes=3000,eval=net3,egdb=off,name=c;greedy"

# Schema 16 -> 17: minimax searches the root within aspiration windows by default (asp=50), where
# it did not before; the runs before say asp=0 (tests/data/v16/v16.db, written by the oware of
# schema 16: the same round robin), and resume as above, against the same specs without asp=0.
migrated_specs 16 "minimax:nodes=3000,egdb=off,name=a,asp=0,iir=0 \
minimax:nodes=3000,eval=auto,egdb=off,name=b,asp=0,iir=0 minimax:nodes=3000,eval=net3,egdb=off,name=c,asp=0,iir=0 greedy"
[ -n "${OWARE_TEST_QUICK:-}" ] ||
  resumed_as_migrated 16 "minimax:nodes=3000,egdb=off,name=a;minimax:nodes=3000,eval=auto,egdb=off,name=b;minimax:nodes=3000,eval=net3,egdb=off,name=c;greedy"

# Schema 17 -> 18: minimax searches a ply shallower the nodes its hash table has no move for
# (iir=1), where it did not before; the runs before say iir=0 (tests/data/v17/v17.db, written by
# the oware of schema 17: the same round robin), and resume as above, against the same specs
# without iir=0.
migrated_specs 17 "minimax:nodes=3000,egdb=off,name=a,iir=0 \
minimax:nodes=3000,eval=auto,egdb=off,name=b,iir=0 minimax:nodes=3000,eval=net3,egdb=off,name=c,iir=0 greedy"
# (Not under the thread sanitizer: these runs play on one thread.)
[ -n "${OWARE_TEST_TSAN:-}" ] ||
  resumed_as_migrated 17 "minimax:nodes=3000,egdb=off,name=a;minimax:nodes=3000,eval=auto,egdb=off,name=b;minimax:nodes=3000,eval=net3,egdb=off,name=c;greedy"

# A newer schema stays an error.
cp "$data/v4/v4.db" v19.db
sqlite3 v19.db 'PRAGMA user_version = 19'
set +e
"$oware" runs --db v19.db 2>err.txt
rc=$?
set -e
[ $rc -ne 0 ] && grep -q 'written by a newer oware (schema 19, this one reads 18)' err.txt ||
  fail "schema 19: $(cat err.txt)"
echo "ok"
