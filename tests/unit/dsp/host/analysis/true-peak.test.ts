// True-peak meter per ITU-R BS.1770-4 annex 2 (dsp/host/analysis/loudness.ts TruePeakMeter), on signals
// whose true peak is known: the classic inter-sample peak (a sine at fs/4 sampled at 45 degrees:
// every sample at 0.707 of the peak, so the sample peak reads 3 dB low), a sine sampled densely
// (true peak = sample peak), the annex's filter table (two mirrored pairs of phases, each summing
// to about 1), and streaming in chunks.
import { describe, expect, it } from "vitest";
import { TRUE_PEAK_PHASES, TruePeakMeter } from "../../../../../dsp/host/analysis/loudness";

const FS = 48000;
const sine = (n: number, hz: number, phase: number, amp: number) => Float64Array.from({ length: n }, (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / FS + phase));

describe("true peak (BS.1770-4 annex 2)", () => {
  it("reads a sine at fs/4 sampled at 45 degrees about 3 dB over its sample peak", () => {
    const x = sine(4800, FS / 4, Math.PI / 4, 0.5);
    const m = new TruePeakMeter(1);
    m.push(x);
    const samplePeakDb = 20 * Math.log10(m.samplePeak());
    expect(samplePeakDb).toBeCloseTo(-6.02 - 3.01, 2);
    // The 4x points fall 1/8 of a sample off the crest (sin 78.75 degrees = 0.981: +2.84 dB).
    expect(m.truePeakDb() - samplePeakDb).toBeGreaterThan(2.6);
    expect(m.truePeakDb() - samplePeakDb).toBeLessThan(3.1);
    expect(m.truePeakDb()).toBeLessThan(-6.02 + 0.1); // never above the real peak (-6.02 dB)
  });

  it("reads a densely sampled 997 Hz sine at its amplitude, in either channel", () => {
    const m = new TruePeakMeter(2);
    m.push(new Float64Array(9600), sine(9600, 997, 0.3, 0.25));
    expect(m.truePeakDb()).toBeCloseTo(-12.04, 1);
    expect(new TruePeakMeter(2).truePeakDb()).toBe(Number.NEGATIVE_INFINITY);
  });

  it("uses the annex's table: phases 0/3 and 1/2 mirrored, each phase summing to about 1", () => {
    expect(TRUE_PEAK_PHASES).toHaveLength(4);
    expect([...TRUE_PEAK_PHASES[3]].reverse()).toEqual(TRUE_PEAK_PHASES[0]);
    expect([...TRUE_PEAK_PHASES[2]].reverse()).toEqual(TRUE_PEAK_PHASES[1]);
    for (const taps of TRUE_PEAK_PHASES) expect(Math.abs(taps.reduce((s, v) => s + v, 0) - 1)).toBeLessThan(0.03);
    expect(TRUE_PEAK_PHASES[0][6]).toBe(0.97216796875);
  });

  it("gives the same reading whatever the chunk size", () => {
    const x = sine(12000, 11025, 0.7, 0.9);
    const y = sine(12000, 15000, 0.1, 0.6);
    const whole = new TruePeakMeter(2);
    whole.push(x, y);
    const chunked = new TruePeakMeter(2);
    for (let i = 0; i < x.length; i += 777) chunked.push(x.subarray(i, i + 777), y.subarray(i, i + 777));
    expect(chunked.truePeak()).toBe(whole.truePeak());
    expect(() => whole.push(x)).toThrow("Expected 2 channels");
  });
});
