// What the headphone check offers when the output is mono: binaural beats need each ear to hear
// its own frequency, so folded to mono they vanish. Two replacements that survive any speaker:
// - isochronic pulses: Binaural Beat off, Isochronic Pulses on at the binaural beat, clamped to
//   the pulses' range (the catalogue's, 0.1-12 Hz) and rounded to their step;
// - monaural beats: Binaural Beat off, and a second channel at the first sounding channel's
//   frequency + the beat (the two tones beat against each other in the air, in either ear).
// The plans are pure (unit-tested); applying them goes through the studio store's actions only,
// so the studio shows the change at once and the audio client forwards it to the engine. The
// plan gate (web/account/hooks.ts) answers every store change, so what the listener is told is
// read back from the store afterwards: on a plan without the effect or the second channel, the
// change is undone at once and the message says so.

import { effectDef } from "../../dsp/host/model/catalogue";
import { MAX_FREQUENCY_HZ } from "../../dsp/host/model/limits";
import type { ChannelState, Waveform } from "../../dsp/host/schema/state";
import type { StoreApi } from "zustand/vanilla";
import type { StudioStore } from "../state/studio-store";
import { ISOCHRONIC_NOT_IN_PLAN, MONAURAL_NOT_IN_PLAN, switchedToIsochronic, switchedToMonaural } from "./messages";

const BINAURAL = effectDef("binaural")!;
const ISO = effectDef("isoPulses")!;

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const round2 = (v: number): number => Math.round(v * 100) / 100;

/** The beat the studio is set to (the Binaural Beat's value, on or off), within its range. */
export function currentBeat(effects: StudioStore["effects"]): number {
  const v = effects.binaural?.value;
  return Number.isFinite(v) ? clamp(v, BINAURAL.min, BINAURAL.max) : BINAURAL.default;
}

/** The isochronic pulse rate that stands in for `beat`. */
export function isochronicRate(beat: number): number {
  const v = clamp(Number.isFinite(beat) ? beat : ISO.default, ISO.min, ISO.max);
  // Round to the control's step, without the float tail (0.30000000000000004).
  return Number((Math.round(v / ISO.step) * ISO.step).toFixed(6));
}

export interface MonauralPlan {
  /** The channel whose frequency the beat is built on. */
  base: number;
  baseFrequency: number;
  /** The channel that takes base + beat. */
  target: number;
  frequency: number;
  waveform: Waveform;
}

/** Which channels make the monaural beat, or null when no channel sounds (switch one on first).
 *  The base is the first sounding channel; the partner is the first switched-off channel, or,
 *  with all four on, the one after the base. Near the top of the range the partner goes below. */
export function monauralPlan(channels: readonly ChannelState[], beat: number): MonauralPlan | null {
  const base = channels.find((c) => c.enabled && c.frequency > 0);
  if (!base) return null;
  const free = channels.find((c) => c.id !== base.id && !(c.enabled && c.frequency > 0));
  const target = free ?? channels[(channels.indexOf(base) + 1) % channels.length];
  const up = round2(base.frequency + beat);
  const frequency = up <= MAX_FREQUENCY_HZ ? up : round2(base.frequency - beat);
  return { base: base.id, baseFrequency: base.frequency, target: target.id, frequency, waveform: base.waveform };
}

/** Binaural off, isochronic pulses on at the beat. Returns the confirmation to show. */
export function applyIsochronic(store: StoreApi<StudioStore>): string {
  const s = store.getState();
  const rate = isochronicRate(currentBeat(s.effects));
  s.setEffect("binaural", { enabled: false });
  s.setEffect("isoPulses", { enabled: true, value: rate });
  return store.getState().effects.isoPulses?.enabled ? switchedToIsochronic(rate) : ISOCHRONIC_NOT_IN_PLAN;
}

/** Binaural off, a second channel at the first channel's frequency + the beat. Returns the
 *  confirmation to show. */
export function applyMonaural(store: StoreApi<StudioStore>): string {
  const beat = currentBeat(store.getState().effects);
  let plan = monauralPlan(store.getState().channels, beat);
  if (!plan) {
    // Nothing sounds: channel 1 comes back with its last typed frequency (or 432 Hz).
    store.getState().setChannelOn(1, true);
    plan = monauralPlan(store.getState().channels, beat)!;
  }
  const s = store.getState();
  s.setEffect("binaural", { enabled: false });
  const target = s.channels.find((c) => c.id === plan.target)!;
  if (!target.enabled) s.setChannelOn(plan.target, true);
  store.getState().setFrequency(plan.target, plan.frequency);
  store.getState().setWaveform(plan.target, plan.waveform);
  const now = store.getState().channels.find((c) => c.id === plan.target)!;
  return now.enabled && now.frequency === plan.frequency ? switchedToMonaural(plan, beat) : MONAURAL_NOT_IN_PLAN;
}
