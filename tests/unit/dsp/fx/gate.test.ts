// Gate: a hard rhythmic gate (edges of a few ms, 50 % duty) at the set rate, still without clicks.

import { describe, expect, it } from "vitest";
import { maxStep } from "../helpers";
import { pulseStats, render, tone } from "./helpers";

describe("gate", () => {
  it("gate chops hard (edges of a few ms) at the set rate, still without a step beyond the tone's own", () => {
    const s = pulseStats("gate", 4);
    expect(s.rate).toBeCloseTo(4, 1);
    expect(Math.min(...s.env) / s.hi).toBeLessThan(0.001);
    expect(s.on).toBeGreaterThan(0.47);
    expect(s.on).toBeLessThan(0.53);
    expect(s.rise).toBeLessThanOrEqual(3);
    const own = maxStep(render(tone(1000), 1).left, 4800);
    expect(maxStep(s.left, 4800)).toBeLessThanOrEqual(own * 1.001);
  });
});
