// Starting a purchase: the plan a price id stands for, one Stripe customer per user (created on
// the first checkout and reused), the Checkout Session itself and the billing portal. What
// happens after payment is in services/fulfilment.ts.
import type { Kysely } from "kysely";
import type { PaymentsConfig } from "../config";
import type { Services } from "../context";
import type { Database, UserRow } from "../db/schema";
import { ApiError } from "../errors";
import { MSG } from "../messages";
import { isPlanKey, PLAN_KEYS, PLANS, type PlanKey, type PlanMode } from "../rules/plans";
import type { Payments } from "./payments";
import { withExclusiveLock } from "../db/locks";

/** The plan whose configured price id is `priceId`, if any. */
export function planForPrice(config: PaymentsConfig, priceId: string | null): PlanKey | null {
  if (!priceId) return null;
  return PLAN_KEYS.find((key) => config.prices[key] === priceId) ?? null;
}

/** The plan a Stripe object is for: its price when configured, else the planKey we put in its metadata. */
export function planOf(config: PaymentsConfig, priceId: string | null, metadata: Record<string, string>): PlanKey | null {
  return planForPrice(config, priceId) ?? (isPlanKey(metadata.planKey) ? metadata.planKey : null);
}

export async function customerIdOf(db: Kysely<Database>, userId: string): Promise<string | null> {
  const row = await db.selectFrom("stripe_customers").select("customer_id").where("user_id", "=", userId).executeTakeFirst();
  return row?.customer_id ?? null;
}

export async function userIdOfCustomer(db: Kysely<Database>, customerId: string | null): Promise<string | null> {
  if (!customerId) return null;
  const row = await db.selectFrom("stripe_customers").select("user_id").where("customer_id", "=", customerId).executeTakeFirst();
  return row?.user_id ?? null;
}

// Two checkouts of one user at once must not make two customers: the second waits for the first,
// in this process through the map, across processes sharing PostgreSQL through an advisory lock.
const creating = new Map<string, Promise<string>>();

/** The user's Stripe customer, created once and stored. */
export async function ensureCustomer(s: Services, payments: Payments, user: UserRow): Promise<string> {
  const known = await customerIdOf(s.db, user.id);
  if (known) return known;
  const pending = creating.get(user.id);
  if (pending) return pending;
  const task = withExclusiveLock(s.db, `stripe-customer:${user.id}`, async () => {
    const stored = await customerIdOf(s.db, user.id);
    if (stored) return stored;
    const customer = await payments.createCustomer({ email: user.email, userId: user.id });
    await s.db
      .insertInto("stripe_customers")
      .values({ user_id: user.id, customer_id: customer.id, created_at: s.clock().toISOString() })
      .onConflict((oc) => oc.column("user_id").doNothing())
      .execute();
    return (await customerIdOf(s.db, user.id)) ?? customer.id;
  }).finally(() => creating.delete(user.id));
  creating.set(user.id, task);
  return task;
}

/** POST /api/stripe/create-checkout-session: the server picks the mode from the price's plan. */
export async function createCheckout(
  s: Services,
  payments: Payments,
  user: UserRow,
  body: { priceId: string; mode?: PlanMode },
): Promise<{ sessionId: string; url: string | null }> {
  const planKey = planForPrice(s.config.payments, body.priceId);
  if (!planKey) throw new ApiError(400, MSG.unknownPrice);
  const plan = PLANS[planKey];
  if (body.mode !== undefined && body.mode !== plan.mode) throw new ApiError(400, MSG.modeMismatch);
  const ent = await s.entitlementsOf(user);
  if (ent.hasActiveSubscription) throw new ApiError(409, MSG.alreadySubscribed);
  if (plan.mode === "subscription" && (await hasPaymentDueSubscription(s.db, user.id))) throw new ApiError(409, MSG.subscriptionPaymentDue);

  const customerId = await ensureCustomer(s, payments, user);
  const base = s.config.publicUrl;
  const session = await payments.createCheckoutSession({
    mode: plan.mode,
    priceId: body.priceId,
    customerId,
    userId: user.id,
    metadata: { userId: user.id, planKey },
    successUrl: `${base}/success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${base}/subscribe`,
  });
  return { sessionId: session.id, url: session.url };
}

/** Stripe's states of a subscription whose renewal failed: it still exists and is paid by updating
 *  the payment method (the billing portal), so a new subscription would charge twice. A one-time
 *  Day Pass meanwhile is allowed. */
const PAYMENT_DUE_STATUSES = ["past_due", "unpaid"];

async function hasPaymentDueSubscription(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom("subscriptions").select("id").where("user_id", "=", userId).where("status", "in", PAYMENT_DUE_STATUSES).executeTakeFirst();
  return row !== undefined;
}

/** POST /api/stripe/create-customer-portal-session: only back to our own site. */
export async function createPortal(
  s: Services,
  payments: Payments,
  user: UserRow,
  returnUrl: string | undefined,
): Promise<{ url: string }> {
  const base = s.config.publicUrl;
  const target = returnUrl ?? `${base}/app`;
  if (!URL.canParse(target) || new URL(target).origin !== new URL(base).origin) {
    throw new ApiError(400, MSG.returnUrlInvalid);
  }
  const customerId = await customerIdOf(s.db, user.id);
  if (!customerId) throw new ApiError(404, MSG.noBillingAccount);
  return payments.createPortalSession({ customerId, returnUrl: target });
}
