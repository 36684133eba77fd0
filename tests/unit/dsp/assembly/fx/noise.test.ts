// Noise: white, pink and brown slopes, level value/100 x 0.15, decorrelated seeded ears, density and color.

import { describe, expect, it } from "vitest";
import { FS, db, magnitude, rms, sameBits } from "../helpers";
import { render, tone } from "./helpers";

/** Welch-averaged power spectrum of the left channel (tone muted: channel volume 0). */
function noiseSpectrum(patch: Record<string, unknown>, seconds = 6): Float64Array {
  const s = tone(1000, "noise", { value: 100, density: 100, ...patch });
  s.channels[0].volume = 0;
  const { left } = render(s, seconds);
  const size = 4096;
  const pow = new Float64Array(size / 2 + 1);
  let count = 0;
  for (let off = 0; off + size <= left.length; off += size / 2, count++) {
    const m = magnitude(left, size, off, size);
    for (let k = 0; k < pow.length; k++) pow[k] += m[k] * m[k];
  }
  return pow.map((p) => p / count);
}

/** Mean power in third-octave bands 100 Hz - 10 kHz, then a least-squares line in dB/octave. */
function slope(pow: Float64Array): { slope: number; worst: number } {
  const xs: number[] = [], ys: number[] = [];
  for (let oct = Math.log2(100); oct <= Math.log2(10000) + 1e-9; oct += 1 / 3) {
    const lo = Math.ceil((2 ** (oct - 1 / 6) * 4096) / FS), hi = Math.floor((2 ** (oct + 1 / 6) * 4096) / FS);
    let p = 0;
    for (let k = lo; k <= hi; k++) p += pow[k];
    xs.push(oct);
    ys.push(10 * Math.log10(p / (hi - lo + 1)));
  }
  const mx = xs.reduce((a, b) => a + b) / xs.length, my = ys.reduce((a, b) => a + b) / ys.length;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < xs.length; i++) { sxy += (xs[i] - mx) * (ys[i] - my); sxx += (xs[i] - mx) ** 2; }
  const b = sxy / sxx;
  const worst = Math.max(...xs.map((x, i) => Math.abs(ys[i] - (my + b * (x - mx)))));
  return { slope: b, worst };
}

describe("noise", () => {
  for (const [type, want] of [["white", 0], ["pink", -3.01], ["brown", -6.02]] as const) {
    it(`${type} noise falls ${-want} dB/octave (100 Hz - 10 kHz, within 1 dB)`, () => {
      const fit = slope(noiseSpectrum({ type }));
      expect(Math.abs(fit.slope - want)).toBeLessThan(0.3);
      expect(fit.worst).toBeLessThan(1);
    });
  }

  it("level is value/100 x 0.15 (white uniform noise: RMS 0.15/sqrt 3 at 100%), every type alike", () => {
    for (const type of ["white", "pink", "brown"]) {
      for (const value of [20, 100]) {
        const s = tone(1000, "noise", { value, type });
        s.channels[0].volume = 0;
        const { left, right } = render(s, 4);
        const want = ((value / 100) * 0.15) / Math.sqrt(3);
        expect(Math.abs(db(rms(left, 4800) / want)), `${type} ${value}`).toBeLessThan(0.75);
        expect(Math.abs(db(rms(right, 4800) / want)), `${type} ${value}`).toBeLessThan(0.75);
      }
    }
  });

  it("left and right are decorrelated and the render is deterministic", () => {
    const s = tone(1000, "noise", { value: 100 });
    s.channels[0].volume = 0;
    const a = render(s, 1), b = render(s, 1);
    expect(sameBits(a.left, b.left)).toBe(true);
    let xy = 0;
    for (let i = 0; i < a.left.length; i++) xy += a.left[i] * a.right[i];
    expect(Math.abs(xy / a.left.length) / (rms(a.left) * rms(a.right))).toBeLessThan(0.02);
  });

  it("density sets the impulse rate: 20/s at 0, 2000/s at 50, every sample at 100", () => {
    for (const [density, perSecond] of [[0, 20], [50, 2000], [100, FS]] as const) {
      const s = tone(1000, "noise", { value: 100, density });
      s.channels[0].volume = 0;
      const { left } = render(s, 2);
      const nonzero = left.subarray(4800).reduce((n, v) => n + (v !== 0 ? 1 : 0), 0) / ((left.length - 4800) / FS);
      expect(nonzero / perSecond, `density ${density}`).toBeGreaterThan(0.85);
      expect(nonzero / perSecond, `density ${density}`).toBeLessThan(1.15);
    }
  });

  it("color tilts the spectrum around 1 kHz: +100 lifts 10 kHz over 100 Hz by about 12 dB", () => {
    const flat = noiseSpectrum({ color: 0 }, 3), bright = noiseSpectrum({ color: 100 }, 3), dark = noiseSpectrum({ color: -100 }, 3);
    const band = (p: Float64Array, f: number) => {
      let s = 0;
      for (let k = Math.round((f * 0.8 * 4096) / FS); k <= Math.round((f * 1.25 * 4096) / FS); k++) s += p[k];
      return 10 * Math.log10(s);
    };
    const tilt = (p: Float64Array) => band(p, 10000) - band(p, 100) - (band(flat, 10000) - band(flat, 100));
    expect(tilt(bright)).toBeGreaterThan(10);
    expect(tilt(bright)).toBeLessThan(13);
    expect(tilt(dark)).toBeLessThan(-10);
    expect(tilt(dark)).toBeGreaterThan(-13);
  });
});
