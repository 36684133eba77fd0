// Flanger: a feedback (0.6) comb whose spacing follows a delay swept between 1 and 5 ms at the set rate.

import { describe, expect, it } from "vitest";
import { FS, db } from "../helpers";
import { combDelay, harmonics, transfer, wetAndDry } from "./helpers";

describe("flanger", () => {
  it("feedback comb whose spacing follows the swept delay (1 ms at the start, 5 ms at the top)", () => {
    const secs = 5.1;
    const { wet, dry } = wetAndDry(40, "flanger", { value: 0.1 }, secs);
    const freqs = harmonics(40, 40, 8000);
    const size = 8192;
    for (const [at, ms] of [[2400, 1], [Math.round(5 * FS) - size / 2, 5]] as const) {
      const h = transfer(wet, dry, at, size, freqs);
      expect(combDelay(freqs, h, 0.0005, 0.008) * 1000, `delay at ${at}`).toBeCloseTo(ms, 1);
      // Peaks (x1.75) and dips (x0.19) of (1 + z^-D / (1 - 0.6 z^-D)) / 2.
      const d = ms / 1000;
      const th = freqs.map((f) => {
        const re = Math.cos(2 * Math.PI * f * d), im = -Math.sin(2 * Math.PI * f * d);
        const den = { re: 1 - 0.6 * re, im: -0.6 * im };
        const q = den.re * den.re + den.im * den.im;
        const zr = (re * den.re + im * den.im) / q, zi = (im * den.re - re * den.im) / q;
        return Math.hypot(1 + zr, zi) / 2;
      });
      const big = freqs.map((_, i) => i).filter((i) => th[i] > 1.5);
      const small = freqs.map((_, i) => i).filter((i) => th[i] < 0.3);
      const avg = (ix: number[]): number => ix.reduce((s, i) => s + db(h[i]), 0) / ix.length;
      expect(avg(big) - avg(small), "peak-to-dip depth").toBeGreaterThan(12);
    }
  });

  it("sweeps at the set rate: at the default 0.5 Hz the delay is back at 1 ms after 2 s and at 5 ms after 3 s", () => {
    const { wet, dry } = wetAndDry(40, "flanger", {}, 3.1);
    const freqs = harmonics(40, 40, 8000);
    const size = 8192;
    for (const [t, ms] of [[2, 1], [3, 5]] as const) {
      const h = transfer(wet, dry, Math.round(t * FS) - size / 2, size, freqs);
      expect(combDelay(freqs, h, 0.0005, 0.008) * 1000, `delay at ${t} s`).toBeCloseTo(ms, 1);
    }
  });
});
