// play.js: the play page: its controls and board, talking to the engine worker (web/worker.js) made from the text engine.js defines; no rule of the game is here, the worker's core says what is legal and what a move does.
/* global OWARE_WORKER_SOURCE */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const HINT = "minimax:egdb=off", HINT_MS = 500;
  let worker, nextId = 1, levels = [], st = null, busy = false, human = "south", last = -1, hintMove = null;
  const pending = {};
  const times = []; // each level move's milliseconds, asked to answered, for the test hook

  // One request to the worker; resolves with its answer, rejects with its error.
  function ask(cmd, args) {
    return new Promise((resolve, reject) => {
      const id = nextId++;
      pending[id] = { resolve, reject };
      worker.postMessage(Object.assign({ id, cmd }, args));
    });
  }
  function answer(e) {
    const p = pending[e.data.id];
    delete pending[e.data.id];
    if (e.data.error !== undefined) p.reject(new Error(e.data.error));
    else p.resolve(e.data.ok);
  }

  // A position string as houses, stores and side (display only).
  function parse(pos) {
    const f = pos.split("-"), side = f.pop();
    const n = f.map(Number);
    return { pit: n.slice(0, n.length - 2), store: n.slice(n.length - 2), side };
  }
  const letter = (i, h) => (i < h ? String.fromCharCode(65 + i) : String.fromCharCode(97 + i - h));

  function cell(cls, text, label) {
    const d = document.createElement(cls === "house" ? "button" : "div");
    d.className = cls;
    const v = document.createElement("span");
    v.textContent = text;
    const s = document.createElement("small");
    s.textContent = label;
    d.append(v, s);
    return d;
  }

  function drawBoard() {
    const b = parse(st.position), H = b.pit.length / 2, bd = $("board");
    bd.style.setProperty("--h", H);
    bd.replaceChildren();
    bd.dataset.pos = st.position;
    const mine = !busy && !st.over && st.side === human;
    const house = (i, row, col) => {
      const c = cell("house", b.pit[i], letter(i, H)), m = letter(i, H);
      c.style.gridRow = row;
      c.style.gridColumn = col;
      c.dataset.move = m;
      c.disabled = !(mine && st.legal.includes(m));
      if (i === last) c.classList.add("last");
      if (m === hintMove) c.classList.add("hint");
      c.onclick = () => humanMove(m);
      return c;
    };
    const ns = cell("store", b.store[1], "North");
    ns.style.gridColumn = "1";
    bd.append(ns);
    for (let k = H - 1; k >= 0; k--) bd.append(house(H + k, "1", String(H - k + 1)));
    const ss = cell("store", b.store[0], "South");
    ss.style.gridColumn = String(H + 2);
    bd.append(ss);
    for (let k = 0; k < H; k++) bd.append(house(k, "2", String(k + 2)));
  }

  function levelName() {
    const l = levels[$("level").selectedIndex];
    return l ? l.name : "";
  }

  function showStatus(text) {
    $("status").textContent = text;
  }

  function draw() {
    drawBoard();
    const r = st.result, who = (s) => (s === human ? "you" : `level ${levelName()}`);
    $("undo").disabled = busy || st.moves.length === 0;
    $("hint").disabled = busy || st.over || st.side !== human;
    $("result").textContent = "";
    $("result").dataset.status = st.over ? `over ${r.reason} ${r.score[0]}-${r.score[1]} ${r.winner}` : "playing";
    const score = `South ${r.score[0]}, North ${r.score[1]}`;
    if (st.over) {
      const end = r.winner === "draw" ? "a draw" : r.winner === human ? "you win" : `level ${levelName()} wins`;
      $("result").textContent = `Game over (${r.reason}): ${score}: ${end}.`;
      showStatus(`${st.moves.length} moves.`);
    } else if (!busy) {
      showStatus(`Move ${st.moves.length + 1}: ${who(st.side)} to play (${st.side}). ${score}.` +
        (st.side === human ? " Click a lit house." : ""));
    }
  }

  function failed(e) {
    busy = false;
    showStatus(`Error: ${e.message}`);
    if (st) drawBoard();
  }

  // The level plays while it is its turn; the board waits.
  async function levelMoves() {
    while (!st.over && st.side !== human) {
      busy = true;
      showStatus(`Level ${levelName()} is thinking…`);
      drawBoard();
      const t0 = performance.now();
      const r = await ask("engine", { spec: `level:${levelName()}` });
      times.push(performance.now() - t0);
      st = r.state;
      last = moveIndex(r.move);
      busy = false;
    }
    draw();
  }
  const moveIndex = (m) => {
    const H = parse(st.position).pit.length / 2, c = m.charCodeAt(0);
    return c >= 97 ? H + c - 97 : c - 65;
  };

  async function humanMove(m) {
    if (busy || st.over || st.side !== human) return;
    hintMove = null;
    busy = true;
    try {
      st = await ask("play", { move: m });
      last = moveIndex(m);
      busy = false;
      await levelMoves();
    } catch (e) {
      failed(e);
    }
  }

  async function newGame() {
    human = $("side").value;
    hintMove = null;
    last = -1;
    busy = true;
    try {
      st = await ask("new", { variant: $("variant").value });
      busy = false;
      $("ogn").textContent = "";
      await levelMoves();
    } catch (e) {
      failed(e);
    }
  }

  // Takes back to the last time it was your move before now.
  async function takeBack() {
    if (busy || !st.moves.length) return;
    busy = true;
    hintMove = null;
    try {
      st = await ask("undo", { plies: 1 });
      while (st.moves.length && st.side !== human) st = await ask("undo", { plies: 1 });
      last = st.moves.length ? moveIndex(st.moves[st.moves.length - 1]) : -1;
      busy = false;
      await levelMoves();
    } catch (e) {
      failed(e);
    }
  }

  async function hint() {
    if (busy || st.over || st.side !== human) return;
    busy = true;
    showStatus("Looking for a hint…");
    try {
      const h = await ask("hint", { spec: HINT, movetime: HINT_MS });
      busy = false;
      hintMove = h.move;
      draw();
      showStatus(`Hint: ${h.move} (score ${h.score} centiseeds, depth ${h.depth}; line ${h.pv.join(" ")}).`);
    } catch (e) {
      failed(e);
    }
  }

  async function ognText() {
    const you = "You", lvl = `level:${levelName()}`;
    const r = await ask("ogn", {
      tags: { south: human === "south" ? you : lvl, north: human === "north" ? you : lvl,
        event: "Oware in the browser", date: new Date().toISOString().slice(0, 10).replace(/-/g, ".") },
    });
    $("ogn").textContent = r.text;
    return r.text;
  }

  async function save() {
    try {
      const text = await ognText(), a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      a.download = "oware.ogn";
      document.body.append(a);
      a.click();
      a.remove();
    } catch (e) {
      failed(e);
    }
  }

  async function start() {
    if (typeof OWARE_WORKER_SOURCE === "undefined")
      throw new Error("engine.js is missing: this is web/ of the sources; scripts/web build makes the page, build/web/index.html");
    worker = new Worker(URL.createObjectURL(new Blob([OWARE_WORKER_SOURCE], { type: "text/javascript" })));
    worker.onmessage = answer;
    worker.onerror = (e) => failed(new Error(e.message || "the engine failed to start"));
    const info = await ask("init", {});
    levels = info.levels;
    for (const v of info.variants) $("variant").append(new Option(v, v));
    for (const l of levels) {
      const elo = l.elo === null ? "not calibrated" : `Elo ${Math.round(l.elo)}`;
      $("level").append(new Option(`${l.name} (${elo})`, l.name));
    }
    const hard = levels.findIndex((l) => l.name === "hard");
    if (hard >= 0) $("level").selectedIndex = hard;
    $("new").onclick = newGame;
    $("undo").onclick = takeBack;
    $("hint").onclick = hint;
    $("save").onclick = save;
    ["variant", "level", "side"].forEach((id) => ($(id).onchange = newGame));
    await newGame();
  }

  // For tests (web/drive_page.mjs): autoplay() clicks the first lit house
  // whenever it is your move until the game ends; then done is true.
  window.owareTest = {
    done: false, times,
    state: () => st,
    busy: () => busy,
    autoplay() {
      const tick = () => {
        if (st && st.over && !busy) {
          this.done = true;
          return;
        }
        const lit = document.querySelector("#board button.house:enabled");
        if (lit && !busy) lit.click();
        setTimeout(tick, 20);
      };
      tick();
    },
    ogn: ognText,
    setup(variant, level, side) {
      $("variant").value = variant;
      $("level").value = level;
      $("side").value = side;
      return newGame();
    },
  };
  window.owareReady = start().catch(failed);
})();
