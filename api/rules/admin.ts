// Admin tools' rules and texts (spec/accounts.md sections 2, 4, 5, 7, 8 and 9), in one
// dependency-free module the API and the admin screens both import: the temporary-access plans,
// the time-left format, the default reason and every quoted message.

export const TEMP_ACCESS_TYPES = ["daily", "monthly", "commercial", "custom"] as const;
export type TempAccessType = (typeof TEMP_ACCESS_TYPES)[number];

/** Plans of the Admin Access Control modal: daily 24 h, monthly 720 h, commercial 8760 h
 *  (labelled Unlimited), custom 1-365 days. */
export const TEMP_ACCESS_PLANS: Readonly<Record<TempAccessType, { label: string; price: string; hours: number | null }>> = {
  daily: { label: "One-Day Pass", price: "$4.44", hours: 24 },
  monthly: { label: "Monthly Plan", price: "$22.00", hours: 720 },
  commercial: { label: "Commercial License", price: "$191.00", hours: 8760 },
  custom: { label: "Custom", price: "", hours: null },
};
export const CUSTOM_DAYS_MIN = 1;
export const CUSTOM_DAYS_MAX = 365;
export const DEFAULT_GRANT_REASON = "Admin granted access";
export const REASON_MAX = 500;

/** Hours a grant of `type` lasts (custom: `days` × 24); null when the days are out of range. */
export function grantHours(type: TempAccessType, days?: number): number | null {
  const fixed = TEMP_ACCESS_PLANS[type].hours;
  if (fixed !== null) return fixed;
  if (days === undefined || !Number.isInteger(days) || days < CUSTOM_DAYS_MIN || days > CUSTOM_DAYS_MAX) return null;
  return days * 24;
}

/** 'Expired' at 0 or below, else 'Xd Yh', 'Xh Ym' or 'Xm' (spec 9). */
export function timeLeftText(ms: number): string {
  if (!(ms > 0)) return "Expired";
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes % 60}m`;
  return `${minutes}m`;
}

export const ADMIN_TEXT = {
  overrideAdminOnly: "Only admin users can toggle override",
  overrideFailed: "Failed to toggle admin override",
  toggling: "Toggling...",
  emailRequired: "Email address is required",
  customDaysRequired: "Valid duration is required for custom plans",
  checkNeedsEmail: "Enter an email address first",
  granting: "Granting...",
  revoking: "Revoking...",
  grantFailed: (error?: string) => (error ? `❌ Failed: ${error}` : "❌ Failed to grant access"),
  revokeFailed: (error?: string) => (error ? `❌ Failed: ${error}` : "❌ Failed to revoke access"),
  checkFailed: (error?: string) => (error ? `Failed: ${error}` : "Failed to check access"),
  listFailed: "Failed to fetch temporary access list",
  revoked: (email: string) => `🚫 Access successfully revoked for ${email}`,
  hasAccess: (email: string, accessType: string) => `${email} has access (${accessType})`,
  noAccess: (email: string) => `${email} has no access - ready to grant!`,
  supportCopied: "Support text copied!",
  deployFailed: "Deployment failed. Please try again.",
  // filling the spec's gaps
  adminOnly: "Admin access required",
  csrfInvalid: "Invalid or missing CSRF token. Please reload the page and try again.",
  noActiveGrant: (email: string) => `${email} has no active temporary access`,
  invalidEmail: "Please enter a valid email address.",
  accessTypeInvalid: "Please choose one of the listed plans",
  reasonTooLong: `The reason can be at most ${REASON_MAX} characters long`,
  userNotFound: "No account with that email address",
  alreadyVerified: "This email address is already verified",
} as const;

// ---- deploy to live (spec/accounts.md sections 4, 7 and 8) ----------------------------------
export type DeployState = "idle" | "building" | "ready" | "failed";

/** GET /api/deploy/status: the spec's state, url, claimed and claim_url, plus the deploy's id and
 *  times (and, for admins only, the reason a build failed). `claimed`: the finished release is
 *  owned by this installation (it builds and serves its own releases, so there is no hosting
 *  account to hand it to); `claim_url`: where the admin manages it, the admin dashboard. */
export interface DeployStatus {
  state: DeployState;
  id: string | null;
  url: string | null;
  claimed: boolean;
  claim_url: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  error?: string;
}

/** Where a finished release is claimed and managed (joined to the public url). */
export const DEPLOY_CLAIM_PATH = "/admin/dashboard";
/** The deploy toasts' durations (spec section 4: 5 s, then the claim toast 10 s). */
export const DEPLOY_TOAST_MS = 5000;
export const DEPLOY_CLAIM_TOAST_MS = 10_000;

/** The toasts after a deploy is ready: what went live, then whose it is and where to manage it
 *  (none when the status names no claim url). The spec gives their durations, not their words. */
export function deployReadyToasts(status: Pick<DeployStatus, "url" | "claimed" | "claim_url">): { text: string; duration: number }[] {
  const toasts = [{ text: `Deployed to live${status.url ? `: ${status.url}` : ""}`, duration: DEPLOY_TOAST_MS }];
  if (status.claim_url) {
    const text = status.claimed ? `Deployment claimed: manage it at ${status.claim_url}` : `Claim your deployment: ${status.claim_url}`;
    toasts.push({ text, duration: DEPLOY_CLAIM_TOAST_MS });
  }
  return toasts;
}

// ---- what the admin routes answer (the admin screens read these shapes) -----------------------

export interface AdminUserRow {
  id: string;
  email: string;
  role: "admin" | "user";
  isAdmin: boolean;
  createdAt: string;
  subscription: { planName: string; status: string } | null;
}

export interface AdminStats {
  totalUsers: number;
  /** Accounts with a live paid plan (not 'Admin Access', not temporary access). */
  activeSubscriptions: number;
  /** Cents received in the last 30 days. */
  monthlyRevenue: number;
  /** Cents received ever. */
  revenue: number;
  currency: "usd";
}

export interface GrantDto {
  id: string;
  email: string;
  /** 'active', 'expired' or 'revoked'. */
  status: string;
  accessType: TempAccessType;
  planName: string;
  durationHours: number;
  createdAt: string;
  endDate: string;
  /** Milliseconds left (0 once over). */
  timeRemaining: number;
  timeLeft: string;
  reason: string;
  grantedBy: string | null;
}

/** What is configured, with no secret in it (the admin's System Settings). */
export interface AdminSettings {
  publicUrl: string;
  mail: "smtp" | "outbox";
  payments: {
    configured: boolean;
    webhook: boolean;
    prices: { oneDay: boolean; monthly: boolean; commercial: boolean };
    testServer: boolean;
  };
  storage: { configured: boolean; maxUploadBytes: number };
  adminEmails: number;
  trustProxy: number;
}
