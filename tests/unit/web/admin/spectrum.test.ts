// The developer panel's verify-audio measurement: the spectral peak of synthetic sines and of the
// engine's own 1 kHz render (the same tone the panel renders in the browser) lies within one bin
// of the true frequency, and a wrong pitch or silence fails.

import { describe, expect, it } from "vitest";
import { checkTone, spectrumPeak } from "../../../../web/admin/spectrum";
import { FS, engineWith, renderFrames, singleTone } from "../../dsp/assembly/helpers";

function sine(hz: number, n: number, amp = 0.5, fs = FS): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = amp * Math.sin((2 * Math.PI * hz * i) / fs + 0.3);
  return out;
}

describe("spectrumPeak", () => {
  it.each([1000, 997.3, 440, 12_345.6, 60])("finds %s Hz to well inside a bin", (hz) => {
    const peak = spectrumPeak(sine(hz, 20_000), FS);
    expect(peak.size).toBe(16_384);
    expect(peak.binHz).toBeCloseTo(FS / 16_384, 6);
    expect(Math.abs(peak.hz - hz)).toBeLessThan(peak.binHz / 4);
  });

  it.each([1000, 1000.7, 1001.46, 440])("reads the level of a %s Hz sine in dBFS, between bins too", (hz) => {
    expect(Math.abs(spectrumPeak(sine(hz, 16_384, 0.5), FS).levelDb + 6.02)).toBeLessThan(0.3);
  });

  it("refuses too short a signal", () => {
    expect(() => spectrumPeak(new Float32Array(100), FS)).toThrow();
  });
});

describe("checkTone", () => {
  it("passes 1 kHz, fails 1010 Hz and silence", () => {
    expect(checkTone(sine(1000, 20_000), FS, 1000).pass).toBe(true);
    const off = checkTone(sine(1010, 20_000), FS, 1000);
    expect(off.pass).toBe(false);
    expect(off.measuredHz).toBeCloseTo(1010, 0);
    expect(checkTone(new Float32Array(20_000), FS, 1000).pass).toBe(false);
  });

  it("the engine's 1 kHz sine (what the panel renders) passes", () => {
    const engine = engineWith(singleTone(1000));
    expect(engine.start({ delay: 0.05, duration: 0.5 })).toBe(true);
    const { left } = renderFrames(engine, Math.round(0.6 * FS), 128);
    const result = checkTone(left.subarray(Math.round(0.08 * FS), Math.round(0.52 * FS)), FS, 1000);
    expect(result.pass).toBe(true);
    expect(Math.abs(result.measuredHz - 1000)).toBeLessThan(0.5);
    expect(result.levelDb).toBeGreaterThan(-40);
  });
});
