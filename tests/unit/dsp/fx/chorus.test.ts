// Chorus: three delay voices (14, 20, 26 ms at 0 % depth) spread across the stereo field; the value is the sweep depth.

import { describe, expect, it } from "vitest";
import { FS, db, magnitude, rms } from "../helpers";
import { render, tone } from "./helpers";

describe("chorus", () => {
  it("value is the depth: no spread at 0 %, spreading the spectrum more as it grows", () => {
    const spread = (depth: number): number => {
      const { left } = render(tone(1000, "chorus", { value: depth }), 2.2);
      const size = 65536;
      const m = magnitude(left, size, 9600, size);
      const bin = FS / size;
      let inside = 0, outside = 0;
      for (let k = Math.round(500 / bin); k < Math.round(1500 / bin); k++) {
        if (Math.abs(k * bin - 1000) < 6) inside += m[k] ** 2; else outside += m[k] ** 2;
      }
      return db(Math.sqrt(outside / inside));
    };
    const s0 = spread(0), s30 = spread(30), s100 = spread(100);
    expect(s0).toBeLessThan(-60);
    expect(s30).toBeGreaterThan(-40);
    expect(s100).toBeGreaterThan(s30 + 6);
  });

  it("spreads three voices across the stereo field", () => {
    const { left, right } = render(tone(440, "chorus", { value: 50 }), 1);
    let diff = 0;
    for (let i = 9600; i < left.length; i++) diff += (left[i] - right[i]) ** 2;
    expect(Math.sqrt(diff / (left.length - 9600)) / rms(left, 9600)).toBeGreaterThan(0.1);
  });
});
