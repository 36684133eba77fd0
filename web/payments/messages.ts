// The user-visible texts of checkout, the billing portal and the demo, copied verbatim from
// spec/accounts.md section 8 (Checkout, Subscribe gating, Billing, Demo) and spec/studio.md
// section 8 (billing portal from the menu), and the mappers from a failed call to the text the
// spec prescribes. Texts the API answers with as well come from api/rules/texts.ts. Pure:
// unit-tested without a browser.

import { BILLING_TEXT } from "../../api/rules/texts";
import type { PlanMode } from "../../api/rules/plans";
import { ApiRequestError } from "../account/api";
import { asApiError, isNetwork, serverText } from "../account/messages";

export const PAY_TEXT = {
  ...BILLING_TEXT,
  // checkout (spec 8, "Checkout")
  checkoutNetwork: "Connection issue. Please check your internet and try again.",
  checkoutConfig: "Payment configuration error. Please contact support.",
  checkoutMissingUrl: "Payment session creation failed - missing session data",
  checkoutInvalidAnswer: "Invalid response from payment service",
  checkoutSetupFailed: "Payment setup failed. Please try again.",
  checkoutUnavailable: "Unable to start checkout. Please try again.",
  checkoutSessionFailed: "Failed to create checkout session",
  subscriptionStartFailed: "Failed to start subscription process",
  checkoutFailed: "Checkout failed. Please try again.",
  checkoutProcessFailed: "Failed to process checkout. Please contact support if you were charged.",
  welcomePro: "Welcome to Pro! Your account has been upgraded.",
  paymentSuccessful: "Payment Successful",
  verifying: "Verifying your subscription...",
  // subscribe gating
  subscribeSignIn: "Please create an account or sign in to view subscription plans",
  subscribeSignInContinue: "Please create an account or sign in to continue",
  // billing (spec 8, "Billing"; spec/studio.md 8)
  billingSignInAgain: "Please sign in again to continue",
  billingUnavailable: (message: string) => `Billing portal unavailable: ${message}`,
  billingPageFailed: "Unable to open billing portal. Please try again.",
  billingPageTitle: "Unable to Open Billing",
  updatePaymentFailed: (reason: string) => `Failed to open billing portal: ${reason}`,
  sessionExpired: "Session expired. Please sign in again.",
  popupBlocked: "Please allow pop-ups to access billing portal",
  portalOpened: "Billing portal opened in new tab",
  portalLinkCopied: "Billing portal link copied to clipboard",
  signInToReactivate: "Please sign in to reactivate your subscription",
  signInToManageBilling: "Please sign in to manage your billing",
} as const;

/** Thrown when the checkout answer carried no url to go to. */
export class MissingSessionUrlError extends Error {
  constructor() {
    super(PAY_TEXT.checkoutMissingUrl);
    this.name = "MissingSessionUrlError";
  }
}

/** Thrown when the checkout answer's url is not a web address (http or https) to send the
 *  browser to. */
export class InvalidCheckoutAnswerError extends Error {
  constructor() {
    super(PAY_TEXT.checkoutInvalidAnswer);
    this.name = "InvalidCheckoutAnswerError";
  }
}

/** Spec 8, "Checkout": what a failed checkout creation of a plan in `mode` shows, each of the
 *  spec's texts where it belongs:
 *  - an answer without a url: 'missing session data'; a url that is no web address: 'Invalid
 *    response from payment service';
 *  - no answer at all: 'Connection issue...'; a dead session (401) asks the visitor to sign in;
 *  - refusals the server words itself (409 an active subscription or a renewal due, 429 too many
 *    attempts, 503 payments not configured) keep its text, else 'Unable to start checkout...';
 *  - a request the server calls invalid (an unknown price or mode): 'Payment configuration error...';
 *  - the server failing to create the session (5xx after the retries): 'Failed to start
 *    subscription process' for a subscription, 'Failed to create checkout session' for a payment;
 *  - any other refusal (4xx): 'Payment setup failed...';
 *  - anything thrown that is no call's failure (a bug on this side): 'Checkout failed...'. */
export function checkoutErrorText(err: unknown, mode?: PlanMode): string {
  if (err instanceof MissingSessionUrlError) return PAY_TEXT.checkoutMissingUrl;
  if (err instanceof InvalidCheckoutAnswerError) return PAY_TEXT.checkoutInvalidAnswer;
  const e = asApiError(err);
  if (isNetwork(e)) return PAY_TEXT.checkoutNetwork;
  if (!(err instanceof ApiRequestError)) return PAY_TEXT.checkoutFailed;
  if (e.status === 401) return PAY_TEXT.subscribeSignInContinue;
  if (e.status === 409 || e.status === 429 || e.status === 503) return serverText(e) ?? PAY_TEXT.checkoutUnavailable;
  if (e.message.includes("Invalid")) return PAY_TEXT.checkoutConfig;
  if (e.status >= 500) return mode === "subscription" ? PAY_TEXT.subscriptionStartFailed : PAY_TEXT.checkoutSessionFailed;
  return PAY_TEXT.checkoutSetupFailed;
}

/** A checkout failure worth another attempt: no answer at all, an answer without a usable url, or
 *  a server error other than 503 (payments not configured stays so however often it is asked). */
export function isTransientCheckoutError(err: unknown): boolean {
  if (err instanceof MissingSessionUrlError || err instanceof InvalidCheckoutAnswerError) return true;
  const e = asApiError(err);
  return e.network || (e.status >= 500 && e.status !== 503);
}

/** The reason inside 'Billing portal unavailable: {message}' and 'Failed to open billing
 *  portal: {reason}': the server's text, or a plain one when it gave none. */
export function portalReason(err: unknown): string {
  const e = asApiError(err);
  if (isNetwork(e)) return PAY_TEXT.checkoutNetwork;
  return serverText(e) ?? "Please try again.";
}
