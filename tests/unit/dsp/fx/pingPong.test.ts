// Ping Pong Delay: echoes at d on the left and 1.5 d on the right, cross-fed at the feedback, blended by the mix.

import { describe, expect, it } from "vitest";
import { FS, rms } from "../helpers";
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
});
