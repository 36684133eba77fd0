// Buy Now's decisions without React (spec/accounts.md sections 6, 7 and 8): what an answer of
// POST /api/marketplace/purchase/{id} leads to, the text of a failure, and the return from a
// paid checkout (/marketplace?purchase=success&session_id=cs_...). Pure: unit-tested.

import { MARKETPLACE_TEXT as T } from "../../api/rules/marketplace";
import { ApiRequestError, REQUEST_FAILED } from "../account/api";
import type { PurchaseAnswer } from "./marketplace-api";

export type PurchaseStep =
  | { kind: "owned" } // 'You already own this sound!'
  | { kind: "checkout"; url: string } // off to the payment page
  | { kind: "granted" } // a free sound, recorded at once
  | { kind: "failed"; text: string };

export function purchaseStep(answer: Partial<PurchaseAnswer> & { error?: unknown }): PurchaseStep {
  if (answer.alreadyPurchased) return { kind: "owned" };
  if (typeof answer.checkoutUrl === "string" && answer.checkoutUrl) return { kind: "checkout", url: answer.checkoutUrl };
  if (answer.success) return { kind: "granted" };
  return { kind: "failed", text: typeof answer.error === "string" && answer.error ? answer.error : T.purchaseFailed };
}

/** A failed purchase call: an expired session asks to log in; an answer from the server shows
 *  its text or 'Purchase failed'; no answer at all 'Failed to initiate purchase'. */
export function purchaseErrorText(err: unknown): string {
  if (err instanceof ApiRequestError) {
    if (err.network) return T.initiateFailed;
    if (err.status === 401) return T.loginToPurchase;
    return err.message && err.message !== REQUEST_FAILED ? err.message : T.purchaseFailed;
  }
  return T.initiateFailed;
}

/** The checkout session id when the URL is the return from a paid sound checkout. */
export function purchaseReturnSession(search: URLSearchParams): string | null {
  if (search.get("purchase") !== "success") return null;
  const id = search.get("session_id");
  return id && /^cs_[A-Za-z0-9_]{1,250}$/.test(id) ? id : null;
}
