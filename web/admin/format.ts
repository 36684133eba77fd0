// Pure display rules of the admin dashboard (spec/accounts.md section 2): money in dollars from
// the API's cents, a user row's plan ('No subscription' without one) and status ('inactive' by
// default; active shown green, anything else red, always with a word and a symbol as well).

import type { AdminUserRow } from "./admin-api";

export const NO_SUBSCRIPTION = "No subscription";
export const DEFAULT_STATUS = "inactive";

const USD = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** '$1,234.56' from 123456 cents. */
export function dollars(cents: number): string {
  return USD.format((Number.isFinite(cents) ? cents : 0) / 100);
}

export interface StatusView {
  /** The status word ('active', 'past_due', 'inactive', ...). */
  text: string;
  active: boolean;
  /** Shown before the word, so the state never rests on colour alone. */
  symbol: string;
}

export function statusView(sub: AdminUserRow["subscription"]): StatusView {
  const text = sub?.status?.trim() || DEFAULT_STATUS;
  const active = text === "active";
  return { text: text.replace(/_/g, " "), active, symbol: active ? "✓" : "✗" };
}

export function planNameOf(sub: AdminUserRow["subscription"]): string {
  return sub?.planName?.trim() || NO_SUBSCRIPTION;
}

/** A date-time for tables: '2025-08-01 14:05 UTC'. */
export function shortDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  return `${new Date(t).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
