// THE entitlement function: what a visitor may do, computed on the server from the user row, their
// subscription, any temporary-access grant and their demo. The profile route reports it and
// every protected route must ask it rather than re-deriving rules. Rules: spec/accounts.md
// sections 4 and 6, spec/studio.md section 6.
import { type Kysely, sql } from "kysely";
import { dialectOf } from "../db/dialect";
import { preparedQuery } from "../db/prepared";
import { type ExactReadCache, exactCacheFor } from "./read-cache";
import type { Database, SubscriptionRow, TemporaryAccessRow, UserRow } from "../db/schema";
import { ADMIN_PLAN_NAME, DEMO_CHANNELS, STUDIO_CHANNELS, TEMPORARY_PLAN_NAME } from "../rules/plans";
import { type ExportAllowance, exportAllowance, maxExportSeconds, mayExportVideo, mayRecordVoice } from "../rules/plan-access";

export type EntitlementLevel = "anonymous" | "free" | "demo" | "pro" | "unlimited" | "admin" | "admin_override";

const ACCESS_TYPE_LABELS: Record<string, string> = {
  daily: "One-Day Pass",
  monthly: "Monthly Plan",
  commercial: "Commercial License",
  custom: "Custom",
};

export interface EntitlementInput {
  user: Pick<UserRow, "email" | "is_admin" | "admin_override"> | null;
  /** The user's subscriptions (any status); the best one is chosen here. */
  subscriptions: readonly Pick<SubscriptionRow, "plan_name" | "status" | "current_period_end">[];
  /** Temporary-access grants for the user's e-mail (any status). */
  grants: readonly Pick<
    TemporaryAccessRow,
    "id" | "access_type" | "duration_hours" | "reason" | "status" | "end_date"
  >[];
  /** End of the account's demo (running or over); null or absent when it never started one. */
  demoEndsAt?: Date | null;
  adminEmails: readonly string[];
  now: Date;
}

export interface SubscriptionSummary {
  isActive: boolean;
  planName: string;
  endDate: string | null;
}

export interface DemoSummary {
  isActive: boolean;
  timeRemaining: number; // ms
  hasUsedDemo: boolean;
}

export interface TemporaryAccessSummary {
  id: string;
  accessType: string;
  planName: string;
  durationHours: number;
  endDate: string;
  timeRemaining: number; // ms
  reason: string;
}

export interface Capabilities {
  studio: "locked" | "limited" | "full";
  channels: number; // how many of the 4 channels may sound
  waveformChoice: boolean;
  allEffects: boolean;
  demoEffects: boolean; // DEMO_EFFECTS (Amplitude Mod, Ring Mod, Chorus) during a demo
  wavExport: boolean;
  sharePreset: boolean;
  billingPortal: boolean;
  adminTools: boolean; // dashboard, temporary access, marketplace upload, override toggle
  adminStudioFeatures: boolean; // quantum/sequential modes, upload to store
  /** MP4 export through the video job API (rules/plan-access.ts mayExportVideo). */
  videoExport: boolean;
  /** Voice recordings: record, keep and place them (rules/plan-access.ts mayRecordVoice). */
  voiceRecording: boolean;
  /** The longest playback and export (rules/plan-access.ts maxExportSeconds). */
  maxDurationSeconds: number;
  /** How many exports the account has (rules/plan-access.ts exportAllowance). */
  exports: ExportAllowance;
}

export interface Entitlements {
  level: EntitlementLevel;
  isAdmin: boolean;
  adminOverride: boolean;
  hasActiveSubscription: boolean; // a real plan: not 'Admin Access', not temporary
  hasTemporaryAccess: boolean;
  hasUnlimitedAccess: boolean;
  demoActive: boolean;
  demo: DemoSummary;
  subscription: SubscriptionSummary | null;
  temporaryAccess: TemporaryAccessSummary | null;
  capabilities: Capabilities;
}

function isLive(status: string, end: string | null, now: Date): boolean {
  return (status === "active" || status === "trialing") && (end === null || Date.parse(end) > now.getTime());
}

export function isAdminUser(user: Pick<UserRow, "email" | "is_admin">, adminEmails: readonly string[]): boolean {
  return user.is_admin === 1 || adminEmails.includes(user.email.toLowerCase());
}

/** Pure: the same inputs always give the same entitlements. */
export function computeEntitlements(input: EntitlementInput): Entitlements {
  const { user, now } = input;
  const isAdmin = user !== null && isAdminUser(user, input.adminEmails);
  const adminOverride = isAdmin && user?.admin_override === 1;

  const subs = input.subscriptions.map((s) => ({ ...s, live: isLive(s.status, s.current_period_end, now) }));
  const endOf = (s: { current_period_end: string | null }) =>
    s.current_period_end === null ? Infinity : Date.parse(s.current_period_end);
  const liveSubs = subs.filter((s) => s.live).sort((a, b) => endOf(b) - endOf(a));
  const paid = liveSubs.find((s) => s.plan_name !== ADMIN_PLAN_NAME && s.plan_name !== TEMPORARY_PLAN_NAME);
  const temporarySub = liveSubs.find((s) => s.plan_name === TEMPORARY_PLAN_NAME);

  const grant = input.grants
    .filter((g) => g.status === "active" && Date.parse(g.end_date) > now.getTime())
    .sort((a, b) => Date.parse(b.end_date) - Date.parse(a.end_date))[0];

  const hasActiveSubscription = user !== null && paid !== undefined;
  const hasTemporaryAccess = user !== null && (grant !== undefined || temporarySub !== undefined);
  const hasUnlimitedAccess = adminOverride || hasActiveSubscription || hasTemporaryAccess;
  const demoLeft = user !== null && input.demoEndsAt ? Math.max(0, input.demoEndsAt.getTime() - now.getTime()) : 0;
  const demoActive = !hasUnlimitedAccess && demoLeft > 0;
  const demo: DemoSummary = {
    isActive: demoActive,
    timeRemaining: demoActive ? demoLeft : 0,
    hasUsedDemo: user !== null && !!input.demoEndsAt,
  };

  let level: EntitlementLevel;
  if (user === null) level = "anonymous";
  else if (adminOverride) level = "admin_override";
  else if (hasActiveSubscription) level = "pro";
  else if (hasTemporaryAccess) level = "unlimited";
  else if (isAdmin) level = "admin";
  else if (demoActive) level = "demo";
  else level = "free";

  const summary = (s: (typeof subs)[number]): SubscriptionSummary => ({
    isActive: s.live,
    planName: s.plan_name,
    endDate: s.current_period_end,
  });
  const latestEnded = [...subs].sort((a, b) => endOf(b) - endOf(a))[0];
  let subscription: SubscriptionSummary | null = null;
  if (user === null) subscription = null;
  else if (paid) subscription = summary(paid);
  else if (temporarySub) subscription = summary(temporarySub);
  else if (grant) subscription = { isActive: true, planName: TEMPORARY_PLAN_NAME, endDate: grant.end_date };
  else if (isAdmin) subscription = { isActive: true, planName: ADMIN_PLAN_NAME, endDate: null };
  else if (latestEnded) subscription = summary(latestEnded); // shows as 'Expired'

  const temporaryAccess: TemporaryAccessSummary | null =
    user && grant
      ? {
          id: grant.id,
          accessType: grant.access_type || "daily",
          planName: ACCESS_TYPE_LABELS[grant.access_type] ?? TEMPORARY_PLAN_NAME,
          durationHours: grant.duration_hours,
          endDate: grant.end_date,
          timeRemaining: Math.max(0, Date.parse(grant.end_date) - now.getTime()),
          reason: grant.reason,
        }
      : null;

  const full = hasUnlimitedAccess;
  const facts = { isAdmin, hasActiveSubscription, hasTemporaryAccess, hasUnlimitedAccess, subscription, temporaryAccess };
  return {
    level,
    isAdmin,
    adminOverride,
    hasActiveSubscription,
    hasTemporaryAccess,
    hasUnlimitedAccess,
    demoActive,
    demo,
    subscription,
    temporaryAccess,
    capabilities: {
      studio: user === null ? "locked" : full ? "full" : "limited",
      channels:
        user === null
          ? STUDIO_CHANNELS.anonymous
          : full
            ? STUDIO_CHANNELS.full
            : demoActive
              ? DEMO_CHANNELS
              : STUDIO_CHANNELS.free,
      waveformChoice: full,
      allEffects: full,
      demoEffects: full || demoActive,
      wavExport: full,
      sharePreset: full,
      billingPortal: full,
      adminTools: isAdmin,
      adminStudioFeatures: adminOverride,
      maxDurationSeconds: maxExportSeconds(facts),
      exports: exportAllowance(facts),
      videoExport: mayExportVideo(facts),
      voiceRecording: mayRecordVoice(facts),
    },
  };
}

/** One row of loadEntitlements' query: a subscription (s), a grant (g) or the demo (d). */
interface SourceRow {
  source: string;
  id: string | null;
  name: string | null;
  status: string | null;
  end_at: string | null;
  hours: number | null;
  reason: string | null;
}

/** Loads what computeEntitlements needs for a user (or null for an anonymous visitor). */
export async function loadEntitlements(
  db: Kysely<Database>,
  user: UserRow | null,
  opts: { now: Date; adminEmails: readonly string[] },
): Promise<Entitlements> {
  if (user === null) {
    return computeEntitlements({ user: null, subscriptions: [], grants: [], ...opts });
  }
  const email = user.email.toLowerCase();
  // Kept while the three tables are unchanged (read-cache.ts ExactReadCache), so a payment, a grant
  // or a demo counts at once. The grants are kept whatever their end, and the ended ones left out
  // here on every use: the top ten by end date, less the ended ones, are the top ten unended ones.
  const rows = await exactCacheFor(sourceRows, db, SOURCE_TABLES).get(db, `${user.id} ${email}`, async () => {
    const found = dialectOf(db) === "postgres" ? await sourcesInOneStatement(db, user.id, email) : await sourcesInThreeQueries(db, user.id, email);
    // Shared by every request that uses the entry: read-only.
    return { subscriptions: frozenRows(found.subscriptions), grants: frozenRows(found.grants), demoEndsAt: found.demoEndsAt };
  });
  const nowIso = opts.now.toISOString();
  return computeEntitlements({
    user,
    subscriptions: rows.subscriptions,
    grants: rows.grants.filter((g) => g.end_date > nowIso),
    demoEndsAt: rows.demoEndsAt ? new Date(rows.demoEndsAt) : null,
    ...opts,
  });
}

type Sources = Pick<EntitlementInput, "subscriptions" | "grants"> & { demoEndsAt: string | null };

/** The three sources as three small queries: on SQLite (no round trips) this is cheaper than one
 *  UNION ALL of sub-selects, which SQLite materialises (56 us against 38 us for the three, measured).
 *  Each is compiled once (db/prepared.ts). */
async function sourcesInThreeQueries(db: Kysely<Database>, userId: string, email: string): Promise<Sources> {
  const [subscriptions, grants, demo] = await Promise.all([subscriptionsOf(db, { userId }), activeGrantsOf(db, { email }), demoOf(db, { userId })]);
  return { subscriptions: subscriptions.rows, grants: grants.rows, demoEndsAt: demo.rows[0]?.ends_at ?? null };
}

const frozenRows = <R extends object>(rows: readonly R[]): readonly R[] => Object.freeze(rows.map((r) => Object.freeze(r)));

const SOURCE_TABLES = ["subscriptions", "temporary_access", "demo_sessions"] as const;
const sourceRows = new WeakMap<object, ExactReadCache<Sources>>();

const subscriptionsOf = preparedQuery((db, arg: (name: "userId") => string) =>
  db
    .selectFrom("subscriptions")
    .select(["plan_name", "status", "current_period_end"])
    .where("user_id", "=", arg("userId"))
    .orderBy("updated_at", "desc")
    .limit(50),
);

const activeGrantsOf = preparedQuery((db, arg: (name: "email") => string) =>
  db
    .selectFrom("temporary_access")
    .select(["id", "access_type", "duration_hours", "reason", "status", "end_date"])
    .where("email", "=", arg("email"))
    .where("status", "=", "active")
    .orderBy("end_date", "desc")
    .limit(10),
);

const demoOf = preparedQuery((db, arg: (name: "userId") => string) => db.selectFrom("demo_sessions").select("ends_at").where("user_id", "=", arg("userId")));

/** The same sources in one statement: on PostgreSQL one round trip and one pooled connection
 *  instead of three. Rows of one shape told apart by `source`; each part keeps its own order and
 *  limit inside a sub-select. Compiled once (db/prepared.ts), a server-side prepared statement. */
async function sourcesInOneStatement(db: Kysely<Database>, userId: string, email: string): Promise<Sources> {
  const { rows } = await sourcesOf(db, { userId, email });
  const subscriptions = rows
    .filter((r) => r.source === "s")
    .map((r) => ({ plan_name: r.name!, status: r.status!, current_period_end: r.end_at }));
  const grants = rows
    .filter((r) => r.source === "g")
    .map((r) => ({ id: r.id!, access_type: r.name!, duration_hours: Number(r.hours), reason: r.reason!, status: r.status!, end_date: r.end_at! }));
  return { subscriptions, grants, demoEndsAt: rows.find((r) => r.source === "d")?.end_at ?? null };
}

const sourcesOf = preparedQuery((db, arg: (name: "userId" | "email") => string) => {
  const noText = sql<string | null>`cast(null as text)`;
  const noHours = sql<number | null>`cast(null as integer)`;
  const subs = db
    .selectFrom("subscriptions")
    .select([sql<string>`'s'`.as("source"), noText.as("id"), "plan_name as name", "status", "current_period_end as end_at", noHours.as("hours"), noText.as("reason")])
    .where("user_id", "=", arg("userId"))
    .orderBy("updated_at", "desc")
    .limit(50)
    .$castTo<SourceRow>();
  const live = db
    .selectFrom("temporary_access")
    .select([sql<string>`'g'`.as("source"), "id", "access_type as name", "status", "end_date as end_at", "duration_hours as hours", "reason"])
    .where("email", "=", arg("email"))
    .where("status", "=", "active")
    .orderBy("end_date", "desc")
    .limit(10)
    .$castTo<SourceRow>();
  return db
    .selectFrom(subs.as("s"))
    .selectAll()
    .unionAll(db.selectFrom(live.as("g")).selectAll())
    .unionAll(
      db
        .selectFrom("demo_sessions")
        .select([sql<string>`'d'`.as("source"), noText.as("id"), noText.as("name"), noText.as("status"), "ends_at as end_at", noHours.as("hours"), noText.as("reason")])
        .where("user_id", "=", arg("userId"))
        .$castTo<SourceRow>(),
    );
});
