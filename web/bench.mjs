// bench.mjs: the speed of the WebAssembly module in node, as `oware bench` measures the native binary: perft 7 and 9 from the start of abapa, and minimax (egdb=off) to depth 12 over the bench positions; medians of RUNS.
// node web/bench.mjs OWARE.MJS RUNS POSITIONS-FILE (the positions of
// `oware bench search`, one a line; scripts/web bench writes it).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [modulePath, runsText = "5", positionsFile] = process.argv.slice(2);
const { load } = await import(pathToFileURL(resolve(modulePath)).href);
const oware = await load(), runs = Number(runsText);
const positions = readFileSync(positionsFile, "utf8").split("\n").filter(Boolean);
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

for (const depth of [7, 9]) {
  const secs = [];
  let leaves = 0;
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    leaves = oware.perft(depth);
    secs.push((performance.now() - t0) / 1000);
  }
  const t = median(secs);
  console.log(`node: perft ${depth} ${leaves} in ${t.toFixed(3)} s (median), ${(leaves / t).toFixed(0)} leaves/s`);
}

// One player for all positions, a new game each (the player is told so), as
// `oware bench search` does; the node count must be its signature.
const nps = [];
let nodes = 0;
for (let k = 0; k < runs; k++) {
  const p = new oware.Player("minimax:egdb=off");
  let secs = 0;
  nodes = 0;
  for (const pos of positions) {
    const g = new oware.Game("abapa", pos);
    const t0 = performance.now();
    nodes += p.analyse(g, { depth: 12 }).nodes;
    secs += (performance.now() - t0) / 1000;
    g.free();
  }
  p.free();
  nps.push(nodes / secs);
}
console.log(`node: minimax depth 12: nodes ${nodes} minimax nodes/s ${median(nps).toFixed(0)} (median of ${runs})`);
