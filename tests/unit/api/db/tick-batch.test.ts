// Statements batched per turn of the event loop (api/db/tick-batch.ts): what is asked for in one
// turn goes as one batch with each answer in its place; later turns make new batches; a batch that
// fails fails its items. On PostgreSQL (api-postgres project) the preset shares of one turn are one
// insert, a row that breaks the batch fails alone, and shares past the rate limit store nothing.
import { afterEach, describe, expect, it } from "vitest";
import { type Settled, TickBatcher } from "../../../../api/db/tick-batch";
import { createPreset, presetInsertsFor } from "../../../../api/services/presets";
import { RATE_RULES } from "../../../../api/services/rate-limit";
import type { UserRow } from "../../../../api/db/schema";
import { presetData } from "../../../../dsp/host/schema/preset";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { TEST_DATABASE_URL, getWith, makeTestApp, postJson, signUpPro, type TestEnv } from "../helpers";

describe("TickBatcher", () => {
  const doubling = () => {
    const batches: number[][] = [];
    const b = new TickBatcher<number, number>(async (items) => {
      batches.push(items);
      return items.map((n): Settled<number> => (n < 0 ? { ok: false, error: new Error(`negative ${n}`) } : { ok: true, value: n * 2 }));
    });
    return { b, batches };
  };

  it("sends what one turn asks for as one batch, answers each in its place, and later turns apart", async () => {
    const { b, batches } = doubling();
    const first = await Promise.all([1, 2, 3].map((n) => b.add(n)));
    expect(first).toEqual([2, 4, 6]);
    expect(await b.add(5)).toBe(10);
    expect(batches).toEqual([[1, 2, 3], [5]]);
    expect(b.sent).toEqual({ batches: 2, items: 4 });
  });

  it("fails only the item whose outcome failed, and every item when the batch throws", async () => {
    const { b } = doubling();
    const outcomes = await Promise.allSettled([1, -1, 3].map((n) => b.add(n)));
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const broken = new TickBatcher<number, number>(() => Promise.reject(new Error("connection lost")));
    const all = await Promise.allSettled([1, 2].map((n) => broken.add(n)));
    expect(all.map((o) => (o.status === "rejected" ? (o.reason as Error).message : "ok"))).toEqual(["connection lost", "connection lost"]);
  });
});

describe.runIf(TEST_DATABASE_URL)("PostgreSQL: preset shares batched", () => {
  let env: TestEnv;
  afterEach(() => env.close());

  it("shares sent at once are each stored and read back; a row whose user is gone fails alone", async () => {
    env = await makeTestApp();
    const token = await signUpPro(env);
    const data = presetData(defaultAudioState());
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => postJson(env, "/api/presets/user", { name: `P${i}`, data }, token)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    const ids = await Promise.all(answers.map(async (r) => ((await r.json()) as { id: string }).id));
    expect(new Set(ids).size).toBe(8);
    for (const [i, id] of ids.entries()) {
      const read = await getWith(env, `/api/presets/${id}`);
      expect(await read.json()).toMatchObject({ id, name: `P${i}` });
    }
    // The services directly: a user the database does not know breaks the batch's foreign key.
    const s = { db: env.db, clock: env.clock.now } as Parameters<typeof createPreset>[0];
    const known = (await env.db.selectFrom("users").selectAll().executeTakeFirstOrThrow()) as UserRow;
    const ghost = { ...known, id: "no-such-user" };
    const before = { ...presetInsertsFor(env.db).sent };
    const outcomes = await Promise.allSettled([known, ghost, known].map((u, i) => createPreset(s, u, `Q${i}`, data)));
    expect(presetInsertsFor(env.db).sent).toEqual({ batches: before.batches + 1, items: before.items + 3 }); // one batch of three
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await env.db.selectFrom("presets").select("name").where("name", "like", "Q%").orderBy("name").execute()).toEqual([{ name: "Q0" }, { name: "Q2" }]);
  });

  it("shares sent at once past the limit are refused (429 with Retry-After) and not stored", async () => {
    env = await makeTestApp();
    const token = await signUpPro(env);
    const data = presetData(defaultAudioState());
    const { limit } = RATE_RULES.presetCreatePerUser;
    const before = { ...presetInsertsFor(env.db).sent };
    const answers = await Promise.all(Array.from({ length: limit + 5 }, (_, i) => postJson(env, "/api/presets/user", { name: `R${i}`, data }, token)));
    expect(presetInsertsFor(env.db).sent.batches - before.batches).toBeLessThan(limit); // batched, not one by one
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(limit);
    expect(statuses.filter((x) => x === 429)).toHaveLength(5);
    for (const r of answers.filter((a) => a.status === 429)) expect(Number(r.headers.get("Retry-After"))).toBeGreaterThan(0);
    const stored = await env.db.selectFrom("presets").select((eb) => eb.fn.countAll<number>().as("n")).where("name", "like", "R%").executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(limit);
    // The next window counts afresh.
    env.clock.advance(RATE_RULES.presetCreatePerUser.windowMs);
    expect((await postJson(env, "/api/presets/user", { name: "later", data }, token)).status).toBe(201);
  });
});
