// drive_page.mjs: plays one whole game on the play page in headless Chromium (file://, no network): a move taken back and a hint first, then the first lit house at each of your moves; prints JSON: the shown result, the OGN saved, the level's move times, what the take-back and the hint did.
// node web/drive_page.mjs DIR/index.html VARIANT LEVEL SIDE
// ($OWARE_SCREENSHOT: a PNG of the page after the hint, there.)
// Chromium is driven over its DevTools pipe (--remote-debugging-pipe: fd 3
// in, fd 4 out, NUL-separated JSON), which needs no package.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const [page, variant = "abapa", level = "hard", side = "south"] = process.argv.slice(2);
if (!page) {
  console.error("usage: node drive_page.mjs INDEX.HTML [VARIANT] [LEVEL] [SIDE]");
  process.exit(2);
}
const profile = mkdtempSync(join(tmpdir(), "oware-page-"));
const chrome = spawn("chromium", [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", `--user-data-dir=${profile}`,
  "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", "--remote-debugging-pipe",
  "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
const console_lines = [];
chrome.stderr.on("data", (d) => console_lines.push(String(d)));

let nextId = 1, inbox = "";
const waiting = new Map();
chrome.stdio[4].on("data", (d) => {
  inbox += d;
  let k;
  while ((k = inbox.indexOf("\0")) >= 0) {
    const m = JSON.parse(inbox.slice(0, k));
    inbox = inbox.slice(k + 1);
    if (m.id && waiting.has(m.id)) {
      waiting.get(m.id)(m);
      waiting.delete(m.id);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  chrome.stdio[3].write(JSON.stringify({ id, method, params, sessionId }) + "\0");
  return new Promise((ok, bad) => waiting.set(id, (m) => (m.error ? bad(new Error(`${method}: ${m.error.message}`)) : ok(m.result))));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function finish(code, out) {
  if (out) console.log(JSON.stringify(out));
  chrome.on("exit", () => {
    // Chromium's helper processes may still write into the profile a moment.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch (e) {
      console.error(`drive_page: ${profile} left behind: ${e.message}`);
    }
    process.exit(code);
  });
  chrome.kill();
}
const timer = setTimeout(() => {
  console.error("drive_page: no end of game within 150 s\n" + console_lines.join("").slice(-2000));
  finish(1);
}, 150000);

try {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  const evaluate = async (expression) => {
    const r = await send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true }, sessionId);
    if (r.exceptionDetails) throw new Error(`page: ${r.exceptionDetails.exception?.description || r.exceptionDetails.text}`);
    return r.result.value;
  };
  await send("Page.navigate", { url: "file://" + resolve(page) }, sessionId);
  for (let i = 0; !(await evaluate("typeof window.owareReady === 'object'")); i++) {
    if (i > 200) throw new Error("the page did not load");
    await sleep(50);
  }
  await evaluate("window.owareReady");
  const status = await evaluate("document.getElementById('status').textContent");
  if (status.startsWith("Error")) throw new Error(`page: ${status}`);
  await evaluate(`owareTest.setup(${JSON.stringify(variant)}, ${JSON.stringify(level)}, ${JSON.stringify(side)})`);
  // A move and its take-back, then a hint, through the buttons.
  const idle = async () => {
    while (await evaluate("owareTest.busy()")) await sleep(20);
  };
  const pos = "document.getElementById('board').dataset.pos";
  const before = await evaluate(pos);
  await evaluate("document.querySelector('#board button.house:enabled').click()");
  await idle();
  const played = await evaluate(pos);
  await evaluate("document.getElementById('undo').click()");
  await idle();
  const takeBack = played !== before && (await evaluate(pos)) === before;
  await evaluate("document.getElementById('hint').click()");
  await idle();
  const hint = await evaluate("document.getElementById('status').textContent");
  const hinted = await evaluate("document.querySelectorAll('#board .hint').length");
  if (process.env.OWARE_SCREENSHOT) {
    const shot = await send("Page.captureScreenshot", { format: "png" }, sessionId);
    writeFileSync(process.env.OWARE_SCREENSHOT, Buffer.from(shot.data, "base64"));
  }
  await evaluate("owareTest.autoplay()");
  while (!(await evaluate("owareTest.done"))) {
    const s = await evaluate("document.getElementById('status').textContent");
    if (s.startsWith("Error")) throw new Error(`page: ${s}`);
    await sleep(100);
  }
  const out = await evaluate(`owareTest.ogn().then((ogn) => ({
    ogn, status: document.getElementById('result').dataset.status,
    shown: document.getElementById('result').textContent,
    pos: document.getElementById('board').dataset.pos, times: owareTest.times,
    variant: document.getElementById('variant').value, level: document.getElementById('level').value }))`);
  Object.assign(out, { takeBack, hint, hinted });
  clearTimeout(timer);
  finish(0, out);
} catch (e) {
  console.error(`drive_page: ${e.message}`);
  finish(1);
}
