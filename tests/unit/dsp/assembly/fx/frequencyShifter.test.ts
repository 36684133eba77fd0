// Frequency Shifter: every partial moves by the set number of hertz (single sideband, image 40 dB down).

import { describe, expect, it } from "vitest";
import { FS, magnitude, peakFrequency } from "../helpers";
import { rel, render, tone } from "./helpers";

describe("frequencyShifter", () => {
  const size = 2 ** 16;
  for (const [f, shift] of [[1000, 50], [1000, -200], [5000, 500], [300, 123]] as const) {
    it(`moves a ${f} Hz sine to ${f + shift} Hz, the image at ${f - shift} Hz at least 40 dB down`, () => {
      const { left, right } = render(tone(f, "frequencyShifter", { value: shift }), 1.6);
      for (const x of [left, right]) {
        expect(Math.abs(peakFrequency(x.subarray(9600, 9600 + size), FS, size) - (f + shift))).toBeLessThan(0.05);
        const mag = magnitude(x, size, 9600, size);
        expect(rel(mag, f - shift, f + shift, size)).toBeLessThan(-40);
        expect(rel(mag, f, f + shift, size)).toBeLessThan(-40);
      }
    });
  }
});
