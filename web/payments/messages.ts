// The user-visible texts of checkout, the billing portal and the demo, copied verbatim from
// spec/accounts.md section 8 (Checkout, Subscribe gating, Billing, Demo) and spec/studio.md
// section 8 (billing portal from the menu), and the mappers from a failed call to the text the
// spec prescribes. Texts the API answers with as well come from api/rules/texts.ts. Pure:
// unit-tested without a browser.

import { BILLING_TEXT } from "../../api/rules/texts";
import { asApiError, isNetwork, serverText } from "../account/messages";

export const PAY_TEXT = {
  ...BILLING_TEXT,
  // checkout (spec 8, "Checkout")
  checkoutNetwork: "Connection issue. Please check your internet and try again.",
  checkoutConfig: "Payment configuration error. Please contact support.",
  checkoutMissingUrl: "Payment session creation failed - missing session data",
  checkoutFailed: "Payment setup failed. Please try again.",
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

/** Spec 8, "Checkout": what a failed checkout creation shows. The two refusals the server words
 *  itself (an active subscription, payments not configured) keep its text; a dead session asks
 *  the visitor to sign in. */
export function checkoutErrorText(err: unknown): string {
  if (err instanceof MissingSessionUrlError) return PAY_TEXT.checkoutMissingUrl;
  const e = asApiError(err);
  if (e.status === 401) return PAY_TEXT.subscribeSignInContinue;
  if (e.status === 409 || e.status === 503) return serverText(e) ?? PAY_TEXT.checkoutFailed;
  if (isNetwork(e)) return PAY_TEXT.checkoutNetwork;
  if (e.message.includes("Invalid")) return PAY_TEXT.checkoutConfig;
  if (/missing session/i.test(e.message)) return PAY_TEXT.checkoutMissingUrl;
  return PAY_TEXT.checkoutFailed;
}

/** A checkout failure worth another attempt: no answer at all, or a server error other than
 *  503 (payments not configured stays so however often it is asked). */
export function isTransientCheckoutError(err: unknown): boolean {
  if (err instanceof MissingSessionUrlError) return true;
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
