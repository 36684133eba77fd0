// The export sinks (web/export/sink.ts): the in-memory fallback keeps the exact bytes and its
// limit; the OPFS target takes the sync access handle where it works, else createWritable,
// trying each (WebKit defines createSyncAccessHandle and throws NotSupportedError from it); a
// failure names its stage; the memory limit follows the device's memory.

import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryLimitBytes, memorySink, openSink, SinkError } from "../../../../web/export/sink";

const bytes = (...v: number[]) => Uint8Array.from(v);

/** A fake OPFS file: `writable` and `sync` say what the browser does with each method. */
function fakeFile(writable: "ok" | "missing" | "throws", sync: "ok" | "missing" | "throws", { wholeBuffer = false } = {}) {
  const data: number[] = [];
  const put = (b: Uint8Array, at: number) => b.forEach((v, i) => (data[at + i] = v));
  const handle: Record<string, unknown> = { name: "f.wav" };
  // The stream's cursor, as the File System spec has it: a positioned write moves it too.
  let cursor = 0;
  if (writable !== "missing") {
    handle.createWritable = async () => {
      if (writable === "throws") throw new DOMException("refused", "NotAllowedError");
      return {
        write: async (x: Uint8Array | { position: number; data: Uint8Array }) => {
          // WebKit 2.50 writes a view's whole ArrayBuffer.
          if (wholeBuffer && x instanceof Uint8Array) x = new Uint8Array(x.buffer);
          if (x instanceof Uint8Array) {
            put(x, cursor);
            cursor += x.byteLength;
          } else {
            put(x.data, x.position);
            cursor = x.position + x.data.byteLength;
          }
        },
        close: async () => undefined,
        abort: async () => undefined,
      };
    };
  }
  if (sync !== "missing") {
    handle.createSyncAccessHandle = async () => {
      if (sync === "throws") throw new DOMException("Backend does not support this operation", "NotSupportedError");
      return { write: (b: Uint8Array, o: { at: number }) => (put(b, o.at), b.byteLength), truncate: () => (data.length = 0), flush: () => undefined, close: () => undefined };
    };
  }
  const dir = { getFileHandle: async () => handle, getDirectoryHandle: async () => dir };
  vi.stubGlobal("navigator", { storage: { getDirectory: async () => dir } });
  return data;
}

afterEach(() => vi.unstubAllGlobals());

describe("export sinks", () => {
  it("memory: the file is the bytes written, a header patch in the first chunk included", async () => {
    const sink = memorySink(100);
    sink.write(bytes(1, 2, 3, 4));
    sink.write(bytes(5, 6));
    sink.write(bytes(9, 9), 1);
    const out = await sink.close();
    expect(out.kind).toBe("blob");
    expect([...new Uint8Array(await (out as { blob: Blob }).blob.arrayBuffer())]).toEqual([1, 9, 9, 4, 5, 6]);
  });

  it("memory: a write past the limit fails at the write stage with ExportMemoryLimitError", () => {
    const sink = memorySink(4);
    sink.write(bytes(1, 2, 3));
    let err: unknown;
    try {
      sink.write(bytes(4, 5));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SinkError);
    expect(err).toMatchObject({ stage: "write", name: "ExportMemoryLimitError" });
  });

  it("OPFS: the sync handle first; createWritable only where it is asked for or the sync handle is missing", async () => {
    fakeFile("ok", "ok");
    expect((await openSink({ kind: "opfs", dir: "exports", name: "f.wav" })).kind).toBe("sync");
    fakeFile("ok", "ok");
    expect((await openSink({ kind: "opfs", dir: "exports", name: "f.wav", prefer: "writable" })).kind).toBe("writable");
    fakeFile("ok", "missing");
    expect((await openSink({ kind: "opfs", dir: "exports", name: "f.wav" })).kind).toBe("writable");
    for (const writable of ["missing", "throws"] as const) {
      const data = fakeFile(writable, "ok");
      const sink = await openSink({ kind: "opfs", dir: "exports", name: "f.wav" });
      expect(sink.kind).toBe("sync");
      await sink.write(bytes(7, 8));
      await sink.write(bytes(6), 0);
      await sink.close();
      expect(data).toEqual([6, 8]);
    }
  });

  it("OPFS as in WebKit: the sync handle refuses, createWritable writes (positional writes too)", async () => {
    const data = fakeFile("ok", "throws");
    const sink = await openSink({ kind: "opfs", dir: "exports", name: "f.wav", prefer: undefined });
    expect(sink.kind).toBe("writable");
    await sink.write(bytes(1, 2, 3));
    await sink.write(bytes(4), 1);
    await sink.close();
    expect(data).toEqual([1, 4, 3]);
  });

  it("createWritable: after a header patch at byte 0, the encoder's last chunk still lands at the end", async () => {
    // How FLAC and MP3 finish: the muxer rewrites its header, then flushes the file's tail.
    const data = fakeFile("ok", "missing");
    const sink = await openSink({ kind: "opfs", dir: "exports", name: "f.flac" });
    await sink.write(bytes(1, 2, 3, 4), 0);
    await sink.write(bytes(9, 9), 0);
    await sink.write(bytes(5, 6), 4);
    await sink.write(bytes(7));
    await sink.close();
    expect(data).toEqual([9, 9, 3, 4, 5, 6, 7]);
  });

  it("createWritable gets a buffer of its own for a partial view (WebKit writes the view's whole buffer)", async () => {
    const data = fakeFile("ok", "missing", { wholeBuffer: true });
    const sink = await openSink({ kind: "opfs", dir: "exports", name: "f.wav" });
    const pool = bytes(1, 2, 3, 4, 5, 6);
    await sink.write(pool.subarray(0, 6));
    await sink.write(pool.subarray(0, 2));
    await sink.close();
    expect(data).toEqual([1, 2, 3, 4, 5, 6, 1, 2]);
  });

  it("OPFS with neither method working fails at the open stage with the browser's error", async () => {
    fakeFile("missing", "throws");
    await expect(openSink({ kind: "opfs", dir: "exports", name: "f.wav" })).rejects.toMatchObject({ stage: "open", name: "NotSupportedError", message: "Backend does not support this operation" });
    vi.stubGlobal("navigator", { storage: { getDirectory: async () => Promise.reject(new DOMException("The operation failed for an unknown transient reason (e.g. out of memory).", "UnknownError")) } });
    await expect(openSink({ kind: "opfs", dir: "exports", name: "f.wav" })).rejects.toMatchObject({ stage: "open", name: "UnknownError" });
  });

  it("memory limit: a quarter of the device's memory, 256 MiB to 2 GiB, 1 GiB when unknown", () => {
    expect(memoryLimitBytes(undefined)).toBe(1 << 30);
    expect(memoryLimitBytes(0.25)).toBe(256 * 2 ** 20);
    expect(memoryLimitBytes(2)).toBe(512 * 2 ** 20);
    expect(memoryLimitBytes(8)).toBe(2 * 2 ** 30);
    expect(memoryLimitBytes(16)).toBe(2 * 2 ** 30);
  });
});
