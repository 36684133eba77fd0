// The video export job API (api/routes/video-jobs.ts): the same checks and texts as the
// streaming POST /api/video-export, then 202 {id}; the job is rendered by the app's queue into
// FileStorage; its status and file are answered to the user who made it only (404 to anyone
// else); the file expires and is removed; a failed render ends with a clear error. DELETE cancels:
// a queued job never runs, a running render (ffmpeg and the engine) stops within about a second
// whichever process received the cancel, and no file is left; a finished job's file is removed.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { VIDEO_JOB_FILE_TTL_HOURS, VIDEO_QUEUE_LIMIT, VIDEO_TEXT as T, type VideoExportPayload } from "../../../../api/rules/video";
import { JOB_DEFINITIONS } from "../../../../api/services/jobs";
import { SqliteJobQueue } from "../../../../api/services/jobs-sqlite";
import { cancelVideoJob } from "../../../../api/services/video-jobs";
import type { VideoExportOptions } from "../../../../api/services/video-export";
import { requireBinary } from "../../../../api/platform/binaries";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { bodyOf, getWith, makeTestApp, signUp, signUpPro, type TestEnv } from "../helpers";

const ADMIN = "boss@example.com";
const OTHER_ADMIN = "other@example.com";

let env: TestEnv;

async function setUp(video: Partial<VideoExportOptions> = {}, start = true) {
  env = await makeTestApp({ adminEmails: [ADMIN, OTHER_ADMIN] }, { video });
  if (start) await env.app.services.jobs.start();
}
beforeEach(() => setUp());
afterEach(async () => {
  await env.app.services.jobs.stop();
  await env.app.services.video.idle();
  await env.close();
});

async function adminToken(email = ADMIN): Promise<string> {
  const { token } = await signUp(env, email);
  await env.db.updateTable("users").set({ admin_override: 1 }).where("email", "=", email).execute();
  return token;
}

function payload(overrides: Partial<VideoExportPayload> = {}): VideoExportPayload {
  const state = defaultAudioState();
  const frequencies = state.channels.map((c) => (c.id === 1 ? { ...c, frequency: 440 } : { ...c, frequency: 0, enabled: false }));
  return {
    backgroundType: "black",
    quality: "720p",
    duration: 2,
    frequencies,
    effects: state.effects,
    verification: { enabledChannelCount: 1, enabledEffectCount: 0, timestamp: env.clock.ms },
    ...overrides,
  };
}

function postJob(body: unknown, token?: string, requestedWith: string | null = "XMLHttpRequest"): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (requestedWith) headers["X-Requested-With"] = requestedWith;
  return Promise.resolve(env.app.request("/api/video-export/jobs", { method: "POST", headers, body: JSON.stringify(body) }));
}

async function waitFor(id: string, token: string, state: string, ms = 30_000): Promise<Record<string, unknown>> {
  const end = Date.now() + ms;
  for (;;) {
    const body = await bodyOf(await getWith(env, `/api/video-export/jobs/${id}`, token));
    if (body.state === state) return body;
    if (Date.now() > end) throw new Error(`job ${id} is ${JSON.stringify(body)}, not ${state}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const storedFiles = () => (existsSync(join(env.dir, "files")) ? readdirSync(join(env.dir, "files")) : []).filter((f) => f.endsWith(".mp4"));

describe("POST /api/video-export/jobs", () => {
  it("queues the export (202 {id}), renders it to storage and serves the MP4 to its owner, ranges included", async () => {
    const token = await adminToken();
    const res = await postJob(payload(), token);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const status = await waitFor(id, token, "completed");
    expect(status).toMatchObject({ id, state: "completed", progress: 1, error: null });
    expect(Date.parse(status.expiresAt as string)).toBe(env.clock.ms + VIDEO_JOB_FILE_TTL_HOURS * 3600_000);

    const file = await getWith(env, `/api/video-export/jobs/${id}/file`, token);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("video/mp4");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="swizard-video-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4"$/);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(Buffer.from(bytes.subarray(4, 8)).toString("latin1")).toBe("ftyp");
    expect(Number(file.headers.get("content-length"))).toBe(bytes.length);
    expect(storedFiles()).toHaveLength(1);

    const part = await env.app.request(`/api/video-export/jobs/${id}/file`, { headers: { Authorization: `Bearer ${token}`, Range: "bytes=4-7" } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe("ftyp");
  });

  it("answers another user's job, an unknown id and a malformed id with 404, and anonymous callers with 401", async () => {
    const token = await adminToken();
    const { id } = (await (await postJob(payload(), token)).json()) as { id: string };
    await waitFor(id, token, "completed");
    const other = await adminToken(OTHER_ADMIN);
    for (const path of [`/api/video-export/jobs/${id}`, `/api/video-export/jobs/${id}/file`]) {
      const res = await getWith(env, path, other);
      expect(res.status).toBe(404);
      expect(await bodyOf(res)).toEqual({ error: T.jobNotFound });
      expect((await getWith(env, path)).status).toBe(401);
    }
    for (const bad of ["00000000-0000-4000-8000-000000000000", "not-a-job", "1;drop table jobs"]) {
      const res = await getWith(env, `/api/video-export/jobs/${encodeURIComponent(bad)}`, token);
      expect(res.status).toBe(404);
      expect(await bodyOf(res)).toEqual({ error: T.jobNotFound });
    }
  });

  it("applies the streaming export's rules and exact texts before queuing anything", async () => {
    const cases: [string | undefined, unknown, string | null, number, string][] = [
      [await signUp(env, "free@example.com").then((u) => u.token), payload(), "XMLHttpRequest", 403, T.needsPro],
      [await signUp(env, "admin-off@example.com").then((u) => u.token), payload(), "XMLHttpRequest", 403, T.needsPro],
      [await adminToken(), payload(), null, 400, T.headerMissing],
      [await adminToken(OTHER_ADMIN), payload({ duration: 0.5 }), "XMLHttpRequest", 400, T.durationTooShort],
      [undefined, payload(), "XMLHttpRequest", 401, ""],
    ];
    for (const [token, body, header, status, error] of cases) {
      const res = await postJob(body, token, header);
      expect(res.status).toBe(status);
      if (error) expect(await bodyOf(res)).toEqual({ error });
    }
    expect(await env.db.selectFrom("jobs").select("id").execute()).toEqual([]);
  });

  it("a Pro (Monthly) user's job runs to its MP4, counted against the plan; a free user's is refused with the spec's text", async () => {
    const token = await signUpPro(env, "monthly@example.com");
    const res = await postJob(payload(), token);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    await waitFor(id, token, "completed");
    const file = await getWith(env, `/api/video-export/jobs/${id}/file`, token);
    expect(file.status).toBe(200);
    expect(Buffer.from(new Uint8Array(await file.arrayBuffer()).subarray(4, 8)).toString("latin1")).toBe("ftyp");
    expect(await env.db.selectFrom("export_counts").select("used").execute()).toEqual([{ used: 1 }]);

    const free = await signUp(env, "free2@example.com");
    const refused = await postJob(payload(), free.token);
    expect(refused.status).toBe(403);
    expect(await bodyOf(refused)).toEqual({ error: T.needsPro });
  });

  it("one job at a time per user: a second, queued or running, is refused with 409 and not counted; once the first ends the next is taken", async () => {
    await env.app.services.jobs.stop();
    await env.close();
    await setUp({}, false); // nothing runs: the first job stays queued
    const token = await signUpPro(env, "one@example.com");
    const first = await postJob(payload(), token);
    expect(first.status).toBe(202);
    const { id } = (await first.json()) as { id: string };
    // At once and after: refused, the count given back.
    const again = await Promise.all([postJob(payload(), token), postJob(payload(), token), postJob(payload(), token)]);
    for (const res of again) {
      expect(res.status).toBe(409);
      expect(await bodyOf(res)).toEqual({ error: T.jobRunning });
    }
    expect(await env.db.selectFrom("jobs").select("id").where("name", "=", "video-export").execute()).toEqual([{ id }]);
    expect(await env.db.selectFrom("export_counts").select("used").execute()).toEqual([{ used: 1 }]);
    // Another user is not held up by it.
    expect((await postJob(payload(), await signUpPro(env, "two@example.com"))).status).toBe(202);
    // Cancelled, the first no longer holds the user.
    await env.app.request(`/api/video-export/jobs/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } });
    expect((await postJob(payload(), token)).status).toBe(202);
  });

  it("a full queue answers 429 with Retry-After and its text, counting nothing", async () => {
    await env.app.services.jobs.stop();
    await env.close();
    await setUp({}, false);
    for (let i = 0; i < VIDEO_QUEUE_LIMIT; i++) await env.app.services.jobs.enqueue("video-export", { userId: `someone-${i}` });
    const token = await signUpPro(env, "late@example.com");
    const res = await postJob(payload(), token);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("60");
    expect(await bodyOf(res)).toEqual({ error: T.queueFull });
    expect(await env.db.selectFrom("export_counts").selectAll().execute()).toEqual([]);
  });

  it("26 users at once: exactly the queue's 20 are accepted, the others get 429", async () => {
    await env.app.services.jobs.stop();
    await env.close();
    await setUp({}, false); // nothing runs, so nothing leaves the queue meanwhile
    const tokens: string[] = [];
    for (let i = 0; i < 26; i++) {
      if (i % 5 === 0) env.clock.advance(601_000); // five sign-ups per address per 10 minutes
      tokens.push(await signUpPro(env, `user${i}@example.com`));
    }
    const answers = await Promise.all(tokens.map((t) => postJob(payload(), t)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((st) => st === 202)).toHaveLength(VIDEO_QUEUE_LIMIT);
    expect(statuses.filter((st) => st === 429)).toHaveLength(26 - VIDEO_QUEUE_LIMIT);
    expect(await env.app.services.jobs.pending("video-export")).toBe(VIDEO_QUEUE_LIMIT);
    // The refused were not counted against their plans.
    expect(await env.db.selectFrom("export_counts").select((eb) => eb.fn.sum("used").as("n")).executeTakeFirstOrThrow()).toEqual({ n: VIDEO_QUEUE_LIMIT });
  });

  it("keeps the file until it expires, then answers 410 and the expiry job removes it", async () => {
    const token = await adminToken();
    const { id } = (await (await postJob(payload(), token)).json()) as { id: string };
    await waitFor(id, token, "completed");
    expect(storedFiles()).toHaveLength(1);
    env.clock.advance(VIDEO_JOB_FILE_TTL_HOURS * 3600_000 + 1000);
    const res = await getWith(env, `/api/video-export/jobs/${id}/file`, token);
    expect(res.status).toBe(410);
    expect(await bodyOf(res)).toEqual({ error: T.jobExpired });
    const end = Date.now() + 10_000;
    while (storedFiles().length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(storedFiles()).toEqual([]);
    const expiry = await env.db.selectFrom("jobs").select(["state"]).where("name", "=", "video-export-expire").execute();
    expect(expiry).toEqual([{ state: "completed" }]);
  });

  it("a render that keeps failing ends as failed with the reason, its file answers 409, and the plan's count is given back", async () => {
    await env.app.services.jobs.stop();
    await env.close();
    await setUp({ ffmpegPath: "/nonexistent/ffmpeg" });
    const token = await signUpPro(env);
    const { id } = (await (await postJob(payload(), token)).json()) as { id: string };
    expect(await env.db.selectFrom("export_counts").select("used").execute()).toEqual([{ used: 1 }]);
    // The first attempt fails; the retry waits retryDelaySeconds on the app's clock.
    const end = Date.now() + 10_000;
    while (Date.now() < end) {
      const row = await env.db.selectFrom("jobs").select(["attempts", "state"]).where("id", "=", id).executeTakeFirstOrThrow();
      if (row.attempts === 1 && row.state === "queued") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    env.clock.advance(JOB_DEFINITIONS["video-export"].retryDelaySeconds * 1000);
    const status = await waitFor(id, token, "failed");
    expect(status).toMatchObject({ state: "failed", error: T.failed(T.unavailable) });
    const file = await getWith(env, `/api/video-export/jobs/${id}/file`, token);
    expect(file.status).toBe(409);
    expect(await bodyOf(file)).toEqual({ error: T.jobFailed });
    expect(storedFiles()).toEqual([]);
    expect(await env.db.selectFrom("export_counts").select("used").execute()).toEqual([{ used: 0 }]);
  });
});

describe("the ffmpeg watchdog", () => {
  it("fails a job whose ffmpeg hangs within the watchdog's time, with a readable text, and the next job runs", async () => {
    // An ffmpeg that hangs (reads nothing, writes nothing) while the marker file exists, and is the
    // real one otherwise.
    const bin = mkdtempSync(join(tmpdir(), "stuck-ffmpeg-"));
    const marker = join(bin, "hang");
    const script = join(bin, "ffmpeg");
    writeFileSync(script, `#!/bin/sh\nif [ -e '${marker}' ]; then exec sleep 600; fi\nexec '${requireBinary("ffmpeg").path}' "$@"\n`);
    chmodSync(script, 0o755);
    writeFileSync(marker, "");
    try {
      await env.app.services.jobs.stop();
      await env.close();
      await setUp({ ffmpegPath: script, stallTimeoutMs: 2000 });
      const token = await signUpPro(env);
      const { id } = (await (await postJob(payload(), token)).json()) as { id: string };
      const attemptFailed = async (attempts: number) =>
        until(async () => {
          const row = await env.db.selectFrom("jobs").select(["attempts", "state"]).where("id", "=", id).executeTakeFirstOrThrow();
          return row.attempts === attempts && row.state !== "active";
        }, 15_000);
      await until(async () => (await env.db.selectFrom("jobs").select("state").where("id", "=", id).executeTakeFirstOrThrow()).state === "active", 10_000);
      const first = await attemptFailed(1);
      expect(first).toBeGreaterThanOrEqual(1500);
      expect(first).toBeLessThan(6000);
      env.clock.advance(JOB_DEFINITIONS["video-export"].retryDelaySeconds * 1000);
      const status = await waitFor(id, token, "failed", 15_000);
      expect(status.error).toBe(T.failed(T.stalled(2)));
      expect(T.failed(T.stalled(60))).toBe("Video export failed: the video encoder made no progress for 60 seconds and was stopped; please try again");
      expect(env.app.services.video.pids).toEqual([]);
      // The encoder works again: the user's next job runs to its MP4.
      rmSync(marker);
      const next = (await (await postJob(payload(), token)).json()) as { id: string };
      expect((await waitFor(next.id, token, "completed")).state).toBe("completed");
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

function deleteJob(id: string, token?: string): Promise<Response> {
  const headers: Record<string, string> = { "X-Requested-With": "XMLHttpRequest" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return Promise.resolve(env.app.request(`/api/video-export/jobs/${id}`, { method: "DELETE", headers }));
}

/** Every file under the storage folder, the half-written ones in .incoming included. */
function allStoredFiles(): string[] {
  const root = join(env.dir, "files");
  return existsSync(root) ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(probe: () => boolean | Promise<boolean>, ms: number): Promise<number> {
  const start = Date.now();
  while (!(await probe())) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

describe("DELETE /api/video-export/jobs/:id", () => {
  /** A 5-minute 1080p waveform export (tens of seconds of work here) that is encoding now. */
  async function runningJob(token: string): Promise<{ id: string; pid: number }> {
    const { id } = (await (await postJob(payload({ duration: 300, quality: "1080p", backgroundType: "black_waveform" }), token)).json()) as { id: string };
    await until(async () => (await bodyOf(await getWith(env, `/api/video-export/jobs/${id}`, token))).progress !== 0, 20_000);
    expect(env.app.services.video.pids).toHaveLength(1);
    return { id, pid: env.app.services.video.pids[0] };
  }

  it("cancels a queued job: 200 'cancelled', and it never runs (no render, no file)", async () => {
    await env.app.services.jobs.stop();
    await env.close();
    await setUp({}, false);
    const token = await adminToken();
    const { id } = (await (await postJob(payload(), token)).json()) as { id: string };
    const res = await deleteJob(id, token);
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ id, state: "cancelled", progress: 0, error: null, expiresAt: null });
    await env.app.services.jobs.start();
    // Another job queued after it runs to the end: the worker was free and passed the cancelled one by.
    const { id: next } = (await (await postJob(payload(), token)).json()) as { id: string };
    await waitFor(next, token, "completed");
    const row = await env.db.selectFrom("jobs").select(["state", "attempts"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: "cancelled", attempts: 0 });
    expect(storedFiles()).toHaveLength(1); // the other job's
    const file = await getWith(env, `/api/video-export/jobs/${id}/file`, token);
    expect(file.status).toBe(410);
    expect(await bodyOf(file)).toEqual({ error: T.jobCancelled });
  });

  it("cancels a running job: ffmpeg is killed and the render stops within about a second, and no file (not even a partial one) is left", async () => {
    const token = await adminToken();
    const { id, pid } = await runningJob(token);
    const res = await deleteJob(id, token);
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toMatchObject({ id, state: "cancelled", error: null, expiresAt: null });
    const stopped = await until(() => !alive(pid) && env.app.services.video.running === 0, 2000);
    console.log(`running render stopped ${stopped} ms after the DELETE answered (same process)`);
    await env.app.services.video.idle();
    await until(() => allStoredFiles().length === 0, 1000);
    expect((await bodyOf(await getWith(env, `/api/video-export/jobs/${id}`, token))).state).toBe("cancelled");
    const file = await getWith(env, `/api/video-export/jobs/${id}/file`, token);
    expect(file.status).toBe(410);
    expect(await bodyOf(file)).toEqual({ error: T.jobCancelled });
  });

  it("a cancel received by another process (another queue on the same database) stops the render within about a second", async () => {
    const token = await adminToken();
    const { id, pid } = await runningJob(token);
    const elsewhere = new SqliteJobQueue(env.db);
    const asked = Date.now();
    await cancelVideoJob({ ...env.app.services, jobs: elsewhere }, id);
    await until(() => !alive(pid) && env.app.services.video.running === 0, 2500);
    const stopped = Date.now() - asked;
    console.log(`running render stopped ${stopped} ms after another process cancelled it`);
    expect(stopped).toBeLessThan(2000);
    await env.app.services.video.idle();
    await until(() => allStoredFiles().length === 0, 1000);
    const row = await env.db.selectFrom("jobs").select(["state", "result"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: "cancelled", result: null });
  });

  it("answers another user 404 and no session 401, leaving the job to finish; cancelling twice answers the same", async () => {
    const token = await adminToken();
    const { id } = (await (await postJob(payload(), token)).json()) as { id: string };
    const other = await adminToken(OTHER_ADMIN);
    const res = await deleteJob(id, other);
    expect(res.status).toBe(404);
    expect(await bodyOf(res)).toEqual({ error: T.jobNotFound });
    expect((await deleteJob(id)).status).toBe(401);
    for (const bad of ["00000000-0000-4000-8000-000000000000", "not-a-job"]) {
      const r = await deleteJob(encodeURIComponent(bad), token);
      expect(r.status).toBe(404);
      expect(await bodyOf(r)).toEqual({ error: T.jobNotFound });
    }
    await waitFor(id, token, "completed");
    expect(storedFiles()).toHaveLength(1);

    const first = await deleteJob(id, token);
    const second = await deleteJob(id, token);
    expect([first.status, second.status]).toEqual([200, 200]);
    const body = await bodyOf(first);
    expect(body).toEqual({ id, state: "cancelled", progress: 1, error: null, expiresAt: null });
    expect(await bodyOf(second)).toEqual(body);
  });

  it("cancelling a finished job removes its file, and the file then answers 410", async () => {
    const token = await adminToken();
    const { id } = (await (await postJob(payload(), token)).json()) as { id: string };
    await waitFor(id, token, "completed");
    expect(storedFiles()).toHaveLength(1);
    expect((await getWith(env, `/api/video-export/jobs/${id}/file`, token)).status).toBe(200);
    const res = await deleteJob(id, token);
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).state).toBe("cancelled");
    expect(storedFiles()).toEqual([]);
    const file = await getWith(env, `/api/video-export/jobs/${id}/file`, token);
    expect(file.status).toBe(410);
    expect(await bodyOf(file)).toEqual({ error: T.jobCancelled });
  });

  it("cancelling a job that already failed leaves it failed", async () => {
    await env.app.services.jobs.stop();
    await env.close();
    await setUp({ ffmpegPath: "/nonexistent/ffmpeg" });
    const token = await adminToken();
    const { id } = (await (await postJob(payload(), token)).json()) as { id: string };
    await until(async () => {
      const row = await env.db.selectFrom("jobs").select(["attempts", "state"]).where("id", "=", id).executeTakeFirstOrThrow();
      return row.attempts === 1 && row.state === "queued";
    }, 10_000);
    env.clock.advance(JOB_DEFINITIONS["video-export"].retryDelaySeconds * 1000);
    await waitFor(id, token, "failed");
    const res = await deleteJob(id, token);
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toMatchObject({ state: "failed", error: T.failed(T.unavailable) });
  });
});
