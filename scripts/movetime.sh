#!/usr/bin/env bash
# movetime.sh: how long `oware uci` really thinks under `go movetime MS`, seen from the GUI's side.
# Usage: movetime.sh OWARE [MS] [MAX_PLIES] [PLAYER_SPEC] [START_POSITION]
# Plays one self-play game (from the start, or START_POSITION) through one `oware uci` process, timing each move
# from the moment its `go` line is written to the moment `bestmove` is read
# (bash's $EPOCHREALTIME, no process per reading), and prints the moves, the
# mean, the smallest and the largest time in ms. Exit 1 when the engine fails.
# With MOVETIME_EACH=FILE, each move also goes into FILE as a line
# "PLY MOVES_BEFORE_IT MOVE MICROSECONDS DEPTH SCORE" (MOVES_BEFORE_IT "-" at
# the start; DEPTH and SCORE, as "cp:N" or "mate:N", the last the engine's
# info lines gave for the move, "-" when none did). With MOVETIME_VARIANT=V
# the game is played under rule variant V (the engine's Variant option).
# scripts/movetime_tables.sh sorts the moves of MOVETIME_EACH by what the
# endgame tables say of their positions.
set -euo pipefail
oware=$1 ms=${2:-100} max=${3:-400} spec=${4:-minimax} start=${5:-}
coproc ENG { "$oware" uci --player "$spec"; }
trap 'kill "${ENG_PID:-}" 2>/dev/null || true' EXIT
say() { printf '%s\n' "$1" >&"${ENG[1]}"; }
wait_for() { # wait_for REGEX: reads lines until one matches; it is left in $line, the last depth an info line gave in $depth
  while IFS= read -r -t 30 line <&"${ENG[0]}"; do
    [[ $line =~ ^info\ depth\ ([0-9]+) ]] && depth=${BASH_REMATCH[1]}
    [[ $line =~ \ score\ (cp|mate)\ (-?[0-9]+) ]] && score=${BASH_REMATCH[1]}:${BASH_REMATCH[2]}
    [[ $line =~ $1 ]] && return 0
  done
  echo "movetime.sh: no '$1' from the engine" >&2; exit 1
}
say uci; wait_for '^uciok'
[ -n "${MOVETIME_VARIANT:-}" ] && say "setoption name Variant value $MOVETIME_VARIANT"
say isready; wait_for '^readyok'
say ucinewgame
moves="" n=0 sum=0 lo=999999999 hi=0
while [ "$n" -lt "$max" ]; do
  if [ -n "$start" ]; then say "position fen $start moves $moves"; else say "position startpos moves $moves"; fi
  say isready; wait_for '^readyok'
  t0=${EPOCHREALTIME/./}
  depth=- score=-
  say "go movetime $ms"
  wait_for '^bestmove '
  t1=${EPOCHREALTIME/./}
  mv=${line#bestmove }
  [ "$mv" = 0000 ] && break
  us=$((t1 - t0)); sum=$((sum + us)); n=$((n + 1))
  [ -n "${MOVETIME_EACH:-}" ] && printf '%d %s %s %d %s %s\n' "$n" "${moves:--}" "$mv" "$us" "$depth" "$score" >>"$MOVETIME_EACH"
  [ "$us" -lt "$lo" ] && lo=$us
  [ "$us" -gt "$hi" ] && hi=$us
  moves="$moves$mv"
done
say quit
[ "$n" -gt 0 ] || { echo "movetime.sh: no move was played" >&2; exit 1; }
awk -v n="$n" -v s="$sum" -v lo="$lo" -v hi="$hi" -v ms="$ms" 'BEGIN {
  printf "movetime %d ms: %d moves, mean %.1f ms, min %.1f ms, max %.1f ms\n", ms, n, s / n / 1000, lo / 1000, hi / 1000 }'
