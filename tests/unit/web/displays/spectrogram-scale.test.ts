// The spectrogram's log-frequency axis and colour ramp (web/displays/spectrogram-scale.ts).

import { describe, expect, it } from "vitest";
import {
  AXIS_TICKS_HZ, MIN_DISPLAY_HZ, colourRamp, formatHz, levelAt, logFrequencyFraction, rampIndex, rowBins,
} from "../../../../web/displays/spectrogram-scale";

describe("spectrogram scale", () => {
  it("labels 50 Hz to 20k on a log axis from 20 Hz to Nyquist", () => {
    expect(AXIS_TICKS_HZ.map(formatHz)).toEqual(["50", "100", "200", "500", "1k", "2k", "5k", "10k", "20k"]);
    expect(logFrequencyFraction(MIN_DISPLAY_HZ, 24000)).toBe(0);
    expect(logFrequencyFraction(24000, 24000)).toBeCloseTo(1);
    // Octaves are evenly spaced.
    const octave = logFrequencyFraction(200, 24000) - logFrequencyFraction(100, 24000);
    expect(logFrequencyFraction(2000, 24000) - logFrequencyFraction(1000, 24000)).toBeCloseTo(octave);
  });

  it("maps canvas rows (top = Nyquist) to fractional FFT bins", () => {
    const rows = rowBins(200, 512, 24000);
    expect(rows[0]).toBeCloseTo(511); // clamped to the last bin
    expect(rows[199]).toBeCloseTo(20 / (24000 / 512)); // 20 Hz at the bottom
    for (let y = 1; y < rows.length; y++) expect(rows[y]).toBeLessThanOrEqual(rows[y - 1]);
    // 1 kHz sits where its axis label is.
    const y1k = Math.round((1 - logFrequencyFraction(1000, 24000)) * 199);
    expect(rows[y1k] * (24000 / 512)).toBeGreaterThan(950);
    expect(rows[y1k] * (24000 / 512)).toBeLessThan(1050);
  });

  it("interpolates between bins", () => {
    const bins = new Float32Array([-90, -30, -60]);
    expect(levelAt(bins, 1)).toBe(-30);
    expect(levelAt(bins, 1.5)).toBe(-45);
    expect(levelAt(bins, 2)).toBe(-60);
  });

  it("colours -90 dB and below dark, -10 dB and above bright", () => {
    const ramp = colourRamp();
    expect(ramp.length).toBe(256);
    expect(rampIndex(-120, -90, -10)).toBe(0);
    expect(rampIndex(-Infinity, -90, -10)).toBe(0);
    expect(rampIndex(Number.NaN, -90, -10)).toBe(0);
    expect(rampIndex(-50, -90, -10)).toBe(128);
    expect(rampIndex(0, -90, -10)).toBe(255);
    const brightness = (c: number) => ((c >> 16) & 255) + ((c >> 8) & 255) + (c & 255);
    for (let i = 1; i < 256; i++) expect(brightness(ramp[i])).toBeGreaterThanOrEqual(brightness(ramp[i - 1]) - 2);
  });
});
