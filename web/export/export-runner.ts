// Main-thread side of the WAV export (no React): picks where the file goes, drives the export
// worker through Comlink, reports progress, and cleans up on cancel or failure. start() is Export
// WAV (the file goes to the user); renderFile() is the same render kept as an OPFS file for the
// caller (the studio's Upload to Store sends it, then calls discard()).
//
// Where the file goes:
// - showSaveFilePicker (not in an embedded frame): the worker streams into the chosen file through
//   createWritable, which commits only on close.
// - otherwise an Origin Private File System file under /exports, downloaded when complete from
//   disk (a File from the OPFS handle -> object URL), never held in memory. The previous export's
//   file is removed when the next export starts (a download may still be reading it until then).
// One bounded-memory streaming path covers every duration from 1 s to 12 h, which is what the
// spec's per-duration strategies (direct, 300 s chunks, 15-60 s streamed chunks) were after.

import * as Comlink from "comlink";
import wasmUrl from "../../dsp/build/engine.wasm?url";
import { exportPlan, type ExportOptions } from "../../dsp/host/export/render";
import type { ExportReport } from "../../dsp/host/export/report";
import { hasAudibleChannel, type SoundState } from "../../dsp/host/schema/state";
import { exportFileName } from "./messages";
import ExportWorker from "./export.worker.ts?worker";
import type { ExportProgress, ExportResult, ExportWorkerApi } from "./protocol";
import { saveAs } from "./download";
import { soundtrackStore } from "../audio/soundtrack-store";
import { recordingClips } from "../recordings/store";

const OPFS_DIR = "exports";
/** renderFile()'s folder, apart from the exports so neither removes the other's file. */
const OPFS_RENDER_DIR = "renders";
/** A cancelled worker that does not stop within this time is terminated. */
const CANCEL_GRACE_MS = 2000;

export class NoChannelError extends Error {
  constructor() {
    super("No enabled channel");
  }
}

export interface ExportUpdate {
  /** Spec 4: starts at 10, reaches 100. */
  percent: number;
  elapsedSeconds: number;
  /** NaN until there is something to estimate from. */
  remainingSeconds: number;
  bytesDone: number;
  totalBytes: number;
}

export type ExportOutcome =
  | { status: "saved" | "downloaded"; fileName: string; bytes: number; report?: ExportReport }
  | { status: "cancelled" };

interface SaveFilePickerOptions {
  suggestedName?: string;
  types?: { description: string; accept: Record<string, string[]> }[];
}
type PickerWindow = Window & { showSaveFilePicker?: (options?: SaveFilePickerOptions) => Promise<FileSystemFileHandle> };
type RemovableHandle = FileSystemFileHandle & { remove?: () => Promise<void> };

let modulePromise: Promise<WebAssembly.Module> | null = null;
/** The compiled engine, fetched and compiled once per page (exports and the Quality Test). */
export function engineModule(): Promise<WebAssembly.Module> {
  modulePromise ??= WebAssembly.compileStreaming(fetch(wasmUrl)).catch((err) => {
    modulePromise = null;
    throw err;
  });
  return modulePromise;
}

function isAbort(err: unknown): boolean {
  return (err as { name?: string })?.name === "AbortError";
}

function pickerAvailable(): boolean {
  const w = window as PickerWindow;
  let embedded: boolean;
  try {
    embedded = window.self !== window.top;
  } catch {
    embedded = true; // cross-origin parent
  }
  return typeof w.showSaveFilePicker === "function" && !embedded;
}

async function opfsTarget(
  fileName: string,
  totalBytes: number,
  dirName = OPFS_DIR,
): Promise<{ dir: FileSystemDirectoryHandle; handle: FileSystemFileHandle }> {
  const root = await navigator.storage.getDirectory();
  const dir = await root.getDirectoryHandle(dirName, { create: true });
  const stale: string[] = [];
  for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) stale.push(name);
  await Promise.all(stale.map((name) => dir.removeEntry(name).catch(() => {})));
  const { quota, usage } = await navigator.storage.estimate();
  if (quota !== undefined && usage !== undefined && quota - usage < totalBytes) {
    throw new DOMException(`The export needs ${totalBytes} bytes of storage`, "QuotaExceededError");
  }
  return { dir, handle: await dir.getFileHandle(fileName, { create: true }) };
}


/** One export. start() must be called from the click handler (the save picker needs the gesture). */
export class ExportRun {
  readonly fileName = exportFileName();
  private readonly state: SoundState;
  private readonly duration: number;
  private readonly onUpdate: (u: ExportUpdate) => void;
  private readonly options: ExportOptions;
  private api: Comlink.Remote<ExportWorkerApi> | null = null;
  private worker: Worker | null = null;
  private cancelRequested = false;
  /** Set once start() settles: late progress messages are ignored from then on. */
  private settled = false;
  private killCancelled: (() => void) | null = null;
  /** Asked once the file's place is chosen and before anything renders (Export WAV counts the
   *  export with the API there, web/export/export-count.ts); a rejection removes the chosen file and
   *  fails start() with its error. */
  beforeRender: (() => Promise<unknown>) | null = null;
  /** renderFile()'s file, until discard(). */
  private rendered: { dir: FileSystemDirectoryHandle; handle: FileSystemFileHandle } | null = null;

  /** `options`: the listener's levels and loudness normalisation (dsp/host/export/render.ts). */
  constructor(state: SoundState, duration: number, onUpdate: (u: ExportUpdate) => void, options: ExportOptions = {}) {
    this.state = { channels: state.channels, effects: state.effects, timeline: state.timeline, voices: state.voices, recordings: state.recordings };
    this.duration = duration;
    this.onUpdate = onUpdate;
    this.options = options;
  }

  /** Asks the worker to stop; the partial file is removed and start() resolves "cancelled". */
  cancel(): void {
    if (this.cancelRequested) return;
    this.cancelRequested = true;
    void this.api?.cancel().catch(() => {});
    setTimeout(() => this.killCancelled?.(), CANCEL_GRACE_MS);
  }

  async start(): Promise<ExportOutcome> {
    if (!hasAudibleChannel(this.state)) throw new NoChannelError();
    const plan = exportPlan(this.duration);
    const update = this.progressReporter(plan.totalBytes);

    // The picker first, while the click's user activation is fresh.
    let target: FileSystemFileHandle;
    let opfsDir: FileSystemDirectoryHandle | null = null;
    if (pickerAvailable()) {
      try {
        target = await (window as PickerWindow).showSaveFilePicker!({
          suggestedName: this.fileName,
          types: [{ description: "WAV audio", accept: { "audio/wav": [".wav"] } }],
        });
      } catch (err) {
        if (isAbort(err)) return { status: "cancelled" }; // the user closed the picker
        throw err;
      }
    } else {
      ({ dir: opfsDir, handle: target } = await opfsTarget(this.fileName, plan.totalBytes));
    }
    if (this.beforeRender) {
      try {
        await this.beforeRender();
      } catch (err) {
        await removePartial(target, opfsDir);
        throw err;
      }
    }
    const done = await this.render(target, opfsDir, update, true);
    if (!done) return { status: "cancelled" };
    const report = done.report ? { report: done.report } : {};
    if (opfsDir) {
      saveAs(await target.getFile(), this.fileName);
      return { status: "downloaded", fileName: this.fileName, bytes: plan.totalBytes, ...report };
    }
    return { status: "saved", fileName: this.fileName, bytes: plan.totalBytes, ...report };
  }

  /** The same render into an OPFS file the caller reads (a disk-backed File, never held in
   *  memory); null when cancelled. Call discard() once the File has been used. */
  async renderFile(): Promise<File | null> {
    if (!hasAudibleChannel(this.state)) throw new NoChannelError();
    const plan = exportPlan(this.duration);
    const { dir, handle } = await opfsTarget(this.fileName, plan.totalBytes, OPFS_RENDER_DIR);
    this.rendered = { dir, handle };
    if (!(await this.render(handle, dir, this.progressReporter(plan.totalBytes)))) {
      this.rendered = null;
      return null;
    }
    return handle.getFile();
  }

  /** Removes renderFile()'s file. */
  async discard(): Promise<void> {
    const r = this.rendered;
    this.rendered = null;
    if (r) await removePartial(r.handle, r.dir);
  }

  private progressReporter(totalBytes: number) {
    const started = performance.now();
    return (p: Pick<ExportProgress, "fraction" | "bytesDone">) => {
      if (this.settled) return;
      const elapsed = (performance.now() - started) / 1000;
      const f = Math.min(1, Math.max(0, p.fraction));
      this.onUpdate({
        percent: Math.floor(10 + 90 * f),
        elapsedSeconds: elapsed,
        remainingSeconds: f > 0.005 ? (elapsed / f) * (1 - f) : NaN,
        bytesDone: p.bytesDone,
        totalBytes,
      });
    };
  }

  /** Runs the worker into `target`: its result when complete (with the export report when
   *  `report` asked for it), null when cancelled (the partial file removed); a failure removes the
   *  partial file and rethrows. */
  private async render(
    target: FileSystemFileHandle,
    opfsDir: FileSystemDirectoryHandle | null,
    update: (p: Pick<ExportProgress, "fraction" | "bytesDone">) => void,
    report = false,
  ): Promise<ExportResult | null> {
    const totalBytes = exportPlan(this.duration).totalBytes;
    update({ fraction: 0, bytesDone: 0 });
    try {
      const module = await engineModule();
      if (this.cancelRequested) throw new CancelledError();
      this.worker = new ExportWorker({ name: "wav-export" });
      this.api = Comlink.wrap<ExportWorkerApi>(this.worker);
      const crashed = new Promise<never>((_, reject) => {
        this.worker!.addEventListener("error", (e) => reject(new Error(e.message || "The export worker stopped")));
        this.killCancelled = () => reject(new CancelledError());
      });
      const result = await Promise.race([
        this.api.run(
          {
            module, state: this.state, duration: this.duration, target, sink: opfsDir ? "opfs" : "picker", report,
            soundtrack: soundtrackStore.getState().audio, recordings: recordingClips(), ...this.options,
          },
          Comlink.proxy((p: ExportProgress) => update(p)),
        ),
        crashed,
      ]);
      if (result.status === "cancelled") throw new CancelledError();
      update({ fraction: 1, bytesDone: totalBytes });
      return result;
    } catch (err) {
      this.stopWorker();
      await removePartial(target, opfsDir);
      if (err instanceof CancelledError) return null;
      throw err;
    } finally {
      this.settled = true;
      this.stopWorker();
    }
  }

  private stopWorker(): void {
    if (this.api) this.api[Comlink.releaseProxy]();
    this.api = null;
    this.worker?.terminate();
    this.worker = null;
  }
}

class CancelledError extends Error {}

/** Removes what a cancelled or failed export left. Where the entry cannot be removed, it is
 *  emptied, so nothing that looks like a complete WAV file remains. */
async function removePartial(target: FileSystemFileHandle, opfsDir: FileSystemDirectoryHandle | null): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      if (opfsDir) await opfsDir.removeEntry(target.name);
      else if (typeof (target as RemovableHandle).remove === "function") await (target as RemovableHandle).remove!();
      else {
        const w = await target.createWritable({ keepExistingData: false });
        await w.close();
      }
      return;
    } catch (err) {
      if ((err as { name?: string }).name === "NotFoundError") return;
      // A terminated worker's sync access handle is released asynchronously: try again shortly.
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
