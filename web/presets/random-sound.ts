// The logo's random sound (spec/studio.md section 4): every channel gets a base frequency from the
// spec's list with up to ±RANDOM_JITTER_HZ of jitter (clamped to 20-20000 Hz, 2 decimals) and a
// random waveform, and 1 to 4 distinct random effects are switched on (all others off). Pure: the
// random source is a parameter, so tests pass a seeded one and the studio passes Math.random.

import { EFFECTS, type EffectDef } from "../../dsp/host/model/catalogue";
import { MAX_FREQUENCY_HZ } from "../../dsp/host/model/limits";
import { WAVEFORMS, defaultEffect, type AudioState, type ChannelState, type EffectState } from "../../dsp/host/schema/state";

/** Uniform in [0, 1), like Math.random. */
export type RandomSource = () => number;

/** spec/studio.md section 4: "base frequencies drawn from 40, 60, 110, 174, ... 963". */
export const RANDOM_BASE_FREQUENCIES = [40, 60, 110, 174, 285, 396, 417, 432, 528, 639, 741, 852, 963] as const;
export const RANDOM_JITTER_HZ = 50;
export const RANDOM_MIN_HZ = 20;
export const RANDOM_MAX_HZ = MAX_FREQUENCY_HZ;
export const RANDOM_EFFECTS_MIN = 1;
export const RANDOM_EFFECTS_MAX = 4;

export type RandomSound = Pick<AudioState, "channels" | "effects">;

/** mulberry32: a small seeded generator for reproducible sounds (tests, demos). */
export function seededRandom(seed: number): RandomSource {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An index in 0..n-1, safe for a source that returns exactly 1 or a little outside [0, 1). */
function pick(random: RandomSource, n: number): number {
  return Math.min(n - 1, Math.max(0, Math.floor(random() * n)));
}

const decimals = (step: number): number => (String(step).split(".")[1] ?? "").length;

/** A value from the middle half of the effect's range, on its step: lively but not extreme. */
export function randomEffectValue(def: Pick<EffectDef, "min" | "max" | "step">, random: RandomSource): number {
  const span = def.max - def.min;
  const v = def.min + span / 4 + random() * (span / 2);
  const snapped = def.min + Math.round((v - def.min) / def.step) * def.step;
  return Number(Math.min(def.max, Math.max(def.min, snapped)).toFixed(decimals(def.step)));
}

function randomChannel(id: number, random: RandomSource): ChannelState {
  const base = RANDOM_BASE_FREQUENCIES[pick(random, RANDOM_BASE_FREQUENCIES.length)];
  const jitter = (random() * 2 - 1) * RANDOM_JITTER_HZ;
  const frequency = Math.round(Math.min(RANDOM_MAX_HZ, Math.max(RANDOM_MIN_HZ, base + jitter)) * 100) / 100;
  return { id, frequency, waveform: WAVEFORMS[pick(random, WAVEFORMS.length)], volume: 0.5, enabled: true };
}

export function randomSound(random: RandomSource): RandomSound {
  const channels = [1, 2, 3, 4].map((id) => randomChannel(id, random));
  const count = RANDOM_EFFECTS_MIN + pick(random, RANDOM_EFFECTS_MAX - RANDOM_EFFECTS_MIN + 1);
  // A partial Fisher-Yates shuffle: `count` distinct effects.
  const pool: EffectDef[] = [...EFFECTS];
  for (let i = 0; i < count; i++) {
    const j = i + pick(random, pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  const chosen = new Map(pool.slice(0, count).map((def) => [def.id, def]));
  const effects: Record<string, EffectState> = {};
  for (const def of EFFECTS) {
    effects[def.id] = chosen.has(def.id) ? { ...defaultEffect(def), enabled: true, value: randomEffectValue(def, random) } : defaultEffect(def);
  }
  return { channels, effects };
}
