// Ping Pong Delay: echoes at d on the left and 1.5 d on the right, cross-fed at the feedback, blended by the mix.

import { describe, expect, it } from "vitest";
import { FS, peak, rms, singleTone } from "../helpers";
import { burst, tone } from "./helpers";

describe("pingPong", () => {
  it("echoes at d on the left and 1.5 d on the right, then cross-fed at 2.5 d", () => {
    const d = 0.2;
    const out = burst(tone(500, "pingPong", { value: d, feedback: 0.5, mix: 1 }), 0.05, 0.75);
    const onset = (x: Float32Array, from: number): number => {
      const th = 0.3 * 0.15;
      for (let i = Math.round(from * FS); i < x.length; i++) if (Math.abs(x[i]) > th) return i / FS;
      return Infinity;
    };
    expect(onset(out.left, 0.01)).toBeCloseTo(d, 2);
    expect(onset(out.right, 0.01)).toBeCloseTo(1.5 * d, 2);
    // Second echoes: each side hears the other's first echo after its own delay: 2.5 d, at feedback x.
    const lvl = (x: Float32Array, t: number): number => rms(x, Math.round((t + 0.01) * FS), Math.round((t + 0.04) * FS));
    const first = lvl(out.left, d), second = lvl(out.left, 2.5 * d);
    expect(second / first).toBeCloseTo(0.5, 1);
    expect(lvl(out.right, 2.5 * d) / lvl(out.right, 1.5 * d)).toBeCloseTo(0.5, 1);
    expect(lvl(out.left, 1.5 * d)).toBeLessThan(0.01 * first); // nothing on the left at 1.5 d
  });

  it("mix blends dry and echoes: 0 passes the burst with no echo, the default 0.5 halves both", () => {
    const d = 0.2;
    const level = (x: Float32Array, t: number): number => rms(x, Math.round((t + 0.01) * FS), Math.round((t + 0.04) * FS));
    const dry = level(burst(singleTone(500), 0.05, 0.4).left, 0);
    const none = burst(tone(500, "pingPong", { value: d, mix: 0 }), 0.05, 0.4);
    expect(level(none.left, 0) / dry).toBeCloseTo(1, 2);
    // From 0.15 s the burst has faded out; the echoes would come at 0.2 s (left) and 0.3 s (right).
    expect(peak(none.left.subarray(Math.round(0.15 * FS))), "no echo on the left at mix 0").toBe(0);
    expect(peak(none.right.subarray(Math.round(0.15 * FS))), "no echo on the right at mix 0").toBe(0);
    const half = burst(tone(500, "pingPong", { value: d }), 0.05, 0.4);
    expect(level(half.left, 0) / dry, "dry burst").toBeCloseTo(0.5, 2);
    expect(level(half.left, d) / dry, "first echo (left, d)").toBeCloseTo(0.5, 2);
    expect(level(half.right, 1.5 * d) / dry, "first echo (right, 1.5 d)").toBeCloseTo(0.5, 2);
  });
});
