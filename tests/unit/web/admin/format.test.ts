// Pure rules of the admin screens (spec/accounts.md sections 2, 4, 5, 8 and 9): dollars from cents,
// user-row plan and status, the Admin Access Control plans, validation, requests, success and
// support texts, and the time left of listed grants.

import { describe, expect, it } from "vitest";
import { ADMIN_TEXT } from "../../../../api/rules/admin";
import { DEFAULT_STATUS, NO_SUBSCRIPTION, dollars, planNameOf, shortDateTime, statusView } from "../../../../web/admin/format";
import {
  EMPTY_FORM, PLAN_OPTIONS, checkEmail, durationText, grantRequest, grantSuccessText, grantTimeLeft, isActiveGrant, supportText,
} from "../../../../web/admin/temp-access";

describe("dashboard format", () => {
  it.each([
    [0, "$0.00"],
    [444, "$4.44"],
    [2200, "$22.00"],
    [123456, "$1,234.56"],
    [5, "$0.05"],
    [Number.NaN, "$0.00"],
  ])("%s cents -> %s", (cents, text) => {
    expect(dollars(cents)).toBe(text);
  });

  it("a user without a subscription: 'No subscription', status 'inactive' (red, with a cross)", () => {
    expect(planNameOf(null)).toBe(NO_SUBSCRIPTION);
    expect(statusView(null)).toEqual({ text: DEFAULT_STATUS, active: false, symbol: "✗" });
    expect(DEFAULT_STATUS).toBe("inactive");
  });

  it("active is green with a tick; anything else is not active and reads as words", () => {
    expect(statusView({ planName: "Monthly Plan", status: "active" })).toEqual({ text: "active", active: true, symbol: "✓" });
    expect(statusView({ planName: "Monthly Plan", status: "past_due" })).toEqual({ text: "past due", active: false, symbol: "✗" });
    expect(statusView({ planName: "Monthly Plan", status: "" }).text).toBe("inactive");
    expect(planNameOf({ planName: "Commercial License", status: "active" })).toBe("Commercial License");
  });

  it("dates in tables are UTC minutes", () => {
    expect(shortDateTime("2025-08-01T14:05:33.120Z")).toBe("2025-08-01 14:05 UTC");
    expect(shortDateTime(null)).toBe("");
    expect(shortDateTime("nonsense")).toBe("");
  });
});

describe("Admin Access Control rules", () => {
  it("offers the four plans with price and duration (commercial labelled Unlimited)", () => {
    expect(PLAN_OPTIONS).toEqual([
      { value: "daily", label: "One-Day Pass - $4.44 (24 hours)" },
      { value: "monthly", label: "Monthly Plan - $22.00 (30 days)" },
      { value: "commercial", label: "Commercial License - $191.00 (Unlimited)" },
      { value: "custom", label: "Custom (1-365 days)" },
    ]);
  });

  it("grant and revoke need a trimmed e-mail", () => {
    expect(checkEmail({ email: "   " })).toEqual({ ok: false, error: ADMIN_TEXT.emailRequired });
    expect(checkEmail({ email: " a@b.example " })).toEqual({ ok: true, value: "a@b.example" });
    expect(grantRequest({ ...EMPTY_FORM, email: "" })).toEqual({ ok: false, error: "Email address is required" });
  });

  it("sends the plan's hours and the default reason", () => {
    expect(grantRequest({ ...EMPTY_FORM, email: " u@x.example " })).toEqual({
      ok: true, value: { email: "u@x.example", planType: "daily", durationHours: 24, reason: "Admin granted access" },
    });
    expect(grantRequest({ ...EMPTY_FORM, email: "u@x.example", planType: "monthly", reason: "  refund case " })).toMatchObject({
      ok: true, value: { durationHours: 720, reason: "refund case" },
    });
    expect(grantRequest({ ...EMPTY_FORM, email: "u@x.example", planType: "commercial" })).toMatchObject({ ok: true, value: { durationHours: 8760 } });
  });

  it("a custom plan needs whole days from 1 to 365", () => {
    const custom = (days: string) => grantRequest({ ...EMPTY_FORM, email: "u@x.example", planType: "custom", days });
    expect(custom("7")).toMatchObject({ ok: true, value: { planType: "custom", durationHours: 168 } });
    expect(custom("365")).toMatchObject({ ok: true, value: { durationHours: 8760 } });
    for (const bad of ["", "0", "366", "2.5", "-1", "abc"]) {
      expect(custom(bad), bad).toEqual({ ok: false, error: ADMIN_TEXT.customDaysRequired });
    }
  });

  it("the grant toast names user, duration and plan on separate lines", () => {
    expect(grantSuccessText({ email: "u@x.example", accessType: "monthly", durationHours: 720 }).split("\n")).toEqual([
      "✓ Access granted!", "User: u@x.example", "Duration: 30 days", "Plan: Monthly Plan",
    ]);
    expect(grantSuccessText({ email: "u@x.example", accessType: "commercial", durationHours: 8760 })).toContain("Duration: Unlimited");
    expect(durationText("custom", 24)).toBe("1 day");
    expect(durationText("custom", 72)).toBe("3 days");
    expect(durationText("daily", 24)).toBe("24 hours");
  });

  it("the support text carries the e-mail, plan, duration, sign-in link and reason", () => {
    const text = supportText({ email: "u@x.example", planType: "daily", days: "", reason: "" }, "https://tones.example/");
    expect(text).toContain("Hi u@x.example,");
    expect(text).toContain("One-Day Pass (24 hours)");
    expect(text).toContain("https://tones.example/auth");
    expect(text).toContain("Reason: Admin granted access");
    expect(supportText(EMPTY_FORM, "https://t.example")).toContain("[customer email]");
  });

  it("time left counts down from the listed remainder; only active grants have one", () => {
    const g = { status: "active", timeRemaining: 3 * 86_400_000 + 5 * 3_600_000 };
    expect(grantTimeLeft(g, 0)).toBe("3d 5h");
    expect(grantTimeLeft(g, 5 * 3_600_000 + 60_000)).toBe("2d 23h");
    expect(grantTimeLeft({ status: "active", timeRemaining: 90 * 60_000 }, 0)).toBe("1h 30m");
    expect(grantTimeLeft({ status: "active", timeRemaining: 59 * 60_000 }, 0)).toBe("59m");
    expect(grantTimeLeft({ status: "active", timeRemaining: 1000 }, 2000)).toBe("Expired");
    expect(grantTimeLeft({ status: "revoked", timeRemaining: 0 }, 0)).toBeNull();
    expect(isActiveGrant({ status: "active", timeRemaining: 1000 }, 2000)).toBe(false);
    expect(isActiveGrant({ status: "expired", timeRemaining: 0 })).toBe(false);
    expect(isActiveGrant(g)).toBe(true);
  });
});
