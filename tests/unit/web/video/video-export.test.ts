// Export Video's client (web/video/video-export.ts) with a fake fetch: the spec's checks before
// sending (missing token, Pro, no channel, under 1 s) and the spec's messages after (401/403 ask
// for the session to be cleared, other failures 'Video export failed: {message}'); the payload
// carries all channels, the effects and counts that the server's own count agrees with. The job
// path: POST /api/video-export/jobs, status polled with its progress until completed, the file
// saved as swizard-video-{timestamp}.mp4; a failed job's own text; polls that cannot reach the
// server are retried (a restart) up to the outage limit; aborting stops polling; a job resumed
// by id is not posted again; the running job's id kept in and cleared from sessionStorage. Cancel:
// DELETE with the token (kept alive past the page), a job cancelled elsewhere ends the export with
// 'Video export cancelled.', and a stop during the start still hands the new job's id over.

import { describe, expect, it } from "vitest";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { VIDEO_TEXT, verificationCounts } from "../../../../api/rules/video";
import {
  buildPayload, cancelVideoJob, exportVideo, precheck, rememberedJob, rememberJob, RUNNING_JOB_KEY, VideoExportError,
  VideoJobCancelledError, VideoJobGoneError, VIDEO_JOBS_PATH, type ExportProgress,
} from "../../../../web/video/video-export";

function state() {
  const s = defaultAudioState();
  s.channels[3] = { ...s.channels[3], enabled: false };
  s.channels[2] = { ...s.channels[2], frequency: 0 };
  s.effects.tremolo = { ...s.effects.tremolo, enabled: true };
  return s;
}

const ok = { token: "t", proAccess: true, state: state(), duration: 30, maxDuration: 3600 };

describe("before sending", () => {
  it("the spec's messages, in order", () => {
    expect(precheck(ok)).toBeNull();
    expect(precheck({ ...ok, token: null })).toBe("Authentication required. Please log in again.");
    expect(precheck({ ...ok, proAccess: false })).toBe("Video export requires a Pro subscription. Upgrade now to create videos!");
    const silent = state();
    silent.channels = silent.channels.map((c) => ({ ...c, enabled: false }));
    expect(precheck({ ...ok, state: silent })).toBe("Please enable at least one frequency before exporting video");
    expect(precheck({ ...ok, duration: 0 })).toBe("Please set a duration of at least 1 second");
    expect(precheck({ ...ok, duration: NaN })).toBe("Please set a duration of at least 1 second");
    expect(precheck({ ...ok, duration: 1 })).toBeNull();
    expect(precheck({ ...ok, duration: 3601 })).toBe("Please set a duration of at most 1 hour for video export");
  });

  it("the payload: all channels, the effects, counts of sounding channels and enabled effects", () => {
    const p = buildPayload(state(), { background: "black_waveform", quality: "1080p", duration: 12 }, 1234);
    expect(p).toMatchObject({ backgroundType: "black_waveform", quality: "1080p", duration: 12 });
    expect(p.frequencies).toHaveLength(4);
    expect(p.effects).toEqual(state().effects);
    expect(p.verification).toEqual({ enabledChannelCount: 2, enabledEffectCount: 1, timestamp: 1234 });
    expect(verificationCounts(p.frequencies, p.effects)).toEqual({ enabledChannelCount: 2, enabledEffectCount: 1 });
  });
});

const payload = () => buildPayload(state(), { background: "black", quality: "720p", duration: 3 });
const JOB = "4f1c2a9e-0000-4000-8000-000000000001";

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

type Route = (req: Seen) => Response | Promise<Response>;

/** A fake server: `routes` answers by "METHOD path"; every request is recorded in `seen`. */
function fakeServer(routes: Record<string, Route | Route[]>) {
  const seen: Seen[] = [];
  const counts = new Map<string, number>();
  const fetchImpl = (async (url: string, init: RequestInit = {}) => {
    if (init.signal?.aborted) throw new DOMException("Aborted", "AbortError");
    const req: Seen = { method: init.method ?? "GET", url, headers: init.headers as Record<string, string>, body: init.body as string | undefined };
    seen.push(req);
    const key = `${req.method} ${url}`;
    const route = routes[key];
    if (!route) throw new Error(`unexpected ${key}`);
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    const handler = Array.isArray(route) ? route[Math.min(n, route.length - 1)] : route;
    return handler(req);
  }) as unknown as typeof fetch;
  return { fetchImpl, seen };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const status = (state: string, progress = 0, error: string | null = null) => () => json({ id: JOB, state, progress, error, expiresAt: null });
const mp4 = (chunks: Uint8Array[]) => () =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const x of chunks) c.enqueue(x);
        c.close();
      },
    }),
    { status: 200, headers: { "Content-Type": "video/mp4" } },
  );

const STATUS = `GET ${VIDEO_JOBS_PATH}/${JOB}`;
const FILE = `GET ${VIDEO_JOBS_PATH}/${JOB}/file`;
const START = `POST ${VIDEO_JOBS_PATH}`;

describe("the job path", () => {
  it("queues the job, reports the polled progress, downloads the file as swizard-video-{timestamp}.mp4", async () => {
    const { fetchImpl, seen } = fakeServer({
      [START]: () => json({ id: JOB }, 202),
      [STATUS]: [status("queued"), status("active", 0.25), status("active", 0.75), status("completed", 1)],
      [FILE]: mp4([new Uint8Array([0, 0, 0, 24]), new Uint8Array(1000)]),
    });
    const saved: { blob?: Blob; name?: string } = {};
    const progress: ExportProgress[] = [];
    const jobs: string[] = [];
    const result = await exportVideo({ payload: payload() }, "tok", {
      fetchImpl,
      pollMs: 1,
      save: (blob, name) => Object.assign(saved, { blob, name }),
      onJob: (id) => jobs.push(id),
      onProgress: (p) => progress.push(p),
    });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([START, STATUS, STATUS, STATUS, STATUS, FILE]);
    for (const r of seen) {
      expect(r.headers.Authorization).toBe("Bearer tok");
      expect(r.headers["X-Requested-With"]).toBe("XMLHttpRequest");
    }
    expect(JSON.parse(seen[0].body!)).toEqual(JSON.parse(JSON.stringify(payload()), (k, v) => (k === "timestamp" ? expect.any(Number) : v)));
    expect(jobs).toEqual([JOB]);
    expect(progress).toEqual([
      { phase: "queued", progress: 0, bytes: 0 },
      { phase: "queued", progress: 0, bytes: 0 },
      { phase: "rendering", progress: 0.25, bytes: 0 },
      { phase: "rendering", progress: 0.75, bytes: 0 },
      { phase: "downloading", progress: 1, bytes: 0 },
      { phase: "downloading", progress: 1, bytes: 4 },
      { phase: "downloading", progress: 1, bytes: 1004 },
    ]);
    expect(result.bytes).toBe(1004);
    expect(saved.name).toMatch(/^swizard-video-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4$/);
    expect(result.fileName).toBe(saved.name);
    expect(saved.blob!.type).toBe("video/mp4");
    expect(saved.blob!.size).toBe(1004);
  });

  it("a job resumed by id is followed without being posted again", async () => {
    const { fetchImpl, seen } = fakeServer({ [STATUS]: status("completed", 1), [FILE]: mp4([new Uint8Array(10)]) });
    await exportVideo({ resumeId: JOB }, "tok", { fetchImpl, pollMs: 1, save: () => {} });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([STATUS, FILE]);
  });

  it("a failed job rejects with the server's text; 404 is VideoJobGoneError; 410 on the file says it expired", async () => {
    const failed = fakeServer({
      [START]: () => json({ id: JOB }, 202),
      [STATUS]: [status("active", 0.5), status("failed", 0.5, "Video export failed: the video encoder stopped unexpectedly")],
    });
    await expect(exportVideo({ payload: payload() }, "tok", { fetchImpl: failed.fetchImpl, pollMs: 1 })).rejects.toThrow(
      new VideoExportError("Video export failed: the video encoder stopped unexpectedly"),
    );
    const gone = fakeServer({ [STATUS]: () => json({ error: VIDEO_TEXT.jobNotFound }, 404) });
    const err = await exportVideo({ resumeId: JOB }, "tok", { fetchImpl: gone.fetchImpl, pollMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoJobGoneError);
    expect((err as Error).message).toBe("Video export failed: Video export job not found");
    const expired = fakeServer({ [STATUS]: status("completed", 1), [FILE]: () => json({ error: VIDEO_TEXT.jobExpired }, 410) });
    await expect(exportVideo({ resumeId: JOB }, "tok", { fetchImpl: expired.fetchImpl, pollMs: 1 })).rejects.toThrow(
      "Video export failed: This video has expired; export it again",
    );
  });

  it("polls that cannot reach the server (a restart) are tried again, up to the outage limit", async () => {
    const down = () => Promise.reject(new TypeError("Failed to fetch"));
    const back = fakeServer({
      [STATUS]: [status("active", 0.2), down, () => json({ error: "Bad gateway" }, 502), status("active", 0.6), status("completed", 1)],
      [FILE]: mp4([new Uint8Array(5)]),
    });
    const result = await exportVideo({ resumeId: JOB }, "tok", { fetchImpl: back.fetchImpl, pollMs: 1, save: () => {} });
    expect(result.bytes).toBe(5);
    expect(back.seen.filter((r) => r.url.endsWith(JOB))).toHaveLength(5);

    // Each poll takes one second on a fake clock: after the first failed poll, failures go on
    // until 10 s have passed since it, then the last one is the export's error.
    let clock = 0;
    const tick = (r: Route): Route => (req) => {
      clock += 1_000;
      return r(req);
    };
    const never = fakeServer({ [STATUS]: [tick(status("active", 0.2)), tick(down)] });
    const err = exportVideo({ resumeId: JOB }, "tok", { fetchImpl: never.fetchImpl, pollMs: 1, outageMs: 10_000, now: () => clock });
    await expect(err).rejects.toThrow("Video export failed: Failed to fetch");
    expect(never.seen.length).toBe(1 + 11);
  });

  it("aborting stops polling with an AbortError", async () => {
    const controller = new AbortController();
    const { fetchImpl, seen } = fakeServer({
      [START]: () => json({ id: JOB }, 202),
      [STATUS]: () => {
        controller.abort();
        return status("active", 0.1)();
      },
    });
    const err = await exportVideo({ payload: payload() }, "tok", { fetchImpl, pollMs: 50, signal: controller.signal }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
    await new Promise((r) => setTimeout(r, 120));
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([START, STATUS]);
  });

  it("401 and 403 (on the start or a poll) give 'Authentication expired…' and ask for the session to be cleared", async () => {
    for (const code of [401, 403]) {
      for (const routes of [
        { [START]: () => json({ error: "whatever" }, code) } as Record<string, Route>,
        { [START]: () => json({ id: JOB }, 202), [STATUS]: () => json({ error: "whatever" }, code) },
      ]) {
        const { fetchImpl } = fakeServer(routes);
        const err = await exportVideo({ payload: payload() }, "tok", { fetchImpl, pollMs: 1 }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(VideoExportError);
        expect((err as VideoExportError).message).toBe(VIDEO_TEXT.authExpired);
        expect((err as VideoExportError).signOut).toBe(true);
      }
    }
  });

  it("a refused start: 'Video export failed: {message}' with the server's error, or the status", async () => {
    const bad = fakeServer({ [START]: () => json({ error: VIDEO_TEXT.verificationMismatch }, 400) });
    await expect(exportVideo({ payload: payload() }, "tok", { fetchImpl: bad.fetchImpl })).rejects.toThrow(VIDEO_TEXT.failed(VIDEO_TEXT.verificationMismatch));
    const bare = fakeServer({ [START]: () => new Response("oops", { status: 502, statusText: "Bad Gateway" }) });
    await expect(exportVideo({ payload: payload() }, "tok", { fetchImpl: bare.fetchImpl })).rejects.toThrow("Video export failed: 502 Bad Gateway");
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    await expect(exportVideo({ payload: payload() }, "tok", { fetchImpl: offline })).rejects.toThrow("Video export failed: Failed to fetch");
    const broken = fakeServer({
      [STATUS]: status("completed", 1),
      [FILE]: () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(c) {
              c.enqueue(new Uint8Array(10));
              c.error(new TypeError("network error"));
            },
          }),
        ),
    });
    await expect(exportVideo({ resumeId: JOB }, "tok", { fetchImpl: broken.fetchImpl, save: () => {} })).rejects.toThrow(
      "Video export failed: network error",
    );
  });
});

describe("cancel", () => {
  const CANCEL = `DELETE ${VIDEO_JOBS_PATH}/${JOB}`;

  it("sends DELETE with the token and X-Requested-With, kept alive, and says whether the server took it", async () => {
    const inits: RequestInit[] = [];
    const { fetchImpl, seen } = fakeServer({ [CANCEL]: [status("cancelled"), () => json({ error: VIDEO_TEXT.jobNotFound }, 404)] });
    const spy = ((url: string, init: RequestInit) => {
      inits.push(init);
      return fetchImpl(url, init);
    }) as unknown as typeof fetch;
    expect(await cancelVideoJob(JOB, "tok", { fetchImpl: spy })).toBe(true);
    expect(await cancelVideoJob(JOB, "tok", { fetchImpl: spy })).toBe(false);
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([CANCEL, CANCEL]);
    expect(seen[0].headers).toMatchObject({ Authorization: "Bearer tok", "X-Requested-With": "XMLHttpRequest" });
    expect(inits[0].keepalive).toBe(true);
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    expect(await cancelVideoJob(JOB, "tok", { fetchImpl: offline })).toBe(false);
  });

  it("a job cancelled elsewhere ends the export with 'Video export cancelled.'", async () => {
    const { fetchImpl, seen } = fakeServer({ [STATUS]: [status("active", 0.3), status("cancelled", 0.3)] });
    const err = await exportVideo({ resumeId: JOB }, "tok", { fetchImpl, pollMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VideoJobCancelledError);
    expect((err as Error).message).toBe("Video export cancelled.");
    expect(seen).toHaveLength(2);
  });

  it("a stop while the job is being queued still hands its id to onJob, then rejects with AbortError without polling", async () => {
    const controller = new AbortController();
    const { fetchImpl, seen } = fakeServer({
      [START]: () => {
        controller.abort(); // the user stops while the POST is on its way
        return json({ id: JOB }, 202);
      },
    });
    const jobs: string[] = [];
    const err = await exportVideo({ payload: payload() }, "tok", { fetchImpl, signal: controller.signal, onJob: (id) => jobs.push(id) }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
    expect(jobs).toEqual([JOB]);
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([START]);
  });
});

describe("the running job in sessionStorage", () => {
  it("is remembered, read back and forgotten; unreadable values are no job", () => {
    const map = new Map<string, string>();
    const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
    expect(rememberedJob(storage)).toBeNull();
    rememberJob(storage, JOB);
    expect(rememberedJob(storage)).toBe(JOB);
    rememberJob(storage, null);
    expect(map.has(RUNNING_JOB_KEY)).toBe(false);
    map.set(RUNNING_JOB_KEY, "{not json");
    expect(rememberedJob(storage)).toBeNull();
    map.set(RUNNING_JOB_KEY, JSON.stringify({ id: 5 }));
    expect(rememberedJob(storage)).toBeNull();
    expect(rememberedJob(null)).toBeNull();
  });
});
