#!/usr/bin/env bash
# test_golden.sh: the same commands give the same games: exports of a tournament, an SPSA run,
# a variant study and a calibration at fixed seeds, against checksums recorded before the
# runner rewrite (tests/data/golden.txt). minimax plays eval=linear, the evaluation these were
# recorded with (the network is its default since), and rfp=0 (no reverse futility pruning,
# the default since store schema 16), under the name it had then. Usage: test_golden.sh OWARE DATA_DIR [--print]
set -euo pipefail
oware=$(realpath "$1")
data=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
sum() { md5sum | cut -d' ' -f1; }
declare -A got
"$oware" tournament --players 'random;greedy;minimax:depth=3,eval=linear,rfp=0,name=minimax:depth=3;mcts:playouts=200' --format games:4 \
  --seed 7 --threads 2 --db t.db --quiet >/dev/null 2>&1
got[tournament]=$("$oware" export --db t.db --run 1 --format csv | cut -d, -f1-13,15- | sum)
"$oware" tune spsa --player minimax:depth=2,rfp=0 --iterations 6 --pairs 2 --seed 3 --threads 2 \
  --db s.db --out s.txt --quiet >/dev/null 2>&1
got[spsa_weights]=$(sum <s.txt)
got[spsa_table]=$(sqlite3 s.db 'select iteration,kind,weights,step,wins,draws,losses,value,games from tuning' | sum)
"$oware" study --players 'random;greedy;minimax:depth=2,eval=linear,rfp=0,name=minimax:depth=2' --games 4 --seed 5 --threads 2 \
  --db v.db --no-charts --quiet >/dev/null 2>&1
got[variants]=$("$oware" export --db v.db --run 1 --format csv | cut -d, -f1-13,15- | sum)
"$oware" calibrate --base mcts --knob playouts --range 4:400 --log --levels 'easy=-100;hard=100' \
  --anchor greedy=0 --games 4 --max-games 8 --ref-games 4 --verify-games 4 --seed 9 --threads 2 \
  --out l.txt --quiet >/dev/null 2>&1
got[calibrate]=$(sum <l.txt)
"$oware" tune texel --player minimax:depth=2,rfp=0 --games 40 --max-iter 20 --seed 11 --threads 2 \
  --db x.db --out x.txt --quiet >/dev/null 2>&1
got[texel_weights]=$(sum <x.txt)
"$oware" tournament --players 'greedy;minimax:depth=2,eval=linear,rfp=0,name=minimax:depth=2;random' --format first-to:3 --rounds 2 \
  --seed 13 --threads 2 --db f.db --quiet >/dev/null 2>&1
got[series]=$("$oware" export --db f.db --run 1 --format csv | cut -d, -f1-13,15- | sum)
if [ "${3:-}" = --print ]; then
  for k in tournament spsa_weights spsa_table variants calibrate texel_weights series; do echo "$k ${got[$k]}"; done
  exit 0
fi
fail=0
while read -r name want; do
  [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
  if [ "${got[$name]:-}" != "$want" ]; then
    echo "FAIL: $name: checksum ${got[$name]:-none}, recorded $want"
    fail=1
  else
    echo "ok: $name"
  fi
done <"$data/golden.txt"
exit $fail
