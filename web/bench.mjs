// bench.mjs: the WebAssembly module in node beside the native binary, interleaved run by run: perft 7 and 9 from the start of abapa, and minimax (egdb=off) to depth 12 over the positions of `oware bench search`; medians, and the median of the run-by-run ratios.
// node web/bench.mjs OWARE.MJS OWARE-BINARY [STEPS]
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [modulePath, native, runsText = "5"] = process.argv.slice(2);
if (!native) {
  console.error("usage: node bench.mjs OWARE.MJS OWARE-BINARY [RUNS]");
  process.exit(2);
}
const { load } = await import(pathToFileURL(resolve(modulePath)).href);
const oware = await load(), runs = Number(runsText);
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const run = (...args) => execFileSync(native, args, { encoding: "utf8" });
const grab = (text, re) => {
  const m = text.match(re);
  if (!m) throw new Error(`no ${re} in the native output:\n${text}`);
  return Number(m[1]);
};

// The bench positions, as the native command prints them.
const positions = [...run("bench", "search", "--depth", "1", "--repeat", "1", "--mcts-playouts", "1")
  .matchAll(/^position \d+ (\S+)/gm)].map((m) => m[1]);

function wasmPerft(depth) {
  const t0 = performance.now();
  const leaves = oware.perft(depth);
  return { leaves, secs: (performance.now() - t0) / 1000 };
}

// One player for all positions, a new game each (the player is told so), as
// `oware bench search` does; the node count must be its signature.
function wasmSearch() {
  const p = new oware.Player("minimax:egdb=off");
  let secs = 0, nodes = 0;
  for (const pos of positions) {
    const g = new oware.Game("abapa", pos);
    const t0 = performance.now();
    nodes += p.analyse(g, { depth: 12 }).nodes;
    secs += (performance.now() - t0) / 1000;
    g.free();
  }
  p.free();
  return { nodes, nps: nodes / secs };
}

const rows = { 7: [[], []], 9: [[], []], search: [[], []] };
let wasmNodes = 0, nativeNodes = 0;
// Each step: the native command's median of 3 runs (one process: warm, as
// the module is after its first run), then the module's median of 3.
const three = (f) => median([f(), f(), f()]);
for (let k = 0; k < runs; k++) {
  for (const d of [7, 9]) {
    const n = run("bench", "core", "--games", "1", "--repeat", "3", "--perft", String(d));
    rows[d][0].push(grab(n, /^perft \d+ \d+ in ([0-9.]+) s/m));
    rows[d][1].push(three(() => wasmPerft(d).secs));
  }
  const n = run("bench", "search", "--depth", "12", "--repeat", "3", "--mcts-playouts", "1");
  nativeNodes = grab(n, /^minimax depth 12: nodes (\d+)/m);
  rows.search[0].push(grab(n, /^minimax nodes\/s (\d+)/m));
  rows.search[1].push(three(() => {
    const w = wasmSearch();
    wasmNodes = w.nodes;
    return w.nps;
  }));
}
const ratios = (r, slowerIsBigger) => r[0].map((x, i) => (slowerIsBigger ? r[1][i] / x : x / r[1][i]));
for (const d of [7, 9]) {
  const [n, w] = rows[d];
  console.log(`perft ${d} (${oware.perft(d)} leaves): native ${(median(n) * 1000).toFixed(1)} ms, ` +
    `node ${(median(w) * 1000).toFixed(1)} ms (medians of ${runs} steps of 3 runs); node/native ${median(ratios(rows[d], true)).toFixed(2)}`);
}
const [n, w] = rows.search;
console.log(`minimax depth 12: nodes native ${nativeNodes}, node ${wasmNodes}; nodes/s native ${median(n).toFixed(0)}, ` +
  `node ${median(w).toFixed(0)} (medians of ${runs} steps of 3 runs); native/node ${median(ratios(rows.search, false)).toFixed(2)}`);
if (wasmNodes !== nativeNodes) {
  console.error("the node counts differ: the module does not search as the native binary does");
  process.exit(1);
}
