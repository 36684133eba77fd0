// SBaGen's user envelopes as the voices' envelope tables (dsp/host/model/voices.ts `envelope`:
// 2 to 256 levels 0..1 over one beat or pulse cycle, read with linear interpolation):
//
// - `waveNN: <samples>` (SBaGen 1.4, SBaGenX): any numbers over one cycle, smoothed by SBaGenX's
//   tapered sinc (waveEnvelope below: wider than the samples' own band, so it ripples at the
//   samples' rate) and rescaled to 0..1. As SBaGenX does, it is the amplitude envelope of the binaural tone at its beat (`wave00:200+4/50`),
//   the carriers staying at carrier +- beat/2.
// - `customNN: [e=0..3] <samples>` (SBaGenX): non-negative levels scaled by their largest only (0
//   stays silence), joined around the cycle hard (e=0), linearly (e=1, the default), by smoothstep
//   (e=2) or smootherstep (e=3); the envelope of a binaural tone at its beat, or of an isochronic
//   tone at its pulse (replacing SBaGen+'s gate).
//
// - `spinNN: [e=0..3] samples` (SBaGenX): a spin's swing over one turn, signed levels scaled by the
//   largest magnitude, joined as customNN's (for spin, bspin, wspin).
// - `noiseNN: 32 dB values` (SBaGenX): a noise spectrum (dsp/host/model/noise-spectrum.ts).
//
// Linear customNN envelopes are kept as their own points (so the writer gives the same line back);
// the others are drawn at ENVELOPE_POINTS points.

import { ENVELOPE_MAX_POINTS, SPECTRUM_BANDS, SPECTRUM_DB_LIMIT } from "../model/voices";

export const ENVELOPE_POINTS = ENVELOPE_MAX_POINTS;
const r4 = (v: number) => Math.round(v * 10000) / 10000;

/** A waveNN definition's envelope, or an error text. */
export function waveEnvelope(samples: number[]): number[] | string {
  if (samples.length < 2) return "a waveform needs at least two samples";
  const n = samples.length;
  const sLo = Math.min(...samples), sHi = Math.max(...samples);
  if (!(sHi - sLo > 0)) return "a waveform whose samples are all equal has no shape";
  // SBaGenX's curve, measured against its renders: the samples, first mapped onto 0..1, are each
  // spread by a tapered sinc, (1 - 4t^2) sin(2 pi n t) / (2 pi n t) for t in -1/2..1/2 of a cycle.
  // That sinc is twice as wide in frequency as the samples allow, so the curve is not the plain
  // interpolation through them: its ripple at n times the beat puts audio-rate sidebands around
  // the carriers (30 samples at a 5 Hz beat: +-150 Hz), which SBaGenX plays and so does the studio.
  const kernel = (t: number) => {
    const x = 2 * Math.PI * n * t;
    return x === 0 ? 1 : ((1 - 4 * t * t) * Math.sin(x)) / x;
  };
  const out: number[] = [];
  for (let p = 0; p < ENVELOPE_POINTS; p++) {
    let v = 0;
    for (let j = 0; j < n; j++) {
      let t = p / ENVELOPE_POINTS - j / n;
      t -= Math.round(t); // -1/2..1/2: the kernel is periodic over the cycle
      v += ((samples[j] - sLo) / (sHi - sLo)) * kernel(t);
    }
    out.push(v);
  }
  // Rescaled to 0..1 from 0 or the curve's lowest point below it (a curve that stays above 0 keeps
  // its floor, as in SBaGenX).
  const lo = Math.min(0, ...out), hi = Math.max(0, ...out);
  return out.map((v) => r4((v - lo) / (hi - lo)));
}

/** A customNN definition's envelope, or an error text. */
export function customEnvelope(samples: number[], edge: number): number[] | string {
  if (samples.length < 2) return "an envelope needs at least two samples";
  if (samples.some((v) => v < 0)) return "envelope samples must not be negative";
  const hi = Math.max(...samples);
  if (!(hi > 0)) return "an envelope of zeros is silence";
  const levels = samples.map((v) => v / hi);
  if (edge === 1 && levels.length <= ENVELOPE_POINTS) return levels.map(r4);
  return drawn(levels, edge);
}

/** A spinNN definition's path: signed levels scaled by the largest magnitude, joined like customNN. */
export function spinPath(samples: number[], edge: number): number[] | string {
  if (samples.length < 2) return "a spin path needs at least two samples";
  const hi = Math.max(...samples.map(Math.abs));
  if (!(hi > 0)) return "a spin path of zeros does not move";
  const levels = samples.map((v) => v / hi);
  if (edge === 1 && levels.length <= ENVELOPE_POINTS) return levels.map(r4);
  return drawn(levels, edge);
}

/** A noiseNN definition's gains (dB, clamped to +-SPECTRUM_DB_LIMIT), or an error text. */
export function noiseSpectrum(samples: number[]): number[] | string {
  if (samples.length !== SPECTRUM_BANDS) return `a noise spectrum has ${SPECTRUM_BANDS} values (dB), not ${samples.length}`;
  return samples.map((v) => Math.min(SPECTRUM_DB_LIMIT, Math.max(-SPECTRUM_DB_LIMIT, v)));
}

function drawn(levels: number[], edge: number): number[] {
  const n = levels.length;
  const shape = (x: number) => (edge === 0 ? 0 : edge === 1 ? x : edge === 2 ? x * x * (3 - 2 * x) : x * x * x * (x * (x * 6 - 15) + 10));
  return Array.from({ length: ENVELOPE_POINTS }, (_, p) => {
    const t = (p / ENVELOPE_POINTS) * n;
    const j = Math.floor(t);
    const a = levels[j % n], b = levels[(j + 1) % n];
    return r4(a + (b - a) * shape(t - j));
  });
}

/** SBaGenX's pulse shape (its -I for isochronic tones): on for `duty` of the cycle from `start`,
 *  rising over `attack` and falling over `release` of that time with edge 0-3, as levels. */
export function pulseEnvelope(p: { start: number; duty: number; attack: number; release: number; edge: number }): number[] {
  const shape = (x: number) => (p.edge === 0 ? (x > 0 ? 1 : 0) : p.edge === 1 ? x : p.edge === 2 ? x * x * (3 - 2 * x) : x * x * x * (x * (x * 6 - 15) + 10));
  return Array.from({ length: ENVELOPE_POINTS }, (_, k) => {
    const q = (((k / ENVELOPE_POINTS - p.start) % 1) + 1) % 1;
    if (p.duty <= 0 || q >= p.duty) return 0;
    const u = q / p.duty;
    if (u < p.attack) return r4(shape(u / p.attack));
    if (u > 1 - p.release) return r4(shape((1 - u) / p.release));
    return 1;
  });
}

/** Reads a definition's words: [e=N] then numbers; null when a word is not a number. */
export function definitionSamples(rest: string): { edge: number; samples: number[] } | null {
  const words = rest.trim().split(/\s+/).filter(Boolean);
  let edge = 1;
  if (words[0] && /^e=\d$/.test(words[0])) edge = Math.min(3, Number(words.shift()!.slice(2)));
  const samples = words.map(Number);
  return samples.every(Number.isFinite) ? { edge, samples } : null;
}
