// The report's spectrum estimator: the FFT against a direct DFT, and the peak estimate on clean
// tones (within 0.001 Hz at 65536 points) and between a loud and a quiet neighbour.

import { describe, expect, it } from "vitest";
import { fft, peakIn, spectrum } from "../../../../../dsp/host/analysis/spectrum";

const FS = 48000;
const sine = (n: number, f: number, amp = 0.1, phase = 0.3) => Float32Array.from({ length: n }, (_, i) => amp * Math.sin((2 * Math.PI * f * i) / FS + phase));

describe("spectrum", () => {
  it("fft matches a direct DFT", () => {
    const n = 64;
    const x = Array.from({ length: n }, (_, i) => Math.sin(i * 0.7) + 0.3 * Math.cos(i * 2.1) + (i % 5) * 0.1);
    const re = Float64Array.from(x);
    const im = new Float64Array(n);
    fft(re, im);
    for (let k = 0; k < n; k++) {
      let sr = 0, si = 0;
      for (let i = 0; i < n; i++) {
        sr += x[i] * Math.cos((2 * Math.PI * k * i) / n);
        si -= x[i] * Math.sin((2 * Math.PI * k * i) / n);
      }
      expect(re[k]).toBeCloseTo(sr, 9);
      expect(im[k]).toBeCloseTo(si, 9);
    }
    expect(() => fft(new Float64Array(12), new Float64Array(12))).toThrow("FFT size must be a power of two, not 12");
  });

  it("finds clean tones within 0.001 Hz and their amplitude within 0.01 dB", () => {
    for (const f of [31.7, 432.25, 1000, 5432.1, 19999]) {
      const p = peakIn(spectrum(sine(65536, f), FS), f - 5, f + 5)!;
      expect(Math.abs(p.frequency - f)).toBeLessThan(0.001);
      expect(Math.abs(20 * Math.log10(p.amplitude / 0.1))).toBeLessThan(0.01);
      expect(p.inside).toBe(true);
    }
  });

  it("keeps a quiet tone 60 dB under a loud one 12 Hz away on its own frequency", () => {
    const x = sine(65536, 1000, 0.5);
    const quiet = sine(65536, 1012.4, 0.0005, 1.1);
    for (let i = 0; i < x.length; i++) x[i] += quiet[i];
    const p = peakIn(spectrum(x, FS), 1008, 1016)!;
    expect(Math.abs(p.frequency - 1012.4)).toBeLessThan(0.01);
  });

  it("reports no peak inside a band that only holds the skirt of a tone", () => {
    const p = peakIn(spectrum(sine(8192, 1000), FS), 1010, 1040)!;
    expect(p.inside).toBe(false);
  });
});
