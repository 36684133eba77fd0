// The demo: once per account (also for two starts at once), 10 minutes on the injected clock,
// level 'demo' with channels 1-2 and Amplitude Mod, Ring Mod and Chorus while it runs, the status
// fields and the spec's 409 texts; Pro accounts are refused too.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_CHANNELS, DEMO_DURATION_MS, DEMO_EFFECTS } from "../../../../api/rules/plans";
import { bodyOf, getWith, makeTestApp, postJson, signUp, type TestEnv } from "../helpers";

const USED = "You have already used the demo period. Upgrade to unlock all features.";
const STARTED = "Demo mode activated! Amplitude Mod, Ring Mod & Chorus unlocked for 10 minutes.";

let env: TestEnv;
beforeEach(async () => {
  env = await makeTestApp();
});
afterEach(async () => {
  await env.close();
});

const status = async (token: string) => bodyOf(await getWith(env, "/api/demo/status", token));
const start = (token: string, body: unknown = { durationMinutes: 10 }) => postJson(env, "/api/demo/start", body, token);

describe("demo", () => {
  it("the rules module names 10 minutes, 2 channels and the three effects", () => {
    expect(DEMO_DURATION_MS).toBe(600_000);
    expect(DEMO_CHANNELS).toBe(2);
    expect(DEMO_EFFECTS).toEqual(["amplitudeMod", "ringMod", "chorus"]);
  });

  it("starts once, runs 10 minutes, then expires for good", async () => {
    const { token } = await signUp(env);
    expect(await status(token)).toEqual({ canStartDemo: true, hasUsedDemo: false, isActive: false, timeRemaining: 0, duration: 600_000 });

    const res = await start(token);
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ duration: 600_000, message: STARTED });

    env.clock.advance(4 * 60_000);
    expect(await status(token)).toEqual({ canStartDemo: false, hasUsedDemo: true, isActive: true, timeRemaining: 360_000, duration: 600_000 });
    const profile = await bodyOf(await getWith(env, "/api/user/profile", token));
    expect(profile.demo).toEqual({ isActive: true, timeRemaining: 360_000, hasUsedDemo: true });
    expect(profile.entitlements).toMatchObject({
      level: "demo",
      demoActive: true,
      capabilities: { channels: 2, demoEffects: true, allEffects: false, wavExport: false },
    });

    const again = await start(token);
    expect(again.status).toBe(409);
    expect(await bodyOf(again)).toEqual({ error: USED });

    env.clock.advance(6 * 60_000);
    expect(await status(token)).toEqual({ canStartDemo: false, hasUsedDemo: true, isActive: false, timeRemaining: 0, duration: 600_000 });
    const after = await bodyOf(await getWith(env, "/api/user/profile", token));
    expect(after.demo).toEqual({ isActive: false, timeRemaining: 0, hasUsedDemo: true });
    expect(after.entitlements).toMatchObject({ level: "free", capabilities: { channels: 1, demoEffects: false } });
    expect(await bodyOf(await start(token))).toEqual({ error: USED });
  });

  it("two starts at once: one wins, the other gets 409", async () => {
    const { token } = await signUp(env);
    const answers = await Promise.all([start(token), start(token), start(token)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await env.db.selectFrom("demo_sessions").selectAll().execute()).toHaveLength(1);
  });

  it("is per account", async () => {
    const a = await signUp(env, "a@example.com");
    const b = await signUp(env, "b@example.com");
    expect((await start(a.token)).status).toBe(200);
    expect((await start(b.token)).status).toBe(200);
  });

  it("Pro accounts are refused with 409 and cannot start it", async () => {
    const { token, userId } = await signUp(env);
    const now = env.clock.now().toISOString();
    await env.db
      .insertInto("subscriptions")
      .values({ id: "s1", user_id: userId, plan_name: "Monthly Plan", status: "active", current_period_end: new Date(env.clock.ms + 86_400_000).toISOString(), created_at: now, updated_at: now })
      .execute();
    expect((await status(token)).canStartDemo).toBe(false);
    const res = await start(token);
    expect(res.status).toBe(409);
    expect(typeof (await bodyOf(res)).error).toBe("string");
    expect(await env.db.selectFrom("demo_sessions").selectAll().execute()).toEqual([]);
  });

  it("accepts only durationMinutes 10 (or none); needs a session", async () => {
    const { token } = await signUp(env);
    for (const body of [{ durationMinutes: 5 }, { durationMinutes: 60 }, { durationMinutes: "10" }, "[]"]) {
      const res = await start(token, body);
      expect(res.status).toBe(400);
      expect(await bodyOf(res)).toEqual({ error: "The demo lasts 10 minutes" });
    }
    expect((await start(token, {})).status).toBe(200);
    expect((await postJson(env, "/api/demo/start", { durationMinutes: 10 })).status).toBe(401);
    expect((await getWith(env, "/api/demo/status")).status).toBe(401);
  });

  it("limits starts per user: 429 with Retry-After", async () => {
    const { token } = await signUp(env);
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await start(token)).status);
    expect(codes).toEqual([200, 409, 409, 409, 409, 429]);
  });
});

describe("demo length is injectable for tests", () => {
  it("uses AppDeps.demoDurationMs", async () => {
    const short = await makeTestApp({}, { demoDurationMs: 1_000 });
    try {
      const { token } = await signUp(short);
      expect(await bodyOf(await postJson(short, "/api/demo/start", {}, token))).toEqual({ duration: 1_000, message: STARTED });
      short.clock.advance(1_000);
      expect((await bodyOf(await getWith(short, "/api/demo/status", token))).isActive).toBe(false);
    } finally {
      await short.close();
    }
  });
});
