#!/usr/bin/env bash
# test_report_viewer.sh: the report's game viewer in headless Chromium: every game stepped through with the buttons and keys, each board checked against `oware replay` of the OGN moves.
set -u
oware=$1
SKIP=77 # ctest's SKIP_RETURN_CODE for this test
if ! command -v chromium >/dev/null 2>&1; then
  echo "SKIP: chromium is not installed, so the game viewer is not checked in a browser"
  exit $SKIP
fi
fails=0
tmp=$(mktemp -d)
trap "rm -rf $tmp" EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
# Headless Chromium with no network at all.
browser() {
  timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$tmp/profile" \
    --proxy-server=127.0.0.1:9 --host-resolver-rules='MAP * ~NOTFOUND' \
    --enable-logging=stderr --v=0 "$@"
}

# Variants whose rules the viewer must follow: laps that fill the origin,
# grand slams that take everything, the regional rule, split cycles.
"$oware" tournament --players 'random;greedy:name=<m>' --format games:2 \
  --variant 'abapa;abapa,seeds=9,lap=fill;grandslam-all;grandslam-win,houses=4;awari' \
  --seed 11 --threads 2 --db "$tmp/t.db" --quiet >/dev/null 2>&1
check "the fixture tournament runs" test $? = 0
"$oware" report --run 1 --db "$tmp/t.db" --out "$tmp/r" >/dev/null 2>"$tmp/r.err"
check "the report is written" test -s "$tmp/r/index.html"
check "the page has the viewer" grep -q '<section id="games">' "$tmp/r/index.html"
# The viewer holds no rule of the game (issue 25): the page tells it each
# variant's house count only, and each game's positions come computed by core/.
python3 - "$tmp/r/index.html" >"$tmp/rules.txt" 2>&1 <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r'<script type="application/json" id="viewer-data">(.*?)</script>', page, re.S).group(1))
bad = [v for v in data["variants"] if sorted(v) != ["h", "name"]]
short = [g[8] for g in data["games"] if len(g) < 10 or len(g[9]) != len(g[4]) * (2 * data["variants"][g[2]]["h"] + 3)]
print("variants with rules in the page: %s; games without a position per move: %s" % (bad, short))
sys.exit(1 if bad or short else 0)
PY
check "the viewer is given positions, not the rules" test $? = 0
"$oware" export --run 1 --db "$tmp/t.db" --format csv --out "$tmp/g.csv"
ngames=$(($(wc -l <"$tmp/g.csv") - 1))

# The probe: for every game, pick it in the list, then press the forward
# button to the end, recording each board; then the keys: left, End, Home.
cat >"$tmp/probe.js" <<'JS'
addEventListener("load", function () {
  var out = [], sel = document.getElementById("vgame"), bd = document.getElementById("vboard");
  var next = document.getElementById("vnext");
  function key(k) { document.dispatchEvent(new KeyboardEvent("keydown", {key: k})); }
  function rec(i) {
    var last = bd.querySelector(".last"), caps = bd.querySelectorAll(".cap").length;
    out.push("F " + i + " " + bd.getAttribute("data-ply") + " " + bd.getAttribute("data-pos") +
             " " + (last ? last.id : "-") + " " + caps);
  }
  for (var i = 0; i < sel.options.length; i++) {
    sel.value = String(i);
    sel.dispatchEvent(new Event("change"));
    rec(i);
    var guard = 0;
    while (!next.disabled && guard++ < 2000) { next.click(); rec(i); }
    var end = bd.getAttribute("data-pos");
    key("ArrowLeft");
    var back = bd.getAttribute("data-pos");
    key("ArrowRight");
    var again = bd.getAttribute("data-pos");
    key("Home");
    var home = bd.getAttribute("data-pos");
    key("End");
    out.push("K " + i + " " + (again == end) + " " + (back != end) + " " + (bd.getAttribute("data-pos") == end) + " " + home);
    out.push("S " + i + " " + document.getElementById("vstatus").textContent.split(String.fromCharCode(10)).join(" / "));
  }
  out.push("N " + sel.options.length);
  var p = document.createElement("pre");
  p.id = "probe";
  p.textContent = "PROBE\n" + out.join("\n") + "\nENDPROBE";
  document.body.appendChild(p);
});
JS
python3 -c "
import sys
s = open(sys.argv[1]).read()
p = open(sys.argv[2]).read()
open(sys.argv[3], 'w').write(s.replace('</body>', '<script>' + p + '</script></body>'))
" "$tmp/r/index.html" "$tmp/probe.js" "$tmp/r/probe.html"
browser --dump-dom --virtual-time-budget=20000 "file://$tmp/r/probe.html" >"$tmp/dom.html" 2>"$tmp/dom.err"
check "chromium loads the page (exit 0)" test $? = 0
check "no page error on the console" bash -c "! grep -E 'Uncaught|CONSOLE' '$tmp/dom.err'"
python3 -c "
import html, sys
d = open(sys.argv[1]).read()
i = d.find('<pre id=\"probe\">')
j = d.find('</pre>', i)
print(html.unescape(d[i:j]) if i >= 0 else '')
" "$tmp/dom.html" >"$tmp/probe.txt"
check "the list offers every game ($ngames)" grep -qx "N $ngames" "$tmp/probe.txt"

# Every board against `oware replay` of the same moves from the same start.
python3 - "$oware" "$tmp/g.csv" "$tmp/probe.txt" >"$tmp/cmp.txt" 2>&1 <<'PY'
import csv, subprocess, sys
oware, games, probe = sys.argv[1:4]
rows = list(csv.DictReader(open(games)))
frames, keys = {}, {}
for line in open(probe):
    f = line.split()
    if f and f[0] == "F":
        frames.setdefault(int(f[1]), []).append((int(f[2]), f[3], f[4], int(f[5])))
    elif f and f[0] == "K":
        keys[int(f[1])] = f[2:]
bad = checked = 0
def replay(row, k):
    out = subprocess.run([oware, "replay", "--variant", row["variant"], "--position", row["opening"]]
                         + list(row["moves"][:k]), capture_output=True, text=True).stdout
    return out.split("\n")[0].split(" ", 1)[1]
def letter_index(c, h):
    return ord(c) - 65 if c.isupper() else h + ord(c) - 97
for i, row in enumerate(rows):
    fr = frames.get(i, [])
    n = len(row["moves"])
    h = (len(row["opening"].split("-")) - 3) // 2
    if len(fr) not in (n + 1, n + 2):
        print("game %d: %d boards for %d moves" % (i, len(fr), n)); bad += 1; continue
    for k in range(n + 1):
        ply, pos, last, caps = fr[k]
        if k == n and len(fr) == n + 2:
            pos_expected = None  # before the final transfer: checked below by its seed total
        else:
            pos_expected = replay(row, k)
        if pos_expected is not None and pos != pos_expected:
            print("game %d step %d: viewer %s, replay %s" % (i, k, pos, pos_expected)); bad += 1
        checked += 1
        if k > 0:
            want_last = "vh%d" % letter_index(row["moves"][k - 1], h)
            if last != want_last:
                print("game %d step %d: last move marked %s, expected %s" % (i, k, last, want_last)); bad += 1
            prev = [float(x) for x in fr[k - 1][1].split("-")[:-1]]
            cur = [float(x) for x in pos.split("-")[:-1]]
            took = (cur[-2] - prev[-2]) + (cur[-1] - prev[-1])
            if (took > 0) != (caps > 0):
                print("game %d step %d: %g captured, %d houses marked" % (i, k, took, caps)); bad += 1
    if fr[-1][1] != replay(row, n):
        print("game %d: last board %s, replay %s" % (i, fr[-1][1], replay(row, n))); bad += 1
    if len(fr) == n + 2 and sum(float(x) for x in fr[n][1].split("-")[:-1]) != sum(float(x) for x in fr[-1][1].split("-")[:-1]):
        print("game %d: the transfer changes the seed total" % i); bad += 1
    if keys.get(i, [None])[:3] != ["true", "true", "true"] or keys[i][3] != row["opening"]:
        print("game %d: keys %s" % (i, keys.get(i))); bad += 1
print("checked %d boards of %d games, %d wrong" % (checked, len(rows), bad))
sys.exit(1 if bad else 0)
PY
check "every board of every game matches oware replay" test $? = 0
tail -3 "$tmp/cmp.txt"
check "the last step names the end reason" grep -Eq '^S 0 .*Game over \((majority|no-move|repetition|ply-limit)\)' "$tmp/probe.txt"
check "a player's name is text, not markup" grep -q '<option value="[0-9]*">[^<]*&lt;m&gt;' "$tmp/dom.html"

# The score curve (issue 27): a run whose games have move records shows,
# per move, the comment PGN carries and a curve of the searched scores.
"$oware" tournament --players 'minimax:depth=3;greedy' --format games:2 --seed 3 --db "$tmp/c.db" \
  --quiet >/dev/null 2>&1
"$oware" report --run 1 --db "$tmp/c.db" --out "$tmp/rc" >/dev/null 2>&1
"$oware" export --run 1 --db "$tmp/c.db" --format pgn --out "$tmp/c.pgn"
python3 - "$tmp/rc/index.html" "$tmp/c.pgn" >"$tmp/curve.txt" 2>&1 <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
data = json.loads(re.search(r'<script type="application/json" id="viewer-data">(.*?)</script>', page, re.S).group(1))
pgn_comments = [re.findall(r"\{[^}]*\}", g) for g in open(sys.argv[2]).read().split("[Event ")[1:]]
bad = 0
for g, want in zip(data["games"], pgn_comments):
    got = [r[0] for r in g[10]]
    if got != want or len(got) != len(g[4]):
        print("game %s: the viewer's comments differ from the PGN's" % g[8]); bad += 1
print("games", len(data["games"]), "bad", bad)
sys.exit(1 if bad or len(data["games"]) != 2 else 0)
PY
check "the viewer's move comments are the PGN's" test $? = 0
cat >"$tmp/probe2.js" <<'JS'
addEventListener("load", function () {
  var D = JSON.parse(document.getElementById("viewer-data").textContent), sv = document.getElementById("vcurve");
  var searched = D.games[0][10].filter(function (r) { return r[1] !== null; }).length;
  document.getElementById("vnext").click();
  var p = document.createElement("pre");
  p.id = "probe";
  p.textContent = "PROBE " + sv.getAttribute("data-points") + " " + searched + " " +
    (document.getElementById("vstatus").textContent.indexOf(D.games[0][10][0][0]) >= 0) + " " +
    document.getElementById("vmark").getAttribute("cx") + " ENDPROBE";
  document.body.appendChild(p);
});
JS
python3 -c "
import sys
s = open(sys.argv[1]).read()
open(sys.argv[3], 'w').write(s.replace('</body>', '<script>' + open(sys.argv[2]).read() + '</script></body>'))
" "$tmp/rc/index.html" "$tmp/probe2.js" "$tmp/rc/probe.html"
browser --dump-dom --virtual-time-budget=10000 "file://$tmp/rc/probe.html" >"$tmp/dom2.html" 2>/dev/null
probe2=$(grep -o 'PROBE [^<]*ENDPROBE' "$tmp/dom2.html")
echo "$probe2"
check "the curve has a point per searched move, the first move's comment is shown" \
  bash -c "echo '$probe2' | awk '\$2 == \$3 && \$2 > 0 && \$4 == \"true\" && \$5 > 0 {ok=1} END {exit !ok}'"

echo "$fails failure(s)"
[ "$fails" = 0 ]
