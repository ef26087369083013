// oware_bind.mjs: the JavaScript API over the WebAssembly module's exported C functions (include/oware.h, web/web_api.h): games, players, levels as JS objects, errors as exceptions with the library's message.
// No rule of the game is here: every answer comes from the C core. The page's
// worker includes this file as a classic script (scripts/web drops `export`).

export function owareBind(M) {
  const ERRLEN = 1024, BUFLEN = 65536;
  const err = M._malloc(ERRLEN), buf = M._malloc(BUFLEN), cell = M._malloc(64);

  // A C string of s on the heap (0 for null/undefined); free it with M._free.
  function cstr(s) {
    if (s === null || s === undefined) return 0;
    s = String(s);
    const n = M.lengthBytesUTF8(s) + 1, p = M._malloc(n);
    M.stringToUTF8(s, p, n);
    return p;
  }
  // Calls f with the C strings of texts, freeing them after.
  function withStrings(texts, f) {
    const ptrs = texts.map(cstr);
    try {
      return f(...ptrs);
    } finally {
      ptrs.forEach((p) => p && M._free(p));
    }
  }
  function fail() {
    throw new Error(M.UTF8ToString(err) || "oware: failed");
  }
  function check(rc) {
    if (rc < 0) fail();
    return rc;
  }
  function text(f) {
    f(buf, BUFLEN);
    return M.UTF8ToString(buf);
  }
  function letter(code) {
    return String.fromCharCode(code & 255);
  }
  function oneLetter(m) {
    if (typeof m !== "string" || m.length !== 1) throw new Error(`a move is one letter, not ${JSON.stringify(m)}`);
    return m.charCodeAt(0);
  }
  const numberOrNull = (x) => (Number.isNaN(x) ? null : x);

  const games = new FinalizationRegistry((h) => M._oware_game_free(h));
  const players = new FinalizationRegistry((h) => M._oware_player_free(h));

  class Game {
    // new Game(variant = "abapa", position = the start): throws on a bad
    // variant or position. Game.fromHandle is internal (copies).
    constructor(variant, position, handle) {
      this.h = handle || withStrings([variant, position], (v, p) => M._oware_game_new(v, p, err, ERRLEN));
      if (!this.h) fail();
      this.startPosition = position === undefined ? null : position; // for ogn()
      games.register(this, this.h, this);
    }
    live() {
      if (!this.h) throw new Error("this game was freed");
      return this.h;
    }
    play(m) {
      check(M._oware_game_play(this.live(), oneLetter(m), err, ERRLEN));
      return this;
    }
    legal() {
      return text((b, n) => M._oware_game_legal(this.live(), b, n)).split("");
    }
    side() {
      return M._oware_game_side(this.live()) ? "north" : "south";
    }
    over() {
      return M._oware_game_over(this.live()) !== 0;
    }
    // {winner: "south" | "north" | "draw" | null while playing, score: [S, N],
    // reason: "majority" | "no-move" | "repetition" | "ply-limit" | "playing"}
    result() {
      const score = cell, reason = cell + 16;
      const w = M._oware_game_result(this.live(), score, reason);
      return {
        winner: { 0: "south", 1: "north", "-1": "draw" }[w] || null,
        score: [M.getValue(score, "double"), M.getValue(score + 8, "double")],
        reason: M.UTF8ToString(M.getValue(reason, "i32")),
      };
    }
    position() {
      return text((b, n) => M._oware_game_position(this.live(), b, n));
    }
    moves() {
      return text((b, n) => M._oware_game_moves(this.live(), b, n)).split("");
    }
    variant() {
      return text((b, n) => M._oware_game_variant(this.live(), b, n));
    }
    undo() {
      check(M._oware_game_undo(this.live(), err, ERRLEN));
      return this;
    }
    copy() {
      const h = M._oware_game_copy(this.live(), err, ERRLEN);
      if (!h) fail();
      const c = new Game(null, null, h);
      c.startPosition = this.startPosition;
      return c;
    }
    // The game as OGN text; tags: {south, north, event, date}.
    ogn(tags = {}) {
      return withStrings(
        [this.variant(), this.startPosition, this.moves().join(""), tags.south, tags.north, tags.event, tags.date],
        (v, p, m, s, n, e, d) => {
          const len = 1 << 20, out = M._malloc(len);
          try {
            check(M._web_api_ogn(v, p, m, s, n, e, d, out, len, err, ERRLEN));
            return M.UTF8ToString(out);
          } finally {
            M._free(out);
          }
        }
      );
    }
    free() {
      if (!this.h) return;
      games.unregister(this);
      M._oware_game_free(this.h);
      this.h = 0;
    }
  }

  // oware_analysis as laid out by wasm32 (include/oware.h): char move; int
  // score, end_in, depth, seldepth; long long nodes; double seconds; char pv[].
  const A = { move: 0, score: 4, endIn: 8, depth: 12, seldepth: 16, nodes: 24, seconds: 32, pv: 40, size: 40 + 72 };
  const analysis = M._malloc(A.size);

  function limits(l = {}) {
    const n = (x) => (x === undefined ? 0 : x);
    return [n(l.movetime), BigInt(n(l.nodes)), n(l.depth)];
  }

  class Player {
    // new Player("minimax:depth=6" | "level:hard" | ...): throws on a bad spec.
    constructor(spec) {
      this.h = withStrings([spec], (s) => M._oware_player_new(s, err, ERRLEN));
      if (!this.h) fail();
      this.name = M.UTF8ToString(M._oware_player_name(this.h));
      players.register(this, this.h, this);
    }
    live() {
      if (!this.h) throw new Error("this player was freed");
      return this.h;
    }
    // The player's move in game (a letter); limits {movetime (ms), nodes,
    // depth} for this move only (none: the spec's own).
    move(game, lim) {
      return this.analyse(game, lim).move;
    }
    // {move, score, endIn, depth, seldepth, nodes, seconds, pv: [letters]}
    analyse(game, lim) {
      if (!(game instanceof Game)) throw new Error("analyse: not a Game");
      check(M._oware_player_analyse(this.live(), game.live(), ...limits(lim), analysis, err, ERRLEN));
      const v = (k, t) => M.getValue(analysis + A[k], t);
      return {
        move: letter(v("move", "i8")),
        score: v("score", "i32"),
        endIn: v("endIn", "i32"),
        depth: v("depth", "i32"),
        seldepth: v("seldepth", "i32"),
        nodes: v("nodes", "i64"),
        seconds: v("seconds", "double"),
        pv: M.UTF8ToString(analysis + A.pv).split(""),
      };
    }
    free() {
      if (!this.h) return;
      players.unregister(this);
      M._oware_player_free(this.h);
      this.h = 0;
    }
  }

  // oware_level under wasm32: two pointers, then elo, lo, hi, target.
  function levelAt(l, i) {
    const out = M._malloc(48);
    try {
      check(M._oware_levels_get(l, i, out, err, ERRLEN));
      const d = (k) => numberOrNull(M.getValue(out + 8 + 8 * k, "double"));
      return {
        name: M.UTF8ToString(M.getValue(out, "i32")),
        spec: M.UTF8ToString(M.getValue(out + 4, "i32")),
        elo: d(0), lo: d(1), hi: d(2), target: d(3),
      };
    } finally {
      M._free(out);
    }
  }

  // The shipped levels (data/levels.txt, embedded), easiest first:
  // [{name, spec, elo, lo, hi, target}]; "level:" + name plays one.
  function levels() {
    const l = M._oware_levels_open(0, err, ERRLEN);
    if (!l) fail();
    try {
      const all = [];
      for (let i = 0; i < M._oware_levels_count(l); i++) all.push(levelAt(l, i));
      return all;
    } finally {
      M._oware_levels_free(l);
    }
  }

  // The Elo range where "level:elo=N" makes a player: {lo, hi}.
  function levelEloRange() {
    const l = M._oware_levels_open(0, err, ERRLEN);
    if (!l) fail();
    try {
      check(M._oware_levels_elo_range(l, cell, cell + 8, err, ERRLEN));
      return { lo: M.getValue(cell, "double"), hi: M.getValue(cell + 8, "double") };
    } finally {
      M._oware_levels_free(l);
    }
  }

  // Leaf count of the legal-move tree (core/perft.h).
  function perft(depth, variant, position) {
    return withStrings([variant, position], (v, p) => {
      check(M._web_api_perft(v, p, depth, cell, err, ERRLEN));
      return M.getValue(cell, "double");
    });
  }

  // The named variants ("abapa", "grandslam-all", ...); switches such as
  // ",seeds=5" may follow a name in a variant string (docs/VARIANTS.md).
  function variants() {
    const all = [];
    for (let i = 0, p; (p = M._web_api_variant_name(i)); i++) all.push(M.UTF8ToString(p));
    return all;
  }

  return {
    version: M.UTF8ToString(M._oware_version()),
    Game,
    Player,
    levels,
    levelEloRange,
    variants,
    perft,
  };
}
