// Harmonic Exciter: adds the 2nd and 3rd harmonics of the high band, scaled by the value, nothing higher.

import { describe, expect, it } from "vitest";
import { magnitude } from "../helpers";
import { rel, render, tone } from "./helpers";

describe("harmonicExciter", () => {
  const size = 32768;
  it("adds the 2nd and 3rd harmonics of the high band, scaled by the value, nothing higher", () => {
    const at = (value: number, f: number) => {
      const { left } = render(tone(f, "harmonicExciter", { value }), 1);
      return magnitude(left, size, 9600, size);
    };
    const full = at(100, 1000), half = at(50, 1000), off = at(0, 1000);
    expect(rel(full, 2000, 1000, size)).toBeGreaterThan(-18);
    expect(rel(full, 2000, 1000, size)).toBeLessThan(-13);
    expect(rel(full, 3000, 1000, size)).toBeGreaterThan(-21);
    expect(rel(full, 3000, 1000, size)).toBeLessThan(-16);
    expect(rel(full, 4000, 1000, size)).toBeLessThan(-45);
    expect(rel(full, 5000, 1000, size)).toBeLessThan(-45);
    expect(rel(full, 2000, 1000, size) - rel(half, 2000, 1000, size)).toBeCloseTo(6.02, 0);
    expect(rel(off, 2000, 1000, size)).toBeLessThan(-100);
    // A low tone sits below the band: far less excitation.
    const low = at(100, 200);
    expect(rel(low, 400, 200, size)).toBeLessThan(rel(full, 2000, 1000, size) - 15);
  });
});
