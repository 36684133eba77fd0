// Tremolo: the level swings between 0.5 and 1 of the tone (depth 50 %) at the set rate.

import { describe, expect, it } from "vitest";
import { envelope, envelopeRate, render, tone } from "./helpers";

describe("tremolo", () => {
  it("tremolo swings the level between 0.5 and 1 at the set rate", () => {
    const { left } = render(tone(1000, "tremolo", { value: 4 }), 3);
    const env = envelope(left, 48, 4800); // 1 kHz: one period per 48 samples
    expect(envelopeRate(env, 1000)).toBeCloseTo(4, 1);
    const hi = Math.max(...env), lo = Math.min(...env);
    expect(lo / hi).toBeGreaterThan(0.48);
    expect(lo / hi).toBeLessThan(0.52);
  });
});
