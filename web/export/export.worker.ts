// The export worker: runs the engine faster than realtime through dsp/host's WavRenderer (the
// same code and bytes as `npm run render`) and streams the WAV file to its target
// (web/export/sink.ts: an OPFS file it opens itself, a save-picker handle, or memory where there
// is no disk) in >= 1 MiB writes (4 MiB into the OPFS sync access handle). One write is in
// flight while the next chunk renders; with a disk sink memory stays at two chunk buffers plus
// the engine, whatever the duration. Failures come
// back as data (name, message, stage), not as a rejection. Driven through Comlink by
// web/export/export-runner.ts. It also
// renders the Quality Test's 5 s clip in memory (renderClip), with the same renderer and bytes.
// With job.report, the export report's collector sees every rendered block and the report comes
// back with the finished file; an encoded file is then decoded back by the browser's own decoder
// and compared with the render (dsp/host/export/decoded-check.ts).
// FLAC, MP3 and Opus: the renderer gives its raw samples (no header) to mediabunny's encoder
// (dsp/host/export/encoders.ts), whose libFLAC or LAME runs in a worker of its own (so a 2-core
// phone renders on one core and encodes on the other) and whose muxer writes the file to the same
// sink in bounded chunks, seeking back only to finish its header. The PCM never visits the page.
// A loudness-normalised export first runs the renderer's measuring passes (no file open yet),
// reporting progress and stopping on cancel between steps.

import "../zod-jitless"; // first: before any zod schema is built
import * as Comlink from "comlink";
import { Engine } from "../../dsp/host/engine";
import { DEFAULT_CHUNK_BYTES, WavRenderer } from "../../dsp/host/export/render";
import { describeSettings, EXPORT_FORMATS, type ExportFormat } from "../../dsp/host/export/formats";
import { checkDecoded, notDecoded, withDecodedCheck, type DecodedAudio, type DecodedCheck } from "../../dsp/host/export/decoded-check";
import type { PcmEncoder } from "../../dsp/host/export/encoders";
import { ExportReportCollector, type ExportReport } from "../../dsp/host/export/report";
import type { ClipJob, ExportFailureInfo, ExportJob, ExportProgress, ExportResult, ExportWorkerApi } from "./protocol";
import { errorParts, openSink, SinkError, SYNC_CHUNK_BYTES, type ExportSink, type SinkResult } from "./sink";

const PROGRESS_INTERVAL_MS = 100;

/** The sink for `job`: its target, or memory when an OPFS file cannot be opened here after all
 *  (the page found OPFS, the worker's attempt failed: a storage backend that refuses workers) and
 *  the file fits the fallback's limit. */
async function sinkFor(job: ExportJob, mimeType: string): Promise<ExportSink> {
  try {
    return await openSink(job.target.kind === "memory" ? { ...job.target, mimeType } : job.target);
  } catch (err) {
    const limit = job.fallbackLimitBytes ?? 0;
    if (job.target.kind !== "opfs" || limit <= 0 || err instanceof SinkError === false || err.stage !== "open") throw err;
    return openSink({ kind: "memory", limitBytes: limit, mimeType });
  }
}

function failed(err: unknown, stage: ExportFailureInfo["stage"], bytes: number): ExportResult {
  const { name, message } = errorParts(err);
  return { status: "failed", bytes, failure: { stage: err instanceof SinkError ? err.stage : stage, name, message } };
}

let cancelled = false;

async function run(job: ExportJob, onProgress: (p: ExportProgress) => void): Promise<ExportResult> {
  cancelled = false;
  const engine = new Engine(job.module, 48000);
  const collector = job.report
    ? new ExportReportCollector({ sampleRate: engine.sampleRate, duration: job.duration, state: job.state, fadeIn: job.levels?.fadeIn ?? 0.005 })
    : undefined;
  const settings = job.settings ?? { format: "wav16" };
  const format = EXPORT_FORMATS[settings.format];
  const wav = format.extension === ".wav";
  const renderer = new WavRenderer(engine, job.state, job.duration, {
    levels: job.levels, normalize: job.normalize, observer: collector, soundtrack: job.soundtrack, recordings: job.recordings,
    pcm: format.pcm, container: wav ? "wav" : "raw", dither: settings.dither,
  });
  // An encoded file's size is known at its end; until then progress counts the render.
  let written = 0;
  const totalBytes = wav ? renderer.plan.totalBytes : 0;
  // onProgress is a Comlink proxy: calling it posts a message and returns a promise, not awaited.
  const report = () =>
    void Promise.resolve(onProgress({ bytesDone: wav ? renderer.bytesDone : written, totalBytes, fraction: renderer.fraction }) as unknown).catch(() => {});
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
  let sink: ExportSink;
  try {
    sink = await sinkFor(job, format.mimeType);
  } catch (err) {
    return failed(err, "open", 0);
  }
  let inflight: Promise<void> | void | null = null;
  let output: SinkResult;
  let encoder: PcmEncoder | null = null;
  try {
    if (!wav) {
      // Loaded only for an encoded export: the WAV path never fetches the encoders.
      const { createMediabunnyEncoder } = await import("../../dsp/host/export/encoders");
      encoder = await createMediabunnyEncoder(settings, {
        async write(data, position) {
          await sink.write(data, position);
          written = Math.max(written, position + data.byteLength);
        },
      }).catch((err: unknown) => {
        throw new SinkError("open", err);
      });
    }
    // Two buffers: chunk n is written while chunk n+1 renders into the other one.
    // A WAV into the sync access handle in larger chunks (its writes are synchronous); an encoder
    // takes the renderer's 1 MiB chunks as its samples.
    const chunkBytes = job.chunkBytes ?? (wav && sink.kind === "sync" ? SYNC_CHUNK_BYTES : DEFAULT_CHUNK_BYTES);
    for (const chunk of renderer.chunks(Math.max(DEFAULT_CHUNK_BYTES, chunkBytes), 2)) {
      if (inflight) await inflight;
      if (cancelled) {
        await encoder?.abort();
        await sink.abort();
        return { status: "cancelled", bytes: renderer.bytesDone };
      }
      inflight = encoder ? encoder.write(chunk) : sink.write(chunk);
      const now = performance.now();
      if (now - last >= PROGRESS_INTERVAL_MS) {
        last = now;
        report();
      }
    }
    if (inflight) await inflight;
    if (encoder) await encoder.finish();
    output = await sink.close();
  } catch (err) {
    await Promise.resolve(inflight).catch(() => {});
    await encoder?.abort().catch(() => {});
    await sink.abort().catch(() => {});
    return failed(err, "render", renderer.bytesDone);
  }
  report();
  let checked: ExportReport | undefined = collector?.finish();
  if (collector && checked && !wav) checked = withDecodedCheck(checked, await decodeBack(sink, checked, collector, format, describeSettings(settings)));
  return { status: "done", bytes: wav ? totalBytes : written, sink: sink.kind, output, ...(checked ? { report: checked } : {}) };
}

/** The finished encoded file decoded back by the browser's own decoder and compared with the
 *  render (dsp/host/export/decoded-check.ts). A browser without a decoder for the format skips
 *  the check and says so; a decoder that fails on the file fails it. */
async function decodeBack(sink: ExportSink, report: ExportReport, collector: ExportReportCollector, format: ExportFormat, label: string): Promise<DecodedCheck> {
  let audio: DecodedAudio | { unavailable: string };
  try {
    const { mediabunnyDecoder } = await import("../../dsp/host/export/mediabunny-decoder");
    audio = await mediabunnyDecoder(await sink.readBack(), report.sampleRate);
  } catch (err) {
    return notDecoded(format, label, `the file could not be read back (${errorParts(err).message || errorParts(err).name}).`, "fail");
  }
  if ("unavailable" in audio) return notDecoded(format, label, audio.unavailable);
  try {
    return await checkDecoded(report, collector.renderedWindows(), format, label, audio);
  } catch (err) {
    return notDecoded(format, label, `decoding failed (${errorParts(err).message || errorParts(err).name}).`, "fail");
  } finally {
    await audio.close?.();
  }
}

const api: ExportWorkerApi = {
  async run(job, onProgress) {
    try {
      return await run(job, onProgress);
    } catch (err) {
      // The engine or the renderer (a RangeError when memory for the engine cannot be had).
      return failed(err, "render", 0);
    }
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
