// Payments through the real Node server (sockets, not app.request): STRIPE_* parsing, the raw
// webhook body surviving @hono/node-server, and the fake Stripe's hosted checkout page paying a
// session and sending the browser back to /success, as the e2e tests will use it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseStripeApiBase, paymentsFromEnv } from "../../../../api/config";
import { optionsFromEnv, type RunningServer, startServer } from "../../../../api/server";
import { type FakeStripe, signedWebhook, startFakeStripe, stripeEvent } from "../fake-stripe";
import { fastHasher } from "../helpers";
import { PRICES, WEBHOOK_SECRET } from "./payments-setup";

describe("STRIPE_* environment", () => {
  it("reads the keys, the price ids and STRIPE_API_BASE; nothing set means no payments", () => {
    expect(paymentsFromEnv({})).toBeUndefined();
    expect(optionsFromEnv({}).payments).toBeUndefined();
    const env = {
      STRIPE_SECRET_KEY: "sk_test_1",
      STRIPE_WEBHOOK_SECRET: "whsec_1",
      STRIPE_PRICE_ONE_DAY: "price_a",
      STRIPE_PRICE_MONTHLY: " price_b ",
      STRIPE_API_BASE: "http://127.0.0.1:12111",
    };
    expect(optionsFromEnv(env).payments).toEqual({
      secretKey: "sk_test_1",
      webhookSecret: "whsec_1",
      prices: { oneDay: "price_a", monthly: "price_b", commercial: null },
      apiBase: "http://127.0.0.1:12111",
    });
    expect(() => paymentsFromEnv({ STRIPE_API_BASE: "ftp://x" })).toThrow(/STRIPE_API_BASE/);
  });

  it("turns STRIPE_API_BASE into the library's host, port and protocol", () => {
    expect(parseStripeApiBase("http://127.0.0.1:12111")).toEqual({ host: "127.0.0.1", port: 12111, protocol: "http" });
    expect(parseStripeApiBase("https://stripe.internal/")).toEqual({ host: "stripe.internal", port: 443, protocol: "https" });
    expect(parseStripeApiBase("http://[::1]:9000")).toEqual({ host: "::1", port: 9000, protocol: "http" });
    expect(() => parseStripeApiBase("http://x/v1")).toThrow(/origin/);
    expect(() => parseStripeApiBase("nonsense")).toThrow();
  });
});

describe("payments over HTTP", () => {
  let root: string;
  let stripe: FakeStripe;
  let server: RunningServer;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "studio-pay-"));
    stripe = await startFakeStripe();
    server = await startServer({
      port: 0,
      dataDir: join(root, "data"),
      distDir: join(root, "dist"),
      hasher: fastHasher,
      log: () => {},
      payments: { secretKey: "sk_test_fake", webhookSecret: WEBHOOK_SECRET, prices: PRICES, apiBase: stripe.url },
    });
    stripe.webhook = { url: `${server.url}/api/stripe/webhook`, secret: WEBHOOK_SECRET };
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
    rmSync(root, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, token?: string) =>
    fetch(server.url + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  it("checkout, the hosted page, the signed webhook and the success page work end to end", async () => {
    const reg = (await (await post("/api/auth/register", { email: "pay@example.com", password: "sea glass 12" })).json()) as { token: string };
    const created = (await (await post("/api/stripe/create-checkout-session", { priceId: PRICES.monthly, mode: "subscription" }, reg.token)).json()) as {
      sessionId: string;
      url: string;
    };
    // the browser's trip: the hosted page pays, delivers checkout.session.completed, and redirects
    const paid = await fetch(created.url, { redirect: "manual" });
    expect(paid.status).toBe(303);
    const port = new URL(server.url).port;
    expect(paid.headers.get("location")).toBe(`http://localhost:${port}/success?session_id=${created.sessionId}`);

    const profile = (await (await fetch(`${server.url}/api/user/profile`, { headers: { Authorization: `Bearer ${reg.token}` } })).json()) as {
      subscription: { planName: string; isActive: boolean };
    };
    expect(profile.subscription).toMatchObject({ isActive: true, planName: "Monthly Plan" });
    const verify = await post("/api/stripe/verify-checkout-session", { sessionId: created.sessionId }, reg.token);
    expect(await verify.json()).toMatchObject({ verified: true });
  });

  it("verifies the signature over the raw bytes: re-serialised JSON is refused", async () => {
    const event = stripeEvent("customer.created", { id: "cus_raw", object: "customer", name: "Zoë" }, Math.floor(Date.now() / 1000));
    const { body, headers } = signedWebhook(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000));
    const ok = await fetch(`${server.url}/api/stripe/webhook`, { method: "POST", headers, body });
    expect(ok.status).toBe(200);
    const compact = await fetch(`${server.url}/api/stripe/webhook`, { method: "POST", headers, body: JSON.stringify(JSON.parse(body)) });
    expect(compact.status).toBe(400);
  });
});
