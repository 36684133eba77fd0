// The per-process read cache (api/services/read-cache.ts) with a movable clock, and the
// concurrency cap on password hashing (api/services/passwords.ts), plus the routes that use the
// cache answering this process's writes at once.
import { describe, expect, it } from "vitest";
import { READ_CACHE_TTL_MS, ReadCache } from "../../../../api/services/read-cache";
import { concurrencyLimit } from "../../../../api/services/passwords";

function clockAt(ms = 0) {
  const c = { ms, now: () => c.ms };
  return c;
}

describe("ReadCache", () => {
  it("serves a loaded value until the TTL, then loads again", async () => {
    const clock = clockAt();
    const cache = new ReadCache<number>({ now: clock.now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get("k", load)).toBe(1);
    clock.ms += READ_CACHE_TTL_MS - 1;
    expect(await cache.get("k", load)).toBe(1);
    clock.ms += 1;
    expect(await cache.get("k", load)).toBe(2);
    expect(READ_CACHE_TTL_MS).toBeLessThanOrEqual(1000);
  });

  it("concurrent misses share one load; clear() forgets at once", async () => {
    const cache = new ReadCache<number>({ now: clockAt().now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.get("k", load), cache.get("k", load)])).toEqual([1, 1]);
    cache.clear();
    expect(await cache.get("k", load)).toBe(2);
  });

  it("keeps neither failed loads, values refused by keep(), nor a load that a clear() overtook", async () => {
    const cache = new ReadCache<number | null>({ now: clockAt().now });
    await expect(cache.get("k", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect(await cache.get("k", async () => 1)).toBe(1);
    expect(await cache.get("miss", async () => null, (v) => v !== null)).toBeNull();
    expect(await cache.get("miss", async () => 5, (v) => v !== null)).toBe(5);

    let release!: (v: number) => void;
    const slow = cache.get("race", () => new Promise<number>((r) => (release = r)));
    cache.clear(); // a write finished while the read was in flight
    release(1);
    expect(await slow).toBe(1);
    expect(await cache.get("race", async () => 2)).toBe(2);
  });

  it("holds at most maxEntries keys", async () => {
    const cache = new ReadCache<number>({ now: clockAt().now, maxEntries: 3 });
    for (let i = 0; i < 10; i++) await cache.get(String(i), async () => i);
    expect(cache.size).toBe(3);
  });
});

describe("concurrencyLimit (argon2 hashes at once)", () => {
  it("runs at most `limit` tasks at a time, the rest in arrival order, and passes errors through", async () => {
    const slot = concurrencyLimit(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) =>
      slot(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        order.push(i);
        if (i === 3) throw new Error("bad hash");
        return i;
      });
    const results = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => task(i)));
    expect(peak).toBe(2);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
    expect(running).toBe(0);
  });
});

describe("what the caches must not change", () => {
  it("a session revoked in the database is refused on the next request, though its token was verified before", async () => {
    const { makeTestApp, signUp, getWith } = await import("../helpers");
    const env = await makeTestApp();
    try {
      const { token } = await signUp(env);
      expect((await getWith(env, "/api/user/profile", token)).status).toBe(200);
      await env.db.updateTable("sessions").set({ revoked_at: env.clock.now().toISOString() }).execute();
      expect((await getWith(env, "/api/user/profile", token)).status).toBe(401);
    } finally {
      await env.close();
    }
  });

  it("a preset id that was not found is found as soon as the preset exists (misses are not cached)", async () => {
    const { makeTestApp, signUp, getWith } = await import("../helpers");
    const env = await makeTestApp();
    try {
      const { userId } = await signUp(env);
      const id = "AAAAAAAAAAAAAAAAAAAAAA";
      expect((await getWith(env, `/api/presets/${id}`)).status).toBe(404);
      await env.db.insertInto("presets").values({ id, user_id: userId, name: "n", data: JSON.stringify({ channels: [] }), created_at: "t" }).execute();
      const res = await getWith(env, `/api/presets/${id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id, name: "n", data: { channels: [] } });
    } finally {
      await env.close();
    }
  });
});
