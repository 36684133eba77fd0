// Comb Filter: a feedback comb (0.7) with the set delay D: peaks every 1/D Hz, notches halfway between.

import { describe, expect, it } from "vitest";
import { db } from "../helpers";
import { combDelay, harmonics, transfer, wetAndDry } from "./helpers";

describe("combFilter", () => {
  for (const ms of [5, 2.5]) {
    it(`${ms} ms: peaks every ${1000 / ms} Hz with notches halfway, feedback 0.7`, () => {
      const { wet, dry } = wetAndDry(50, "combFilter", { value: ms }, 0.5);
      const freqs = harmonics(50, 50, 6000);
      const size = 16384;
      const h = transfer(wet, dry, 4800, size, freqs);
      const d = ms / 1000;
      expect(combDelay(freqs, h, 0.0005, 0.02) * 1000).toBeCloseTo(ms, 1);
      // Against the theory 0.714 / |1 - 0.7 e^(-j w D)|: peaks +7.5 dB, notches -7.5 dB.
      freqs.forEach((f, i) => {
        const th = 0.714 / Math.hypot(1 - 0.7 * Math.cos(2 * Math.PI * f * d), 0.7 * Math.sin(2 * Math.PI * f * d));
        expect(Math.abs(db(h[i]) - db(th)), `${f} Hz`).toBeLessThan(1.5);
      });
    });
  }
});
