// The file store's contract (FileStorage in api/services/storage.ts), one set of tests run on both
// implementations: the local directory (storage.ts, a folder of its own per test) and the
// S3-compatible store (storage-s3.ts) on s3rver (../s3-server.ts, a key prefix of its own per
// test). What is checked is what a caller sees: the bytes read back, whole or by range, the size,
// the key, which files are stored (the folder's files, the bucket's objects under the prefix) and
// that no upload in progress is left behind, whatever happened to it.
// What only one store has stays with it: ../storage-s3.test.ts (a store that is down, STORAGE_URL),
// ../storage-faults.test.ts (a full or read-only disk); both stores through the upload and
// download routes are ../storage-s3.test.ts too.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FileStorage, localStorage } from "../../../../api/services/storage";
import { type LocalS3, S3_BUCKET, startLocalS3 } from "../s3-server";

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.wav$/;

interface Store {
  /** The store, with everything it keeps under `dir` or its own prefix. */
  store: FileStorage;
  /** Keys of the files stored (not uploads in progress). */
  stored(): Promise<string[]>;
  /** Uploads in progress left behind. */
  incoming(): string[];
}

interface Backend {
  name: string;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  /** An empty store for one test, keeping what is local under `dir`. */
  fresh(dir: string): Store;
}

const listDir = (path: string) => (existsSync(path) ? readdirSync(path) : []);

const local: Backend = {
  name: "the local directory",
  setUp: async () => undefined,
  tearDown: async () => undefined,
  fresh(dir) {
    const files = join(dir, "files");
    return {
      store: localStorage(files),
      stored: async () => listDir(files).filter((f) => !f.startsWith(".")).sort(),
      incoming: () => listDir(join(files, ".incoming")),
    };
  },
};

let s3: LocalS3 | null = null;
let prefixes = 0;
const s3rver: Backend = {
  name: "an S3-compatible store",
  async setUp() {
    s3 = await startLocalS3();
  },
  async tearDown() {
    await s3?.close();
    s3 = null;
  },
  fresh(dir) {
    const prefix = `contract${++prefixes}/`;
    const uploads = join(dir, "uploads");
    return {
      store: s3!.storage(uploads, prefix),
      async stored() {
        const res = await s3!.client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: prefix }));
        return (res.Contents ?? []).map((o) => o.Key!.slice(prefix.length)).sort();
      },
      incoming: () => listDir(uploads),
    };
  },
};

/** The source `bytes` arrive from, in chunks of `chunk` bytes. */
const sourceOf = (bytes: Buffer, chunk = 50_000) =>
  Readable.from(Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, i) => bytes.subarray(i * chunk, (i + 1) * chunk)));

const bytesOf = async (r: Readable): Promise<Buffer> => Buffer.concat(await r.toArray());

describe.each([local, s3rver])("file store contract: $name", (backend) => {
  let dir: string;
  let s: Store;
  let store: FileStorage;

  beforeAll(() => backend.setUp());
  afterAll(() => backend.tearDown());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "storage-contract-"));
    s = backend.fresh(dir);
    store = s.store;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** `bytes` written and committed as a .wav. */
  async function put(bytes: Buffer): Promise<string> {
    return (await store.write(sourceOf(bytes))).commit("wav");
  }

  it("a write holds its bytes at a local path until commit, which stores them under a fresh key", async () => {
    const bytes = randomBytes(300_000);
    const pending = await store.write(sourceOf(bytes));
    expect(pending.bytes).toBe(bytes.length);
    expect(readFileSync(pending.path).equals(bytes)).toBe(true);
    expect(await s.stored()).toEqual([]);
    const key = await pending.commit("wav");
    expect(key).toMatch(KEY);
    expect(await s.stored()).toEqual([key]);
    expect(existsSync(pending.path)).toBe(false);
    expect(s.incoming()).toEqual([]);
    expect(await store.size(key)).toBe(bytes.length);
    expect((await bytesOf(store.read(key))).equals(bytes)).toBe(true);
    const path = store.localPath(key);
    if (path !== null) expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it("every write commits under a key of its own, several at once each with its own bytes", async () => {
    const contents = [randomBytes(70_000), randomBytes(1), randomBytes(70_000), randomBytes(123_457)];
    contents[2] = contents[0]; // the same bytes twice are still two files
    const keys = await Promise.all(contents.map(put));
    expect(new Set(keys).size).toBe(contents.length);
    expect(await s.stored()).toEqual([...keys].sort());
    for (const [i, key] of keys.entries()) expect((await bytesOf(store.read(key))).equals(contents[i])).toBe(true);
  });

  it("reads any inclusive range byte for byte: the first byte, the last ones, across chunks, all of it", async () => {
    const bytes = randomBytes(200_000);
    const key = await put(bytes);
    const n = bytes.length;
    for (const [start, end] of [[0, 0], [100, 199], [n - 10, n - 1], [n - 1, n - 1], [65_530, 140_000], [0, n - 1]]) {
      const got = await bytesOf(store.read(key, { start, end }));
      expect(got.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it("an empty file is stored, has size 0 and reads back empty", async () => {
    const pending = await store.write(Readable.from([]));
    expect(pending.bytes).toBe(0);
    const key = await pending.commit("wav");
    expect(await store.size(key)).toBe(0);
    expect((await bytesOf(store.read(key))).length).toBe(0);
  });

  it("a reader that stops early leaves the file readable", async () => {
    const bytes = randomBytes(500_000);
    const key = await put(bytes);
    const first = store.read(key);
    for await (const _chunk of first) break; // ends the stream after its first chunk
    expect((await bytesOf(store.read(key))).equals(bytes)).toBe(true);
  });

  it("a removed file has no size, is no longer stored and cannot be read; removing it again is no error", async () => {
    const bytes = randomBytes(10_000);
    const key = await put(bytes);
    const kept = await put(bytes);
    expect(await store.size(key)).toBe(bytes.length);
    await store.remove(key);
    expect(await store.size(key)).toBeNull();
    expect(await s.stored()).toEqual([kept]);
    await expect(bytesOf(store.read(key))).rejects.toThrow();
    await store.remove(key);
    expect(await store.size(kept)).toBe(bytes.length);
  });

  it("a key never stored has no size, cannot be read, and removing it is no error", async () => {
    const never = "00000000-0000-4000-8000-000000000000.wav";
    expect(await store.size(never)).toBeNull();
    await expect(bytesOf(store.read(never))).rejects.toThrow();
    await expect(bytesOf(store.read(never, { start: 0, end: 9 }))).rejects.toThrow();
    await store.remove(never);
    expect(await s.stored()).toEqual([]);
  });

  it("refuses an extension no key may have, and any key the store did not make", async () => {
    const pending = await store.write(sourceOf(randomBytes(100)));
    for (const ext of ["", "WAV", "../wav", "toolong", "w.a"]) await expect(pending.commit(ext), ext).rejects.toThrow(/Invalid extension/);
    // A file beside the store's own: a key that climbs out of it must reach nothing.
    writeFileSync(join(dir, "outside.wav"), "keep me");
    for (const key of ["../outside.wav", "outside.wav", "00000000-0000-4000-8000-000000000000.wav/x", "00000000-0000-4000-8000-000000000000"]) {
      expect(() => store.read(key), key).toThrow(/Invalid storage key/);
      await expect(store.size(key), key).rejects.toThrow();
      await expect(store.remove(key), key).rejects.toThrow();
    }
    expect(readFileSync(join(dir, "outside.wav"), "utf8")).toBe("keep me");
    await pending.discard();
    expect(await s.stored()).toEqual([]);
  });

  it("discard() throws a write away; again, or after commit, it changes nothing", async () => {
    const dropped = await store.write(sourceOf(randomBytes(100_000)));
    await dropped.discard();
    expect(existsSync(dropped.path)).toBe(false);
    await dropped.discard();
    const bytes = randomBytes(1000);
    const pending = await store.write(sourceOf(bytes));
    const key = await pending.commit("wav");
    await pending.discard();
    expect(await s.stored()).toEqual([key]);
    expect((await bytesOf(store.read(key))).equals(bytes)).toBe(true);
    expect(s.incoming()).toEqual([]);
  });

  it("a source that fails before the file is even open leaves no partial file", async () => {
    for (let i = 0; i < 50; i++) {
      // Fails on the first read, which pipeline() asks for before the write stream's open completes.
      const source = new Readable({ read() { this.destroy(new Error("cut off")); } });
      await expect(store.write(source)).rejects.toThrow("cut off");
      expect(s.incoming()).toEqual([]);
    }
    expect(await s.stored()).toEqual([]);
  });

  it("a source that fails part-way leaves no partial file; a good one then commits under its key", async () => {
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent++ < 3) this.push(Buffer.alloc(64 * 1024, 1));
        else this.destroy(new Error("reset"));
      },
    });
    await expect(store.write(failing)).rejects.toThrow("reset");
    expect(s.incoming()).toEqual([]);
    expect(await s.stored()).toEqual([]);
    const pending = await store.write(Readable.from([Buffer.from("RIFF"), Buffer.alloc(100)]));
    expect(pending.bytes).toBe(104);
    const key = await pending.commit("wav");
    expect(await store.size(key)).toBe(104);
    expect(s.incoming()).toEqual([]);
  });
});
