// Admin routes (spec/accounts.md section 7). Every one needs a session (401) of an admin
// (403), checked here on the server from the entitlement function:
//   GET  /api/admin/users                               {users}
//   GET  /api/admin/stats                               {totalUsers, activeSubscriptions, monthlyRevenue, revenue, currency} (cents)
//   POST /api/admin/override {enabled}                  {adminOverride}  (any signed-in user may ask; non-admins 403)
//   POST /api/admin/grant-temporary-access {email, planType, durationHours?, days?, reason?}  201 {success, grant}
//   POST /api/admin/revoke-temporary-access {email}     {success, revoked}  X-CSRF-Token required
//   GET  /api/admin/temporary-access-list               {temporaryAccessList}
//   GET  /api/admin/check-user-access/{email}           {hasAccess, accessType, accountExists}
//   POST /api/admin/resend-verification {email}         {success}
//   POST /api/admin/email-test                          {success, to}
//   GET  /api/admin/settings                            what is configured (no secrets)
//   GET  /api/admin/notifications                       {total, notifications}
//   GET  /api/csrf-token                                {token}  (signed in; mounted by app.ts)
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv, Services } from "../context";
import { ApiError } from "../errors";
import { parseWith, readBody, requireAuth } from "../http/boundary";
import {
  ADMIN_TEXT, DEFAULT_GRANT_REASON, REASON_MAX, TEMP_ACCESS_TYPES, grantHours,
} from "../rules/admin";
import {
  adminStats, adminUsers, checkAccess, checkCsrf, csrfTokenFor, grantAccess, listGrants, recentMail, resendVerification,
  revokeAccess, setOverride, settingsView, testEmail,
} from "../services/admin";

const email = z
  .string({ error: ADMIN_TEXT.emailRequired })
  .trim()
  .min(1, { error: ADMIN_TEXT.emailRequired })
  .max(320, { error: ADMIN_TEXT.invalidEmail })
  .pipe(z.email({ error: ADMIN_TEXT.invalidEmail }));

const OBJECT = { error: "Request body must be a JSON object" };

const grantBody = z
  .object({
    email,
    planType: z.enum(TEMP_ACCESS_TYPES, { error: ADMIN_TEXT.accessTypeInvalid }).default("daily"),
    /** Custom plans: days (1-365), or durationHours as the original client sends (days × 24). */
    days: z.number().optional(),
    durationHours: z.number().optional(),
    reason: z.string().max(REASON_MAX, { error: ADMIN_TEXT.reasonTooLong }).optional(),
  }, OBJECT)
  .transform((b, ctx) => {
    const days = b.days ?? (b.durationHours !== undefined ? b.durationHours / 24 : undefined);
    const hours = grantHours(b.planType, days);
    if (hours === null) {
      ctx.addIssue({ code: "custom", message: ADMIN_TEXT.customDaysRequired });
      return z.NEVER;
    }
    return { email: b.email, accessType: b.planType, hours, reason: b.reason?.trim() || DEFAULT_GRANT_REASON };
  });

const emailBody = z.object({ email }, OBJECT);
const overrideBody = z.object({ enabled: z.boolean({ error: "enabled must be true or false" }) }, OBJECT);


export function adminRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s.sessions);
  const adminOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
    const ent = await s.entitlementsOf(c.var.auth.user);
    if (!ent.isAdmin) throw new ApiError(403, ADMIN_TEXT.adminOnly);
    await next();
  };

  // The override: any signed-in user may call it; only admins may change it (spec 4).
  app.post("/override", auth, async (c) => {
    const body = await readBody(c, overrideBody);
    return c.json({ adminOverride: await setOverride(s, c.var.auth.user, body.enabled) }, 200);
  });

  app.use("*", auth, adminOnly);

  app.get("/users", async (c) => c.json({ users: await adminUsers(s) }, 200));
  app.get("/stats", async (c) => c.json(await adminStats(s), 200));

  app.post("/grant-temporary-access", async (c) => {
    await s.limiters.adminActionPerUser.enforce(c.var.auth.user.id);
    const body = await readBody(c, grantBody);
    return c.json({ success: true, grant: await grantAccess(s, c.var.auth.user, body) }, 201);
  });

  app.post("/revoke-temporary-access", async (c) => {
    checkCsrf(s, c.var.auth.sessionId, c.req.header("x-csrf-token"));
    await s.limiters.adminActionPerUser.enforce(c.var.auth.user.id);
    const body = await readBody(c, emailBody);
    return c.json({ success: true, revoked: await revokeAccess(s, body.email) }, 200);
  });

  app.get("/temporary-access-list", async (c) => c.json({ temporaryAccessList: await listGrants(s) }, 200));

  app.get("/check-user-access/:email", async (c) => {
    // Hono has already decoded the path parameter (leaving malformed escapes as they are):
    // decoding again would throw on a '%' and answer 500.
    const address = parseWith(email, c.req.param("email"));
    return c.json(await checkAccess(s, address), 200);
  });

  app.post("/resend-verification", async (c) => {
    await s.limiters.adminActionPerUser.enforce(c.var.auth.user.id);
    const body = await readBody(c, emailBody);
    await resendVerification(s, body.email);
    return c.json({ success: true }, 200);
  });

  app.post("/email-test", async (c) => {
    await s.limiters.adminActionPerUser.enforce(c.var.auth.user.id);
    const to = c.var.auth.user.email;
    await s.mailer.send(testEmail(s, to)); // sent now, so a mail failure reaches the panel
    return c.json({ success: true, to }, 200);
  });

  app.get("/settings", (c) => c.json(settingsView(s), 200));
  app.get("/notifications", async (c) => c.json(await recentMail(s), 200));

  return app;
}

/** GET /api/csrf-token: the signed-in session's CSRF token (sent back in X-CSRF-Token). */
export function csrfRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", requireAuth(s.sessions), (c) => c.json({ token: csrfTokenFor(s, c.var.auth.sessionId) }, 200));
  return app;
}
