// Admin routes through app.request(): every route as admin, non-admin (403) and
// anonymous (401); temporary access granted, checked, listed, revoked and expiring with the
// injected clock, with the grant e-mailed; the CSRF check on revoke; override toggling and what it
// does to entitlements (and the demo); stats summed from the payments ledger that webhooks fill.
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_TEXT, TEMP_ACCESS_PLANS, timeLeftText } from "../../../../api/rules/admin";
import { bodyOf, getWith, makeTestApp, postJson, sentMail, signUp, type TestEnv } from "../helpers";
import { deliver, eventOf, makePaymentsApp, PRICES } from "./payments-setup";

const ADMIN = "boss@example.com";
let env: TestEnv | null = null;
afterEach(async () => {
  await env?.close();
  env = null;
});

async function setup() {
  const e = (env = await makeTestApp({ adminEmails: [ADMIN] }));
  const admin = await signUp(e, ADMIN);
  const user = await signUp(e, "free@example.com");
  return { e, admin, user };
}

const profile = async (e: TestEnv, token: string) => (await (await getWith(e, "/api/user/profile", token)).json()) as Record<string, unknown>;
const csrf = async (e: TestEnv, token: string) => ((await (await getWith(e, "/api/csrf-token", token)).json()) as { token: string }).token;
function revoke(e: TestEnv, token: string, body: unknown, csrfToken?: string): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
  if (csrfToken !== undefined) headers["X-CSRF-Token"] = csrfToken;
  return Promise.resolve(e.app.request("/api/admin/revoke-temporary-access", { method: "POST", headers, body: JSON.stringify(body) }));
}

describe("who may call the admin routes", () => {
  const routes: [string, string, unknown?][] = [
    ["GET", "/api/admin/users"],
    ["GET", "/api/admin/stats"],
    ["GET", "/api/admin/temporary-access-list"],
    ["GET", "/api/admin/check-user-access/someone%40example.com"],
    ["GET", "/api/admin/settings"],
    ["GET", "/api/admin/notifications"],
    ["POST", "/api/admin/grant-temporary-access", { email: "x@example.com", planType: "daily" }],
    ["POST", "/api/admin/revoke-temporary-access", { email: "x@example.com" }],
    ["POST", "/api/admin/resend-verification", { email: "x@example.com" }],
    ["POST", "/api/admin/email-test", {}],
  ];
  it("anonymous 401, a signed-in non-admin 403 with nothing changed", async () => {
    const { e, user } = await setup();
    for (const [method, path, body] of routes) {
      const init = { method, headers: { "Content-Type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) };
      expect((await e.app.request(path, init)).status, `${method} ${path}`).toBe(401);
      const res = await e.app.request(path, { ...init, headers: { ...init.headers, Authorization: `Bearer ${user.token}` } });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect(await e.db.selectFrom("temporary_access").selectAll().execute()).toEqual([]);
  });

  it("an admin reads users and stats", async () => {
    const { e, admin } = await setup();
    const users = (await (await getWith(e, "/api/admin/users", admin.token)).json()) as { users: Record<string, unknown>[] };
    expect(users.users.map((u) => [u.email, u.role, u.subscription])).toEqual(
      expect.arrayContaining([[ADMIN, "admin", null], ["free@example.com", "user", null]]),
    );
    expect(await (await getWith(e, "/api/admin/stats", admin.token)).json()).toEqual({
      totalUsers: 2, activeSubscriptions: 0, monthlyRevenue: 0, revenue: 0, currency: "usd",
    });
  });
});

describe("temporary access", () => {
  it("grant makes a free user Pro until it expires, e-mails them, and lists with time left", async () => {
    const { e, admin, user } = await setup();
    expect((await profile(e, user.token)).hasUnlimitedAccess).toBe(false);
    const res = await postJson(e, "/api/admin/grant-temporary-access", { email: " FREE@example.com ", planType: "daily", durationHours: 24 }, admin.token);
    expect(res.status).toBe(201);
    const { grant } = (await res.json()) as { grant: Record<string, unknown> };
    expect(grant).toMatchObject({ email: "free@example.com", accessType: "daily", planName: "One-Day Pass", durationHours: 24, status: "active", reason: "Admin granted access", timeLeft: "1d 0h" });
    expect(await profile(e, user.token)).toMatchObject({ hasUnlimitedAccess: true, hasTemporaryAccess: true });
    const mail = (await sentMail(e)).filter((m) => m.to === "free@example.com");
    expect(mail.at(-1)?.subject).toMatch(/full access \(One-Day Pass\)/);
    e.clock.advance(3 * 3_600_000);
    const list = (await (await getWith(e, "/api/admin/temporary-access-list", admin.token)).json()) as { temporaryAccessList: Record<string, unknown>[] };
    expect(list.temporaryAccessList[0]).toMatchObject({ email: "free@example.com", status: "active", timeLeft: "21h 0m" });
    expect(await (await getWith(e, "/api/admin/check-user-access/free%40example.com", admin.token)).json()).toEqual({ hasAccess: true, accessType: "daily", accountExists: true });
    e.clock.advance(22 * 3_600_000);
    expect((await profile(e, user.token)).hasUnlimitedAccess).toBe(false);
    const after = (await (await getWith(e, "/api/admin/temporary-access-list", admin.token)).json()) as { temporaryAccessList: Record<string, unknown>[] };
    expect(after.temporaryAccessList[0]).toMatchObject({ status: "expired", timeRemaining: 0, timeLeft: "Expired" });
    expect(await (await getWith(e, "/api/admin/check-user-access/free%40example.com", admin.token)).json()).toMatchObject({ hasAccess: false });
  });

  it("plan hours come from the server's table; custom needs 1-365 days", async () => {
    const { e, admin } = await setup();
    const grant = async (body: Record<string, unknown>) => postJson(e, "/api/admin/grant-temporary-access", { email: "x@example.com", ...body }, admin.token);
    for (const [type, hours] of [["daily", 24], ["monthly", 720], ["commercial", 8760]] as const) {
      const res = await grant({ planType: type, durationHours: 5 }); // the client's hours do not count
      expect(((await res.json()) as { grant: { durationHours: number } }).grant.durationHours).toBe(hours);
      expect(TEMP_ACCESS_PLANS[type].hours).toBe(hours);
    }
    expect(((await (await grant({ planType: "custom", days: 3 })).json()) as { grant: { durationHours: number } }).grant.durationHours).toBe(72);
    expect(((await (await grant({ planType: "custom", durationHours: 48 })).json()) as { grant: { durationHours: number } }).grant.durationHours).toBe(48);
    for (const bad of [{ planType: "custom" }, { planType: "custom", days: 0 }, { planType: "custom", days: 366 }, { planType: "custom", days: 1.5 }]) {
      const res = await grant(bad);
      expect(res.status).toBe(400);
      expect((await bodyOf(res)).error).toBe(ADMIN_TEXT.customDaysRequired);
    }
    const noEmail = await postJson(e, "/api/admin/grant-temporary-access", { email: "  ", planType: "daily" }, admin.token);
    expect((await bodyOf(noEmail)).error).toBe(ADMIN_TEXT.emailRequired);
    expect((await bodyOf(await grant({ planType: "yearly" }))).error).toBe(ADMIN_TEXT.accessTypeInvalid);
    // Only the latest grant for an address stays active.
    const list = (await (await getWith(e, "/api/admin/temporary-access-list", admin.token)).json()) as { temporaryAccessList: { status: string }[] };
    expect(list.temporaryAccessList.filter((g) => g.status === "active")).toHaveLength(1);
  });

  it("a grant may precede sign-up; check says so", async () => {
    const { e, admin } = await setup();
    await postJson(e, "/api/admin/grant-temporary-access", { email: "later@example.com", planType: "daily" }, admin.token);
    expect(await (await getWith(e, "/api/admin/check-user-access/later%40example.com", admin.token)).json()).toEqual({ hasAccess: true, accessType: "daily", accountExists: false });
    const later = await signUp(e, "later@example.com");
    expect((await profile(e, later.token)).hasUnlimitedAccess).toBe(true);
    expect(await (await getWith(e, "/api/admin/check-user-access/nobody%40example.com", admin.token)).json()).toEqual({ hasAccess: false, accessType: null, accountExists: false });
    // Malformed or doubly escaped addresses are a clear 400, never a 500.
    for (const bad of ["%25E0", "%E0%A4%A", "not-an-email"]) {
      const res = await getWith(e, `/api/admin/check-user-access/${bad}`, admin.token);
      expect(res.status, bad).toBe(400);
      expect((await bodyOf(res)).error).toBe(ADMIN_TEXT.invalidEmail);
    }
  });

  it("revoke needs the session's CSRF token; a missing or wrong one is refused and nothing changes", async () => {
    const { e, admin, user } = await setup();
    await postJson(e, "/api/admin/grant-temporary-access", { email: "free@example.com", planType: "daily" }, admin.token);
    for (const token of [undefined, "", "wrong-token", await csrf(e, user.token)]) {
      const res = await revoke(e, admin.token, { email: "free@example.com" }, token);
      expect(res.status).toBe(403);
      expect((await bodyOf(res)).error).toBe(ADMIN_TEXT.csrfInvalid);
    }
    expect((await profile(e, user.token)).hasUnlimitedAccess).toBe(true);
    expect((await getWith(e, "/api/csrf-token")).status).toBe(401);
    const ok = await revoke(e, admin.token, { email: "free@example.com" }, await csrf(e, admin.token));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ success: true, revoked: 1 });
    expect((await profile(e, user.token)).hasUnlimitedAccess).toBe(false);
    const again = await revoke(e, admin.token, { email: "free@example.com" }, await csrf(e, admin.token));
    expect(again.status).toBe(404);
    expect((await bodyOf(again)).error).toBe(ADMIN_TEXT.noActiveGrant("free@example.com"));
  });

  it("formats time left as the spec says", () => {
    expect(timeLeftText(0)).toBe("Expired");
    expect(timeLeftText(-5)).toBe("Expired");
    expect(timeLeftText(59_000)).toBe("0m");
    expect(timeLeftText(45 * 60_000)).toBe("45m");
    expect(timeLeftText(3 * 3_600_000 + 7 * 60_000)).toBe("3h 7m");
    expect(timeLeftText(2 * 86_400_000 + 5 * 3_600_000 + 59 * 60_000)).toBe("2d 5h");
  });
});

describe("override", () => {
  it("only admins may toggle it; on gives unlimited access, off takes it away and resets the demo", async () => {
    const { e, admin, user } = await setup();
    const denied = await postJson(e, "/api/admin/override", { enabled: true }, user.token);
    expect(denied.status).toBe(403);
    expect((await bodyOf(denied)).error).toBe("Only admin users can toggle override");
    expect((await postJson(e, "/api/admin/override", { enabled: true })).status).toBe(401);
    expect((await postJson(e, "/api/admin/override", { enabled: "yes" }, admin.token)).status).toBe(400);
    const notObject = await postJson(e, "/api/admin/override", [], admin.token);
    expect(notObject.status).toBe(400);
    expect((await bodyOf(notObject)).error).toBe("Request body must be a JSON object");
    expect(await profile(e, admin.token)).toMatchObject({ adminOverride: false, hasUnlimitedAccess: false });
    expect(await (await postJson(e, "/api/admin/override", { enabled: true }, admin.token)).json()).toEqual({ adminOverride: true });
    expect(await profile(e, admin.token)).toMatchObject({ adminOverride: true, hasUnlimitedAccess: true });
    // A demo the admin ran is forgotten when the override goes off.
    await e.db.insertInto("demo_sessions").values({ user_id: admin.userId, started_at: e.clock.now().toISOString(), ends_at: e.clock.now().toISOString() }).execute();
    expect(await (await postJson(e, "/api/admin/override", { enabled: false }, admin.token)).json()).toEqual({ adminOverride: false });
    expect(await profile(e, admin.token)).toMatchObject({ adminOverride: false, hasUnlimitedAccess: false, demo: { hasUsedDemo: false } });
  });
});

describe("email, settings and notifications", () => {
  it("email test, resend verification and the notification log; settings without secrets", async () => {
    const { e, admin } = await setup();
    await e.app.settle(); // the sign-up mails go out in the background: logged before the ones below
    expect(await (await postJson(e, "/api/admin/email-test", {}, admin.token)).json()).toEqual({ success: true, to: ADMIN });
    expect((await postJson(e, "/api/admin/resend-verification", { email: "free@example.com" }, admin.token)).status).toBe(200);
    expect((await postJson(e, "/api/admin/resend-verification", { email: "nobody@example.com" }, admin.token)).status).toBe(404);
    await e.app.settle();
    const notes = (await (await getWith(e, "/api/admin/notifications", admin.token)).json()) as { total: number; notifications: { to: string; subject: string }[] };
    expect(notes.notifications.slice(0, 2).map((n) => n.to)).toEqual(["free@example.com", ADMIN]);
    expect(notes.total).toBeGreaterThanOrEqual(4); // two sign-up mails too
    const settings = await (await getWith(e, "/api/admin/settings", admin.token)).text();
    expect(settings).not.toContain("test-secret");
    expect(JSON.parse(settings)).toMatchObject({ mail: "outbox", payments: { configured: false }, storage: { configured: true } });
  });
});

describe("stats from the payments ledger", () => {
  it("a paid monthly invoice and a day pass count once each, in revenue and this month's revenue", async () => {
    const e = (env = await makePaymentsApp({ adminEmails: [ADMIN] }));
    const admin = await signUp(e, ADMIN);
    const buyer = await signUp(e, "buyer@example.com");
    const dayBuyer = await signUp(e, "day@example.com");
    const checkout = async (priceId: string, token = buyer.token) => {
      const res = await postJson(e, "/api/stripe/create-checkout-session", { priceId }, token);
      return ((await res.json()) as { sessionId: string }).sessionId;
    };
    const day = await checkout(PRICES.oneDay, dayBuyer.token);
    const dayEvent = eventOf(e, "checkout.session.completed", e.stripe.pay(day));
    await deliver(e, dayEvent);
    await deliver(e, { ...dayEvent, id: "evt_again" });
    const paid = e.stripe.pay(await checkout(PRICES.monthly));
    const invoice = { id: "in_month_1", object: "invoice", amount_paid: 2200, currency: "usd", status: "paid", parent: { type: "subscription_details", subscription_details: { subscription: paid.subscription } } };
    await deliver(e, eventOf(e, "checkout.session.completed", paid));
    await deliver(e, eventOf(e, "invoice.paid", invoice));
    await deliver(e, eventOf(e, "invoice.paid", invoice));
    const stats = await (await getWith(e, "/api/admin/stats", admin.token)).json();
    expect(stats).toEqual({ totalUsers: 3, activeSubscriptions: 2, monthlyRevenue: 444 + 2200, revenue: 444 + 2200, currency: "usd" });
    const users = (await (await getWith(e, "/api/admin/users", admin.token)).json()) as { users: { email: string; subscription: unknown }[] };
    expect(users.users.find((u) => u.email === "buyer@example.com")?.subscription).toMatchObject({ planName: "Monthly Plan" });
    // A month later the payments still count in total revenue, not in this month's.
    e.clock.advance(31 * 86_400_000);
    const login = await postJson(e, "/api/auth/login", { email: ADMIN, password: "correct horse" });
    const token = ((await login.json()) as { token: string }).token;
    expect(await (await getWith(e, "/api/admin/stats", token)).json()).toMatchObject({ monthlyRevenue: 0, revenue: 2644 });
  });
});
