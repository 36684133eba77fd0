// Bench page script: runs the studio's export worker (web/export/export.worker.ts as `npm run
// build` built it: the very bundle the app ships, at the URL the page gives in
// window.__exportWorker) through Comlink into an OPFS file and reports the wall time.
// Bundled by bench/export.ts with esbuild and served from memory.

import * as Comlink from "comlink";
import { EXPORT_FORMATS, type ExportSettings } from "../../dsp/host/export/formats";
import type { AudioState } from "../../dsp/host/schema/state";
import type { ExportJob, ExportWorkerApi } from "../../web/export/protocol";

/** "picker": createWritable (the save picker's way, and WebKit's OPFS way); "opfs-sync": the
 *  sync access handle. Both on an OPFS file the worker opens by name. `settings`: the format
 *  (default WAV 16-bit); FLAC, MP3 and Opus go through the encoder worker as in the studio. */
async function runExportBench(state: AudioState, seconds: number, sink: "picker" | "opfs-sync", settings: ExportSettings = { format: "wav16" }) {
  const module = await WebAssembly.compileStreaming(fetch("/engine.wasm"));
  const root = await navigator.storage.getDirectory();
  const name = `bench-${sink}${EXPORT_FORMATS[settings.format].extension}`;
  const file = await root.getFileHandle(name, { create: true });
  const target: ExportJob["target"] = { kind: "opfs", dir: "", name, prefer: sink === "picker" ? "writable" : "sync" };
  const worker = new Worker((window as unknown as { __exportWorker: string }).__exportWorker, { type: "module" });
  const api = Comlink.wrap<ExportWorkerApi>(worker);
  try {
    const t0 = performance.now();
    const result = await api.run({ module, state, duration: seconds, settings, target }, Comlink.proxy(() => {}));
    const ms = performance.now() - t0;
    return { ms, status: result.status, sink: result.sink, size: (await file.getFile()).size, failure: result.failure?.message };
  } finally {
    worker.terminate();
    await root.removeEntry(name).catch(() => {});
  }
}

(window as unknown as { runExportBench: typeof runExportBench }).runExportBench = runExportBench;
