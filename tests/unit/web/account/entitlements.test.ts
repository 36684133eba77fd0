// Client-side entitlements (display only), the subscription card's days-left text and the
// studio's role gating (spec/studio.md section 6).

import { describe, expect, it } from "vitest";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import type { Profile } from "../../../../web/account/api";
import { ANONYMOUS, daysLeftText, deriveEntitlements, planText, tierLabel } from "../../../../web/account/entitlements";
import { gatePatch, isChannelLocked, recordTrim, restoredTimeline, studioGate, unlockPatch } from "../../../../web/account/studio-gating";
import type { Timeline } from "../../../../dsp/host/schema/timeline";
import { createStudioStore } from "../../../../web/state/studio-store";

const NOW = Date.parse("2025-08-01T12:00:00Z");
const user = { id: "u1", email: "ann@b.test", fullName: null, isAdmin: false, is_super_admin: false, emailVerified: true, createdAt: "" };

function profile(p: Partial<Profile> = {}): Profile {
  return { user, isAdmin: false, subscription: null, hasTemporaryAccess: false, temporaryAccess: null, ...p };
}

describe("days left", () => {
  it.each([
    ["2025-08-01T11:00:00Z", "Expired"],
    ["2025-08-01T12:00:00Z", "Expired"],
    ["2025-08-01T12:00:01Z", "1 day left"],
    ["2025-08-02T12:00:00Z", "1 day left"],
    ["2025-08-02T12:00:01Z", "2 days left"],
    ["2025-08-31T00:00:00Z", "30 days left"],
  ])("%s -> %s", (end, want) => {
    expect(daysLeftText(end, NOW)).toBe(want);
  });

  it("no end date or a broken one shows no line", () => {
    expect(daysLeftText(null, NOW)).toBeNull();
    expect(daysLeftText("soon", NOW)).toBeNull();
  });

  it("plan name or 'Active'", () => {
    expect(planText({ planName: "Monthly Plan" })).toBe("Monthly Plan");
    expect(planText({ planName: "" })).toBe("Active");
    expect(planText(null)).toBe("Active");
  });
});

describe("entitlements from the profile", () => {
  it("anonymous without a user", () => {
    expect(deriveEntitlements(null)).toEqual(ANONYMOUS);
  });

  it("free user", () => {
    const e = deriveEntitlements(profile());
    expect(e).toMatchObject({ signedIn: true, isAdmin: false, hasUnlimitedAccess: false, maxDuration: 3600 });
    expect(tierLabel(e)).toBe("Free User (59 min max)");
  });

  it("active plan other than Admin Access counts as a subscription", () => {
    const e = deriveEntitlements(profile({ subscription: { isActive: true, planName: "Monthly Plan", endDate: null } }));
    expect(e).toMatchObject({ hasActiveSubscription: true, hasUnlimitedAccess: true, maxDuration: 3600 });
    expect(tierLabel(e)).toBe("Pro User (59 min max)");
  });

  it("'Admin Access' is no real subscription; an admin without override has no unlimited access", () => {
    const e = deriveEntitlements(
      profile({ isAdmin: true, subscription: { isActive: true, planName: "Admin Access", endDate: null } }),
    );
    expect(e).toMatchObject({ isAdmin: true, hasActiveSubscription: false, hasUnlimitedAccess: false, maxDuration: 3600 });
  });

  it("admin with override: unlimited and 12 hours", () => {
    const e = deriveEntitlements(profile({ isAdmin: true, adminOverride: true }));
    expect(e).toMatchObject({ adminOverride: true, hasUnlimitedAccess: true, maxDuration: 43200 });
  });

  it("admin from the user's is_super_admin flag; override ignored for non-admins", () => {
    expect(deriveEntitlements(profile({ user: { ...user, is_super_admin: true } })).isAdmin).toBe(true);
    expect(deriveEntitlements(profile({ adminOverride: true })).hasUnlimitedAccess).toBe(false);
  });

  it("temporary access (flag or active plan) is unlimited", () => {
    expect(deriveEntitlements(profile({ hasTemporaryAccess: true })).hasUnlimitedAccess).toBe(true);
    const e = deriveEntitlements(profile({ subscription: { isActive: true, planName: "Temporary Access", endDate: null } }));
    expect(e).toMatchObject({ hasTemporaryAccess: true, hasActiveSubscription: false, hasUnlimitedAccess: true });
  });

  it("the server's own answer wins over the derivation", () => {
    const e = deriveEntitlements(
      profile({ subscription: { isActive: true, planName: "Monthly Plan", endDate: null }, hasActiveSubscription: false, hasUnlimitedAccess: false }),
    );
    expect(e.hasUnlimitedAccess).toBe(false);
  });
});

describe("studio gating", () => {
  const free = studioGate("signed_in", deriveEntitlements(profile()));
  const pro = studioGate("signed_in", deriveEntitlements(profile({ hasActiveSubscription: true, hasUnlimitedAccess: true })));

  it("levels", () => {
    expect(studioGate("restoring", ANONYMOUS)).toMatchObject({ level: "pending", studioLocked: true });
    expect(studioGate("anonymous", ANONYMOUS)).toMatchObject({ level: "anonymous", studioLocked: true, label: null });
    expect(free).toMatchObject({ level: "free", studioLocked: false, freeChannels: 1, waveformLocked: true, effectsLocked: true, label: "Free User (59 min max)" });
    expect(pro).toMatchObject({ level: "full", freeChannels: 4, waveformLocked: false, effectsLocked: false, label: "Pro User (59 min max)" });
    expect([1, 2, 3, 4].map((id) => isChannelLocked(free, id))).toEqual([false, true, true, true]);
  });

  it("free: channels 2-4 forced to 0 Hz and off, sine only, effects off", () => {
    const state = { ...defaultAudioState(), maxDuration: 3600 };
    state.channels[0].waveform = "square";
    state.effects.ringMod = { ...state.effects.ringMod, enabled: true };
    const { patch, forced } = gatePatch(state, free);
    expect(forced).toEqual([2, 3, 4]);
    expect(patch?.channels?.map((c) => [c.frequency, c.enabled, c.waveform])).toEqual([
      [432, true, "sine"], [0, false, "sine"], [0, false, "sine"], [0, false, "sine"],
    ]);
    expect(Object.values(patch?.effects ?? {}).some((fx) => fx.enabled)).toBe(false);
    expect(gatePatch({ ...state, ...patch }, free).patch).toBeNull(); // idempotent
  });

  it("a timeline's steps cannot open what the plan locks, and the whole timeline comes back when it opens", () => {
    const timeline: Timeline = {
      steps: [
        { at: 10, ramp: "linear", channels: [{ id: 1, frequency: 200, waveform: "square" }, { id: 3, enabled: true, frequency: 300 }] },
        { at: 20, ramp: "hold", effects: { ringMod: { enabled: true, value: 40 }, tremolo: { value: 3 } } },
      ],
    };
    const state = { ...defaultAudioState(), maxDuration: 3600, timeline };
    const result = gatePatch(state, free);
    expect(result.patch?.timeline).toEqual({
      steps: [
        { at: 10, ramp: "linear", channels: [{ id: 1, frequency: 200, waveform: "sine" }] },
        { at: 20, ramp: "hold", effects: { ringMod: { enabled: false, value: 40 }, tremolo: { value: 3 } } },
      ],
    });
    expect(result.timelineBefore).toBe(timeline);
    expect(gatePatch({ ...state, ...result.patch }, free).patch).toBeNull(); // idempotent
    expect(gatePatch(state, pro).patch).toBeNull();
    const trim = recordTrim(null, result);
    expect(trim).toEqual({ before: timeline, after: result.patch?.timeline });
    expect(restoredTimeline(trim, result.patch?.timeline, free)).toBeNull(); // still locked
    expect(restoredTimeline(trim, result.patch?.timeline, pro)).toBe(timeline);
    expect(restoredTimeline(trim, { steps: [] }, pro)).toBeNull(); // edited since: left alone
  });

  it("anonymous: every channel and effect is Pro only, channel 1 included", () => {
    const anonymous = studioGate("anonymous", ANONYMOUS);
    expect(anonymous).toMatchObject({ freeChannels: 0, waveformLocked: true, effectsLocked: true });
    expect([1, 2, 3, 4].map((id) => isChannelLocked(anonymous, id))).toEqual([true, true, true, true]);
    const { patch, forced } = gatePatch({ ...defaultAudioState(), maxDuration: 3600 }, anonymous);
    expect(forced).toEqual([1, 2, 3, 4]);
    expect(patch?.channels?.every((c) => !c.enabled && c.frequency === 0)).toBe(true);
  });

  it("signing in brings back what the anonymous gate switched off: channel 1 for a free user", () => {
    const store = createStudioStore();
    const { patch, forced } = gatePatch(store.getState(), studioGate("anonymous", ANONYMOUS));
    store.setState(patch!);
    const unlock = unlockPatch(store.getState(), free, new Set(forced));
    expect(unlock?.channels?.map((c) => [c.frequency, c.enabled])).toEqual([[432, true], [0, false], [0, false], [0, false]]);
  });

  it("pending forces nothing; full access leaves the state alone", () => {
    const state = { ...defaultAudioState(), maxDuration: 3600 };
    expect(gatePatch(state, studioGate("restoring", ANONYMOUS)).patch).toBeNull();
    expect(gatePatch(state, pro).patch).toBeNull();
  });

  it("admins with unlimited access get 43200 s; others are clamped back to 3600 s", () => {
    const admin = studioGate("signed_in", deriveEntitlements(profile({ isAdmin: true, adminOverride: true })));
    expect(admin.label).toBe("Admin User (12 hours max)");
    const state = { ...defaultAudioState(), duration: 30, maxDuration: 3600 };
    expect(gatePatch(state, admin).patch).toEqual({ maxDuration: 43200 });
    expect(gatePatch({ ...state, duration: 40000, maxDuration: 43200 }, pro).patch).toEqual({ maxDuration: 3600, duration: 3600 });
  });

  it("channels forced off come back (last typed value or default) once the gate opens", () => {
    const store = createStudioStore();
    store.getState().setFrequency(2, 222);
    const { patch, forced } = gatePatch(store.getState(), free);
    store.setState(patch!);
    expect(store.getState().channels[1]).toMatchObject({ enabled: false, frequency: 0 });
    const unlock = unlockPatch(store.getState(), pro, new Set(forced));
    expect(unlock?.channels?.map((c) => [c.frequency, c.enabled])).toEqual([[432, true], [222, true], [639, true], [741, true]]);
    expect(unlockPatch(store.getState(), free, new Set(forced))).toBeNull();
  });
});
