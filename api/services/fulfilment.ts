// After payment: the ONE idempotent fulfil path shared by the webhook and the success-page
// endpoints, and the webhook's event handling. Everything Stripe has to be asked (a subscription's
// current state) is fetched first; the writes then run as one unit, inside the event's
// transaction for webhooks, so an event id is recorded together with its effects or not at all.
//
// Order and repetition: subscriptions are upserted by their Stripe id and carry stripe_synced_at,
// the time their stored state is from (event.created, or "now" for a fresh retrieve); an older
// event never overwrites newer state, so created/updated/deleted/invoice events may arrive in any
// order and any number of times. A One Day Pass is keyed by its checkout session id and ends 24
// hours after payment.
import { randomUUID } from "node:crypto";
import { type Insertable, type Kysely, sql } from "kysely";
import type { Services } from "../context";
import type { Database, SubscriptionsTable } from "../db/schema";
import { ONE_DAY_PASS_MS, PLANS, type PlanKey } from "../rules/plans";
import { planOf, userIdOfCustomer } from "./billing";
import { isSoundCheckout, owns, recordPurchase } from "./marketplace";
import {
  type CheckoutInfo,
  invoiceSubscriptionId,
  type Payments,
  type SubscriptionInfo,
  toCheckoutInfo,
  toSubscriptionInfo,
  type WebhookEvent,
} from "./payments";

type Db = Kysely<Database>;
/** Writes prepared outside any transaction, run with the connection (or transaction) given. */
type Write = (db: Db) => Promise<void>;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** Runs writes in order (null ones skipped). */
function both(...writes: (Write | null)[]): Write {
  return async (db) => {
    for (const w of writes) if (w) await w(db);
  };
}

interface LedgerEntry {
  /** Stripe invoice or checkout session id: a payment is recorded once. */
  id: string;
  userId: string | null;
  kind: "subscription" | "pass" | "sound";
  amountCents: number;
  currency: string;
  paidAt: Date;
}

/** Adds a payment to the ledger the admin dashboard's revenue is summed from. */
function ledgerWrite(entry: LedgerEntry): Write {
  return async (db) => {
    const userId = await userExists(db, entry.userId);
    await db
      .insertInto("payments")
      .values({ id: entry.id, user_id: userId, kind: entry.kind, amount_cents: Math.max(0, Math.round(entry.amountCents)), currency: entry.currency, paid_at: entry.paidAt.toISOString() })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
  };
}

const cents = (dollars: number) => Math.round(dollars * 100);

export function isPaid(session: CheckoutInfo): boolean {
  return session.status === "complete" && (session.paymentStatus === "paid" || session.paymentStatus === "no_payment_required");
}

async function userExists(db: Db, id: string | null | undefined): Promise<string | null> {
  if (!id) return null;
  const row = await db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst();
  return row?.id ?? null;
}

type StripeFields = Pick<
  Insertable<SubscriptionsTable>,
  "status" | "current_period_end" | "current_period_start" | "stripe_customer_id" | "stripe_subscription_id" | "stripe_checkout_session_id" | "stripe_synced_at"
>;

/** A new subscription row of `planKey` for `userId`. */
function newRow(s: Services, userId: string, planKey: PlanKey, fields: StripeFields): Insertable<SubscriptionsTable> {
  const now = s.clock().toISOString();
  return { id: randomUUID(), user_id: userId, plan_key: planKey, plan_name: PLANS[planKey].planName, created_at: now, updated_at: now, ...fields };
}

/** Whose subscription this is: our metadata, else the stored customer, else an existing row. */
async function ownerOf(db: Db, sub: SubscriptionInfo, hint: string | null): Promise<string | null> {
  const byRow = await db
    .selectFrom("subscriptions")
    .select("user_id")
    .where("stripe_subscription_id", "=", sub.id)
    .executeTakeFirst();
  return (
    (await userExists(db, hint)) ??
    (await userExists(db, sub.metadata.userId)) ??
    (await userIdOfCustomer(db, sub.customerId)) ??
    byRow?.user_id ??
    null
  );
}

/** Upserts a subscription row by its Stripe id unless the stored state is newer. */
function subscriptionWrite(s: Services, sub: SubscriptionInfo, opts: { stamp: number; userHint?: string | null; status?: string }): Write {
  return async (db) => {
    const planKey: PlanKey | null = planOf(s.config.payments, sub.priceId, sub.metadata);
    const userId = await ownerOf(db, sub, opts.userHint ?? null);
    if (!planKey || !userId) {
      s.log.error("Stripe subscription not recorded", { subscription: sub.id, plan: planKey, user: userId !== null });
      return;
    }
    await db
      .insertInto("subscriptions")
      .values(
        newRow(s, userId, planKey, {
          status: opts.status ?? sub.status,
          current_period_end: sub.currentPeriodEnd === null ? null : new Date(sub.currentPeriodEnd * 1000).toISOString(),
          current_period_start: sub.currentPeriodStart === null ? null : new Date(sub.currentPeriodStart * 1000).toISOString(),
          stripe_customer_id: sub.customerId,
          stripe_subscription_id: sub.id,
          stripe_synced_at: opts.stamp,
        }),
      )
      .onConflict((oc) =>
        oc
          .column("stripe_subscription_id")
          .doUpdateSet((eb) => ({
            plan_key: eb.ref("excluded.plan_key"),
            plan_name: eb.ref("excluded.plan_name"),
            status: eb.ref("excluded.status"),
            current_period_end: eb.ref("excluded.current_period_end"),
            current_period_start: eb.ref("excluded.current_period_start"),
            stripe_customer_id: eb.ref("excluded.stripe_customer_id"),
            stripe_synced_at: eb.ref("excluded.stripe_synced_at"),
            updated_at: eb.ref("excluded.updated_at"),
          }))
          // Same second: a cancellation wins over any other state.
          .where(
            sql<boolean>`subscriptions.stripe_synced_at is null
              or excluded.stripe_synced_at > subscriptions.stripe_synced_at
              or (excluded.stripe_synced_at = subscriptions.stripe_synced_at and subscriptions.status <> 'canceled')`,
          ),
      )
      .execute();
  };
}

/** Records a One Day Pass once per checkout session. */
function passWrite(s: Services, session: CheckoutInfo, paidAt: Date): Write {
  return async (db) => {
    const userId = (await userExists(db, session.clientReferenceId ?? session.metadata.userId)) ?? (await userIdOfCustomer(db, session.customerId));
    if (!userId) {
      s.log.error("Stripe checkout not recorded", { session: session.id });
      return;
    }
    await db
      .insertInto("subscriptions")
      .values(
        newRow(s, userId, "oneDay", {
          status: "active",
          current_period_end: new Date(paidAt.getTime() + ONE_DAY_PASS_MS).toISOString(),
          current_period_start: paidAt.toISOString(),
          stripe_customer_id: session.customerId,
          stripe_checkout_session_id: session.id,
          stripe_synced_at: seconds(paidAt),
        }),
      )
      .onConflict((oc) => oc.column("stripe_checkout_session_id").doNothing())
      .execute();
  };
}

/** Who paid a sound checkout: the user it names, else the customer's. */
async function soundBuyer(db: Db, session: CheckoutInfo): Promise<string | null> {
  return (await userExists(db, session.clientReferenceId ?? session.metadata.userId)) ?? (await userIdOfCustomer(db, session.customerId));
}

/** Records a marketplace purchase once per checkout session (and once per user and sound), and
 *  its payment in the ledger. A second paid checkout for a sound the buyer already owns (two tabs
 *  paid) records nothing: fulfilCheckout refunds it. */
function soundPurchaseWrite(s: Services, session: CheckoutInfo, paidAt: Date, ledger: LedgerEntry): Write {
  return async (db) => {
    const userId = await soundBuyer(db, session);
    const sound = await db.selectFrom("marketplace_sounds").select(["id", "price_cents"]).where("id", "=", session.metadata.soundId).executeTakeFirst();
    if (!userId || !sound) {
      s.log.error("Stripe sound purchase not recorded", { session: session.id, user: userId !== null, sound: sound !== undefined });
      return ledgerWrite(ledger)(db); // money received all the same
    }
    await recordPurchase(db, {
      userId,
      soundId: sound.id,
      amountCents: session.amountTotal ?? sound.price_cents,
      checkoutSessionId: session.id,
      at: paidAt,
    });
    if (await isRecorded(db, session)) await ledgerWrite(ledger)(db);
  };
}

/** Whether a paid sound checkout is a second payment for a sound its buyer owns through another. */
async function isDuplicateSoundPayment(db: Db, session: CheckoutInfo): Promise<boolean> {
  if (!isSoundCheckout(session) || !isPaid(session) || (await isRecorded(db, session))) return false;
  const userId = await soundBuyer(db, session);
  return userId !== null && (await owns(db, userId, session.metadata.soundId));
}

/** What a paid checkout session calls for (null while unpaid). `paidAt` dates a pass. */
async function checkoutWrite(s: Services, payments: Payments, session: CheckoutInfo, paidAt: Date): Promise<Write | null> {
  if (!isPaid(session)) return null;
  const buyer = session.clientReferenceId ?? session.metadata.userId ?? null;
  if (isSoundCheckout(session)) {
    const sound = await s.db.selectFrom("marketplace_sounds").select("price_cents").where("id", "=", session.metadata.soundId).executeTakeFirst();
    const amountCents = session.amountTotal ?? sound?.price_cents ?? 0;
    return soundPurchaseWrite(s, session, paidAt, { id: session.id, userId: buyer, kind: "sound", amountCents, currency: "usd", paidAt });
  }
  if (session.mode === "payment") {
    const amountCents = session.amountTotal ?? cents(PLANS.oneDay.price);
    return both(passWrite(s, session, paidAt), ledgerWrite({ id: session.id, userId: buyer, kind: "pass", amountCents, currency: "usd", paidAt }));
  }
  if (!session.subscriptionId) return null;
  const fetchedAt = s.clock();
  const sub = await payments.retrieveSubscription(session.subscriptionId);
  if (!sub) return null;
  const userHint = session.clientReferenceId ?? session.metadata.userId ?? null;
  return subscriptionWrite(s, { ...sub, metadata: { ...session.metadata, ...sub.metadata } }, { stamp: seconds(fetchedAt), userHint });
}

/** Whether the purchase a session stands for is on record. */
export async function isRecorded(db: Db, session: CheckoutInfo): Promise<boolean> {
  if (isSoundCheckout(session)) {
    const row = await db.selectFrom("sound_purchases").select("id").where("stripe_checkout_session_id", "=", session.id).executeTakeFirst();
    return row !== undefined;
  }
  let q = db.selectFrom("subscriptions").select("id");
  q =
    session.mode === "payment"
      ? q.where("stripe_checkout_session_id", "=", session.id)
      : q.where("stripe_subscription_id", "=", session.subscriptionId ?? "");
  return (await q.executeTakeFirst()) !== undefined;
}

/** THE fulfil function for the success page: records a paid session (idempotent). `refunded`: the
 *  session paid for a sound its buyer already owned, and its payment went back (asking again
 *  refunds nothing more). */
export async function fulfilCheckout(s: Services, payments: Payments, session: CheckoutInfo): Promise<{ fulfilled: boolean; refunded: boolean }> {
  const write = await checkoutWrite(s, payments, session, s.clock());
  if (write) await write(s.db);
  if (await refundIfDuplicate(s, payments, session)) return { fulfilled: false, refunded: true };
  return { fulfilled: isPaid(session) && (await isRecorded(s.db, session)), refunded: false };
}

// ---- webhook events -------------------------------------------------------------------------

async function eventWrite(s: Services, payments: Payments, event: WebhookEvent): Promise<Write | null> {
  const createdAt = new Date(event.created * 1000);
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const session = toCheckoutInfo(event.object);
      // A pass starts when it was paid, not when a retried delivery arrives.
      const now = s.clock();
      return session ? checkoutWrite(s, payments, session, createdAt < now ? createdAt : now) : null;
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const sub = toSubscriptionInfo(event.object);
      if (!sub) return null;
      const status = event.type === "customer.subscription.deleted" ? "canceled" : undefined;
      return subscriptionWrite(s, sub, { stamp: event.created, status });
    }
    case "invoice.paid": {
      const id = invoiceSubscriptionId(event.object);
      const fetchedAt = seconds(s.clock());
      const sub = id ? await payments.retrieveSubscription(id) : null;
      if (!sub) return null;
      const invoice = event.object as Record<string, unknown>;
      const planKey = planOf(s.config.payments, sub.priceId, sub.metadata);
      const paid = typeof invoice.amount_paid === "number" ? invoice.amount_paid : planKey ? cents(PLANS[planKey].price) : null;
      const owner = sub.metadata.userId ?? (await userIdOfCustomer(s.db, sub.customerId));
      return both(
        subscriptionWrite(s, sub, { stamp: Math.max(fetchedAt, event.created) }),
        typeof invoice.id === "string" && paid !== null
          ? ledgerWrite({ id: invoice.id, userId: owner, kind: "subscription", amountCents: paid, currency: typeof invoice.currency === "string" ? invoice.currency : "usd", paidAt: createdAt })
          : null,
      );
    }
    case "invoice.payment_failed": {
      const id = invoiceSubscriptionId(event.object);
      if (!id) return null;
      return async (db) => {
        await db
          .updateTable("subscriptions")
          .set({ status: "past_due", stripe_synced_at: event.created, updated_at: s.clock().toISOString() })
          .where("stripe_subscription_id", "=", id)
          .where("status", "in", ["active", "trialing"])
          .where((eb) => eb.or([eb("stripe_synced_at", "is", null), eb("stripe_synced_at", "<=", event.created)]))
          .execute();
      };
    }
    default:
      return null; // acknowledged, nothing to do
  }
}

/** Applies a verified event once; false when its id was processed before. A paid checkout for a
 *  sound its buyer already owned is refunded after it is processed, and again (to no effect) on
 *  each redelivery, so a refund that failed is tried again when Stripe retries the event. */
export async function handleEvent(s: Services, payments: Payments, event: WebhookEvent): Promise<boolean> {
  const applied = await applyEvent(s, payments, event);
  if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded") {
    const session = toCheckoutInfo(event.object);
    if (session) await refundIfDuplicate(s, payments, session);
  }
  return applied;
}

/** Refunds a paid sound checkout whose buyer owns the sound through another; true when it did. */
async function refundIfDuplicate(s: Services, payments: Payments, session: CheckoutInfo): Promise<boolean> {
  if (!(await isDuplicateSoundPayment(s.db, session))) return false;
  await payments.refundDuplicate(session);
  (s.log.warn ?? s.log.error)("Duplicate sound payment refunded", { session: session.id, sound: session.metadata.soundId });
  return true;
}

async function applyEvent(s: Services, payments: Payments, event: WebhookEvent): Promise<boolean> {
  const seen = await s.db.selectFrom("processed_events").select("id").where("id", "=", event.id).executeTakeFirst();
  if (seen) return false;
  const write = await eventWrite(s, payments, event);
  return s.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("processed_events")
      .values({ id: event.id, type: event.type, created: event.created, processed_at: s.clock().toISOString() })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
    if (write) await write(trx);
    return true;
  });
}
