// Export Video's client (web/video/video-export.ts) with a fake fetch: the spec's checks before
// sending (missing token, Pro, no channel, under 1 s) and the spec's messages after (401/403 ask
// for the session to be cleared, other failures 'Video export failed: {message}'); the payload
// carries all channels, the effects and counts that the server's own count agrees with; a
// streamed MP4 is collected and saved as swizard-video-{timestamp}.mp4.

import { describe, expect, it } from "vitest";
import { defaultAudioState } from "../../../dsp/host/state";
import { VIDEO_TEXT, verificationCounts } from "../../../api/rules/video";
import { buildPayload, exportVideo, precheck, VideoExportError, VIDEO_EXPORT_PATH } from "../../../web/video/video-export";

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

function fakeFetch(res: Response, seen: { url?: string; init?: RequestInit } = {}): typeof fetch {
  return (async (url: string, init: RequestInit) => {
    seen.url = url;
    seen.init = init;
    return res;
  }) as unknown as typeof fetch;
}

const payload = () => buildPayload(state(), { background: "black", quality: "720p", duration: 3 });

describe("after sending", () => {
  it("streams the MP4 into a download named swizard-video-{timestamp}.mp4", async () => {
    const seen: { url?: string; init?: RequestInit } = {};
    const chunks = [new Uint8Array([0, 0, 0, 24]), new Uint8Array(1000)];
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const x of chunks) c.enqueue(x);
        c.close();
      },
    });
    const saved: { blob?: Blob; name?: string } = {};
    const progress: number[] = [];
    const result = await exportVideo(payload(), "tok", {
      fetchImpl: fakeFetch(new Response(body, { status: 200, headers: { "Content-Type": "video/mp4" } }), seen),
      save: (blob, name) => Object.assign(saved, { blob, name }),
      onBytes: (n) => progress.push(n),
    });
    expect(seen.url).toBe(VIDEO_EXPORT_PATH);
    const headers = seen.init!.headers as Record<string, string>;
    expect(headers.Authorization).toBe("Bearer tok");
    expect(headers["X-Requested-With"]).toBe("XMLHttpRequest");
    expect(JSON.parse(seen.init!.body as string)).toEqual(JSON.parse(JSON.stringify(payload()), (k, v) => (k === "timestamp" ? expect.any(Number) : v)));
    expect(result.bytes).toBe(1004);
    expect(progress).toEqual([4, 1004]);
    expect(saved.name).toMatch(/^swizard-video-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d\.mp4$/);
    expect(saved.blob!.type).toBe("video/mp4");
    expect(saved.blob!.size).toBe(1004);
  });

  it("401 and 403 give 'Authentication expired…' and ask for the session to be cleared", async () => {
    for (const status of [401, 403]) {
      const res = new Response(JSON.stringify({ error: "whatever" }), { status });
      const err = await exportVideo(payload(), "tok", { fetchImpl: fakeFetch(res), save: () => {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VideoExportError);
      expect((err as VideoExportError).message).toBe(VIDEO_TEXT.authExpired);
      expect((err as VideoExportError).signOut).toBe(true);
    }
  });

  it("other failures: 'Video export failed: {message}' with the server's error, or the status", async () => {
    const busy = new Response(JSON.stringify({ error: "The video renderer is busy" }), { status: 429 });
    await expect(exportVideo(payload(), "tok", { fetchImpl: fakeFetch(busy) })).rejects.toThrow("Video export failed: The video renderer is busy");
    const bare = new Response("oops", { status: 502, statusText: "Bad Gateway" });
    await expect(exportVideo(payload(), "tok", { fetchImpl: fakeFetch(bare) })).rejects.toThrow("Video export failed: 502 Bad Gateway");
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    await expect(exportVideo(payload(), "tok", { fetchImpl: offline })).rejects.toThrow("Video export failed: Failed to fetch");
    const broken = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(10));
        c.error(new TypeError("network error"));
      },
    });
    await expect(exportVideo(payload(), "tok", { fetchImpl: fakeFetch(new Response(broken)), save: () => {} })).rejects.toThrow(
      "Video export failed: network error",
    );
  });
});
