// Bitcrusher: n bits give at most 2^n evenly spaced sample values, and each bit lowers the error by 6 dB.

import { describe, expect, it } from "vitest";
import { render, tone } from "./helpers";

describe("bitcrusher", () => {
  function levels(bits: number): { count: number; values: number[] } {
    const s = tone(440, "bitcrusher", { value: bits }, "sawtooth");
    const { left } = render(s, 0.5);
    const set = new Set<number>();
    for (let i = 4800; i < left.length; i++) set.add(left[i]);
    return { count: set.size, values: [...set].sort((a, b) => a - b) };
  }

  for (const bits of [1, 2, 3, 4, 6]) {
    it(`${bits} bit${bits > 1 ? "s" : ""}: at most ${2 ** bits} distinct sample values, and nearly all of them used`, () => {
      const { count, values } = levels(bits);
      expect(count).toBeLessThanOrEqual(2 ** bits);
      expect(count).toBeGreaterThanOrEqual(2 ** bits - 1 - (bits > 3 ? 2 : 0));
      // Evenly spaced levels (a uniform quantiser).
      const steps = values.slice(1).map((v, i) => v - values[i]);
      expect(Math.max(...steps) - Math.min(...steps)).toBeLessThan(1e-6);
    });
  }

  it("more bits, less quantisation noise: 6 dB per bit", () => {
    const dry = render(tone(440), 0.5).left;
    const err = (bits: number) => {
      const { left } = render(tone(440, "bitcrusher", { value: bits }), 0.5);
      let e = 0;
      for (let i = 4800; i < left.length; i++) e += (left[i] - dry[i]) ** 2;
      return 10 * Math.log10(e);
    };
    expect(err(6) - err(10)).toBeCloseTo(24, -0.5);
  });
});
