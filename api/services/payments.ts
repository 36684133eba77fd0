// The payments interface of the API and its implementation over the official `stripe` library.
// Routes and the fulfilment code see only these small shapes (CheckoutInfo, SubscriptionInfo,
// WebhookEvent), read defensively from Stripe's JSON so an event of an older API version (period
// end on the subscription rather than on its items, an invoice's subscription at the top level)
// reads the same. Stripe failures become PaymentsError; an unknown object reads as null.
import Stripe from "stripe";
import { type PaymentsConfig, parseStripeApiBase } from "../config";
import { ApiError } from "../errors";
import { MSG } from "../messages";
import type { PlanMode } from "../rules/plans";
import { containsNul } from "../rules/text-input";

export interface CheckoutInfo {
  id: string;
  mode: string;
  /** 'open' | 'complete' | 'expired' */
  status: string | null;
  /** 'paid' | 'unpaid' | 'no_payment_required' */
  paymentStatus: string;
  customerId: string | null;
  subscriptionId: string | null;
  clientReferenceId: string | null;
  /** Cents charged (one-time payments), when Stripe gives it. */
  amountTotal: number | null;
  /** The PaymentIntent that took a one-time payment (what a refund names). */
  paymentIntentId: string | null;
  metadata: Record<string, string>;
}

export interface SubscriptionInfo {
  id: string;
  customerId: string | null;
  status: string;
  /** Seconds since the epoch (Stripe's unit); null when Stripe gives none. */
  currentPeriodEnd: number | null;
  /** Start of that period, the same way. */
  currentPeriodStart: number | null;
  priceId: string | null;
  metadata: Record<string, string>;
}

export interface WebhookEvent {
  id: string;
  type: string;
  /** Seconds since the epoch. */
  created: number;
  object: unknown;
}

export interface CheckoutRequest {
  mode: PlanMode;
  /** A configured Stripe price (the plans), or an inline one-time price (a marketplace sound). */
  priceId?: string;
  inlinePrice?: { name: string; unitAmountCents: number; currency: "usd" };
  customerId: string;
  userId: string;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
}

export interface Payments {
  /** False without STRIPE_WEBHOOK_SECRET: the webhook then answers 503. */
  readonly webhookConfigured: boolean;
  createCustomer(input: { email: string; userId: string }): Promise<{ id: string }>;
  createCheckoutSession(input: CheckoutRequest): Promise<{ id: string; url: string | null }>;
  retrieveCheckoutSession(id: string): Promise<CheckoutInfo | null>;
  retrieveSubscription(id: string): Promise<SubscriptionInfo | null>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Refunds a paid one-time checkout whole, as a duplicate; asking again for the same session
   *  refunds nothing more (Stripe's idempotency key). */
  refundDuplicate(session: CheckoutInfo): Promise<void>;
  /** Verifies the signature over the raw body; throws WebhookSignatureError when it does not hold. */
  constructEvent(rawBody: Uint8Array, signature: string, receivedAt: Date): WebhookEvent;
}

/** Stripe could not be reached or refused a well-formed request: answered 502, cause logged. */
export class PaymentsError extends ApiError {
  constructor(cause: string) {
    super(502, MSG.paymentServiceDown);
    this.name = "PaymentsError";
    this.cause = cause;
  }
}

export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
}

/** A correctly signed body that is not a Stripe event (not JSON, or without id, type, created, data.object). */
export class WebhookEventError extends Error {
  override name = "WebhookEventError";
}

// ---- reading Stripe JSON ---------------------------------------------------------------------
type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return typeof v === "object" && v !== null ? (v as Json) : {};
}
function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}
function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}
/** The largest time a JavaScript Date holds, in seconds (ECMA-262 21.4.1.1): beyond it toISOString throws. */
const MAX_EPOCH_SECONDS = 8.64e12;
/** A time in seconds since the epoch that a Date can hold, else null. */
function epochSeconds(v: unknown): number | null {
  const n = num(v);
  return n !== null && Math.abs(n) <= MAX_EPOCH_SECONDS ? n : null;
}
/** An id field that may be expanded into its object. */
function ref(v: unknown): string | null {
  return str(v) ?? str(obj(v).id);
}
function metadataOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(obj(v))) if (typeof value === "string") out[k] = value;
  return out;
}

export function toCheckoutInfo(v: unknown): CheckoutInfo | null {
  const o = obj(v);
  const id = str(o.id);
  if (!id) return null;
  return {
    id,
    mode: str(o.mode) ?? "payment",
    status: str(o.status),
    paymentStatus: str(o.payment_status) ?? "unpaid",
    customerId: ref(o.customer),
    subscriptionId: ref(o.subscription),
    clientReferenceId: str(o.client_reference_id),
    amountTotal: num(o.amount_total),
    paymentIntentId: ref(o.payment_intent),
    metadata: metadataOf(o.metadata),
  };
}

export function toSubscriptionInfo(v: unknown): SubscriptionInfo | null {
  const o = obj(v);
  const id = str(o.id);
  if (!id) return null;
  const data = obj(o.items).data;
  const items: unknown[] = Array.isArray(data) ? data : [];
  const first = obj(items[0]);
  // Since API version 2025-03-31 the period lives on each item; older versions keep it on top.
  const itemEnds = items.map((i) => epochSeconds(obj(i).current_period_end)).filter((n): n is number => n !== null);
  const currentPeriodEnd = itemEnds.length > 0 ? itemEnds.reduce((a, b) => Math.max(a, b)) : epochSeconds(o.current_period_end);
  const itemStarts = items.map((i) => epochSeconds(obj(i).current_period_start)).filter((n): n is number => n !== null);
  const currentPeriodStart = itemStarts.length > 0 ? itemStarts.reduce((a, b) => Math.min(a, b)) : epochSeconds(o.current_period_start);
  return {
    id,
    customerId: ref(o.customer),
    status: str(o.status) ?? "incomplete",
    currentPeriodEnd,
    currentPeriodStart,
    priceId: ref(first.price) ?? ref(obj(o.plan).id),
    metadata: metadataOf(o.metadata),
  };
}

/** A verified event's fields, or null when the JSON is not shaped like a Stripe event: an id and a
 *  type (text the ledger stores), `created` a whole number of seconds a Date holds, data.object an object. */
export function toWebhookEvent(v: unknown): WebhookEvent | null {
  if (containsNul(v)) return null; // rules/text-input.ts: no NUL reaches the database
  const o = obj(v);
  const id = str(o.id);
  const type = str(o.type);
  const created = epochSeconds(o.created);
  const object = obj(o.data).object;
  if (!id || id.length > 255 || !type || type.length > 255) return null;
  if (created === null || !Number.isInteger(created) || created < 0) return null;
  if (typeof object !== "object" || object === null || Array.isArray(object)) return null;
  return { id, type, created, object };
}

/** The subscription an invoice belongs to (parent.subscription_details since 2025-03-31). */
export function invoiceSubscriptionId(v: unknown): string | null {
  const o = obj(v);
  return ref(obj(obj(o.parent).subscription_details).subscription) ?? ref(o.subscription);
}

// ---- the stripe library ----------------------------------------------------------------------
function isMissing(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === "resource_missing");
}

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw new PaymentsError(`Stripe ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function retrieveOrNull<T>(what: string, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    if (isMissing(err)) return null;
    throw new PaymentsError(`Stripe ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Payments over the official library; `config.secretKey` must be set. */
export function stripePayments(config: PaymentsConfig): Payments {
  if (!config.secretKey) throw new Error("stripePayments needs STRIPE_SECRET_KEY");
  const stripe = new Stripe(config.secretKey, {
    ...(config.apiBase ? parseStripeApiBase(config.apiBase) : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
  const webhookSecret = config.webhookSecret;

  return {
    webhookConfigured: webhookSecret !== null,
    createCustomer: ({ email, userId }) =>
      call("customer create", () =>
        stripe.customers.create({ email, metadata: { userId } }, { idempotencyKey: `customer-${userId}` }),
      ),

    async createCheckoutSession(req) {
      const metadata = req.metadata;
      const session = await call("checkout create", () =>
        stripe.checkout.sessions.create({
          mode: req.mode,
          customer: req.customerId,
          client_reference_id: req.userId,
          line_items: [
            req.inlinePrice
              ? {
                  price_data: {
                    currency: req.inlinePrice.currency,
                    unit_amount: req.inlinePrice.unitAmountCents,
                    product_data: { name: req.inlinePrice.name },
                  },
                  quantity: 1,
                }
              : { price: req.priceId, quantity: 1 },
          ],
          metadata,
          ...(req.mode === "subscription" ? { subscription_data: { metadata } } : {}),
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
        }),
      );
      return { id: session.id, url: session.url };
    },

    async retrieveCheckoutSession(id) {
      return toCheckoutInfo(await retrieveOrNull("checkout retrieve", () => stripe.checkout.sessions.retrieve(id)));
    },

    async retrieveSubscription(id) {
      return toSubscriptionInfo(await retrieveOrNull("subscription retrieve", () => stripe.subscriptions.retrieve(id)));
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await call("billing portal", () =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return { url: session.url };
    },

    async refundDuplicate(session) {
      const paymentIntent = session.paymentIntentId;
      if (!paymentIntent) throw new PaymentsError(`checkout session ${session.id} has no payment intent to refund`);
      await call("refund", async () => {
        try {
          await stripe.refunds.create(
            { payment_intent: paymentIntent, reason: "duplicate", metadata: { checkoutSessionId: session.id } },
            { idempotencyKey: `refund-duplicate-${session.id}` },
          );
        } catch (err) {
          // Refunded already (by hand in Stripe's dashboard): the money is back, which is the point.
          if ((err as { code?: unknown }).code !== "charge_already_refunded") throw err;
        }
      });
    },

    constructEvent(rawBody, signature, receivedAt) {
      if (!webhookSecret) throw new WebhookSignatureError("STRIPE_WEBHOOK_SECRET is not set");
      let event: unknown;
      try {
        // Default tolerance (300 s), measured against the app's clock.
        event = stripe.webhooks.constructEvent(
          Buffer.from(rawBody),
          signature,
          webhookSecret,
          undefined,
          undefined,
          receivedAt.getTime(),
        );
      } catch (err) {
        // The library parses the JSON only after the signature matched: a SyntaxError is a signed non-event.
        if (err instanceof SyntaxError) throw new WebhookEventError(err.message);
        throw new WebhookSignatureError(err instanceof Error ? err.message : String(err));
      }
      const verified = toWebhookEvent(event);
      if (!verified) throw new WebhookEventError("not shaped like a Stripe event");
      return verified;
    },
  };
}
