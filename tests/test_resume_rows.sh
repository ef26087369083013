#!/usr/bin/env bash
# test_resume_rows.sh: a resumed tournament checks each stored game's place against the run's schedule (a game number past its series' format, a series the run has not, another series' players) and names it, and a resume that stops on a stored row leaves the run failed, not running.
set -u
oware=$1
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"

# An interrupted SPRT run (its first pair kept: not decided yet), then tampered copies of it.
"$oware" tournament --players 'random;greedy' --sprt elo0=0,elo1=300 --seed 3 --threads 1 \
  --db "$tmp/sprt.db" --quiet >/dev/null 2>&1
sqlite3 "$tmp/sprt.db" "DELETE FROM games WHERE game_no >= 2; DELETE FROM series; UPDATE runs SET status = 'interrupted'"
"$oware" tournament --players 'random;greedy;minimax:depth=2' --format games:2 --rounds 2 --seed 7 \
  --threads 1 --db "$tmp/rr.db" --quiet >/dev/null 2>&1
sqlite3 "$tmp/rr.db" "DELETE FROM games WHERE series_no >= 4; DELETE FROM series WHERE series_no >= 4; UPDATE runs SET status = 'interrupted'"
tampered() { # tampered NAME BASE SQL: a copy of BASE.db with SQL applied, resumed: exit code in rc, stderr in err
  cp "$tmp/$2.db" "$tmp/$1.db"
  sqlite3 "$tmp/$1.db" "PRAGMA ignore_check_constraints=ON; $3"
  timeout 60 "$oware" tournament --resume 1 --db "$tmp/$1.db" --threads 1 --quiet >/dev/null 2>"$tmp/err"
  rc=$?
  status=$(sqlite3 "$tmp/$1.db" "SELECT status FROM runs WHERE id = 1")
}
says() { grep -qF -- "$1" "$tmp/err" || { echo "  expected '$1' in:"; sed 's/^/  | /' "$tmp/err"; return 1; }; }

tampered huge sprt "UPDATE games SET game_no = 2000000000 WHERE game_no = 1"
check "an SPRT run's game number past its format: exit 1, not a crash (rc $rc)" test $rc = 1
check "... named" says "run 1: a stored game, series 0 game 2000000000, is not in the run's schedule (series 0 to 0, games 0 to 19999 a series)"
check "... and the run is left failed, not running ($status)" test "$status" = failed
tampered cap sprt "UPDATE games SET game_no = 20000 WHERE game_no = 1"
check "the game number at the cap itself: exit 1" bash -c "test $rc = 1 && grep -q 'series 0 game 20000, is not in' '$tmp/err'"
tampered fifth rr "INSERT INTO games SELECT NULL, run_id, series_no, 5, variant_idx, round, a_idx, b_idx, south_idx, north_idx, opening, moves, winner, score_south, score_north, plies, end_reason, detail, seed, seconds, move_records FROM games WHERE series_no = 0 AND game_no = 1"
check "game 5 of a games:2 series: named" bash -c "test $rc = 1 && grep -q 'series 0 game 5, is not in the run' '$tmp/err'"
tampered far rr "UPDATE games SET series_no = 999 WHERE series_no = 3 AND game_no = 1"
check "series 999 of a run of 6 series: named, not dropped" bash -c "test $rc = 1 && grep -q 'series 999 game 1, is not in the run' '$tmp/err'"
tampered swap rr "UPDATE games SET a_idx = 2, b_idx = 0, south_idx = 2, north_idx = 0 WHERE series_no = 0 AND game_no = 0"
check "a game with another series' players: named" \
  bash -c "test $rc = 1 && grep -q 'the stored game 0 of series 0 has variant 0, round 0, players 2 and 0, where the schedule has' '$tmp/err'"
cp "$tmp/rr.db" "$tmp/good.db"
timeout 120 "$oware" tournament --resume 1 --db "$tmp/good.db" --threads 1 --quiet >/dev/null 2>"$tmp/err"
check "the untampered run resumes and finishes" \
  bash -c "test $? = 0 && test \"\$(sqlite3 '$tmp/good.db' 'SELECT status, (SELECT count(*) FROM games) FROM runs')\" = 'finished|12'"

echo "$fails failed"
[ "$fails" = 0 ]
