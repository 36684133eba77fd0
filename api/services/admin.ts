// Admin tools on the server (spec/accounts.md sections 2, 4, 7, 8 and 9): the user
// table and stats of the dashboard (revenue summed from the payments ledger), temporary-access
// grants (grant, revoke, list, check; they expire by their end date), the override switch, the
// CSRF token of the revoke button, and the small Email / Settings / Notifications views.
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { sql } from "kysely";
import type { Services } from "../context";
import type { TemporaryAccessRow, UserRow } from "../db/schema";
import { ApiError } from "../errors";
import { ADMIN_PLAN_NAME, TEMPORARY_PLAN_NAME } from "../rules/plans";
import { ADMIN_TEXT, type AdminSettings, type AdminStats, type AdminUserRow, type GrantDto, TEMP_ACCESS_PLANS, type TempAccessType, timeLeftText } from "../rules/admin";
import { verificationEmail } from "./auth-emails";
import type { MailMessage } from "./mailer";
import { findUserByEmail, normalizeEmail } from "./users";

const DAY_MS = 86_400_000;

// ---- dashboard ------------------------------------------------------------------------------


function liveSql(now: string) {
  return sql<boolean>`status in ('active', 'trialing') and (current_period_end is null or current_period_end > ${now})`;
}

/** Every account (newest first, at most `limit`), with its best subscription. */
export async function adminUsers(s: Services, limit = 1000): Promise<AdminUserRow[]> {
  const users = await s.db.selectFrom("users").selectAll().orderBy("created_at", "desc").limit(limit).execute();
  const subs = await s.db
    .selectFrom("subscriptions")
    .select(["user_id", "plan_name", "status", "current_period_end", "updated_at"])
    .where("plan_name", "!=", ADMIN_PLAN_NAME)
    .execute();
  const now = s.clock().getTime();
  const live = (r: (typeof subs)[number]) =>
    (r.status === "active" || r.status === "trialing") && (r.current_period_end === null || Date.parse(r.current_period_end) > now);
  const best = new Map<string, (typeof subs)[number]>();
  for (const r of subs) {
    const cur = best.get(r.user_id);
    // A live subscription wins; otherwise the most recently updated one.
    if (!cur || (live(r) && !live(cur)) || (live(r) === live(cur) && r.updated_at > cur.updated_at)) best.set(r.user_id, r);
  }
  return users.map((u) => {
    const isAdmin = u.is_admin === 1 || s.config.adminEmails.includes(u.email);
    const sub = best.get(u.id);
    return {
      id: u.id,
      email: u.email,
      role: isAdmin ? "admin" : "user",
      isAdmin,
      createdAt: u.created_at,
      // A subscription that ended reads as inactive, whatever Stripe last said.
      subscription: sub ? { planName: sub.plan_name, status: live(sub) ? sub.status : sub.status === "active" ? "expired" : sub.status } : null,
    };
  });
}


export async function adminStats(s: Services): Promise<AdminStats> {
  const now = s.clock();
  const users = await s.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const active = await s.db
    .selectFrom("subscriptions")
    .select(sql<number>`count(distinct user_id)`.as("n"))
    .where("plan_name", "not in", [ADMIN_PLAN_NAME, TEMPORARY_PLAN_NAME])
    .where(liveSql(now.toISOString()))
    .executeTakeFirstOrThrow();
  const total = await s.db.selectFrom("payments").select(sql<number>`coalesce(sum(amount_cents), 0)`.as("n")).executeTakeFirstOrThrow();
  const month = await s.db
    .selectFrom("payments")
    .select(sql<number>`coalesce(sum(amount_cents), 0)`.as("n"))
    .where("paid_at", ">", new Date(now.getTime() - 30 * DAY_MS).toISOString())
    .executeTakeFirstOrThrow();
  return {
    totalUsers: Number(users.n),
    activeSubscriptions: Number(active.n),
    monthlyRevenue: Number(month.n),
    revenue: Number(total.n),
    currency: "usd",
  };
}

// ---- override -------------------------------------------------------------------------------

/** Sets the admin's override. Turning it off also resets the admin's demo (spec 4), so the demo
 *  can be tried again as a user would. */
export async function setOverride(s: Services, user: UserRow, enabled: boolean): Promise<boolean> {
  const ent = await s.entitlementsOf(user);
  if (!ent.isAdmin) throw new ApiError(403, ADMIN_TEXT.overrideAdminOnly);
  await s.db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ admin_override: enabled ? 1 : 0, updated_at: s.clock().toISOString() }).where("id", "=", user.id).execute();
    if (!enabled) await trx.deleteFrom("demo_sessions").where("user_id", "=", user.id).execute();
  });
  return enabled;
}

// ---- CSRF -----------------------------------------------------------------------------------

/** The CSRF token of a session: an HMAC of its id, so nothing needs storing and it dies with it. */
export function csrfTokenFor(s: Services, sessionId: string): string {
  return createHmac("sha256", s.config.jwtSecret).update(`csrf:${sessionId}`).digest("base64url");
}

export function checkCsrf(s: Services, sessionId: string, header: string | undefined): void {
  const expected = Buffer.from(csrfTokenFor(s, sessionId));
  const got = Buffer.from(header ?? "");
  if (got.length !== expected.length || !timingSafeEqual(got, expected)) throw new ApiError(403, ADMIN_TEXT.csrfInvalid);
}

// ---- temporary access -----------------------------------------------------------------------


function toGrant(row: TemporaryAccessRow, now: Date): GrantDto {
  const left = Math.max(0, Date.parse(row.end_date) - now.getTime());
  const type = (row.access_type in TEMP_ACCESS_PLANS ? row.access_type : "daily") as TempAccessType;
  const status = row.status === "active" ? (left > 0 ? "active" : "expired") : row.status;
  return {
    id: row.id,
    email: row.email,
    status,
    accessType: type,
    planName: TEMP_ACCESS_PLANS[type].label,
    durationHours: row.duration_hours,
    createdAt: row.created_at,
    endDate: row.end_date,
    timeRemaining: status === "active" ? left : 0,
    timeLeft: status === "active" ? timeLeftText(left) : "Expired",
    reason: row.reason,
    grantedBy: row.granted_by,
  };
}

function grantEmail(s: Services, to: string, grant: GrantDto): MailMessage {
  const product = s.config.productName;
  const end = new Date(grant.endDate).toUTCString();
  const text = [
    `You have been given full access to ${product}: ${grant.planName}, ${grant.durationHours} hours, until ${end}.`,
    "",
    `Sign in at ${s.config.publicUrl}/auth to use every channel, effect and export.`,
    grant.reason ? `Note from the team: ${grant.reason}` : "",
  ].join("\n");
  const esc = (v: string) => v.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5"><h1 style="font-size:20px">${esc(product)}: full access granted</h1><p>${esc(`${grant.planName}, ${grant.durationHours} hours, until ${end}.`)}</p><p><a href="${esc(`${s.config.publicUrl}/auth`)}">Sign in</a> to use every channel, effect and export.</p>${grant.reason ? `<p>${esc(grant.reason)}</p>` : ""}</body></html>`;
  return { to, subject: `${product}: you have full access (${grant.planName})`, text, html };
}

/** Grants access to `email` (an account need not exist yet); an earlier active grant for the same
 *  address is replaced. The user is e-mailed after the answer. */
export async function grantAccess(
  s: Services,
  admin: UserRow,
  input: { email: string; accessType: TempAccessType; hours: number; reason: string },
): Promise<GrantDto> {
  const email = normalizeEmail(input.email);
  const now = s.clock();
  const row: TemporaryAccessRow = {
    id: randomUUID(),
    email,
    access_type: input.accessType,
    duration_hours: input.hours,
    reason: input.reason,
    status: "active",
    created_at: now.toISOString(),
    end_date: new Date(now.getTime() + input.hours * 3_600_000).toISOString(),
    granted_by: admin.id,
  };
  await s.db.transaction().execute(async (trx) => {
    await trx.updateTable("temporary_access").set({ status: "replaced" }).where("email", "=", email).where("status", "=", "active").execute();
    await trx.insertInto("temporary_access").values(row).execute();
  });
  const grant = toGrant(row, now);
  s.defer(() => s.mailer.send(grantEmail(s, email, grant)));
  return grant;
}

/** Revokes every active grant of `email`; 404 when there is none. */
export async function revokeAccess(s: Services, rawEmail: string): Promise<number> {
  const email = normalizeEmail(rawEmail);
  const res = await s.db
    .updateTable("temporary_access")
    .set({ status: "revoked" })
    .where("email", "=", email)
    .where("status", "=", "active")
    .where("end_date", ">", s.clock().toISOString())
    .executeTakeFirst();
  const n = Number(res.numUpdatedRows ?? 0);
  if (n === 0) throw new ApiError(404, ADMIN_TEXT.noActiveGrant(email));
  return n;
}

/** Every grant, newest first (the list shows active ones with time left and a revoke button). */
export async function listGrants(s: Services, limit = 500): Promise<GrantDto[]> {
  const rows = await s.db.selectFrom("temporary_access").selectAll().orderBy("created_at", "desc").limit(limit).execute();
  const now = s.clock();
  return rows.filter((r) => r.status !== "replaced").map((r) => toGrant(r, now));
}

/** Quick Check Access: whether `email` has unlimited access now, and through what. */
export async function checkAccess(s: Services, rawEmail: string): Promise<{ hasAccess: boolean; accessType: string | null; accountExists: boolean }> {
  const email = normalizeEmail(rawEmail);
  const user = await findUserByEmail(s.db, email);
  if (user) {
    const ent = await s.entitlementsOf(user);
    if (ent.adminOverride) return { hasAccess: true, accessType: "admin", accountExists: true };
    if (ent.hasActiveSubscription) return { hasAccess: true, accessType: ent.subscription?.planName ?? "subscription", accountExists: true };
    if (ent.hasTemporaryAccess) return { hasAccess: true, accessType: ent.temporaryAccess?.accessType ?? "temporary", accountExists: true };
    return { hasAccess: false, accessType: null, accountExists: true };
  }
  const grant = await s.db
    .selectFrom("temporary_access")
    .selectAll()
    .where("email", "=", email)
    .where("status", "=", "active")
    .where("end_date", ">", s.clock().toISOString())
    .orderBy("end_date", "desc")
    .executeTakeFirst();
  return grant ? { hasAccess: true, accessType: grant.access_type, accountExists: false } : { hasAccess: false, accessType: null, accountExists: false };
}

// ---- email, settings, notifications ---------------------------------------------------------

export async function resendVerification(s: Services, rawEmail: string): Promise<void> {
  const user = await findUserByEmail(s.db, normalizeEmail(rawEmail));
  if (!user) throw new ApiError(404, ADMIN_TEXT.userNotFound);
  if (user.email_verified_at) throw new ApiError(409, ADMIN_TEXT.alreadyVerified);
  const code = await s.tokens.issue(user.id, "verify_email");
  s.defer(() => s.mailer.send(verificationEmail(s.config, user.email, code)));
}

export function testEmail(s: Services, to: string): MailMessage {
  const at = s.clock().toUTCString();
  return {
    to,
    subject: `${s.config.productName}: test message`,
    text: `This is a test message from the developer panel, sent ${at}. If you can read it, outgoing mail works.`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif"><p>This is a test message from the developer panel, sent ${at}.</p><p>If you can read it, outgoing mail works.</p></body></html>`,
  };
}

export async function recentMail(s: Services, limit = 50) {
  const rows = await s.db.selectFrom("mail_log").selectAll().orderBy("id", "desc").limit(limit).execute();
  const total = await s.db.selectFrom("mail_log").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return { total: Number(total.n), notifications: rows.map((r) => ({ to: r.to_email, subject: r.subject, sentAt: r.sent_at })) };
}

/** What is configured, with no secret in it (System Settings). */
export function settingsView(s: Services): AdminSettings {
  const p = s.config.payments;
  return {
    publicUrl: s.config.publicUrl,
    mail: s.config.mailTransport,
    payments: {
      configured: p.secretKey !== null,
      webhook: p.webhookSecret !== null,
      prices: { oneDay: p.prices.oneDay !== null, monthly: p.prices.monthly !== null, commercial: p.prices.commercial !== null },
      testServer: p.apiBase !== null,
    },
    storage: { configured: s.storage !== null, maxUploadBytes: s.config.maxUploadBytes },
    adminEmails: s.config.adminEmails.length,
    trustProxy: s.config.trustProxy,
  };
}
