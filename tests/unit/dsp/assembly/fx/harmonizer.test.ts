// Harmonizer: adds harmonics 2-5 at (value/100) x 0.2/n of the fundamental, none above them or past 0.45 fs.

import { describe, expect, it } from "vitest";
import { db, magnitude } from "../helpers";
import { rel, render, tone } from "./helpers";

describe("harmonizer", () => {
  const size = 2 ** 16;
  for (const value of [100, 50]) {
    it(`adds harmonics 2-5 at ${value / 100} x 0.2/n of the fundamental (within 1 dB)`, () => {
      const { left } = render(tone(220, "harmonizer", { value }), 1.6);
      const mag = magnitude(left, size, 4800, size);
      for (let n = 2; n <= 5; n++) {
        expect(Math.abs(rel(mag, 220 * n, 220, size) - db(((value / 100) * 0.2) / n)), `harmonic ${n}`).toBeLessThan(0.1);
      }
      expect(rel(mag, 220 * 6, 220, size)).toBeLessThan(-80);
    });
  }

  it("drops harmonics that would pass 0.45 fs", () => {
    const { left } = render(tone(5000, "harmonizer", { value: 100 }), 0.5);
    const mag = magnitude(left, 16384, 4800, 16384);
    expect(Math.abs(rel(mag, 20000, 5000, 16384) - db(0.2 / 4))).toBeLessThan(0.1);
    expect(rel(mag, 48000 - 25000, 5000, 16384)).toBeLessThan(-80); // the 5th would alias to 23 kHz
  });
});
