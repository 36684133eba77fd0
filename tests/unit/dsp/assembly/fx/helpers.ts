// Helpers for the per-effect tests in this folder: a channel with one effect switched on,
// rendered with the master compressor off and master gain 1 (so levels are linear and what is
// measured is the effect itself), and the measurements several effects share: envelopes and
// their rates, transfer functions, comb spacing, component levels.

import { expect } from "vitest";
import { effectDef } from "../../../../../dsp/host/model/catalogue";
import type { Engine } from "../../../../../dsp/host/engine";
import { defaultEffect, type AudioState, type Waveform } from "../../../../../dsp/host/schema/state";
import { FS, db, engineWith, levelAt, magnitude, maxStep, peak, peakFrequency, renderFrames, singleTone, type Stereo } from "../helpers";

/** Switches `id` on in `state` at its catalogue defaults, overridden by `patch`. */
export function withFx(state: AudioState, id: string, patch: Record<string, unknown> = {}): AudioState {
  const def = effectDef(id);
  if (!def) throw new Error(`no effect ${id} in the catalogue`);
  state.effects[id] = { ...defaultEffect(def), enabled: true, ...patch };
  return state;
}

/** One channel at `freq` (waveform `w`), plus `id` switched on with `patch` when given. */
export function tone(freq: number, id?: string, patch: Record<string, unknown> = {}, w: Waveform = "sine"): AudioState {
  const s = singleTone(freq, w);
  return id ? withFx(s, id, patch) : s;
}

/** Starts with the compressor off and master gain 1, renders `seconds`. */
export function render(state: AudioState, seconds: number): Stereo & { engine: Engine } {
  const engine = engineWith(state);
  engine.setCompressor(false);
  engine.setMaster(1);
  engine.start();
  return { ...renderFrames(engine, Math.round(seconds * FS)), engine };
}

/** Left channel of a sawtooth at `f0` (rich in harmonics) rendered with `id` on (wet) and off (dry). */
export function wetAndDry(f0: number, id: string, patch: Record<string, unknown>, seconds: number): { wet: Float32Array; dry: Float32Array } {
  return { wet: render(tone(f0, id, patch, "sawtooth"), seconds).left, dry: render(singleTone(f0, "sawtooth"), seconds).left };
}

/** Changes channel 1 of a running render to `freq` and renders `seconds` more (left). */
export function retune(r: { engine: Engine }, state: AudioState, freq: number, seconds: number): Float32Array {
  state.channels[0].frequency = freq;
  r.engine.apply(state);
  return renderFrames(r.engine, Math.round(seconds * FS)).left;
}

/** Renders `seconds`, switching channel 1 off after `burstSeconds` (the tail of a tone burst). */
export function burst(state: AudioState, burstSeconds: number, seconds: number): Stereo {
  const r = render(state, burstSeconds);
  state.channels[0].enabled = false;
  r.engine.apply(state);
  const b = renderFrames(r.engine, Math.round(seconds * FS) - r.left.length);
  const join = (x: Float32Array, y: Float32Array): Float32Array => {
    const out = new Float32Array(x.length + y.length);
    out.set(x);
    out.set(y, x.length);
    return out;
  };
  return { left: join(r.left, b.left), right: join(r.right, b.right) };
}

/** (left + right) / 2. */
export function mono(x: Stereo): Float32Array {
  return x.left.map((v, i) => 0.5 * (v + x.right[i]));
}

/** Peak |x| in consecutive windows of `win` samples (an amplitude envelope for a steady tone). */
export function envelope(x: Float32Array, win: number, from = 0): number[] {
  const out: number[] = [];
  for (let i = from; i + win <= x.length; i += win) out.push(peak(x.subarray(i, i + win)));
  return out;
}

/** Energy above `hz` in 512-point frames every `hop` samples (a brightness envelope). */
export function brightness(x: Float32Array, hop: number, hz: number): number[] {
  const out: number[] = [];
  const frame = 512;
  const k0 = Math.round((hz * frame) / FS);
  for (let o = 0; o + frame <= x.length; o += hop) {
    const m = magnitude(x, frame, o, frame);
    let e = 0;
    for (let k = k0; k < m.length; k++) e += m[k] * m[k];
    out.push(e);
  }
  return out;
}

/** Strongest periodicity (Hz, between lo and hi) of an envelope sampled `rate` times a second:
 *  mean removed, zero-padded FFT, parabolic peak. */
export function envelopeRate(env: number[], rate: number, lo = 0.05, hi = rate / 2): number {
  const mean = env.reduce((a, b) => a + b, 0) / env.length;
  return peakFrequency(env.map((v) => v - mean), rate, 2 ** 16, lo, hi);
}

/** Checks what every gating effect promises, on a 1 kHz tone gated at `rate`: the envelope (1 ms
 *  windows from 0.1 s) pulses at the rate, falls to silence, is on half the time, and the gate
 *  makes no step beyond the tone's own. Returns the longest 10 %-90 % rise in ms, where gates
 *  differ (soft or hard edges). */
export function expectPulses(id: string, rate: number): number {
  const { left } = render(tone(1000, id, { value: rate }), 3);
  const env = envelope(left, 48, 4800);
  const hi = Math.max(...env);
  const on = env.filter((v) => v > hi / 2).length / env.length;
  expect(envelopeRate(env, 1000)).toBeCloseTo(rate, 1);
  expect(Math.min(...env) / hi).toBeLessThan(0.001);
  expect(on).toBeGreaterThan(0.47);
  expect(on).toBeLessThan(0.53);
  const own = maxStep(render(tone(1000), 1).left, 4800);
  expect(maxStep(left, 4800)).toBeLessThanOrEqual(own * 1.001);
  let rise = 0;
  for (let i = 1; i < env.length; i++) {
    if (env[i - 1] < hi * 0.1 && env[i] >= hi * 0.1) {
      let k = i;
      while (k < env.length && env[k] < hi * 0.9) k++;
      rise = Math.max(rise, k - i + 1);
    }
  }
  return rise;
}

/** Level of the component at f: root of the power summed over the window's main lobe (+/- 4
 *  bins for Blackman-Harris), so it does not depend on where f falls between bins. */
export function lobe(mag: Float64Array, f: number, size: number): number {
  const k = Math.round((f * size) / FS);
  let p = 0;
  for (let i = Math.max(0, k - 4); i <= Math.min(mag.length - 1, k + 4); i++) p += mag[i] * mag[i];
  return Math.sqrt(p);
}

/** Level in dB of the component at f relative to the one at ref. */
export function rel(mag: Float64Array, f: number, ref: number, size: number): number {
  return db(lobe(mag, f, size) / lobe(mag, ref, size));
}

/** |wet / dry| at each frequency, from windowed spectra of x[offset .. offset + size). */
export function transfer(wet: Float32Array, dry: Float32Array, offset: number, size: number, freqs: number[]): number[] {
  const w = magnitude(wet, size, offset, size);
  const d = magnitude(dry, size, offset, size);
  const width = FS / size;
  return freqs.map((f) => levelAt(w, f, FS, size, width) / levelAt(d, f, FS, size, width));
}

/** The harmonics of f0 from lo to hi Hz. */
export function harmonics(f0: number, lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let f = f0 * Math.ceil(lo / f0); f <= hi; f += f0) out.push(f);
  return out;
}

/** The delay D (s) whose comb cos(2 pi f D) best matches the log transfer (a comb's period). */
export function combDelay(freqs: number[], gains: number[], lo: number, hi: number): number {
  const lg = gains.map((g) => db(g));
  const mean = lg.reduce((a, b) => a + b, 0) / lg.length;
  let best = lo;
  let bestScore = -Infinity;
  for (let d = lo; d <= hi; d += 0.000005) {
    let s = 0;
    for (let i = 0; i < freqs.length; i++) s += (lg[i] - mean) * Math.cos(2 * Math.PI * freqs[i] * d);
    if (s > bestScore) { bestScore = s; best = d; }
  }
  return best;
}
