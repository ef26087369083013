#!/usr/bin/env bash
# edge_classes.sh: a player's games of a run sorted by what the endgame tables say of the first position within them (the tables' edge), with its score by how the games ended.
# Usage: edge_classes.sh OWARE DB RUN PLAYER EGDB_DIR SEEDS
# Every game of run RUN in DB (`oware export --format csv`) that PLAYER (a
# name of the run) played is replayed (`oware replay`) to its first
# position with at most SEEDS seeds on the board while the game is on,
# found by bisection (the seeds on the board never grow), and that
# position is probed (`oware egdb probe --dir EGDB_DIR`). Its class, from
# PLAYER's side: won, lost, drawn (the tables decide it whatever the
# repetition rule), or cycle-sensitive with the results its bounds allow:
# draw..win, loss..draw, open (loss..win); "never" when the game ended
# above SEEDS. Prints per class the games, PLAYER's score, and the games
# and score of each end (majority, no move, repetition, other); issue 22
# reads its repetition endings where the cycles, not the tables, decide
# (docs/STRENGTH.md). A second table sorts the same games by PLAYER's own
# view of the edge: the score it reported for its first move there (the
# game's move records, `games.move_records`): ahead (above +EVEN
# centiseeds, default 300: three seeds), even, behind, "no score" when it
# reported none (or the game has no records), "no turn" when the game ended
# there before PLAYER's move, "never" as above. With EDGE_POSITIONS=FILE,
# FILE gets a line "CLASS POSITION" for each game at the edge, in the run's
# order (written whole: a temporary file, then renamed): the positions to
# play again, as an openings file of one class or several (awk '$1 ==
# "open" { print $2 }'). Exit 1 when a tool fails or nothing matches.
set -euo pipefail
[ $# -eq 6 ] || { sed -n '3p' "$0" >&2; exit 1; }
oware=$1 db=$2 run=$3 who=$4 dir=$5 seeds=$6
even=${EVEN:-300}
[[ $even =~ ^[0-9]+$ ]] || { echo "edge_classes.sh: EVEN must be a number of centiseeds, not '$even'" >&2; exit 1; }
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
positions=${EDGE_POSITIONS:-}

board_seeds() { # a position's seeds on the board
  local f i n=0
  IFS=- read -r -a f <<<"$1"
  for ((i = 0; i < ${#f[@]} - 3; i++)); do n=$((n + f[i])); done
  echo "$n"
}

replay() { # VARIANT OPENING MOVES PLIES: "position status" after the first PLIES moves
  local out mv=${3:0:$4}
  out=$("$oware" replay --variant "$1" --position "$2" ${mv:+"$mv"}) || return 1
  printf '%s %s\n' "$(sed -n 's/^position //p' <<<"$out")" "$(sed -n 's/^status //p' <<<"$out")"
}

class_of() { # VARIANT POSITION: the class for the side to move
  local probe value lo hi f houses total mine
  probe=$("$oware" egdb probe "$2" --variant "$1" --dir "$dir" 2>&1) || {
    echo "edge_classes.sh: egdb probe $2 failed: $probe" >&2
    return 1
  }
  value=$(sed -n 's/^value \([0-9.]*\).*/\1/p' <<<"$probe")
  lo=${value%%..*} hi=${value##*..}
  IFS=- read -r -a f <<<"$2"
  houses=$((${#f[@]} - 3))
  total=$(($(board_seeds "$2") + f[houses] + f[houses + 1]))
  mine=${f[houses]}
  [ "${f[houses + 2]}" = N ] && mine=${f[houses + 1]}
  # the mover's result with each bound: its final seeds against half the total
  local rlo=$(((2 * (mine + lo) > total) - (2 * (mine + lo) < total)))
  local rhi=$(((2 * (mine + hi) > total) - (2 * (mine + hi) < total)))
  echo "$rlo $rhi"
}

# series,game,round,south,north,opening,moves,score_south,score_north,winner,plies,end,seed,seconds,variant,detail
"$oware" export --db "$db" --run "$run" --format csv >"$rows.csv" || exit 1
trap 'rm -f "$rows" "$rows.csv" "$rows.rec" "$rows.pos"' EXIT
: >"$rows.pos"
# each game's move records (MS/SCORE/DEPTH a move), by "series,game"
sqlite3 -readonly "$db" "SELECT series_no || ',' || game_no || '|' || coalesce(move_records, '')
                         FROM games WHERE run_id = $run" >"$rows.rec" || {
  echo "edge_classes.sh: cannot read the move records of run $run in $db" >&2
  exit 1
}
declare -A records=()
while IFS='|' read -r sg rec; do records[$sg]=$rec; done <"$rows.rec"
while IFS=, read -r series game _ south north opening moves _ _ winner plies end _ _ variant _; do
  [ "$south" = "$who" ] || [ "$north" = "$who" ] || continue
  side=S
  [ "$north" = "$who" ] && side=N
  case $winner in
  draw) points=0.5 ;;
  south) points=$([ $side = S ] && echo 1 || echo 0) ;;
  north) points=$([ $side = N ] && echo 1 || echo 0) ;;
  esac
  # the first ply at which the board holds at most SEEDS seeds, if the game is on there
  read -r pos status < <(replay "$variant" "$opening" "$moves" "$plies") || exit 1
  class=never band=never
  if [ "$(board_seeds "$opening")" -le "$seeds" ]; then
    lo=0
  elif [ "$(board_seeds "$pos")" -le "$seeds" ]; then
    lo=0 hi=$plies # seeds(lo) > SEEDS, seeds(hi) <= SEEDS
    while [ $((hi - lo)) -gt 1 ]; do
      mid=$(((lo + hi) / 2))
      read -r p _ < <(replay "$variant" "$opening" "$moves" "$mid") || exit 1
      if [ "$(board_seeds "$p")" -le "$seeds" ]; then hi=$mid; else lo=$mid; fi
    done
    lo=$hi
  else
    lo=-1
  fi
  if [ "$lo" -ge 0 ]; then
    read -r pos status < <(replay "$variant" "$opening" "$moves" "$lo") || exit 1
    if [ "$status" = playing ]; then
      read -r rlo rhi < <(class_of "$variant" "$pos") || exit 1
      mover=${pos##*-}
      if [ "$mover" != "$side" ]; then # PLAYER's side: the opponent's results reversed
        t=$rlo rlo=$((-rhi)) rhi=$((-t))
      fi
      case "$rlo $rhi" in
      "1 1") class=won ;; "-1 -1") class=lost ;; "0 0") class=drawn ;;
      "0 1") class=draw..win ;; "-1 0") class=loss..draw ;; *) class=open ;;
      esac
      printf '%s %s\n' "$class" "$pos" >>"$rows.pos"
      # PLAYER's first move from the edge on: its record's score
      band="no-score"
      read -r -a rec <<<"${records[$series,$game]:-}"
      k=$lo
      [ "$mover" = "$side" ] || k=$((lo + 1))
      if [ "$k" -ge "$plies" ]; then
        band=no-turn # the game ended before PLAYER's turn there
      elif [ "$k" -lt "${#rec[@]}" ]; then
        IFS=/ read -r _ sc dp <<<"${rec[$k]}"
        if [ "$dp" != 0 ]; then
          if [ "$sc" -gt "$even" ]; then band=ahead
          elif [ "$sc" -lt "-$even" ]; then band=behind
          else band=even; fi
        fi
      fi
    fi
  fi
  printf '%s %s %s %s\n' "$class" "${end// /-}" "$points" "$band" >>"$rows"
done < <(tail -n +2 "$rows.csv")
[ -s "$rows" ] || { echo "edge_classes.sh: no game of '$who' in run $run of $db" >&2; exit 1; }
if [ -n "$positions" ]; then
  if ! cp "$rows.pos" "$positions.tmp" || ! mv "$positions.tmp" "$positions"; then
    rm -f "$positions.tmp"
    echo "edge_classes.sh: cannot write '$positions'" >&2
    exit 1
  fi
fi
awk -v who="$who" -v seeds="$seeds" -v even="$even" '
  # column 1 of a row: its class; column 4: its score band; a table for each
  { e = $2; if (e != "majority" && e != "no-move" && e != "repetition") e = "other"
    N++; P += $3
    for (t = 1; t <= 2; t++) { r = $(t == 1 ? 1 : 4); n[t, r]++; p[t, r] += $3; ne[t, r, e]++; pe[t, r, e] += $3 } }
  function cell(g, q) { return g ? sprintf("%5d %5.1f%%", g, 100 * q / g) : sprintf("%5d %6s", 0, "-") }
  function table(t, head, rows,   order, k, c, j, ends) {
    printf "%-11s %12s %12s %12s %12s %12s\n", head, "all", "majority", "no move", "repetition", "other"
    split("majority no-move repetition other", ends, " ")
    for (k = 1; k <= split(rows, order, " "); k++) {
      c = order[k]; if (!((t, c) in n)) continue
      printf "%-11s %12s", c, cell(n[t, c], p[t, c])
      for (j = 1; j <= 4; j++) printf " %12s", cell(ne[t, c, ends[j]], pe[t, c, ends[j]])
      printf "\n"
    }
  }
  END {
    printf "%s at the tables'\'' edge (the first position with at most %d seeds): %d games, %.1f%%\n", who, seeds, N, 100 * P / N
    table(1, "class", "won draw..win drawn open loss..draw lost never")
    printf "\n%s by its own score at its first move there (even: within %d centiseeds)\n", who, even
    table(2, "score", "ahead even behind no-score no-turn never")
  }' "$rows"
