// Bench worker: holds one dsp/host Engine on one patch and times renders of it on request, so a
// row's repeats (interleaved with OfflineAudioContext runs in the page) share one warmed engine.
// Bundled by bench/chromium.ts with esbuild and served to the page from memory.

import { Engine } from "../../dsp/host/engine";
import type { AudioState } from "../../dsp/host/schema/state";

type Job = { type: "init"; wasm: ArrayBuffer; state: AudioState; block: number } | { type: "render"; seconds: number };

let engine: Engine | null = null;
let block = 16384;

self.onmessage = async (e: MessageEvent<Job>) => {
  const job = e.data;
  if (job.type === "init") {
    engine = new Engine(await WebAssembly.compile(job.wasm), 48000);
    block = job.block;
    engine.apply(job.state);
    // Warm-up: a freshly compiled module starts in V8's baseline tier; rendering a while first lets
    // the optimising tier take over (as it has in any real multi-minute export).
    engine.start();
    for (let i = 0; i < 200; i++) engine.render(block);
    (self as unknown as Worker).postMessage({ ready: true });
    return;
  }
  if (!engine) throw new Error("render before init");
  engine.start();
  const frames = Math.round(job.seconds * 48000);
  const t0 = performance.now();
  let checksum = 0;
  for (let done = 0; done < frames; done += block) {
    const out = engine.render(Math.min(block, frames - done));
    checksum += out.left[0];
  }
  const ms = performance.now() - t0;
  (self as unknown as Worker).postMessage({ ms, checksum });
};
