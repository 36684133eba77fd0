// The one rule of export length and count by plan (api/rules/plan-access.ts), as the API computes
// it from stored rows and the studio from the profile: the same facts give the same answers on
// both sides, and the plan cards and the comparison quote the same numbers.
import { describe, expect, it } from "vitest";
import { type AccessFacts, exportAllowance, maxExportSeconds, mayExportVideo, tierLabel } from "../../../../api/rules/plan-access";
import { PLANS } from "../../../../api/rules/plans";
import { computeEntitlements } from "../../../../api/services/entitlements";
import { deriveEntitlements } from "../../../../web/account/entitlements";
import type { Profile } from "../../../../web/account/api";
import { PLAN_COMPARISON_ROWS } from "../../../../web/payments/PlanComparison";

const NOW = new Date("2030-01-01T12:00:00.000Z");
const LATER = "2030-02-01T00:00:00.000Z";
const user = { email: "ada@example.com", is_admin: 0, admin_override: 0 };

type Case = [name: string, input: Partial<Parameters<typeof computeEntitlements>[0]>, seconds: number, allowance: unknown, label: string];
const grant = (access_type: string) => ({ grants: [{ id: "g", access_type, duration_hours: 24, reason: "r", status: "active", end_date: LATER }] });
const plan = (plan_name: string) => ({ subscriptions: [{ plan_name, status: "active", current_period_end: LATER }] });

const CASES: Case[] = [
  ["free", {}, 3600, { kind: "none" }, "Free User (59 min max)"],
  ["demo", { demoEndsAt: new Date(NOW.getTime() + 60_000) }, 3600, { kind: "none" }, "Free User (59 min max)"],
  ["admin, override off", { user: { ...user, is_admin: 1 } }, 3600, { kind: "none" }, "Free User (59 min max)"],
  ["One Day Pass", plan("One Day Pass"), 3600, { kind: "counted", plan: "oneDay", quota: 10 }, "Pro User (59 min max)"],
  ["Monthly Plan", plan("Monthly Plan"), 3600, { kind: "counted", plan: "monthly", quota: 100 }, "Pro User (59 min max)"],
  ["Commercial License", plan("Commercial License"), 43200, { kind: "counted", plan: "commercial", quota: 200 }, "Pro User (12 hours max)"],
  ["daily grant", grant("daily"), 3600, { kind: "unlimited" }, "Pro User (59 min max)"],
  ["custom grant", grant("custom"), 3600, { kind: "unlimited" }, "Pro User (59 min max)"],
  ["commercial grant", grant("commercial"), 43200, { kind: "unlimited" }, "Pro User (12 hours max)"],
  ["Temporary Access plan", plan("Temporary Access"), 3600, { kind: "unlimited" }, "Pro User (59 min max)"],
  ["admin, override on", { user: { ...user, is_admin: 1, admin_override: 1 } }, 43200, { kind: "unlimited" }, "Admin User (12 hours max)"],
];

describe("export length and count by plan, the same on the API and in the studio", () => {
  it.each(CASES)("%s", (_name, input, seconds, allowance, label) => {
    const server = computeEntitlements({ user, subscriptions: [], grants: [], adminEmails: [], now: NOW, ...input });
    expect(server.capabilities.maxDurationSeconds).toBe(seconds);
    expect(server.capabilities.exports).toEqual(allowance);
    // The studio reads the profile the API answers (routes/user.ts) and derives the same.
    const profile: Profile = {
      user: { id: "u", email: user.email, fullName: null, isAdmin: server.isAdmin, is_super_admin: false, emailVerified: true, createdAt: "" },
      isAdmin: server.isAdmin,
      subscription: server.subscription,
      hasTemporaryAccess: server.hasTemporaryAccess,
      temporaryAccess: server.temporaryAccess,
      hasActiveSubscription: server.hasActiveSubscription,
      hasUnlimitedAccess: server.hasUnlimitedAccess,
      adminOverride: server.adminOverride,
    };
    const client = deriveEntitlements(profile);
    expect(client.maxDuration).toBe(seconds);
    expect(client.exports).toEqual(allowance);
    expect(tierLabel(client.facts, true)).toBe(label);
    // MP4: every account with exports (the plans' "WAV and MP4 export"), on both sides alike
    expect(server.capabilities.videoExport).toBe((allowance as { kind: string }).kind !== "none");
    expect(mayExportVideo(client.facts)).toBe(server.capabilities.videoExport);
  });

  it("nobody signed in: no label, 1 hour, no export", () => {
    expect(tierLabel(null, false)).toBeNull();
    expect(maxExportSeconds(null)).toBe(3600);
    expect(exportAllowance(null)).toEqual({ kind: "none" });
  });

  it("Commercial over a grant, a grant over a plan's count: the larger length, the unlimited count", () => {
    const f: AccessFacts = {
      isAdmin: false,
      hasActiveSubscription: true,
      hasTemporaryAccess: true,
      hasUnlimitedAccess: true,
      subscription: { isActive: true, planName: "Commercial License" },
      temporaryAccess: { accessType: "daily" },
    };
    expect(maxExportSeconds(f)).toBe(43200);
    expect(exportAllowance(f)).toEqual({ kind: "unlimited" });
  });

  it("the plan cards and the comparison quote the same numbers", () => {
    expect(PLANS.oneDay.limits).toEqual(["10 exports, max 1 hour each"]);
    for (const plan of Object.values(PLANS)) expect(plan.coreFeatures).toContain("WAV and MP4 export");
    expect(PLANS.monthly.limits).toEqual(["100 exports per month, up to 1 hour each"]);
    expect(PLANS.commercial.limits).toEqual(["200 exports per month, up to 12 hours each"]);
    expect(PLAN_COMPARISON_ROWS.find(([f]) => f === "Exports")).toEqual([
      "Exports",
      "None",
      "10 with the One Day Pass, 100 a month with Monthly Personal, 200 a month with the Commercial License",
    ]);
  });
});
