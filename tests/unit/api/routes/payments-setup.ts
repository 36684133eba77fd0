// Fixtures of the payment tests: an app whose real stripe library talks to the fake Stripe server
// (both on the same movable clock), the configured price ids and webhook secret, and a helper
// that delivers a signed webhook event.
import { startFakeStripe, type FakeStripe, type Json, signedWebhook, stripeEvent } from "../fake-stripe";
import type { AppConfigInput } from "../../../../api/config";
import { makeTestApp, TestClock, type TestEnv } from "../helpers";

/** What makeTestApp takes besides the config, the clock excepted (shared with the fake Stripe). */
type Extra = Omit<NonNullable<Parameters<typeof makeTestApp>[1]>, "clock">;

export const PRICES = { oneDay: "price_day_pass", monthly: "price_monthly", commercial: "price_commercial" } as const;
export const WEBHOOK_SECRET = "whsec_test_0123456789abcdef";

export interface PaymentsEnv extends TestEnv {
  stripe: FakeStripe;
}

export async function makePaymentsApp(config: Partial<AppConfigInput> = {}, extra: Extra = {}): Promise<PaymentsEnv> {
  const clock = new TestClock();
  const stripe = await startFakeStripe({ now: () => clock.ms });
  const env = await makeTestApp(
    { ...config, payments: { secretKey: "sk_test_fake", webhookSecret: WEBHOOK_SECRET, prices: PRICES, apiBase: stripe.url } },
    { ...extra, clock },
  );
  return {
    ...env,
    stripe,
    async close() {
      await env.close();
      await stripe.close();
    },
  };
}

/** The app's clock in Stripe's unit (seconds). */
export const nowSeconds = (env: TestEnv) => Math.floor(env.clock.ms / 1000);

/** Posts `event` to the webhook, signed with the real secret at `timestamp` (default: now). */
export function deliver(env: TestEnv, event: Json, timestamp = nowSeconds(env)): Promise<Response> {
  const { body, headers } = signedWebhook(event, WEBHOOK_SECRET, timestamp);
  return Promise.resolve(env.app.request("/api/stripe/webhook", { method: "POST", headers, body }));
}

/** An event of `type` created now (or at `created`). */
export function eventOf(env: TestEnv, type: string, object: Json, created = nowSeconds(env)): Json {
  return stripeEvent(type, object, created);
}
