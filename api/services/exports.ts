// Counted exports (POST /api/exports, and the video routes for MP4): every WAV, MP4 and marketplace
// render is counted against the account's plan before it starts. The allowance is the entitlement
// function's (capabilities.exports, from rules/plan-access.ts); the count is one row per account
// in export_counts (migration 012), taken by ONE conditional upsert:
//   insert (user, period_end, used 1) on conflict (user) do update
//     set used = (same period_end ? used + 1 : 1), period_end = the new one
//     where the stored period_end differs or used < quota
//   returning used
// so the check and the increment are one statement: on SQLite under the write lock, on PostgreSQL
// under the row's lock (ON CONFLICT re-reads the row it waited for). No row back means the count
// was used up. A new billing period (Stripe's current_period_end, written by fulfilment.ts) or a new
// Day Pass ends at another time, so the count starts again at 1 without any job resetting it.
import { sql } from "kysely";
import type { Services } from "../context";
import { ApiError } from "../errors";
import { EXPORT_TEXT, type ExportCount, type ExportKind } from "../rules/exports";
import { paidPlanOf } from "../rules/plan-access";
import { videoDurationLimit } from "../rules/video";
import type { Entitlements } from "./entitlements";

export const UNLIMITED_COUNT: ExportCount = Object.freeze({ left: null, quota: null, periodEnd: null });

/** When the count of a counted plan starts again: the end of its live subscription's period (the
 *  Stripe period, or a Day Pass's 24 hours); a plan row without an end counts by calendar month
 *  (UTC). */
export function periodEndOf(ent: Entitlements, now: Date): string {
  const end = ent.subscription?.isActive ? ent.subscription.endDate : null;
  if (end) return new Date(end).toISOString();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
}

/** The longest export of `kind` the account may make (MP4 within the video limit too). */
export function exportLimitSeconds(ent: Entitlements, kind: ExportKind): number {
  const max = ent.capabilities.maxDurationSeconds;
  return kind === "mp4" ? videoDurationLimit(max) : max;
}

/** Refuses (403) an account whose plan has no export. */
export function requireExportPlan(ent: Entitlements): void {
  if (ent.capabilities.exports.kind === "none") throw new ApiError(403, EXPORT_TEXT.needsPlan);
}

/** Refuses (400) an export longer than the plan allows. */
export function checkExportLength(ent: Entitlements, kind: ExportKind, seconds: number): void {
  const max = exportLimitSeconds(ent, kind);
  if (seconds > max) throw new ApiError(400, EXPORT_TEXT.tooLong(max, paidPlanOf(ent)));
}

/** Counts one export for `userId`: what is left after it, or 402 with the upgrade path when the
 *  count is used up (nothing is counted then). Unlimited accounts are not counted. */
export async function countExport(s: Services, userId: string, ent: Entitlements): Promise<ExportCount> {
  requireExportPlan(ent);
  const allowance = ent.capabilities.exports;
  if (allowance.kind !== "counted") return UNLIMITED_COUNT;
  const now = s.clock();
  const periodEnd = periodEndOf(ent, now);
  const row = await s.db
    .insertInto("export_counts")
    .values({ user_id: userId, period_end: periodEnd, used: 1, updated_at: now.toISOString() })
    .onConflict((oc) =>
      oc
        .column("user_id")
        .doUpdateSet({
          used: sql<number>`case when export_counts.period_end = excluded.period_end then export_counts.used + 1 else 1 end`,
          period_end: sql<string>`excluded.period_end`,
          updated_at: sql<string>`excluded.updated_at`,
        })
        .where(sql<boolean>`export_counts.period_end <> excluded.period_end or export_counts.used < ${allowance.quota}`),
    )
    .returning("used")
    .executeTakeFirst();
  // 402, not 403: the studio reads a 403 on a video export as an expired session (spec 8).
  if (!row) throw new ApiError(402, EXPORT_TEXT.usedUp(allowance.plan, periodEnd));
  return { left: Math.max(0, allowance.quota - Number(row.used)), quota: allowance.quota, periodEnd };
}

/** What is left now, without counting anything. */
export async function exportCountOf(s: Services, userId: string, ent: Entitlements): Promise<ExportCount> {
  requireExportPlan(ent);
  const allowance = ent.capabilities.exports;
  if (allowance.kind !== "counted") return UNLIMITED_COUNT;
  const periodEnd = periodEndOf(ent, s.clock());
  const row = await s.db.selectFrom("export_counts").select(["used", "period_end"]).where("user_id", "=", userId).executeTakeFirst();
  const used = row && row.period_end === periodEnd ? Number(row.used) : 0;
  return { left: Math.max(0, allowance.quota - used), quota: allowance.quota, periodEnd };
}

/** Gives back an export counted by countExport whose work never started (the renderer was busy,
 *  the queue refused it): only within the same period, never below 0. */
export async function refundExport(s: Services, userId: string, counted: ExportCount): Promise<void> {
  if (counted.periodEnd === null) return;
  await s.db
    .updateTable("export_counts")
    .set({ used: sql<number>`used - 1`, updated_at: s.clock().toISOString() })
    .where("user_id", "=", userId)
    .where("period_end", "=", counted.periodEnd)
    .where("used", ">", 0)
    .execute();
}
