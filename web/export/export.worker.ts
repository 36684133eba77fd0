// The export worker: runs the engine faster than realtime through dsp/host's WavRenderer (the
// same code and bytes as `npm run render`) and streams the WAV file to disk in >= 1 MiB writes.
// One write is in flight while the next chunk renders; memory stays at two chunk buffers plus the
// engine, whatever the duration. Driven through Comlink by web/export/export-runner.ts. It also
// renders the Quality Test's 5 s clip in memory (renderClip), with the same renderer and bytes.
// With job.report, the export report's collector sees every rendered block and the report comes
// back with the finished file.
// A loudness-normalised export first runs the renderer's measuring passes (no file open yet),
// reporting progress and stopping on cancel between steps.

import "../zod-jitless"; // first: before any zod schema is built
import * as Comlink from "comlink";
import { Engine } from "../../dsp/host/engine";
import { DEFAULT_CHUNK_BYTES, WavRenderer } from "../../dsp/host/export/render";
import { ExportReportCollector } from "../../dsp/host/export/report";
import type { ClipJob, ExportJob, ExportProgress, ExportResult, ExportWorkerApi } from "./protocol";

const PROGRESS_INTERVAL_MS = 100;

/** The dedicated-worker-only OPFS API (not in TypeScript's DOM library). */
interface SyncAccessHandle {
  write(buffer: Uint8Array, options?: { at?: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}
type SyncCapable = FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncAccessHandle> };

interface Sink {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

async function writableSink(handle: FileSystemFileHandle): Promise<Sink> {
  // createWritable writes to a swap file and replaces the target only on close(): an aborted or
  // failed export never leaves a complete-looking file.
  const w = await handle.createWritable({ keepExistingData: false });
  return {
    write: (chunk) => w.write(chunk as Uint8Array<ArrayBuffer>),
    close: () => w.close(),
    abort: () => w.abort(),
  };
}

async function syncSink(handle: SyncCapable): Promise<Sink> {
  const h = await handle.createSyncAccessHandle!();
  h.truncate(0);
  let at = 0;
  return {
    write: async (chunk) => {
      const n = h.write(chunk, { at });
      if (n !== chunk.byteLength) throw new DOMException("Short write to the export file", "QuotaExceededError");
      at += n;
    },
    close: async () => {
      h.flush();
      h.close();
    },
    abort: async () => {
      h.truncate(0);
      h.close();
    },
  };
}

function openSink(job: ExportJob): Promise<Sink> {
  const handle = job.target as SyncCapable;
  const canSync = typeof handle.createSyncAccessHandle === "function";
  if (job.sink === "opfs-sync" && canSync) return syncSink(handle);
  if (job.sink === "opfs" && typeof handle.createWritable !== "function" && canSync) return syncSink(handle);
  return writableSink(job.target);
}

let cancelled = false;

const api: ExportWorkerApi = {
  async run(job: ExportJob, onProgress: (p: ExportProgress) => void): Promise<ExportResult> {
    cancelled = false;
    const engine = new Engine(job.module, 48000);
    const collector = job.report
      ? new ExportReportCollector({ sampleRate: engine.sampleRate, duration: job.duration, state: job.state, fadeIn: job.levels?.fadeIn ?? 0.005 })
      : undefined;
    const renderer = new WavRenderer(engine, job.state, job.duration, { levels: job.levels, normalize: job.normalize, observer: collector, soundtrack: job.soundtrack, recordings: job.recordings });
    const totalBytes = renderer.plan.totalBytes;
    // onProgress is a Comlink proxy: calling it posts a message and returns a promise, not awaited.
    const report = () =>
      void Promise.resolve(onProgress({ bytesDone: renderer.bytesDone, totalBytes, fraction: renderer.fraction }) as unknown).catch(() => {});
    let last = 0;
    for (const steps = renderer.normalise(); !steps.next().done; ) {
      // Let cancel() and the progress messages through between measuring steps.
      await new Promise((r) => setTimeout(r, 0));
      if (cancelled) return { status: "cancelled", bytes: 0 };
      const now = performance.now();
      if (now - last >= PROGRESS_INTERVAL_MS) {
        last = now;
        report();
      }
    }
    const sink = await openSink(job);
    let inflight: Promise<void> | null = null;
    try {
      // Two buffers: chunk n is written while chunk n+1 renders into the other one.
      for (const chunk of renderer.chunks(Math.max(DEFAULT_CHUNK_BYTES, job.chunkBytes ?? 0), 2)) {
        if (inflight) await inflight;
        if (cancelled) {
          await sink.abort();
          return { status: "cancelled", bytes: renderer.bytesDone };
        }
        inflight = sink.write(chunk);
        const now = performance.now();
        if (now - last >= PROGRESS_INTERVAL_MS) {
          last = now;
          report();
        }
      }
      if (inflight) await inflight;
      await sink.close();
    } catch (err) {
      await inflight?.catch(() => {});
      await sink.abort().catch(() => {});
      throw err;
    }
    report();
    return { status: "done", bytes: totalBytes, ...(collector ? { report: collector.finish() } : {}) };
  },
  cancel() {
    cancelled = true;
  },
  async renderClip(job: ClipJob): Promise<Uint8Array> {
    const renderer = new WavRenderer(new Engine(job.module, 48000), job.state, job.duration, { levels: job.levels, soundtrack: job.soundtrack, recordings: job.recordings });
    const file = new Uint8Array(renderer.plan.totalBytes);
    const n = renderer.read(file);
    if (n !== file.byteLength) throw new Error(`Clip render wrote ${n} of ${file.byteLength} bytes`);
    return Comlink.transfer(file, [file.buffer]);
  },
};

Comlink.expose(api);
