// The payment calls of spec/accounts.md section 7: the plan list with its price ids (GET
// /api/plans), checkout creation (3 attempts, 1 s apart, then the browser goes to the url), the
// post-payment calls of /success and the billing portal session. Fetch is injectable for tests.

import { ApiRequestError, requestJson } from "../account/api";
import { InvalidCheckoutAnswerError, MissingSessionUrlError, isTransientCheckoutError } from "./messages";
import { CHECKOUT_RETRY, withRetry, type RetryOptions } from "./retry";
import type { PricedPlan } from "./plans";

export interface PlansAnswer {
  configured: boolean;
  plans: PricedPlan[];
}

export interface CallDeps {
  fetchImpl?: typeof fetch;
}

export function fetchPlans(deps: CallDeps = {}): Promise<PlansAnswer> {
  return requestJson<PlansAnswer>("/api/plans", { fetchImpl: deps.fetchImpl });
}

/** True for an absolute http or https address. */
function isWebUrl(url: unknown): boolean {
  if (typeof url !== "string") return false;
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** Creates a checkout session for `plan` and answers the url to send the browser to. Transient
 *  failures (no answer, 5xx, an answer without a url or with one that is no web address) are
 *  tried again, 3 attempts in all. */
export async function createCheckoutUrl(
  plan: Pick<PricedPlan, "priceId" | "mode">,
  token: string,
  deps: CallDeps & Pick<RetryOptions, "sleep"> = {},
): Promise<string> {
  if (!plan.priceId) throw new ApiRequestError("Invalid price", 400);
  return withRetry(
    async () => {
      const answer = await requestJson<{ sessionId?: string; url?: string }>("/api/stripe/create-checkout-session", {
        body: { priceId: plan.priceId, mode: plan.mode },
        token,
        fetchImpl: deps.fetchImpl,
      });
      if (!answer.url) throw new MissingSessionUrlError();
      // Only a web address is followed: the browser is sent wherever this url points.
      if (!isWebUrl(answer.url)) throw new InvalidCheckoutAnswerError();
      return answer.url;
    },
    { ...CHECKOUT_RETRY, retryIf: isTransientCheckoutError, sleep: deps.sleep },
  );
}

export interface GuestCheckoutAnswer {
  user_created?: boolean;
  fulfilled?: boolean;
}

/** /success, step 1: the server fulfils the paid session (also for a visitor who paid signed out). */
export function handleGuestCheckout(sessionId: string, token: string | null, deps: CallDeps = {}): Promise<GuestCheckoutAnswer> {
  return requestJson<GuestCheckoutAnswer>("/api/handle-guest-checkout", {
    body: { session_id: sessionId },
    token,
    fetchImpl: deps.fetchImpl,
  });
}

/** /success, step 2 (signed in only): confirms the subscription the session paid for. */
export function verifyCheckoutSession(
  sessionId: string,
  token: string,
  deps: CallDeps = {},
): Promise<{ verified?: boolean; refunded?: boolean; subscription?: unknown }> {
  return requestJson("/api/stripe/verify-checkout-session", { body: { sessionId }, token, fetchImpl: deps.fetchImpl });
}

/** A billing portal session that returns to `returnUrl`; its url, or a failure. */
export async function createPortalUrl(token: string, returnUrl: string, deps: CallDeps = {}): Promise<string> {
  const { url } = await requestJson<{ url?: string }>("/api/stripe/create-customer-portal-session", {
    body: { return_url: returnUrl },
    token,
    fetchImpl: deps.fetchImpl,
  });
  if (!url) throw new ApiRequestError("No billing portal url was returned", 502);
  return url;
}
