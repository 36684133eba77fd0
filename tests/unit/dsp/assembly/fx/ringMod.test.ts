// Ring Mod: a 30 Hz modulator puts sidebands at f ± 30 Hz; the value is the wet share.

import { describe, expect, it } from "vitest";
import { FS, db, magnitude, peakFrequency } from "../helpers";
import { rel, render, tone } from "./helpers";

describe("ringMod", () => {
  const size = 2 ** 16;
  it("at 100% leaves only the sidebands at f ± 30 Hz", () => {
    const { left } = render(tone(800, "ringMod", { value: 100 }), 1.6);
    const mag = magnitude(left, size, 4800, size);
    expect(Math.abs(rel(mag, 830, 770, size))).toBeLessThan(0.2);
    expect(rel(mag, 800, 830, size)).toBeLessThan(-60);
    expect(Math.abs(peakFrequency(left.subarray(4800, 4800 + size), FS, size) - 800) - 30).toBeLessThan(0.1);
  });

  it("at the default 65% keeps 35% of the carrier and 32.5% in each sideband", () => {
    const { left } = render(tone(800, "ringMod"), 1.6);
    const mag = magnitude(left, size, 4800, size);
    expect(Math.abs(rel(mag, 830, 800, size) - db(0.325 / 0.35))).toBeLessThan(0.05);
    expect(Math.abs(rel(mag, 770, 800, size) - db(0.325 / 0.35))).toBeLessThan(0.05);
  });
});
