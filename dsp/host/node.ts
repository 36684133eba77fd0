// Loads the compiled engine from dsp/build in Node (tests, benchmarks, CLI, server-side video).

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Engine } from "./engine";

let cached: WebAssembly.Module | null = null;

export function engineModule(): WebAssembly.Module {
  if (cached) return cached;
  const file = fileURLToPath(new URL("../build/engine.wasm", import.meta.url));
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new Error(`Engine not built: ${file} is missing. Run \`npm run build:dsp\`.`);
  }
  cached = new WebAssembly.Module(new Uint8Array(bytes));
  return cached;
}

export function createNodeEngine(sampleRate = 48000): Engine {
  return new Engine(engineModule(), sampleRate);
}
