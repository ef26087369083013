// worker.js: the page's engine in a Web Worker: holds the game and the players in the WebAssembly core and answers the page's messages, so that the page never freezes while a level thinks.
// scripts/web puts owareCore (the classic module) and owareBind before this
// file and hands the page the whole text (engine.js), which makes a Blob
// worker of it: a page opened as file:// can load no worker file.
/* global owareCore, owareBind */
let api = null, game = null;
const players = {};

function state() {
  const r = game.result();
  return {
    variant: game.variant(), position: game.position(), legal: game.legal(), side: game.side(),
    over: game.over(), result: r, moves: game.moves(),
  };
}

function player(spec) {
  if (!players[spec]) players[spec] = new api.Player(spec);
  return players[spec];
}

const commands = {
  init: () => ({ version: api.version, levels: api.levels(), variants: api.variants() }),
  new: (m) => {
    const g = new api.Game(m.variant || "abapa", m.position || null);
    if (game) game.free();
    game = g;
    return state();
  },
  play: (m) => (game.play(m.move), state()),
  undo: (m) => {
    for (let i = 0; i < m.plies; i++) game.undo();
    return state();
  },
  // The level (or any spec) moves: its move is played.
  engine: (m) => {
    const move = player(m.spec).move(game);
    game.play(move);
    return { move, state: state() };
  },
  // A hint for the side to move: what the hint player would play, unplayed.
  hint: (m) => {
    const a = player(m.spec).analyse(game, { movetime: m.movetime || 0 });
    return { move: a.move, score: a.score, depth: a.depth, pv: a.pv };
  },
  ogn: (m) => ({ text: game.ogn(m.tags || {}) }),
};

const ready = owareCore().then((M) => {
  api = owareBind(M);
});

self.onmessage = (e) => {
  const m = e.data;
  ready
    .then(() => {
      if (!commands[m.cmd]) throw new Error(`unknown command ${m.cmd}`);
      self.postMessage({ id: m.id, ok: commands[m.cmd](m) });
    })
    .catch((x) => self.postMessage({ id: m.id, error: String((x && x.message) || x) }));
};
