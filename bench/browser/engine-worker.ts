// Bench worker: renders a patch through dsp/host's Engine in a Web Worker and reports the time.
// Bundled by bench/chromium.ts with esbuild and served to the page from memory.

import { Engine } from "../../dsp/host/engine";
import type { AudioState } from "../../dsp/host/state";

interface Job {
  wasm: ArrayBuffer;
  state: AudioState;
  seconds: number;
  block: number;
}

self.onmessage = async (e: MessageEvent<Job>) => {
  const { wasm, state, seconds, block } = e.data;
  const module = await WebAssembly.compile(wasm);
  const engine = new Engine(module, 48000);
  engine.apply(state);
  // Warm-up: a freshly compiled module starts in V8's baseline tier; rendering a while first lets
  // the optimising tier take over (as it has in any real multi-minute export), then restart.
  engine.start();
  for (let i = 0; i < 200; i++) engine.render(block);
  engine.start();
  const frames = Math.round(seconds * 48000);
  const t0 = performance.now();
  let checksum = 0;
  for (let done = 0; done < frames; done += block) {
    const out = engine.render(Math.min(block, frames - done));
    checksum += out.left[0];
  }
  const ms = performance.now() - t0;
  (self as unknown as Worker).postMessage({ ms, checksum });
};
