// oware.mjs: the oware package's entry: `const oware = await load()` gives the API of web/oware_bind.mjs over the WebAssembly core (docs/LIBRARY.md).
import owareCore from "./oware_core.mjs";
import { owareBind } from "./oware_bind.mjs";

// Instantiates the module (the .wasm is inside oware_core.mjs: nothing is
// fetched) and returns {version, Game, Player, levels, perft}.
export async function load() {
  return owareBind(await owareCore());
}

export default load;
