// How long and how often each plan may export, as one rule both sides compute from the same facts:
// the API's entitlement function (services/entitlements.ts: the duration it allows, the export
// counter of services/exports.ts) and the studio's display gating (web/account/entitlements.ts:
// the duration box's maximum, its label and help text, the export counter's line). The numbers
// themselves are the plan catalogue's (plans.ts PLAN_EXPORTS), which the plan cards and the plan
// comparison quote.
//
// Who gets what (docs/api.md "Exports by plan" gives the reasons):
//   - free accounts, a running demo, an admin with the override off and no plan: 1 hour, no export;
//   - One Day Pass: 1 hour, 10 exports in its 24 hours;
//   - Monthly Plan: 1 hour, 100 exports per billing period;
//   - Commercial License: 12 hours, 200 exports per billing period;
//   - a temporary-access grant: unlimited exports; 12 hours when it grants the Commercial License,
//     else 1 hour (a grant gives "full platform access for the chosen plan", spec/accounts.md 6);
//   - admins with unlimited access: 12 hours, unlimited exports.

import { MAX_DURATION_SECONDS, MAX_DURATION_UNLIMITED_SECONDS } from "../../dsp/host/model/limits";
import { durationWords, PLAN_EXPORTS, PLAN_LIST, type PlanKey } from "./plans";

/** What both sides know about an account: the profile's fields (spec/accounts.md section 3), which
 *  the API's Entitlements carry under the same names. */
export interface AccessFacts {
  isAdmin: boolean;
  hasActiveSubscription: boolean;
  hasTemporaryAccess: boolean;
  hasUnlimitedAccess: boolean;
  subscription: { isActive: boolean; planName: string } | null;
  temporaryAccess: { accessType: string } | null;
}

/** The grant type that stands for the Commercial License (spec/accounts.md section 9). */
export const COMMERCIAL_GRANT = "commercial";

/** The paid plan behind a plan name ('One Day Pass', 'Monthly Plan', 'Commercial License'). */
export function planKeyOfName(planName: string | null | undefined): PlanKey | null {
  return PLAN_LIST.find((p) => p.planName === planName)?.key ?? null;
}

/** The live paid plan: null without one. An active subscription whose name is none of the
 *  catalogue's counts as the Monthly Plan (the smallest subscription). */
export function paidPlanOf(f: AccessFacts): PlanKey | null {
  if (!f.hasActiveSubscription) return null;
  return planKeyOfName(f.subscription?.isActive ? f.subscription.planName : null) ?? "monthly";
}

/** The longest playback and export the account may set, in seconds. */
export function maxExportSeconds(f: AccessFacts | null): number {
  if (!f || !f.hasUnlimitedAccess) return MAX_DURATION_SECONDS;
  if (f.isAdmin) return MAX_DURATION_UNLIMITED_SECONDS;
  const plan = paidPlanOf(f);
  const grantLong = f.hasTemporaryAccess && f.temporaryAccess?.accessType === COMMERCIAL_GRANT;
  return Math.max(plan ? PLAN_EXPORTS[plan].maxSeconds : MAX_DURATION_SECONDS, grantLong ? MAX_DURATION_UNLIMITED_SECONDS : MAX_DURATION_SECONDS);
}

/** How many exports an account has: none (free, demo), unlimited (admins with unlimited access,
 *  temporary grants), or a quota per pass or billing period of its paid plan. */
export type ExportAllowance =
  | { kind: "none" }
  | { kind: "unlimited" }
  | { kind: "counted"; plan: PlanKey; quota: number };

export function exportAllowance(f: AccessFacts | null): ExportAllowance {
  if (!f || !f.hasUnlimitedAccess) return { kind: "none" };
  if (f.isAdmin || f.hasTemporaryAccess) return { kind: "unlimited" };
  const plan = paidPlanOf(f) ?? "monthly";
  return { kind: "counted", plan, quota: PLAN_EXPORTS[plan].quota };
}

/** Who may export MP4 (the job API, routes/video-jobs.ts): every account with unlimited access
 *  (spec/studio.md section 5 "Video export requires Pro access"; the Monthly and Commercial cards
 *  promise "WAV and MP4 export", and the spec gives temporary grants and admins with the override
 *  unlimited access). Free and demo accounts see Export Video locked. */
export function mayExportVideo(f: AccessFacts | null): boolean {
  return !!f?.hasUnlimitedAccess;
}

/** Who may record, keep and place voice recordings (routes/recordings.ts, the studio's Recordings
 *  panel): the Monthly and Commercial plans (the Monthly card lists "voice recording"; the One Day
 *  Pass does not), a temporary grant of one of those two plans, and admins with unlimited access. */
export function mayRecordVoice(f: AccessFacts | null): boolean {
  if (!f?.hasUnlimitedAccess) return false;
  if (f.isAdmin) return true;
  const plan = paidPlanOf(f);
  if (plan === "monthly" || plan === "commercial") return true;
  const grant = f.hasTemporaryAccess ? f.temporaryAccess?.accessType : undefined;
  return grant === "monthly" || grant === COMMERCIAL_GRANT;
}

/** The label beside the duration box; null while nobody is signed in. The free and Pro 1-hour
 *  labels are the spec's verbatim quotes (accounts.md sections 6 and 9, studio.md section 8), so
 *  they keep '59 min max' although the limit is written "1 hour" everywhere else. */
export function tierLabel(f: AccessFacts | null, signedIn: boolean): string | null {
  if (!signedIn) return null;
  const max = maxExportSeconds(f);
  if (max === MAX_DURATION_SECONDS) return f?.hasUnlimitedAccess ? "Pro User (59 min max)" : "Free User (59 min max)";
  return `${f?.isAdmin ? "Admin" : "Pro"} User (${durationWords(max)} max)`;
}
