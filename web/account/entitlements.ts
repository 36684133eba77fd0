// What the signed-in visitor may do, derived on the client from the profile for DISPLAY only (the
// server enforces every protected call). Rules of spec/accounts.md sections 4 and 6 and
// spec/studio.md section 6; where the profile carries the server's own answer it wins.

import { MAX_DURATION_SECONDS, MAX_DURATION_UNLIMITED_SECONDS } from "../../dsp/host/model/limits";
import { ADMIN_PLAN_NAME, TEMPORARY_PLAN_NAME } from "../../api/rules/plans";
import type { Profile, PublicUser } from "./api";

const DAY_MS = 86_400_000;

export interface ClientEntitlements {
  signedIn: boolean;
  isAdmin: boolean;
  adminOverride: boolean;
  hasActiveSubscription: boolean;
  hasTemporaryAccess: boolean;
  hasUnlimitedAccess: boolean;
  /** Longest playback the studio allows (43200 s only for admins with unlimited access). */
  maxDuration: number;
}

export const ANONYMOUS: ClientEntitlements = {
  signedIn: false,
  isAdmin: false,
  adminOverride: false,
  hasActiveSubscription: false,
  hasTemporaryAccess: false,
  hasUnlimitedAccess: false,
  maxDuration: MAX_DURATION_SECONDS,
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
  return {
    signedIn: true,
    isAdmin,
    adminOverride,
    hasActiveSubscription,
    hasTemporaryAccess,
    hasUnlimitedAccess,
    maxDuration: isAdmin && hasUnlimitedAccess ? MAX_DURATION_UNLIMITED_SECONDS : MAX_DURATION_SECONDS,
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

/** The label next to the duration (spec 6); null while nobody is signed in. The free and Pro
 *  labels are the spec's verbatim quotes (accounts.md sections 6 and 9, studio.md section 8), so
 *  they keep '59 min max' although the limit is written "1 hour" everywhere else
 *  (MAX_DURATION_TEXT, api/rules/plans.ts). */
export function tierLabel(ent: ClientEntitlements): string | null {
  if (!ent.signedIn) return null;
  if (ent.maxDuration === MAX_DURATION_UNLIMITED_SECONDS) return "Admin User (12 hours max)";
  return ent.hasUnlimitedAccess ? "Pro User (59 min max)" : "Free User (59 min max)";
}
