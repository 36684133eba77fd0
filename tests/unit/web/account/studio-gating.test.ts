// The studio's gate during a free user's demo (spec/studio.md section 4, spec/accounts.md
// section 4): channels 1-2 and Amplitude Mod, Ring Mod and Chorus open with the '🎉 Demo' badge;
// when the demo ends channel 2 and those effects are switched off again; Pro ignores the demo.

import { describe, expect, it } from "vitest";
import { defaultAudioState } from "../../../../dsp/host/schema/state";
import { EFFECTS } from "../../../../dsp/host/model/catalogue";
import type { Profile } from "../../../../web/account/api";
import { deriveEntitlements } from "../../../../web/account/entitlements";
import {
  gatePatch, isChannelLocked, isDemoUnlocked, isEffectLocked, isProActionLocked, studioGate, unlockPatch,
} from "../../../../web/account/studio-gating";
import { createStudioStore } from "../../../../web/state/studio-store";

const user = { id: "u1", email: "ann@b.test", fullName: null, isAdmin: false, is_super_admin: false, emailVerified: true, createdAt: "" };
const profile = (p: Partial<Profile> = {}): Profile => ({
  user, isAdmin: false, subscription: null, hasTemporaryAccess: false, temporaryAccess: null, ...p,
});

const freeEnt = deriveEntitlements(profile());
const proEnt = deriveEntitlements(profile({ hasActiveSubscription: true, hasUnlimitedAccess: true }));
const DEMO_FX = ["amplitudeMod", "ringMod", "chorus"];

describe("gate with a running demo", () => {
  const demo = studioGate("signed_in", freeEnt, true);
  const free = studioGate("signed_in", freeEnt, false);

  it("level demo: channels 1-2 open, waveform still locked, only the three demo effects open", () => {
    expect(demo).toMatchObject({ level: "demo", freeChannels: 2, waveformLocked: true, effectsLocked: true, label: "Free User (59 min max)" });
    expect([1, 2, 3, 4].map((id) => isChannelLocked(demo, id))).toEqual([false, false, true, true]);
    const open = EFFECTS.filter((d) => !isEffectLocked(demo, d.id)).map((d) => d.id);
    expect(open.sort()).toEqual([...DEMO_FX].sort());
  });

  it("the badge marks channels 1-2 and the demo effects, only during the demo", () => {
    expect([1, 2, 3, 4].map((id) => isDemoUnlocked(demo, id))).toEqual([true, true, false, false]);
    expect(DEMO_FX.every((id) => isDemoUnlocked(demo, id))).toBe(true);
    expect(isDemoUnlocked(demo, "reverb")).toBe(false);
    expect(isDemoUnlocked(free, 1)).toBe(false);
    expect(isDemoUnlocked(free, "ringMod")).toBe(false);
  });

  it("WAV export and preset sharing stay locked during the demo (Pro only)", () => {
    expect(isProActionLocked(demo)).toBe(true);
    expect(isProActionLocked(free)).toBe(true);
    expect(isProActionLocked(studioGate("signed_in", proEnt, true))).toBe(false);
  });

  it("Pro, anonymous and pending visitors ignore the demo flag", () => {
    expect(studioGate("signed_in", proEnt, true)).toMatchObject({ level: "full", effectsLocked: false, demoEffects: [] });
    expect(studioGate("anonymous", deriveEntitlements(null), true).level).toBe("anonymous");
    expect(studioGate("restoring", deriveEntitlements(null), true).level).toBe("pending");
  });

  it("starting the demo brings back channel 2 only; demo effects stay as they were", () => {
    const store = createStudioStore();
    const first = gatePatch(store.getState(), free);
    store.setState(first.patch!);
    const unlock = unlockPatch(store.getState(), demo, new Set(first.forced));
    expect(unlock?.channels?.map((c) => [c.frequency, c.enabled])).toEqual([[432, true], [528, true], [0, false], [0, false]]);
  });

  it("during the demo the demo effects may play, others are switched off", () => {
    const state = { ...defaultAudioState(), maxDuration: 3600 };
    for (const id of [...DEMO_FX, "reverb"]) state.effects[id] = { ...state.effects[id], enabled: true };
    const { patch } = gatePatch(state, demo);
    const on = Object.entries(patch?.effects ?? {}).filter(([, fx]) => fx.enabled).map(([id]) => id);
    expect(on.sort()).toEqual([...DEMO_FX].sort());
  });

  it("when the demo ends, channel 2 and the demo effects are switched off", () => {
    const state = { ...defaultAudioState(), maxDuration: 3600 };
    state.channels = state.channels.map((c) => (c.id > 2 ? { ...c, enabled: false, frequency: 0 } : c));
    for (const id of DEMO_FX) state.effects[id] = { ...state.effects[id], enabled: true };
    expect(gatePatch(state, demo).patch).toBeNull(); // everything allowed while it runs
    const { patch, forced } = gatePatch(state, free);
    expect(forced).toEqual([2]);
    expect(patch?.channels?.map((c) => [c.frequency, c.enabled])).toEqual([[432, true], [0, false], [0, false], [0, false]]);
    expect(Object.values(patch?.effects ?? {}).some((fx) => fx.enabled)).toBe(false);
  });
});
