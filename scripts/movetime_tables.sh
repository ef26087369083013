#!/usr/bin/env bash
# movetime_tables.sh: movetime.sh's moves sorted by what the endgame tables say of the position each was played in.
# Usage: movetime_tables.sh OWARE EACH_FILE MS VARIANT EGDB_DIR [START_POSITION]
# EACH_FILE holds movetime.sh's MOVETIME_EACH lines ("PLY MOVES_BEFORE_IT
# MOVE MICROSECONDS DEPTH SCORE") of one game played from START_POSITION
# (default the start) under VARIANT. Each position is replayed (`oware
# replay`) and probed (`oware egdb probe --dir EGDB_DIR`) and put in one
# class: forced (one legal move), above (more seeds than the tables), won,
# lost, drawn (the tables decide it whatever the repetition rule) or cycle
# (cycle-sensitive: the bounds differ in result), or proven (a drawn or
# cycle-sensitive position where the engine reported a proven win, score
# "mate:N" with N > 0: its search proved the win through the tables' bounds
# and the game's ends, the history on its path counted). Prints, per class, the
# moves, how many took under 90% of MS, and the shortest and median times;
# then every move under 90% in a lost, drawn or cycle class (issue 22's time
# use: only a move the tables prove best for a win may be played at once).
# Exit 1 when a tool fails, 3 when such a short move was found.
set -euo pipefail
oware=$1 each=$2 ms=$3 variant=$4 dir=$5 start=${6:-}
short=$((ms * 900)) # 90% of MS in microseconds
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
while read -r ply before move us depth score; do
  [ "$before" = - ] && before=
  args=(--variant "$variant")
  [ -n "$start" ] && args+=(--position "$start")
  out=$("$oware" replay "${args[@]}" ${before:+"$before"}) || exit 1
  pos=$(sed -n 's/^position //p' <<<"$out")
  legal=$(sed -n 's/^legal //p' <<<"$out")
  IFS=- read -r -a f <<<"$pos"
  houses=$((${#f[@]} - 3))
  board=0 total=0
  for ((i = 0; i < houses; i++)); do board=$((board + f[i])); done
  total=$((board + f[houses] + f[houses + 1]))
  mine=${f[houses]}
  [ "${f[houses + 2]}" = N ] && mine=${f[houses + 1]}
  class=
  if [ "${#legal}" -lt 2 ]; then
    class=forced
  elif probe=$("$oware" egdb probe "$pos" --variant "$variant" --dir "$dir" 2>&1); then
    value=$(sed -n 's/^value \([0-9.]*\).*/\1/p' <<<"$probe")
    lo=${value%%..*} hi=${value##*..}
    # the mover's final seeds, mine + value, against half the total
    if [ $((2 * (mine + lo))) -gt "$total" ]; then class=won
    elif [ $((2 * (mine + hi))) -lt "$total" ]; then class=lost
    elif [ "$lo" = "$hi" ]; then class=drawn
    else class=cycle; fi
    if [[ $class =~ ^(drawn|cycle)$ && $score =~ ^mate:[1-9] ]]; then class=proven; fi
  elif [[ $probe == *"covers up to"* ]]; then
    class=above
  else
    echo "movetime_tables.sh: egdb probe $pos failed: $probe" >&2
    exit 1
  fi
  printf '%s %s %s %s %s %s %s\n' "$class" "$ply" "$us" "$move" "$depth" "$score" "$pos" >>"$rows"
done <"$each"
awk -v short="$short" -v ms="$ms" '
  { n[$1]++; t[$1, n[$1]] = $3; if ($3 < short) u[$1]++
    if ($3 < short && ($1 == "lost" || $1 == "drawn" || $1 == "cycle")) bad[++nb] = $0 }
  END {
    printf "%-7s %6s %12s %10s %10s\n", "class", "moves", "under 90%", "min ms", "median ms"
    split("above won proven cycle drawn lost forced", order, " ")
    for (k = 1; k <= 7; k++) {
      c = order[k]; if (!(c in n)) continue
      m = n[c]; for (i = 1; i <= m; i++) a[i] = t[c, i]
      for (i = 2; i <= m; i++) { x = a[i]; j = i - 1; while (j >= 1 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
      med = m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
      printf "%-7s %6d %12d %10.1f %10.1f\n", c, m, u[c] + 0, a[1] / 1000, med / 1000
    }
    if (nb) { printf "moves under 90%% of %d ms in lost, drawn or cycle-sensitive positions:\n", ms
      for (i = 1; i <= nb; i++) print "  " bad[i] }
    exit nb ? 3 : 0
  }' "$rows"
