// Amplitude Mod: full-depth sine modulation at the set rate (silence at the troughs, sidebands at -6 dB).

import { describe, expect, it } from "vitest";
import { magnitude } from "../helpers";
import { envelope, envelopeRate, rel, render, tone } from "./helpers";

describe("amplitudeMod", () => {
  it("amplitudeMod goes from full level to silence at the set rate (sidebands at -6 dB)", () => {
    const { left } = render(tone(1000, "amplitudeMod", { value: 7.5 }), 3);
    const env = envelope(left, 48, 4800);
    expect(envelopeRate(env, 1000)).toBeCloseTo(7.5, 1);
    expect(Math.min(...env) / Math.max(...env)).toBeLessThan(0.01);
    const size = 2 ** 17;
    const mag = magnitude(left, size, 4800, size);
    expect(Math.abs(rel(mag, 1007.5, 1000, size) + 6.02)).toBeLessThan(0.1);
    expect(Math.abs(rel(mag, 992.5, 1000, size) + 6.02)).toBeLessThan(0.1);
  });
});
