#!/usr/bin/env bash
# test_edge_classes.sh: scripts/edge_classes.sh end to end: perfect (tables to 8 seeds) against random from endings of 8 to 10 seeds (abapa); each side's games sorted by the class at the tables' edge: perfect scores all of its won entries, the two sides' tables mirror each other (won against lost, the same games, the points adding up), and the positions it writes with EDGE_POSITIONS, and the errors.
# Usage: test_edge_classes.sh OWARE SCRIPTS_DIR
set -u
# shellcheck disable=SC2016 # the awk programs are in single quotes
oware=$(realpath "$1")
script=$(realpath "$2")/edge_classes.sh
fails=0
. "$(dirname "$0")/check.sh"
check_tmp
cd "$tmp" || exit 1

nice -n 10 "$oware" egdb build --variant abapa --seeds 8 --dir eg --quiet >/dev/null || exit 1
cat >op.txt <<'OPENINGS'
1-1-1-0-1-1-1-0-1-1-1-1-19-19-S
0-2-0-1-1-0-2-0-1-1-1-2-18-19-S
1-0-2-0-1-1-0-2-0-1-0-1-18-21-S
2-1-0-1-0-1-1-1-0-2-1-0-20-18-N
0-1-0-2-0-1-1-0-2-0-0-1-20-20-S
OPENINGS
"$oware" tournament --players "perfect:egdb=eg,name=perfect;random" --openings file:op.txt \
  --rounds 10 --db t.db --quiet --seed 5 --threads 1 >/dev/null || exit 1
games=$(sqlite3 t.db 'SELECT count(*) FROM games')

bash "$script" "$oware" t.db 1 perfect eg 8 >p.txt
check "perfect: exits 0" test $? -eq 0
bash "$script" "$oware" t.db 1 random eg 8 >r.txt
check "random: exits 0" test $? -eq 0
cat p.txt r.txt
check "perfect: every game counted" grep -q "^perfect at the tables' edge (the first position with at most 8 seeds): $games games" p.txt
# class games points: the "all" column as numbers
table() { awk 'NF == 0 { exit } NR > 2 { printf "%s %d %.1f\n", $1, $2, $2 * $3 / 100 }' "$1"; }
# the second table (by the player's own score at the edge), the same way
bands() { awk 'NF == 0 { on = 1; n = 0; next } on && ++n > 2 { printf "%s %d %.1f\n", $1, $2, $2 * $3 / 100 }' "$1"; }
table p.txt >p.cls
table r.txt >r.cls
check "perfect: won entries, all won" awk '$1 == "won" && $3 == $2 { ok = 1 } END { exit !ok }' p.cls
check "perfect: the classes add up to the games" awk -v n="$games" '{ s += $2 } END { exit s != n }' p.cls
# random's table is perfect's seen from the other side
flip() { # the first column's class seen from the other side
  awk 'BEGIN { m["won"] = "lost"; m["lost"] = "won"; m["draw..win"] = "loss..draw"
               m["loss..draw"] = "draw..win" }
       { if ($1 in m) $1 = m[$1]; print }' "$1"
}
mirror() { flip "$1" | sort; }
check "the two sides mirror each other" \
  awk 'NR == FNR { g[$1] = $2; p[$1] = $3; next }
       !($1 in g) || g[$1] != $2 || p[$1] + $3 != $2 { bad = 1 }
       END { exit bad }' <(mirror r.cls) <(sort p.cls)
check "random has a lost entry" grep -q '^lost ' r.cls

# The second table: each game by the player's own score at its first move
# within the tables (its move records). Random reports no search: all "no
# score"; perfect reports its table values as a search of one ply, and
# minimax at depth 4 its score, for every move.
bands p.txt >p.bnd
bands r.txt >r.bnd
check "perfect: the bands add up to the games" awk -v n="$games" '{ s += $2 } END { exit s != n }' p.bnd
check "perfect: a score at every edge" awk '$1 == "no-score" { bad = 1 } END { exit bad }' p.bnd
check "random: no score at the edge" awk '$1 != "no-score" && $1 != "no-turn" && $1 != "never" { bad = 1 } END { exit bad || NR == 0 }' r.bnd
# and two more openings whose only move captures and ends the game: from 9
# seeds, "never" in both tables; from 8, South's move at the edge, so that
# North had no turn there
{ cat op.txt; echo 0-0-0-0-0-1-2-2-1-1-1-1-22-17-S; echo 0-0-0-0-0-1-2-1-1-1-1-1-22-18-S; } >op2.txt
"$oware" tournament --players "minimax:depth=4,egdb=off,name=mm;random" --openings file:op2.txt \
  --rounds 10 --db m.db --quiet --seed 5 --threads 1 >/dev/null 2>&1 || exit 1
bash "$script" "$oware" m.db 1 mm eg 8 >m.txt
check "minimax: exits 0" test $? -eq 0
cat m.txt
table m.txt >m.cls
bands m.txt >m.bnd
check "minimax: a score for every game at the edge" \
  awk '$1 == "no-score" { bad = 1 } $1 != "never" { n += $2 } END { exit bad || n == 0 }' m.bnd
check "minimax: ahead of random somewhere" grep -q '^ahead ' m.bnd
check "minimax: no turn at the edge, as North from the last opening" grep -q '^no-turn ' m.bnd
# the band's width: with EVEN at a million centiseeds every score is even
EVEN=1000000 bash "$script" "$oware" m.db 1 mm eg 8 >w.txt
bands w.txt >w.bnd
check "EVEN=1000000: every scored game even" awk '$1 == "ahead" || $1 == "behind" { bad = 1 } END { exit bad }' w.bnd
check "  the same games" test "$(awk '{ s += $2 } END { print s }' w.bnd)" = "$(awk '{ s += $2 } END { print s }' m.bnd)"
# a game that ended at the edge, or above it, is "never" in both tables
for f in p r m; do
  check "$f: the same games never at the edge in both tables" \
    test "$(awk '$1 == "never" { print $2 }' $f.cls)" = "$(awk '$1 == "never" { print $2 }' $f.bnd)"
done
EVEN=x bash "$script" "$oware" m.db 1 mm eg 8 >/dev/null 2>err.txt
check "EVEN not a number: exit 1" test $? -eq 1
check "  named" grep -q "EVEN must be a number of centiseeds, not 'x'" err.txt

# EDGE_POSITIONS: each game at the edge, its class and position, in the
# run's order: the same classes as the table, the positions within the
# tables (each probed), random's file perfect's seen from the other side,
# and the positions an openings file a tournament plays.
EDGE_POSITIONS=pp.txt bash "$script" "$oware" t.db 1 perfect eg 8 >p2.txt
check "EDGE_POSITIONS: exits 0" test $? -eq 0
check "  the tables unchanged" cmp -s p.txt p2.txt
EDGE_POSITIONS=rp.txt bash "$script" "$oware" t.db 1 random eg 8 >/dev/null
check "  a line for each game at the edge" \
  test "$(wc -l <pp.txt)" = "$(awk '$1 != "never" { s += $2 } END { print s }' p.cls)"
check "  the table's classes" \
  test "$(awk '{ n[$1]++ } END { for (c in n) print c, n[c] }' pp.txt | sort)" = \
  "$(awk '$1 != "never" { print $1, $2 }' p.cls | sort)"
check "  the same positions for both sides" test "$(cut -d' ' -f2 pp.txt)" = "$(cut -d' ' -f2 rp.txt)"
check "  random's classes mirror perfect's" \
  test "$(flip rp.txt)" = "$(cat pp.txt)"
check "  every position within the tables" \
  awk '{ split($2, f, "-"); n = 0; for (i = 1; i <= 12; i++) n += f[i]; if (n > 8) bad = 1 }
       END { exit bad || NR == 0 }' pp.txt
bad=0
while read -r _ pos; do
  "$oware" egdb probe "$pos" --variant abapa --dir eg | grep -q '^value [0-9]' || bad=1
done <pp.txt
check "  and each probed" test "$bad" -eq 0
awk '{ print $2 }' pp.txt >again.txt
"$oware" tournament --players "perfect:egdb=eg;random" --openings file:again.txt --rounds 1 \
  --db again.db --quiet --seed 5 --threads 1 >/dev/null
check "  the positions play as an openings file" test $? -eq 0
EDGE_POSITIONS=nowhere/x.txt bash "$script" "$oware" t.db 1 perfect eg 8 >/dev/null 2>err.txt
check "EDGE_POSITIONS in a missing folder: exit 1" test $? -eq 1
check "  named" grep -q "cannot write 'nowhere/x.txt'" err.txt

# Errors: a player the run lacks, a missing run, missing tables, a wrong argument count.
bash "$script" "$oware" t.db 1 nobody eg 8 >/dev/null 2>err.txt
check "a player the run lacks: exit 1" test $? -eq 1
check "  named" grep -q "no game of 'nobody' in run 1" err.txt
bash "$script" "$oware" t.db 9 perfect eg 8 >/dev/null 2>err.txt
check "a missing run: exit 1" test $? -eq 1
bash "$script" "$oware" t.db 1 perfect nowhere 8 >/dev/null 2>err.txt
check "missing tables: exit 1" test $? -eq 1
check "  named" grep -q "egdb probe .* failed" err.txt
bash "$script" "$oware" t.db 1 >/dev/null 2>err.txt
check "too few arguments: exit 1" test $? -eq 1
check "  the usage" grep -q "Usage: edge_classes.sh" err.txt
if [ "$fails" -ne 0 ]; then
  echo "$fails failed"
  exit 1
fi
echo "all passed"
