// 360° Pan: the sound circles the head at the set rate with constant total power (equal-power law).

import { describe, expect, it } from "vitest";
import { FS, db, rms } from "../helpers";
import { render, tone } from "./helpers";

describe("pan360", () => {
  it("circles the head at the set rate with constant total power (equal-power law)", () => {
    const rate = 1;
    const { left, right } = render(tone(600, "pan360", { value: rate }), 2.05);
    const frame = 480;
    let worstPos = 0, pmin = Infinity, pmax = 0;
    for (let o = 4800; o + frame <= left.length; o += frame) {
      const l2 = rms(left, o, o + frame) ** 2, r2 = rms(right, o, o + frame) ** 2;
      const t = (o + frame / 2) / FS;
      const p = (2 / Math.PI) * Math.asin((r2 - l2) / (r2 + l2));
      worstPos = Math.max(worstPos, Math.abs(p - Math.sin(2 * Math.PI * rate * t)));
      pmin = Math.min(pmin, l2 + r2);
      pmax = Math.max(pmax, l2 + r2);
    }
    expect(worstPos).toBeLessThan(0.06);
    expect(db(pmax / pmin) / 2).toBeLessThan(0.3);
  });
});
