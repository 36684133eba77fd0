// Acid Filter: a resonant low-pass swept at the set rate, boosting at its cutoff at the top of the sweep.

import { describe, expect, it } from "vitest";
import { FS, db } from "../helpers";
import { brightness, envelopeRate, render, tone, transfer, wetAndDry } from "./helpers";

describe("acidFilter", () => {
  it("sweeps a resonant low-pass at the set rate", () => {
    const { left } = render(tone(110, "acidFilter", { value: 4 }, "sawtooth"), 3);
    const frame = 512;
    const env = brightness(left.subarray(4800), frame, 1500);
    expect(envelopeRate(env, FS / frame, 1, 10)).toBeCloseTo(4, 0);
  });

  it("resonates at the top of the sweep (0.1 Hz: top at 5 s, 4.07 kHz)", () => {
    const secs = 5.1;
    const { wet, dry } = wetAndDry(110, "acidFilter", { value: 0.1 }, secs);
    const size = 4096;
    const at = Math.round(5 * FS) - size / 2;
    const fc = 180 * 2 ** 4.5;
    const near = Math.round(fc / 110) * 110;
    const [res, above, low] = transfer(wet, dry, at, size, [near, 2 * near, 440]);
    expect(db(res), "boost at the cutoff").toBeGreaterThan(6);
    expect(db(above), "an octave above the cutoff").toBeLessThan(-8);
    expect(Math.abs(db(low) - db(0.6)), "passband = output gain 0.6").toBeLessThan(1.5);
  });
});
