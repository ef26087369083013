#!/usr/bin/env bash
# test_web_page.sh: the play page (web/index.html) from file:// in headless Chromium: a whole game against the hard level under abapa (as South) and grandslam-all (as North) through the page's clicks (a take-back and a hint first); the shown result equals oware replay of the saved OGN.
set -u
oware=$1 dir=$2
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
need_web "$dir"
dir=$(cd "$dir" && pwd)
if ! command -v chromium >/dev/null 2>&1; then
  [ "${CI:-}" = true ] && { echo "FAIL: chromium is missing; CI must have it (scripts/test installs it)"; exit 1; }
  echo "SKIP: chromium is not installed, so the play page is not checked in a browser"
  exit 77
fi
fails=0
check_tmp
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
for game in "abapa hard south" "grandslam-all hard north"; do
  set -- $game
  timeout 200 node "$root/web/drive_page.mjs" "$dir/index.html" "$@" >"$tmp/page.json" 2>"$tmp/page.err"
  check "$1: the page plays a whole game against level $2 as $3 (exit 0)" test $? = 0
  cat "$tmp/page.err"
  field() { node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(r[process.argv[2]]);' "$tmp/page.json" "$1"; }
  field ogn >"$tmp/game.ogn"
  shown=$(field status) pos=$(field pos)
  echo "     shown: $(field shown)"
  check "$1: the page played the variant and level asked" test "$(field variant) $(field level)" = "$1 $2"
  check "$1: Take back returns to the position before your move and the level's answer" \
    test "$(field takeBack)" = true
  echo "     $(field hint)"
  check "$1: Hint names a move and marks its house" \
    test "$(field hint | cut -c1-5)/$(field hinted)" = "Hint:/1"
  check "$1: the saved OGN names the variant" grep -q "^\[Variant \"$1\"\]" "$tmp/game.ogn"
  "$oware" replay --ogn "$tmp/game.ogn" >"$tmp/replay.out" 2>"$tmp/replay.err"
  check "$1: oware replay reads the saved OGN" test $? = 0
  cat "$tmp/replay.err"
  want=$(sed -n 's/^status //p' "$tmp/replay.out")
  check "$1: the page shows the result oware replay gives ($want)" test "$shown" = "$want"
  check "$1: the board shows the final position oware replay gives" \
    test "position $pos" = "$(grep '^position' "$tmp/replay.out")"
done
[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
