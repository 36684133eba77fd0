// Pure rules of the Admin Access Control modal (spec/accounts.md sections 4, 5, 8 and 9): the plan
// options, the form's validation and request, the grant's success text, the support text and the
// time left of a listed grant. Plans, hours, the default reason and every quoted message come
// from api/rules/admin.ts, which the server uses too.

import {
  ADMIN_TEXT, CUSTOM_DAYS_MAX, CUSTOM_DAYS_MIN, DEFAULT_GRANT_REASON, TEMP_ACCESS_PLANS, TEMP_ACCESS_TYPES, grantHours,
  timeLeftText, type TempAccessType,
} from "../../api/rules/admin";
import type { GrantDto, GrantRequest } from "./admin-api";

export { CUSTOM_DAYS_MAX, CUSTOM_DAYS_MIN, DEFAULT_GRANT_REASON };

export interface AccessForm {
  email: string;
  planType: TempAccessType;
  /** The custom plan's days as typed (1-365). */
  days: string;
  reason: string;
}

export const EMPTY_FORM: AccessForm = { email: "", planType: "daily", days: "", reason: "" };

/** How long a plan lasts, in words: '24 hours', '30 days', 'Unlimited', '7 days'. */
export function durationText(type: TempAccessType, hours: number): string {
  if (type === "commercial") return "Unlimited";
  if (hours % 24 === 0 && hours > 24) return `${hours / 24} days`;
  if (hours === 24 && type === "custom") return "1 day";
  return `${hours} hours`;
}

/** The plan selector's options: 'One-Day Pass - $4.44 (24 hours)', ..., 'Custom (1-365 days)'. */
export const PLAN_OPTIONS: readonly { value: TempAccessType; label: string }[] = TEMP_ACCESS_TYPES.map((type) => {
  const plan = TEMP_ACCESS_PLANS[type];
  if (plan.hours === null) return { value: type, label: `${plan.label} (${CUSTOM_DAYS_MIN}-${CUSTOM_DAYS_MAX} days)` };
  return { value: type, label: `${plan.label} - ${plan.price} (${durationText(type, plan.hours)})` };
});

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** The trimmed e-mail, or 'Email address is required'. */
export function checkEmail(form: Pick<AccessForm, "email">): Checked<string> {
  const email = form.email.trim();
  return email ? { ok: true, value: email } : { ok: false, error: ADMIN_TEXT.emailRequired };
}

/** The grant request of `form`: the plan's hours (custom: days × 24) and the reason or its default. */
export function grantRequest(form: AccessForm): Checked<GrantRequest> {
  const email = checkEmail(form);
  if (!email.ok) return email;
  const days = form.planType === "custom" ? Number(form.days.trim() || NaN) : undefined;
  const hours = grantHours(form.planType, days);
  if (hours === null) return { ok: false, error: ADMIN_TEXT.customDaysRequired };
  return { ok: true, value: { email: email.value, planType: form.planType, durationHours: hours, reason: form.reason.trim() || DEFAULT_GRANT_REASON } };
}

/** The grant toast (shown 6 s): user, duration and plan on their own lines. */
export function grantSuccessText(grant: Pick<GrantDto, "email" | "accessType" | "durationHours">): string {
  return [
    "✓ Access granted!",
    `User: ${grant.email}`,
    `Duration: ${durationText(grant.accessType, grant.durationHours)}`,
    `Plan: ${TEMP_ACCESS_PLANS[grant.accessType].label}`,
  ].join("\n");
}

/** Copy Support Text: a note for the customer about the access in the form. */
export function supportText(form: AccessForm, siteUrl: string): string {
  const req = grantRequest(form);
  const email = form.email.trim() || "[customer email]";
  const plan = TEMP_ACCESS_PLANS[form.planType].label;
  const duration = req.ok ? durationText(form.planType, req.value.durationHours) : "[duration]";
  return [
    `Hi ${email},`,
    "",
    `We have given your account full access to the studio: ${plan} (${duration}).`,
    `Sign in at ${siteUrl.replace(/\/$/, "")}/auth with this e-mail address to use every channel, effect and export.`,
    "The access ends by itself when the time is up; you will not be charged for it.",
    "",
    `Reason: ${form.reason.trim() || DEFAULT_GRANT_REASON}`,
  ].join("\n");
}

/** Time left of a listed grant `elapsedMs` after the list was fetched; null unless active. */
export function grantTimeLeft(grant: Pick<GrantDto, "status" | "timeRemaining">, elapsedMs: number): string | null {
  if (grant.status !== "active") return null;
  return timeLeftText(grant.timeRemaining - Math.max(0, elapsedMs));
}

/** 'active', or what the spec treats as expired/revoked (any other status). */
export function isActiveGrant(grant: Pick<GrantDto, "status" | "timeRemaining">, elapsedMs = 0): boolean {
  return grant.status === "active" && grant.timeRemaining - elapsedMs > 0;
}
