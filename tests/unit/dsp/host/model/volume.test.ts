// The mixer's volume: one conversion to the engine's gain, dB as the mixer shows it, mute and solo.
import { describe, expect, it } from "vitest";
import { MAX_CHANNEL_GAIN } from "../../../../../dsp/host/model/limits";
import {
  DEFAULT_VOLUME, anySoloed, clampVolume, legacyVolume, mixerFactor, volumeDb, volumeFromPercent, volumeGain, volumePercent,
} from "../../../../../dsp/host/model/volume";

describe("volume", () => {
  it("0.5, the default, is the nominal gain 1 and shows as 50 %", () => {
    expect(DEFAULT_VOLUME).toBe(0.5);
    expect(volumeGain(0.5)).toBe(1);
    expect(volumePercent(0.5)).toBe(50);
    expect(volumeDb(0.5)).toBe(0);
  });

  it("a percent typed or slid comes back as the same volume, clamped to 0..100 %", () => {
    for (const p of [0, 25, 50, 73, 100]) expect(volumePercent(volumeFromPercent(p))).toBe(p);
    expect(volumeFromPercent(150)).toBe(1);
    expect(volumeFromPercent(-5)).toBe(0);
  });

  it("is linear to the top: 1 is +6 dB, every step above 0.5 is louder than the one before", () => {
    expect(volumeGain(1)).toBe(MAX_CHANNEL_GAIN);
    expect(volumeDb(1)).toBeCloseTo(6.02, 2);
    for (let p = 51; p <= 100; p++) expect(volumeGain(p / 100)).toBeGreaterThan(volumeGain((p - 1) / 100));
  });

  it("50 % -> 25 % is -6 dB; 0 is silence", () => {
    expect(volumeDb(0.25) - volumeDb(0.5)).toBeCloseTo(-6.02, 2);
    expect(volumeGain(0)).toBe(0);
    expect(volumeDb(0)).toBe(-Infinity);
  });

  it("clamps out-of-range volumes; anything not a number is the default", () => {
    expect(clampVolume(2)).toBe(1);
    expect(clampVolume(-1)).toBe(0);
    expect(clampVolume(Number.NaN)).toBe(0.5);
    expect(clampVolume(undefined)).toBe(0.5);
    expect(volumeGain(7)).toBe(MAX_CHANNEL_GAIN);
  });

  it("an older preset's volume above 0.5 plays as 0.5 did (it was as loud)", () => {
    expect(legacyVolume(0.8)).toBe(0.5);
    expect(legacyVolume(1)).toBe(0.5);
    expect(legacyVolume(0.3)).toBe(0.3);
  });

  it("mute silences; solo silences every channel that is not soloed; a muted solo stays silent", () => {
    expect(mixerFactor({}, false)).toBe(1);
    expect(mixerFactor({ muted: true }, false)).toBe(0);
    expect(mixerFactor({}, true)).toBe(0);
    expect(mixerFactor({ solo: true }, true)).toBe(1);
    expect(mixerFactor({ solo: true, muted: true }, true)).toBe(0);
    expect(anySoloed([{}, { solo: true }])).toBe(true);
    expect(anySoloed([{}, { solo: false }])).toBe(false);
  });
});
