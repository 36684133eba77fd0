// Filter Envelope: a low-pass opens fast and closes slowly, once per cycle of the set rate.

import { describe, expect, it } from "vitest";
import { FS, db } from "../helpers";
import { brightness, envelopeRate, render, tone } from "./helpers";

describe("filterEnvelope", () => {
  it("opens and closes at the set rate, opening fast and closing slowly", () => {
    const rate = 2;
    const { left } = render(tone(110, "filterEnvelope", { value: rate }, "sawtooth"), 3);
    const frame = 480; // 10 ms
    const env = brightness(left, frame, 1500);
    expect(envelopeRate(env.slice(2), FS / frame, 0.5, 8)).toBeCloseTo(rate, 0);
    // Each cycle peaks early (attack over the first 10 %) and ends dark.
    const per = FS / rate / frame;
    for (let c = 1; c < 5; c++) {
      const cyc = env.slice(Math.round(c * per), Math.round((c + 1) * per));
      const top = cyc.indexOf(Math.max(...cyc)) / cyc.length;
      expect(top, `cycle ${c} peak position`).toBeGreaterThan(0.05);
      expect(top).toBeLessThan(0.25);
      expect(db(cyc[cyc.length - 2] / Math.max(...cyc)) / 2).toBeLessThan(-20);
    }
  });
});
