// POST /api/video-export through app.request() with the system ffmpeg: the MP4 that comes back is
// read by ffprobe (one H.264 stream at the quality's size, one AAC stream of the requested
// length) and its audio, decoded back to a WAV, peaks at the channel's frequency; the waveform
// background draws the trace, the black one stays black. A client that leaves midway gets its
// ffmpeg killed and its working directory removed; at most two jobs run and two wait (429 beyond,
// with Retry-After). Who may export (401, 403 with the spec's text) and what is refused (400).
import { execFileSync } from "node:child_process";
import { requireBinary } from "../../../../api/platform/binaries";
import { once } from "node:events";
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseWavHeader } from "../../../../dsp/host/export/wav";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { MAX_SOUND_BODY_BYTES } from "../../../../dsp/host/schema/preset";
import { VIDEO_TEXT, videoFileName, type VideoExportPayload } from "../../../../api/rules/video";
import { ffmpegArgs } from "../../../../api/services/video-export";
import { peakFrequency } from "../../dsp/assembly/helpers";
import { bodyOf, makeTestApp, signUp, type TestEnv, signUpPro } from "../helpers";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const ADMIN = "boss@example.com";
const TONE_HZ = 440;

let env: TestEnv;
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "video-test-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
beforeEach(async () => {
  env = await makeTestApp({ adminEmails: [ADMIN] });
});
afterEach(async () => {
  await env.app.services.video.idle();
  await env.close();
});

const videoTmp = () => env.app.services.video.options.tmpDir;
const tmpEntries = () => (existsSync(videoTmp()) ? readdirSync(videoTmp()) : []);

async function adminToken(): Promise<string> {
  const { token } = await signUp(env, ADMIN);
  await env.db.updateTable("users").set({ admin_override: 1 }).where("email", "=", ADMIN).execute();
  return token;
}

const proToken = (email = "pro@example.com") => signUpPro(env, email);

/** A 440 Hz sine on channel 1, the other channels off, no effects. */
function payload(overrides: Partial<VideoExportPayload> = {}): VideoExportPayload {
  const state = defaultAudioState();
  const frequencies = state.channels.map((c) => (c.id === 1 ? { ...c, frequency: TONE_HZ } : { ...c, frequency: 0, enabled: false }));
  return {
    backgroundType: "black",
    quality: "720p",
    duration: 3,
    frequencies,
    effects: state.effects,
    verification: { enabledChannelCount: 1, enabledEffectCount: 0, timestamp: env.clock.ms },
    ...overrides,
  };
}

function exportVideo(
  body: unknown,
  token?: string,
  opts: { signal?: AbortSignal; requestedWith?: string | null } = {},
): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.requestedWith !== null) headers["X-Requested-With"] = opts.requestedWith ?? "XMLHttpRequest";
  return Promise.resolve(
    env.app.request("/api/video-export", {
      method: "POST",
      headers,
      body: typeof body === "string" ? body : JSON.stringify(body),
      signal: opts.signal,
    }),
  );
}

async function saveMp4(res: Response, name: string): Promise<string> {
  const file = join(scratch, name);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

interface ProbedStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
}

function probe(file: string): ProbedStream[] {
  const out = execFileSync(requireBinary("ffprobe").path, [
    "-v", "error",
    "-show_entries", "stream=codec_type,codec_name,width,height,pix_fmt,sample_rate,channels,duration",
    "-of", "json", file,
  ]);
  return (JSON.parse(out.toString("utf8")) as { streams: ProbedStream[] }).streams;
}

/** The MP4's AAC track decoded back to a 16-bit WAV, as the left channel in floats. */
function decodedAudio(file: string): { left: Float32Array; right: Float32Array; sampleRate: number } {
  const wav = join(scratch, `${Date.now()}-decoded.wav`);
  execFileSync(requireBinary("ffmpeg").path, ["-v", "error", "-i", file, "-map", "0:a", "-c:a", "pcm_s16le", "-bitexact", "-map_metadata", "-1", "-f", "wav", "-y", wav]);
  const bytes = new Uint8Array(readFileSync(wav));
  const info = parseWavHeader(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.dataBytes);
  const left = new Float32Array(info.frames);
  const right = new Float32Array(info.frames);
  for (let i = 0; i < info.frames; i++) {
    left[i] = view.getInt16(i * info.blockAlign, true) / 32768;
    right[i] = view.getInt16(i * info.blockAlign + 2, true) / 32768;
  }
  return { left, right, sampleRate: info.sampleRate };
}

/** One RGB frame of the video at `seconds`. */
function frameAt(file: string, seconds: number): Uint8Array {
  return new Uint8Array(
    execFileSync(requireBinary("ffmpeg").path, ["-v", "error", "-ss", String(seconds), "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], {
      maxBuffer: 64 << 20,
    }),
  );
}

/** Pixels bright in blue, as the waveform trace (#7dd3fc) is. */
function tracePixels(rgb: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < rgb.length; i += 3) if (rgb[i + 2] > 150) n++;
  return n;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("the MP4", () => {
  it("3 s at 720p on black: one H.264 stream at 1280x720 and one AAC stream of 3 s peaking at the channel's frequency", async () => {
    const token = await adminToken();
    const res = await exportVideo(payload(), token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${videoFileName(env.clock.now(), true)}"`);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="swizard-video-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4"$/);
    const file = await saveMp4(res, "black.mp4");

    const streams = probe(file);
    expect(streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
    const video = streams.find((s) => s.codec_type === "video")!;
    const audio = streams.find((s) => s.codec_type === "audio")!;
    expect(video).toMatchObject({ codec_name: "h264", width: 1280, height: 720, pix_fmt: "yuv420p" });
    expect(audio).toMatchObject({ codec_name: "aac", sample_rate: "48000", channels: 2 });
    expect(Number(audio.duration)).toBeGreaterThan(2.95);
    expect(Number(audio.duration)).toBeLessThan(3.1);
    expect(Number(video.duration)).toBeGreaterThan(2.9);
    expect(Number(video.duration)).toBeLessThan(3.1);

    const { left, sampleRate } = decodedAudio(file);
    expect(sampleRate).toBe(48000);
    expect(left.length / sampleRate).toBeGreaterThan(2.99);
    expect(left.length / sampleRate).toBeLessThan(3.06);
    // 65536 frames (1.4 s) from the steady middle, away from the fade-in and fade-out.
    const middle = left.subarray(48000 * 0.5, 48000 * 0.5 + 65536);
    expect(Math.abs(peakFrequency(middle, sampleRate) - TONE_HZ)).toBeLessThan(0.5);

    const frame = frameAt(file, 1.5);
    expect(frame.length).toBe(1280 * 720 * 3);
    expect(Math.max(...frame.subarray(0, 1 << 16))).toBeLessThan(24); // black, give or take coding noise
    expect(tracePixels(frame)).toBe(0);

    await env.app.services.video.idle();
    expect(tmpEntries()).toEqual([]);
    expect(env.app.services.video.pids).toEqual([]);
  });

  it("black_waveform at 1080p: 1920x1080 with the trace drawn, audio at the channel's frequency", async () => {
    const token = await adminToken();
    const res = await exportVideo(payload({ backgroundType: "black_waveform", quality: "1080p", duration: 2 }), token);
    expect(res.status).toBe(200);
    const file = await saveMp4(res, "waveform.mp4");
    const streams = probe(file);
    expect(streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", width: 1920, height: 1080, pix_fmt: "yuv420p" });
    const audio = streams.find((s) => s.codec_type === "audio")!;
    expect(audio.codec_name).toBe("aac");
    expect(Math.abs(Number(audio.duration) - 2)).toBeLessThan(0.1);
    const { left, sampleRate } = decodedAudio(file);
    expect(Math.abs(peakFrequency(left.subarray(24000, 24000 + 32768), sampleRate) - TONE_HZ)).toBeLessThan(1);
    // The trace of a 440 Hz tone crosses the whole width: thousands of bright pixels.
    expect(tracePixels(frameAt(file, 1))).toBeGreaterThan(1920 * 2);
    await env.app.services.video.idle();
    expect(tmpEntries()).toEqual([]);
  });

  it("a session timeline plays in the video: 440 Hz jumps to 880 Hz at 1.5 s", async () => {
    const token = await adminToken();
    const res = await exportVideo(payload({ timeline: { steps: [{ at: 1.5, ramp: "hold", channels: [{ id: 1, frequency: 880 }] }] } }), token);
    expect(res.status).toBe(200);
    const { left, sampleRate } = decodedAudio(await saveMp4(res, "timeline.mp4"));
    expect(Math.abs(peakFrequency(left.subarray(0.3 * sampleRate, 0.3 * sampleRate + 32768), sampleRate) - 440)).toBeLessThan(1);
    expect(Math.abs(peakFrequency(left.subarray(1.7 * sampleRate, 1.7 * sampleRate + 32768), sampleRate) - 880)).toBeLessThan(1);
  });

  it("a session of voices plays in the video, ear by ear: 200+10/50 is 205 Hz left and 195 Hz right", async () => {
    const token = await adminToken();
    const off = payload().frequencies.map((c) => ({ ...c, enabled: false }));
    const res = await exportVideo(
      payload({ frequencies: off, verification: { enabledChannelCount: 0, enabledEffectCount: 0, timestamp: env.clock.ms }, voices: [{ kind: "binaural", carrier: 200, beat: 10, amp: 50 }] }),
      token,
    );
    expect(res.status).toBe(200);
    const { left, right, sampleRate } = decodedAudio(await saveMp4(res, "voices.mp4"));
    expect(Math.abs(peakFrequency(left.subarray(0.5 * sampleRate, 0.5 * sampleRate + 65536), sampleRate) - 205)).toBeLessThan(0.5);
    expect(Math.abs(peakFrequency(right.subarray(0.5 * sampleRate, 0.5 * sampleRate + 65536), sampleRate) - 195)).toBeLessThan(0.5);
  });

  it("the listener's levels shape the video's sound as they do Export WAV: fade-in and ear balance", async () => {
    const token = await adminToken();
    const rms = (x: Float32Array) => Math.sqrt(x.reduce((a, v) => a + v * v, 0) / x.length);
    const db = (a: number, b: number) => 20 * Math.log10(a / b);
    const decoded = async (levels: VideoExportPayload["levels"], name: string) => {
      const res = await exportVideo(payload({ duration: 3, ...(levels ? { levels } : {}) }), token);
      expect(res.status).toBe(200);
      return decodedAudio(await saveMp4(res, name));
    };
    const at = (x: Float32Array, from: number) => x.subarray(from * 48000, from * 48000 + 4800);
    // Without levels (a script): the engine's neutral 5 ms fade-in, full level at 0.1 s.
    const plain = (await decoded(undefined, "plain.mp4")).left;
    expect(Math.abs(db(rms(at(plain, 0.1)), rms(at(plain, 2.5))))).toBeLessThan(1);
    // A 2 s smoothstep fade-in: at 0.1 s the level is about 0.7 % (-43 dB), full from 2 s.
    const faded = (await decoded({ fadeIn: 2, limiter: true, balance: 0 }, "faded.mp4")).left;
    expect(db(rms(at(faded, 0.1)), rms(at(faded, 2.5)))).toBeLessThan(-30);
    expect(Math.abs(db(rms(at(faded, 2.5)), rms(at(plain, 2.5))))).toBeLessThan(0.5);
    // Balance +6 dB turns the left ear down 6 dB.
    const balanced = (await decoded({ fadeIn: 0, limiter: true, balance: 6 }, "balanced.mp4")).left;
    expect(db(rms(at(balanced, 2.5)), rms(at(plain, 2.5)))).toBeCloseTo(-6, 0);
    // Values out of range are brought into it (a 600 s fade-in is 30 s), not refused.
    const long = await exportVideo(payload({ levels: { fadeIn: 600, limiter: true, balance: 0 } }), token);
    expect(long.status).toBe(200);
    await long.arrayBuffer();
    await env.app.services.video.idle();
    expect(tmpEntries()).toEqual([]);
  });

  it("ffmpeg gets an argument array of fixed options, the sizes and the duration only", () => {
    const args = ffmpegArgs({ background: "black_waveform", quality: "1080p", duration: 2.5 });
    expect(args).toContain("frag_keyframe+empty_moov+default_base_moof");
    expect(args.join(" ")).toMatch(/showwaves=s=960x540:.*scale=1920:1080/);
    expect(ffmpegArgs({ background: "black", quality: "720p", duration: 2.5 }).join(" ")).toContain("color=c=black:s=1280x720:r=2:d=2.5");
  });
});

describe("jobs", () => {
  it("a client that leaves midway gets its ffmpeg killed and its working directory removed", async () => {
    const token = await adminToken();
    const client = new AbortController();
    // Ten minutes at 1080p would take minutes to encode: the export is surely still running.
    const res = await exportVideo(payload({ backgroundType: "black_waveform", quality: "1080p", duration: 600 }), token, { signal: client.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    const [pid] = env.app.services.video.pids;
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(true);
    expect(tmpEntries()).toHaveLength(1); // the job's private working directory

    client.abort();
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return "ended";
      })(),
    ).rejects.toBeDefined();
    await env.app.services.video.idle();
    expect(env.app.services.video.pids).toEqual([]);
    expect(alive(pid)).toBe(false);
    expect(existsSync(`/proc/${pid}`)).toBe(false);
    expect(tmpEntries()).toEqual([]);
    expect(env.app.services.video.running).toBe(0);
  });

  it("over a real HTTP connection, a client that closes its socket gets its ffmpeg killed", async () => {
    const token = await adminToken();
    const server = createAdaptorServer({ fetch: env.app.fetch });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
    try {
      const { port } = server.address() as AddressInfo;
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/api/video-export",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "X-Requested-With": "XMLHttpRequest" },
      });
      req.on("error", () => {});
      req.end(JSON.stringify(payload({ backgroundType: "black_waveform", duration: 600 })));
      const [res] = (await once(req, "response")) as [IncomingMessage];
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("video/mp4");
      await once(res, "data");
      const [pid] = env.app.services.video.pids;
      expect(alive(pid)).toBe(true);
      req.destroy();
      await env.app.services.video.idle();
      expect(alive(pid)).toBe(false);
      expect(tmpEntries()).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("cancelling the response stream kills ffmpeg as well", async () => {
    const token = await adminToken();
    const res = await exportVideo(payload({ duration: 600 }), token);
    const reader = res.body!.getReader();
    await reader.read();
    const [pid] = env.app.services.video.pids;
    await reader.cancel();
    await env.app.services.video.idle();
    expect(alive(pid)).toBe(false);
    expect(tmpEntries()).toEqual([]);
  });

  it("two run, two wait, the fifth gets 429 with Retry-After; a waiting client that leaves frees its place", async () => {
    const token = await adminToken();
    const video = env.app.services.video;
    const clients = Array.from({ length: 4 }, () => new AbortController());
    const answers = clients.map((c) => exportVideo(payload({ duration: 600 }), token, { signal: c.signal }));
    answers.forEach((a) => a.catch(() => {}));
    await expect.poll(() => [video.running, video.queued]).toEqual([2, 2]);
    await expect.poll(() => video.pids.length).toBe(2);

    const busy = await exportVideo(payload(), token);
    expect(busy.status).toBe(429);
    expect(busy.headers.get("retry-after")).toBe("30");
    expect(await bodyOf(busy)).toEqual({ error: VIDEO_TEXT.busy(30) });

    clients[3].abort(); // a waiting client leaves
    await expect.poll(() => video.queued).toBe(1);
    clients[0].abort(); // a running one leaves: the next waiting job takes its slot
    await expect.poll(() => [video.running, video.queued]).toEqual([2, 0]);
    expect((await answers[2]).status).toBe(200);

    // The handlers have returned: a collection now must not cut the clients' aborts off from their
    // exports (it did, now and then in CI: the two left running made video.idle() hang).
    for (let i = 0; i < 3; i++) {
      collectGarbage();
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const c of clients) c.abort();
    await video.idle();
    expect(video.pids).toEqual([]);
    expect(tmpEntries()).toEqual([]);
  });

  it("without ffmpeg the export answers 503 and leaves nothing behind", async () => {
    await env.close();
    env = await makeTestApp({ adminEmails: [ADMIN] }, { video: { ffmpegPath: join(scratch, "no-ffmpeg-here") } });
    const res = await exportVideo(payload(), await adminToken());
    expect(res.status).toBe(503);
    expect(await bodyOf(res)).toEqual({ error: VIDEO_TEXT.unavailable });
    await env.app.services.video.idle();
    expect(tmpEntries()).toEqual([]);
    expect(env.app.services.video.running).toBe(0);
  });
});

describe("who may export", () => {
  it("401 without a session or with a bad token", async () => {
    for (const token of [undefined, "not-a-jwt"]) {
      const res = await exportVideo(payload(), token);
      expect(res.status).toBe(401);
      expect(typeof (await bodyOf(res)).error).toBe("string");
    }
  });

  it("403 with the spec's text for free and demo accounts and an admin with the override off", async () => {
    const free = await signUp(env, "free@example.com");
    const demo = await signUp(env, "demo@example.com");
    expect((await env.app.request("/api/demo/start", { method: "POST", headers: { Authorization: `Bearer ${demo.token}`, "Content-Type": "application/json" }, body: "{}" })).status).toBe(200);
    const admin = await signUp(env, ADMIN); // override off
    for (const token of [free.token, demo.token, admin.token]) {
      const res = await exportVideo(payload(), token);
      expect(res.status).toBe(403);
      expect(await bodyOf(res)).toEqual({ error: "Video export requires a Pro subscription. Upgrade now to create videos!" });
    }
  });

  it("a Pro account exports (the Monthly and Commercial cards promise MP4), and the MP4 counts against its plan", async () => {
    const token = await proToken();
    const res = await exportVideo(payload(), token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    await res.arrayBuffer();
    const [count] = await env.db.selectFrom("export_counts").select("used").execute();
    expect(count).toEqual({ used: 1 });
    const adminWithPlan = await proToken(ADMIN); // a paying admin with the override off: its plan
    const res2 = await exportVideo(payload(), adminWithPlan);
    expect(res2.status).toBe(200);
    await res2.arrayBuffer();
  });
});

describe("what is refused", () => {
  it("400 without X-Requested-With", async () => {
    const token = await adminToken();
    for (const requestedWith of [null, "  "]) {
      const res = await exportVideo(payload(), token, { requestedWith });
      expect(res.status).toBe(400);
      expect(await bodyOf(res)).toEqual({ error: VIDEO_TEXT.headerMissing });
    }
  });

  it("400 with a clear text for bad payloads", async () => {
    const token = await adminToken();
    const p = payload();
    const cases: [unknown, string][] = [
      ["{not json", "Request body must be valid JSON"],
      [[], VIDEO_TEXT.bodyInvalid],
      [{ ...p, backgroundType: "white" }, VIDEO_TEXT.backgroundInvalid],
      [{ ...p, backgroundType: undefined }, VIDEO_TEXT.backgroundInvalid],
      [{ ...p, quality: "4k" }, VIDEO_TEXT.qualityInvalid],
      [{ ...p, duration: "3" }, VIDEO_TEXT.durationInvalid],
      [{ ...p, duration: 0.5 }, "Please set a duration of at least 1 second"],
      [{ ...p, duration: 0 }, "Please set a duration of at least 1 second"],
      [{ ...p, duration: 3601 }, "Please set a duration of at most 1 hour for video export"],
      [{ ...p, verification: undefined }, VIDEO_TEXT.verificationInvalid],
      [{ ...p, verification: { ...p.verification, enabledChannelCount: 1.5 } }, VIDEO_TEXT.verificationInvalid],
      [{ ...p, verification: { ...p.verification, enabledChannelCount: 2 } }, VIDEO_TEXT.verificationMismatch],
      [{ ...p, verification: { ...p.verification, enabledEffectCount: 1 } }, VIDEO_TEXT.verificationMismatch],
      [{ ...p, frequencies: "440" }, "Invalid video settings: frequencies must be a list of channels"],
      [{ ...p, frequencies: [{ id: 1, frequency: "loud" }] }, "Invalid video settings: frequencies[0].frequency must be a number"],
      [{ ...p, effects: undefined }, "Invalid video settings: effects is missing"],
      [{ ...p, frequencies: undefined }, "Invalid video settings: frequencies is missing"],
      [{ ...p, timeline: { steps: [{ at: "later" }] } }, "Invalid video settings: timeline.steps[0].at must be a number"],
      [
        { ...p, frequencies: p.frequencies.map((c) => ({ ...c, enabled: false })), verification: { ...p.verification, enabledChannelCount: 0 } },
        "Please enable at least one frequency before exporting video",
      ],
    ];
    for (const [body, error] of cases) {
      const res = await exportVideo(body, token);
      expect({ body, status: res.status, answer: await bodyOf(res) }).toEqual({ body, status: 400, answer: { error } });
    }
    expect(tmpEntries()).toEqual([]);
  });

  it("the counts are checked against the normalised settings: an enabled effect is counted", async () => {
    const token = await adminToken();
    const p = payload({ duration: 1 });
    p.effects = { ...p.effects, tremolo: { ...p.effects.tremolo, enabled: true } };
    const wrong = await exportVideo(p, token);
    expect(wrong.status).toBe(400);
    const right = await exportVideo({ ...p, verification: { ...p.verification, enabledEffectCount: 1 } }, token);
    expect(right.status).toBe(200);
    expect((await right.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it("takes a long timeline's body (up to 5 MiB, MAX_SOUND_BODY_BYTES) and 413 beyond", async () => {
    const token = await adminToken();
    const p = payload();
    // 200 KiB is read and checked: the wrong count is answered, not the size.
    const long = await exportVideo({ ...p, verification: { ...p.verification, enabledEffectCount: 1 }, padding: "x".repeat(200 * 1024) }, token);
    expect([long.status, await bodyOf(long)]).toEqual([400, { error: VIDEO_TEXT.verificationMismatch }]);
    const res = await exportVideo({ ...p, padding: "x".repeat(MAX_SOUND_BODY_BYTES) }, token);
    expect(res.status).toBe(413);
  });
});
