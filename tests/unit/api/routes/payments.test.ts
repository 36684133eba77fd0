// Plans, checkout, the success-page calls and the billing portal, with the real stripe library
// talking to the fake Stripe server: what is sent to Stripe (the recorded form bodies), what the
// profile says afterwards, and every refusal of the contract (400/401/403/404/409/429/503).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PLAN_KEYS, PLANS } from "../../../../api/rules/plans";
import { bodyOf, getWith, makeTestApp, postJson, PUBLIC_URL, signUp, type TestEnv } from "../helpers";
import { makePaymentsApp, type PaymentsEnv, PRICES } from "./payments-setup";

let env: PaymentsEnv;
beforeEach(async () => {
  env = await makePaymentsApp();
});
afterEach(async () => {
  await env.close();
});

async function checkout(token: string, priceId: string, mode?: string) {
  return postJson(env, "/api/stripe/create-checkout-session", mode ? { priceId, mode } : { priceId }, token);
}

/** Checks out `plan`, pays on the fake and runs the success page's guest-checkout call. */
async function buy(token: string, plan: keyof typeof PRICES) {
  const res = await checkout(token, PRICES[plan]);
  expect(res.status).toBe(200);
  const { sessionId } = (await res.json()) as { sessionId: string };
  env.stripe.pay(sessionId);
  const done = await postJson(env, "/api/handle-guest-checkout", { session_id: sessionId });
  expect(await bodyOf(done)).toEqual({ user_created: false, fulfilled: true });
  return sessionId;
}

describe("GET /api/plans", () => {
  it("lists oneDay, monthly, commercial with the configured price ids", async () => {
    const body = (await (await getWith(env, "/api/plans")).json()) as { configured: boolean; plans: Record<string, unknown>[] };
    expect(body.configured).toBe(true);
    expect(body.plans.map((p) => p.key)).toEqual(["oneDay", "monthly", "commercial"]);
    expect(body.plans.map((p) => p.priceId)).toEqual([PRICES.oneDay, PRICES.monthly, PRICES.commercial]);
    expect(body.plans.map((p) => [p.price, p.mode, p.planName])).toEqual([
      [4.44, "payment", "One Day Pass"],
      [22, "subscription", "Monthly Plan"],
      [191, "subscription", "Commercial License"],
    ]);
    expect(body.plans[0]).toMatchObject({ ...PLANS.oneDay });
  });
});

describe("POST /api/stripe/create-checkout-session", () => {
  it.each(PLAN_KEYS)("%s: a real Checkout Session with the plan's mode and price", async (key) => {
    const { token, userId } = await signUp(env);
    const res = await checkout(token, PRICES[key]);
    expect(res.status).toBe(200);
    const body = await bodyOf(res);
    expect(body.sessionId).toMatch(/^cs_/);
    expect(body.url).toBe(`${env.stripe.url}/pay/${body.sessionId}`);

    const [sent] = env.stripe.requestsTo("/v1/checkout/sessions");
    expect(sent.method).toBe("POST");
    expect(sent.form).toMatchObject({
      mode: PLANS[key].mode,
      "line_items[0][price]": PRICES[key],
      "line_items[0][quantity]": "1",
      client_reference_id: userId,
      "metadata[userId]": userId,
      "metadata[planKey]": key,
      success_url: `${PUBLIC_URL}/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${PUBLIC_URL}/subscribe`,
      customer: expect.stringMatching(/^cus_/),
    });
    if (PLANS[key].mode === "subscription") expect(sent.form["subscription_data[metadata][planKey]"]).toBe(key);
  });

  it("creates the Stripe customer once and reuses it, also for concurrent checkouts", async () => {
    const { token } = await signUp(env);
    const answers = await Promise.all([checkout(token, PRICES.monthly), checkout(token, PRICES.oneDay), checkout(token, PRICES.commercial)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(env.stripe.customers.size).toBe(1);
    const customer = [...env.stripe.customers.keys()][0];
    expect(env.stripe.requestsTo("/v1/checkout/sessions").map((r) => r.form.customer)).toEqual([customer, customer, customer]);
    expect(env.stripe.customers.get(customer)).toMatchObject({ email: "ada@example.com" });
    const rows = await env.db.selectFrom("stripe_customers").selectAll().execute();
    expect(rows).toHaveLength(1);
  });

  it("accepts the matching mode and refuses a contradicting one or an unknown price with 400", async () => {
    const { token } = await signUp(env);
    expect((await checkout(token, PRICES.oneDay, "payment")).status).toBe(200);
    expect((await checkout(token, PRICES.monthly, "subscription")).status).toBe(200);
    const wrongMode = await checkout(token, PRICES.oneDay, "subscription");
    expect(wrongMode.status).toBe(400);
    expect(await bodyOf(wrongMode)).toEqual({ error: "Invalid checkout mode for this plan" });
    expect((await checkout(token, PRICES.commercial, "payment")).status).toBe(400);
    const unknown = await checkout(token, "price_nope");
    expect(unknown.status).toBe(400);
    expect((await bodyOf(unknown)).error).toMatch(/^Invalid/);
    expect((await postJson(env, "/api/stripe/create-checkout-session", {}, token)).status).toBe(400);
    expect(env.stripe.requestsTo("/v1/checkout/sessions")).toHaveLength(2);
  });

  it("needs a session", async () => {
    const res = await checkout("", PRICES.monthly);
    expect(res.status).toBe(401);
    expect(env.stripe.requests).toHaveLength(0);
  });

  it("409 'You already have an active subscription' for a live paid plan, not for Admin Access or temporary access", async () => {
    const { token, userId } = await signUp(env);
    const now = env.clock.now().toISOString();
    const later = new Date(env.clock.ms + 86_400_000).toISOString();
    await env.db
      .insertInto("subscriptions")
      .values({ id: "admin", user_id: userId, plan_name: "Admin Access", status: "active", current_period_end: null, created_at: now, updated_at: now })
      .execute();
    await env.db
      .insertInto("temporary_access")
      .values({ id: "g1", email: "ada@example.com", access_type: "daily", duration_hours: 24, reason: "x", status: "active", created_at: now, end_date: later, granted_by: null })
      .execute();
    expect((await checkout(token, PRICES.monthly)).status).toBe(200);

    await buy(token, "monthly");
    for (const key of PLAN_KEYS) {
      const res = await checkout(token, PRICES[key]);
      expect(res.status).toBe(409);
      expect(await bodyOf(res)).toEqual({ error: "You already have an active subscription" });
    }
  });

  it("409 for a new subscription while a renewal's payment is due (past_due, unpaid); a Day Pass is still sold", async () => {
    const { token, userId } = await signUp(env);
    const now = env.clock.now().toISOString();
    const later = new Date(env.clock.ms + 86_400_000).toISOString();
    for (const status of ["past_due", "unpaid"]) {
      await env.db.deleteFrom("subscriptions").execute();
      await env.db
        .insertInto("subscriptions")
        .values({ id: `sub_${status}`, user_id: userId, plan_name: "Monthly Plan", status, current_period_end: later, created_at: now, updated_at: now })
        .execute();
      for (const key of PLAN_KEYS.filter((k) => PLANS[k].mode === "subscription")) {
        const res = await checkout(token, PRICES[key]);
        expect(res.status).toBe(409);
        expect(await bodyOf(res)).toEqual({ error: "Your subscription's last payment failed. Please update your payment method instead of subscribing again." });
      }
      const dayPass = PLAN_KEYS.find((k) => PLANS[k].mode === "payment")!;
      expect((await checkout(token, PRICES[dayPass])).status).toBe(200);
    }
    // A cancelled one is over: subscribing again is how to come back.
    await env.db.updateTable("subscriptions").set({ status: "canceled" }).execute();
    expect((await checkout(token, PRICES.monthly)).status).toBe(200);
  });

  it("limits checkout creation per user: 429 with Retry-After", async () => {
    const { token } = await signUp(env);
    for (let i = 0; i < 10; i++) expect((await checkout(token, PRICES.monthly)).status).toBe(200);
    const limited = await checkout(token, PRICES.monthly);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await signUp(env, "bob@example.com");
    expect((await checkout(other.token, PRICES.monthly)).status).toBe(200);
    env.clock.advance(10 * 60_000);
    expect((await checkout(token, PRICES.monthly)).status).toBe(200);
  });

  it("answers 502 (not a crash) when Stripe cannot be reached", async () => {
    const { token } = await signUp(env);
    await env.stripe.close();
    const res = await checkout(token, PRICES.monthly);
    expect(res.status).toBe(502);
    expect(await bodyOf(res)).toEqual({ error: "Payment service unavailable. Please try again." });
    env.errors.length = 0;
  }, 30_000);
});

describe("success page: handle-guest-checkout and verify-checkout-session", () => {
  it("a completed subscription checkout makes the profile Pro", async () => {
    const { token } = await signUp(env);
    const before = await bodyOf(await getWith(env, "/api/user/profile", token));
    expect(before).toMatchObject({ hasActiveSubscription: false, subscription: null });

    const sessionId = await buy(token, "monthly");
    const profile = await bodyOf(await getWith(env, "/api/user/profile", token));
    const sub = [...env.stripe.subscriptions.values()][0] as { items: { data: { current_period_start: number; current_period_end: number }[] } };
    const end = new Date(sub.items.data[0].current_period_end * 1000).toISOString();
    // Stripe's period (its start too: the counted exports' period) is stored on the row
    const stored = await env.db.selectFrom("subscriptions").select(["current_period_start", "current_period_end"]).executeTakeFirstOrThrow();
    expect(stored).toEqual({ current_period_start: new Date(sub.items.data[0].current_period_start * 1000).toISOString(), current_period_end: end });
    expect(profile).toMatchObject({ hasActiveSubscription: true, hasUnlimitedAccess: true });
    expect(profile.subscription).toEqual({ isActive: true, planName: "Monthly Plan", endDate: end });
    expect(profile.entitlements).toMatchObject({ level: "pro", capabilities: { channels: 4, allEffects: true } });

    const verify = await postJson(env, "/api/stripe/verify-checkout-session", { sessionId }, token);
    expect(await bodyOf(verify)).toEqual({ verified: true, subscription: { isActive: true, planName: "Monthly Plan", endDate: end } });
    // repeated calls (and the webhook later) fulfil nothing twice
    await postJson(env, "/api/handle-guest-checkout", { session_id: sessionId });
    const rows = await env.db.selectFrom("subscriptions").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ plan_key: "monthly", status: "active", stripe_subscription_id: expect.stringMatching(/^sub_/) });
  });

  it("an unpaid session is not fulfilled; unknown 404, malformed 400, someone else's 403", async () => {
    const { token } = await signUp(env);
    const { sessionId } = (await (await checkout(token, PRICES.commercial)).json()) as { sessionId: string };
    expect(await bodyOf(await postJson(env, "/api/handle-guest-checkout", { session_id: sessionId }))).toEqual({ user_created: false, fulfilled: false });
    expect(await bodyOf(await postJson(env, "/api/stripe/verify-checkout-session", { sessionId }, token))).toEqual({ verified: false, subscription: null });

    const missing = await postJson(env, "/api/handle-guest-checkout", { session_id: "cs_test_missing" });
    expect(missing.status).toBe(404);
    expect(typeof (await bodyOf(missing)).error).toBe("string");
    expect((await postJson(env, "/api/stripe/verify-checkout-session", { sessionId: "cs_test_missing" }, token)).status).toBe(404);
    for (const bad of [{}, { session_id: "" }, { session_id: "pi_123" }, { session_id: "cs_../../v1/customers" }, { session_id: 5 }]) {
      expect((await postJson(env, "/api/handle-guest-checkout", bad)).status).toBe(400);
    }

    const other = await signUp(env, "eve@example.com");
    const stolen = await postJson(env, "/api/stripe/verify-checkout-session", { sessionId }, other.token);
    expect(stolen.status).toBe(403);
    expect((await postJson(env, "/api/stripe/verify-checkout-session", { sessionId })).status).toBe(401);
  });

  it("the One Day Pass lasts 24 hours from payment", async () => {
    const { token } = await signUp(env);
    const paidAt = env.clock.ms;
    await buy(token, "oneDay");
    const profile = await bodyOf(await getWith(env, "/api/user/profile", token));
    expect(profile.subscription).toEqual({ isActive: true, planName: "One Day Pass", endDate: new Date(paidAt + 86_400_000).toISOString() });
    expect(profile.hasActiveSubscription).toBe(true);

    env.clock.advance(86_400_000 - 1);
    expect((await bodyOf(await getWith(env, "/api/user/profile", token))).hasActiveSubscription).toBe(true);
    env.clock.advance(1);
    const after = await bodyOf(await getWith(env, "/api/user/profile", token));
    expect(after).toMatchObject({ hasActiveSubscription: false, hasUnlimitedAccess: false });
    expect(after.subscription).toMatchObject({ isActive: false, planName: "One Day Pass" });
    expect((after.entitlements as { level: string }).level).toBe("free");
    expect((await checkout(token, PRICES.oneDay)).status).toBe(200); // may buy again
  });
});

describe("POST /api/stripe/create-customer-portal-session", () => {
  it("404 before any checkout, 400 for a foreign return_url, else a portal for the stored customer", async () => {
    const { token } = await signUp(env);
    const none = await postJson(env, "/api/stripe/create-customer-portal-session", { return_url: `${PUBLIC_URL}/app` }, token);
    expect(none.status).toBe(404);
    expect(await bodyOf(none)).toEqual({ error: "No billing account found" });

    await buy(token, "monthly");
    for (const url of ["https://evil.example/app", "javascript:alert(1)", "not a url", `${PUBLIC_URL}.evil.example/app`]) {
      const res = await postJson(env, "/api/stripe/create-customer-portal-session", { return_url: url }, token);
      expect(res.status, url).toBe(400);
    }
    const res = await postJson(env, "/api/stripe/create-customer-portal-session", { return_url: `${PUBLIC_URL}/app?x=1` }, token);
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).url).toMatch(/\/portal\/bps_/);
    const [sent] = env.stripe.requestsTo("/v1/billing_portal/sessions");
    expect(sent.form).toEqual({ customer: [...env.stripe.customers.keys()][0], return_url: `${PUBLIC_URL}/app?x=1` });
    expect((await postJson(env, "/api/stripe/create-customer-portal-session", {}, "")).status).toBe(401);
  });
});

describe("without STRIPE_SECRET_KEY", () => {
  let bare: TestEnv;
  beforeEach(async () => {
    bare = await makeTestApp();
  });
  afterEach(async () => {
    await bare.close();
  });

  it("every payment route answers 503 'Payments are not configured'; the rest works", async () => {
    const { token } = await signUp(bare);
    const routes: [string, unknown][] = [
      ["/api/stripe/create-checkout-session", { priceId: "price_monthly" }],
      ["/api/handle-guest-checkout", { session_id: "cs_test_1" }],
      ["/api/stripe/verify-checkout-session", { sessionId: "cs_test_1" }],
      ["/api/stripe/create-customer-portal-session", { return_url: `${PUBLIC_URL}/app` }],
      ["/api/stripe/webhook", { id: "evt_1" }],
    ];
    for (const [path, body] of routes) {
      for (const auth of [token, undefined]) {
        const res = await postJson(bare, path, body, auth);
        expect(res.status, path).toBe(503);
        expect(await bodyOf(res)).toEqual({ error: "Payments are not configured" });
      }
    }
    const plans = await bodyOf(await getWith(bare, "/api/plans"));
    expect(plans.configured).toBe(false);
    expect((plans.plans as { priceId: unknown }[]).map((p) => p.priceId)).toEqual([null, null, null]);
    expect(await bodyOf(await getWith(bare, "/api/health"))).toEqual({ ok: true });
    expect((await getWith(bare, "/api/user/profile", token)).status).toBe(200);
    expect((await getWith(bare, "/api/demo/status", token)).status).toBe(200);
  });
});
