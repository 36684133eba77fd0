// Starts the VBR MP3 encoder's worker (mp3-vbr.worker.ts) and wraps it as a VbrLame. Loaded only
// where Web Workers exist (createVbrLame); bundled by Vite as a module worker of its own, with
// the encoder's .wasm as a file of the build. A worker that fails to load or dies (an "error"
// event, which Comlink does not see) fails the call waiting on it instead of leaving the export
// waiting forever.

import * as Comlink from "comlink";
import wasmUrl from "wasm-media-encoders/wasm/mp3?url";
import type { VbrLame } from "./mp3-vbr-lame";
import type { VbrWorkerApi } from "./mp3-vbr.worker";

export async function workerVbrLame(quality: number): Promise<VbrLame> {
  const worker = new Worker(new URL("./mp3-vbr.worker.ts", import.meta.url), { type: "module", name: "mp3-vbr" });
  const died = new Promise<never>((_, reject) => {
    worker.addEventListener("error", (e) => reject(new Error(`The MP3 encoder's worker failed${e.message ? `: ${e.message}` : ""}`)), { once: true });
  });
  died.catch(() => {}); // observed by the calls that race it
  const api = Comlink.wrap<VbrWorkerApi>(worker);
  const call = <T>(p: Promise<T>) => Promise.race([p, died]);
  try {
    await call(api.init(quality, new URL(wasmUrl, import.meta.url).href));
  } catch (err) {
    worker.terminate();
    throw err;
  }
  return {
    // The renderer reuses its buffer: the worker gets a copy it owns.
    encode: (pcm) => {
      const copy = pcm.slice();
      return call(api.encode(Comlink.transfer(copy, [copy.buffer])));
    },
    finalize: () => call(api.finalize()),
    close: () => worker.terminate(),
  };
}
