#!/bin/sh
# fake_engine.sh: a misbehaving engine for tests/test_engine.c; $1 names the misbehaviour, $2 a counter file.
#   garbage   answers go with lines outside the protocol, never a bestmove
#   badbest   answers go with 'bestmove xyz'
#   illegal   answers go with 'bestmove a' (North's house; the tests play it as South)
#   hang      sends nothing at all after uciok (and ignores quit)
#   silent    never answers uci
#   hanggo    never answers go, ignores quit and the end of its input
#   dieat     plays F, and exits with status 3 on every second go (counted in $2)
#   quitafter plays F, then exits
#   longline  sends a 20000-character line, an info line, then plays F
#   flood     answers go with endless garbage lines (from a child process, yes)
#   slow      thinks 0.7 s on every go (an info line first), then plays F: too slow for a 0.5 s clock
#   golog     appends every go line to $2, then plays F (test_uci.sh: what a clock becomes)
# No Variant option: it plays abapa only.
mode=$1
count=$2
while IFS= read -r line; do
  case $line in
  uci)
    [ "$mode" = silent ] && continue
    echo "id name fake-$mode"
    echo "id author oware tests"
    echo "option name Hash type spin default 1 min 1 max 64"
    echo "uciok"
    [ "$mode" = hang ] && exec sleep 3600
    ;;
  isready) echo readyok ;;
  go*)
    case $mode in
    garbage) echo "thinking hard"; echo "hmm"; echo "still here" ;;
    badbest) echo "bestmove xyz" ;;
    illegal) echo "bestmove a" ;;
    hanggo) ;;
    flood) yes "flood of garbage" ;;
    dieat)
      n=$(($(cat "$count" 2>/dev/null || echo 0) + 1))
      echo "$n" >"$count"
      [ $((n % 2)) -eq 0 ] && exit 3
      echo "bestmove F"
      ;;
    quitafter) echo "bestmove F"; exit 0 ;;
    slow) echo "info depth 2 score cp 10 nodes 3 pv F"; sleep 0.7; echo "bestmove F" ;;
    golog) echo "$line" >>"$count"; echo "bestmove F" ;;
    longline)
      head -c 20000 /dev/zero | tr '\0' x
      echo
      echo "info depth 1 seldepth 1 score cp 5 nodes 6 time 1 pv FaB"
      echo "bestmove F"
      ;;
    esac
    ;;
  quit) [ "$mode" = hanggo ] || exit 0 ;;
  esac
done
[ "$mode" = hanggo ] && exec sleep 3600
exit 0
