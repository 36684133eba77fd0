// Plan names, the plan catalogue and what each level of access opens in the studio
// (spec/accounts.md sections 3, 4, 6 and 9, spec/studio.md section 6), in one module (importing
// only the engine's plain limits) that the API (entitlements, checkout, GET /api/plans) and the web app (pricing cards,
// display gating) both import. Stripe price ids are deployment settings, not catalogue data: the
// server reads them from STRIPE_PRICE_* and GET /api/plans adds them to each plan.

/** An admin's own plan: never counts as a real subscription (nor for checkout). */
export const ADMIN_PLAN_NAME = "Admin Access";
import { MAX_DURATION_SECONDS, MAX_DURATION_UNLIMITED_SECONDS } from "../../dsp/host/model/limits";

/** The plan of a temporary-access grant: unlimited access while active. */
export const TEMPORARY_PLAN_NAME = "Temporary Access";

/** How many of the studio's four channels may sound: none while signed out (every channel shows
 *  'Pro Only'), channel 1 for free accounts, all four with Pro or unlimited access. */
export const STUDIO_CHANNELS = { anonymous: 0, free: 1, full: 4 } as const;

// ---- demo -----------------------------------------------------------------------------------
/** One demo per account: this long (10 minutes, spec section 9). */
export const DEMO_DURATION_MS = 10 * 60_000;
/** During a demo channels 1..DEMO_CHANNELS sound. */
export const DEMO_CHANNELS = 2;
/** Effects a running demo unlocks (catalogue ids of dsp/host/model/catalogue.ts). */
export const DEMO_EFFECTS = ["amplitudeMod", "ringMod", "chorus"] as const;

// ---- the duration limit in words -------------------------------------------------------------
/** A length in seconds as the pages say it: "1 hour", "12 hours", "10 minutes", "30 seconds" (the
 *  largest whole unit). */
export function durationWords(seconds: number): string {
  const [n, unit] = seconds % 3600 === 0 ? [seconds / 3600, "hour"] : seconds % 60 === 0 ? [seconds / 60, "minute"] : [seconds, "second"];
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}
/** The one wording of the studio's limit (3600 s, MAX_DURATION_SECONDS) on plans, the comparison,
 *  the menu and the duration box: "1 hour". Only the spec's verbatim labels keep '59 min'. */
export const MAX_DURATION_TEXT = durationWords(MAX_DURATION_SECONDS);

// ---- refunds --------------------------------------------------------------------------------
/** The one refund rule (the Terms, spec/accounts.md section 9): a monthly charge may be refunded
 *  within 7 days, an annual one within 30. Every page that mentions refunds shows REFUND_TEXT. */
export const REFUND_DAYS = { monthly: 7, annual: 30 } as const;
export const REFUND_TEXT = `Refunds within ${REFUND_DAYS.monthly} days of a monthly charge and within ${REFUND_DAYS.annual} days of an annual plan's charge.`;

// ---- plans ----------------------------------------------------------------------------------
export const PLAN_KEYS = ["oneDay", "monthly", "commercial"] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];
export type PlanMode = "payment" | "subscription";
/** What a subscription row stores as its plan_name (spec section 3). */
export type PaidPlanName = "One Day Pass" | "Monthly Plan" | "Commercial License";

/** A One Day Pass gives full access for this long after payment. */
export const ONE_DAY_PASS_MS = 24 * 60 * 60_000;

/** What each plan may export (spec/accounts.md section 9, the product's "WAV export up to 12+
 *  hours"): how many exports per pass (One Day Pass: its 24 hours) or billing period, and how long
 *  each may be. Who gets which (grants, admins, free accounts) is plan-access.ts's rule. */
export const PLAN_EXPORTS: Readonly<Record<PlanKey, { quota: number; maxSeconds: number }>> = {
  oneDay: { quota: 10, maxSeconds: MAX_DURATION_SECONDS },
  monthly: { quota: 100, maxSeconds: MAX_DURATION_SECONDS },
  commercial: { quota: 200, maxSeconds: MAX_DURATION_UNLIMITED_SECONDS },
};
/** The longest export of the longest plan, in words ("12 hours"). */
export const LONG_EXPORT_TEXT = durationWords(PLAN_EXPORTS.commercial.maxSeconds);

export interface Plan {
  key: PlanKey;
  /** Shown on the plan card. */
  name: string;
  /** Stored on the subscription and shown in the user menu. */
  planName: PaidPlanName;
  /** US dollars. */
  price: number;
  priceLabel: string;
  period: string;
  mode: PlanMode;
  tagline: string;
  audience: string;
  coreFeatures: readonly string[];
  limits: readonly string[];
  restrictions: readonly string[];
  cta: string;
  ctaSubtext: string;
  popular: boolean;
  enterprise: boolean;
}

const PRO_STUDIO = ["4 frequency sliders (0-20 kHz)", "14+ effects with layering", "All waveforms"] as const;

export const PLANS: Readonly<Record<PlanKey, Plan>> = {
  oneDay: {
    key: "oneDay",
    name: "One Day Pass",
    planName: "One Day Pass",
    price: 4.44,
    priceLabel: "$4.44",
    period: "one-time",
    mode: "payment",
    tagline: "Full studio access for 24 hours",
    audience: "Try every feature for a day",
    coreFeatures: ["24 hours of full access", ...PRO_STUDIO, "WAV and MP4 export"],
    limits: [`${PLAN_EXPORTS.oneDay.quota} exports, max ${durationWords(PLAN_EXPORTS.oneDay.maxSeconds)} each`],
    restrictions: ["Personal use only"],
    cta: "Get Day Pass",
    ctaSubtext: "One-time payment, no subscription",
    popular: false,
    enterprise: false,
  },
  monthly: {
    key: "monthly",
    name: "Monthly Personal",
    planName: "Monthly Plan",
    price: 22,
    priceLabel: "$22",
    period: "month",
    mode: "subscription",
    tagline: "The whole studio, every day",
    audience: "Personal practice and sharing on social media",
    coreFeatures: [...PRO_STUDIO, "WAV and MP4 export", "Voice recording"],
    limits: [`${PLAN_EXPORTS.monthly.quota} exports per month, up to ${durationWords(PLAN_EXPORTS.monthly.maxSeconds)} each`],
    restrictions: ["Personal use plus sharing on social media", "No selling"],
    cta: "Go Monthly",
    ctaSubtext: "Cancel anytime",
    popular: true,
    enterprise: false,
  },
  commercial: {
    key: "commercial",
    name: "Commercial License",
    planName: "Commercial License",
    price: 191,
    priceLabel: "$191",
    period: "month",
    mode: "subscription",
    tagline: "Sell, license and publish what you make",
    audience: "Businesses, creators who sell and teams",
    coreFeatures: [
      ...PRO_STUDIO,
      "WAV and MP4 export",
      "Full commercial rights: selling, licensing and team use",
      "Resale rights and legal indemnification",
      "Priority business support",
    ],
    limits: [`${PLAN_EXPORTS.commercial.quota} exports per month, up to ${durationWords(PLAN_EXPORTS.commercial.maxSeconds)} each`],
    restrictions: [],
    cta: "Get Commercial License",
    ctaSubtext: `Cancel anytime, ${REFUND_DAYS.monthly}-day refund window`,
    popular: false,
    enterprise: true,
  },
};

/** The catalogue in display order: oneDay, monthly, commercial. */
export const PLAN_LIST: readonly Plan[] = PLAN_KEYS.map((key) => PLANS[key]);

export function isPlanKey(value: unknown): value is PlanKey {
  return typeof value === "string" && (PLAN_KEYS as readonly string[]).includes(value);
}
