// Counted exports (POST and GET /api/exports, services/exports.ts): the plan's count in the
// database, taken atomically, reset by a new billing period, refused at 0 with the upgrade path;
// the plan's longest export; free accounts refused, unlimited accounts not counted.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXPORT_TEXT as T } from "../../../../api/rules/exports";
import { toSubscriptionInfo } from "../../../../api/services/payments";
import { bodyOf, getWith, makeTestApp, postJson, signUp, type TestEnv } from "../helpers";

const ADMIN = "boss@example.com";
const DAY = 86_400_000;
let env: TestEnv;

beforeEach(async () => {
  env = await makeTestApp({ adminEmails: [ADMIN] });
});
afterEach(async () => {
  await env.close();
});

/** An account with a live `planName` whose period ends `endMs` from now (null: no end). */
async function withPlan(email: string, planName: string, endMs: number | null = 30 * DAY): Promise<{ token: string; userId: string }> {
  const u = await signUp(env, email);
  const now = env.clock.now().toISOString();
  await env.db
    .insertInto("subscriptions")
    .values({
      id: `s-${u.userId}`,
      user_id: u.userId,
      plan_name: planName,
      status: "active",
      current_period_start: now,
      current_period_end: endMs === null ? null : new Date(env.clock.ms + endMs).toISOString(),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return u;
}

/** A fresh session after the clock moved past the old one's life. */
async function signIn(email: string): Promise<string> {
  const res = await postJson(env, "/api/auth/login", { email, password: "correct horse" });
  return ((await res.json()) as { token: string }).token;
}

const exportOnce = (token: string | undefined, body: unknown = { kind: "wav", durationSeconds: 60 }) => postJson(env, "/api/exports", body, token);
const storedCount = async (userId: string) =>
  (await env.db.selectFrom("export_counts").select(["used", "period_end"]).where("user_id", "=", userId).executeTakeFirst()) ?? null;

describe("POST /api/exports", () => {
  it("counts a Day Pass's 10 exports and refuses the 11th with the upgrade path, counting nothing", async () => {
    const { token, userId } = await withPlan("day@example.com", "One Day Pass", DAY);
    const periodEnd = new Date(env.clock.ms + DAY).toISOString();
    for (let i = 1; i <= 10; i++) {
      const res = await exportOnce(token, { kind: i % 2 ? "wav" : "mp4", durationSeconds: 30 });
      expect(res.status).toBe(200);
      expect(await bodyOf(res)).toEqual({ left: 10 - i, quota: 10, periodEnd });
    }
    const refused = await exportOnce(token);
    expect(refused.status).toBe(402);
    expect(await bodyOf(refused)).toEqual({
      error: "You have used all 10 exports of your One Day Pass. Get Monthly Personal for 100 exports a month, or another One Day Pass.",
    });
    expect(await storedCount(userId)).toEqual({ used: 10, period_end: periodEnd });
    expect(await bodyOf(await getWith(env, "/api/exports", token))).toEqual({ left: 0, quota: 10, periodEnd });
  });

  it("20 concurrent exports at 99 of 100 allow exactly one", async () => {
    const { token, userId } = await withPlan("monthly@example.com", "Monthly Plan");
    const periodEnd = new Date(env.clock.ms + 30 * DAY).toISOString();
    await env.db.insertInto("export_counts").values({ user_id: userId, period_end: periodEnd, used: 99, updated_at: env.clock.now().toISOString() }).execute();
    const answers = await Promise.all(Array.from({ length: 20 }, () => exportOnce(token)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(402)]);
    const ok = answers.find((r) => r.status === 200)!;
    expect(await bodyOf(ok)).toEqual({ left: 0, quota: 100, periodEnd });
    const usedUp = `You have used all 100 exports of this billing period; they start again on ${periodEnd.slice(0, 10)}. Upgrade to the Commercial License for 200 exports a month.`;
    for (const r of answers.filter((a) => a.status === 402)) expect(await bodyOf(r)).toEqual({ error: usedUp });
    expect(await storedCount(userId)).toEqual({ used: 100, period_end: periodEnd });
  });

  it("starts again with a new billing period from Stripe's dates (injected clock)", async () => {
    const { token, userId } = await withPlan("renew@example.com", "Monthly Plan");
    const firstEnd = new Date(env.clock.ms + 30 * DAY).toISOString();
    await env.db.insertInto("export_counts").values({ user_id: userId, period_end: firstEnd, used: 100, updated_at: env.clock.now().toISOString() }).execute();
    expect((await exportOnce(token)).status).toBe(402);

    // The period ends: without a renewal the plan is over and there is no export at all.
    env.clock.advance(30 * DAY + 1000);
    const token2 = await signIn("renew@example.com");
    expect(await bodyOf(await exportOnce(token2))).toEqual({ error: T.needsPlan });
    // Stripe renews it (fulfilment.ts writes the new period): the count starts again.
    const secondEnd = new Date(Date.parse(firstEnd) + 30 * DAY).toISOString();
    await env.db.updateTable("subscriptions").set({ current_period_start: firstEnd, current_period_end: secondEnd }).where("user_id", "=", userId).execute();
    const res = await exportOnce(token2);
    expect(res.status).toBe(200);
    expect(await bodyOf(res)).toEqual({ left: 99, quota: 100, periodEnd: secondEnd });
    expect(await storedCount(userId)).toEqual({ used: 1, period_end: secondEnd });
  });

  it("a plan row without an end counts by calendar month (UTC)", async () => {
    const { token } = await withPlan("noend@example.com", "Commercial License", null);
    expect(await bodyOf(await exportOnce(token))).toEqual({ left: 199, quota: 200, periodEnd: "2030-02-01T00:00:00.000Z" });
    expect(await bodyOf(await exportOnce(token))).toMatchObject({ left: 198 });
    env.clock.advance(31 * DAY);
    expect(await bodyOf(await exportOnce(await signIn("noend@example.com")))).toEqual({ left: 199, quota: 200, periodEnd: "2030-03-01T00:00:00.000Z" });
  });

  it("Commercial accepts 12 hours; Monthly refuses 1 h 1 s; a refused length counts nothing", async () => {
    const commercial = await withPlan("shop@example.com", "Commercial License");
    const long = await exportOnce(commercial.token, { kind: "wav", durationSeconds: 43200 });
    expect(long.status).toBe(200);
    expect(await bodyOf(long)).toMatchObject({ left: 199, quota: 200 });
    const tooLong = await exportOnce(commercial.token, { kind: "wav", durationSeconds: 43201 });
    expect(tooLong.status).toBe(400);
    expect(await bodyOf(tooLong)).toEqual({ error: "Please set a duration of at most 12 hours for export." });
    // MP4 stays within the video dialog's 59-minute limit
    expect(await bodyOf(await exportOnce(commercial.token, { kind: "mp4", durationSeconds: 3601 }))).toEqual({ error: "Please set a duration of at most 1 hour for export." });

    const monthly = await withPlan("me@example.com", "Monthly Plan");
    expect((await exportOnce(monthly.token, { kind: "wav", durationSeconds: 3600 })).status).toBe(200);
    const refused = await exportOnce(monthly.token, { kind: "wav", durationSeconds: 3601 });
    expect(refused.status).toBe(400);
    expect(await bodyOf(refused)).toEqual({ error: "Please set a duration of at most 1 hour for export; the Commercial License exports up to 12 hours." });
    expect(await storedCount(monthly.userId)).toMatchObject({ used: 1 });
    expect(await storedCount(commercial.userId)).toMatchObject({ used: 1 });
  });

  it("refuses free accounts (403) and signed-out callers (401); counts nothing", async () => {
    const free = await signUp(env, "free@example.com");
    const res = await exportOnce(free.token);
    expect(res.status).toBe(403);
    expect(await bodyOf(res)).toEqual({ error: T.needsPlan });
    expect((await getWith(env, "/api/exports", free.token)).status).toBe(403);
    expect((await exportOnce(undefined)).status).toBe(401);
    expect(await env.db.selectFrom("export_counts").selectAll().execute()).toEqual([]);
  });

  it("admins with the override and temporary grants are not counted", async () => {
    const admin = await signUp(env, ADMIN);
    await env.db.updateTable("users").set({ admin_override: 1 }).where("email", "=", ADMIN).execute();
    const granted = await signUp(env, "grant@example.com");
    await env.db
      .insertInto("temporary_access")
      .values({ id: "g1", email: "grant@example.com", access_type: "monthly", duration_hours: 720, reason: "Support", status: "active", created_at: env.clock.now().toISOString(), end_date: new Date(env.clock.ms + 30 * DAY).toISOString(), granted_by: null })
      .execute();
    for (const token of [admin.token, granted.token]) {
      const res = await exportOnce(token, { kind: "marketplace", durationSeconds: 60 });
      expect(res.status).toBe(200);
      expect(await bodyOf(res)).toEqual({ left: null, quota: null, periodEnd: null });
    }
    expect((await exportOnce(admin.token, { kind: "wav", durationSeconds: 43200 })).status).toBe(200);
    expect(await bodyOf(await exportOnce(granted.token, { kind: "wav", durationSeconds: 3601 }))).toEqual({ error: "Please set a duration of at most 1 hour for export." });
    expect(await env.db.selectFrom("export_counts").selectAll().execute()).toEqual([]);
  });

  it("answers a bad body with 400 and the field's text", async () => {
    const { token } = await withPlan("bad@example.com", "Monthly Plan");
    const cases: [unknown, string][] = [
      [{ kind: "flac", durationSeconds: 60 }, T.kindInvalid],
      [{ kind: "wav", durationSeconds: "60" }, T.durationInvalid],
      [{ kind: "wav", durationSeconds: 0 }, T.durationInvalid],
      [{ kind: "wav" }, T.durationInvalid],
      [[], T.bodyInvalid],
    ];
    for (const [body, error] of cases) {
      const res = await exportOnce(token, body);
      expect(res.status).toBe(400);
      expect(await bodyOf(res)).toEqual({ error });
    }
  });

  it("GET counts nothing", async () => {
    const { token, userId } = await withPlan("look@example.com", "Commercial License");
    await exportOnce(token);
    for (let i = 0; i < 3; i++) expect(await bodyOf(await getWith(env, "/api/exports", token))).toMatchObject({ left: 199, quota: 200 });
    expect(await storedCount(userId)).toMatchObject({ used: 1 });
  });
});

describe("Stripe's period", () => {
  it("a subscription's start and end are read from its items (or the top level)", () => {
    const items = { data: [{ price: { id: "p" }, current_period_start: 1_900_000_000, current_period_end: 1_902_592_000 }] };
    expect(toSubscriptionInfo({ id: "sub_1", items })).toMatchObject({ currentPeriodStart: 1_900_000_000, currentPeriodEnd: 1_902_592_000 });
    expect(toSubscriptionInfo({ id: "sub_2", current_period_start: 5, current_period_end: 6 })).toMatchObject({ currentPeriodStart: 5, currentPeriodEnd: 6 });
  });
});
