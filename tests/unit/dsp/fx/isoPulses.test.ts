// Isochronic Pulses: the tone is gated on and off at the set rate (50 % duty) with smooth, click-free edges.

import { describe, expect, it } from "vitest";
import { maxStep } from "../helpers";
import { pulseStats, render, tone } from "./helpers";

describe("isoPulses", () => {
  it("isoPulses gates on and off at the set rate with smooth edges and no step beyond the tone's own", () => {
    const s = pulseStats("isoPulses", 6);
    expect(s.rate).toBeCloseTo(6, 1);
    expect(Math.min(...s.env) / s.hi).toBeLessThan(0.001);
    expect(s.on).toBeGreaterThan(0.47);
    expect(s.on).toBeLessThan(0.53);
    expect(s.rise).toBeGreaterThanOrEqual(12); // 25 ms raised-cosine edge: ~14 ms from 10% to 90%
    const own = maxStep(render(tone(1000), 1).left, 4800);
    expect(maxStep(s.left, 4800)).toBeLessThanOrEqual(own * 1.001);
  });
});
