#!/bin/bash
# solved_boards.sh: the solved small boards of docs/VARIANTS.md: `oware solve --json` on the start of
# each board (houses x seeds per house) under each grand-slam rule the tables hold, with the split
# table (cycle=split: the bounds and the split value from one set of tables); prints the Markdown
# rows and writes STEM.dat for scripts/solved.gp (the chart of the first player's margin).
# Usage: scripts/solved_boards.sh OWARE DIR STEM [HxS ...]   (default boards: 3x1..3x5 4x1..4x3 5x1 6x1)
# The tables are read from (and built into) DIR with one thread, under nice.
set -eu
OWARE=${1:?usage: solved_boards.sh OWARE DIR STEM [HxS ...]}
DIR=${2:?folder of the tables}
STEM=${3:?stem of the data file}
shift 3
boards=${*:-3x1 3x2 3x3 3x4 3x5 4x1 4x2 4x3 5x1 6x1}
rules="abapa grandslam-forbidden grandslam-all"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for hs in $boards; do
  h=${hs%x*} s=${hs#*x}
  for gs in $rules; do
    v="$gs,cycle=split,houses=$h,seeds=$s"
    start=$(date +%s.%N)
    nice -n 10 "$OWARE" solve --variant "$v" --dir "$DIR" --threads 1 --quiet --json >"$tmp/$hs-$gs.json" 2>/dev/null
    end=$(date +%s.%N)
    echo "$hs $gs $v $(echo "$end - $start" | bc)" >>"$tmp/list"
  done
done
python3 - "$tmp" "$STEM.dat" "$rules" <<'PY'
import json, sys
tmp, dat, rules = sys.argv[1], sys.argv[2], sys.argv[3].split()
rows = [l.split() for l in open(tmp + "/list")]
def who(m):
    return "draw" if m == 0 else ("South" if m > 0 else "North") + " by %g" % abs(m)
boards = []
print("| board | seeds | grand slam | value, own or ply limit | split value | own: first player | split: first player | line | command | time |")
print("|---|---:|---|---:|---:|---|---|---:|---|---:|")
for hs, gs, v, t in rows:
    d = json.load(open("%s/%s-%s.json" % (tmp, hs, gs)))
    x, m = d["value"], d["margin"]
    own = str(x["lower"]) if x["exact"] else "%d..%d" % (x["lower"], x["upper"])
    mo = who(m["lower"]) if x["exact"] else (who(m["lower"]) + " .. " + who(m["upper"]))
    print("| %s | %d | %s | %s | %g | %s | %s | %d | `oware solve --variant %s` | %.1f s |" % (
        hs.replace("x", "×"), d["seeds"], gs.replace("grandslam-", ""), own, x["split"], mo,
        who(m["split"]), d["line"]["plies"], v, float(t)))
    if hs not in [b[0] for b in boards]: boards.append((hs, {}))
    dict(boards)[hs][gs] = (m["lower"], m["upper"], m["split"])
with open(dat + ".tmp", "w") as f:
    f.write("# the first player's margin at the start under perfect play (seeds), by board and grand-slam rule:\n")
    f.write("# own rule: lower and upper bound; split rule: exact. Written by scripts/solved_boards.sh.\n")
    f.write('"i" "board"' + "".join(' "%s lower" "%s upper" "%s split"' % (g, g, g) for g in rules) + "\n")
    for i, (hs, r) in enumerate(boards):
        f.write("%d %s" % (i, hs) + "".join(" %g %g %g" % r[g] if g in r else " NaN NaN NaN" for g in rules) + "\n")
import os
os.replace(dat + ".tmp", dat)
PY
