// The video export job API (issue 15, api/routes/video-jobs.ts): the same checks and texts as the
// streaming POST /api/video-export, then 202 {id}; the job is rendered by the app's queue into
// FileStorage; its status and file are answered to the user who made it only (404 to anyone
// else); the file expires and is removed; a failed render ends with a clear error.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultAudioState } from "../../../dsp/host/state";
import { VIDEO_JOB_FILE_TTL_HOURS, VIDEO_TEXT as T, type VideoExportPayload } from "../../../api/rules/video";
import { JOB_DEFINITIONS } from "../../../api/services/jobs";
import { bodyOf, getWith, makeTestApp, signUp, signUpPro, type TestEnv } from "./helpers";

const ADMIN = "boss@example.com";
const OTHER_ADMIN = "other@example.com";

let env: TestEnv;

async function setUp(video: { ffmpegPath?: string } = {}) {
  env = await makeTestApp({ adminEmails: [ADMIN, OTHER_ADMIN] }, { video });
  await env.app.services.jobs.start();
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
      [await signUpPro(env), payload(), "XMLHttpRequest", 403, T.adminsOnly],
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

  it("a render that keeps failing ends as failed with the reason, and its file answers 409", async () => {
    await env.app.services.jobs.stop();
    await env.close();
    await setUp({ ffmpegPath: "/nonexistent/ffmpeg" });
    const token = await adminToken();
    const { id } = (await (await postJob(payload(), token)).json()) as { id: string };
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
  });
});
