// What the signed-in visitor may do, derived on the client from the profile for DISPLAY only (the
// server enforces every protected call). Rules of spec/accounts.md sections 4 and 6 and
// spec/studio.md section 6; where the profile carries the server's own answer it wins.

import { ADMIN_PLAN_NAME, TEMPORARY_PLAN_NAME } from "../../api/rules/plans";
import { type AccessFacts, type ExportAllowance, exportAllowance, maxExportSeconds, tierLabel as planTierLabel } from "../../api/rules/plan-access";
import type { Profile, PublicUser } from "./api";

const DAY_MS = 86_400_000;

export interface ClientEntitlements {
  signedIn: boolean;
  isAdmin: boolean;
  adminOverride: boolean;
  hasActiveSubscription: boolean;
  hasTemporaryAccess: boolean;
  hasUnlimitedAccess: boolean;
  /** Longest playback and export the studio allows (api/rules/plan-access.ts maxExportSeconds). */
  maxDuration: number;
  /** How many exports the plan has (api/rules/plan-access.ts exportAllowance). */
  exports: ExportAllowance;
  /** The facts the shared plan rules read (null while signed out). */
  facts: AccessFacts | null;
}

export const ANONYMOUS: ClientEntitlements = {
  signedIn: false,
  isAdmin: false,
  adminOverride: false,
  hasActiveSubscription: false,
  hasTemporaryAccess: false,
  hasUnlimitedAccess: false,
  maxDuration: maxExportSeconds(null),
  exports: exportAllowance(null),
  facts: null,
};

/** Admin when the profile says so, or the user's is_super_admin or isAdmin is true. */
export function isAdminProfile(profile: Pick<Profile, "isAdmin"> | null, user: PublicUser | null): boolean {
  return profile?.isAdmin === true || user?.is_super_admin === true || user?.isAdmin === true;
}

export function deriveEntitlements(profile: Profile | null, user: PublicUser | null = profile?.user ?? null): ClientEntitlements {
  if (!user) return ANONYMOUS;
  const isAdmin = isAdminProfile(profile, user);
  const adminOverride = isAdmin && profile?.adminOverride === true;
  const sub = profile?.subscription ?? null;
  const realPlan = !!sub?.isActive && sub.planName !== ADMIN_PLAN_NAME && sub.planName !== TEMPORARY_PLAN_NAME;
  const hasActiveSubscription = profile?.hasActiveSubscription ?? realPlan;
  const hasTemporaryAccess =
    profile?.hasTemporaryAccess === true || (!!sub?.isActive && sub.planName === TEMPORARY_PLAN_NAME);
  const hasUnlimitedAccess =
    profile?.hasUnlimitedAccess ?? (adminOverride || hasActiveSubscription || hasTemporaryAccess);
  const facts: AccessFacts = {
    isAdmin,
    hasActiveSubscription,
    hasTemporaryAccess,
    hasUnlimitedAccess,
    subscription: sub,
    temporaryAccess: profile?.temporaryAccess ?? null,
  };
  return {
    signedIn: true,
    isAdmin,
    adminOverride,
    hasActiveSubscription,
    hasTemporaryAccess,
    hasUnlimitedAccess,
    maxDuration: maxExportSeconds(facts),
    exports: exportAllowance(facts),
    facts,
  };
}

/** 'Expired' at or past the end, '1 day left', else 'N days left' (days rounded up). */
export function daysLeftText(endDate: string | null | undefined, now: number = Date.now()): string | null {
  if (!endDate) return null;
  const end = Date.parse(endDate);
  if (!Number.isFinite(end)) return null;
  const days = Math.ceil((end - now) / DAY_MS);
  if (days <= 0) return "Expired";
  return days === 1 ? "1 day left" : `${days} days left`;
}

/** The plan line of the subscription card: the plan name, or 'Active'. */
export function planText(sub: { planName?: string | null } | null): string {
  return sub?.planName?.trim() || "Active";
}

/** The label next to the duration (spec 6); null while nobody is signed in: the shared plan
 *  rule (api/rules/plan-access.ts tierLabel), whose 1-hour labels are the spec's verbatim
 *  'Free User (59 min max)' and 'Pro User (59 min max)'. */
export function tierLabel(ent: ClientEntitlements): string | null {
  return planTierLabel(ent.facts, ent.signedIn);
}
