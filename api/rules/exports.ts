// Counted exports: what POST /api/exports takes and answers, and every text about the count, in one
// module the API (routes/exports.ts, the video routes) and the studio (the export button's count
// line, its refusals) both show. Who has how many exports is plan-access.ts's rule; the numbers
// are the plan catalogue's (plans.ts PLAN_EXPORTS).

import { durationWords, PLAN_EXPORTS, PLANS, type PlanKey } from "./plans";

/** What is exported: a WAV from the studio, an MP4 (the video export), a render for the
 *  marketplace (the studio's Upload to Store). */
export const EXPORT_KINDS = ["wav", "mp4", "marketplace"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** The body of POST /api/exports. */
export interface ExportRequest {
  kind: ExportKind;
  durationSeconds: number;
}

/** The answer of POST and GET /api/exports: what is left after this export (POST) or now (GET).
 *  All null for unlimited exports. */
export interface ExportCount {
  left: number | null;
  quota: number | null;
  /** When the count starts again (ISO-8601): the end of the billing period or the Day Pass. */
  periodEnd: string | null;
}

/** A period's end as the texts say it: the UTC date, 2030-02-01. */
export function periodEndDate(periodEnd: string): string {
  return periodEnd.slice(0, 10);
}

/** The upgrade path from a plan whose exports are used up. */
function upgradePath(plan: PlanKey): string {
  switch (plan) {
    case "oneDay":
      return `Get ${PLANS.monthly.name} for ${PLAN_EXPORTS.monthly.quota} exports a month, or another ${PLANS.oneDay.name}.`;
    case "monthly":
      return `Upgrade to the ${PLANS.commercial.name} for ${PLAN_EXPORTS.commercial.quota} exports a month.`;
    case "commercial":
      return "Contact support if you need more.";
  }
}

export const EXPORT_TEXT = {
  /** Beside the export button. */
  left: (left: number, quota: number) => `${left} of ${quota} exports left this period`,
  unlimited: "Unlimited exports",
  /** Free and demo accounts (the spec gives them no export; its video text says the same for MP4). */
  needsPlan: "Exporting requires a Pro plan. Upgrade now to export your sounds!",
  /** The count is used up: when it starts again and the way to more. */
  usedUp: (plan: PlanKey, periodEnd: string) =>
    plan === "oneDay"
      ? `You have used all ${PLAN_EXPORTS.oneDay.quota} exports of your ${PLANS.oneDay.name}. ${upgradePath(plan)}`
      : `You have used all ${PLAN_EXPORTS[plan].quota} exports of this billing period; they start again on ${periodEndDate(periodEnd)}. ${upgradePath(plan)}`,
  /** Longer than the plan allows. */
  tooLong: (maxSeconds: number, plan: PlanKey | null) =>
    `Please set a duration of at most ${durationWords(maxSeconds)} for export` +
    (plan !== null && plan !== "commercial" && maxSeconds < PLAN_EXPORTS.commercial.maxSeconds
      ? `; the ${PLANS.commercial.name} exports up to ${durationWords(PLAN_EXPORTS.commercial.maxSeconds)}.`
      : "."),
  bodyInvalid: "Request body must be a JSON object with kind and durationSeconds",
  kindInvalid: "kind must be 'wav', 'mp4' or 'marketplace'",
  durationInvalid: "durationSeconds must be a number of seconds above 0",
} as const;

/** The line beside the export button for a count (null: unlimited, nothing to count). */
export function exportCountText(count: ExportCount): string {
  return count.left === null || count.quota === null ? EXPORT_TEXT.unlimited : EXPORT_TEXT.left(count.left, count.quota);
}
