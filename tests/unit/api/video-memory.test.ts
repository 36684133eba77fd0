// Memory under load: the real server (`api/server.ts`) gets 8 video exports at once, each of a
// session placing 8 ten-minute voice recordings (mono, 57.6 MB each, 460 MB of audio in all). The
// renders' recordings are read only once an export has its slot and within the memory budget
// (services/video-export.ts), streamed from the file store, so the server's peak resident memory
// (VmHWM) stays under VIDEO_RSS_LIMIT_MB; the exports beyond the slots and the queue get the 429
// with its text; the admitted ones stream a playable MP4. Linux only (/proc). On SQLite by
// default; on PostgreSQL in the api-postgres project.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { openPostgres, openSqlite } from "../../../api/db/open";
import type { Database } from "../../../api/db/schema";
import { VIDEO_TEXT } from "../../../api/rules/video";
import { findFfmpeg } from "../../../api/platform/binaries";
import { defaultAudioState } from "../../../dsp/host/schema/state";
import { newTestSchemaUrl, TEST_DATABASE_URL } from "./helpers";

/** The stated bound on the server's peak resident memory in this test (docs/performance.md). */
const VIDEO_RSS_LIMIT_MB = 400;
const EXPORTS = 8;
const RECORDINGS = 8;
const FRAMES = 600 * 48000;

const ROOT = resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(join(tmpdir(), "studio-video-memory-"));
const SECRET = "memory-test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
const live = new Set<ChildProcessWithoutNullStreams>();
const databaseUrl = TEST_DATABASE_URL
  ? await newTestSchemaUrl().then(({ url, schema }) => `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`)
  : "";
const openSide = (): Promise<Kysely<Database>> => (databaseUrl ? openPostgres(databaseUrl, { max: 1 }) : openSqlite(join(dir, "studio.db")));
const ADMIN = "memory@example.com";

afterAll(() => {
  for (const child of live) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<{ url: string; child: ChildProcessWithoutNullStreams; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "api/server.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", JWT_SECRET: SECRET, PUBLIC_URL: "http://studio.test", DATABASE_URL: databaseUrl, ADMIN_EMAILS: ADMIN },
  });
  live.add(child);
  const exited = new Promise((done) => child.once("exit", () => (live.delete(child), done(null))));
  let out = "";
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start: ${out}`)), 60_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /Listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    void exited.then(() => fail(new Error(`server exited: ${out}`)));
  });
  return { url, child, exited };
}

/** Peak and current resident memory of a process, in MB. */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { peak: kb("VmHWM") / 1024, now: kb("VmRSS") / 1024 };
}

/** A ten-minute mono 16-bit WAV at 48 kHz (a quiet tone), written in slices. */
function writeRecording(path: string, hz: number): number {
  const fd = openSync(path, "w");
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + FRAMES * 2, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(48000, 24);
  header.writeUInt32LE(96000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(FRAMES * 2, 40);
  writeSync(fd, header);
  const slice = Buffer.alloc(48000 * 2);
  for (let s = 0; s < 600; s++) {
    for (let i = 0; i < 48000; i++) slice.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / 48000) * 3000), i * 2);
    writeSync(fd, slice);
  }
  closeSync(fd);
  return 44 + FRAMES * 2;
}

describe.skipIf(process.platform !== "linux" || !findFfmpeg())("video export memory", () => {
  it(`${EXPORTS} exports at once, each with ${RECORDINGS} ten-minute recordings, keep the server under ${VIDEO_RSS_LIMIT_MB} MB`, async () => {
    const server = await start();
    const pid = server.child.pid!;
    const res = await fetch(`${server.url}/api/auth/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: ADMIN, password: "correct horse battery" }) });
    expect(res.status).toBe(201);
    const { token, user } = (await res.json()) as { token: string; user: { id: string } };
    // The recordings, written straight into the file store with their rows (as uploads leave them).
    const side = await openSide();
    await side.updateTable("users").set({ admin_override: 1 }).where("id", "=", user.id).execute();
    const files = join(dir, "files");
    if (!existsSync(files)) mkdirSync(files, { recursive: true });
    const ids: string[] = [];
    for (let i = 0; i < RECORDINGS; i++) {
      const id = randomUUID();
      const key = `${randomUUID()}.wav`;
      const bytes = writeRecording(join(files, key), 200 + 50 * i);
      await side.insertInto("recordings").values({ id, user_id: user.id, name: `long ${i}`, file_key: key, bytes, frames: FRAMES, channels: 1, sample_rate: 48000, created_at: new Date().toISOString() }).execute();
      ids.push(id);
    }
    await side.destroy();
    const before = memoryOf(pid);

    const state = defaultAudioState();
    const body = JSON.stringify({
      backgroundType: "black", quality: "720p", duration: 2, frequencies: state.channels, effects: state.effects,
      recordings: ids.map((id, i) => ({ id, name: `long ${i}`, trimStart: 0, trimEnd: 0, gainDb: -6, at: 0, every: 0, loop: false })),
      verification: { enabledChannelCount: state.channels.filter((c) => c.enabled).length, enabledEffectCount: 0, timestamp: Date.now() },
    });
    let peakSeen = before.now;
    const sampler = setInterval(() => (peakSeen = Math.max(peakSeen, memoryOf(pid).now)), 20);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: EXPORTS }, async () => {
        const r = await fetch(`${server.url}/api/video-export`, { method: "POST", headers: { "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest", Authorization: `Bearer ${token}` }, body });
        const bytes = r.status === 200 ? new Uint8Array(await r.arrayBuffer()) : null;
        return { status: r.status, bytes, error: bytes ? null : ((await r.json()) as { error: string }).error };
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = memoryOf(pid);
    server.child.kill("SIGTERM");
    await server.exited;

    const done = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 429);
    // Two render and two wait: the rest are told the renderer is busy.
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(done.length + busy.length).toBe(EXPORTS);
    for (const b of busy) expect(b.error).toBe(VIDEO_TEXT.busy(30));
    for (const d of done) expect(new TextDecoder().decode(d.bytes!.subarray(4, 8))).toBe("ftyp");
    console.log(
      `video memory: ${EXPORTS} exports x ${RECORDINGS} ten-minute recordings in ${seconds.toFixed(1)} s: ${done.length} rendered, ${busy.length} busy; ` +
        `server RSS ${before.now.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB (sampled ${peakSeen.toFixed(0)} MB), limit ${VIDEO_RSS_LIMIT_MB} MB`,
    );
    expect(after.peak).toBeLessThan(VIDEO_RSS_LIMIT_MB);
  });
});
