// node_pre.js: put before the ES module by emcc (--extern-pre-js): emscripten 3.1.6's loader reads __dirname under node, which an ES module has not; the module embeds its .wasm (SINGLE_FILE), so the folder is not needed.
var __dirname = "";
