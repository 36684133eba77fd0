// Bench page script: runs the studio's export worker (web/export/export.worker.ts, the same
// bundle logic the app ships) through Comlink into an OPFS file and reports the wall time.
// Bundled by bench/export.ts with esbuild and served from memory.

import * as Comlink from "comlink";
import type { AudioState } from "../../dsp/host/schema/state";
import type { ExportJob, ExportWorkerApi } from "../../web/export/protocol";

/** "picker": createWritable (the save picker's way, and WebKit's OPFS way); "opfs-sync": the
 *  sync access handle. Both on an OPFS file the worker opens by name. */
async function runExportBench(state: AudioState, seconds: number, sink: "picker" | "opfs-sync") {
  const module = await WebAssembly.compileStreaming(fetch("/engine.wasm"));
  const root = await navigator.storage.getDirectory();
  const name = `bench-${sink}.wav`;
  const file = await root.getFileHandle(name, { create: true });
  const target: ExportJob["target"] = { kind: "opfs", dir: "", name, prefer: sink === "picker" ? "writable" : "sync" };
  const worker = new Worker("/export-worker.js", { type: "module" });
  const api = Comlink.wrap<ExportWorkerApi>(worker);
  try {
    const t0 = performance.now();
    const result = await api.run({ module, state, duration: seconds, target }, Comlink.proxy(() => {}));
    const ms = performance.now() - t0;
    return { ms, status: result.status, sink: result.sink, size: (await file.getFile()).size };
  } finally {
    worker.terminate();
    await root.removeEntry(name).catch(() => {});
  }
}

(window as unknown as { runExportBench: typeof runExportBench }).runExportBench = runExportBench;
