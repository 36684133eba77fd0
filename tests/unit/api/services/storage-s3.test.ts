// The marketplace's files through both stores: the local directory and an
// S3-compatible object store (s3rver on loopback), through the real routes with app.request():
// upload a WAV, preview it (an exact 30 s WAV, ranges), download it whole and ranged (206 with the
// exact bytes), 416 for a range outside it, delete it; a refused upload leaves nothing in the
// bucket; a store that is down is a 503 with a clear text; STORAGE_URL is checked at start and
// `npm start`'s server stores the shipped sounds in the bucket. The stores themselves (bytes,
// ranges, sizes, remove, failed writes) are services/storage.contract.test.ts.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseWavHeader, wavHeader } from "../../../../dsp/host/export/wav";
import { MSG } from "../../../../api/messages";
import { MARKETPLACE_TEXT as T } from "../../../../api/rules/marketplace";
import { optionsFromEnv, startServer } from "../../../../api/server";
import { type FileStorage, localStorage } from "../../../../api/services/storage";
import { storageFromEnv } from "../../../../api/services/storage-config";
import { s3Storage } from "../../../../api/services/storage-s3";
import { SEED_SOUNDS } from "../../../../api/services/marketplace-seed";
import { bodyOf, makeTestApp, signUp, type TestEnv } from "../helpers";
import { type LocalS3, S3_BUCKET, startLocalS3 } from "../s3-server";

const ADMIN = "boss@example.com";
let s3: LocalS3;
let env: TestEnv | null = null;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3.close();
});
afterEach(async () => {
  await env?.close();
  env = null;
});

/** 48 kHz stereo 16-bit WAV of `seconds` with a different value in every frame. */
function wav(seconds: number): Uint8Array<ArrayBuffer> {
  const frames = Math.round(seconds * 48000);
  const header = wavHeader(frames * 4);
  const out = new Uint8Array(header.length + frames * 4);
  out.set(header);
  const view = new DataView(out.buffer);
  for (let n = 0; n < frames; n++) {
    const v = Math.round(8000 * Math.sin((2 * Math.PI * 440 * n) / 48000)) + (n % 7);
    view.setInt16(header.length + n * 4, v, true);
    view.setInt16(header.length + n * 4 + 2, -v, true);
  }
  return out;
}

function upload(e: TestEnv, bytes: Uint8Array<ArrayBuffer>, token: string, title = "Stored Tone"): Promise<Response> {
  const fd = new FormData();
  fd.append("audio", new Blob([bytes], { type: "audio/wav" }), "tone.wav");
  for (const [k, v] of Object.entries({ title, price: "0", duration: "1", category: "Focus" })) fd.append(k, v);
  return Promise.resolve(e.app.request("/api/marketplace/upload-direct", { method: "POST", body: fd, headers: { Authorization: `Bearer ${token}` } }));
}

const get = (e: TestEnv, path: string, headers: Record<string, string> = {}) => Promise.resolve(e.app.request(path, { headers }));
const listDir = (path: string) => {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
};

/** Keys in the bucket under `prefix`. */
async function bucketKeys(prefix: string): Promise<string[]> {
  const res = await s3.client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: prefix }));
  return (res.Contents ?? []).map((o) => o.Key!).sort();
}

interface Store {
  name: string;
  make(dir: string, prefix: string): FileStorage;
  /** Files stored under real keys (not uploads in progress). */
  stored(e: TestEnv, prefix: string): Promise<string[]>;
  /** Uploads in progress left behind. */
  incoming(e: TestEnv): string[];
}

let prefixes = 0;
const STORES: Store[] = [
  {
    name: "the local directory",
    make: (dir) => localStorage(join(dir, "files")),
    stored: async (e) => listDir(join(e.dir, "files")).filter((f) => !f.startsWith(".")),
    incoming: (e) => listDir(join(e.dir, "files", ".incoming")),
  },
  {
    name: "an S3-compatible store",
    make: (dir, prefix) => s3.storage(join(dir, "tmp", "uploads"), prefix),
    stored: (_e, prefix) => bucketKeys(prefix),
    incoming: (e) => listDir(join(e.dir, "tmp", "uploads")),
  },
];

describe.each(STORES)("marketplace files in $name", (store) => {
  async function setup() {
    const prefix = `run${++prefixes}/`;
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }, { storage: (dir) => store.make(dir, prefix) }));
    const token = (await signUp(e, ADMIN)).token;
    return { e, token, prefix };
  }

  it("upload, preview, download whole and ranged, 416, delete", async () => {
    const { e, token, prefix } = await setup();
    const original = wav(40);
    const res = await upload(e, original, token);
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { sound: { id: string; duration: number } }).sound.id;
    const row = await e.db.selectFrom("marketplace_sounds").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.duration_seconds).toBe(40);
    expect(row.file_key).toMatch(/^[0-9a-f-]{36}\.wav$/);
    const stored = await store.stored(e, prefix);
    expect(stored).toEqual([store.name.includes("S3") ? `${prefix}${row.file_key}` : row.file_key]);
    expect(store.incoming(e)).toEqual([]);

    // The preview: an exact WAV of the first 30 s, its header patched, ranges served exactly.
    const preview = await get(e, `/api/marketplace/sounds/${id}/preview`);
    expect(preview.status).toBe(200);
    const bytes = new Uint8Array(await preview.arrayBuffer());
    expect(parseWavHeader(bytes).frames).toBe(30 * 48000);
    expect(bytes.length).toBe(44 + 30 * 48000 * 4);
    expect(Buffer.from(bytes.subarray(44)).equals(Buffer.from(original.subarray(44, 44 + 30 * 48000 * 4)))).toBe(true);
    const part = await get(e, `/api/marketplace/sounds/${id}/preview`, { Range: "bytes=20-100019" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 20-100019/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(bytes.subarray(20, 100020)))).toBe(true);
    const tooFar = await get(e, `/api/marketplace/sounds/${id}/preview`, { Range: `bytes=${bytes.length}-` });
    expect(tooFar.status).toBe(416);
    expect(await bodyOf(tooFar)).toEqual({ error: MSG.rangeNotSatisfiable });

    // The download: the whole file, and any one range of it byte for byte.
    const auth = { Authorization: `Bearer ${token}` };
    const whole = await get(e, `/api/marketplace/sounds/${id}/download`, auth);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-length")).toBe(String(original.length));
    expect(Buffer.from(await whole.arrayBuffer()).equals(Buffer.from(original))).toBe(true);
    for (const [range, start, end] of [
      ["bytes=100-199", 100, 199],
      ["bytes=-10", original.length - 10, original.length - 1],
      [`bytes=${original.length - 5}-`, original.length - 5, original.length - 1],
      ["bytes=0-0", 0, 0],
    ] as const) {
      const r = await get(e, `/api/marketplace/sounds/${id}/download`, { ...auth, Range: range });
      expect(r.status, range).toBe(206);
      expect(r.headers.get("content-range")).toBe(`bytes ${start}-${end}/${original.length}`);
      expect(Buffer.from(await r.arrayBuffer()).equals(Buffer.from(original.subarray(start, end + 1))), range).toBe(true);
    }
    for (const range of [`bytes=${original.length}-`, "bytes=-0"]) {
      const r = await get(e, `/api/marketplace/sounds/${id}/download`, { ...auth, Range: range });
      expect(r.status, range).toBe(416);
      expect(r.headers.get("content-range")).toBe(`bytes */${original.length}`);
      expect(await bodyOf(r)).toEqual({ error: MSG.rangeNotSatisfiable });
    }

    // Removed from the store (what remove() itself does: services/storage.contract.test.ts), its
    // download is a 404, not a 500.
    await e.app.services.storage!.remove(row.file_key);
    const gone = await get(e, `/api/marketplace/sounds/${id}/download`, auth);
    expect(gone.status).toBe(404);
    expect(await bodyOf(gone)).toEqual({ error: T.soundNotFound });
  });

  it("a refused upload leaves nothing in the store and nothing in progress", async () => {
    const { e, token, prefix } = await setup();
    const notAudio = new TextEncoder().encode("not audio at all\n".repeat(100));
    const res = await upload(e, notAudio, token);
    expect(res.status).toBe(415);
    expect((await bodyOf(res)).error).toBe(T.notAudio);
    expect(await store.stored(e, prefix)).toEqual([]);
    expect(store.incoming(e)).toEqual([]);
    expect(await e.db.selectFrom("marketplace_sounds").selectAll().execute()).toEqual([]);
  });
});

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

describe("an object store that is down", () => {
  it("uploads, previews and downloads answer 503 with a clear text; nothing is left behind; the server keeps serving", async () => {
    const prefix = `down${++prefixes}/`;
    const e = (env = await makeTestApp({ adminEmails: [ADMIN] }, { storage: (dir) => s3.storage(join(dir, "tmp", "uploads"), prefix) }));
    const token = (await signUp(e, ADMIN)).token;
    const res = await upload(e, wav(1), token);
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { sound: { id: string } }).sound.id;

    // The same app, its store now pointing at a port where nothing answers.
    const port = await closedPort();
    e.app.services.storage = s3Storage({
      bucket: S3_BUCKET, prefix, endpoint: `http://127.0.0.1:${port}`, tmpDir: join(e.dir, "tmp", "uploads"),
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    const up = await upload(e, wav(1), token, "Second");
    expect(up.status).toBe(503);
    expect(await bodyOf(up)).toEqual({ error: MSG.storageDown });
    expect(listDir(join(e.dir, "tmp", "uploads"))).toEqual([]);
    for (const path of [`/api/marketplace/sounds/${id}/preview`, `/api/marketplace/sounds/${id}/download`]) {
      const r = await get(e, path, { Authorization: `Bearer ${token}` });
      expect(r.status, path).toBe(503);
      expect(await bodyOf(r)).toEqual({ error: MSG.storageDown });
    }
    expect((await e.db.selectFrom("marketplace_sounds").select("title").execute()).map((r) => r.title)).toEqual(["Stored Tone"]);
    expect((await get(e, "/api/health")).status).toBe(200);
    expect((await get(e, "/api/marketplace/sounds")).status).toBe(200);
  });
});

describe("STORAGE_URL", () => {
  it("is optional: the local directory is the default", () => {
    expect(storageFromEnv({})).toBeUndefined();
    expect(storageFromEnv({ STORAGE_URL: " " })).toBeUndefined();
    expect(optionsFromEnv({}).storage).toBeUndefined();
  });

  it("s3://bucket/prefix with S3_ENDPOINT and AWS_REGION", () => {
    expect(storageFromEnv({ STORAGE_URL: "s3://tone-files/studio/sounds", S3_ENDPOINT: "http://127.0.0.1:9000/", AWS_REGION: "eu-west-1" })).toEqual({
      kind: "s3", bucket: "tone-files", prefix: "studio/sounds/", endpoint: "http://127.0.0.1:9000", region: "eu-west-1",
    });
    expect(storageFromEnv({ STORAGE_URL: "s3://my.bucket" })).toEqual({ kind: "s3", bucket: "my.bucket", prefix: "", endpoint: undefined, region: "us-east-1" });
  });

  it.each([
    ["http://bucket/prefix"],
    ["s3://"],
    ["s3://ab/x"],
    ["s3://Upper/x"],
    ["s3://bucket_name/x"],
    ["s3://bucket/../etc"],
    ["s3://bucket/a b"],
    ["s3://bucket/x?versionId=1"],
  ])("a bad one, %s, stops the start with a clear message", (url) => {
    expect(() => optionsFromEnv({ STORAGE_URL: url })).toThrow(/^STORAGE_URL must look like s3:\/\/bucket\/prefix \(.+\), got ".*"$/);
  });

  it("a bad S3_ENDPOINT stops the start with a clear message", () => {
    expect(() => optionsFromEnv({ STORAGE_URL: "s3://tone-files", S3_ENDPOINT: "localhost:9000" })).toThrow(
      'S3_ENDPOINT must be an http(s) origin such as http://127.0.0.1:9000, got "localhost:9000"',
    );
  });
});

describe("npm start with STORAGE_URL", () => {
  let root: string;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "studio-s3-server-"));
    // The SDK's standard credential chain, as in production.
    process.env.AWS_ACCESS_KEY_ID = "S3RVER";
    process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
  });
  afterAll(() => {
    for (const [k, v] of [["AWS_ACCESS_KEY_ID", saved.id], ["AWS_SECRET_ACCESS_KEY", saved.secret]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(root, { recursive: true, force: true });
  });

  it("stores the shipped sounds in the bucket and serves their previews from it", async () => {
    const options = optionsFromEnv({ PORT: "0", DATA_DIR: join(root, "data"), STORAGE_URL: `s3://${S3_BUCKET}/server`, S3_ENDPOINT: s3.endpoint });
    const server = await startServer({ ...options, distDir: join(root, "dist"), log: () => undefined });
    try {
      let sounds: { fileUrl: string; price: number }[] = [];
      for (let i = 0; i < 200 && sounds.length < SEED_SOUNDS.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
        sounds = ((await (await fetch(`${server.url}/api/marketplace/sounds`)).json()) as { sounds: typeof sounds }).sounds;
      }
      expect(sounds).toHaveLength(SEED_SOUNDS.length);
      const keys = await bucketKeys("server/");
      expect(keys).toHaveLength(SEED_SOUNDS.length);
      for (const k of keys) expect(k).toMatch(/^server\/[0-9a-f-]{36}\.wav$/);
      // Nothing kept on the local disk: no stored file, no upload in progress.
      expect(listDir(join(root, "data", "files"))).toEqual([]);
      expect(listDir(join(root, "data", "tmp", "uploads"))).toEqual([]);
      const free = sounds.find((s) => s.price === 0)!;
      const res = await fetch(`${server.url}${free.fileUrl}`, { headers: { Range: "bytes=0-43" } });
      expect(res.status).toBe(206);
      const head = new Uint8Array(await res.arrayBuffer());
      expect(parseWavHeader(head).frames).toBe(30 * 48000);
      // The object itself is the whole 60 s file.
      const obj = await s3.client.send(new GetObjectCommand({ Bucket: S3_BUCKET, Key: keys[0] }));
      expect(obj.ContentLength).toBe(44 + 60 * 48000 * 4);
      await obj.Body!.transformToByteArray();
    } finally {
      await server.close();
    }
  });
});
