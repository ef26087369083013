#!/usr/bin/env bash
# egdb_openings.sh: an openings file of endgame positions (LO..HI seeds on the board) taken from a quick minimax tournament, one per game, deduplicated.
# Usage: egdb_openings.sh OWARE OUT [GAMES] [SEED] [LO] [HI] [PLAYERS]
# Plays GAMES games (default 600; game pairs from random:8 openings, seed
# SEED, default 1) between the PLAYERS (default
# 'minimax:nodes=5000,egdb=off;minimax:nodes=20000,egdb=off') into a temporary database, then
# from each game takes one position: a target T is drawn in LO..HI (default
# 21..26) from SEED, and the position is the first of the game with at most
# T seeds on the board (the count never grows, so a binary search over the
# plies with `oware replay` finds it), kept when it has at least LO seeds and
# the game is not over there. Positions carry the stores and the side to
# move. Duplicates are dropped (first kept, game order). Writes OUT whole
# (a temporary file renamed) and prints how many positions and their seed
# counts. Exit 1 when a command fails.
set -euo pipefail
oware=${1:?usage: egdb_openings.sh OWARE OUT [GAMES] [SEED] [LO] [HI] [PLAYERS]}
out=${2:?usage: egdb_openings.sh OWARE OUT [GAMES] [SEED] [LO] [HI] [PLAYERS]}
games=${3:-600} seed=${4:-1} lo=${5:-21} hi=${6:-26}
players=${7:-'minimax:nodes=5000,egdb=off;minimax:nodes=20000,egdb=off'}
[ $((games % 2)) -eq 0 ] || { echo "egdb_openings.sh: GAMES must be even" >&2; exit 1; }
[ "$lo" -le "$hi" ] || { echo "egdb_openings.sh: LO > HI" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$oware" tournament --players "$players" --format games:"$games" --openings random:8 \
  --seed "$seed" --threads 1 --db "$tmp/t.db" --quiet >/dev/null

# seeds_at START MOVES K: "SEEDS STATUS POSITION" after the first K moves.
seeds_at() {
  local r pos status
  r=$("$oware" replay --position "$1" "${2:0:$3}")
  pos=$(sed -n 's/^position //p' <<<"$r")
  status=$(sed -n 's/^status \([a-z]*\).*/\1/p' <<<"$r")
  awk -F- -v p="$pos" -v s="$status" '{ n = 0; for (i = 1; i <= NF - 3; i++) n += $i; print n, s, p }' <<<"$pos"
}

RANDOM=$seed
: >"$tmp/all"
# Each game's opening and moves, in game order, read from the database (the
# CSV export quotes the players' specs, whose commas a cut would split).
sqlite3 -separator ' ' "$tmp/t.db" 'select opening, moves from games order by series_no, game_no' |
while read -r start moves; do
  target=$((lo + RANDOM % (hi - lo + 1)))
  a=0 b=${#moves} # the answer lies in a..b; b: the end (maybe above target)
  while [ "$a" -lt "$b" ]; do
    m=$(((a + b) / 2))
    read -r n _ _ < <(seeds_at "$start" "$moves" "$m")
    if [ "$n" -le "$target" ]; then b=$m; else a=$((m + 1)); fi
  done
  read -r n status pos < <(seeds_at "$start" "$moves" "$a")
  if [ "$n" -ge "$lo" ] && [ "$n" -le "$target" ] && [ "$status" = playing ]; then
    echo "$pos" >>"$tmp/all"
  fi
done
{
  echo "# endgame openings: $lo..$hi seeds on the board, one a game of '$players'"
  echo "# (games:$games from random:8, seed $seed), deduplicated; scripts/egdb_openings.sh"
  awk '!seen[$0]++' "$tmp/all"
} >"$out.tmp$$"
mv "$out.tmp$$" "$out"
count=$(grep -vc '^#' "$out")
echo "$out: $count positions from $games games"
grep -v '^#' "$out" | awk -F- '{ n = 0; for (i = 1; i <= NF - 3; i++) n += $i; c[n]++ }
  END { for (k in c) printf "  %d seeds: %d\n", k, c[k] }' | sort -n -k1
