// POST /api/stripe/webhook: signature and age checks on the raw body (nothing written when they
// fail), each event id applied once even when delivered five times at once, and subscription
// events in any order ending in the right state. Events are signed with the real library's
// generateTestHeaderString and the configured secret.
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Json, signedWebhook } from "../fake-stripe";
import { bodyOf, getWith, postJson, signUp } from "../helpers";
import { deliver, eventOf, makePaymentsApp, nowSeconds, type PaymentsEnv, PRICES, WEBHOOK_SECRET } from "./payments-setup";

let env: PaymentsEnv;
beforeEach(async () => {
  env = await makePaymentsApp();
});
afterEach(async () => {
  await env.close();
});

/** A signed-up user with a Stripe customer (from an unpaid checkout of `plan`) and that session. */
async function customerWithSession(plan: keyof typeof PRICES = "monthly") {
  const { token, userId } = await signUp(env);
  const res = await postJson(env, "/api/stripe/create-checkout-session", { priceId: PRICES[plan] }, token);
  const { sessionId } = (await res.json()) as { sessionId: string };
  const customer = [...env.stripe.customers.keys()][0];
  return { token, userId, sessionId, customer };
}

function subscription(id: string, customer: string, over: { status?: string; periodEnd?: number; price?: string; metadata?: Json } = {}): Json {
  return {
    id,
    object: "subscription",
    customer,
    status: over.status ?? "active",
    metadata: over.metadata ?? {},
    items: {
      object: "list",
      data: [{ id: `si_${id}`, object: "subscription_item", price: { id: over.price ?? PRICES.monthly }, current_period_end: over.periodEnd ?? nowSeconds(env) + 30 * 86_400 }],
    },
  };
}

const profileOf = async (token: string) => bodyOf(await getWith(env, "/api/user/profile", token));
const rows = () => env.db.selectFrom("subscriptions").selectAll().execute();
const processed = () => env.db.selectFrom("processed_events").selectAll().execute();

describe("signature", () => {
  it("refuses a tampered payload, a stale or missing signature and a wrong secret with 400, writing nothing", async () => {
    const { sessionId } = await customerWithSession("oneDay");
    const session = env.stripe.pay(sessionId);
    const event = eventOf(env, "checkout.session.completed", session);
    const signed = signedWebhook(event, WEBHOOK_SECRET, nowSeconds(env));
    const attempts: { body: string; headers: Record<string, string> }[] = [
      { ...signed, body: signed.body.replace('"payment_status": "paid"', '"payment_status": "paid" ') },
      { ...signed, body: signed.body.replace(sessionId, "cs_test_999999") },
      signedWebhook(event, WEBHOOK_SECRET, nowSeconds(env) - 301),
      signedWebhook(event, "whsec_someone_else", nowSeconds(env)),
      { body: signed.body, headers: { "Content-Type": "application/json" } },
      { body: signed.body, headers: { "Stripe-Signature": "t=1,v1=abc" } },
      { body: "not json", headers: signedWebhook(event, WEBHOOK_SECRET, nowSeconds(env)).headers },
    ];
    for (const { body, headers } of attempts) {
      const res = await env.app.request("/api/stripe/webhook", { method: "POST", headers, body });
      expect(res.status).toBe(400);
      expect(await bodyOf(res)).toEqual({ error: "Invalid webhook signature" });
    }
    expect(await rows()).toEqual([]);
    expect(await processed()).toEqual([]);

    // 299 s old is still inside the 300 s tolerance
    expect((await deliver(env, event, nowSeconds(env) - 299)).status).toBe(200);
    expect(await rows()).toHaveLength(1);
  });
});

describe("a correctly signed body that is not a Stripe event (found by tests/unit/api/fuzz.test.ts)", () => {
  const signedRaw = (body: string) => ({
    "Content-Type": "application/json",
    "Stripe-Signature": Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET, timestamp: nowSeconds(env) }),
  });

  it("answers 400 'Invalid webhook event' (not a 500) and records nothing", async () => {
    const bodies = [
      "not json",
      "null",
      "[]",
      "{}",
      '{"id":"evt_1","created":1,"data":{"object":{}}}', // no type: processed_events.type is NOT NULL
      '{"id":{"x":1},"type":"customer.created","created":1,"data":{"object":{}}}', // an id SQLite cannot bind
      '{"id":"evt_2","type":"checkout.session.completed","created":1e20,"data":{"object":{"id":"cs_1"}}}', // no Date holds it
      '{"id":"evt_3","type":"customer.created","created":1}', // no data.object
    ];
    for (const body of bodies) {
      const res = await env.app.request("/api/stripe/webhook", { method: "POST", headers: signedRaw(body), body });
      expect(res.status, body).toBe(400);
      expect(await bodyOf(res)).toEqual({ error: "Invalid webhook event" });
    }
    expect(await processed()).toEqual([]);
    expect(env.errors).toEqual([]);
  });

  it("reads a subscription's odd items and period ends as absent: 200, never a 500", async () => {
    const { userId, customer } = await customerWithSession();
    const odd = { ...subscription("sub_odd", customer, { metadata: { userId } }), items: { data: "not a list" }, current_period_end: 1e300 };
    expect((await deliver(env, eventOf(env, "customer.subscription.updated", odd))).status).toBe(200);
    const far = subscription("sub_far", customer, { metadata: { userId }, periodEnd: 1e300 });
    expect((await deliver(env, eventOf(env, "customer.subscription.updated", far))).status).toBe(200);
    // The far one is recorded without an end it cannot have; the odd one has no price, so no plan.
    expect((await rows()).map((r) => [r.stripe_subscription_id, r.current_period_end])).toEqual([["sub_far", null]]);
  });
});

describe("idempotency", () => {
  it.each(["monthly", "oneDay"] as const)("%s: the same checkout.session.completed five times at once fulfils once", async (plan) => {
    const { token, sessionId } = await customerWithSession(plan);
    const event = eventOf(env, "checkout.session.completed", env.stripe.pay(sessionId));
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(env, event)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ duplicate: boolean }>));
    expect(bodies.filter((b) => !b.duplicate)).toHaveLength(1);
    expect(await rows()).toHaveLength(1);
    expect(await processed()).toEqual([expect.objectContaining({ id: event.id, type: "checkout.session.completed" })]);
    expect((await profileOf(token)).hasActiveSubscription).toBe(true);

    // the success page afterwards finds it fulfilled and adds nothing
    const page = await postJson(env, "/api/handle-guest-checkout", { session_id: sessionId });
    expect(await bodyOf(page)).toEqual({ user_created: false, fulfilled: true });
    expect(await rows()).toHaveLength(1);
  });
});

describe("subscription lifecycle", () => {
  it("a completed checkout through the webhook makes the profile Pro", async () => {
    const { token, sessionId } = await customerWithSession("commercial");
    const res = await deliver(env, eventOf(env, "checkout.session.completed", env.stripe.pay(sessionId)));
    expect(res.status).toBe(200);
    const profile = await profileOf(token);
    expect(profile.subscription).toMatchObject({ isActive: true, planName: "Commercial License" });
    expect(profile.entitlements).toMatchObject({ level: "pro" });
  });

  it("updated before created still ends in the newer state", async () => {
    const { token, customer } = await customerWithSession();
    const t = nowSeconds(env);
    const created = eventOf(env, "customer.subscription.created", subscription("sub_A", customer, { status: "incomplete", periodEnd: t + 100 }), t);
    const updated = eventOf(env, "customer.subscription.updated", subscription("sub_A", customer, { price: PRICES.commercial, periodEnd: t + 30 * 86_400 }), t + 5);
    expect((await deliver(env, updated)).status).toBe(200);
    expect((await deliver(env, created)).status).toBe(200);
    const [row] = await rows();
    expect(row).toMatchObject({ stripe_subscription_id: "sub_A", status: "active", plan_key: "commercial", plan_name: "Commercial License" });
    expect(row.current_period_end).toBe(new Date((t + 30 * 86_400) * 1000).toISOString());
    expect((await profileOf(token)).hasActiveSubscription).toBe(true);
    expect(await processed()).toHaveLength(2);
  });

  it("deleted ends access, and a late older update does not bring it back", async () => {
    const { token, customer } = await customerWithSession();
    const t = nowSeconds(env);
    await deliver(env, eventOf(env, "customer.subscription.created", subscription("sub_B", customer), t));
    expect((await profileOf(token)).hasActiveSubscription).toBe(true);
    await deliver(env, eventOf(env, "customer.subscription.deleted", subscription("sub_B", customer, { status: "canceled" }), t + 60));
    const after = await profileOf(token);
    expect(after).toMatchObject({ hasActiveSubscription: false, hasUnlimitedAccess: false });
    expect(after.subscription).toMatchObject({ isActive: false, planName: "Monthly Plan" });
    await deliver(env, eventOf(env, "customer.subscription.updated", subscription("sub_B", customer), t + 30));
    expect((await rows())[0].status).toBe("canceled");
  });

  it("invoice.payment_failed marks past_due (no access); invoice.paid restores it with the new period", async () => {
    const { token, sessionId } = await customerWithSession();
    await deliver(env, eventOf(env, "checkout.session.completed", env.stripe.pay(sessionId)));
    const sub = [...env.stripe.subscriptions.values()][0] as Json & { id: string };
    const invoice = (status: string) => ({ id: "in_1", object: "invoice", status, parent: { type: "subscription_details", subscription_details: { subscription: sub.id } } });

    env.clock.advance(30 * 86_400_000 - 3_600_000);
    await deliver(env, eventOf(env, "invoice.payment_failed", invoice("open")));
    expect((await rows())[0].status).toBe("past_due");
    expect((await profileOf(token)).hasActiveSubscription).toBe(false);

    const newEnd = nowSeconds(env) + 31 * 86_400;
    (sub.items as { data: Json[] }).data[0].current_period_end = newEnd;
    env.clock.advance(60_000);
    await deliver(env, eventOf(env, "invoice.paid", invoice("paid")));
    const profile = await profileOf(token);
    expect(profile.subscription).toEqual({ isActive: true, planName: "Monthly Plan", endDate: new Date(newEnd * 1000).toISOString() });
  });

  it("the One Day Pass bought through the webhook expires 24 hours after payment", async () => {
    const { token, sessionId } = await customerWithSession("oneDay");
    const paidAt = env.clock.ms;
    const event = eventOf(env, "checkout.session.completed", env.stripe.pay(sessionId));
    env.clock.advance(120_000); // delivered two minutes late: the pass still counts from payment
    await deliver(env, event, nowSeconds(env));
    expect((await profileOf(token)).subscription).toEqual({ isActive: true, planName: "One Day Pass", endDate: new Date(paidAt + 86_400_000).toISOString() });
    env.clock.advance(86_400_000 - 120_000);
    expect((await profileOf(token)).hasActiveSubscription).toBe(false);
  });

  it("acknowledges event types it does not act on, once", async () => {
    const event = eventOf(env, "customer.created", { id: "cus_x", object: "customer" });
    expect(await bodyOf(await deliver(env, event))).toEqual({ received: true, duplicate: false });
    expect(await bodyOf(await deliver(env, event))).toEqual({ received: true, duplicate: true });
    expect(await rows()).toEqual([]);
    expect(env.errors).toEqual([]);
  });
});
