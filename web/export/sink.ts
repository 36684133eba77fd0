// Where an export's bytes go, behind one small interface (ExportSink), chosen once per export at
// run time inside the export worker, so the renderer (and an encoder later) writes the same way
// whatever the browser offers:
//
// - "sync": an Origin Private File System file through createSyncAccessHandle (dedicated workers
//   only): the OPFS download path's first choice (Chromium, Firefox). Writes are synchronous and
//   positional.
// - "writable": a file through createWritable: the save picker's handle (Chromium, cloned to the
//   worker), or an OPFS file where the sync handle is missing or refused (WebKit); it writes to a
//   swap file and replaces the target only on close, so an aborted export never leaves a
//   complete-looking file.
// - "memory": no disk at all (private browsing, embedded web views, an origin without OPFS): the
//   chunks become Blobs as they come and the finished file is one Blob made of them, downloaded
//   by the page. Bounded: a file over `limitBytes` (from the device's memory, memoryLimitBytes)
//   is refused before anything renders.
//
// The page never sends a FileSystemFileHandle of its own OPFS to the worker: WebKit cannot clone
// one (postMessage throws DataCloneError), so the worker opens the file from its folder and name.
// Every failure here is thrown as a SinkError naming the stage it happened in ("open" or "write"),
// which is what the user's message is chosen by (web/export/messages.ts).

/** The WAV renderer's chunk for the sync access handle: its writes block the worker, and fewer,
 *  larger ones are quicker (openSink). */
export const SYNC_CHUNK_BYTES = 4 << 20;

/** How the finished file is handed over: on disk (the file is where it was written) or as a Blob. */
export type SinkResult = { kind: "file" } | { kind: "blob"; blob: Blob };

export interface ExportSink {
  /** Which implementation was chosen (for the export report, tests and benchmarks). */
  readonly kind: "sync" | "writable" | "memory";
  /** Writes `bytes` at byte offset `at` (default: after the last byte written). The buffer may
   *  be reused by the caller once the returned promise (if any) settles. */
  write(bytes: Uint8Array, at?: number): Promise<void> | void;
  /** Completes the file. */
  close(): Promise<SinkResult>;
  /** Gives up: whatever was written is discarded (emptied or never committed). */
  abort(): Promise<void>;
  /** After close(): the finished file, for reading it back (the export report decodes it). */
  readBack(): Promise<Blob>;
}

/** Where the worker is to put the file. */
export type ExportTarget =
  /** A save-picker handle (Chromium: cloneable to a worker), written through createWritable. */
  | { kind: "handle"; handle: FileSystemFileHandle }
  /** An OPFS file the worker opens itself: `dir` under the OPFS root ("" for the root itself).
   *  `prefer` forces one of the two disk sinks (benchmarks compare them); by default
   *  createWritable where it works, else the sync access handle (openSink). */
  | { kind: "opfs"; dir: string; name: string; prefer?: "sync" | "writable" }
  /** No disk: a Blob of at most `limitBytes`. */
  | { kind: "memory"; limitBytes: number; mimeType?: string };

export type SinkStage = "open" | "write" | "close";

/** A failure of the sink, with the original error's name and message and where it happened. */
export class SinkError extends Error {
  constructor(
    readonly stage: SinkStage,
    readonly cause: unknown,
  ) {
    const { name, message } = errorParts(cause);
    super(message || name || "unknown failure");
    this.name = name || "Error";
  }
}

/** The `name` and `message` of anything thrown (a DOMException, an Error, a string). */
export function errorParts(err: unknown): { name: string; message: string } {
  if (err && typeof err === "object") {
    const e = err as { name?: unknown; message?: unknown };
    return { name: typeof e.name === "string" ? e.name : "", message: typeof e.message === "string" ? e.message : "" };
  }
  return { name: "", message: typeof err === "string" ? err : "" };
}

/** The biggest file the memory sink takes on this device: a quarter of the memory the browser
 *  reports (navigator.deviceMemory, Chromium only, rounded and capped at 8 GiB by the spec), at
 *  least 256 MiB and at most 2 GiB; 1 GiB where the browser does not say (Firefox, Safari): one
 *  hour of 48 kHz stereo 16-bit audio (691 MB) fits, 12 hours (8.3 GB) never does. */
export function memoryLimitBytes(deviceMemoryGiB: number | undefined): number {
  const GiB = 1 << 30;
  if (!deviceMemoryGiB || !Number.isFinite(deviceMemoryGiB) || deviceMemoryGiB <= 0) return GiB;
  return Math.round(Math.min(2 * GiB, Math.max(GiB / 4, (deviceMemoryGiB * GiB) / 4)));
}

/** The dedicated-worker-only OPFS API (not in TypeScript's DOM library). */
interface SyncAccessHandle {
  write(buffer: Uint8Array, options?: { at?: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}
type SyncCapable = FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncAccessHandle> };

/** Runs `step`, turning whatever it throws into a SinkError of `stage`. */
async function at<T>(stage: SinkStage, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw err instanceof SinkError ? err : new SinkError(stage, err);
  }
}

function syncSink(h: SyncAccessHandle, file: FileSystemFileHandle): ExportSink {
  let end = 0;
  return {
    kind: "sync",
    write(bytes, offset) {
      const pos = offset ?? end;
      let n: number;
      try {
        n = h.write(bytes, { at: pos });
      } catch (err) {
        throw new SinkError("write", err);
      }
      // A short write is the disk (or the origin's quota) filling up.
      if (n !== bytes.byteLength) throw new SinkError("write", new DOMException(`Wrote ${n} of ${bytes.byteLength} bytes`, "QuotaExceededError"));
      end = Math.max(end, pos + n);
    },
    close: () =>
      at("close", () => {
        h.flush();
        h.close();
        return { kind: "file" } as const;
      }),
    abort: async () => {
      try {
        h.truncate(0);
      } finally {
        h.close();
      }
    },
    readBack: () => file.getFile(),
  };
}

async function writableSink(handle: FileSystemFileHandle): Promise<ExportSink> {
  const w = await at("open", () => handle.createWritable({ keepExistingData: false }));
  // The stream's own cursor: a plain write lands there, and a positioned write moves it to the
  // end of what it wrote, not to the end of the file. An encoder patches its header at byte 0
  // and then writes its last chunk at the file's end, which must not follow the patch.
  let cursor = 0;
  return {
    kind: "writable",
    write: (bytes, offset) =>
      at("write", async () => {
        // WebKit's createWritable writes a view's whole ArrayBuffer, not the view (the last,
        // shorter chunk came out as a full 1 MiB): a partial view is copied to a buffer of its own.
        const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
        const data = (whole ? bytes : bytes.slice()) as Uint8Array<ArrayBuffer>;
        // A positional write only where one is asked for: plain appends are the common case.
        if (offset === undefined || offset === cursor) await w.write(data);
        else await w.write({ type: "write", position: offset, data });
        cursor = (offset ?? cursor) + bytes.byteLength;
      }),
    close: () =>
      at("close", async () => {
        await w.close();
        return { kind: "file" } as const;
      }),
    abort: () => w.abort(),
    readBack: () => handle.getFile(),
  };
}

/** Chunks kept as Blobs as they arrive (the browser may keep a Blob's bytes out of the JS heap),
 *  except the first, kept as bytes until close() so a positional write there (a header patch)
 *  can change it. */
export function memorySink(limitBytes: number, mimeType = "audio/wav"): ExportSink {
  let head: Uint8Array | null = null;
  let done: Blob | null = null;
  const parts: Blob[] = [];
  let end = 0;
  return {
    kind: "memory",
    write(bytes, offset) {
      const pos = offset ?? end;
      if (pos + bytes.byteLength > limitBytes) {
        throw new SinkError("write", new DOMException(`The export is larger than the ${limitBytes} bytes this device keeps in memory`, "ExportMemoryLimitError"));
      }
      if (pos === end && head === null) {
        head = bytes.slice();
      } else if (pos === end) {
        try {
          parts.push(new Blob([bytes as Uint8Array<ArrayBuffer>]));
        } catch (err) {
          throw new SinkError("write", err);
        }
      } else if (head && pos + bytes.byteLength <= head.byteLength) {
        head.set(bytes, pos);
        return;
      } else {
        throw new SinkError("write", new DOMException("The memory sink rewrites only its first chunk", "NotSupportedError"));
      }
      end = pos + bytes.byteLength;
    },
    close: () =>
      at("close", () => {
        done = new Blob(head ? [head as Uint8Array<ArrayBuffer>, ...parts] : parts, { type: mimeType });
        return { kind: "blob", blob: done } as const;
      }),
    abort: async () => {
      head = null;
      parts.length = 0;
    },
    readBack: async () => {
      if (!done) throw new Error("The file is not finished");
      return done;
    },
  };
}

/** Opens the sink for `target`: in a dedicated worker (the sync access handle exists only there).
 *  An OPFS target tries the sync access handle, then createWritable, each feature-detected and
 *  tried, since a browser may define a method and still refuse it (WebKit's sync access handle:
 *  NotSupportedError; WebKit has only createWritable in workers; Firefox has both). The sync
 *  handle first: on 30-minute WAV exports in Chromium it wrote at 788-824x realtime in 1 MiB
 *  writes and 1057-1138x in 4 MiB ones (SYNC_CHUNK_BYTES), against 611-813x for createWritable
 *  at any write size (docs/performance.md; a 10-minute export had measured the other way). */
export async function openSink(target: ExportTarget): Promise<ExportSink> {
  if (target.kind === "memory") return memorySink(target.limitBytes, target.mimeType);
  if (target.kind === "handle") return writableSink(target.handle);
  const handle = (await at("open", async () => {
    const root = await navigator.storage.getDirectory();
    const dir = target.dir ? await root.getDirectoryHandle(target.dir, { create: true }) : root;
    return dir.getFileHandle(target.name, { create: true });
  })) as SyncCapable;
  const tries: (() => Promise<ExportSink>)[] = [];
  const writable = () => writableSink(handle);
  const sync = async () => {
    const h = await handle.createSyncAccessHandle!();
    h.truncate(0);
    return syncSink(h, handle);
  };
  if (typeof handle.createSyncAccessHandle === "function" && target.prefer !== "writable") tries.push(sync);
  if (typeof handle.createWritable === "function" && target.prefer !== "sync") tries.push(writable);
  let failure: unknown = new DOMException("This browser can open no file for writing in a worker", "NotSupportedError");
  for (const open of tries) {
    try {
      return await open();
    } catch (err) {
      failure = err;
    }
  }
  throw failure instanceof SinkError ? failure : new SinkError("open", failure);
}
