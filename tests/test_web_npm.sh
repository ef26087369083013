#!/usr/bin/env bash
# test_web_npm.sh: the npm package as an app developer gets it: `npm pack`, `npm install ./oware-*.tgz` offline into an empty folder, a ten-line script plays a whole game against a level.
set -u
oware=$1 dir=$2
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
need_web "$dir"
dir=$(cd "$dir" && pwd)
fails=0
check_tmp
export npm_config_cache="$tmp/npm-cache" npm_config_offline=true npm_config_audit=false \
  npm_config_fund=false npm_config_update_notifier=false
(cd "$tmp" && npm pack --silent "$dir/npm" >pack.out 2>pack.err) || cat "$tmp/pack.err"
check "npm pack makes the tarball" test -f "$tmp"/oware-*.tgz
mkdir "$tmp/app"
cp "$tmp"/oware-*.tgz "$tmp/app/"
(cd "$tmp/app" && timeout 120 npm install --offline ./oware-*.tgz >install.out 2>install.err)
check "npm install ./oware-*.tgz works offline in an empty folder" test $? = 0
check "the package is in node_modules" test -f "$tmp/app/node_modules/oware/oware_core.mjs"
cat >"$tmp/app/play.mjs" <<'JS'
import { load } from "oware";
const oware = await load();
const game = new oware.Game("grandslam-all");
const south = new oware.Player("level:hard"), north = new oware.Player("level:easy");
while (!game.over()) game.play((game.side() === "south" ? south : north).move(game));
const r = game.result();
console.log(`moves ${game.moves().join("")}`);
console.log(`result ${r.reason} ${r.score[0]}-${r.score[1]} ${r.winner}`);
console.log(`levels ${oware.levels().map((l) => `${l.name}=${l.elo}`).join(" ")}`);
JS
check "the app script is ten lines" test "$(wc -l <"$tmp/app/play.mjs")" -le 10
(cd "$tmp/app" && timeout 120 node play.mjs >play.out 2>play.err)
check "the app plays a whole game (exit 0)" test $? = 0
cat "$tmp/app/play.err"
sed 's/^moves \(.\{60\}\).*/moves \1.../' "$tmp/app/play.out"
moves=$(sed -n 's/^moves //p' "$tmp/app/play.out")
want=$("$oware" replay --variant grandslam-all "$moves" | sed -n 's/^status over /result /p')
check "its result is what oware replay says of its moves ($want)" \
  test -n "$want" -a "$want" = "$(grep '^result' "$tmp/app/play.out")"
check "the levels with their Elo" grep -q '^levels easy=.* hard=' "$tmp/app/play.out"
[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
