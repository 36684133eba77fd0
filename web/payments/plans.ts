// The plans as every screen shows them: the one catalogue in api/rules/plans.ts (names, prices,
// features; the same on /subscribe, the pricing screen and /reactivate), with the price ids the
// server answers on GET /api/plans merged in by plan key.

import { PLAN_LIST, type Plan } from "../../api/rules/plans";

export type PricedPlan = Plan & { priceId: string | null };

/** The catalogue in its own order, each plan with its price id from the server (null until
 *  known, or when the server has none for it). The server's copy of the texts is not used: the
 *  web app shows the catalogue it was built with, so every screen shows the same price. */
export function withPriceIds(served: readonly Pick<PricedPlan, "key" | "priceId">[] | null): PricedPlan[] {
  const ids = new Map(served?.map((p) => [p.key, p.priceId] as const) ?? []);
  return PLAN_LIST.map((plan) => ({ ...plan, priceId: ids.get(plan.key) ?? null }));
}

/** "one-time" stays as it is; "month" reads "per month". */
export function periodLabel(period: string): string {
  return /^one/i.test(period) || /^per /i.test(period) ? period : `per ${period}`;
}
