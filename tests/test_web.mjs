// test_web.mjs: tests of the JavaScript API over the WebAssembly module (web/oware_bind.mjs): node test_web.mjs OWARE.MJS NATIVE-PERFT-JSON.
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [modulePath, nativeJson] = process.argv.slice(2);
const { load } = await import(pathToFileURL(resolve(modulePath)).href);
const oware = await load();
let fails = 0;
function check(name, f) {
  try {
    f();
    console.log(`ok   ${name}`);
  } catch (e) {
    fails++;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}
function throwsWith(f, text) {
  assert.throws(f, (e) => e instanceof Error && e.message.includes(text), `an Error with "${text}"`);
}

const native = JSON.parse(nativeJson);
for (const v of Object.keys(native)) {
  check(`perft 1-7 of ${v} equal the native counts`, () => {
    assert.equal(native[v].length, 7);
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((d) => oware.perft(d, v)), native[v]);
  });
}

check("the levels with their Elo", () => {
  const names = oware.levels().map((l) => l.name);
  assert.deepEqual(names, ["easy", "medium", "hard", "expert"]);
  for (const l of oware.levels()) {
    assert.equal(typeof l.elo, "number");
    assert.ok(l.lo <= l.elo && l.elo <= l.hi, `${l.name}: ${l.lo} <= ${l.elo} <= ${l.hi}`);
    assert.match(l.spec, /^mcts:/);
  }
});

check("level:elo=N inside the levels' range", () => {
  const r = oware.levelEloRange(), levels = oware.levels();
  assert.ok(r.lo <= levels[0].elo + 1e-9 && r.hi >= levels[levels.length - 1].elo - 1e-9, JSON.stringify(r));
  const p = new oware.Player(`level:elo=${Math.round((r.lo + r.hi) / 2)}`), g = new oware.Game();
  assert.ok(g.legal().includes(p.move(g)));
  throwsWith(() => new oware.Player(`level:elo=${Math.round(r.hi) + 500}`), "outside the levels' range");
});

check("each level returns a legal move, under abapa and grandslam-all", () => {
  for (const v of ["abapa", "grandslam-all"])
    for (const l of oware.levels()) {
      const g = new oware.Game(v), p = new oware.Player(`level:${l.name}`);
      for (let i = 0; i < 12 && !g.over(); i++) {
        const m = p.move(g);
        assert.ok(g.legal().includes(m), `${l.name} played ${m}, legal ${g.legal()}`);
        g.play(m);
      }
      p.free();
      g.free();
    }
});

check("a take-back restores the position, the moves and the legal moves", () => {
  const g = new oware.Game("grandslam-all"), p = new oware.Player("greedy"), seen = [];
  while (!g.over()) {
    seen.push([g.position(), g.legal().join(""), g.moves().join(""), g.side()]);
    g.play(p.move(g));
  }
  const end = g.result();
  assert.notEqual(end.winner, null);
  for (let i = seen.length - 1; i >= 0; i--) {
    g.undo();
    assert.deepEqual([g.position(), g.legal().join(""), g.moves().join(""), g.side()], seen[i]);
    assert.equal(g.over(), false);
  }
  throwsWith(() => g.undo(), "nothing to take back");
});

check("a copy has the game's history and plays on apart", () => {
  const g = new oware.Game("abapa");
  ["F", "a", "E"].forEach((m) => g.play(m));
  const c = g.copy();
  assert.equal(c.position(), g.position());
  assert.deepEqual(c.moves(), g.moves());
  c.play(c.legal()[0]);
  assert.equal(g.moves().length, 3);
  c.undo().undo();
  assert.deepEqual(c.moves(), ["F", "a"]);
});

check("a game from a position string under a variant", () => {
  const pos = "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S";
  const g = new oware.Game("grandslam-all", pos);
  assert.equal(g.position(), pos);
  assert.equal(g.variant(), "grandslam-all");
  assert.deepEqual(g.legal(), ["F"]);
  g.play("F");
  assert.equal(g.over(), true);
  assert.match(g.ogn(), /\[FEN "0-0-0-0-0-1-1-0-0-0-0-0-23-23-S"\]/);
});

check("an analysis: move, score, depth, principal variation; limits per call", () => {
  const g = new oware.Game(), p = new oware.Player("minimax:egdb=off");
  const a = p.analyse(g, { depth: 6 });
  assert.equal(a.depth, 6);
  assert.equal(a.pv[0], a.move);
  assert.ok(a.pv.length >= 2 && a.nodes > 0 && Number.isInteger(a.score), JSON.stringify(a));
  assert.ok(g.legal().includes(p.move(g, { nodes: 500 })));
  const t = p.analyse(g, { movetime: 50 });
  assert.ok(t.seconds < 2, `movetime 50 ms took ${t.seconds} s`);
});

check("a finished game: result, OGN", () => {
  const g = new oware.Game("abapa"), p = new oware.Player("random:seed=3");
  while (!g.over()) g.play(p.move(g));
  const r = g.result();
  assert.ok(["south", "north", "draw"].includes(r.winner));
  assert.ok(["majority", "no-move", "repetition", "ply-limit"].includes(r.reason), r.reason);
  assert.match(g.ogn({ south: "me" }), new RegExp(`\\[Result "${r.score[0]}-${r.score[1]}"\\]`));
  throwsWith(() => g.play(g.legal()[0] || "A"), "the game is over");
  throwsWith(() => p.move(g), "the game is over");
});

check("errors are exceptions with the library's message", () => {
  throwsWith(() => new oware.Game("nope"), "unknown variant 'nope'");
  throwsWith(() => new oware.Game("abapa", "4-4-4"), "position");
  throwsWith(() => new oware.Game().play("Z"), "'Z' is not a house");
  throwsWith(() => new oware.Game().play("a"), "a is not legal; legal moves: A B C D E F");
  throwsWith(() => new oware.Game().undo(), "nothing to take back");
  throwsWith(() => new oware.Player("nope"), "unknown player type 'nope'");
  throwsWith(() => new oware.Player("level:nope"), "unknown level 'nope'");
  throwsWith(() => new oware.Player("engine:cmd=x"), "unknown player type 'engine'");
  throwsWith(() => new oware.Player("minimax").move(new oware.Game(), { depth: -1 }), "depth must be 0");
  throwsWith(() => oware.perft(3, "abapa,seeds=0"), "seeds");
  throwsWith(() => new oware.Player("minimax:threads=2").move(new oware.Game()), "cannot start a thread");
  const g = new oware.Game();
  g.free();
  throwsWith(() => g.position(), "freed");
});

console.log(fails ? `${fails} failed` : "all passed");
process.exit(fails ? 1 : 0);
