// Plans, checkout, the success page's calls, the billing portal and the Stripe webhook:
//   GET  /api/plans                                  the catalogue with each plan's price id
//   POST /api/stripe/create-checkout-session         {priceId, mode?} -> {sessionId, url}
//   POST /api/handle-guest-checkout                  {session_id} -> {user_created, fulfilled}
//   POST /api/stripe/verify-checkout-session         {sessionId} -> {verified, subscription}
//     (both add refunded: true when the session paid a second time for a sound its buyer owned,
//     and that payment was given back: services/fulfilment.ts)
//   POST /api/stripe/create-customer-portal-session  {return_url} -> {url}
//   POST /api/stripe/webhook                         raw body + Stripe-Signature
// Without STRIPE_SECRET_KEY every route but /api/plans answers 503 'Payments are not configured'.
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import { bodyLimitOf, clientIp, jsonBodyLimit, readBody, requireAuth } from "../http/boundary";
import { MSG } from "../messages";
import { PLAN_LIST } from "../rules/plans";
import { createCheckout, createPortal } from "../services/billing";
import { fulfilCheckout, handleEvent } from "../services/fulfilment";
import { type Payments, WebhookEventError, WebhookSignatureError } from "../services/payments";

const sessionId = z
  .string({ error: MSG.sessionIdInvalid })
  .regex(/^cs_[A-Za-z0-9_]{1,250}$/, { error: MSG.sessionIdInvalid });

const checkoutBody = z.object(
  {
    priceId: z.string({ error: MSG.unknownPrice }).trim().min(1, { error: MSG.unknownPrice }).max(200, { error: MSG.unknownPrice }),
    mode: z.enum(["payment", "subscription"], { error: MSG.modeMismatch }).optional(),
  },
  { error: MSG.unknownPrice },
);
const guestBody = z.object({ session_id: sessionId }, { error: MSG.sessionIdInvalid });
const verifyBody = z.object({ sessionId }, { error: MSG.sessionIdInvalid });
const portalBody = z.object(
  { return_url: z.string({ error: MSG.returnUrlInvalid }).max(2048, { error: MSG.returnUrlInvalid }).optional() },
  { error: MSG.returnUrlInvalid },
);

/** Stripe signs events of a few KiB; 1 MiB leaves room without inviting abuse. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export function paymentRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s.sessions);

  /** The configured payments, or 503 for every payment endpoint. */
  const payments = (): Payments => {
    if (!s.payments) throw new ApiError(503, MSG.paymentsNotConfigured);
    return s.payments;
  };
  const configured: MiddlewareHandler<AppEnv> = async (_c, next) => {
    payments();
    await next();
  };

  app.get("/plans", (c) =>
    c.json(
      {
        configured: s.payments !== null,
        plans: PLAN_LIST.map((plan) => ({ ...plan, priceId: s.config.payments.prices[plan.key] })),
      },
      200,
    ),
  );

  app.post("/stripe/create-checkout-session", configured, jsonBodyLimit, auth, async (c) => {
    const { user } = c.var.auth;
    await s.limiters.checkoutPerUser.enforce(user.id);
    const body = await readBody(c, checkoutBody);
    return c.json(await createCheckout(s, payments(), user, body), 200);
  });

  app.post("/handle-guest-checkout", configured, jsonBodyLimit, async (c) => {
    await s.limiters.checkoutLookupPerIp.enforce(clientIp(c, s.config.trustProxy));
    const body = await readBody(c, guestBody);
    const session = await payments().retrieveCheckoutSession(body.session_id);
    if (!session) throw new ApiError(404, MSG.sessionNotFound);
    // Accounts exist before checkout here, so a guest checkout never creates one.
    const { fulfilled, refunded } = await fulfilCheckout(s, payments(), session);
    return c.json({ user_created: false, fulfilled, ...(refunded ? { refunded } : {}) }, 200);
  });

  app.post("/stripe/verify-checkout-session", configured, jsonBodyLimit, auth, async (c) => {
    const { user } = c.var.auth;
    await s.limiters.checkoutLookupPerIp.enforce(`user:${user.id}`);
    const body = await readBody(c, verifyBody);
    const session = await payments().retrieveCheckoutSession(body.sessionId);
    if (!session) throw new ApiError(404, MSG.sessionNotFound);
    const owner = session.clientReferenceId ?? session.metadata.userId ?? null;
    if (owner !== user.id) throw new ApiError(403, MSG.sessionNotYours);
    const { fulfilled: verified, refunded } = await fulfilCheckout(s, payments(), session);
    const ent = await s.entitlementsOf(user);
    return c.json({ verified, ...(refunded ? { refunded } : {}), subscription: ent.subscription }, 200);
  });

  app.post("/stripe/create-customer-portal-session", configured, jsonBodyLimit, auth, async (c) => {
    const { user } = c.var.auth;
    await s.limiters.portalPerUser.enforce(user.id);
    const body = await readBody(c, portalBody);
    return c.json(await createPortal(s, payments(), user, body.return_url), 200);
  });

  app.post(
    "/stripe/webhook",
    configured,
    bodyLimitOf(WEBHOOK_BODY_LIMIT),
    async (c) => {
      const stripe = payments();
      if (!stripe.webhookConfigured) throw new ApiError(503, MSG.paymentsNotConfigured);
      const signature = c.req.header("stripe-signature");
      if (!signature) throw new ApiError(400, MSG.webhookSignature);
      const raw = new Uint8Array(await c.req.arrayBuffer());
      let event;
      try {
        event = stripe.constructEvent(raw, signature, s.clock());
      } catch (err) {
        if (err instanceof WebhookSignatureError) throw new ApiError(400, MSG.webhookSignature);
        if (err instanceof WebhookEventError) throw new ApiError(400, MSG.webhookEventInvalid);
        throw err;
      }
      const applied = await handleEvent(s, stripe, event);
      return c.json({ received: true, duplicate: !applied }, 200);
    },
  );

  return app;
}
