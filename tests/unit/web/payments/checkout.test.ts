// Checkout (spec/accounts.md sections 4, 7 and 8): the retry helper (3 attempts, 1 s apart, only
// for transient failures), checkout creation against a fake fetch, and the error-text mapping of
// checkout and the billing portal.

import { describe, expect, it, vi } from "vitest";
import { ApiRequestError } from "../../../../web/account/api";
import { createCheckoutUrl, createPortalUrl } from "../../../../web/payments/checkout";
import {
  checkoutErrorText, InvalidCheckoutAnswerError, isTransientCheckoutError, MissingSessionUrlError, PAY_TEXT, portalReason,
} from "../../../../web/payments/messages";
import { withRetry } from "../../../../web/payments/retry";

const http = (status: number, message = "Request failed") => new ApiRequestError(message, status);
const offline = new ApiRequestError("Failed to fetch", 0, true);

/** A fetch answering the queued responses in order and recording each request. */
function fakeFetch(...answers: (Response | Error)[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const impl = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    if (next instanceof Error) throw next;
    return next;
  }) as unknown as typeof fetch;
  return { impl, calls };
}
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("withRetry", () => {
  it("tries 3 times with a 1 s pause between attempts, then rethrows the last failure", async () => {
    const sleeps: number[] = [];
    const fn = vi.fn(async (attempt: number) => {
      throw new Error(`attempt ${attempt}`);
    });
    await expect(withRetry(fn, { sleep: async (ms) => void sleeps.push(ms) })).rejects.toThrow("attempt 3");
    expect(fn).toHaveBeenCalledTimes(3);
    expect(sleeps).toEqual([1000, 1000]);
  });

  it("answers the first success without further attempts or pauses", async () => {
    const sleeps: number[] = [];
    let n = 0;
    const value = await withRetry(
      async () => {
        if (++n < 2) throw new Error("flaky");
        return "ok";
      },
      { sleep: async (ms) => void sleeps.push(ms) },
    );
    expect(value).toBe("ok");
    expect(n).toBe(2);
    expect(sleeps).toEqual([1000]);
  });

  it("does not retry what retryIf refuses", async () => {
    const fn = vi.fn(async () => {
      throw http(409, "You already have an active subscription");
    });
    await expect(withRetry(fn, { retryIf: isTransientCheckoutError, sleep: async () => {} })).rejects.toThrow(
      "You already have an active subscription",
    );
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe("createCheckoutUrl", () => {
  const plan = { priceId: "price_monthly", mode: "subscription" as const };
  const noSleep = async () => {};

  it("posts priceId and mode with the bearer token and answers the url", async () => {
    const f = fakeFetch(json(200, { sessionId: "cs_1", url: "https://pay.test/cs_1" }));
    expect(await createCheckoutUrl(plan, "tok", { fetchImpl: f.impl, sleep: noSleep })).toBe("https://pay.test/cs_1");
    expect(f.calls).toHaveLength(1);
    expect(f.calls[0].url).toBe("/api/stripe/create-checkout-session");
    expect(JSON.parse(String(f.calls[0].init.body))).toEqual({ priceId: "price_monthly", mode: "subscription" });
    expect((f.calls[0].init.headers as Record<string, string>).Authorization).toBe("Bearer tok");
  });

  it("retries network failures and 5xx answers, succeeding on the third attempt", async () => {
    const f = fakeFetch(new TypeError("Failed to fetch"), json(500, { error: "boom" }), json(200, { url: "https://pay.test/x" }));
    expect(await createCheckoutUrl(plan, "tok", { fetchImpl: f.impl, sleep: noSleep })).toBe("https://pay.test/x");
    expect(f.calls).toHaveLength(3);
  });

  it("gives up after 3 attempts", async () => {
    const f = fakeFetch(json(502, {}), json(502, {}), json(502, {}), json(200, { url: "never" }));
    await expect(createCheckoutUrl(plan, "tok", { fetchImpl: f.impl, sleep: noSleep })).rejects.toBeInstanceOf(ApiRequestError);
    expect(f.calls).toHaveLength(3);
  });

  it("an answer without a url is a failure ('missing session data') after 3 attempts", async () => {
    const f = fakeFetch(json(200, { sessionId: "cs" }), json(200, {}), json(200, {}));
    const err = await createCheckoutUrl(plan, "tok", { fetchImpl: f.impl, sleep: noSleep }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingSessionUrlError);
    expect(checkoutErrorText(err)).toBe("Payment session creation failed - missing session data");
    expect(f.calls).toHaveLength(3);
  });

  it("an answer whose url is no web address is 'Invalid response from payment service' after 3 attempts", async () => {
    const f = fakeFetch(json(200, { url: "javascript:alert(1)" }), json(200, { url: 42 }), json(200, { url: "not a url" }));
    const err = await createCheckoutUrl(plan, "tok", { fetchImpl: f.impl, sleep: noSleep }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidCheckoutAnswerError);
    expect(checkoutErrorText(err)).toBe("Invalid response from payment service");
    expect(f.calls).toHaveLength(3);
  });

  it.each([
    [409, "You already have an active subscription"],
    [503, "Payments are not configured"],
    [401, "Invalid token"],
  ])("does not retry %i", async (status, error) => {
    const f = fakeFetch(json(status, { error }), json(200, { url: "never" }));
    await expect(createCheckoutUrl(plan, "tok", { fetchImpl: f.impl, sleep: noSleep })).rejects.toThrow(error);
    expect(f.calls).toHaveLength(1);
  });

  it("a plan without a price id never calls the server", async () => {
    const f = fakeFetch();
    const err = await createCheckoutUrl({ priceId: null, mode: "payment" }, "tok", { fetchImpl: f.impl }).catch((e: unknown) => e);
    expect(checkoutErrorText(err)).toBe("Payment configuration error. Please contact support.");
    expect(f.calls).toHaveLength(0);
  });
});

describe("checkout error texts (spec 8, Checkout)", () => {
  it.each<[unknown, string]>([
    [offline, "Connection issue. Please check your internet and try again."],
    [new TypeError("Failed to fetch"), "Connection issue. Please check your internet and try again."],
    [http(500, "NetworkError when attempting to fetch resource."), "Connection issue. Please check your internet and try again."],
    [http(400, "Invalid priceId"), "Payment configuration error. Please contact support."],
    [new MissingSessionUrlError(), "Payment session creation failed - missing session data"],
    [new InvalidCheckoutAnswerError(), "Invalid response from payment service"],
    [http(500), "Failed to create checkout session"],
    [http(502, "Stripe is down"), "Failed to create checkout session"],
    [http(400, "Something else"), "Payment setup failed. Please try again."],
    [http(403, "Forbidden"), "Payment setup failed. Please try again."],
    [new Error("weird"), "Checkout failed. Please try again."],
    [new RangeError("bad state"), "Checkout failed. Please try again."],
    [http(409, "You already have an active subscription"), "You already have an active subscription"],
    [http(429, "Too many attempts. Please wait a minute."), "Too many attempts. Please wait a minute."],
    [http(429), "Unable to start checkout. Please try again."],
    [http(409), "Unable to start checkout. Please try again."],
    [http(503, "Payments are not configured"), "Payments are not configured"],
    [http(503), "Unable to start checkout. Please try again."],
    [http(401, "Invalid token"), "Please create an account or sign in to continue"],
  ])("%s -> %s", (err, text) => {
    expect(checkoutErrorText(err)).toBe(text);
    expect(checkoutErrorText(err, "payment")).toBe(text);
  });

  it("a server failure while starting a subscription says so; a one-time payment's names the checkout session", () => {
    expect(checkoutErrorText(http(500), "subscription")).toBe("Failed to start subscription process");
    expect(checkoutErrorText(http(502, "Stripe is down"), "subscription")).toBe("Failed to start subscription process");
    expect(checkoutErrorText(http(500), "payment")).toBe("Failed to create checkout session");
    // Other failures read the same whatever the plan.
    expect(checkoutErrorText(offline, "subscription")).toBe("Connection issue. Please check your internet and try again.");
    expect(checkoutErrorText(http(400, "Something else"), "subscription")).toBe("Payment setup failed. Please try again.");
  });

  it("transient: network, 5xx but 503, missing url, a url that is no web address", () => {
    expect(isTransientCheckoutError(new InvalidCheckoutAnswerError())).toBe(true);
    expect(isTransientCheckoutError(offline)).toBe(true);
    expect(isTransientCheckoutError(http(500))).toBe(true);
    expect(isTransientCheckoutError(new MissingSessionUrlError())).toBe(true);
    expect(isTransientCheckoutError(http(503))).toBe(false);
    expect(isTransientCheckoutError(http(400))).toBe(false);
    expect(isTransientCheckoutError(http(409))).toBe(false);
  });
});

describe("billing portal texts (spec 8, Billing)", () => {
  it("the reason is the server's text, the connection text offline, else a plain retry", () => {
    expect(portalReason(http(404, "No billing account found"))).toBe("No billing account found");
    expect(portalReason(offline)).toBe("Connection issue. Please check your internet and try again.");
    expect(portalReason(http(500))).toBe("Please try again.");
  });

  it("formats the menu and update-payment texts", () => {
    expect(PAY_TEXT.billingUnavailable("No billing account found")).toBe("Billing portal unavailable: No billing account found");
    expect(PAY_TEXT.updatePaymentFailed("No billing account found")).toBe("Failed to open billing portal: No billing account found");
  });

  it("createPortalUrl sends return_url and fails without a url", async () => {
    const ok = fakeFetch(json(200, { url: "https://portal.test/p" }));
    expect(await createPortalUrl("tok", "http://app.test/app", { fetchImpl: ok.impl })).toBe("https://portal.test/p");
    expect(JSON.parse(String(ok.calls[0].init.body))).toEqual({ return_url: "http://app.test/app" });
    const none = fakeFetch(json(200, {}));
    await expect(createPortalUrl("tok", "x", { fetchImpl: none.impl })).rejects.toBeInstanceOf(ApiRequestError);
    const missing = fakeFetch(json(404, { error: "No billing account found" }));
    await expect(createPortalUrl("tok", "x", { fetchImpl: missing.impl })).rejects.toThrow("No billing account found");
  });
});
