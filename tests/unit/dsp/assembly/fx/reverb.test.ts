// Reverb: the tail's decay time (RT60, Schroeder integration) is value/30 seconds.

import { describe, expect, it } from "vitest";
import { FS } from "../helpers";
import { burst, tone } from "./helpers";

describe("reverb", () => {
  for (const value of [30, 60, 90]) {
    it(`value ${value}: the tail's RT60 is ${(value / 30).toFixed(0)} s within 20 %`, () => {
      const rt = value / 30;
      const cut = 0.5;
      const out = burst(tone(440, "reverb", { value }), cut, cut + 0.05 + rt * 1.2);
      // Schroeder backward integration of the tail (both ears), then a line through -5..-25 dB.
      const from = Math.round((cut + 0.05) * FS);
      const n = out.left.length - from;
      const edc = new Float64Array(n);
      let acc = 0;
      for (let i = n - 1; i >= 0; i--) {
        acc += out.left[from + i] ** 2 + out.right[from + i] ** 2;
        edc[i] = acc;
      }
      const level = (i: number): number => 10 * Math.log10(edc[i] / edc[0]);
      const pts: [number, number][] = [];
      for (let i = 0; i < n; i += 48) {
        const l = level(i);
        if (l <= -5 && l >= -25) pts.push([i / FS, l]);
      }
      const mx = pts.reduce((s, p) => s + p[0], 0) / pts.length, my = pts.reduce((s, p) => s + p[1], 0) / pts.length;
      const slope = pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
      const measured = -60 / slope;
      expect(measured).toBeGreaterThan(rt * 0.8);
      expect(measured).toBeLessThan(rt * 1.2);
    });
  }
});
