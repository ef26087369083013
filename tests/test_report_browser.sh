#!/usr/bin/env bash
# test_report_browser.sh: the report page in a real browser: headless Chromium renders it offline, every image loads, a screenshot is made.
set -u
oware=$1
SKIP=77 # ctest's SKIP_RETURN_CODE for this test
if ! command -v chromium >/dev/null 2>&1; then
  echo "SKIP: chromium is not installed, so the report is not checked in a browser"
  echo "      (scripts/test installs it: apt-get install chromium)"
  exit $SKIP
fi
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
# Headless Chromium with no network at all: no proxy reachable, no name resolves.
browser() {
  timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$tmp/profile" \
    --proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND' \
    --enable-logging=stderr --v=0 "$@"
}

"$oware" tournament --players 'random;greedy;minimax:depth=2,name=<mm2>' --format games:4 \
  --variant 'abapa;abapa,seeds=3' --seed 5 --threads 2 --db "$tmp/t.db" --quiet >/dev/null 2>&1
check "the fixture tournament runs" test $? = 0
"$oware" report --run 1 --db "$tmp/t.db" --out "$tmp/report" >/dev/null 2>"$tmp/report.err"
check "the report is written" test -s "$tmp/report/index.html"
nimg=$(grep -c '<img src=' "$tmp/report/index.html")
echo "     the page has $nimg images"

# 1. A screenshot of the page as it is.
browser --screenshot="$tmp/shot.png" --window-size=1200,1600 \
  "file://$tmp/report/index.html" >"$tmp/shot.out" 2>"$tmp/shot.err"; rc=$?
check "chromium renders the page (exit 0)" test $rc = 0
check "the screenshot is a 1200x1600 PNG" test "$(png_size "$tmp/shot.png")" = 1200x1600
size=$(stat -c %s "$tmp/shot.png" 2>/dev/null || echo 0)
check "the screenshot is not blank ($size bytes)" test "$size" -gt 30000
check "no failed load or page error on chromium's console" \
  bash -c "! grep -E 'CONSOLE|ERR_FILE_NOT_FOUND|ERR_NAME_NOT_RESOLVED|ERR_PROXY|Failed to load' '$tmp/shot.err'"

# 2. The same page with a probe that reports, after the load, each image
# that did not decode and each request outside the folder.
sed 's#</body>#<script>addEventListener("load",function(){var bad=[];for(const i of document.images)if(!i.complete||!i.naturalWidth)bad.push(i.getAttribute("src"));for(const e of performance.getEntriesByType("resource"))if(!e.name.startsWith("file:"))bad.push(e.name);var p=document.createElement("pre");p.id="probe";p.textContent="PROBE images="+document.images.length+" bad="+bad.length+" "+bad.join(" ");document.body.appendChild(p);});</script></body>#' \
  "$tmp/report/index.html" >"$tmp/report/probe.html"
browser --dump-dom --virtual-time-budget=5000 "file://$tmp/report/probe.html" \
  >"$tmp/dom.html" 2>"$tmp/dom.err"; rc=$?
check "chromium loads the page with the probe (exit 0)" test $rc = 0
probe=$(grep -o 'PROBE images=[0-9]* bad=[0-9]*[^<]*' "$tmp/dom.html")
echo "     $probe"
check "every image decodes in the browser, nothing is fetched outside the folder" \
  test "$probe" = "PROBE images=$nimg bad=0 "
check "the page has the charts" test "$nimg" -ge 4
check "the escaped player name shows as text" grep -q '&lt;mm2&gt;' "$tmp/dom.html"

if [ -n "${OWARE_KEEP_SCREENSHOT:-}" ]; then
  cp "$tmp/shot.png" "$OWARE_KEEP_SCREENSHOT" && echo "     screenshot kept in $OWARE_KEEP_SCREENSHOT"
fi
[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
exit $((fails > 0))
