// Glitch: deterministic, click-free drop-outs and stutters on the grid of the set rate.

import { describe, expect, it } from "vitest";
import { FS, maxStep, rms, sameBits, singleTone, type Stereo } from "../helpers";
import { render, tone } from "./helpers";

describe("glitch", () => {
  const rate = 4;
  const secs = 6;
  const dryRun = (): Stereo => render(singleTone(300), secs);
  it("drops out on the grid of the set rate, deterministically and without clicks", () => {
    const a = render(tone(300, "glitch", { value: rate }), secs);
    const b = render(tone(300, "glitch", { value: rate }), secs);
    expect(sameBits(a.left, b.left) && sameBits(a.right, b.right)).toBe(true);
    const dry = dryRun().left;
    const frame = 120; // 2.5 ms
    const period = FS / rate;
    const level = rms(dry, 4800);
    let drops = 0;
    let onGrid = 0;
    let quiet = false;
    for (let o = 0; o + frame <= a.left.length; o += frame) {
      const q = rms(a.left, o, o + frame) < 0.02 * level;
      if (q && !quiet) {
        drops++;
        const phase = (o % period) / period;
        if (phase < 0.03 || phase > 0.99) onGrid++;
      }
      quiet = q;
    }
    expect(drops).toBeGreaterThan(2);
    expect(onGrid).toBe(drops);
    // Click-free: no step beyond the tone's own plus the 2.5 ms fades' slope (a click would be
    // a jump of the order of the amplitude, 25 times the tone's step).
    expect(maxStep(a.left)).toBeLessThan(maxStep(dry) * 1.3);
  });

  it("stutters: some events replay the sound instead of passing it", () => {
    const a = render(tone(300, "glitch", { value: rate }), secs).left;
    const dry = dryRun().left;
    const period = FS / rate;
    let replaced = 0;
    for (let k = 1; k < secs * rate - 1; k++) {
      const o = Math.round(k * period) + 480, e = Math.round((k + 1) * period) - 480;
      let err = 0;
      for (let i = o; i < e; i++) err += (a[i] - dry[i]) ** 2;
      const loud = rms(a, o, e) > 0.5 * rms(dry, o, e);
      if (loud && Math.sqrt(err / (e - o)) > 0.1 * rms(dry, o, e)) replaced++;
    }
    expect(replaced).toBeGreaterThan(2);
  });
});
