// Isochronic Pulses: the tone is gated on and off at the set rate (50 % duty) with smooth, click-free edges.

import { describe, expect, it } from "vitest";
import { expectPulses } from "./helpers";

describe("isoPulses", () => {
  it("isoPulses gates on and off at the set rate with smooth edges and no step beyond the tone's own", () => {
    const rise = expectPulses("isoPulses", 6);
    expect(rise).toBeGreaterThanOrEqual(12); // 25 ms raised-cosine edge: ~14 ms from 10% to 90%
  });
});
