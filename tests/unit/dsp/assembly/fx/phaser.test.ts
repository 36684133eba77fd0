// Phaser: eight all-pass stages put notches where their phase reaches 180 degrees, swept by the LFO.

import { describe, expect, it } from "vitest";
import { FS, db } from "../helpers";
import { harmonics, transfer, wetAndDry } from "./helpers";

describe("phaser", () => {
  it("eight all-pass stages put notches where the phase reaches 180 degrees, and they move", () => {
    // 0.1 Hz: the break frequency is 250 Hz at the start and 250 * 2^3.5 Hz at 5 s.
    const secs = 5.1;
    const { wet, dry } = wetAndDry(60, "phaser", { value: 0.1 }, secs);
    const freqs = harmonics(60, 60, 8000);
    const size = 8192;
    const theory = (f: number, fb: number): number => {
      const phi = -16 * Math.atan(Math.tan((Math.PI * f) / FS) / Math.tan((Math.PI * fb) / FS));
      return Math.abs(Math.cos(phi / 2));
    };
    const deepest: number[] = [];
    for (const [at, fb] of [[2400, 250], [Math.round(5 * FS) - size / 2, 250 * 2 ** 3.5]] as const) {
      const h = transfer(wet, dry, at, size, freqs);
      let worst = 0;
      freqs.forEach((f, i) => {
        const t = theory(f, fb);
        if (t > 0.7) expect(db(h[i]), `${f} Hz near a peak (fb ${fb.toFixed(0)})`).toBeGreaterThan(db(t) - 2);
        if (t < 0.1) expect(db(h[i]), `${f} Hz in a notch (fb ${fb.toFixed(0)})`).toBeLessThan(-14);
        if (h[i] < h[worst]) worst = i;
      });
      deepest.push(freqs[worst]);
    }
    expect(deepest[0]).not.toBe(deepest[1]);
  });
});
