// Voice recordings (api/routes/recordings.ts): a free account is refused with the plan text (403),
// a Monthly account uploads, lists, fetches and deletes its own; another account's recording is
// 404 to every route; the WAV format and the 10-minute length are checked from the header; a body
// over the limit is 413; a shared preset that lists a recording lets its link fetch the audio, and
// only then.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RECORDING_TEXT as T, RECORDINGS_PER_ACCOUNT } from "../../../../api/rules/recordings";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { requireBinary } from "../../../../api/platform/binaries";
import type { VideoExportPayload } from "../../../../api/rules/video";
import { parseWavHeader } from "../../../../dsp/host/export/wav";
import { peakFrequency } from "../../dsp/assembly/helpers";
import { bodyOf, getWith, makeTestApp, postJson, signUp, signUpPro, type TestEnv } from "../helpers";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { S3_BUCKET, startLocalS3 } from "../s3-server";

let env: TestEnv;
beforeEach(async () => {
  env = await makeTestApp({ adminEmails: ["boss@example.com"], maxRecordingBytes: 1_000_000 });
});
afterEach(async () => {
  await env.close();
});

/** A 16-bit PCM WAV at `rate` Hz: `seconds` of a 440 Hz tone (or a header claiming `claimFrames`). */
function wav(seconds: number, opts: { rate?: number; channels?: number; bits?: number; claimFrames?: number; hz?: number } = {}): Uint8Array<ArrayBuffer> {
  const rate = opts.rate ?? 48000, channels = opts.channels ?? 1, bits = opts.bits ?? 16;
  const frames = Math.round(seconds * rate);
  const align = (channels * bits) / 8;
  const dataBytes = (opts.claimFrames ?? frames) * align;
  const out = new Uint8Array(44 + frames * align);
  const v = new DataView(out.buffer);
  const tag = (o: number, t: string) => [...t].forEach((ch, i) => v.setUint8(o + i, ch.charCodeAt(0)));
  tag(0, "RIFF");
  v.setUint32(4, 36 + dataBytes, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, channels, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * align, true);
  v.setUint16(32, align, true);
  v.setUint16(34, bits, true);
  tag(36, "data");
  v.setUint32(40, dataBytes, true);
  if (bits === 16) for (let i = 0; i < frames * channels; i++) v.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * (opts.hz ?? 440) * Math.floor(i / channels)) / rate) * 8000), true);
  return out;
}

function upload(body: Uint8Array<ArrayBuffer>, token?: string, name = "Take 1"): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "audio/wav", "Content-Length": String(body.byteLength) };
  if (token) headers.Authorization = `Bearer ${token}`;
  return Promise.resolve(env.app.request(`/api/recordings?name=${encodeURIComponent(name)}`, { method: "POST", headers, body }));
}

function del(path: string, token: string): Promise<Response> {
  return Promise.resolve(env.app.request(path, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } }));
}

const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".wav")) : []);

describe("voice recordings API", () => {
  it("refuses a free account with the plan text, and a visitor with 401", async () => {
    const { token } = await signUp(env, "free@example.com");
    const res = await upload(wav(1), token);
    expect(res.status).toBe(403);
    expect(await bodyOf(res)).toEqual({ error: T.needsPlan });
    expect(T.needsPlan).toBe("Voice recording requires a Monthly or Commercial plan. Upgrade now to record your voice!");
    expect((await upload(wav(1))).status).toBe(401);
    // A One Day Pass does not include it either.
    const day = await signUp(env, "day@example.com");
    const now = env.clock.now().toISOString();
    await env.db
      .insertInto("subscriptions")
      .values({ id: "s-day", user_id: day.userId, plan_name: "One Day Pass", status: "active", current_period_end: new Date(env.clock.ms + 86_400_000).toISOString(), created_at: now, updated_at: now })
      .execute();
    expect((await upload(wav(1), day.token)).status).toBe(403);
  });

  it("lets a Monthly account upload, list, fetch and delete its own recording", async () => {
    const token = await signUpPro(env);
    const file = wav(2);
    const res = await upload(file, token, "Morning words");
    expect(res.status).toBe(201);
    const { recording } = (await bodyOf(res)) as { recording: Record<string, unknown> };
    expect(recording).toMatchObject({ name: "Morning words", duration: 2, channels: 1, sampleRate: 48000, bytes: file.byteLength });
    const id = recording.id as string;

    const list = await bodyOf(await getWith(env, "/api/recordings", token));
    expect(list.recordings).toEqual([recording]);
    expect((await bodyOf(await getWith(env, `/api/recordings/${id}`, token))).recording).toEqual(recording);

    const audio = await getWith(env, `/api/recordings/${id}/audio`, token);
    expect(audio.status).toBe(200);
    expect(audio.headers.get("content-type")).toBe("audio/wav");
    expect(new Uint8Array(await audio.arrayBuffer())).toEqual(file);
    expect(filesIn(join(env.dir, "files"))).toHaveLength(1);

    expect((await del(`/api/recordings/${id}`, token)).status).toBe(204);
    expect((await bodyOf(await getWith(env, "/api/recordings", token))).recordings).toEqual([]);
    expect((await getWith(env, `/api/recordings/${id}/audio`, token)).status).toBe(404);
    expect(filesIn(join(env.dir, "files"))).toHaveLength(0);
  });

  it("answers 404 for another account's recording on every route", async () => {
    const owner = await signUpPro(env, "owner@example.com");
    const other = await signUpPro(env, "other@example.com");
    const { recording } = (await bodyOf(await upload(wav(1), owner))) as { recording: { id: string } };
    const id = recording.id;
    expect((await getWith(env, `/api/recordings/${id}`, other)).status).toBe(404);
    const audio = await getWith(env, `/api/recordings/${id}/audio`, other);
    expect(audio.status).toBe(404);
    expect(await bodyOf(audio)).toEqual({ error: T.notFound });
    expect((await del(`/api/recordings/${id}`, other)).status).toBe(404);
    expect((await bodyOf(await getWith(env, "/api/recordings", other))).recordings).toEqual([]);
    // Still there for its owner.
    expect((await getWith(env, `/api/recordings/${id}/audio`, owner)).status).toBe(200);
    expect((await getWith(env, "/api/recordings/not-a-uuid", owner)).status).toBe(404);
  });

  it("refuses a body over the limit with 413 and keeps nothing", async () => {
    const token = await signUpPro(env);
    const res = await upload(wav(11), token); // 1.06 MB, the test limit is 1 MB
    expect(res.status).toBe(413);
    expect(await bodyOf(res)).toEqual({ error: T.tooLarge(1_000_000) });
    // A chunked body (no Content-Length) is cut off while it streams.
    const big = wav(11);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let o = 0; o < big.byteLength; o += 65536) c.enqueue(big.subarray(o, o + 65536));
        c.close();
      },
    });
    const chunked = await env.app.request("/api/recordings?name=big", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "audio/wav" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await bodyOf(await getWith(env, "/api/recordings", token))).recordings).toEqual([]);
    expect(filesIn(join(env.dir, "files"))).toHaveLength(0);
  });

  it("checks the format and the 10-minute length from the header", async () => {
    const token = await signUpPro(env);
    expect(await bodyOf(await upload(wav(1, { rate: 44100 }), token))).toEqual({ error: T.badFormat });
    expect((await upload(wav(0.5, { bits: 8 }), token)).status).toBe(400);
    expect((await upload(new TextEncoder().encode("not a wav file at all"), token)).status).toBe(400);
    // A header that claims more data than was sent.
    expect((await upload(wav(1, { claimFrames: 96000 }), token)).status).toBe(400);
    // Stereo is kept too.
    expect((await upload(wav(1, { channels: 2 }), token)).status).toBe(201);
    // Longer than 10 minutes (a header claiming it; the limit is raised for the body).
    const long = await makeTestApp({ maxRecordingBytes: 200_000_000 });
    try {
      const t = await signUpPro(long);
      const body = wav(600.5);
      const res = await long.app.request("/api/recordings?name=long", {
        method: "POST",
        headers: { Authorization: `Bearer ${t}`, "Content-Type": "audio/wav", "Content-Length": String(body.byteLength) },
        body,
      });
      expect(res.status).toBe(413);
      expect(await bodyOf(res)).toEqual({ error: T.tooLong });
    } finally {
      await long.close();
    }
    expect((await upload(wav(1), token, "")).status).toBe(400);
  });

  it("lets an admin with the override record, and caps the recordings an account keeps", async () => {
    const { token } = await signUp(env, "boss@example.com");
    expect((await upload(wav(0.1), token)).status).toBe(403); // override off: no unlimited access
    await env.db.updateTable("users").set({ admin_override: 1 }).where("email", "=", "boss@example.com").execute();
    // Uploads are limited per account too: past the 30th in 10 minutes, the 429's Retry-After says
    // when the next one is taken.
    let limited = 0;
    for (let i = 0; i < RECORDINGS_PER_ACCOUNT; i++) {
      let res = await upload(wav(0.01), token, `t${i}`);
      if (res.status === 429) {
        limited++;
        expect(await bodyOf(res)).toEqual({ error: expect.stringMatching(/try again/i) });
        env.clock.advance(Number(res.headers.get("retry-after")) * 1000);
        res = await upload(wav(0.01), token, `t${i}`);
      }
      expect(res.status).toBe(201);
    }
    expect(limited).toBeGreaterThan(0);
    const res = await upload(wav(0.01), token);
    expect(res.status).toBe(409);
    expect(await bodyOf(res)).toEqual({ error: T.tooMany });
  });

  it("lets a shared preset's link fetch a recording it lists as shared, and nothing else", async () => {
    const token = await signUpPro(env);
    const ids: string[] = [];
    for (const n of ["shared", "private"]) ids.push(((await bodyOf(await upload(wav(0.5), token, n))) as { recording: { id: string } }).recording.id);
    const placement = (id: string, shared: boolean) => ({ id, name: "x", trimStart: 0, trimEnd: 0, gainDb: -3, at: 10, every: 0, loop: false, shared });
    const data = { ...defaultAudioState(), recordings: [placement(ids[0], true), placement(ids[1], false)] };
    const created = await postJson(env, "/api/presets/user", { name: "With my voice", data }, token);
    expect(created.status).toBe(201);
    const presetId = (await bodyOf(created)).id as string;
    // The preset keeps only the ticked recording.
    const preset = (await bodyOf(await getWith(env, `/api/presets/${presetId}`))) as { data: { recordings?: { id: string }[] } };
    expect(preset.data.recordings?.map((r) => r.id)).toEqual([ids[0]]);
    // Anyone with the link fetches that one; not the other, not with another preset.
    expect((await getWith(env, `/api/recordings/${ids[0]}/audio?preset=${presetId}`)).status).toBe(200);
    expect((await getWith(env, `/api/recordings/${ids[1]}/audio?preset=${presetId}`)).status).toBe(404);
    expect((await getWith(env, `/api/recordings/${ids[0]}/audio?preset=nope`)).status).toBe(404);
    // A preset by someone else listing the same id gets nothing.
    const thief = await signUpPro(env, "thief@example.com");
    const theirs = await postJson(env, "/api/presets/user", { name: "Not mine", data: { ...defaultAudioState(), recordings: [placement(ids[1], true)] } }, thief);
    expect((await getWith(env, `/api/recordings/${ids[1]}/audio?preset=${(await bodyOf(theirs)).id as string}`)).status).toBe(404);
    // Without a preset, a visitor is 401.
    expect((await getWith(env, `/api/recordings/${ids[0]}/audio`)).status).toBe(401);
  });
});

describe("voice recordings: what an account keeps, under concurrency", () => {
  /** `n` recordings of the account, as rows (their files are not needed to count them). */
  async function keep(userId: string, n: number, bytes = 1000): Promise<void> {
    const now = env.clock.now().toISOString();
    const rows = Array.from({ length: n }, (_, i) => ({
      id: crypto.randomUUID(), user_id: userId, name: `kept ${i}`, file_key: `${crypto.randomUUID()}.wav`, bytes, frames: 100, channels: 1, sample_rate: 48000, created_at: now,
    }));
    await env.db.insertInto("recordings").values(rows).execute();
  }
  const userIdOf = async (email: string) => (await env.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  const incoming = () => {
    const dir = join(env.dir, "files", ".incoming");
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  it("admits exactly one of 20 parallel uploads at 49 recordings", async () => {
    const token = await signUpPro(env);
    await keep(await userIdOf("pro@example.com"), RECORDINGS_PER_ACCOUNT - 1);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => upload(wav(0.2), token, `p${i}`)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((st) => st === 201)).toHaveLength(1);
    expect(statuses.filter((st) => st === 409)).toHaveLength(19);
    const refused = answers.find((r) => r.status === 409)!;
    expect(await bodyOf(refused)).toEqual({ error: T.tooMany });
    expect(await env.db.selectFrom("recordings").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).toEqual({ n: RECORDINGS_PER_ACCOUNT });
    expect(filesIn(join(env.dir, "files"))).toHaveLength(1);
    expect(incoming()).toEqual([]);
    // Nothing is held once they are answered: a deleted recording makes room for exactly one more.
    expect(await env.db.selectFrom("recording_reservations").selectAll().execute()).toEqual([]);
  });

  it("caps the bytes an account keeps, also under parallel uploads", async () => {
    const capped = await makeTestApp({ maxRecordingAccountBytes: 250_000, maxRecordingBytes: 1_000_000 });
    const keepEnv = env;
    env = capped;
    try {
      const token = await signUpPro(env);
      const one = wav(1); // 96,044 bytes: two fit in 250,000, a third does not
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(one, token, `b${i}`)));
      expect(answers.map((r) => r.status).filter((st) => st === 201)).toHaveLength(2);
      const refused = answers.find((r) => r.status === 409)!;
      expect(await bodyOf(refused)).toEqual({ error: T.accountFull(250_000) });
      expect(T.accountFull(250_000)).toBe("Your recordings would take more than the 250 kB an account keeps: delete one to keep another");
      expect(T.accountFull(2_000_000_000)).toBe("Your recordings would take more than the 2 GB an account keeps: delete one to keep another");
      // A body of unknown length is held to the room left: past it, the same 409 and no file.
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(one);
          c.close();
        },
      });
      const chunked = await env.app.request("/api/recordings?name=chunked", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "audio/wav" },
        body: stream,
        duplex: "half",
      } as RequestInit);
      expect(chunked.status).toBe(409);
      expect(filesIn(join(env.dir, "files"))).toHaveLength(2);
    } finally {
      env = keepEnv;
      await capped.close();
    }
  });

  it("refuses bytes after the audio data with a 400 that says so, and keeps nothing", async () => {
    const token = await signUpPro(env);
    const clean = wav(0.5);
    const padded = new Uint8Array(clean.byteLength + 1000);
    padded.set(clean);
    padded.set(new TextEncoder().encode("a hidden file rides along after the audio"), clean.byteLength);
    const res = await upload(padded, token);
    expect(res.status).toBe(400);
    expect(await bodyOf(res)).toEqual({ error: T.trailingBytes(1000) });
    expect(T.trailingBytes(1000)).toBe("The recording has 1000 bytes after its audio data: upload the WAV file alone");
    expect(filesIn(join(env.dir, "files"))).toHaveLength(0);
    expect((await upload(clean, token)).status).toBe(201);
  });

  it("fails only the request when the body breaks off mid-upload, and leaves no partial file", async () => {
    const token = await signUpPro(env);
    const file = wav(2);
    const broken = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(file.subarray(0, 50_000));
        setTimeout(() => c.error(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })), 5);
      },
    });
    const res = await env.app.request("/api/recordings?name=cut", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "audio/wav", "Content-Length": String(file.byteLength) },
      body: broken,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(499);
    expect(env.errors).toEqual([]);
    expect(incoming()).toEqual([]);
    expect(await env.db.selectFrom("recording_reservations").selectAll().execute()).toEqual([]);
    expect((await upload(file, token)).status).toBe(201);
  });
});

describe("voice recordings in the MP4 export", () => {
  it("renders the account's own placed recordings into the video's sound, and leaves another account's out", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "rec-video-"));
    try {
      const token = await signUpPro(env);
      const mine = ((await bodyOf(await upload(wav(1.5, { hz: 3000 }), token, "mine"))) as { recording: { id: string } }).recording.id;
      const other = await signUpPro(env, "other@example.com");
      const theirs = ((await bodyOf(await upload(wav(1.5, { hz: 5000 }), other, "theirs"))) as { recording: { id: string } }).recording.id;
      const state = defaultAudioState();
      const frequencies = state.channels.map((c) => (c.id === 1 ? { ...c, frequency: 440 } : { ...c, frequency: 0, enabled: false }));
      const placement = (id: string) => ({ id, name: "x", trimStart: 0, trimEnd: 0, gainDb: 0, at: 1, every: 0, loop: false });
      const body: VideoExportPayload = {
        backgroundType: "black", quality: "720p", duration: 3, frequencies, effects: state.effects,
        verification: { enabledChannelCount: 1, enabledEffectCount: 0, timestamp: env.clock.ms },
        recordings: [placement(mine), placement(theirs)],
      };
      const res = await env.app.request("/api/video-export", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "X-Requested-With": "XMLHttpRequest" },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      const mp4 = join(scratch, "v.mp4");
      writeFileSync(mp4, Buffer.from(await res.arrayBuffer()));
      const decoded = join(scratch, "v.wav");
      execFileSync(requireBinary("ffmpeg").path, ["-v", "error", "-i", mp4, "-map", "0:a", "-c:a", "pcm_s16le", "-f", "wav", "-y", decoded]);
      const bytes = new Uint8Array(readFileSync(decoded));
      const info = parseWavHeader(bytes);
      const v = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.dataBytes);
      const left = Float32Array.from({ length: info.frames }, (_, i) => v.getInt16(i * info.blockAlign, true) / 32768);
      const at = (from: number, n: number) => left.subarray(Math.round(from * info.sampleRate), Math.round(from * info.sampleRate) + n);
      const band = (x: Float32Array, hz: number) => {
        // Goertzel-like: the amplitude of one frequency in the stretch.
        let re = 0, im = 0;
        for (let i = 0; i < x.length; i++) {
          re += x[i] * Math.cos((2 * Math.PI * hz * i) / info.sampleRate);
          im += x[i] * Math.sin((2 * Math.PI * hz * i) / info.sampleRate);
        }
        return (2 * Math.hypot(re, im)) / x.length;
      };
      // 8000/32768 = -12.3 dBFS at 0 dB: there from 1 s, not before; the other account's is not.
      expect(band(at(1.2, 48000), 3000)).toBeGreaterThan(0.2);
      expect(band(at(0.2, 24000), 3000)).toBeLessThan(0.01);
      expect(band(at(1.2, 48000), 5000)).toBeLessThan(0.01);
      expect(Math.abs(peakFrequency(at(0.2, 16384), info.sampleRate) - 440)).toBeLessThan(2);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe("voice recordings in an S3-compatible store", () => {
  it("uploads into the bucket, answers the same bytes and deletes the object", async () => {
    const s3 = await startLocalS3();
    const keys = async () => ((await s3.client.send(new ListObjectsV2Command({ Bucket: S3_BUCKET, Prefix: "rec/" }))).Contents ?? []).map((o) => o.Key!);
    const e = await makeTestApp({}, { storage: (d) => s3.storage(join(d, "tmp", "uploads"), "rec/") });
    try {
      const token = await signUpPro(e);
      const file = wav(1);
      const res = await e.app.request("/api/recordings?name=s3", { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "audio/wav", "Content-Length": String(file.byteLength) }, body: file });
      expect(res.status).toBe(201);
      const id = ((await bodyOf(res)) as { recording: { id: string } }).recording.id;
      expect(await keys()).toHaveLength(1);
      const audio = await e.app.request(`/api/recordings/${id}/audio`, { headers: { Authorization: `Bearer ${token}` } });
      expect(new Uint8Array(await audio.arrayBuffer())).toEqual(file);
      expect((await e.app.request(`/api/recordings/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } })).status).toBe(204);
      expect(await keys()).toEqual([]);
    } finally {
      await e.close();
      await s3.close();
    }
  });
});
