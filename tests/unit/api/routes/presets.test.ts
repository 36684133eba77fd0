// Shared presets through app.request(): creating needs a session (401) with preset sharing (403 for
// free, demo and plain admin accounts; Pro, temporary access and admins with the override may);
// the stored data is THE preset schema's normalised state; GET is public and round-trips it; a
// missing id is 404 with the spec's text; bad ids and bodies are 400, oversize bodies 413, and
// creation is rate-limited per user (429 + Retry-After).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EFFECTS } from "../../../../dsp/host/model/catalogue";
import { MAX_TIMELINE_STEPS } from "../../../../dsp/host/model/limits";
import { MAX_SOUND_BODY_BYTES, parsePreset, presetData, type PresetResult } from "../../../../dsp/host/schema/preset";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { RATE_RULES } from "../../../../api/services/rate-limit";
import { bodyOf, getWith, makeTestApp, postJson, signUp, type TestEnv, signUpPro } from "../helpers";

const NOT_FOUND = "This preset has expired or was not found";

let env: TestEnv;
beforeEach(async () => {
  env = await makeTestApp({ adminEmails: ["boss@example.com"] });
});
afterEach(async () => {
  await env.close();
});

const proToken = (email = "pro@example.com") => signUpPro(env, email);

function sample() {
  const data = presetData(defaultAudioState());
  data.channels[0] = { ...data.channels[0], frequency: 7.83, waveform: "sawtooth" };
  data.effects.ringMod = { enabled: true, value: 40 };
  data.effects.noise = { ...data.effects.noise, enabled: true, type: "pink" };
  data.duration = 600;
  return data;
}

function ok(r: PresetResult) {
  if (!r.ok) throw new Error(r.error);
  return r.state;
}

const share = (body: unknown, token?: string) => postJson(env, "/api/presets/user", body, token);

describe("POST /api/presets/user: who may share", () => {
  it("401 without a session or with a bad token", async () => {
    for (const token of [undefined, "not-a-jwt"]) {
      const res = await share({ name: "x", data: sample() }, token);
      expect(res.status).toBe(401);
      expect(typeof (await bodyOf(res)).error).toBe("string");
    }
  });

  it("403 for a free account, a running demo and an admin without the override", async () => {
    const free = await signUp(env, "free@example.com");
    const demo = await signUp(env, "demo@example.com");
    expect((await postJson(env, "/api/demo/start", {}, demo.token)).status).toBe(200);
    const admin = await signUp(env, "boss@example.com");
    for (const token of [free.token, demo.token, admin.token]) {
      const res = await share({ name: "x", data: sample() }, token);
      expect(res.status).toBe(403);
      expect(await bodyOf(res)).toEqual({ error: "Sharing presets requires a Pro subscription. Upgrade to share your sounds!" });
    }
    expect(await env.db.selectFrom("presets").selectAll().execute()).toEqual([]);
  });

  it("201 for Pro, temporary (unlimited) access and an admin with the override", async () => {
    const pro = await proToken();
    const temp = await signUp(env, "temp@example.com");
    await env.db
      .insertInto("temporary_access")
      .values({ id: "g1", email: "temp@example.com", access_type: "daily", duration_hours: 24, reason: "Support", status: "active", created_at: env.clock.now().toISOString(), end_date: new Date(env.clock.ms + 86_400_000).toISOString(), granted_by: null })
      .execute();
    const admin = await signUp(env, "boss@example.com");
    await env.db.updateTable("users").set({ admin_override: 1 }).where("email", "=", "boss@example.com").execute();
    for (const token of [pro, temp.token, admin.token]) {
      const res = await share({ name: "Mine", data: sample() }, token);
      expect(res.status).toBe(201);
    }
    expect(await env.db.selectFrom("presets").select("name").execute()).toHaveLength(3);
  });
});

describe("share and open", () => {
  it("201 {id} with an unguessable URL-safe id; GET (no session) answers {id, name, data}", async () => {
    const token = await proToken();
    const res = await share({ name: "  Focus 7.83  ", data: sample() }, token);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const got = await getWith(env, `/api/presets/${id}`);
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({ id, name: "Focus 7.83", data: sample() });

    const row = await env.db.selectFrom("presets").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ id, name: "Focus 7.83", created_at: env.clock.now().toISOString() });
    expect(row.user_id).toMatch(/.+/);
  });

  it("stores the shared schema's normalised state: unknown ids dropped, values clamped, effects filled", async () => {
    const token = await proToken();
    const raw = { channels: [{ id: 2, frequency: 99999, waveform: "zigzag" }], effects: { warp: { enabled: true, value: 1 }, gate: { enabled: true, value: 999 } }, duration: 5, isPlaying: true };
    const { id } = (await (await share({ name: "Edge", data: raw }, token)).json()) as { id: string };
    const { data } = (await (await getWith(env, `/api/presets/${id}`)).json()) as { data: Record<string, unknown> };
    const expected = parsePreset(raw);
    expect(expected.ok).toBe(true);
    expect(data).toEqual(expected.ok && expected.state);
    expect(Object.keys(data.effects as object)).toHaveLength(EFFECTS.length);
    expect((data.effects as Record<string, unknown>).gate).toEqual({ enabled: true, value: 16 });
    expect((data.channels as { frequency: number }[])[1].frequency).toBe(20000);
    expect(data.duration).toBe(30);
    expect(data).not.toHaveProperty("isPlaying");
  });

  it("hands out a different id each time", async () => {
    const token = await proToken();
    const ids = new Set<string>();
    for (let i = 0; i < 10; i++) ids.add(((await (await share({ name: `n${i}`, data: sample() }, token)).json()) as { id: string }).id);
    expect(ids.size).toBe(10);
  });
});

describe("a long timeline", () => {
  /** 500 steps, each moving all four channels: about 166 KiB, over twice the 64 KiB of other routes. */
  function longTimeline() {
    const data = sample();
    const steps = Array.from({ length: MAX_TIMELINE_STEPS }, (_, i) => ({
      at: i * 7.2,
      ramp: "linear" as const,
      channels: [1, 2, 3, 4].map((id) => ({ id, frequency: 100 + i + id / 10, waveform: "sine" as const, volume: 0.5, enabled: true })),
    }));
    return { ...data, duration: 3600, timeline: { steps } };
  }

  it("is shared whole and read back the same", async () => {
    const data = longTimeline();
    expect(JSON.stringify(data).length).toBeGreaterThan(2 * 64 * 1024);
    const res = await share({ name: "Long session", data }, await proToken());
    expect(res.status).toBe(201);
    const { id } = (await bodyOf(res)) as { id: string };
    const read = await getWith(env, `/api/presets/${id}`);
    expect(read.status).toBe(200);
    expect(((await bodyOf(read)) as { data: unknown }).data).toEqual(presetData(ok(parsePreset(data))));
  });

  it("is read from the database each time (only presets up to 64 KiB are cached), so removing it shows at once", async () => {
    const token = await proToken();
    const long = ((await bodyOf(await share({ name: "Long", data: longTimeline() }, token))) as { id: string }).id;
    const short = ((await bodyOf(await share({ name: "Short", data: sample() }, token))) as { id: string }).id;
    for (const id of [long, short]) expect((await getWith(env, `/api/presets/${id}`)).status).toBe(200);
    await env.db.deleteFrom("presets").execute();
    // Within the cache's 1 s: the short one is still answered from memory, the long one is gone.
    expect((await getWith(env, `/api/presets/${short}`)).status).toBe(200);
    expect((await getWith(env, `/api/presets/${long}`)).status).toBe(404);
  });
});

describe("GET /api/presets/{id}", () => {
  it("404 with the spec's text for a missing id, or a preset without data", async () => {
    const res = await getWith(env, "/api/presets/AAAAAAAAAAAAAAAAAAAAAA");
    expect(res.status).toBe(404);
    expect(await bodyOf(res)).toEqual({ error: NOT_FOUND });

    const { userId } = await signUp(env, "old@example.com");
    for (const [id, data] of [["empty", ""], ["nulldata", "null"], ["broken", "{not json"]]) {
      await env.db.insertInto("presets").values({ id, user_id: userId, name: "old", data, created_at: "2020-01-01T00:00:00.000Z" }).execute();
      const r = await getWith(env, `/api/presets/${id}`);
      expect(r.status).toBe(404);
      expect(await bodyOf(r)).toEqual({ error: NOT_FOUND });
    }
  });

  it("400 for ids that cannot be ours", async () => {
    for (const id of ["bad$id", "a%20b", "x".repeat(65), "%E2%9C%93", "..%2F..%2Fetc"]) {
      const res = await getWith(env, `/api/presets/${id}`);
      expect(res.status, id).toBe(400);
      expect(await bodyOf(res)).toEqual({ error: "Invalid preset id" });
    }
  });
});

describe("bad requests", () => {
  it("400 for bad bodies, with a text that says what is wrong", async () => {
    const token = await proToken();
    const cases: [unknown, string][] = [
      ["{", "Request body must be valid JSON"],
      ["[]", "Request body must be a JSON object with name and data"],
      ["42", "Request body must be a JSON object with name and data"],
      [{ data: sample() }, "Please give the preset a name"],
      [{ name: "   ", data: sample() }, "Please give the preset a name"],
      [{ name: 7, data: sample() }, "Please give the preset a name"],
      [{ name: "x".repeat(101), data: sample() }, "The preset name can be at most 100 characters long"],
      [{ name: "x" }, "Invalid preset: the preset must be an object with channels, effects and duration"],
      [{ name: "x", data: { ...sample(), channels: null } }, "Invalid preset: channels is missing"],
      [{ name: "x", data: { ...sample(), effects: undefined } }, "Invalid preset: effects is missing"],
      [{ name: "x", data: { ...sample(), duration: 0 } }, "Invalid preset: duration is missing"],
      [{ name: "x", data: { ...sample(), channels: [{ id: 1, frequency: "432" }] } }, "Invalid preset: channels[0].frequency must be a number"],
      [{ name: "x", data: { ...sample(), voices: [{ kind: "chime", carrier: 200, amp: 10 }] } }, "Invalid preset: voices[0].kind must be tone, binaural, isochronic, noise, spin, bell, mix, mixpulse, mixam, mixspin, mixbeat, noisepulse or noisebeat"],
      [{ name: "x", data: { ...sample(), voices: [{ kind: "binaural", carrier: 200, beat: "10", amp: 10 }] } }, "Invalid preset: voices[0].beat must be a number"],
      [{ name: "x", data: { ...sample(), voices: Array.from({ length: 33 }, () => null) } }, "Invalid preset: voices must hold at most 32 voices"],
    ];
    for (const [body, error] of cases) {
      const res = await share(body, token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await bodyOf(res)).toEqual({ error });
      env.clock.advance(60_000); // stay under the rate limit
    }
    expect(await env.db.selectFrom("presets").selectAll().execute()).toEqual([]);
  });

  it("413 for a body over 5 MiB (MAX_SOUND_BODY_BYTES)", async () => {
    const token = await proToken();
    const res = await share({ name: "big", data: { ...sample(), padding: "x".repeat(MAX_SOUND_BODY_BYTES) } }, token);
    expect(res.status).toBe(413);
    expect(await bodyOf(res)).toEqual({ error: "Request body is too large" });
  });

  it("429 with Retry-After past the per-user limit; other users and a later window are unaffected", async () => {
    const { limit, windowMs } = RATE_RULES.presetCreatePerUser;
    const token = await proToken();
    for (let i = 0; i < limit; i++) expect((await share({ name: `n${i}`, data: sample() }, token)).status).toBe(201);
    const res = await share({ name: "one more", data: sample() }, token);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(typeof (await bodyOf(res)).error).toBe("string");

    expect((await share({ name: "other", data: sample() }, await proToken("other@example.com"))).status).toBe(201);
    env.clock.advance(windowMs);
    expect((await share({ name: "later", data: sample() }, token)).status).toBe(201);
  });
});
