// The logo's random sound (web/presets/random-sound.ts) with seeded sources: 1 to 4 distinct
// effects on and the rest off, every channel on at a base frequency of the spec's list with at
// most ±50 Hz of jitter (20-20000 Hz, 2 decimals), waveforms from the four, reproducible per seed,
// and always a state the shared preset schema accepts unchanged.

import { describe, expect, it } from "vitest";
import { EFFECTS } from "../../../../dsp/host/model/catalogue";
import { PRESET_VERSION, parsePreset } from "../../../../dsp/host/schema/preset";
import { WAVEFORMS } from "../../../../dsp/host/schema/state";
import {
  RANDOM_BASE_FREQUENCIES, RANDOM_JITTER_HZ, randomEffectValue, randomSound, seededRandom,
} from "../../../../web/presets/random-sound";

const SEEDS = Array.from({ length: 400 }, (_, i) => i * 7919 + 1);
const enabledIds = (s: ReturnType<typeof randomSound>) => Object.keys(s.effects).filter((id) => s.effects[id].enabled);

describe("random sound", () => {
  it("the spec's base frequencies (section 4)", () => {
    expect(RANDOM_BASE_FREQUENCIES).toEqual([40, 60, 110, 174, 285, 396, 417, 432, 528, 639, 741, 852, 963]);
    expect(RANDOM_JITTER_HZ).toBe(50);
  });

  it("is reproducible for a seed and differs between seeds", () => {
    expect(randomSound(seededRandom(42))).toEqual(randomSound(seededRandom(42)));
    expect(randomSound(seededRandom(42))).not.toEqual(randomSound(seededRandom(43)));
  });

  it("seed 7 gives this exact sound", () => {
    const s = randomSound(seededRandom(7));
    expect(s.channels.map((c) => [c.frequency, c.waveform])).toEqual([[20, "triangle"], [641.14, "square"], [390.99, "sawtooth"], [614.78, "sine"]]);
    expect(Object.fromEntries(enabledIds(s).map((id) => [id, s.effects[id].value]))).toEqual({ darkAmbientGranulator: 74, flanger: 4, frequencyShifter: -126, tremolo: 10.4 });
  });

  it("switches on 1 to 4 distinct catalogue effects, every count occurs, the rest stay off at defaults", () => {
    const counts = new Set<number>();
    for (const seed of SEEDS) {
      const s = randomSound(seededRandom(seed));
      expect(Object.keys(s.effects).sort()).toEqual(EFFECTS.map((d) => d.id).sort());
      const on = enabledIds(s);
      expect(on.length).toBeGreaterThanOrEqual(1);
      expect(on.length).toBeLessThanOrEqual(4);
      counts.add(on.length);
      for (const def of EFFECTS) {
        const fx = s.effects[def.id];
        if (!fx.enabled) {
          expect(fx.value).toBe(def.default);
          continue;
        }
        const span = def.max - def.min;
        expect(fx.value).toBeGreaterThanOrEqual(def.min + span / 4 - def.step);
        expect(fx.value).toBeLessThanOrEqual(def.max - span / 4 + def.step);
        const steps = (fx.value - def.min) / def.step;
        expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6);
      }
    }
    expect([...counts].sort()).toEqual([1, 2, 3, 4]);
  });

  it("channels: all on, base ± 50 Hz clamped to 20-20000, 2 decimals, every waveform occurs", () => {
    const waves = new Set<string>();
    for (const seed of SEEDS) {
      const s = randomSound(seededRandom(seed));
      expect(s.channels.map((c) => c.id)).toEqual([1, 2, 3, 4]);
      for (const c of s.channels) {
        expect(c.enabled).toBe(true);
        expect(c.volume).toBe(0.5);
        expect(WAVEFORMS).toContain(c.waveform);
        waves.add(c.waveform);
        expect(c.frequency).toBeGreaterThanOrEqual(20);
        expect(c.frequency).toBeLessThanOrEqual(20000);
        expect(Math.round(c.frequency * 100) / 100).toBe(c.frequency);
        const near = RANDOM_BASE_FREQUENCIES.some((b) => Math.abs(c.frequency - b) <= RANDOM_JITTER_HZ + 1e-9 || (c.frequency === 20 && b - RANDOM_JITTER_HZ < 20));
        expect(near, `${c.frequency} Hz`).toBe(true);
      }
    }
    expect([...waves].sort()).toEqual([...WAVEFORMS].sort());
  });

  it("edge sources (always 0, always just below 1, exactly 1) still give valid sounds", () => {
    const low = randomSound(() => 0);
    expect(low.channels.map((c) => [c.frequency, c.waveform])).toEqual(Array(4).fill([20, "sine"]));
    expect(enabledIds(low)).toEqual([EFFECTS[0].id]);
    const high = randomSound(() => 0.9999999);
    expect(high.channels.every((c) => c.frequency === 1013 && c.waveform === "triangle")).toBe(true);
    expect(enabledIds(high)).toHaveLength(4);
    expect(enabledIds(randomSound(() => 1))).toHaveLength(4);
  });

  it("is a preset the shared schema accepts unchanged", () => {
    for (const seed of SEEDS.slice(0, 100)) {
      const s = { ...randomSound(seededRandom(seed)), duration: 300 };
      const parsed = parsePreset(s);
      expect(parsed.ok && parsed.state).toEqual({ ...s, version: PRESET_VERSION });
    }
  });

  it("effect values sit on the step in the middle half of the range", () => {
    expect(randomEffectValue({ min: 0, max: 100, step: 1 }, () => 0)).toBe(25);
    expect(randomEffectValue({ min: 0, max: 100, step: 1 }, () => 0.5)).toBe(50);
    expect(randomEffectValue({ min: 0.05, max: 2, step: 0.05 }, () => 0.999)).toBe(1.5);
    expect(randomEffectValue({ min: -500, max: 500, step: 1 }, () => 1)).toBe(250);
  });
});
