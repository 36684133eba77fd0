// Granular: re-played grains spread the spectrum by about 1 / (2 x grain size), deterministically, at the input's level.

import { describe, expect, it } from "vitest";
import { FS, db, magnitude, rms, sameBits, singleTone } from "../helpers";
import { render, tone } from "./helpers";

describe("granular", () => {
  it("grain size sets the spectral spread (about 1 / (2 x size)), deterministically", () => {
    const bandwidth = (ms: number): number => {
      const { left } = render(tone(1000, "granular", { value: ms }), 2.5);
      const size = 65536;
      const m = magnitude(left, size, 24000, size);
      const bin = FS / size;
      let p = 0, s2 = 0;
      for (let k = Math.round(600 / bin); k < Math.round(1400 / bin); k++) {
        const f = k * bin - 1000;
        p += m[k] ** 2;
        s2 += f * f * m[k] ** 2;
      }
      return Math.sqrt(s2 / p);
    };
    const b10 = bandwidth(10), b40 = bandwidth(40);
    expect(b10).toBeGreaterThan(50 * 0.7);
    expect(b10).toBeLessThan(50 * 1.4);
    expect(b40).toBeGreaterThan(12.5 * 0.7);
    expect(b40).toBeLessThan(12.5 * 1.4);
    const a = render(tone(1000, "granular", { value: 80 }), 0.5);
    const b = render(tone(1000, "granular", { value: 80 }), 0.5);
    expect(sameBits(a.left, b.left)).toBe(true);
  });

  it("keeps the input's level", () => {
    const wet = render(tone(440, "granular", { value: 80 }), 2).left;
    const dry = render(singleTone(440), 2).left;
    expect(Math.abs(db(rms(wet, 24000) / rms(dry, 24000)))).toBeLessThan(2);
  });
});
