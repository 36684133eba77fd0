// Main-thread side of the WAV export (no React): picks where the file goes, drives the export
// worker through Comlink, reports progress, and cleans up on cancel or failure. start() is Export
// WAV (the file goes to the user); renderFile() is the same render kept as a file for the caller
// (the studio's Upload to Store sends it, then calls discard()).
//
// Where the file goes (the worker writes it through web/export/sink.ts):
// - showSaveFilePicker (Chromium, not in an embedded frame): the worker streams into the chosen
//   file through createWritable, which commits only on close.
// - otherwise an Origin Private File System file under /exports, which the worker opens itself
//   from the folder and the name (WebKit cannot clone a file handle to a worker), downloaded when
//   complete from disk (a File from the OPFS handle -> object URL), never held in memory. The
//   previous export's file is removed when the next export starts (a download may still be
//   reading it until then).
// - without OPFS (navigator.storage missing, or getDirectory refused: private browsing, embedded
//   web views), in memory up to a limit from the device's memory (sink.ts memoryLimitBytes); a
//   longer export is refused before it starts, with what would work instead.
// One streaming path covers every duration from 1 s to 12 h on disk, which is what the spec's
// per-duration strategies (direct, 300 s chunks, 15-60 s streamed chunks) were after.

import * as Comlink from "comlink";
import wasmUrl from "../../dsp/build/engine.wasm?url";
import { exportPlan, type ExportOptions } from "../../dsp/host/export/render";
import { EXPORT_FORMATS, estimatedBytes, fileNameFor, type ExportSettings } from "../../dsp/host/export/formats";
import type { ExportReport } from "../../dsp/host/export/report";
import { hasAudibleChannel, type SoundState } from "../../dsp/host/schema/state";
import { exportFileName } from "./messages";
import ExportWorker from "./export.worker.ts?worker";
import type { ExportFailureInfo, ExportProgress, ExportResult, ExportWorkerApi } from "./protocol";
import { errorParts, memoryLimitBytes, type ExportTarget } from "./sink";
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

/** Where an export failed: the worker's sink stages ("open", "write", "close"), the engine
 *  ("render"), the page's own steps: choosing the OPFS place ("place"), handing the job to the
 *  worker ("handoff"), the worker stopping by itself ("worker"). */
export type ExportStage = ExportFailureInfo["stage"] | "place" | "handoff" | "worker";

/** A failed export: the original error's name and message, and the stage it failed at (what the
 *  user's message is chosen by, web/export/messages.ts). */
export class ExportError extends Error {
  constructor(
    readonly stage: ExportStage,
    name: string,
    message: string,
    /** For ExportMemoryLimitError: the most this device keeps in memory. */
    readonly limitBytes?: number,
  ) {
    super(message);
    this.name = name;
  }

  static from(stage: ExportStage, err: unknown): ExportError {
    if (err instanceof ExportError) return err;
    const { name, message } = errorParts(err);
    return new ExportError(stage, name || "Error", message);
  }
}

/** The name of the error for an export too big for the memory fallback. */
export const MEMORY_LIMIT_ERROR = "ExportMemoryLimitError";

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

/** Where a file of `totalBytes` goes without a save picker: an OPFS file in `dirName` (emptied of
 *  earlier exports; refused with QuotaExceededError when the origin's quota left is too small),
 *  or memory when this browser gives the page no OPFS (refused with ExportMemoryLimitError when the
 *  file is over the memory limit). */
export async function placeFor(fileName: string, totalBytes: number, dirName = OPFS_DIR): Promise<Place> {
  const limitBytes = memoryLimitBytes((navigator as { deviceMemory?: number }).deviceMemory);
  let root: FileSystemDirectoryHandle | null;
  try {
    // navigator.storage is undefined where the Storage API is off; getDirectory rejects in
    // WebKit's private and automation sessions (UnknownError) and Firefox's private windows.
    root = typeof navigator.storage?.getDirectory === "function" ? await navigator.storage.getDirectory() : null;
  } catch {
    root = null;
  }
  if (!root) {
    if (totalBytes > limitBytes) {
      throw new ExportError("place", MEMORY_LIMIT_ERROR, `The file (${totalBytes} bytes) is larger than the ${limitBytes} bytes this device keeps in memory`, limitBytes);
    }
    return { target: { kind: "memory", limitBytes }, dir: null };
  }
  try {
    const dir = await root.getDirectoryHandle(dirName, { create: true });
    const stale: string[] = [];
    for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) stale.push(name);
    await Promise.all(stale.map((name) => dir.removeEntry(name).catch(() => {})));
    const { quota, usage } = await navigator.storage.estimate();
    if (quota !== undefined && usage !== undefined && quota - usage < totalBytes) {
      throw new DOMException(`The export needs ${totalBytes} bytes of storage and ${quota - usage} are left`, "QuotaExceededError");
    }
    return { target: { kind: "opfs", dir: dirName, name: fileName }, dir, fallbackLimitBytes: totalBytes <= limitBytes ? limitBytes : 0 };
  } catch (err) {
    throw ExportError.from("place", err);
  }
}

/** An export's target, with the OPFS folder it is in (to read and remove the file from the page). */
interface Place {
  target: ExportTarget;
  dir: FileSystemDirectoryHandle | null;
  fallbackLimitBytes?: number;
}

/** What an export is made with: the renderer's options and the file's format. */
export type RunOptions = ExportOptions & { settings?: ExportSettings };

/** One export. start() must be called from the click handler (the save picker needs the gesture). */
export class ExportRun {
  readonly fileName: string;
  /** The file's format and its tuning (WAV 16-bit unless the options say otherwise). */
  readonly settings: ExportSettings;
  private readonly state: SoundState;
  private readonly duration: number;
  private readonly onUpdate: (u: ExportUpdate) => void;
  private readonly options: Omit<RunOptions, "settings">;
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
  private rendered: Place | null = null;

  /** `options`: the listener's levels and loudness normalisation (dsp/host/export/render.ts) and
   *  the file's format (dsp/host/export/formats.ts). */
  constructor(state: SoundState, duration: number, onUpdate: (u: ExportUpdate) => void, options: RunOptions = {}) {
    this.state = { channels: state.channels, effects: state.effects, timeline: state.timeline, voices: state.voices, recordings: state.recordings };
    this.duration = duration;
    this.onUpdate = onUpdate;
    const { settings, ...rest } = options;
    this.options = rest;
    this.settings = settings ?? { format: "wav16" };
    this.fileName = fileNameFor(exportFileName(), this.settings.format);
  }

  /** The file's size: exact for WAV, the format's estimate for FLAC, MP3 and Opus. */
  private totalBytes(): number {
    const format = EXPORT_FORMATS[this.settings.format];
    if (format.extension === ".wav") return exportPlan(this.duration, 48000, format.pcm).totalBytes;
    return estimatedBytes(this.settings, this.duration);
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
    const plan = { totalBytes: this.totalBytes() };
    const update = this.progressReporter(plan.totalBytes);
    const format = EXPORT_FORMATS[this.settings.format];

    // The picker first, while the click's user activation is fresh.
    let place: Place;
    if (pickerAvailable()) {
      try {
        const handle = await (window as PickerWindow).showSaveFilePicker!({
          suggestedName: this.fileName,
          types: [{ description: `${format.label} audio`, accept: { [format.mimeType.split(";")[0]]: [format.extension] } }],
        });
        place = { target: { kind: "handle", handle }, dir: null };
      } catch (err) {
        if (isAbort(err)) return { status: "cancelled" }; // the user closed the picker
        throw ExportError.from("place", err);
      }
    } else {
      place = await placeFor(this.fileName, plan.totalBytes);
    }
    if (this.beforeRender) {
      try {
        await this.beforeRender();
      } catch (err) {
        await removePartial(place);
        throw err;
      }
    }
    const done = await this.render(place, update, true);
    if (!done) return { status: "cancelled" };
    const report = done.report ? { report: done.report } : {};
    const bytes = done.bytes;
    if (done.output?.kind === "blob") {
      saveAs(done.output.blob, this.fileName);
      return { status: "downloaded", fileName: this.fileName, bytes, ...report };
    }
    if (place.dir) {
      saveAs(await (await place.dir.getFileHandle(this.fileName)).getFile(), this.fileName);
      return { status: "downloaded", fileName: this.fileName, bytes, ...report };
    }
    return { status: "saved", fileName: this.fileName, bytes, ...report };
  }

  /** The same render into a file the caller reads (a disk-backed File from OPFS, never held in
   *  memory; a File over the in-memory Blob where there is no OPFS); null when cancelled. Call
   *  discard() once the File has been used. */
  async renderFile(): Promise<File | null> {
    if (!hasAudibleChannel(this.state)) throw new NoChannelError();
    const totalBytes = this.totalBytes();
    const place = await placeFor(this.fileName, totalBytes, OPFS_RENDER_DIR);
    this.rendered = place;
    const done = await this.render(place, this.progressReporter(totalBytes));
    if (!done) {
      this.rendered = null;
      return null;
    }
    if (done.output?.kind === "blob") return new File([done.output.blob], this.fileName, { type: EXPORT_FORMATS[this.settings.format].mimeType });
    return (await place.dir!.getFileHandle(this.fileName)).getFile();
  }

  /** Removes renderFile()'s file. */
  async discard(): Promise<void> {
    const r = this.rendered;
    this.rendered = null;
    if (r) await removePartial(r);
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

  /** Runs the worker into `place`: its result when complete (with the export report when
   *  `report` asked for it), null when cancelled (the partial file removed); a failure removes the
   *  partial file and throws an ExportError naming the stage. */
  private async render(place: Place, update: (p: Pick<ExportProgress, "fraction" | "bytesDone">) => void, report = false): Promise<ExportResult | null> {
    const totalBytes = this.totalBytes();
    update({ fraction: 0, bytesDone: 0 });
    try {
      const module = await engineModule().catch((err) => {
        throw ExportError.from("render", err);
      });
      if (this.cancelRequested) throw new CancelledError();
      this.worker = new ExportWorker({ name: "wav-export" });
      this.api = Comlink.wrap<ExportWorkerApi>(this.worker);
      const crashed = new Promise<never>((_, reject) => {
        this.worker!.addEventListener("error", (e) => reject(new ExportError("worker", "Error", e.message || "The export worker stopped")));
        this.killCancelled = () => reject(new CancelledError());
      });
      const job = {
        module, state: this.state, duration: this.duration, target: place.target, fallbackLimitBytes: place.fallbackLimitBytes, report,
        soundtrack: soundtrackStore.getState().audio, recordings: recordingClips(), ...this.options, settings: this.settings,
      };
      // A rejection here is the job not reaching the worker (postMessage: DataCloneError); the
      // worker's own failures come back as a "failed" result.
      const running = this.api.run(job, Comlink.proxy((p: ExportProgress) => update(p))).catch((err: unknown) => {
        throw ExportError.from("handoff", err);
      });
      const result = await Promise.race([running, crashed]);
      if (result.status === "cancelled") throw new CancelledError();
      if (result.status === "failed") {
        const f = result.failure ?? { stage: "render", name: "Error", message: "" };
        throw new ExportError(f.stage, f.name, f.message, f.name === MEMORY_LIMIT_ERROR && place.target.kind === "memory" ? place.target.limitBytes : undefined);
      }
      update({ fraction: 1, bytesDone: result.bytes || totalBytes });
      return result;
    } catch (err) {
      this.stopWorker();
      await removePartial(place);
      if (err instanceof CancelledError) return null;
      throw ExportError.from("worker", err);
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

/** Removes what a cancelled or failed export left (a Blob in memory needs nothing). Where the
 *  entry cannot be removed, it is emptied, so nothing that looks like a complete WAV file remains. */
async function removePartial(place: Place): Promise<void> {
  const { target, dir } = place;
  if (target.kind === "memory") return;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      if (target.kind === "opfs" && dir) await dir.removeEntry(target.name);
      else if (target.kind === "handle" && typeof (target.handle as RemovableHandle).remove === "function") await (target.handle as RemovableHandle).remove!();
      else if (target.kind === "handle") {
        const w = await target.handle.createWritable({ keepExistingData: false });
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
