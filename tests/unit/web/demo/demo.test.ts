// The demo (spec/accounts.md sections 4, 8 and 9): the mm:ss countdown, the warning under 120 s,
// and the demo store against a fake server, clock and timer: active only once the server
// confirms it, counting down, expiring once at zero, and a second start refused as 'already used'.

import { describe, expect, it } from "vitest";
import { formatCountdown, isDemoWarning, remainingMs } from "../../../../web/demo/countdown";
import { createDemoStore, type DemoStatusAnswer } from "../../../../web/demo/demo-store";

describe("countdown", () => {
  it.each([
    [600_000, "10:00"],
    [599_001, "10:00"],
    [599_000, "09:59"],
    [61_000, "01:01"],
    [5_000, "00:05"],
    [1, "00:01"],
    [0, "00:00"],
    [-500, "00:00"],
  ])("%i ms -> %s", (ms, text) => {
    expect(formatCountdown(ms)).toBe(text);
  });

  it("warns under 120 s while time is left", () => {
    expect(isDemoWarning(120_000)).toBe(false);
    expect(isDemoWarning(119_999)).toBe(true);
    expect(isDemoWarning(1)).toBe(true);
    expect(isDemoWarning(0)).toBe(false);
  });

  it("remaining never goes below 0", () => {
    expect(remainingMs(1000, 400)).toBe(600);
    expect(remainingMs(1000, 4000)).toBe(0);
  });
});

/** A fake demo server with its own clock: start() opens a demo of `duration` ms, once. */
function fakeDemoServer(duration = 600_000) {
  let now = 1_000_000;
  let endsAt: number | null = null;
  const calls: string[] = [];
  const status = (): DemoStatusAnswer => {
    const left = endsAt === null ? 0 : Math.max(0, endsAt - now);
    return { canStartDemo: endsAt === null, hasUsedDemo: endsAt !== null, isActive: left > 0, timeRemaining: left, duration };
  };
  const json = (code: number, body: unknown) => new Response(JSON.stringify(body), { status: code });
  const fetchImpl = (async (url: string, init: RequestInit) => {
    calls.push(`${init.method} ${url}`);
    if (url === "/api/demo/status") return json(200, status());
    if (url === "/api/demo/start") {
      if (endsAt !== null) return json(409, { error: "You have already used the demo period. Upgrade to unlock all features." });
      endsAt = now + duration;
      return json(200, { duration, message: "Demo mode activated! Amplitude Mod, Ring Mod & Chorus unlocked for 10 minutes." });
    }
    return json(404, { error: "Not found" });
  }) as unknown as typeof fetch;
  return {
    fetchImpl,
    calls,
    now: () => now,
    advance: (ms: number) => void (now += ms),
  };
}

function setup(duration?: number) {
  const server = fakeDemoServer(duration);
  let tick: (() => void) | null = null;
  let expired = 0;
  const store = createDemoStore({
    fetchImpl: server.fetchImpl,
    now: server.now,
    setInterval: (fn) => ((tick = fn), 1),
    clearInterval: () => void (tick = null),
    onExpired: () => void expired++,
  });
  const advance = (ms: number) => {
    server.advance(ms);
    tick?.();
  };
  return { store, server, advance, ticking: () => tick !== null, expired: () => expired };
}

describe("demo store", () => {
  it("a fresh account can start; the demo is active after the server confirms it", async () => {
    const { store, server } = setup();
    await store.getState().sync("tok");
    expect(store.getState()).toMatchObject({ phase: "not_started", canStart: true });
    const result = await store.getState().start("tok");
    expect(result).toEqual({ ok: true, text: "Demo mode activated! Amplitude Mod, Ring Mod & Chorus unlocked for 10 minutes." });
    expect(server.calls).toEqual(["GET /api/demo/status", "POST /api/demo/start", "GET /api/demo/status"]);
    expect(store.getState()).toMatchObject({ phase: "active", secondsLeft: 600, starting: false });
  });

  it("counts down in whole seconds and expires once at zero", async () => {
    const { store, advance, ticking, expired } = setup(5_000);
    await store.getState().start("tok");
    expect(store.getState().secondsLeft).toBe(5);
    advance(1_200);
    expect(store.getState().secondsLeft).toBe(4);
    advance(3_000);
    expect(store.getState().secondsLeft).toBe(1);
    expect(expired()).toBe(0);
    advance(800);
    expect(store.getState()).toMatchObject({ phase: "expired", canStart: false, secondsLeft: 0, endsAt: null });
    expect(expired()).toBe(1);
    expect(ticking()).toBe(false);
    store.getState().tick();
    expect(expired()).toBe(1);
  });

  it("a second start is refused with the spec's text and marks the demo used", async () => {
    const { store, advance } = setup(1_000);
    await store.getState().start("tok");
    advance(1_000);
    expect(store.getState().phase).toBe("expired");
    const again = await store.getState().start("tok");
    expect(again).toEqual({ ok: false, text: "You have already used the demo period. Upgrade to unlock all features." });
    expect(store.getState().phase).toBe("expired");
  });

  it("another tab's stale offer: the refusal moves the demo to expired", async () => {
    const a = fakeDemoServer();
    const store = createDemoStore({ fetchImpl: a.fetchImpl, now: a.now, setInterval: () => 1, clearInterval: () => {} });
    await store.getState().sync("tok");
    // the same account starts its demo elsewhere
    await a.fetchImpl("/api/demo/start", { method: "POST" });
    const result = await store.getState().start("tok");
    // the status read after a refused start is not needed: the text says it
    expect(result.ok).toBe(false);
    expect(result.text).toBe("You have already used the demo period. Upgrade to unlock all features.");
    expect(store.getState().phase).toBe("expired");
  });

  it("a running demo found on sync resumes with the server's time left", async () => {
    const { store, server } = setup();
    await server.fetchImpl("/api/demo/start", { method: "POST" });
    server.advance(590_000);
    await store.getState().sync("tok");
    expect(store.getState()).toMatchObject({ phase: "active", secondsLeft: 10 });
  });

  it("a used demo syncs as expired without firing the expiry callback", async () => {
    const { store, server, expired } = setup(1_000);
    await server.fetchImpl("/api/demo/start", { method: "POST" });
    server.advance(5_000);
    await store.getState().sync("tok");
    expect(store.getState().phase).toBe("expired");
    expect(expired()).toBe(0);
  });

  it("reset forgets the demo and drops answers to earlier requests", async () => {
    const { store } = setup();
    const pending = store.getState().sync("tok");
    store.getState().reset();
    await pending;
    expect(store.getState().phase).toBe("unknown");
  });

  it("other failures keep the server's text and leave the offer open", async () => {
    const fetchImpl = (async () => new Response(JSON.stringify({ error: "Too many requests" }), { status: 429 })) as unknown as typeof fetch;
    const store = createDemoStore({ fetchImpl, setInterval: () => 1, clearInterval: () => {} });
    expect(await store.getState().start("tok")).toEqual({ ok: false, text: "Too many requests" });
    expect(store.getState()).toMatchObject({ phase: "unknown", starting: false });
  });
});
