// Uploads onto a disk that fails: a full disk is a 507 and an unwritable one a 503,
// each with its clear text; no partial file is left, no row is stored, and the server keeps
// serving (health, listing, and the next upload once there is room). The faults are real: a
// 256 KiB tmpfs that fills up and one remounted read-only where mounting is allowed; otherwise a
// read-only directory (not root) or a folder whose kernel refuses writes (/sys, as root).
import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { wavHeader } from "../../../../dsp/host/export/wav";
import { MSG } from "../../../../api/messages";
import { localStorage } from "../../../../api/services/storage";
import { canMountSmallFs, isRoot, mountSmallFs, type SmallFs } from "../../fs-faults";
import { bodyOf, makeTestApp, signUp, type TestEnv } from "../helpers";

const ADMIN = "boss@example.com";
let env: TestEnv | null = null;
let fs: SmallFs | null = null;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  fs?.unmount();
  fs = null;
  for (const c of cleanups.splice(0)) c();
  await env?.close();
  env = null;
});

/** A 48 kHz stereo 16-bit WAV of `seconds` (192 KB a second). */
function wav(seconds: number): Uint8Array<ArrayBuffer> {
  const frames = Math.round(seconds * 48000);
  const out = new Uint8Array(44 + frames * 4);
  out.set(wavHeader(frames * 4));
  for (let i = 44; i < out.length; i += 2) out[i] = (i * 7) & 0xff;
  return out;
}

function upload(e: TestEnv, bytes: Uint8Array<ArrayBuffer>, token: string): Promise<Response> {
  const fd = new FormData();
  fd.append("audio", new Blob([bytes], { type: "audio/wav" }), "tone.wav");
  for (const [k, v] of Object.entries({ title: "Tone", price: "0", duration: "1", category: "Focus" })) fd.append(k, v);
  return Promise.resolve(e.app.request("/api/marketplace/upload-direct", { method: "POST", body: fd, headers: { Authorization: `Bearer ${token}` } }));
}

const listDir = (path: string) => {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
};

/** An app whose files folder was prepared by `prepare` (a mount, a permission) before use. */
async function appWith(prepare: (files: string) => void) {
  const e = (env = await makeTestApp({ adminEmails: [ADMIN] }, {
    storage: (dir) => {
      const files = join(dir, "files");
      mkdirSync(files);
      prepare(files);
      return localStorage(files);
    },
  }));
  return { e, token: (await signUp(e, ADMIN)).token, files: join(e.dir, "files") };
}

async function stillServing(e: TestEnv) {
  expect((await Promise.resolve(e.app.request("/api/health"))).status).toBe(200);
  expect((await Promise.resolve(e.app.request("/api/marketplace/sounds"))).status).toBe(200);
}

async function nothingStored(e: TestEnv, files: string) {
  expect(await e.db.selectFrom("marketplace_sounds").selectAll().execute()).toEqual([]);
  expect(listDir(files).filter((f) => !f.startsWith("."))).toEqual([]);
  expect(listDir(join(files, ".incoming"))).toEqual([]);
}

describe("a full disk", () => {
  it.skipIf(!canMountSmallFs)("an upload that does not fit is a 507 with no partial file; the next one that fits is stored", async () => {
    const { e, token, files } = await appWith((dir) => (fs = mountSmallFs(dir, 256)));
    const res = await upload(e, wav(2), token); // 384 KB onto 256 KiB
    expect(res.status).toBe(507);
    expect(await bodyOf(res)).toEqual({ error: MSG.storageFull });
    await nothingStored(e, files);
    await stillServing(e);
    const small = await upload(e, wav(0.25), token); // 48 KB: the failed one's space was given back
    expect(small.status).toBe(201);
    expect(listDir(files).filter((f) => f.endsWith(".wav"))).toHaveLength(1);
    expect(listDir(join(files, ".incoming"))).toEqual([]);
  });
});

describe("an unwritable DATA_DIR", () => {
  /** The strongest real fault this machine allows for a folder that refuses writes. */
  function makeUnwritable(files: string): string {
    // The uploads folder exists (the server has run before): the new file itself is refused.
    fs = mountSmallFs(files, 256);
    if (fs) {
      mkdirSync(join(files, ".incoming"));
      fs.readOnly();
      return "a read-only mount (EROFS)";
    }
    if (!isRoot()) {
      mkdirSync(join(files, ".incoming"));
      for (const d of [files, join(files, ".incoming")]) chmodSync(d, 0o555);
      cleanups.push(() => {
        for (const d of [files, join(files, ".incoming")]) chmodSync(d, 0o755);
      });
      return "a read-only directory (EACCES)";
    }
    // Root ignores permissions; the kernel still refuses new files in /sys.
    symlinkSync("/sys/kernel", join(files, ".incoming"));
    return "uploads in progress pointed into /sys (EACCES)";
  }

  it("an upload is a 503 with a clear text, nothing is stored, and the server keeps serving", async () => {
    let how = "";
    const { e, token, files } = await appWith((dir) => (how = makeUnwritable(dir)));
    const res = await upload(e, wav(0.5), token);
    expect(res.status, how).toBe(503);
    expect(await bodyOf(res)).toEqual({ error: MSG.storageUnwritable });
    expect(await e.db.selectFrom("marketplace_sounds").selectAll().execute()).toEqual([]);
    expect(listDir(files).filter((f) => !f.startsWith("."))).toEqual([]);
    await stillServing(e);
  });

  it("a file where the uploads folder should be is a 503 too, not a 500", async () => {
    const { e, token, files } = await appWith((dir) => writeFileSync(join(dir, ".incoming"), "in the way"));
    const res = await upload(e, wav(0.5), token);
    expect(res.status).toBe(503);
    expect(await bodyOf(res)).toEqual({ error: MSG.storageUnwritable });
    expect(e.errors).not.toContain("Unhandled API error"); // a known fault, not a bug
    expect(listDir(files)).toEqual([".incoming"]);
    await stillServing(e);
  });
});
